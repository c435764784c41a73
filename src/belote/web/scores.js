// The score sheet page. The server scores every deal (with the engine's own score_deal) and
// answers with the whole sheet; this page only collects what the table counted and draws the
// sheet it is given, so it never holds a second copy of the scoring. It does check an entry before
// sending it, by the same rules as the server's (belote/sheet.py: what a deal may hold, not what it
// scores), so that a mistake is named next to its field at once.

import { GAMES, gameOf, SHEET_LIMITS } from "./games.js";
import { browserLang, getLang, hasWords, own, setLang, t, translatePage } from "./i18n.js";
import { fillSettingsForm, optionsHtml, readSettingsForm, RULE_DEFAULTS, syncSettingsForm, variantPickerHtml } from "./settings.js";

const NETWORK = "network"; // the code of a server that does not answer (its words: "sheet-error-network")
const $ = (id) => document.getElementById(id);
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const LANG_KEY = "belote-lang";
// The bounds of belote/sheet.py, as the server gives them (GET /api/games): a deal's card points, a
// side's declarations in one deal, a starting score, a name, and what the 24 cards in play at three
// hands hold with the last trick.
const {
  deal_points: DEAL_POINTS,
  max_declarations: MAX_DECLARATIONS,
  max_start: MAX_START,
  max_name: MAX_NAME,
  three_min_points: THREE_MIN_POINTS,
} = SHEET_LIMITS;
// Setup choices whose words are too long for a phone's select: the sheet says them short, and the
// chosen one in full under the field when there is more to say ("sheet-help-...").
const SHORT_CHOICES = ["litige", "direction"];
// The setup's name and starting score fields, one row per score the game keeps, in the order of its
// teams (scores.html has three rows: the most scores a game keeps).
const SCORE_ROWS = ["ns", "ew", "s"];
const rowsOf = (chosen, field) => SCORE_ROWS.slice(0, chosen.teams.length).map((row) => $(`${field}-${row}`));

let sheet = null; // the last sheet the server sent
let game = GAMES[0]; // the sheet's game (games.js)
let builtFor = null; // the game and teams the deal form was built for
// What the page says is wrong, kept to be said again in the other language: the server's refusals
// by the box that shows them, and the page's own problems, each next to its field.
const refusals = { error: null, "setup-error": null, "deal-error": null, "undo-error": null };
let problems = []; // [{ control, key }]

// The setup form is the table's (settings.js), built before anything looks its fields up.
for (const box of document.querySelectorAll("[data-fields]")) {
  const prefix = box.dataset.fields;
  box.outerHTML = box.dataset.only === "variant" ? variantPickerHtml(prefix) : optionsHtml(prefix, { place: "sheet" });
}
for (const name of SHORT_CHOICES) {
  const select = document.querySelector(`#setup-form select[name="${name}"]`);
  if (!select) continue;
  for (const option of select.options) {
    // A choice without short words keeps its own (or, without those, its value).
    const short = `sheet-choice-${name}-${option.value}`;
    if (!hasWords(short)) continue;
    option.dataset.i18n = short;
    delete option.dataset.i18nElse;
  }
  const help = document.createElement("p");
  help.className = "hint choice-help";
  help.id = `${name}-help`;
  select.setAttribute("aria-describedby", help.id);
  select.closest("label").after(help);
  select.addEventListener("change", () => sayChoice(select));
}

/** The full words of a short choice, under its field. */
function sayChoice(select) {
  const help = $(`${select.name}-help`);
  const key = `sheet-help-${select.name}-${select.value}`;
  help.textContent = own(key) ?? "";
  help.hidden = !own(key) || select.closest("[data-row]").hidden;
}

function chooseLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked === "en" || asked === "fr") return asked;
  try {
    const kept = localStorage.getItem(LANG_KEY);
    if (kept === "en" || kept === "fr") return kept;
  } catch {
    // Storage can be refused (private windows); the browser's language is then the guide.
  }
  return browserLang();
}

function applyLanguage() {
  document.title = t("sheet-title");
  translatePage();
  const button = $("lang");
  button.textContent = t("other-language");
  button.lang = getLang() === "en" ? "fr" : "en";
  for (const name of SHORT_CHOICES) {
    const select = document.querySelector(`#setup-form select[name="${name}"]`);
    if (select) sayChoice(select);
  }
  if (sheet) render(sheet);
  for (const [box, error] of Object.entries(refusals)) showRefusal(box, error);
  showProblems(problems);
}

// ------------------------------------------------------------------ talking to the server

class Refused extends Error {
  constructor(message, code, sheet) {
    super(message);
    this.code = code;
    this.sheet = sheet;
  }
}

async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Refused(own(`sheet-error-${NETWORK}`) ?? NETWORK, NETWORK);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new Refused(data?.error ?? `HTTP ${response.status}`, data?.code ?? "", data?.sheet ?? null);
  }
  return data;
}

/** A refusal's words: those of its code in the page's language, else the server's sentence. */
function refusalWords(error) {
  const known = error.code && own(`sheet-error-${error.code}`);
  if (known) return known;
  const text = error.message.trim();
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?…]$/.test(text) ? "" : ".");
}

/** Shows a refusal of the server in one of the page's boxes (`id`), or empties the box with null. */
function showRefusal(id, error) {
  refusals[id] = error;
  const box = $(id);
  box.hidden = !error;
  box.textContent = error ? refusalWords(error) : "";
}

function clearRefusals() {
  for (const id of Object.keys(refusals)) showRefusal(id, null);
}

// ------------------------------------------------------------------ problems next to their fields

/** Where a problem with a control is said: after its row, its group or its label. */
function anchorOf(control) {
  return control.closest(".team-row, .group") ?? control.closest("label") ?? control;
}

/** What takes the focus for a control: a field itself, or the first choice of a group. */
function focusOf(control) {
  if (control.matches("input, select")) return control;
  return control.querySelector("input:checked:not(:disabled)") ?? control.querySelector("input:not(:disabled)");
}

/**
 * Says each problem ({control, key, params}) under its control's row, marks the control invalid and
 * described by the words; problems of an earlier check are taken away first.
 */
function showProblems(list) {
  for (const old of document.querySelectorAll(".field-error")) old.remove();
  for (const control of document.querySelectorAll("[aria-invalid]")) {
    control.removeAttribute("aria-invalid");
    const described = (control.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => !id.startsWith("problem-"));
    if (described.length) control.setAttribute("aria-describedby", described.join(" "));
    else control.removeAttribute("aria-describedby");
  }
  // In the order of the form, whatever the order of the checks.
  const before = (a, b) => a.control.compareDocumentPosition(b.control) & Node.DOCUMENT_POSITION_PRECEDING;
  problems = [...list].sort((a, b) => (before(a, b) ? 1 : -1));
  problems.forEach((problem, i) => {
    const words = document.createElement("p");
    words.className = "field-error";
    words.id = `problem-${i}`;
    words.textContent = t(problem.key, problem.params ?? {});
    let anchor = anchorOf(problem.control);
    while (anchor.nextElementSibling?.classList.contains("field-error")) anchor = anchor.nextElementSibling;
    anchor.after(words);
    problem.control.setAttribute("aria-invalid", "true");
    const described = problem.control.getAttribute("aria-describedby");
    problem.control.setAttribute("aria-describedby", described ? `${described} ${words.id}` : words.id);
  });
}

/** Shows the problems found, with the focus on the first; true when there was none. */
function passes(list) {
  showProblems(list);
  if (problems.length) focusOf(problems[0].control)?.focus();
  return list.length === 0;
}

/** A field mended: its problem goes (the others stay until the next check). */
function mended(event) {
  const left = problems.filter((p) => !p.control.contains(event.target) && p.control !== event.target);
  if (left.length !== problems.length) showProblems(left);
}

const whole = (v) => Number.isInteger(v);

// A number field as the server should see it: blank is missing, a number is a number, and
// anything else is passed on so that the server can say what is wrong with it.
function fieldValue(input) {
  const text = input.value.trim();
  if (text === "") return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

function checked(name) {
  return document.querySelector(`input[name="${name}"]:checked`)?.value ?? "";
}

/** The radio group of a name in the deal form. */
function groupOf(name) {
  return document.querySelector(`#deal-form input[name="${name}"]`).closest("[role=radiogroup]");
}

// ------------------------------------------------------------------ the host's choices

// The setup form for the chosen game: two teams, or two or three players, and the game's own options.
function showGameFields() {
  const form = $("setup-form");
  syncSettingsForm(form);
  const chosen = gameOf(form.elements.variant.value);
  $("third-player").hidden = !chosen.teams[2];
  $("teams-legend").dataset.i18n = chosen.partners ? "teams" : "players";
  $("teams-legend").textContent = t($("teams-legend").dataset.i18n);
  const labels = document.querySelectorAll("#setup-form .team-label");
  labels.forEach((label, i) => {
    label.dataset.i18n = chosen.partners ? `team-${i + 1}` : `player-${i + 1}`;
    label.textContent = t(label.dataset.i18n);
  });
  // A name still at its default follows the game: NS and EW, or N, E and S.
  const defaults = new Set(["", ...GAMES.flatMap((g) => g.teams)]);
  rowsOf(chosen, "name").forEach((input, i) => {
    if (defaults.has(input.value.trim())) input.value = chosen.teams[i];
  });
  for (const name of SHORT_CHOICES) {
    const select = form.querySelector(`select[name="${name}"]`);
    if (select) sayChoice(select);
  }
}

/** The problems of the setup, by the checks of belote/sheet.py (names, starting scores). */
function setupProblems(settings, chosen) {
  const found = [];
  const seen = new Set();
  rowsOf(chosen, "name").forEach((control, i) => {
    const name = settings.names[i].split(/\s+/).filter(Boolean).join(" ");
    const folded = name.toLowerCase();
    if (!name) found.push({ control, key: "sheet-check-name-missing" });
    else if (name.length > MAX_NAME || /\p{C}/u.test(name)) found.push({ control, key: "sheet-error-names" });
    else if (seen.has(folded)) found.push({ control, key: "sheet-check-name-same" });
    seen.add(folded);
  });
  rowsOf(chosen, "start").forEach((control, i) => {
    const points = settings.start[i];
    if (!whole(points) || points < 0 || points > MAX_START) found.push({ control, key: "sheet-error-start" });
    else if (settings.deals === null && points >= settings.target) {
      found.push({ control, key: "sheet-error-start-over" });
    }
  });
  return found;
}

async function createSheet(event) {
  event.preventDefault();
  // The rules are the options the game reads, as the table's form gives them.
  const rules = readSettingsForm($("setup-form"), { onlyRead: true });
  const chosen = gameOf(rules.variant);
  const names = rowsOf(chosen, "name").map((input) => input.value);
  const start = rowsOf(chosen, "start").map((input) => fieldValue(input) ?? 0);
  const settings = { ...rules, names, start };
  showRefusal("setup-error", null);
  if (!passes(setupProblems(settings, chosen))) return;
  const button = event.submitter ?? $("setup-form").querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const created = await api("POST", "/api/sheets", settings);
    const url = new URL(location.href);
    url.searchParams.set("sheet", created.id);
    history.replaceState(null, "", url);
    clearRefusals();
    show(created);
  } catch (error) {
    if (!(error instanceof Refused)) console.error(error);
    showRefusal("setup-error", error);
  } finally {
    button.disabled = false;
  }
}

// ------------------------------------------------------------------ the deal form

const key = (team) => team.toLowerCase();

// What the deal form enters, by what the game's sheet enters of a deal (`sheet_entry` in GET
// /api/games, the fact belote/sheet.py reads): the form's boxes shown, the radio group of who took
// (whose card points #cards holds, and where the next deal starts), the first column's words, and
// the entry's own steps: its fields built for a sheet, kept in step as they change, reset, read,
// checked, and a deal of it drawn.
const ENTRIES = {
  // Two scores: who took, and the takers' card points (the other side has the rest of 162).
  sides: {
    boxes: ["takers-fields", "cards-field", "capot-sides"],
    side: "takers",
    role: "takers",
    first: 'input[name="takers"]',
    column: "takers",
    read: () => ({ takers: checked("takers") || null, ...sidesOfForm() }),
    problems: (found) => checkSides(found, checked("takers"), "takers", "sheet-error-takers-missing"),
    cell: (row, entry, names) => cell(row, names[entry.takers]),
  },
  // The contract, who bid it and how far it was coinched, and the bidders' card points.
  contract: {
    boxes: ["contract-fields", "cards-field", "capot-sides"],
    side: "bidder",
    role: "bidders",
    first: "#level",
    column: "contract",
    build: buildLevels,
    update: updateContract,
    read: () => ({
      bidder: checked("bidder") || null,
      level: $("level").value || null,
      mode: checked("mode") || null,
      coinche: checked("coinche") || null,
      alone: $("alone").checked,
      ...sidesOfForm(),
    }),
    problems: contractProblems,
    cell: (row, entry, names) => {
      const times = entry.multiplier > 1 ? ` ×${entry.multiplier}` : "";
      cell(row, `${levelWords(entry.level)} ${modeWords(entry.mode)} ${names[entry.bidder]}${times}`, "contract");
    },
    outcome: (entry, names) => {
      if (entry.outcome === "capot") return null;
      const words = t(entry.outcome === "dedans" ? "sheet-failed" : `sheet-${entry.outcome}`);
      return entry.capot ? `${words}, ${t("capot-by", { name: names[entry.capot] })}` : words;
    },
  },
  // More than two scores: who dealt and who took, each player's card points (the last trick
  // included), and a capot is the taker's or the defenders'.
  players: {
    boxes: ["three-fields", "capot-three"],
    first: 'input[name="taker"]',
    column: "taker",
    update: updateTotal,
    reset: () => {
      const dealer = sheet.next_dealer && document.querySelector(`#deal-form input[name="dealer"][value="${sheet.next_dealer}"]`);
      if (dealer) dealer.checked = true;
    },
    read: () => {
      const cards = {};
      for (const team of sheet.teams) cards[team] = fieldValue($(`cards-${key(team)}`));
      return {
        taker: checked("taker") || null,
        dealer: checked("dealer") || null,
        cards,
        declarations: byTeam("decl"),
        belote: checked("belote") || null,
        capot: checked("capot3") || null,
      };
    },
    problems: playersProblems,
    cell: (row, entry, names) => {
      const taker = cell(row, names[entry.taker]);
      const small = document.createElement("small");
      small.textContent = t("dealt", { name: names[entry.dealer] });
      taker.append(small);
    },
    outcome: (entry, names) => {
      if (entry.outcome !== "capot") return null;
      return t(entry.capot === "taker" ? "capot-by" : "capot-against", { name: names[entry.taker] });
    },
  },
};
/** Every box some entry shows: those of the others are hidden. */
const BOXES = [...new Set(Object.values(ENTRIES).flatMap((entry) => entry.boxes))];
/** The entry of the sheet's game. */
const entryKind = () => ENTRIES[game.sheet_entry];

function radio(name, value, text, className) {
  const label = document.createElement("label");
  const input = document.createElement("input");
  input.type = "radio";
  input.name = name;
  input.value = value;
  const span = document.createElement("span");
  if (className) span.className = className;
  else {
    span.dataset.i18n = text;
    span.textContent = t(text);
  }
  label.append(input, " ", span);
  return [label, input];
}

// The parts of the form that depend on the sheet's sides or players, built once per sheet (drawing
// the sheet again after each answer must not lose what is being entered).
function buildForm(data) {
  const signature = `${data.variant}:${data.teams.join(",")}:${JSON.stringify(data.rules)}`;
  if (builtFor === signature) return;
  builtFor = signature;
  for (const group of document.querySelectorAll("#deal-form .sides")) {
    for (const label of group.querySelectorAll("label")) label.remove();
    const name = group.dataset.name;
    if (group.dataset.none) {
      const [label, input] = radio(name, "", "none");
      input.defaultChecked = true;
      group.append(label);
    }
    for (const team of data.teams) group.append(radio(name, team, "", `side-${key(team)}`)[0]);
  }
  for (const box of document.querySelectorAll("#deal-form .numbers")) {
    box.replaceChildren();
    for (const team of data.teams) {
      const label = document.createElement("label");
      label.className = "field mini";
      const span = document.createElement("span");
      span.className = `side-${key(team)}`;
      const input = document.createElement("input");
      input.type = "number";
      input.id = `${box.dataset.name}-${key(team)}`;
      input.name = input.id;
      input.min = "0";
      input.inputMode = "numeric";
      if (box.dataset.name === "decl") {
        input.step = "10";
        input.defaultValue = "0";
      } else {
        input.max = String(DEAL_POINTS);
        input.autocomplete = "off";
      }
      label.append(span, input);
      box.append(label);
    }
  }
  $("level").replaceChildren();
  const entry = entryKind();
  if (entry.build) entry.build(data);
  for (const box of BOXES) $(box).hidden = !entry.boxes.includes(box);
  $("declarations-field").hidden = !game.declarations;
  resetDealForm();
}

/** The contracts a bidder may name (80 up to the sheet's highest bid, capot, the générale), and no trumps and all trumps where they are played. */
function buildLevels(data) {
  const level = $("level");
  const levels = [];
  for (let n = 80; n <= data.rules.coinche_max_bid; n += 10) levels.push(String(n));
  levels.push("capot");
  if (data.rules.generale) levels.push("generale");
  const blank = document.createElement("option");
  blank.value = "";
  blank.textContent = "–";
  level.append(blank);
  for (const value of levels) {
    const option = document.createElement("option");
    option.value = value;
    if (/^\d+$/.test(value)) option.textContent = value;
    else {
      option.dataset.i18n = `level-${value}`;
      option.textContent = t(option.dataset.i18n);
    }
    level.append(option);
  }
  for (const label of document.querySelectorAll("#contract-fields .nt-at")) {
    label.hidden = !data.rules.no_trump_all_trump;
  }
}

/** Each player's card points entered, added up under them. */
function updateTotal() {
  const values = sheet.teams.map((team) => fieldValue($(`cards-${key(team)}`)));
  const total = values.reduce((sum, v) => sum + (Number.isInteger(v) ? v : 0), 0);
  $("three-total").textContent = t("three-total", { points: total });
}

/** No belote at no-trumps or all-trumps; the générale asks whether the bidder was alone. */
function updateContract() {
  const mode = checked("mode");
  const noSuit = mode === "NT" || mode === "AT";
  for (const input of document.querySelectorAll('#deal-form input[name="belote"]')) {
    input.disabled = noSuit && input.value !== "";
    if (noSuit && input.value === "") input.checked = true;
  }
  const generale = $("level").value === "generale";
  $("alone-field").hidden = !generale;
  if (!generale) $("alone").checked = false;
}

function updateCards() {
  if (!sheet) return;
  const entry = entryKind();
  if (!entry.side) {
    entry.update();
    return;
  }
  // Who the card points in #cards belong to: the takers, or the bidders.
  const side = checked(entry.side);
  const capot = checked("capot");
  const cards = $("cards");
  cards.disabled = capot !== "";
  if (capot !== "" && side !== "") cards.value = capot === side ? String(DEAL_POINTS) : "0";
  else if (capot !== "") cards.value = "";
  // The card points are the takers' (or bidders'): named by the side once it is chosen.
  const role = entry.role;
  $("cards-label").textContent = side === "" ? t(`${role}-cards`) : t(`sheet-cards-of-${role}`, { name: sheet.names[side] });
  const hint = $("defenders");
  const points = fieldValue(cards);
  if (side !== "" && Number.isInteger(points) && points >= 0 && points <= DEAL_POINTS) {
    const defenders = sheet.teams[1 - sheet.teams.indexOf(side)];
    hint.textContent = t("defenders", { name: sheet.names[defenders], points: DEAL_POINTS - points });
  } else {
    hint.textContent = t("defenders-rest");
  }
  if (entry.update) entry.update();
}

function resetDealForm() {
  const form = $("deal-form");
  form.reset();
  $("cards").value = "";
  if (sheet && entryKind().reset) entryKind().reset();
  updateCards();
}

function byTeam(prefix) {
  const out = {};
  for (const team of sheet.teams) out[team] = fieldValue($(`${prefix}-${key(team)}`)) ?? 0;
  return out;
}

/** What a deal of two scores holds besides who took: the card points in #cards, belote, capot, declarations. */
function sidesOfForm() {
  const capot = checked("capot");
  const entry = {
    // A capot fixes the card points; the server fills them in.
    cards: capot ? null : fieldValue($("cards")),
    belote: checked("belote") || null,
    capot: capot || null,
  };
  if (game.declarations) entry.declarations = byTeam("decl");
  return entry;
}

// ------------------------------------------------------------------ checking a deal before sending it

/** Card points in a field: missing, or not 0 to 162 (sheet.py's "cards-missing" and "cards"). */
function cardsProblem(input) {
  const points = fieldValue(input);
  if (points === null) return { control: input, key: "sheet-error-cards-missing" };
  if (!whole(points) || points < 0 || points > DEAL_POINTS) return { control: input, key: "sheet-error-cards" };
  return null;
}

/** Declarations by side or player: 0 to 1000 in tens, none without declarations, one camp only. */
function declarationProblems(found, camps) {
  if (!game.declarations) return;
  const values = {};
  for (const team of sheet.teams) {
    const input = $(`decl-${key(team)}`);
    const points = fieldValue(input) ?? 0;
    values[team] = points;
    if (!whole(points) || points < 0 || points > MAX_DECLARATIONS || points % 10) {
      found.push({ control: input, key: "sheet-error-declarations" });
    } else if (points && !sheet.rules.declarations) found.push({ control: input, key: "sheet-error-sans" });
  }
  const scoring = camps.filter((camp) => camp.some((team) => whole(values[team]) && values[team] > 0));
  if (scoring.length > 1) found.push({ control: $("declarations-field"), key: "sheet-error-declarations-both" });
}

function checkSides(found, side, sideGroup, missingKey) {
  if (side === "") found.push({ control: groupOf(sideGroup), key: missingKey });
  if (checked("capot") === "") {
    const problem = cardsProblem($("cards"));
    if (problem) found.push(problem);
  }
  declarationProblems(found, sheet.teams.map((team) => [team]));
}

/** What is wrong with the deal entered, by the rules of belote/sheet.py, in the order of the form. */
function dealProblems() {
  const found = [];
  entryKind().problems(found);
  return found;
}

/** Each player's card points: who dealt and who took, 64 to 162 in all, a capot that fits them. */
function playersProblems(found) {
  if (checked("dealer") === "") found.push({ control: groupOf("dealer"), key: "sheet-error-dealer-missing" });
  const taker = checked("taker");
  if (taker === "") found.push({ control: groupOf("taker"), key: "sheet-error-takers-missing" });
  const inputs = sheet.teams.map((team) => $(`cards-${key(team)}`));
  const wrong = inputs.map(cardsProblem).filter(Boolean);
  found.push(...wrong);
  if (!wrong.length) {
    const total = inputs.reduce((sum, input) => sum + fieldValue(input), 0);
    if (total < THREE_MIN_POINTS || total > DEAL_POINTS) {
      found.push({ control: inputs[0].closest("[role=group]"), key: "sheet-error-cards-total" });
    }
    const capot = checked("capot3");
    if (taker !== "" && capot === "taker" && inputs.some((input, i) => sheet.teams[i] !== taker && fieldValue(input))) {
      found.push({ control: groupOf("capot3"), key: "sheet-check-capot-taker" });
    }
    if (taker !== "" && capot === "defenders" && fieldValue($(`cards-${key(taker)}`))) {
      found.push({ control: groupOf("capot3"), key: "sheet-check-capot-defenders" });
    }
  }
  if (taker !== "") {
    declarationProblems(found, [[taker], sheet.teams.filter((team) => team !== taker)]);
  } else declarationProblems(found, []);
}

/** A contract named in full, its bidders, and what the contract allows (belote in a suit, the générale alone). */
function contractProblems(found) {
  const level = $("level").value;
  if (level === "") found.push({ control: $("level"), key: "sheet-check-level" });
  const mode = checked("mode");
  const noSuit = mode === "NT" || mode === "AT";
  if (mode === "") found.push({ control: groupOf("mode"), key: "sheet-check-mode" });
  else if (noSuit && !sheet.rules.no_trump_all_trump) found.push({ control: groupOf("mode"), key: "sheet-error-contract-mode" });
  const bidder = checked("bidder");
  checkSides(found, bidder, "bidder", "sheet-error-bidder-missing");
  if (noSuit && checked("belote") !== "") found.push({ control: groupOf("belote"), key: "sheet-error-belote-mode" });
  if ($("alone").checked && (level !== "generale" || checked("capot") === "" || checked("capot") !== bidder)) {
    found.push({ control: $("alone"), key: "sheet-check-alone" });
  }
}

async function addDeal(event) {
  event.preventDefault();
  showRefusal("deal-error", null);
  if (!passes(dealProblems())) return;
  await change(`/api/sheets/${sheet.id}/deals`, { ...entryKind().read(), seen: sheet.deals }, $("add"), "deal-error");
}

async function undo() {
  await change(`/api/sheets/${sheet.id}/undo`, { seen: sheet.deals }, $("undo"), "undo-error");
}


async function change(path, body, button, box) {
  const isDeal = box === "deal-error";
  button.disabled = true;
  try {
    const answer = await api("POST", path, body);
    clearRefusals();
    showProblems([]);
    render(answer);
    if (isDeal) {
      resetDealForm();
      document.querySelector(entryKind().first)?.focus();
    }
  } catch (error) {
    if (!(error instanceof Refused)) console.error(error); // a bug here, not a refusal: say so loudly
    // A stale page is sent the sheet as it stands: draw it, then say why.
    if (error.sheet) render(error.sheet);
    showRefusal(box, error);
  } finally {
    button.disabled = false;
    if (sheet) $("undo").disabled = sheet.deals === 0;
  }
}

// ------------------------------------------------------------------ drawing the sheet

function cell(row, text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.textContent = text;
  row.append(td);
  return td;
}

function pointsCell(row, added, total) {
  const td = cell(row, "", "num");
  const plus = document.createElement("span");
  plus.className = "added";
  plus.textContent = `+${added}`;
  const sum = document.createElement("span");
  sum.className = "sum";
  sum.textContent = String(total);
  td.append(plus, sum);
}

function modeWords(mode) {
  return SUITS[mode] ?? t(`mode-${mode}`);
}

function levelWords(level) {
  return /^\d+$/.test(level) ? level : t(`level-${level}`);
}

/** A deal's outcome in words: the entry's own words where it has them, else made, dedans, litige or a side's capot. */
function outcomeWords(entry, names) {
  const own = entryKind().outcome?.(entry, names);
  if (own) return own;
  if (entry.outcome === "capot") return t("capot-by", { name: names[entry.capot] });
  return t(`sheet-${entry.outcome}`);
}

function drawBoard(data) {
  const board = $("board");
  if (board.dataset.i18neams !== data.teams.join(",")) {
    board.dataset.i18neams = data.teams.join(",");
    board.style.gridTemplateColumns = `repeat(${data.teams.length}, 1fr)`;
    board.replaceChildren();
    for (const team of data.teams) {
      const box = document.createElement("div");
      box.className = "team";
      const name = document.createElement("span");
      name.className = "name";
      name.id = `board-name-${key(team)}`;
      const total = document.createElement("span");
      total.className = "total";
      total.id = `total-${key(team)}`;
      box.append(name, total);
      board.append(box);
    }
  }
  for (const team of data.teams) {
    $(`board-name-${key(team)}`).textContent = data.names[team];
    $(`total-${key(team)}`).textContent = String(data.score[team]);
  }
}

function drawHead(data) {
  const row = $("deals").tHead.rows[0];
  row.replaceChildren();
  for (const [words, className] of [["#"], [entryKind().column], ["card-points"], ["outcome"]]) {
    const th = document.createElement("th");
    th.scope = "col";
    if (className) th.className = className;
    if (words === "#") th.textContent = "#";
    else th.textContent = t(words);
    if (words === "card-points") {
      // Whose card points are whose: the sides (or players) in the order of the numbers below.
      const whose = document.createElement("span");
      whose.className = "whose";
      whose.textContent = data.teams.map((team) => data.names[team]).join(" – ");
      th.append(whose);
    }
    row.append(th);
  }
  for (const team of data.teams) {
    const th = document.createElement("th");
    th.scope = "col";
    th.className = `num side-${key(team)}`;
    th.textContent = data.names[team];
    row.append(th);
  }
}

function drawRow(body, entry, data) {
  const names = data.names;
  const row = body.insertRow();
  row.className = `outcome-${entry.outcome}`;
  cell(row, String(entry.n));
  entryKind().cell(row, entry, names);
  const extras = [];
  if (entry.belote) extras.push(`${t("belote")} ${names[entry.belote]}`);
  for (const team of data.teams) {
    if (entry.declarations[team]) extras.push(`${t("declarations")} ${names[team]} ${entry.declarations[team]}`);
  }
  const cards = cell(row, data.teams.map((team) => entry.cards[team]).join("–"));
  if (extras.length) {
    const small = document.createElement("small");
    small.textContent = extras.join(", ");
    cards.append(small);
  }
  cell(row, outcomeWords(entry, names), "outcome");
  for (const team of data.teams) pointsCell(row, entry.points[team], entry.score[team]);
}

function render(data) {
  sheet = data;
  game = gameOf(data.variant);
  const names = data.names;
  buildForm(data);
  drawBoard(data);
  for (const team of data.teams) {
    for (const el of document.querySelectorAll(`.side-${key(team)}`)) el.textContent = names[team];
  }
  $("line").textContent = data.rules.deals
    ? t("line-deals", { played: data.deals, total: data.rules.deals })
    : t("line-target", { target: data.rules.target });
  $("pending").hidden = data.pending === 0;
  $("pending").textContent = t("sheet-pending", { points: data.pending });

  const over = $("over");
  over.hidden = !data.over;
  if (data.over) {
    const [a, ...rest] = data.teams.map((team) => data.score[team]).sort((x, y) => y - x);
    const b = rest.join(getLang() === "fr" ? " à " : " to ");
    const won = game.partners ? "over-won" : "over-won-player";
    over.textContent = data.winner ? t(won, { name: names[data.winner], a, b }) : t("over-tie", { a });
  }
  $("deal-form").hidden = data.over;
  $("deal-number").textContent = String(data.deals + 1);
  for (const input of document.querySelectorAll("#deal-form .numbers[data-name=decl] input")) {
    input.disabled = !data.rules.declarations;
  }

  drawHead(data);
  const body = $("deals").tBodies[0];
  body.replaceChildren();
  if (data.teams.some((team) => data.start[team])) {
    const row = body.insertRow();
    row.className = "start";
    const th = document.createElement("th");
    th.scope = "row";
    th.colSpan = 4;
    th.textContent = t("start-score");
    row.append(th);
    for (const team of data.teams) cell(row, String(data.start[team]), "num");
  }
  for (const entry of data.entries) drawRow(body, entry, data);
  $("no-deals").hidden = data.entries.length > 0;
  $("undo").disabled = data.deals === 0;
  updateCards();
}

function show(data) {
  $("loading").hidden = true;
  $("setup").hidden = true;
  $("sheet").hidden = false;
  render(data);
}

function showSetup() {
  $("loading").hidden = true;
  $("sheet").hidden = true;
  $("setup").hidden = false;
  showGameFields();
}

// ------------------------------------------------------------------ start

async function start() {
  setLang(chooseLanguage());
  applyLanguage();
  $("lang").addEventListener("click", () => {
    setLang(getLang() === "en" ? "fr" : "en");
    try {
      localStorage.setItem(LANG_KEY, getLang());
    } catch {
      // Not kept across visits, which is all that is lost.
    }
    applyLanguage();
  });
  $("setup-form").addEventListener("submit", createSheet);
  fillSettingsForm($("setup-form"), {}, RULE_DEFAULTS); // a paper match: the rule book's 501
  $("setup-form").addEventListener("change", showGameFields);
  $("deal-form").addEventListener("submit", addDeal);
  $("deal-form").addEventListener("input", mended);
  $("deal-form").addEventListener("change", mended);
  $("setup-form").addEventListener("input", mended);
  $("deal-form").addEventListener("input", updateCards);
  $("deal-form").addEventListener("change", updateCards);
  $("undo").addEventListener("click", undo);

  const id = new URLSearchParams(location.search).get("sheet");
  if (!id) {
    showSetup();
    return;
  }
  try {
    show(await api("GET", `/api/sheets/${encodeURIComponent(id)}`));
  } catch (error) {
    showRefusal("error", error);
    showSetup();
  }
}

start();
