// The rules and bot settings of a table (docs/protocol.md, "Settings"), and the one form builder
// that edits them wherever they are chosen: Play against bots, Create a table, a private table's
// lobby (and the game alone for Play online). Every form uses the server's setting names.

export const VARIANTS = ["classic", "coinche", "three-handed", "two-handed"];

export const DEFAULT_SETTINGS = {
  variant: "classic",
  target: 501,
  deals: null,
  direction: "clockwise",
  declarations: true,
  rounding: false,
  round_five: "down",
  undertrump: true,
  belote_counts: true,
  coinche_max_bid: 160,
  coinche_made: "points",
  coinche_failed: 160,
  surcoinche: 4,
  no_trump_all_trump: true,
  generale: false,
  strength: "normal",
  speed: "normal",
  lang: "en",
};

// ---------------------------------------------------------------------- building a form
const opt = (value, key) => `<option value="${value}" data-i18n="${key}"></option>`;

function select(name, id, options, cls = "field") {
  return (
    `<label class="${cls}" data-row="${name}"><span data-i18n="${LABELS[name]}"></span>` +
    `<select name="${name}" data-testid="${id}">${options.map(([v, k]) => opt(v, k)).join("")}</select></label>`
  );
}

function check(name, id) {
  return (
    `<label class="check" data-row="${name}"><input type="checkbox" name="${name}" data-testid="${id}">` +
    `<span data-i18n="${LABELS[name]}"></span></label>`
  );
}

function number(name, id, min, max, step, value, cls = "field") {
  return (
    `<label class="${cls}" data-row="${name}"><span data-i18n="${LABELS[name]}"></span>` +
    `<input name="${name}" type="number" min="${min}" max="${max}" step="${step}" value="${value}" inputmode="numeric" data-testid="${id}"></label>`
  );
}

const LABELS = {
  target: "settingsTarget",
  points: "settingsPoints",
  deals: "settingsDeals",
  direction: "settingsDirection",
  declarations: "settingsDeclarations",
  rounding: "settingsRounding",
  round_five: "settingsRoundFive",
  undertrump: "settingsUndertrump",
  belote_counts: "settingsBeloteCounts",
  coinche_max_bid: "settingsMaxBid",
  coinche_made: "settingsMade",
  coinche_failed: "settingsFailed",
  surcoinche: "settingsSurcoinche",
  no_trump_all_trump: "settingsNtAt",
  generale: "settingsGenerale",
  strength: "settingsStrength",
  speed: "settingsSpeed",
  turn_timer: "settingsTimer",
};

/** The game tiles: a radio button each, the game's name and a line on how it is played. */
export function variantPickerHtml(prefix) {
  const tiles = VARIANTS.map(
    (v) =>
      `<label class="variant-tile" data-testid="${prefix}-variant-${v}"><input type="radio" name="variant" value="${v}">` +
      `<span class="variant-name" data-i18n="variant_${v}"></span><span class="variant-help" data-i18n="variantHelp_${v}"></span></label>`,
  ).join("");
  return `<div class="variant-pick" role="radiogroup" data-testid="${prefix}-variant" data-i18n-label="settingsGame">${tiles}</div>`;
}

/**
 * The fields of a table's settings, as HTML: the game, its rules (the Coinche ones shown only for
 * Coinche), the target, the bots (`bots`), and the turn timer of a shared table (`timer`).
 * The test ids are `${prefix}-target`, `${prefix}-deals`, `${prefix}-strength`...
 */
export function settingsFieldsHtml(prefix, { bots = true, timer = false } = {}) {
  const p = (id) => `${prefix}-${id}`;
  return (
    `<div class="group-title" data-i18n="settingsGame"></div>` +
    variantPickerHtml(prefix) +
    `<div class="group-title" data-i18n="settingsMatch"></div>` +
    select("target", p("target"), [
      ["501", "points501"],
      ["1000", "points1000"],
      ["other", "settingsTargetOther"],
      ["deals", "settingsTargetDeals"],
    ]) +
    number("points", p("points"), 100, 5000, 1, 501, "field points-field") +
    number("deals", p("deals"), 1, 100, 1, 4, "field deals-field") +
    `<fieldset class="coinche-options" data-group="coinche"><legend data-i18n="coincheRules"></legend>` +
    select("coinche_max_bid", p("max-bid"), [
      ["160", "maxBid160"],
      ["180", "maxBid180"],
    ]) +
    select("coinche_made", p("made"), [
      ["points", "madePoints"],
      ["bid", "madeBid"],
    ]) +
    select("coinche_failed", p("failed"), [
      ["160", "failed160"],
      ["162", "failed162"],
    ]) +
    select("surcoinche", p("surcoinche"), [
      ["4", "surcoinche4"],
      ["3", "surcoinche3"],
    ]) +
    check("no_trump_all_trump", p("nt-at")) +
    check("generale", p("generale")) +
    check("belote_counts", p("belote-counts")) +
    `</fieldset>` +
    `<div class="group-title" data-i18n="settingsRules"></div>` +
    check("declarations", p("declarations")) +
    check("rounding", p("rounding")) +
    select("round_five", p("round-five"), [
      ["down", "roundFiveDown"],
      ["up", "roundFiveUp"],
    ], "field sub round-five-field") +
    check("undertrump", p("undertrump")) +
    select("direction", p("direction"), [
      ["clockwise", "clockwise"],
      ["counterclockwise", "counterclockwise"],
    ]) +
    (bots
      ? `<div class="group-title" data-i18n="settingsBots"></div>` +
        select("strength", p("strength"), [
          ["easy", "easy"],
          ["normal", "normal"],
          ["strong", "strong"],
        ]) +
        select("speed", p("speed"), [
          ["slow", "slow"],
          ["normal", "normal"],
          ["fast", "fast"],
        ])
      : "") +
    (timer ? number("turn_timer", p("timer"), 5, 600, 5, 30) : "")
  );
}

// ---------------------------------------------------------------------- filling and reading
/** Shows `settings` in a form; fields the form lacks are skipped. */
export function fillSettingsForm(form, settings) {
  const s = { ...DEFAULT_SETTINGS, ...settings };
  const f = form.elements;
  const set = (name, value) => {
    if (!f[name]) return;
    if (f[name].type === "checkbox") f[name].checked = Boolean(value);
    else f[name].value = String(value);
  };
  set("variant", VARIANTS.includes(s.variant) ? s.variant : "classic");
  if (f.target) {
    f.target.value = s.deals ? "deals" : s.target === 501 || s.target === 1000 ? String(s.target) : "other";
    set("points", s.target);
    set("deals", s.deals || 4);
  }
  for (const name of ["direction", "declarations", "rounding", "round_five", "undertrump", "belote_counts"]) set(name, s[name]);
  for (const name of ["coinche_max_bid", "coinche_made", "coinche_failed", "surcoinche", "no_trump_all_trump", "generale"]) {
    set(name, s[name]);
  }
  set("strength", s.strength);
  set("speed", s.speed);
  if (s.turn_timer) set("turn_timer", s.turn_timer);
  syncSettingsForm(form);
}

/** The settings a form shows (without the language, which belongs to the page). */
export function readSettingsForm(form) {
  const f = form.elements;
  const settings = {};
  if (f.variant) settings.variant = f.variant.value || "classic";
  if (f.target) {
    const choice = f.target.value;
    settings.target =
      choice === "other" ? clamp(parseInt(f.points.value, 10) || 501, 100, 5000) : choice === "deals" ? 501 : parseInt(choice, 10);
    settings.deals = choice === "deals" ? clamp(parseInt(f.deals.value, 10) || 4, 1, 100) : null;
  }
  for (const name of ["direction", "round_five", "coinche_made", "strength", "speed"]) if (f[name]) settings[name] = f[name].value;
  for (const name of ["declarations", "rounding", "undertrump", "belote_counts", "no_trump_all_trump", "generale"]) {
    if (f[name]) settings[name] = f[name].checked;
  }
  for (const name of ["coinche_max_bid", "coinche_failed", "surcoinche"]) if (f[name]) settings[name] = parseInt(f[name].value, 10);
  if (f.turn_timer) settings.turn_timer = clamp(parseInt(f.turn_timer.value, 10) || 30, 5, 600);
  return settings;
}

/** Shows the fields that mean something for the choices made: the Coinche rules, the number asked. */
export function syncSettingsForm(form) {
  const f = form.elements;
  const variant = (f.variant && f.variant.value) || "classic";
  const show = (row, on) => {
    const node = form.querySelector(row);
    if (node) node.hidden = !on;
  };
  if (f.target) {
    show(".deals-field", f.target.value === "deals");
    show(".points-field", f.target.value === "other");
  }
  show(".coinche-options", variant === "coinche");
  show('[data-row="round_five"]', Boolean(f.rounding && f.rounding.checked));
  // Two hands play without sequence and four-of-a-kind declarations (belote only).
  show('[data-row="declarations"]', variant !== "two-handed");
  for (const tile of form.querySelectorAll(".variant-tile")) {
    tile.classList.toggle("chosen", tile.querySelector("input").value === variant);
  }
}

function clamp(n, low, high) {
  return Math.max(low, Math.min(high, n));
}
