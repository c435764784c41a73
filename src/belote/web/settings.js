// The rules and bot settings of a table (docs/protocol.md, "Settings"), and the two forms that edit
// them: the solo dialog and a private table's lobby. Both forms use the same field names.

export const DEFAULT_SETTINGS = {
  target: 501,
  deals: null,
  direction: "clockwise",
  declarations: true,
  rounding: false,
  undertrump: true,
  strength: "normal",
  speed: "normal",
  lang: "en",
};

/** Shows `settings` in a form; fields the form lacks are skipped. */
export function fillSettingsForm(form, settings) {
  const f = form.elements;
  f.target.value = settings.deals ? "deals" : String(settings.target === 1000 ? 1000 : 501);
  f.deals.value = settings.deals || 4;
  f.direction.value = settings.direction;
  f.declarations.checked = settings.declarations;
  f.rounding.checked = settings.rounding;
  f.undertrump.checked = settings.undertrump;
  f.strength.value = settings.strength;
  f.speed.value = settings.speed;
  if (f.turn_timer && settings.turn_timer) f.turn_timer.value = settings.turn_timer;
  syncDealsField(form);
}

/** The settings a form shows (without the language, which belongs to the page). */
export function readSettingsForm(form) {
  const f = form.elements;
  const byDeals = f.target.value === "deals";
  const deals = clamp(parseInt(f.deals.value, 10) || 4, 1, 100);
  const settings = {
    target: byDeals ? 501 : parseInt(f.target.value, 10),
    deals: byDeals ? deals : null,
    direction: f.direction.value,
    declarations: f.declarations.checked,
    rounding: f.rounding.checked,
    undertrump: f.undertrump.checked,
    strength: f.strength.value,
    speed: f.speed.value,
  };
  if (f.turn_timer) settings.turn_timer = clamp(parseInt(f.turn_timer.value, 10) || 30, 5, 600);
  return settings;
}

/** The number of deals is asked only when the match is played to a number of deals. */
export function syncDealsField(form) {
  form.querySelector(".deals-field").hidden = form.elements.target.value !== "deals";
}

function clamp(n, low, high) {
  return Math.max(low, Math.min(high, n));
}
