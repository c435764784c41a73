// Coinche at the table: the bids as the server names them ("110H", "90NT", "capotAT", "coinche",
// "surcoinche"; src/belote/contracts.py), the words for a contract, and the bid panel. The panel
// only offers what the view's `legal` list holds: the page never decides what may be bid.

import { esc } from "./dom.js";
import { suitIcon } from "./cards.js";

export const MODES = ["S", "H", "D", "C", "NT", "AT"];
const BID_RE = /^(\d+|capot|generale)(S|H|D|C|NT|AT)$/;

/** A contract bid as {level, mode} ("110H" -> {level: "110", mode: "H"}), or null for anything else. */
export function parseBid(bid) {
  const m = BID_RE.exec(bid);
  return m ? { level: m[1], mode: m[2] } : null;
}

/** The levels a bid may name at this table, lowest first: 80 to 160 (or 180), capot, générale. */
export function levelsOf(rules) {
  const top = (rules && rules.coinche_max_bid) || 160;
  const levels = [];
  for (let n = 80; n <= top; n += 10) levels.push(String(n));
  levels.push("capot");
  if (rules && rules.generale) levels.push("generale");
  return levels;
}

/** A trump mode as HTML: the suit's shape, or a short badge for no-trumps and all-trumps. */
export function modeHtml(mode, t) {
  if (mode === "NT" || mode === "AT") {
    return `<span class="mode-badge mode-${mode}" title="${esc(t(`mode${mode}`))}">${esc(t(`mode${mode}Short`))}</span>`;
  }
  return suitIcon(mode, t(`suit${mode}`));
}

/** A trump mode in words: "hearts", "No trumps". */
export function modeWord(mode, t) {
  return mode === "NT" || mode === "AT" ? t(`mode${mode}`) : t(`suit${mode}`);
}

/** A level in words: "110", "Capot", "Générale". */
export function levelWord(level, t) {
  return level === "capot" ? t("levelCapot") : level === "generale" ? t("levelGenerale") : level;
}

/** A contract ({level, mode, multiplier}) as HTML: "110 ♥", then coinché / surcoinché and its factor. */
export function contractHtml(c, t) {
  let html = `<span class="contract-bid" data-testid="contract-bid">${esc(levelWord(c.level, t))} ${modeHtml(c.mode, t)}</span>`;
  const m = c.multiplier || 1;
  if (m > 1) {
    const word = m === 2 ? t("coinched") : t("surcoinched");
    html += ` <span class="doubled m${m}" data-testid="contract-multiplier">${esc(word)} ×${m}</span>`;
  }
  return html;
}

/** A contract in plain text, for logs and titles: "110 ♥ coinché ×2". */
export function contractText(c, t) {
  const mode = { S: "♠", H: "♥", D: "♦", C: "♣" }[c.mode] || t(`mode${c.mode}Short`);
  const m = c.multiplier || 1;
  const doubled = m > 1 ? ` ${m === 2 ? t("coinched") : t("surcoinched")} ×${m}` : "";
  return `${levelWord(c.level, t)} ${mode}${doubled}`;
}

/** A bid of the auction as HTML, for the seats' bubbles: "110 ♥", "Coinche!", "Pass". */
export function bidHtml(bid, t) {
  if (bid === "pass") return esc(t("passed"));
  if (bid === "coinche") return esc(t("coincheSay"));
  if (bid === "surcoinche") return esc(t("surcoincheSay"));
  const c = parseBid(bid);
  return c ? `${esc(levelWord(c.level, t))} ${modeHtml(c.mode, t)}` : esc(bid);
}

/**
 * The bid panel: the contract standing and who bid it; a button per level (enabled when some bid
 * at that level is legal), a button per trump mode (enabled when the chosen level in that mode is
 * legal: pressing it bids), then Pass, Coinche and Surcoinche. `level` is the level chosen.
 */
export function bidPanelHtml({ legal, rules, contract, bidderName, level, sending, t }) {
  const legalSet = new Set(legal);
  const open = new Set(legal.map(parseBid).filter(Boolean).map((b) => b.level));
  const off = (ok) => (ok && !sending ? "" : " disabled");
  const standing = contract
    ? `<span class="standing" data-testid="bid-standing">${esc(t("contractNow"))} ${contractHtml(contract, t)} · ${esc(bidderName)}</span>`
    : `<span class="standing" data-testid="bid-standing">${esc(t("noBidYet"))}</span>`;
  const levels = levelsOf(rules)
    .map(
      (l) =>
        `<button type="button" class="btn level${l === level ? " chosen" : ""}" data-level="${l}" ` +
        `data-testid="bid-level-${l}" aria-pressed="${l === level}"${off(open.has(l))}>${esc(levelWord(l, t))}</button>`,
    )
    .join("");
  const modes = MODES.filter((m) => (m !== "NT" && m !== "AT") || !rules || rules.no_trump_all_trump !== false)
    .map((m) => {
      const bid = `${level}${m}`;
      return (
        `<button type="button" class="btn mode-btn" data-bid="${bid}" data-testid="bid-mode-${m}" ` +
        `title="${esc(modeWord(m, t))}"${off(level && legalSet.has(bid))}>${modeHtml(m, t)}</button>`
      );
    })
    .join("");
  const say = (bid, cls, word) =>
    `<button type="button" class="btn ${cls}" data-bid="${bid}" data-testid="bid-${bid}"${off(legalSet.has(bid))}>${esc(t(word))}</button>`;
  return (
    `<div class="coinche-panel" data-testid="coinche-panel">${standing}` +
    `<div class="levels" role="group" aria-label="${esc(t("bidLevel"))}">${levels}</div>` +
    `<div class="modes-row" role="group" aria-label="${esc(t("bidMode"))}">${modes}</div>` +
    `<div class="says">${say("pass", "ghost", "pass")}${say("coinche", "danger", "coincheSay")}` +
    `${say("surcoinche", "danger", "surcoincheSay")}</div></div>`
  );
}

/** The lowest level at which something may be bid, or null when only pass / (sur)coinche are left. */
export function lowestLevel(legal, rules) {
  const open = new Set(legal.map(parseBid).filter(Boolean).map((b) => b.level));
  return levelsOf(rules).find((l) => open.has(l)) || null;
}
