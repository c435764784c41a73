// A tournament's page (/tournaments/{id}?invite=&board=, issue 27, docs/tournaments.md): its name,
// game, state and time left; its boards as a row of tiles (to play, under way, played with its
// percentage) and a button that plays the next one; after a board, its traveller (every result of
// that board, best first, the player's own line marked and the bots' line shown, and its review one
// tap away); the live ranking; and for a private one, its link to share.
//
// Playing a board: POST /api/tournaments/{id}/boards/{k}/play answers the person's table (its seat
// token, kept where the table page looks for it: belote.token.<table>), and the table page opens it
// (/?table=ID). When the deal is over, the table page leads back here with ?board=k: its traveller
// opens. Nothing of a board the person has not played is ever asked for (the server refuses it too):
// its tile says "to play" and no more, until the tournament closes and every traveller opens to all.

import { contractHtml, modeHtml, parseBid } from "./coinche.js";
import { $, esc } from "./dom.js";
import { gameOf } from "./games.js";
import { gameTitle, getLang, t } from "./i18n.js";
import * as identity from "./identity.js";
import { copyText } from "./lobby.js";
import { num, profileUrl } from "./people.js";
import { dateWords, startPage } from "./players-page.js";
import { ask, refusalWords } from "./tournament-ask.js";
import {
  apiPath, boardReviewUrl, checkName, inviteOf, keepTournament, nextBoard, pct, personSeat, pointsFromMe, progress,
  rankingRows, signedNum, tournamentUrl, travellerRows, whenWords,
} from "./tournament-core.js";
import { translateTw, tw } from "./tournament-words.js";
import { outcomeWord } from "./words.js";

const NAME_KEY = "belote.name"; // the name this browser plays under without an identity (the table page's)
const REFRESH_MS = 30_000; // the tournament and its ranking, again
const RESULT_WAIT_MS = 700; // a board just finished: its result is being kept, asked again after this
const RESULT_TRIES = 20;
const RANKING_WAIT_MS = 2500; // a ranking that does not count one's last board yet: the server remakes it
const RANKING_TRIES = 12;

const el = {
  error: $('[data-testid="t-error"]'),
  loading: $('[data-testid="t-loading"]'),
  head: $('[data-testid="t-head"]'),
  kind: $('[data-testid="t-kind"]'),
  name: $('[data-testid="t-name"]'),
  facts: $('[data-testid="t-facts"]'),
  state: $('[data-testid="t-state"]'),
  when: $('[data-testid="t-when"]'),
  share: $('[data-testid="t-share"]'),
  shareLink: $('[data-testid="share-link"]'),
  boards: $('[data-testid="t-boards"]'),
  progress: $('[data-testid="t-progress"]'),
  tiles: $('[data-testid="tiles"]'),
  play: $('[data-testid="play-next"]'),
  playingAs: $('[data-testid="playing-as"]'),
  guest: $('[data-testid="guest-form"]'),
  playError: $('[data-testid="play-error"]'),
  note: $('[data-testid="t-note"]'),
  traveller: $('[data-testid="traveller"]'),
  travellerTitle: $('[data-testid="traveller-title"]'),
  travellerError: $('[data-testid="traveller-error"]'),
  travellerBody: $('[data-testid="traveller-body"]'),
  ranking: $('[data-testid="ranking"]'),
  rankingTitle: $('[data-testid="ranking-title"]'),
  rankingAt: $('[data-testid="ranking-at"]'),
  rankingTable: $('[data-testid="ranking-table"]'),
  rankingCaption: $('[data-testid="ranking-caption"]'),
  rankingRows: $('[data-testid="ranking-rows"]'),
  rankingEmpty: $('[data-testid="ranking-empty"]'),
  pager: $('[data-testid="ranking-pager"]'),
  rowsOf: $('[data-testid="ranking-rows-of"]'),
};

const ID = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const query = new URLSearchParams(location.search);
const INVITE = query.get("invite") || inviteOf(ID);
const PAGE = 50; // rows of a ranking's answer (server/tournaments.py RANKING_PAGE)

/** What the page holds. */
const S = {
  t: null, // GET /api/tournaments/{id}: the tournament and `mine`, each board for this player
  error: null,
  board: Number(query.get("board")) || null, // the board whose traveller is shown (or asked for)
  traveller: null,
  travellerError: null,
  ranking: null,
  offset: 0,
  asking: false, // a board's table is being asked for
  guestOpen: false,
  resultTries: 0,
  rankingTries: 0,
  rankingTimer: null,
};

// What the tests read.
window.__tournament = {
  get tournament() { return S.t; },
  get traveller() { return S.traveller; },
  get ranking() { return S.ranking; },
  get board() { return S.board; },
};

const nowSeconds = () => Date.now() / 1000;
const lang = () => getLang();

function title() {
  return `${S.t ? tournamentName(S.t) : tw("pageTitle")} — ${t("title")}`;
}

function tournamentName(x) {
  if (x.kind === "private") return x.name || tw("privateTitle");
  return `${gameTitle(x.game)} — ${dayWords(x.opens)}`;
}

/** The day of a daily tournament (its UTC day, wherever the reader is): "5 December 2026". */
function dayWords(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(lang() === "fr" ? "fr-FR" : "en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

function mineOf(board) {
  return S.t && S.t.mine ? S.t.mine.find((b) => b.board === board) || null : null;
}

/** Whether a board's results may be shown to this player: played, or the tournament is over. */
function open(board) {
  const b = mineOf(board);
  return Boolean(b && (b.state === "played" || S.t.state === "closed"));
}

// ---------------------------------------------------------------------- drawing
function draw() {
  translateTw();
  document.title = title();
  el.loading.hidden = Boolean(S.t || S.error);
  el.error.hidden = !S.error;
  el.error.textContent = S.error ? refusalWords(S.error) : "";
  for (const card of [el.head, el.boards, el.ranking]) card.hidden = !S.t;
  if (!S.t) {
    el.traveller.hidden = true;
    return;
  }
  drawHead();
  drawBoards();
  drawTraveller();
  drawRanking();
}

function stateHtml(x) {
  return `<span class="state state-${esc(x.state)}">${esc(tw(`state_${x.state}`))}</span>`;
}

function drawHead() {
  const x = S.t;
  el.kind.textContent = x.kind === "private" ? tw("privateTitle") : tw("dailyName");
  el.name.textContent = tournamentName(x);
  const strength = x.settings && x.settings.strength ? t(`choice_strength_${x.settings.strength}`) : "";
  el.facts.textContent = [
    x.kind === "private" ? gameTitle(x.game) : "", // a daily one's name says its game
    x.boards === 1 ? tw("boardsOne") : tw("boardsN", { n: x.boards }),
    strength ? tw("bots", { strength }) : "",
  ]
    .filter(Boolean)
    .join(" · ");
  el.state.innerHTML = stateHtml(x);
  el.when.textContent = whenWords(x, nowSeconds(), (s) => dateWords(s, { time: true }));
  const invite = x.invite || INVITE;
  el.share.hidden = !(x.kind === "private" && invite);
  if (!el.share.hidden) el.shareLink.value = location.origin + tournamentUrl(x.id, { invite });
}

function tileHtml(b) {
  const shown = open(b.board);
  const percent = b.state === "played" ? pct(b.percent, lang()) : "";
  const what = b.state === "played" ? percent : tw(`tile_${b.state}`);
  const attrs = `data-testid="tile" data-board="${b.board}" data-state="${esc(b.state)}"`;
  // Its name is what it shows, the board's word first for a screen reader: "Board 1 62.5%".
  const inner =
    `<span class="sr-only">${esc(tw("board", { n: "" }).trim())} </span><span class="tile-n">${b.board}</span> ` +
    `<span class="tile-what">${esc(what)}</span>`;
  const shade = b.state === "played" && typeof b.percent === "number" ? ` style="--p:${Math.round(b.percent)}"` : "";
  if (!shown) return `<li><span class="tile ${esc(b.state)}" ${attrs}${shade}>${inner}</span></li>`;
  const current = S.board === b.board && !el.traveller.hidden;
  return (
    `<li><button type="button" class="tile ${esc(b.state)}" ${attrs}${shade} data-show="${b.board}" ` +
    `aria-pressed="${current}" aria-describedby="tiles-help">${inner}</button></li>`
  );
}

function drawBoards() {
  const x = S.t;
  const mine = x.mine || [];
  const p = progress(mine);
  const parts = [tw(p.played === 1 ? "playedOne" : "playedOf", { n: p.played, m: p.boards })];
  if (p.percent !== null) parts.push(tw("soFar", { percent: pct(p.percent, lang()) }));
  el.progress.textContent = parts.join(" · ");
  el.tiles.innerHTML = mine.map(tileHtml).join("");
  el.tiles.dataset.boards = String(mine.length);
  const next = x.state === "open" ? nextBoard(mine) : null;
  el.play.hidden = next === null || S.guestOpen;
  if (next !== null) {
    const going = mineOf(next).state === "playing";
    el.play.textContent = tw(going ? "resumeBoard" : "playBoard", { n: next });
    el.play.dataset.board = String(next);
    el.play.disabled = S.asking;
  }
  const guestName = guestNameKept();
  el.playingAs.hidden = next === null || Boolean(identity.player()) || !guestName || S.guestOpen;
  // A guest's name, asked once and kept; one may change it for the next boards.
  el.playingAs.innerHTML = guestName
    ? `${esc(tw("playingAs", { name: guestName }))} <button type="button" class="link-btn" data-act="rename" data-testid="guest-rename">${esc(tw("changeName"))}</button>`
    : "";
  el.guest.hidden = !S.guestOpen;
  let note = "";
  if (x.state === "soon") note = tw("notOpen");
  else if (x.state === "closed") note = tw("isClosed");
  else if (next === null) note = tw("allPlayed");
  else note = tw("hiddenNote");
  el.note.textContent = note;
}

/** A seat in a traveller's line, seen from the player's seat: you, partner, or the seat. */
function seatWords(seat, game) {
  const mine = personSeat(game.seats);
  if (seat === mine) return tw("takerYou");
  if (game.partner(mine) === seat) return tw("takerPartner");
  return t(`seat${seat}`);
}

function contractCellHtml(line, game) {
  let what;
  if (line.contract) {
    const c = parseBid(line.contract);
    what = c ? contractHtml({ ...c, multiplier: line.multiplier || 1 }, t) : esc(line.contract);
  } else if (line.trump) {
    what = modeHtml(line.trump, t);
  } else {
    what = esc(tw("passed"));
  }
  const by = line.taker ? `<span class="by">${esc(seatWords(line.taker, game))}</span>` : "";
  const outcome = line.outcome && line.outcome !== "thrown-in" ? `<span class="outcome-word outcome-${esc(line.outcome)}">${esc(outcomeWord(line.outcome))}</span>` : "";
  return `<span class="what">${what}</span>${by}${outcome}`;
}

function namesHtml(names, n) {
  const shown = names.slice(0, 3).map(esc).join(", ");
  const more = n > 3 ? ` <span class="more">${esc(tw("moreNames", { n: n - 3 }))}</span>` : "";
  return `<span class="names">${shown}${more}</span>`;
}

function lineHtml(line, game) {
  const l = lang();
  const ours = pointsFromMe(line.points || [], game.teams, game.team(personSeat(game.seats)));
  const points = `<span class="pts">${ours.map((p) => esc(num(p, l))).join("\u2009\u2013\u2009")}</span><span class="score">${esc(signedNum(line.score, l, 1))}</span>`;
  let who;
  if (line.kind === "bots") {
    who = `<span class="tag bots">${esc(tw("reviewBots"))}</span>`;
  } else {
    const you = line.mine ? ` <span class="tag you">${esc(tw("you"))}</span>` : "";
    who = `<b class="n">${esc(tw("madeBy", { n: line.n }))}</b>${you} ${namesHtml(line.names || [], line.n)}`;
  }
  const cls = [line.kind, line.mine ? "mine" : ""].filter(Boolean).join(" ");
  return (
    `<tr class="${cls}" data-testid="line" data-kind="${line.kind}" data-mine="${Boolean(line.mine)}" data-score="${line.score}" data-n="${line.n}">` +
    `<th scope="row" class="contract-cell">${contractCellHtml(line, game)}</th>` +
    `<td class="num points">${points}</td>` +
    `<td class="who">${who}</td>` +
    `<td class="num strong" data-testid="line-percent">${esc(pct(line.percent, l))}</td>` +
    `<td class="num diff">${esc(line.kind === "bots" ? "" : signedNum(line.difference, l, 1))}</td></tr>`
  );
}

function statHtml(label, value, help, testid) {
  const small = help ? `<small>${esc(help)}</small>` : "";
  return `<div class="stat" data-testid="${testid}"><span class="stat-label">${esc(label)}</span><b>${esc(value)}</b>${small}</div>`;
}

function comparedWords(c) {
  const people = c.people === 0 ? tw("peopleNone") : c.people === 1 ? tw("peopleOne") : tw("peopleN", { n: c.people });
  const bots = c.bots === 0 ? tw("botsNone") : c.bots === 1 ? tw("botsOne") : tw("botsN", { n: c.bots });
  return tw("compared", { people, bots });
}

function drawTraveller() {
  const board = S.board;
  const shown = board !== null && (S.traveller || S.travellerError || !open(board));
  el.traveller.hidden = !shown;
  if (!shown) return;
  el.travellerTitle.textContent = tw("travellerTitle", { n: board });
  if (!open(board)) {
    // Asked for by its address before it was played: nothing of it is shown (nor asked for).
    el.travellerError.hidden = false;
    el.travellerError.textContent = tw("notPlayedYet", { n: board });
    el.travellerBody.innerHTML = "";
    return;
  }
  el.travellerError.hidden = !S.travellerError;
  el.travellerError.textContent = S.travellerError ? refusalWords(S.travellerError) : "";
  const tr = S.traveller && S.traveller.board === board ? S.traveller : null;
  if (!tr) {
    el.travellerBody.innerHTML = S.travellerError ? "" : `<p class="loading">${esc(tw("loading"))}</p>`;
    return;
  }
  const game = gameOf(tr.game);
  const l = lang();
  let html = "";
  if (tr.mine) {
    html +=
      `<h3 class="sr-only">${esc(tw("yourResult"))}</h3><div class="stats-row" data-testid="your-result">` +
      statHtml(tw("percent"), pct(tr.mine.percent, l), tw("percentHelp"), "your-percent") +
      statHtml(tw("score"), signedNum(tr.mine.score, l, 1), tw("scoreHelp"), "your-score") +
      statHtml(tw("difference"), signedNum(tr.mine.difference, l, 1), tw("differenceHelp"), "your-difference") +
      `</div>`;
  }
  html += `<p class="note compared" data-testid="compared">${esc(comparedWords(tr.compared))}</p>`;
  html +=
    `<div class="board-scroll" tabindex="0" role="region" aria-label="${esc(tw("travellerTitle", { n: board }))}">` +
    `<table class="traveller-table" data-testid="traveller-table">` +
    `<caption class="sr-only">${esc(tw("travellerTitle", { n: board }))}</caption><thead><tr>` +
    `<th scope="col">${esc(tw("colContract"))}</th><th scope="col" class="num">${esc(tw("colPoints"))}</th>` +
    `<th scope="col">${esc(tw("colMade"))}</th><th scope="col" class="num">${esc(tw("colPercent"))}</th>` +
    `<th scope="col" class="num">${esc(tw("colDiff"))}</th></tr></thead><tbody>` +
    travellerRows(tr)
      .map((line) => lineHtml(line, game))
      .join("") +
    `</tbody></table></div>`;
  html += `<p class="note help">${esc(tw("travellerHelp"))}</p>`;
  if (tr.mine) {
    const href = boardReviewUrl(ID, board, S.t.kind === "private" ? INVITE : null);
    html +=
      `<p class="review-row"><a class="btn ghost" href="${esc(href)}" data-testid="review-link">${esc(tw("reviewDeal"))}</a>` +
      ` <span class="note">${esc(tw("reviewHelp"))}</span></p>`;
  }
  el.travellerBody.innerHTML = html;
}

function timeWords(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString(lang() === "fr" ? "fr-FR" : "en-GB", { hour: "2-digit", minute: "2-digit" });
}

function rankRowHtml(r, mine) {
  const l = lang();
  const who = r.player ? `<a href="${esc(profileUrl(r.player))}">${esc(r.name)}</a>` : esc(r.name);
  const you = mine ? ` <span class="tag you">${esc(t("youMark"))}</span>` : "";
  return (
    `<tr class="${mine ? "mine" : ""}" data-testid="ranking-row" data-entrant="${esc(r.entrant)}" data-percent="${r.percent}" data-played="${r.played}">` +
    `<td class="rank">${esc(num(r.rank, l))}</td>` +
    `<th scope="row" class="who"><span class="who-name">${who}</span>${you}</th>` +
    `<td class="num">${esc(`${r.played}/${S.t.boards}`)}</td>` +
    `<td class="num strong" data-testid="ranking-percent">${esc(pct(r.percent, l, 2, true))}</td>` +
    `<td class="num">${esc(signedNum(r.difference, l, 1))}</td></tr>`
  );
}

function drawRanking() {
  const page = S.ranking;
  el.rankingTitle.textContent = S.t.state === "closed" ? tw("finalRanking") : tw("rankingTitle");
  el.rankingCaption.textContent = `${el.rankingTitle.textContent}: ${tournamentName(S.t)}`;
  el.rankingAt.textContent = page && page.total ? tw("asOf", { time: timeWords(page.at) }) : "";
  const { rows, you } = rankingRows(page);
  const mine = page && page.you ? page.you.entrant : null;
  el.rankingTable.hidden = !rows.length && !you;
  el.rankingEmpty.hidden = !page || rows.length > 0 || Boolean(you);
  el.rankingEmpty.textContent = tw("rankingEmpty");
  let html = rows.map((r) => rankRowHtml(r, r.entrant === mine)).join("");
  if (you) {
    html +=
      `<tr class="gap" aria-hidden="true"><td colspan="5">&hellip;</td></tr>` +
      rankRowHtml(you, true).replace('data-testid="ranking-row"', 'data-testid="ranking-row" data-own="true"');
  }
  el.rankingRows.innerHTML = html;
  const total = page ? page.total : 0;
  el.pager.hidden = total <= PAGE;
  if (!el.pager.hidden) {
    el.rowsOf.textContent = tw("rows", { from: S.offset + 1, to: Math.min(total, S.offset + PAGE), n: total });
    el.pager.querySelector('[data-page="-1"]').disabled = S.offset === 0;
    el.pager.querySelector('[data-page="1"]').disabled = S.offset + PAGE >= total;
  }
}

// ---------------------------------------------------------------------- asking the server
async function loadTournament() {
  const { ok, data } = await ask("GET", apiPath(ID, "", INVITE));
  if (!ok) {
    if (!S.t) S.error = data;
    draw();
    return;
  }
  S.t = data;
  S.error = null;
  if (data.kind === "private" && (data.invite || INVITE)) keepTournament(data, data.invite || INVITE);
  draw();
  rankingBehind();
}

async function loadTraveller(board) {
  S.travellerError = null;
  const { ok, data } = await ask("GET", apiPath(ID, `/boards/${board}/traveller`, INVITE));
  if (S.board !== board) return;
  if (ok) S.traveller = data;
  else S.travellerError = data;
  draw();
}

async function loadRanking() {
  const { ok, data } = await ask("GET", apiPath(ID, "/ranking", INVITE, S.offset ? { offset: S.offset } : {}));
  if (ok) S.ranking = data;
  if (S.t) drawRanking();
  rankingBehind();
}

/**
 * The ranking is remade from every result every few seconds: one that does not count this player's
 * last board yet is asked again a little later (a few times).
 */
function rankingBehind() {
  if (!S.t || !S.ranking || S.rankingTimer) return;
  const played = progress(S.t.mine).played;
  const counted = S.ranking.you ? S.ranking.you.played : 0;
  if (played <= counted) {
    S.rankingTries = 0;
    return;
  }
  if (S.rankingTries >= RANKING_TRIES) return;
  S.rankingTries += 1;
  S.rankingTimer = setTimeout(() => {
    S.rankingTimer = null;
    loadRanking();
  }, RANKING_WAIT_MS);
}

/** Shows a board's traveller (when this player may see it), kept in the address. */
function showBoard(board, { focus = false } = {}) {
  S.board = board;
  const q = new URLSearchParams(location.search);
  q.set("board", String(board));
  history.replaceState(null, "", `${location.pathname}?${q}`);
  if (open(board)) {
    if (!S.traveller || S.traveller.board !== board) S.traveller = null;
    loadTraveller(board);
  }
  draw();
  if (focus) el.traveller.focus();
}

/**
 * The page opened after a board (?board=k): its result is kept a moment after the deal ends. While
 * the board is still under way for the server, the tournament is asked again; then its traveller.
 */
async function openAskedBoard() {
  const board = S.board;
  if (board === null || !S.t) return;
  const b = mineOf(board);
  if (b && b.state === "playing" && S.resultTries < RESULT_TRIES) {
    S.resultTries += 1;
    setTimeout(async () => {
      await loadTournament();
      openAskedBoard();
    }, RESULT_WAIT_MS);
    return;
  }
  showBoard(board);
  el.traveller.scrollIntoView({ block: "start" });
}

function guestNameKept() {
  if (identity.player()) return identity.player().name;
  try {
    return checkName(localStorage.getItem(NAME_KEY) || "");
  } catch {
    return null;
  }
}

/** Plays the next board: asks its table, keeps its seat token where the table page finds it, and opens it. */
async function playNext(board) {
  const name = guestNameKept();
  if (!identity.player() && !name) {
    S.guestOpen = true;
    draw();
    el.guest.elements.name.focus();
    return;
  }
  S.asking = true;
  el.playError.hidden = true;
  draw();
  const body = identity.player() ? {} : { name };
  const { ok, data } = await ask("POST", apiPath(ID, `/boards/${board}/play`, INVITE), body, { makeGuest: true });
  if (!ok) {
    S.asking = false;
    el.playError.hidden = false;
    el.playError.textContent = refusalWords(data);
    await loadTournament();
    return;
  }
  try {
    localStorage.setItem(`belote.token.${data.table}`, data.token);
  } catch {
    // Storage refused: the table page cannot seat this browser; it says so.
  }
  el.note.textContent = tw("opening");
  location.href = `/?table=${encodeURIComponent(data.table)}`;
}

// ---------------------------------------------------------------------- what one does here
el.play.addEventListener("click", () => {
  if (!S.asking && el.play.dataset.board) playNext(Number(el.play.dataset.board));
});

el.playingAs.addEventListener("click", (ev) => {
  if (!ev.target.closest('[data-act="rename"]')) return;
  S.guestOpen = true;
  el.guest.elements.name.value = guestNameKept() || "";
  draw();
  el.guest.elements.name.focus();
});

el.guest.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const name = checkName(el.guest.elements.name.value);
  if (!name) {
    el.playError.hidden = false;
    el.playError.textContent = tw("badName");
    el.guest.elements.name.focus();
    return;
  }
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // Storage refused: the name is asked again next time.
  }
  S.guestOpen = false;
  el.playError.hidden = true;
  const board = S.t ? nextBoard(S.t.mine) : null;
  if (board !== null) playNext(board);
  else draw();
});

el.tiles.addEventListener("click", (ev) => {
  const tile = ev.target.closest("[data-show]");
  if (tile) showBoard(Number(tile.dataset.show), { focus: true });
});

el.share.addEventListener("click", async (ev) => {
  const b = ev.target.closest('[data-testid="share-copy"]');
  if (!b) return;
  const copied = await copyText(el.shareLink);
  b.textContent = copied ? tw("copied") : tw("copy");
  setTimeout(() => (b.textContent = tw("copy")), 1600);
});

el.pager.addEventListener("click", (ev) => {
  const b = ev.target.closest("[data-page]");
  if (!b || b.disabled) return;
  S.offset = Math.max(0, S.offset + Number(b.dataset.page) * PAGE);
  loadRanking();
});

startPage({ draw, title });
draw();

async function start() {
  await loadTournament();
  if (!S.t) return;
  loadRanking();
  openAskedBoard();
}

start();
setInterval(async () => {
  if (document.hidden || !S.t) return;
  await loadTournament();
  loadRanking();
}, REFRESH_MS);
// The time left, each minute.
setInterval(() => {
  if (S.t) drawHead();
}, 60_000);
