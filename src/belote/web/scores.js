// The score sheet page. The server scores every deal (with the engine's own score_deal) and
// answers with the whole sheet; this page only collects what the table counted and draws the
// sheet it is given, so it never holds a second copy of the rules.

import { GAMES, gameOf } from "./games.js";
import { browserLang, getLang, own, setLang, t, translatePage } from "./i18n.js";
import { fillSettingsForm, optionsHtml, readSettingsForm, syncSettingsForm, variantPickerHtml } from "./settings.js";

const NETWORK = "network"; // the code of a server that does not answer (its words: "sheet-error-network")
const $ = (id) => document.getElementById(id);
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const DEAL_POINTS = 162;
const LANG_KEY = "belote-lang";

let sheet = null; // the last sheet the server sent
let game = GAMES[0]; // the sheet's game (games.js)
let lastError = null;
let builtFor = null; // the game and teams the deal form was built for

// The setup form is the table's (settings.js), built before anything looks its fields up.
for (const box of document.querySelectorAll("[data-fields]")) {
  const prefix = box.dataset.fields;
  box.outerHTML = box.dataset.only === "variant" ? variantPickerHtml(prefix) : optionsHtml(prefix, { place: "sheet" });
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
  if (sheet) render(sheet);
  showError(lastError);
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

function showError(error) {
  lastError = error;
  const box = $("error");
  if (!error) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  // The server's errors are English sentences that name the exact problem; in French the page says
  // the same kind of problem (by its code) in French.
  box.textContent = (error.code && own(`sheet-error-${error.code}`)) || error.message;
  box.hidden = false;
}

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

// ------------------------------------------------------------------ the host's choices

// The setup form for the chosen game: two teams, or two or three players, and the game's own options.
function showGameFields() {
  const form = $("setup-form");
  syncSettingsForm(form);
  const chosen = gameOf(form.elements.variant.value);
  $("third-player").hidden = chosen.teams.length < 3;
  $("teams-legend").dataset.i18n = chosen.partners ? "teams" : "players";
  $("teams-legend").textContent = t($("teams-legend").dataset.i18n);
  const labels = document.querySelectorAll("#setup-form .team-label");
  labels.forEach((label, i) => {
    label.dataset.i18n = chosen.partners ? `team-${i + 1}` : `player-${i + 1}`;
    label.textContent = t(label.dataset.i18n);
  });
  // A name still at its default follows the game: NS and EW, or N, E and S.
  const defaults = new Set(["", ...GAMES.flatMap((g) => g.teams)]);
  ["name-ns", "name-ew", "name-s"].forEach((id, i) => {
    const input = $(id);
    if (defaults.has(input.value.trim()) && chosen.teams[i]) input.value = chosen.teams[i];
  });
}

async function createSheet(event) {
  event.preventDefault();
  // The rules are the options the game reads, as the table's form gives them.
  const rules = readSettingsForm($("setup-form"), { onlyRead: true });
  const count = gameOf(rules.variant).teams.length;
  const names = ["name-ns", "name-ew", "name-s"].slice(0, count).map((id) => $(id).value);
  const start = ["start-ns", "start-ew", "start-s"].slice(0, count).map((id) => fieldValue($(id)) ?? 0);
  const settings = { ...rules, names, start };
  const button = event.submitter ?? $("setup-form").querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const created = await api("POST", "/api/sheets", settings);
    const url = new URL(location.href);
    url.searchParams.set("sheet", created.id);
    history.replaceState(null, "", url);
    showError(null);
    show(created);
  } catch (error) {
    if (!(error instanceof Refused)) console.error(error);
    showError(error);
  } finally {
    button.disabled = false;
  }
}

// ------------------------------------------------------------------ the deal form

const key = (team) => team.toLowerCase();
// More than two scores (three hands): the card points are asked of each player, and a capot is the
// taker's or the defenders'; with two, of the takers (the other side has the rest of 162).
const eachCounts = () => game.teams.length > 2;

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
  const level = $("level");
  level.replaceChildren();
  if (game.contracts) {
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
  $("contract-fields").hidden = !game.contracts;
  $("three-fields").hidden = !eachCounts();
  $("takers-fields").hidden = game.contracts || eachCounts();
  $("cards-field").hidden = eachCounts();
  $("declarations-field").hidden = !game.declarations;
  $("capot-sides").hidden = eachCounts();
  $("capot-three").hidden = !eachCounts();
  $("cards-label").dataset.i18n = game.contracts ? "bidders-cards" : "takers-cards";
  $("cards-label").textContent = t($("cards-label").dataset.i18n);
  resetDealForm();
}

// Who the card points in #cards belong to: the takers, or in Coinche the bidders.
function cardSide() {
  return game.contracts ? checked("bidder") : checked("takers");
}

function updateCards() {
  if (!sheet) return;
  if (eachCounts()) {
    const values = sheet.teams.map((team) => fieldValue($(`cards-${key(team)}`)));
    const total = values.reduce((sum, v) => sum + (Number.isInteger(v) ? v : 0), 0);
    $("three-total").textContent = t("three-total", { points: total });
    return;
  }
  const side = cardSide();
  const capot = checked("capot");
  const cards = $("cards");
  cards.disabled = capot !== "";
  if (capot !== "" && side !== "") cards.value = capot === side ? "162" : "0";
  else if (capot !== "") cards.value = "";
  const hint = $("defenders");
  const points = fieldValue(cards);
  if (side !== "" && Number.isInteger(points) && points >= 0 && points <= DEAL_POINTS) {
    const defenders = sheet.teams[1 - sheet.teams.indexOf(side)];
    hint.textContent = t("defenders", { name: sheet.names[defenders], points: DEAL_POINTS - points });
  } else {
    hint.textContent = t("defenders-rest");
  }
  if (game.contracts) {
    // No belote at no-trumps or all-trumps; the générale asks whether the bidder was alone.
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
}

function resetDealForm() {
  const form = $("deal-form");
  form.reset();
  $("cards").value = "";
  if (sheet && eachCounts() && sheet.next_dealer) {
    const dealer = document.querySelector(`#deal-form input[name="dealer"][value="${sheet.next_dealer}"]`);
    if (dealer) dealer.checked = true;
  }
  updateCards();
}

function byTeam(prefix) {
  const out = {};
  for (const team of sheet.teams) out[team] = fieldValue($(`${prefix}-${key(team)}`)) ?? 0;
  return out;
}

function entryOfForm() {
  if (eachCounts()) {
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
  }
  const capot = checked("capot");
  const entry = {
    // A capot fixes the card points; the server fills them in.
    cards: capot ? null : fieldValue($("cards")),
    belote: checked("belote") || null,
    capot: capot || null,
  };
  if (game.declarations) entry.declarations = byTeam("decl");
  if (game.contracts) {
    return {
      bidder: checked("bidder") || null,
      level: $("level").value || null,
      mode: checked("mode") || null,
      coinche: checked("coinche") || null,
      alone: $("alone").checked,
      ...entry,
    };
  }
  return { takers: checked("takers") || null, ...entry };
}

async function addDeal(event) {
  event.preventDefault();
  await change(`/api/sheets/${sheet.id}/deals`, { ...entryOfForm(), seen: sheet.deals }, $("add"), true);
}

async function undo() {
  await change(`/api/sheets/${sheet.id}/undo`, { seen: sheet.deals }, $("undo"), false);
}

// Where the next deal starts: who took, or in Coinche the contract.
function firstField() {
  if (game.contracts) return "#level";
  return eachCounts() ? 'input[name="taker"]' : 'input[name="takers"]';
}

async function change(path, body, button, isDeal) {
  button.disabled = true;
  try {
    const answer = await api("POST", path, body);
    showError(null);
    render(answer);
    if (isDeal) {
      resetDealForm();
      document.querySelector(firstField())?.focus();
    }
  } catch (error) {
    if (!(error instanceof Refused)) console.error(error); // a bug here, not a refusal: say so loudly
    // A stale page is sent the sheet as it stands: draw it, then say why.
    if (error.sheet) render(error.sheet);
    showError(error);
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

function outcomeWords(entry, names) {
  if (eachCounts() && entry.outcome === "capot") {
    return entry.capot === "taker"
      ? t("capot-by", { name: names[entry.taker] })
      : t("capot-against", { name: names[entry.taker] });
  }
  if (entry.outcome === "capot") return t("capot-by", { name: names[entry.capot] });
  if (game.contracts) {
    const words = t(entry.outcome === "dedans" ? "sheet-failed" : `sheet-${entry.outcome}`);
    return entry.capot ? `${words}, ${t("capot-by", { name: names[entry.capot] })}` : words;
  }
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
  const first = game.contracts ? "contract" : eachCounts() ? "taker" : "takers";
  for (const [words, className] of [["#"], [first], ["card-points"], ["outcome"]]) {
    const th = document.createElement("th");
    th.scope = "col";
    if (className) th.className = className;
    if (words === "#") th.textContent = "#";
    else {
      th.dataset.i18n = words;
      th.textContent = t(words);
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
  if (game.contracts) {
    const times = entry.multiplier > 1 ? ` ×${entry.multiplier}` : "";
    cell(row, `${levelWords(entry.level)} ${modeWords(entry.mode)} ${names[entry.bidder]}${times}`, "contract");
  } else if (eachCounts()) {
    const taker = cell(row, names[entry.taker]);
    const small = document.createElement("small");
    small.textContent = t("dealt", { name: names[entry.dealer] });
    taker.append(small);
  } else {
    cell(row, names[entry.takers]);
  }
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
  fillSettingsForm($("setup-form"), {});
  $("setup-form").addEventListener("change", showGameFields);
  $("deal-form").addEventListener("submit", addDeal);
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
    showError(error);
    showSetup();
  }
}

start();
