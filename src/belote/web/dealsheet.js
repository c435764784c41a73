// The deal's sheet in the end-of-deal panel: the rows the engine scored (view.result.rows, one per
// row of belote.scoring.ROWS that some score has: card points, last trick, declarations, belote,
// points given or taken on a dedans, capot, contract, coinche...), each score in its column, then the
// points each score adds. Drawn as the server gives them: the page works no score out, so the rows
// of a column add up to the points it adds (docs/protocol.md, "result.rows").

import { esc } from "./dom.js";
import { hasWords, t } from "./i18n.js";

/**
 * A row's points as the sheet writes them: a true minus for points taken away, nothing where the
 * score has no such row.
 *
 *   rowPoints(152) === "152"; rowPoints(-90) === "−90"; rowPoints(undefined) === ""
 */
export function rowPoints(points) {
  if (points === undefined || points === null) return "";
  return points < 0 ? `\u2212${-points}` : String(points);
}

/** A row's words (`row_NAME` in i18n.js), the multiplier of a surcoinche named; a row the page has no words for by its name. */
export function rowLabel(name, contract = null) {
  const key = `row_${name}`;
  return hasWords(key) ? t(key, { n: contract ? contract.multiplier : 4 }) : name;
}

/**
 * The rows of a deal's sheet for the columns `cols` (score names, the reader's first), as table rows:
 * `<tr data-row="capot">` with one cell per column. A deal without rows (thrown in) has none.
 */
export function sheetRowsHtml(result, cols) {
  return (result.rows || [])
    .map(
      ({ row, points }) =>
        `<tr data-testid="row-${esc(row)}" data-row="${esc(row)}"><th scope="row">${esc(rowLabel(row, result.contract))}</th>` +
        cols.map((x) => `<td>${rowPoints(points[x])}</td>`).join("") +
        `</tr>`,
    )
    .join("");
}

/** What each score adds to the match, the total under the rows: "+342". */
export function addedHtml(result, cols) {
  return (
    `<tr class="strong" data-testid="row-added"><th scope="row">${esc(t("added"))}</th>` +
    cols.map((x) => `<td>+${result.points[x]}</td>`).join("") +
    `</tr>`
  );
}
