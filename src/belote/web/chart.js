// A rating over time as an inline SVG line chart, drawn by the page from a profile's history
// (GET /api/players/{id}: `history[game]`, [{at, rating}] oldest first). No library: the scale is
// worked out here (`chartScale`, `niceTicks`), checked under node by tests/js/chart.test.mjs.
//
// The matches are spaced evenly along the x axis (a rating moves by match, not by day); the y axis
// runs between round numbers around the ratings; the first and last dates are written under it.

/** Round steps for an axis: 1, 2, 5 times a power of ten. */
function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (raw <= m * power) return m * power;
  return 10 * power;
}

/**
 * Round ticks that cover [min, max] in about `count` steps: {low, high, step, ticks}. A flat line
 * (min equals max) gets a band of ten points around it.
 *
 *   niceTicks(1012, 1187, 4) -> {low: 1000, high: 1200, step: 50, ticks: [1000, 1050, ..., 1200]}
 */
export function niceTicks(min, max, count = 4) {
  let lo = Math.min(min, max);
  let hi = Math.max(min, max);
  if (hi - lo < 10) {
    const mid = (lo + hi) / 2;
    lo = mid - 5;
    hi = mid + 5;
  }
  const step = niceStep(hi - lo, count);
  const low = Math.floor(lo / step) * step;
  const high = Math.ceil(hi / step) * step;
  const ticks = [];
  for (let v = low; v <= high + step / 2; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return { low, high, step, ticks };
}

/**
 * Where each point of a history goes in a box `width` x `height` with `pad` {top, right, bottom,
 * left} kept for the labels: {points: [{x, y, rating, at}], ticks: [{value, y}], plot: {left, top,
 * right, bottom}}. The x of the i-th of n points is spread evenly (one point: the middle).
 */
export function chartScale(history, { width = 320, height = 160, pad = { top: 10, right: 12, bottom: 24, left: 44 } } = {}) {
  const plot = { left: pad.left, top: pad.top, right: width - pad.right, bottom: height - pad.bottom };
  const ratings = history.map((h) => h.rating);
  const { low, high, ticks } = niceTicks(Math.min(...ratings), Math.max(...ratings));
  const y = (v) => plot.bottom - ((v - low) / (high - low)) * (plot.bottom - plot.top);
  const n = history.length;
  const x = (i) => (n === 1 ? (plot.left + plot.right) / 2 : plot.left + (i / (n - 1)) * (plot.right - plot.left));
  return {
    plot,
    points: history.map((h, i) => ({ x: round(x(i)), y: round(y(h.rating)), rating: h.rating, at: h.at })),
    ticks: ticks.map((value) => ({ value, y: round(y(value)) })),
  };
}

function round(v) {
  return Math.round(v * 10) / 10;
}

/**
 * The chart as SVG markup: a role="img" named by `title` and described by `desc` (the words of the
 * page's language, given already escaped by the caller as `esc`), the y ticks written with `label`
 * (a number's words), the first and last dates with `date` (a time's words).
 */
export function ratingChartSvg(history, { width = 320, height = 160, title, desc, label = String, date = String, esc = (s) => s, id = "chart" } = {}) {
  if (!history.length) return "";
  const { plot, points, ticks } = chartScale(history, { width, height });
  const grid = ticks
    .map(
      (t) =>
        `<line class="grid" x1="${plot.left}" x2="${plot.right}" y1="${t.y}" y2="${t.y}"/>` +
        `<text class="tick" x="${plot.left - 6}" y="${t.y}" text-anchor="end" dominant-baseline="middle">${esc(label(t.value))}</text>`,
    )
    .join("");
  const line = points.map((p, i) => `${i ? "L" : "M"}${p.x} ${p.y}`).join(" ");
  const area = `${line} L${points[points.length - 1].x} ${plot.bottom} L${points[0].x} ${plot.bottom} Z`;
  const last = points[points.length - 1];
  const dots = points.length <= 30 ? points.map((p) => `<circle class="dot" cx="${p.x}" cy="${p.y}" r="2.6"/>`).join("") : "";
  const first = points[0];
  const dates =
    `<text class="date" x="${plot.left}" y="${height - 6}" text-anchor="start">${esc(date(first.at))}</text>` +
    (points.length > 1 ? `<text class="date" x="${plot.right}" y="${height - 6}" text-anchor="end">${esc(date(last.at))}</text>` : "");
  return (
    `<svg class="rating-chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}-title ${id}-desc" preserveAspectRatio="xMidYMid meet">` +
    `<title id="${id}-title">${esc(title || "")}</title><desc id="${id}-desc">${esc(desc || "")}</desc>` +
    `<g aria-hidden="true">${grid}` +
    (points.length > 1 ? `<path class="area" d="${area}"/><path class="line" d="${line}"/>` : "") +
    `${dots}<circle class="last" cx="${last.x}" cy="${last.y}" r="4.2"/>${dates}</g></svg>`
  );
}
