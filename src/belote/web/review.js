// The review page (/review): a finished deal stepped through bid by bid and card by card, each card
// marked with its double-dummy cost and the search bot's choice from the player's own view, the par
// of the deal and a summary per player (docs/analysis.md).
//
//   /review?table=ID&game=N&deal=K   a deal of a table this browser sat at (its seat token, kept by
//                                    the table page) or watched once the match was over (watch code)
//   /review?match=ID&seat=S&deal=K   a deal of a finished match kept for the identities who played it
//                                    (a profile's recent matches), seen from seat S, public
//   /review?tournament=ID&board=K    a tournament's board (issue 27) this browser played: its deal
//                                    and the bots' line's (deal=1, 2), from the board's traveller
//   /review                          My games, and a record file (.json / .jsonl) to drop or choose
//
// The deals come from GET /api/tables/{id}/records (never the deal in progress), from GET
// /api/matches/{id}/records or from the file; each deal shown is sent to POST /api/analyse, which
// answers belote analyse --json's object. A deal of a kept match that this browser's identity played
// is sent with its match, seat and the identity's secret: its double-dummy cost joins the player's
// statistics (docs/players.md). The page draws only what the analysis says: it computes no score of
// its own.

import { cardFace, cardText, sortHand } from "./cards.js";
import { parseBid } from "./coinche.js";
import { $, esc } from "./dom.js";
import { gameOf } from "./games.js";
import { gameTitle, getLang, keepPageLang, pageLang, setLang, tIn } from "./i18n.js";
import * as identity from "./identity.js";
import { forget, latestGame, loadGames, reviewUrl, secretOf } from "./mygames.js";
import { refusalText } from "./refusals.js";
import { rt } from "./review-words.js";
import { screenPos } from "./seats.js";
import { askHeaders } from "./tournament-ask.js";
import { apiPath, inviteOf, personSeat, tournamentUrl } from "./tournament-core.js";
import { tw } from "./tournament-words.js";

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣", NT: "SA", AT: "TA" };
const RETRIES = 5; // a busy server (analysis_running, analyses_busy) is asked again after Retry-After

const el = {
  error: $('[data-testid="review-error"]'),
  thinking: $('[data-testid="thinking"]'),
  home: $('[data-testid="home"]'),
  games: $('[data-testid="my-games"]'),
  drop: $('[data-testid="drop-zone"]'),
  file: $('[data-testid="file-input"]'),
  review: $('[data-testid="review"]'),
  picker: $('[data-testid="deal-picker"]'),
  headline: $('[data-testid="headline"]'),
  board: $('[data-testid="board"]'),
  step: $('[data-testid="step"]'),
  now: $('[data-testid="now"]'),
  bids: $('[data-testid="bids"]'),
  par: $('[data-testid="par"]'),
  plays: $('[data-testid="plays"]'),
  players: $('[data-testid="players"]'),
  lang: $('[data-testid="lang"]'),
};

/** What the page holds: the deals, the analyses made, the deal and step shown. */
const R = {
  records: [],
  analyses: new Map(), // deal index -> analysis
  index: 0,
  step: 0,
  // {table, game, names, seat, match?, counted?} for a table's or a match's deals, null for a file;
  // a tournament's board also has {tournament, board, labels, dealNames}: each deal's name and seats' names
  source: null,
  error: null, // {code, args, message} or {key}: said again in the other language
  loading: false,
};

// What the tests read.
window.__review = {
  get analysis() { return R.analyses.get(R.index) || null; },
  get step() { return R.step; },
  get steps() { return actions().length; },
  get index() { return R.index; },
  get loading() { return R.loading; },
};

// ---------------------------------------------------------------------- language
function applyLanguage() {
  document.title = rt("title");
  for (const node of document.querySelectorAll("[data-r]")) if (node.dataset.r) node.textContent = rt(node.dataset.r);
  for (const node of document.querySelectorAll("[data-tw]")) node.textContent = tw(node.dataset.tw);
  for (const node of document.querySelectorAll("[data-r-label]")) node.setAttribute("aria-label", rt(node.dataset.rLabel));
  el.lang.textContent = rt("otherLanguage");
  el.lang.lang = getLang() === "en" ? "fr" : "en";
  showError(R.error);
  if (!el.home.hidden) drawGames();
  if (!el.review.hidden) draw();
}

// ---------------------------------------------------------------------- words
const seatWord = (seat) => {
  const s = R.source;
  const names = s && s.dealNames ? s.dealNames[R.index] : s ? s.names : null;
  const name = names ? names[seat] : null;
  return name ? `${name}` : rt(`seat${seat}`);
};
const gameName = (variant) => gameTitle(variant, getLang());
const cardHtml = (code) => `<span class="ctext ${"HD".includes(code[1]) ? "red" : ""}">${esc(cardText(code, getLang()))}</span>`;
const modeText = (mode) => SUIT[mode] || mode;
const signed = (n) => (n > 0 ? `+${n}` : `${n}`);

function bidText(bid) {
  if (bid === "pass" || bid === "take" || bid === "coinche" || bid === "surcoinche") {
    const fr = { pass: "passe", take: "prend", coinche: "coinche", surcoinche: "surcoinche" };
    return getLang() === "fr" ? fr[bid] : bid;
  }
  const c = parseBid(bid);
  return c ? `${c.level}${modeText(c.mode)}` : modeText(bid); // a second-round trump: "H"
}

function showError(error) {
  R.error = error;
  if (!error) {
    el.error.hidden = true;
    return;
  }
  el.error.textContent = error.key ? rt(error.key) : refusalText(error, getLang());
  el.error.dataset.code = error.code || error.key;
  el.error.hidden = false;
}

// ---------------------------------------------------------------------- My games
/**
 * Whose a score of an entry is, in the words of the table's scoreboard (words.js sideHead): a side
 * is Us or Them to who sat at it, N–S or E–W to a spectator; a player of a game without partners is
 * You, or their name.
 */
function scoreHead(g, key) {
  const lang = getLang();
  if (gameOf(g.variant).partners) {
    if (!g.seat) return tIn(lang, key === "NS" ? "sideShortNS" : "sideShortEW");
    return tIn(lang, gameOf(g.variant).team(g.seat) === key ? "us" : "them");
  }
  return key === g.seat ? tIn(lang, "you") : (g.names || {})[key] || rt(`seat${key}`);
}

function drawGames() {
  const games = loadGames();
  if (!games.length) {
    el.games.innerHTML = `<li class="empty">${esc(rt("noGames"))}</li>`;
    return;
  }
  el.games.innerHTML = games
    .map((g) => {
      const when = new Date(g.when).toLocaleString(getLang(), { dateStyle: "medium", timeStyle: "short" });
      const others = Object.entries(g.names || {})
        .filter(([seat]) => seat !== g.seat)
        .map(([seat, name]) => `${name} (${rt(`seat${seat}`)})`)
        .join(", ");
      const score = g.score ? Object.entries(g.score).map(([k, v]) => `${scoreHead(g, k)} ${v}`).join(" – ") : "";
      const deal = Math.max(1, g.deals || 1);
      return (
        `<li data-testid="game-entry" data-table="${esc(g.table)}" data-game="${g.game}">` +
        `<div class="game-main"><b>${esc(gameName(g.variant))}</b> · ${esc(rt("gameN", { n: g.game }))} · ${esc(when)}` +
        `${others ? `<br><span class="muted">${esc(rt("vs"))} ${esc(others)}</span>` : ""}` +
        `${score ? `<br><span class="muted">${esc(rt("score", { score }))}</span>` : ""}` +
        `<span class="gone-note" data-testid="game-gone" hidden></span></div>` +
        `<div class="game-actions"><a class="btn primary" data-testid="game-open" href="${esc(reviewUrl(g.table, g.game, deal))}">${esc(rt("open"))}</a>` +
        `<button type="button" class="btn" data-testid="game-remove" data-remove="${esc(g.table)}">${esc(rt("remove"))}</button></div></li>`
      );
    })
    .join("");
  for (const g of games) checkGone(g);
}

/** Says on an entry when the server no longer has its table (or its game's deals). */
async function checkGone(g) {
  const secret = secretOf(g.table, g.game);
  if (!secret) return;
  let status = 0;
  try {
    const answer = await fetch(`/api/tables/${encodeURIComponent(g.table)}/records`, { headers: { Authorization: `Bearer ${secret}` } });
    status = answer.status;
  } catch {
    return;
  }
  const latest = latestGame(g.table);
  const note = el.games.querySelector(`[data-table="${CSS.escape(g.table)}"] [data-testid="game-gone"]`);
  if (!note) return;
  if (status === 404) note.textContent = rt("gone");
  else if (latest && latest.game > g.game) note.textContent = rt("notKept");
  else return;
  note.hidden = false;
  note.closest("li").classList.add("gone");
}

// ---------------------------------------------------------------------- loading
async function loadTable(q) {
  const table = q.get("table");
  const game = Number(q.get("game")) || null;
  const secret = q.get("watch") || secretOf(table, game);
  const entry = loadGames().find((g) => g.table === table) || null;
  R.source = { table, game, names: entry ? entry.names : {}, seat: entry ? entry.seat : null };
  if (identity.player() && game && R.source.seat) {
    // Kept for the identity once the match is over (the server checks it sat there): its reviews count.
    Object.assign(R.source, { match: `${table}:${game - 1}`, counted: R.source.seat });
  }
  if (!secret) return showError({ key: "noSecret" });
  if (entry && game && entry.game > game) return showError({ key: "notKept" });
  let answer;
  try {
    answer = await fetch(`/api/tables/${encodeURIComponent(table)}/records`, { headers: { Authorization: `Bearer ${secret}` } });
  } catch {
    return showError({ key: "network" });
  }
  if (answer.status === 404) return showError({ key: "gone" });
  if (!answer.ok) return showError(await refusalOf(answer));
  const records = parseRecords(await answer.text());
  if (!records.length) return showError({ key: "noDeals" });
  R.records = records;
  const deal = Number(q.get("deal")) || records.length;
  await showDeal(Math.min(Math.max(deal, 1), records.length) - 1);
}

/** The deals of a kept match (a profile's link): public, seen from the seat asked (the profile's player). */
async function loadMatch(q) {
  const id = q.get("match");
  let answers;
  try {
    const path = `/api/matches/${encodeURIComponent(id)}`;
    answers = await Promise.all([fetch(path), fetch(`${path}/records`)]);
  } catch {
    return showError({ key: "network" });
  }
  const [kept, lines] = answers;
  if (!kept.ok) return showError(await refusalOf(kept));
  if (!lines.ok) return showError(await refusalOf(lines));
  const match = await kept.json();
  const seats = (match.sides || []).flat();
  const names = Object.fromEntries(seats.map((s) => [s.seat, s.name]));
  const asked = seats.find((s) => s.seat === q.get("seat")) || null;
  const me = identity.player();
  const mine = me ? seats.find((s) => s.player === me.id) : null;
  const number = Number(String(match.id).split(":").pop());
  R.source = {
    table: match.table,
    game: Number.isInteger(number) ? number + 1 : 1,
    names,
    seat: (asked || mine || {}).seat || null,
    match: match.id,
    counted: mine ? mine.seat : null, // the identity's own seat: its reviews count in its statistics
  };
  const records = parseRecords(await lines.text());
  if (!records.length) return showError({ key: "noDeals" });
  R.records = records;
  const deal = Number(q.get("deal")) || 1;
  await showDeal(Math.min(Math.max(deal, 1), records.length) - 1);
}

/**
 * A tournament's board (from its traveller): GET .../boards/{k}/records with who asks (the identity,
 * or this browser's guest token) answers the person's deal and the bots' line's; they are shown as
 * You and Bots, the person's seat named so in each.
 */
async function loadTournament(q) {
  const id = q.get("tournament");
  const board = Number(q.get("board")) || 1;
  const invite = q.get("invite") || inviteOf(id);
  let answers;
  try {
    const headers = askHeaders();
    answers = await Promise.all([
      fetch(apiPath(id, "", invite), { headers }),
      fetch(apiPath(id, `/boards/${board}/records`, invite), { headers }),
    ]);
  } catch {
    return showError({ key: "network" });
  }
  const [kept, lines] = answers;
  if (!kept.ok) return showError(await refusalOf(kept));
  if (!lines.ok) return showError(await refusalOf(lines));
  const t = await kept.json();
  const seat = personSeat(gameOf(t.game).seats);
  R.source = {
    table: null,
    game: null,
    names: {},
    seat,
    tournament: id,
    board,
    labels: ["reviewYou", "reviewBots"],
    dealNames: [{ [seat]: tw("reviewYou") }, { [seat]: tw("reviewBots") }],
  };
  $('[data-testid="back"]').href = tournamentUrl(id, { invite: t.kind === "private" ? invite : null, board });
  $('[data-testid="back"]').dataset.r = "";
  $('[data-testid="back"]').dataset.tw = "reviewBack";
  applyLanguage();
  const records = parseRecords(await lines.text());
  if (!records.length) return showError({ key: "noDeals" });
  R.records = records;
  const deal = Number(q.get("deal")) || 1;
  await showDeal(Math.min(Math.max(deal, 1), records.length) - 1);
}

async function refusalOf(answer) {
  try {
    return await answer.json();
  } catch {
    return { key: "network" };
  }
}

/** The records of a file: one JSON object, or JSON lines. */
function parseRecords(text) {
  const out = [];
  try {
    const whole = JSON.parse(text);
    if (whole && typeof whole === "object" && !Array.isArray(whole)) return [whole];
    if (Array.isArray(whole)) return whole.filter((r) => r && typeof r === "object");
  } catch {
    // JSON lines.
  }
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line);
      if (r && typeof r === "object" && !Array.isArray(r)) out.push(r);
    } catch {
      // A line that is not JSON is skipped: the server names what is wrong with each deal sent.
    }
  }
  return out;
}

async function loadFile(file) {
  const text = await file.text();
  const records = parseRecords(text);
  if (!records.length) return showError({ key: "notRecords" });
  showError(null);
  R.source = null;
  R.records = records;
  R.analyses = new Map();
  history.replaceState(null, "", "/review");
  await showDeal(0);
}

async function showDeal(index) {
  R.index = index;
  R.step = 0;
  el.home.hidden = true;
  el.review.hidden = false;
  drawPicker();
  if (!R.analyses.has(index)) {
    R.loading = true;
    el.thinking.hidden = false;
    el.board.closest(".layout").classList.add("waiting");
    try {
      const result = await analyse(R.records[index]);
      if (result.error) {
        showError(result.error);
      } else {
        showError(null);
        R.analyses.set(index, result.analysis);
      }
    } finally {
      R.loading = false;
      el.thinking.hidden = true;
      el.board.closest(".layout").classList.remove("waiting");
    }
  }
  if (R.index !== index) return;
  R.step = 0; // the deal as dealt, every hand whole: → steps through it, End shows it as it ended
  draw();
  if (R.source) {
    const q = new URLSearchParams(location.search);
    q.set("deal", String(index + 1));
    history.replaceState(null, "", `/review?${q}`);
  }
}

/** Where a deal goes to be analysed: with its kept match and the identity's seat, when it played it. */
function analyseUrl() {
  const s = R.source;
  if (!s || !s.match || !s.counted || !identity.secret()) return "/api/analyse";
  return `/api/analyse?${new URLSearchParams({ match: s.match, seat: s.counted })}`;
}

function analyseHeaders() {
  const counted = R.source && R.source.match && R.source.counted;
  return { "Content-Type": "application/json", ...(counted ? identity.authHeaders() : {}) };
}

/** POST /api/analyse: {analysis} or {error}; a busy server is asked again after the time it says. */
async function analyse(record) {
  for (let attempt = 0; ; attempt++) {
    let answer;
    try {
      answer = await fetch(analyseUrl(), { method: "POST", headers: analyseHeaders(), body: JSON.stringify(record) });
    } catch {
      return { error: { key: "network" } };
    }
    if (answer.ok) return { analysis: await answer.json() };
    const refusal = await refusalOf(answer);
    const busy = refusal.code === "analysis_running" || refusal.code === "analyses_busy";
    if (!busy || attempt >= RETRIES) return { error: refusal };
    const wait = Number(answer.headers.get("Retry-After")) || 2;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

// ---------------------------------------------------------------------- the deal
/** The bids then the cards, in the order they were made: the steps of the review. */
function actions() {
  const a = R.analyses.get(R.index);
  if (!a) return [];
  return [...a.bids.map((b) => ({ kind: "bid", ...b })), ...a.plays.map((p) => ({ kind: "card", ...p }))];
}

/** The seats of the analysed deal's game, as the server describes it (GET /api/games). */
function seatsOf(a) {
  return gameOf(a.game).seats;
}

/** The score a seat's tricks go to: its side's, or its own. */
function teamOf(a, seat) {
  return gameOf(a.game).team(seat);
}

/** A deal's name in the picker: its number, or for a tournament's board "You" and "Bots". */
function dealLabel(i) {
  const labels = R.source && R.source.labels;
  return labels && labels[i] ? tw(labels[i]) : String(i + 1);
}

function drawPicker() {
  if (R.records.length < 2) {
    el.picker.innerHTML = "";
    return;
  }
  el.picker.innerHTML =
    `<span class="muted">${esc(rt("deals"))}</span> ` +
    R.records
      .map(
        (_, i) =>
          `<button type="button" data-testid="deal-${i + 1}" data-deal="${i}"${i === R.index ? ' aria-current="true" class="current"' : ""}>${esc(dealLabel(i))}</button>`,
      )
      .join("");
}

function draw() {
  const a = R.analyses.get(R.index);
  if (!a) return;
  const steps = actions();
  R.step = Math.max(0, Math.min(R.step, steps.length));
  drawHeadline(a);
  drawBoard(a, steps);
  drawNow(a, steps);
  drawBids(a);
  drawPar(a);
  drawPlays(a);
  drawPlayers(a);
  el.step.textContent = rt("step", { n: R.step, m: steps.length });
  el.step.dataset.step = String(R.step);
}

function contractWords(a) {
  const s = a.summary;
  if (s.contract) return `${seatWord(s.contract.bidder)} · ${s.contract.level}${modeText(s.contract.mode)}${s.contract.multiplier > 1 ? ` ×${s.contract.multiplier}` : ""}`;
  if (s.taker && s.trump) return rt("contract", { seat: seatWord(s.taker), trump: modeText(s.trump) });
  return "";
}

function drawHeadline(a) {
  const r = a.summary.result;
  const points = Object.entries(r.points)
    .map(([k, v]) => `${esc(k)} +${v}`)
    .join(" · ");
  const s = R.source;
  const where = s && s.tournament ? "" : s ? ` · ${esc(rt("gameN", { n: s.game || 1 }))}` : "";
  const head = s && s.tournament
    ? `${tw("board", { n: s.board })} · ${tw(R.index === 0 ? "reviewYouLong" : "reviewBotsLong")}`
    : rt("deal", { n: R.index + 1 });
  el.headline.innerHTML =
    `<h2>${esc(head)}${where} · ${esc(gameName(a.game))}</h2>` +
    `<p><span class="contract">${esc(contractWords(a))}</span> ` +
    `<span class="outcome ${esc(r.outcome)}" data-testid="outcome">${esc(rt(`outcome_${r.outcome}`))}</span> ` +
    `<span class="points" data-testid="result-points">${points}</span></p>`;
}

/** Each seat's cards after `played` cards: its hand (and at two hands its cards on the table). */
function cardsHeld(a, played) {
  const s = a.summary;
  const out = {};
  const gone = new Set(a.plays.slice(0, played).map((p) => p.card));
  for (const seat of seatsOf(a)) {
    const hand = s.hands ? [...s.hands[seat]] : [];
    const table = s.table && s.table[seat] ? s.table[seat].flat() : [];
    out[seat] = { hand: hand.filter((c) => !gone.has(c)), table: table.filter((c) => !gone.has(c)) };
  }
  return out;
}

function drawBoard(a, steps) {
  const n = seatsOf(a).length;
  const bids = a.bids.length;
  const played = Math.max(0, R.step - bids);
  const held = cardsHeld(a, played);
  const next = steps[R.step] && steps[R.step].kind === "card" ? steps[R.step] : null;
  const me = R.source && R.source.seat ? R.source.seat : gameOf(a.game).bottom;
  const trump = a.summary.contract ? a.summary.contract.mode : a.summary.trump;
  let html = "";
  for (const seat of seatsOf(a)) {
    const pos = screenPos(seat, me, n);
    const mover = next && next.seat === seat;
    const cardsOf = (list) =>
      sortHand(list, trump)
        .map((c) => {
          let cls = "rcard";
          let badge = "";
          if (mover && next.legal.includes(c)) {
            const dd = next.double_dummy ? next.double_dummy[c] : null;
            cls += " legal";
            if (dd) badge = `<span class="badge ${dd.cost ? "bad" : "good"}" data-testid="card-cost" data-card="${c}" data-cost="${dd.cost}">${dd.cost ? `−${dd.cost}` : "0"}</span>`;
            if (c === next.card) cls += " chosen";
            if (next.view && next.view.choice === c) badge += `<span class="bot" title="${esc(rt("botChoice", { card: cardText(c, getLang()) }))}">✦</span>`;
          } else if (mover) {
            cls += " illegal";
          }
          return `<span class="${cls}" data-card="${c}">${cardFace(c, getLang())}${badge}</span>`;
        })
        .join("");
    const table = held[seat].table.length ? `<div class="table-cards">${cardsOf(held[seat].table)}</div>` : "";
    html +=
      `<div class="seat pos-${pos}${mover ? " to-move" : ""}" data-testid="seat-${seat}" data-seat="${seat}">` +
      `<div class="seat-name">${esc(seatWord(seat))}${a.summary.taker === seat ? ' <span class="taker">★</span>' : ""}</div>` +
      `<div class="rhand" style="--n:${held[seat].hand.length}">${cardsOf(held[seat].hand)}</div>${table}</div>`;
  }
  const [trick, running] = trickHtml(a, played, me, n);
  html += `<div class="center">${trick}</div>${running}`;
  el.board.className = `board players-${n}`;
  el.board.innerHTML = html;
}

function trickHtml(a, played, me, n) {
  const tricks = a.summary.tricks || [];
  const done = Math.floor(played / n);
  const points = Object.fromEntries(Object.keys(a.summary.result.points).map((k) => [k, 0]));
  const won = Object.fromEntries(Object.keys(points).map((k) => [k, 0]));
  for (const tr of tricks.slice(0, done)) {
    points[teamOf(a, tr.winner)] += tr.points;
    won[teamOf(a, tr.winner)] += 1;
  }
  let cards = "";
  let label = "";
  if (played > 0) {
    const t = Math.floor((played - 1) / n);
    const tr = tricks[t];
    const inTrick = a.plays.slice(t * n, played);
    const complete = inTrick.length === n;
    label = rt("trick", { n: t + 1 });
    cards = inTrick
      .map((p) => {
        const win = complete && tr && tr.winner === p.seat ? " winner" : "";
        return `<span class="tcard pos-${screenPos(p.seat, me, n)}${win}" data-testid="trick-card" data-card="${p.card}" data-seat="${p.seat}">${cardFace(p.card, getLang())}</span>`;
      })
      .join("");
  }
  const score = Object.keys(points)
    .map((k) => `<span data-testid="running-${k}" data-points="${points[k]}"><b>${esc(k)} ${points[k]}</b> <small>${esc(rt(won[k] === 1 ? "trickOne" : "tricksN", { n: won[k] }))}</small></span>`)
    .join("");
  return [
    `<div class="trick" data-testid="trick">${cards}</div><div class="trick-label">${esc(label)}</div>`,
    `<div class="running" data-testid="running"><small>${esc(rt("points"))}</small>${score}</div>`,
  ];
}

function drawNow(a, steps) {
  const last = steps[R.step - 1];
  el.now.dataset.kind = last ? last.kind : "start";
  if (!last) {
    el.now.innerHTML = esc(rt("atStart"));
    delete el.now.dataset.cost;
    return;
  }
  if (last.kind === "bid") {
    const bot = last.bot && last.bot !== last.bid ? ` <span class="muted">(${esc(rt("botBid", { bid: bidText(last.bot) }))})</span>` : "";
    el.now.innerHTML = `${esc(rt("bidBy", { seat: seatWord(last.seat), bid: bidText(last.bid) }))}${bot}`;
    delete el.now.dataset.cost;
    return;
  }
  el.now.dataset.cost = last.cost === null ? "" : String(last.cost);
  el.now.dataset.card = last.card;
  const parts = [`<b>${esc(rt("played", { seat: seatWord(last.seat), card: "" }))}${cardHtml(last.card)}</b>`];
  if (last.legal.length === 1) parts.push(esc(rt("forced")));
  else if (last.cost === null) parts.push(esc(rt("notSolved")));
  else if (last.cost === 0) parts.push(`<span class="good">${esc(rt("cost", { n: 0 }))} · ${esc(rt("bestCard"))}</span>`);
  else parts.push(`<span class="bad">${esc(rt("cost", { n: last.cost }))}</span> · ${esc(rt("best", { cards: "" }))}${last.best.map(cardHtml).join(" ")}`);
  if (last.view) {
    parts.push(
      last.view.choice === last.card
        ? esc(rt("botSame"))
        : `${esc(rt("botChoice", { card: "" }))}${cardHtml(last.view.choice)}${last.view.cost ? ` (${esc(rt("cost", { n: -last.view.cost }))})` : ""}`,
    );
  }
  el.now.innerHTML = parts.join(" · ");
}

function drawBids(a) {
  const current = R.step - 1;
  el.bids.innerHTML =
    a.bids
      .map((b, i) => {
        const bot = b.bot && b.bot !== b.bid ? ` <span class="muted">(${esc(rt("botBid", { bid: bidText(b.bot) }))})</span>` : "";
        return `<li data-testid="bid-item" data-step="${i + 1}"${i === current ? ' class="current" aria-current="step"' : ""}><button type="button" class="link" data-goto="${i + 1}">${esc(seatWord(b.seat))}: <b>${esc(bidText(b.bid))}</b></button>${bot}</li>`;
      })
      .join("") || `<li class="muted">—</li>`;
}

function drawPar(a) {
  const lines = [];
  for (const m of a.par.modes) {
    let words;
    if (a.par.kind === "contracts") {
      words = !m.solved
        ? rt("unsolved")
        : Object.entries(m.par)
            .map(([side, p]) => (p ? rt("parContract", { side, contract: bidText(p.contract), value: signed(p.value) }) : rt("parNone", { side })))
            .join(" · ");
    } else {
      // For each score, its best taker and what that taker's side makes (at three and two hands a
      // score is one player's: the side's name is the seat's, said once).
      words =
        Object.entries(m.par || {})
          .map(([side, p]) => {
            const head = p && side === p.taker ? "" : `${side}: `;
            return p ? `${head}${rt("parTaker", { seat: seatWord(p.taker), value: signed(p.value) })}` : `${head}${rt("unsolved")}`;
          })
          .join(" · ") || rt("unsolved");
    }
    lines.push(`<li data-testid="par-mode" data-mode="${m.trump}"><b class="suit-${m.trump}">${esc(modeText(m.trump))}</b> ${esc(words)}</li>`);
  }
  el.par.innerHTML = lines.join("");
}

function drawPlays(a) {
  const n = seatsOf(a).length;
  const bids = a.bids.length;
  const current = R.step - bids - 1;
  const rows = [];
  for (let t = 0; t * n < a.plays.length; t++) {
    const cells = a.plays.slice(t * n, t * n + n).map((p) => {
      const cost = p.cost === null ? "?" : p.cost;
      const cls = p.cost ? "bad" : "good";
      const bot = p.view && p.view.choice !== p.card ? `<span class="bot" title="${esc(rt("botChoice", { card: cardText(p.view.choice, getLang()) }))}">✦${cardHtml(p.view.choice)}</span>` : "";
      return (
        `<button type="button" class="play${p.index === current ? " current" : ""}" data-testid="play-item" data-goto="${bids + p.index + 1}" ` +
        `data-index="${p.index}" data-card="${p.card}" data-cost="${p.cost === null ? "" : p.cost}" data-bot="${p.view ? p.view.choice : ""}"` +
        `${p.index === current ? ' aria-current="step"' : ""}>` +
        `<span class="who">${esc(p.seat)}</span>${cardHtml(p.card)}<span class="badge ${cls}">${cost === 0 ? "0" : cost === "?" ? "?" : `−${cost}`}</span>${bot}</button>`
      );
    });
    rows.push(`<div class="trick-row"><span class="muted">${t + 1}</span>${cells.join("")}</div>`);
  }
  el.plays.innerHTML = rows.join("") || `<p class="muted">—</p>`;
}

function drawPlayers(a) {
  const head = `<tr><th></th><th>${esc(rt("cards"))}</th><th>${esc(rt("ddCost"))}</th><th>${esc(rt("viewCost"))}</th><th>${esc(rt("mistakes"))}</th></tr>`;
  const rows = Object.entries(a.players).map(([seat, p]) => {
    const worst = p.mistakes.map((m) => `${cardHtml(m.card)} −${m.cost}`).join(", ") || esc(rt("none"));
    return (
      `<tr data-testid="player-${seat}" data-cost="${p.cost}"><th scope="row">${esc(seatWord(seat))}</th><td>${p.cards}</td>` +
      `<td class="${p.cost ? "bad" : "good"}">${p.cost}</td><td>${p.view_cost === null ? "—" : p.view_cost}</td><td>${worst}</td></tr>`
    );
  });
  el.players.innerHTML = `<table class="summary"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table>`;
}

// ---------------------------------------------------------------------- moving
function go(step) {
  if (!R.analyses.get(R.index)) return;
  R.step = step;
  draw();
}

function move(where) {
  const total = actions().length;
  go({ first: 0, prev: R.step - 1, next: R.step + 1, last: total }[where]);
}

document.addEventListener("keydown", (e) => {
  if (el.review.hidden || e.altKey || e.ctrlKey || e.metaKey) return;
  const where = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[e.key];
  if (!where) return;
  e.preventDefault();
  move(where);
});

document.addEventListener("click", (e) => {
  const stepButton = e.target.closest("[data-step]");
  if (stepButton && stepButton.tagName === "BUTTON" && stepButton.closest(".controls")) return move(stepButton.dataset.step);
  const target = e.target.closest("[data-goto]");
  if (target) return go(Number(target.dataset.goto));
  const deal = e.target.closest("[data-deal]");
  if (deal) return showDeal(Number(deal.dataset.deal));
  const remove = e.target.closest("[data-remove]");
  if (remove) {
    forget(remove.dataset.remove);
    drawGames();
  }
});

el.lang.addEventListener("click", () => {
  const lang = getLang() === "en" ? "fr" : "en";
  setLang(lang);
  keepPageLang(lang);
  applyLanguage();
});

el.file.addEventListener("change", () => {
  if (el.file.files && el.file.files[0]) loadFile(el.file.files[0]);
});
for (const kind of ["dragenter", "dragover"]) {
  el.drop.addEventListener(kind, (e) => {
    e.preventDefault();
    el.drop.classList.add("over");
  });
}
el.drop.addEventListener("dragleave", () => el.drop.classList.remove("over"));
el.drop.addEventListener("drop", (e) => {
  e.preventDefault();
  el.drop.classList.remove("over");
  const file = e.dataTransfer && e.dataTransfer.files[0];
  if (file) loadFile(file);
});

// ---------------------------------------------------------------------- start
setLang(pageLang());
applyLanguage();
const query = new URLSearchParams(location.search);
if (query.get("tournament")) {
  loadTournament(query);
} else if (query.get("match")) {
  loadMatch(query);
} else if (query.get("table")) {
  loadTable(query);
} else {
  el.home.hidden = false;
  drawGames();
}
