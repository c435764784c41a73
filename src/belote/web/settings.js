// The one form builder for the settings of a game (docs/protocol.md, "Settings"), built from the
// server's description of the games and their options (GET /api/games, games.js): the game tiles,
// then each option by its kind (a list of choices, a yes or no, a number in its range), in its
// group, shown only for the games that read it. The table page uses it to play against bots, to
// create a table and in a private table's lobby (the tiles alone for Play online); the score sheet
// uses it for its setup. A field's name is the option's name, and a form gives back the option's
// type, so the server checks what a form sends with the same description.

import { defaultSettings, GAMES, gameOf, isGame, OPTIONS, TABLE_SETTINGS } from "./games.js";

export const DEFAULT_SETTINGS = { ...defaultSettings(), lang: "en" };
/** The rules' own defaults, for a form that is not a table's (the score sheet's match is to 501). */
export const RULE_DEFAULTS = { ...defaultSettings(false), lang: "en" };

/** The lines a match can be played to at one pick; any other number of points, or of deals, is typed. */
const TARGET_PICKS = [501, 1000];

const testId = (prefix, name) => `${prefix}-${name.replaceAll("_", "-")}`;
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

/** The words of an option's value: its own words when the page has them, else the value itself (160, ×4...). */
export function choiceKey(option, value) {
  return `choice_${option.name}_${value}`;
}

// ---------------------------------------------------------------------- building a form
/**
 * The game tiles: a radio button each, the game's name and a line on how it is played. A game the
 * page has no words for is named by the server's title, without the line.
 */
export function variantPickerHtml(prefix) {
  const tiles = GAMES.map(
    ({ name, title }) =>
      `<label class="variant-tile" data-testid="${prefix}-variant-${name}"><input type="radio" name="variant" value="${name}">` +
      `<span class="variant-name" data-i18n="variant_${name}" data-i18n-else="${esc(title)}"></span>` +
      `<span class="variant-help" data-i18n="variantHelp_${name}" data-i18n-else=""></span></label>`,
  ).join("");
  return `<div class="variant-pick" role="radiogroup" data-testid="${prefix}-variant" data-i18n-label="settingsGame">${tiles}</div>`;
}

// The spec's help is a line of English for programs and people reading it; the form's words are the label's.
function labelHtml(option) {
  return `<span data-i18n="${option.label}"></span>`;
}

function fieldHtml(prefix, option) {
  const id = testId(prefix, option.name);
  const row = `data-row="${option.name}" data-option="${option.name}"`;
  if (option.kind === "bool") {
    return (
      `<label class="check" ${row}><input type="checkbox" name="${option.name}" data-testid="${id}">` +
      `${labelHtml(option)}</label>`
    );
  }
  // An option that means something only under a bool option (its spec's shown_with) sits beneath its box.
  const cls = option.shown_with ? "field sub" : "field";
  if (option.kind === "choice") {
    const choices = option.choices
      .map((v) => `<option value="${esc(v)}" data-i18n="${choiceKey(option, v)}" data-i18n-else="${esc(v)}"></option>`)
      .join("");
    return `<label class="${cls}" ${row}>${labelHtml(option)}<select name="${option.name}" data-testid="${id}">${choices}</select></label>`;
  }
  return (
    `<label class="${cls}" ${row}>${labelHtml(option)}<input name="${option.name}" type="number" min="${option.min}" ` +
    `max="${option.max}" step="1" value="${option.default ?? option.min}" inputmode="numeric" data-testid="${id}"></label>`
  );
}

/**
 * The line of a match as one choice (501, 1000, another number of points, a number of deals) and the
 * number asked for the last two, in the ranges of the options `target` and `deals`.
 */
function lineHtml(prefix, target, deals) {
  const picks = TARGET_PICKS.filter((n) => n >= target.min && n <= target.max);
  const choices = [
    ...picks.map((n) => [String(n), `points${n}`]),
    ["other", "settingsTargetOther"],
    ...(deals ? [["deals", "settingsTargetDeals"]] : []),
  ];
  const options = choices.map(([v, key]) => `<option value="${v}" data-i18n="${key}"></option>`).join("");
  const number = (option, name, id, value, cls) =>
    `<label class="field ${cls}" data-row="${name}" data-option="${option.name}"><span data-i18n="${option === target ? "settingsPoints" : option.label}"></span>` +
    `<input name="${name}" type="number" min="${option.min}" max="${option.max}" step="1" value="${value}" inputmode="numeric" data-testid="${prefix}-${id}"></label>`;
  return (
    `<label class="field" data-row="target" data-option="target"><span data-i18n="${target.label}"></span>` +
    `<select name="target" data-testid="${prefix}-target">${options}</select></label>` +
    number(target, "points", "points", target.default, "points-field") +
    (deals ? number(deals, "deals", "deals", DEALS_SHOWN, "deals-field") : "")
  );
}
/** The number of deals offered when a match is first set to a number of deals. */
const DEALS_SHOWN = 4;

/** The options in groups, in the server's order: [group, [option...]]. */
function groups(options) {
  const out = new Map();
  for (const o of options) {
    if (o.name === "variant") continue;
    if (!out.has(o.group)) out.set(o.group, []);
    out.get(o.group).push(o);
  }
  return [...out];
}

/** A group of options only some games read (Coinche's own) is boxed, and shown for those games alone. */
function ownGroup(options) {
  return options.every((o) => o.games);
}

function groupHtml(prefix, group, options) {
  const byName = Object.fromEntries(options.map((o) => [o.name, o]));
  let fields = "";
  for (const o of options) {
    if (o.name === "deals" && byName.target) continue;
    fields += o.name === "target" ? lineHtml(prefix, o, byName.deals) : fieldHtml(prefix, o);
  }
  const names = options.map((o) => o.name).join(" ");
  if (ownGroup(options)) {
    return (
      `<fieldset class="option-box" data-group="${group}" data-options="${names}" data-testid="${prefix}-group-${group}">` +
      `<legend data-i18n="group_${group}"></legend>${fields}</fieldset>`
    );
  }
  return `<div class="group-title" data-group="${group}" data-options="${names}" data-i18n="group_${group}"></div>${fields}`;
}

/**
 * The fields of the options of a `place` ("table": those a host chooses; "sheet": those a score
 * sheet holds), as HTML, grouped, then the table settings named in `table` (`strength`, `speed`,
 * `turn_timer`). The test ids are `${prefix}-` and the option's name with hyphens:
 * `${prefix}-coinche-max-bid`; the line of the match is `${prefix}-target` with `${prefix}-points`
 * and `${prefix}-deals`. `syncSettingsForm` then shows those the chosen game reads.
 */
export function optionsHtml(prefix, { place = "table", table = [] } = {}) {
  const offered = OPTIONS.filter((o) => GAMES.some((g) => g.shows(o.name, place)));
  const chosen = TABLE_SETTINGS.filter((o) => table.includes(o.name));
  const html = [...groups(offered), ...groups(chosen)].map(([group, options]) => groupHtml(prefix, group, options)).join("");
  return `<div class="option-fields" data-place="${place}">${html}</div>`;
}

/** The whole form: the game tiles, then the options (`optionsHtml`). */
export function settingsFieldsHtml(prefix, { place = "table", table = [] } = {}) {
  return (
    `<div class="group-title" data-i18n="settingsGame"></div>` +
    variantPickerHtml(prefix) +
    optionsHtml(prefix, { place, table })
  );
}

// ---------------------------------------------------------------------- filling and reading
const ALL = () => [...OPTIONS, ...TABLE_SETTINGS];

/** Shows `settings` in a form (over a table's defaults, or `defaults`); fields the form lacks are skipped. */
export function fillSettingsForm(form, settings, defaults = DEFAULT_SETTINGS) {
  const s = { ...defaults, ...settings };
  const f = form.elements;
  if (f.variant) f.variant.value = isGame(s.variant) ? s.variant : GAMES[0].name;
  for (const option of ALL()) {
    const field = f[option.name];
    if (!field || option.name === "variant" || option.name === "deals") continue;
    if (option.name === "target" && f.points) {
      field.value = s.deals ? "deals" : TARGET_PICKS.includes(s.target) ? String(s.target) : "other";
      f.points.value = String(s.target);
      if (f.deals) f.deals.value = String(s.deals || DEALS_SHOWN);
    } else if (option.kind === "bool") field.checked = Boolean(s[option.name]);
    else if (s[option.name] !== null && s[option.name] !== undefined) field.value = String(s[option.name]);
  }
  syncSettingsForm(form);
}

/** Where a form's options are chosen: at a table, or for a score sheet. */
function placeOf(form) {
  const fields = form.querySelector("[data-place]");
  return fields ? fields.dataset.place : "table";
}

function clamp(n, low, high) {
  return Math.max(low, Math.min(high, n));
}

/** A number typed in a field, kept in the option's range (its default when it is not a number). */
function intOf(field, option, fallback = option.default) {
  const n = parseInt(field.value, 10);
  return clamp(Number.isNaN(n) ? fallback : n, option.min, option.max);
}

/** The value of a choice with the type of the option's choices (160, not "160"). */
function choiceOf(field, option) {
  return option.choices.find((c) => String(c) === field.value) ?? option.default;
}

/**
 * The settings a form shows (without the language, which belongs to the page), with the options'
 * names and types. With `onlyRead`, only the options the chosen game reads (a score sheet takes no
 * other); else every option the form has, as a table keeps them for another game.
 */
export function readSettingsForm(form, { onlyRead = false } = {}) {
  const f = form.elements;
  const settings = {};
  if (f.variant) settings.variant = f.variant.value || GAMES[0].name;
  const game = gameOf(settings.variant);
  const place = placeOf(form);
  for (const option of ALL()) {
    const field = f[option.name];
    if (!field || option.name === "variant" || option.name === "deals") continue;
    if (onlyRead && !game.shows(option.name, place)) continue;
    if (option.name === "target" && f.points) {
      const deals = OPTIONS.find((o) => o.name === "deals");
      const choice = field.value;
      settings.target = choice === "other" ? intOf(f.points, option) : choice === "deals" ? option.default : parseInt(choice, 10);
      if (deals) settings.deals = choice === "deals" && f.deals ? intOf(f.deals, deals, DEALS_SHOWN) : null;
    } else if (option.kind === "bool") settings[option.name] = field.checked;
    else if (option.kind === "choice") settings[option.name] = choiceOf(field, option);
    else settings[option.name] = intOf(field, option);
  }
  return settings;
}

/**
 * Shows the fields that mean something for the choices made: the options the game reads (a group
 * when it reads one of them), the number asked for the line, a rounding's five when rounding.
 */
export function syncSettingsForm(form) {
  const f = form.elements;
  const variant = (f.variant && f.variant.value) || GAMES[0].name;
  const game = gameOf(variant);
  const place = placeOf(form);
  const show = (node, on) => {
    if (node) node.hidden = !on;
  };
  for (const node of form.querySelectorAll("[data-option]")) show(node, game.shows(node.dataset.option, place));
  for (const node of form.querySelectorAll("[data-options]")) {
    show(node, node.dataset.options.split(" ").some((name) => game.shows(name, place)));
  }
  if (f.target && f.points) {
    show(form.querySelector(".deals-field"), game.shows("deals", place) && f.target.value === "deals");
    show(form.querySelector(".points-field"), f.target.value === "other");
  }
  for (const { name, shown_with: on } of ALL()) {
    const node = on && form.querySelector(`[data-row="${name}"]`);
    if (node && !node.hidden) show(node, Boolean(f[on] && f[on].checked));
  }
  for (const tile of form.querySelectorAll(".variant-tile")) {
    tile.classList.toggle("chosen", tile.querySelector("input").value === variant);
  }
}
