// The score sheet page. The server scores every deal (with the engine's own score_deal) and
// answers with the whole sheet; this page only collects what the table counted and draws the
// sheet it is given, so it never holds a second copy of the rules.

const WORDS = {
  en: {
    "title": "Belote score sheet",
    "game": "Game",
    "classic": "Belote (four players)",
    "coinche": "Coinche",
    "three-handed": "Three players",
    "two-handed": "Two players",
    "players": "Players and starting score",
    "player-1": "Player 1",
    "player-2": "Player 2",
    "player-3": "Player 3",
    "coinche-rules": "Coinche",
    "coinche-made-rule": "A contract made scores",
    "coinche-made-points": "the points made and the bid",
    "coinche-made-bid": "the bid alone",
    "coinche-failed-rule": "A failed contract gives the defenders",
    "coinche-failed-160": "160 and the bid",
    "coinche-failed-162": "162 and the bid",
    "surcoinche-rule": "Surcoinche multiplies by",
    "max-bid-rule": "Highest bid before capot",
    "nt-at": "No-trumps and all-trumps",
    "generale-rule": "The générale (every trick to the bidder alone)",
    "round-up": "When rounding, a five goes up (85 → 90)",
    "belote-counts": "Belote counts towards the takers' total",
    "direction-rule": "Play goes",
    "clockwise": "clockwise",
    "counterclockwise": "counterclockwise",
    "contract": "Contract",
    "trumps": "Trumps",
    "mode-NT": "no trumps",
    "mode-AT": "all trumps",
    "bidders": "Bidders",
    "coinched": "coinche",
    "surcoinched": "surcoinche",
    "level-capot": "capot",
    "level-generale": "générale",
    "bidders-cards": "Bidders' card points",
    "dealer": "Dealer",
    "taker": "Taker",
    "card-points-each": "Card points, last trick included",
    "three-total": "In play: {points} (64 to 162: the 24 cards in play and the last trick).",
    "capot-taker": "every trick to the taker",
    "capot-defenders": "no trick to the taker",
    "alone": "The bidder took every trick alone (générale)",
    "failed": "failed",
    "capot-against": "capot against {name}",
    "dealt": "dealt: {name}",
    "over-won-player": "Match over: {name} wins {a} to {b}.",
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
    "game": "Jeu",
    "classic": "Belote (quatre joueurs)",
    "coinche": "Coinche",
    "three-handed": "Trois joueurs",
    "two-handed": "Deux joueurs",
    "players": "Joueurs et score de départ",
    "player-1": "Joueur 1",
    "player-2": "Joueur 2",
    "player-3": "Joueur 3",
    "coinche-rules": "Coinche",
    "coinche-made-rule": "Un contrat réussi marque",
    "coinche-made-points": "les points faits et le contrat",
    "coinche-made-bid": "le contrat seul",
    "coinche-failed-rule": "Un contrat chuté donne à la défense",
    "coinche-failed-160": "160 et le contrat",
    "coinche-failed-162": "162 et le contrat",
    "surcoinche-rule": "La surcoinche multiplie par",
    "max-bid-rule": "Plus haute annonce avant le capot",
    "nt-at": "Sans atout et tout atout",
    "generale-rule": "La générale (tous les plis au preneur seul)",
    "round-up": "En arrondissant, un cinq monte (85 → 90)",
    "belote-counts": "La belote compte pour le contrat des preneurs",
    "direction-rule": "Sens du jeu",
    "clockwise": "sens des aiguilles d'une montre",
    "counterclockwise": "sens inverse",
    "contract": "Contrat",
    "trumps": "Atout",
    "mode-NT": "sans atout",
    "mode-AT": "tout atout",
    "bidders": "Preneurs",
    "coinched": "coinche",
    "surcoinched": "surcoinche",
    "level-capot": "capot",
    "level-generale": "générale",
    "bidders-cards": "Points de cartes des preneurs",
    "dealer": "Donneur",
    "taker": "Preneur",
    "card-points-each": "Points de cartes, dix de der compris",
    "three-total": "En jeu : {points} (64 à 162 : les 24 cartes en jeu et le dix de der).",
    "capot-taker": "tous les plis au preneur",
    "capot-defenders": "aucun pli au preneur",
    "alone": "Le preneur a fait tous les plis seul (générale)",
    "failed": "chuté",
    "capot-against": "capot contre {name}",
    "dealt": "donneur : {name}",
    "over-won-player": "Partie terminée : {name} l'emporte {a} à {b}.",
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
  "side": "Dites un camp (ou un joueur) de la feuille.",
  "takers-missing": "Dites qui a pris.",
  "cards-missing": "Entrez les points de cartes.",
  "cards": "Les points de cartes vont de 0 à 162.",
  "declarations": "Les annonces sont des multiples de 10 (tierce 20, cinquante 50, cent 100…).",
  "declarations-both": "Seul le camp qui a la meilleure annonce marque ses annonces.",
  "capot-cards": "Un capot donne tous les points de cartes à son camp : 162 à 0.",
  "sans": "Cette partie se joue sans annonces : seule la belote compte.",
  "over": "La partie est terminée : plus de donne à entrer.",
  "empty": "Rien à annuler : aucune donne n'a été entrée.",
  "full": "Cette feuille est pleine.",
  "names": "Chaque équipe (ou joueur) a un nom de 1 à 40 caractères, différent des autres.",
  "start": "Le score de départ est un nombre entier positif.",
  "start-over": "Le score de départ atteint déjà la ligne.",
  "rules": "Ces règles ne sont pas possibles.",
  "not-found": "Aucune feuille de marque avec cet identifiant.",
  "stale": "La feuille a changé entre-temps ; la voici telle qu'elle est.",
  "contract-level": "Un contrat va de 80 à la plus haute annonce de la table, puis capot (et générale si elle se joue).",
  "contract-mode": "Le sans atout et le tout atout ne se jouent pas à cette table.",
  "contract-missing": "Dites le contrat : son niveau et son atout.",
  "bidder-missing": "Dites quel camp a pris le contrat.",
  "belote-mode": "Il n'y a pas de belote à sans atout ni à tout atout.",
  "alone": "Seule une générale demande si le preneur a fait tous les plis seul.",
  "coinche": "Coinche : aucune, coinche ou surcoinche.",
  "cards-total": "Les points de cartes des trois joueurs font de 64 à 162.",
  "dealer-missing": "Dites qui a donné.",
  "capot": "Le capot est au preneur ou à la défense.",
  "network": "Le serveur ne répond pas : vérifiez la connexion et réessayez.",
};
const NETWORK_EN = "The server does not answer: check the connection and try again.";

const $ = (id) => document.getElementById(id);
// The scores a sheet keeps, by game: the two sides, or each player (the server says the same in "teams").
const TEAMS = {
  "classic": ["NS", "EW"],
  "coinche": ["NS", "EW"],
  "three-handed": ["N", "E", "S"],
  "two-handed": ["N", "E"],
};
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const DEAL_POINTS = 162;

let lang = chooseLanguage();
let sheet = null; // the last sheet the server sent
let lastError = null;
let builtFor = null; // the game and teams the deal form was built for

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

// The setup form for the chosen game: two teams, or two or three players, and the game's own options.
function showGameFields() {
  const variant = checked("variant") || "classic";
  const teams = TEAMS[variant];
  const players = variant === "three-handed" || variant === "two-handed";
  $("third-player").hidden = teams.length < 3;
  $("coinche-rules").hidden = variant !== "coinche";
  $("direction-field").hidden = variant !== "three-handed";
  $("teams-legend").dataset.t = players ? "players" : "teams";
  $("teams-legend").textContent = t($("teams-legend").dataset.t);
  const labels = document.querySelectorAll("#setup-form .team-label");
  labels.forEach((label, i) => {
    label.dataset.t = players ? `player-${i + 1}` : `team-${i + 1}`;
    label.textContent = t(label.dataset.t);
  });
  // A name still at its default follows the game: NS and EW, or N, E and S.
  const defaults = new Set(["", "NS", "EW", "N", "E", "S"]);
  ["name-ns", "name-ew", "name-s"].forEach((id, i) => {
    const input = $(id);
    if (defaults.has(input.value.trim()) && teams[i]) input.value = teams[i];
  });
}

async function createSheet(event) {
  event.preventDefault();
  const goal = checked("goal");
  const variant = checked("variant") || "classic";
  const count = TEAMS[variant].length;
  const names = ["name-ns", "name-ew", "name-s"].slice(0, count).map((id) => $(id).value);
  const start = ["start-ns", "start-ew", "start-s"].slice(0, count).map((id) => fieldValue($(id)) ?? 0);
  const settings = {
    variant,
    names,
    start,
    litige: $("litige").value,
    rounding: $("rounding").checked,
    round_five: $("round-up").checked ? "up" : "down",
    declarations: !$("sans").checked,
    belote_counts: $("belote-counts").checked,
  };
  if (variant === "coinche") {
    settings.coinche_made = $("coinche-made").value;
    settings.coinche_failed = Number($("coinche-failed").value);
    settings.surcoinche = Number($("surcoinche").value);
    settings.coinche_max_bid = Number($("max-bid").value);
    settings.no_trump_all_trump = $("nt-at").checked;
    settings.generale = $("generale").checked;
  }
  if (variant === "three-handed") settings.direction = $("direction").value;
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

const key = (team) => team.toLowerCase();

function radio(name, value, text, className) {
  const label = document.createElement("label");
  const input = document.createElement("input");
  input.type = "radio";
  input.name = name;
  input.value = value;
  const span = document.createElement("span");
  if (className) span.className = className;
  else {
    span.dataset.t = text;
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
  if (data.variant === "coinche") {
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
        option.dataset.t = `level-${value}`;
        option.textContent = t(option.dataset.t);
      }
      level.append(option);
    }
    for (const label of document.querySelectorAll("#contract-fields .nt-at")) {
      label.hidden = !data.rules.no_trump_all_trump;
    }
  }
  const variant = data.variant;
  $("contract-fields").hidden = variant !== "coinche";
  $("three-fields").hidden = variant !== "three-handed";
  $("takers-fields").hidden = variant === "coinche" || variant === "three-handed";
  $("cards-field").hidden = variant === "three-handed";
  $("declarations-field").hidden = variant === "two-handed";
  $("capot-sides").hidden = variant === "three-handed";
  $("capot-three").hidden = variant !== "three-handed";
  $("cards-label").dataset.t = variant === "coinche" ? "bidders-cards" : "takers-cards";
  $("cards-label").textContent = t($("cards-label").dataset.t);
  resetDealForm();
}

// Who the card points in #cards belong to: the takers, or in Coinche the bidders.
function cardSide() {
  return sheet.variant === "coinche" ? checked("bidder") : checked("takers");
}

function updateCards() {
  if (!sheet) return;
  if (sheet.variant === "three-handed") {
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
  if (sheet.variant === "coinche") {
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
  if (sheet?.variant === "three-handed" && sheet.next_dealer) {
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
  const variant = sheet.variant;
  if (variant === "three-handed") {
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
  if (variant !== "two-handed") entry.declarations = byTeam("decl");
  if (variant === "coinche") {
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
const FIRST_FIELD = { "coinche": "#level", "three-handed": 'input[name="taker"]' };

async function change(path, body, button, isDeal) {
  button.disabled = true;
  try {
    const answer = await api("POST", path, body);
    showError(null);
    render(answer);
    if (isDeal) {
      resetDealForm();
      document.querySelector(FIRST_FIELD[sheet.variant] ?? 'input[name="takers"]')?.focus();
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
  if (sheet.variant === "three-handed" && entry.outcome === "capot") {
    return entry.capot === "taker"
      ? t("capot-by", { name: names[entry.taker] })
      : t("capot-against", { name: names[entry.taker] });
  }
  if (entry.outcome === "capot") return t("capot-by", { name: names[entry.capot] });
  if (sheet.variant === "coinche") {
    const words = t(entry.outcome === "dedans" ? "failed" : entry.outcome);
    return entry.capot ? `${words}, ${t("capot-by", { name: names[entry.capot] })}` : words;
  }
  return t(entry.outcome);
}

function drawBoard(data) {
  const board = $("board");
  if (board.dataset.teams !== data.teams.join(",")) {
    board.dataset.teams = data.teams.join(",");
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
  const first = { "coinche": "contract", "three-handed": "taker" }[data.variant] ?? "takers";
  for (const [words, className] of [["#"], [first], ["card-points"], ["outcome"]]) {
    const th = document.createElement("th");
    th.scope = "col";
    if (className) th.className = className;
    if (words === "#") th.textContent = "#";
    else {
      th.dataset.t = words;
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
  if (data.variant === "coinche") {
    const times = entry.multiplier > 1 ? ` ×${entry.multiplier}` : "";
    cell(row, `${levelWords(entry.level)} ${modeWords(entry.mode)} ${names[entry.bidder]}${times}`, "contract");
  } else if (data.variant === "three-handed") {
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
  $("pending").textContent = t("pending", { points: data.pending });

  const over = $("over");
  over.hidden = !data.over;
  if (data.over) {
    const [a, ...rest] = data.teams.map((team) => data.score[team]).sort((x, y) => y - x);
    const b = rest.join(lang === "fr" ? " à " : " to ");
    const won = data.teams.length === 2 && data.variant !== "two-handed" ? "over-won" : "over-won-player";
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
    th.textContent = t("start");
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
  showGoalFields();
  showGameFields();
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
  for (const input of document.querySelectorAll('input[name="goal"]')) {
    input.addEventListener("change", showGoalFields);
  }
  for (const input of document.querySelectorAll('input[name="variant"]')) {
    input.addEventListener("change", showGameFields);
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
