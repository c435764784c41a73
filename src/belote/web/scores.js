// The score sheet page. The server scores every deal (with the engine's own score_deal) and
// answers with the whole sheet; this page only collects what the table counted and draws the
// sheet it is given, so it never holds a second copy of the rules.

const WORDS = {
  en: {
    "title": "Belote score sheet",
    "loading": "Loading…",
    "line": "Play to",
    "other-target": "other",
    "deals-goal": "a number of deals",
    "target": "Target",
    "deals": "Deals",
    "teams": "Teams and starting score",
    "team-1": "Team 1",
    "team-2": "Team 2",
    "start": "Starting score",
    "more-rules": "More rules",
    "litige-rule": "At 81-81 (litige)",
    "litige-carry": "the defenders score, the takers' points wait",
    "litige-hold": "nobody scores, the whole deal waits",
    "rounding": "Rounded scores (160 a deal)",
    "sans": "Sans annonces (belote only)",
    "begin": "Start the sheet",
    "deal": "Deal",
    "takers": "Takers",
    "takers-cards": "Takers' card points",
    "declarations": "Declarations",
    "belote": "Belote",
    "capot": "Capot",
    "none": "none",
    "add": "Add the deal",
    "card-points": "Card points",
    "outcome": "Outcome",
    "no-deals": "No deal yet.",
    "undo": "Undo the last deal",
    "new-sheet": "New sheet",
    "made": "made",
    "dedans": "dedans",
    "litige": "litige",
    "capot-by": "capot by {name}",
    "defenders": "Defenders ({name}): {points}",
    "defenders-rest": "The defenders have the rest of 162.",
    "line-target": "To {target}",
    "line-deals": "{played} of {total} deals played",
    "pending": "{points} points wait for the winner of the next deal (litige).",
    "over-won": "Match over: {name} win {a} to {b}.",
    "over-tie": "Match over: a tie at {a}.",
    "other-language": "Français",
  },
  fr: {
    "title": "Feuille de marque de belote",
    "loading": "Chargement…",
    "line": "Partie en",
    "other-target": "autre",
    "deals-goal": "un nombre de donnes",
    "target": "Points à atteindre",
    "deals": "Donnes",
    "teams": "Équipes et score de départ",
    "team-1": "Équipe 1",
    "team-2": "Équipe 2",
    "start": "Score de départ",
    "more-rules": "Autres règles",
    "litige-rule": "À 81-81 (litige)",
    "litige-carry": "la défense marque, les points des preneurs attendent",
    "litige-hold": "personne ne marque, toute la donne attend",
    "rounding": "Scores arrondis (160 par donne)",
    "sans": "Sans annonces (belote seule)",
    "begin": "Commencer la feuille",
    "deal": "Donne",
    "takers": "Preneurs",
    "takers-cards": "Points de cartes des preneurs",
    "declarations": "Annonces",
    "belote": "Belote",
    "capot": "Capot",
    "none": "aucun",
    "add": "Ajouter la donne",
    "card-points": "Points de cartes",
    "outcome": "Résultat",
    "no-deals": "Aucune donne pour l'instant.",
    "undo": "Annuler la dernière donne",
    "new-sheet": "Nouvelle feuille",
    "made": "réussi",
    "dedans": "dedans",
    "litige": "litige",
    "capot-by": "capot ({name})",
    "defenders": "Défense ({name}) : {points}",
    "defenders-rest": "La défense a le reste des 162.",
    "line-target": "Partie en {target}",
    "line-deals": "{played} donnes jouées sur {total}",
    "pending": "{points} points attendent le gagnant de la donne suivante (litige).",
    "over-won": "Partie terminée : {name} l'emporte {a} à {b}.",
    "over-tie": "Partie terminée : égalité à {a}.",
    "other-language": "English",
  },
};

// The server's errors are English sentences that name the exact problem; in French the page says
// the same kind of problem (by its code) in French.
const ERRORS_FR = {
  "side": "Un camp est NS ou EW.",
  "takers-missing": "Dites qui a pris.",
  "cards-missing": "Entrez les points de cartes des preneurs.",
  "cards": "Les points de cartes vont de 0 à 162.",
  "declarations": "Les annonces sont des multiples de 10 (tierce 20, cinquante 50, cent 100…).",
  "declarations-both": "Seul le camp qui a la meilleure annonce marque ses annonces.",
  "capot-cards": "Un capot donne tous les points de cartes à son camp : 162 à 0.",
  "sans": "Cette partie se joue sans annonces : seule la belote compte.",
  "over": "La partie est terminée : plus de donne à entrer.",
  "empty": "Rien à annuler : aucune donne n'a été entrée.",
  "full": "Cette feuille est pleine.",
  "names": "Chaque équipe a un nom (1 à 40 caractères), différent de l'autre.",
  "start": "Le score de départ est un nombre entier positif.",
  "start-over": "Le score de départ atteint déjà la ligne.",
  "rules": "Ces règles ne sont pas possibles.",
  "not-found": "Aucune feuille de marque avec cet identifiant.",
  "stale": "La feuille a changé entre-temps ; la voici telle qu'elle est.",
  "network": "Le serveur ne répond pas : vérifiez la connexion et réessayez.",
};
const NETWORK_EN = "The server does not answer: check the connection and try again.";

const $ = (id) => document.getElementById(id);
const SIDES = ["NS", "EW"];

let lang = chooseLanguage();
let sheet = null; // the last sheet the server sent
let lastError = null;

function chooseLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked in WORDS) return asked;
  try {
    const kept = localStorage.getItem("belote-lang");
    if (kept in WORDS) return kept;
  } catch {
    // Storage can be refused (private windows); the browser's language is then the guide.
  }
  return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
}

function t(key, vars = {}) {
  const text = WORDS[lang][key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
}

function applyLanguage() {
  document.documentElement.lang = lang;
  document.title = t("title");
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  const button = $("lang");
  button.textContent = t("other-language");
  button.lang = lang === "en" ? "fr" : "en";
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
    throw new Refused(NETWORK_EN, "network");
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
  const french = lang === "fr" ? ERRORS_FR[error.code] : undefined;
  box.textContent = french ?? error.message;
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

function showGoalFields() {
  const goal = checked("goal");
  $("target-field").hidden = goal !== "target";
  $("deals-field").hidden = goal !== "deals";
}

async function createSheet(event) {
  event.preventDefault();
  const goal = checked("goal");
  const settings = {
    names: { NS: $("name-ns").value, EW: $("name-ew").value },
    start: { NS: fieldValue($("start-ns")) ?? 0, EW: fieldValue($("start-ew")) ?? 0 },
    litige: $("litige").value,
    rounding: $("rounding").checked,
    declarations: !$("sans").checked,
  };
  if (goal === "deals") settings.deals = fieldValue($("deal-count"));
  else settings.target = goal === "target" ? fieldValue($("target")) : Number(goal);
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

function updateCards() {
  const takers = checked("takers");
  const capot = checked("capot");
  const cards = $("cards");
  cards.disabled = capot !== "";
  if (capot !== "" && takers !== "") cards.value = capot === takers ? "162" : "0";
  else if (capot !== "") cards.value = "";
  const hint = $("defenders");
  const points = fieldValue(cards);
  if (takers !== "" && Number.isInteger(points) && points >= 0 && points <= 162) {
    const defenders = SIDES[1 - SIDES.indexOf(takers)];
    hint.textContent = t("defenders", { name: sheet.names[defenders], points: 162 - points });
  } else {
    hint.textContent = t("defenders-rest");
  }
}

function resetDealForm() {
  const form = $("deal-form");
  form.reset();
  $("cards").value = "";
  updateCards();
}

async function addDeal(event) {
  event.preventDefault();
  const capot = checked("capot");
  const entry = {
    takers: checked("takers") || null,
    // A capot fixes the card points; the server fills them in.
    cards: capot ? null : fieldValue($("cards")),
    declarations: { NS: fieldValue($("decl-ns")) ?? 0, EW: fieldValue($("decl-ew")) ?? 0 },
    belote: checked("belote") || null,
    capot: capot || null,
    seen: sheet.deals,
  };
  await change(`/api/sheets/${sheet.id}/deals`, entry, $("add"), true);
}

async function undo() {
  await change(`/api/sheets/${sheet.id}/undo`, { seen: sheet.deals }, $("undo"), false);
}

async function change(path, body, button, isDeal) {
  button.disabled = true;
  try {
    const answer = await api("POST", path, body);
    showError(null);
    render(answer);
    if (isDeal) {
      resetDealForm();
      document.querySelector('input[name="takers"]')?.focus();
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

function outcomeWords(entry, names) {
  if (entry.outcome === "capot") return t("capot-by", { name: names[entry.capot] });
  return t(entry.outcome);
}

function render(data) {
  sheet = data;
  const names = data.names;
  for (const side of SIDES) {
    const key = side.toLowerCase();
    for (const el of document.querySelectorAll(`.side-${key}`)) el.textContent = names[side];
    $(`board-name-${key}`).textContent = names[side];
    $(`total-${key}`).textContent = String(data.score[side]);
  }
  $("line").textContent = data.rules.deals
    ? t("line-deals", { played: data.deals, total: data.rules.deals })
    : t("line-target", { target: data.rules.target });
  $("pending").hidden = data.pending === 0;
  $("pending").textContent = t("pending", { points: data.pending });

  const over = $("over");
  over.hidden = !data.over;
  if (data.over) {
    const [a, b] = [data.score.NS, data.score.EW].sort((x, y) => y - x);
    over.textContent = data.winner ? t("over-won", { name: names[data.winner], a, b }) : t("over-tie", { a });
  }
  $("deal-form").hidden = data.over;
  $("deal-number").textContent = String(data.deals + 1);
  for (const input of document.querySelectorAll("#decl-ns, #decl-ew")) {
    input.disabled = !data.rules.declarations;
  }

  const body = $("deals").tBodies[0];
  body.replaceChildren();
  if (data.start.NS || data.start.EW) {
    const row = body.insertRow();
    row.className = "start";
    const th = document.createElement("th");
    th.scope = "row";
    th.colSpan = 4;
    th.textContent = t("start");
    row.append(th);
    cell(row, String(data.start.NS), "num");
    cell(row, String(data.start.EW), "num");
  }
  for (const entry of data.entries) {
    const row = body.insertRow();
    row.className = `outcome-${entry.outcome}`;
    cell(row, String(entry.n));
    cell(row, names[entry.takers]);
    const extras = [];
    if (entry.belote) extras.push(`${t("belote")} ${names[entry.belote]}`);
    for (const side of SIDES) {
      if (entry.declarations[side]) extras.push(`${t("declarations")} ${names[side]} ${entry.declarations[side]}`);
    }
    const cards = cell(row, `${entry.cards.NS}–${entry.cards.EW}`);
    if (extras.length) {
      const small = document.createElement("small");
      small.textContent = extras.join(", ");
      cards.append(small);
    }
    cell(row, outcomeWords(entry, names), "outcome");
    pointsCell(row, entry.points.NS, entry.score.NS);
    pointsCell(row, entry.points.EW, entry.score.EW);
  }
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
  showGoalFields();
}

// ------------------------------------------------------------------ start

async function start() {
  applyLanguage();
  $("lang").addEventListener("click", () => {
    lang = lang === "en" ? "fr" : "en";
    try {
      localStorage.setItem("belote-lang", lang);
    } catch {
      // Not kept across visits, which is all that is lost.
    }
    applyLanguage();
  });
  $("setup-form").addEventListener("submit", createSheet);
  for (const radio of document.querySelectorAll('input[name="goal"]')) {
    radio.addEventListener("change", showGoalFields);
  }
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
