// The leaderboard (/leaderboard, docs/players.md): for each game (a tab each, from GET /api/games),
// the best players all time (by rating, provisional ones marked) or this week (by the rating won
// since Monday 00:00 UTC), from GET /api/leaderboard/{game}?period=all|week. The game and period
// chosen stay in the address (?game=coinche&period=week), so that a board can be sent.

import { $, esc } from "./dom.js";
import { GAMES, isGame } from "./games.js";
import { gameTitle, getLang, t } from "./i18n.js";
import * as identity from "./identity.js";
import { handleHtml, num, profileUrl, signed } from "./people.js";
import { dateWords, refused, startPage } from "./players-page.js";

const el = {
  games: $('[data-testid="board-games"]'),
  period: $('[data-testid="board-period"]'),
  panel: $('[data-testid="board-panel"]'),
  since: $('[data-testid="board-since"]'),
  error: $('[data-testid="board-error"]'),
  table: $('[data-testid="board"]'),
  caption: $('[data-testid="board-caption"]'),
  rows: $('[data-testid="board-rows"]'),
  matchesHead: $('[data-testid="board-matches-head"]'),
  gainedHead: $('[data-testid="board-gained-head"]'),
  empty: $('[data-testid="board-empty"]'),
  loading: $('[data-testid="board-loading"]'),
};

const asked = new URLSearchParams(location.search);
/** What the page holds: the game and period shown, the last answer for them (or a refusal). */
const B = {
  game: isGame(asked.get("game")) ? asked.get("game") : GAMES[0].name,
  period: asked.get("period") === "week" ? "week" : "all",
  board: null,
  error: null,
  asking: 0,
};

// What the tests read.
window.__leaderboard = {
  get board() { return B.board; },
  get game() { return B.game; },
  get period() { return B.period; },
};

const title = () => `${t("leaderboardTitle")} — ${t("title")}`;

function draw() {
  el.games.innerHTML = GAMES.map(({ name }) => {
    const on = name === B.game;
    return (
      `<button type="button" role="tab" class="tab" id="tab-${name}" data-game="${name}" aria-controls="board-panel" ` +
      `aria-selected="${on}" tabindex="${on ? 0 : -1}" data-testid="board-game-${name}">${esc(gameTitle(name))}</button>`
    );
  }).join("");
  el.panel.setAttribute("aria-labelledby", `tab-${B.game}`);
  for (const b of el.period.querySelectorAll("[data-period]")) b.setAttribute("aria-pressed", String(b.dataset.period === B.period));
  const week = B.period === "week";
  el.gainedHead.hidden = !week;
  el.caption.textContent = t("lbCaption", { game: gameTitle(B.game), period: t(week ? "thisWeek" : "allTime") });
  const board = B.board && B.board.game === B.game && B.board.period === B.period ? B.board : null;
  el.loading.hidden = Boolean(board || B.error);
  el.error.hidden = !B.error;
  el.error.textContent = B.error ? refused(B.error) : "";
  el.since.hidden = !(week && board && board.since);
  if (week && board && board.since) el.since.textContent = t("lbSince", { date: dateWords(board.since) });
  const rows = board ? board.rows : [];
  el.table.hidden = !rows.length;
  el.empty.hidden = !board || rows.length > 0;
  el.empty.textContent = t(week ? "lbEmptyWeek" : "lbEmpty");
  const me = identity.player();
  const lang = getLang();
  el.rows.innerHTML = rows
    .map((r) => {
      const mine = me && me.id === r.id;
      const provisional = r.provisional ? ` <span class="tag provisional">${esc(t("provisional"))}</span>` : "";
      const gained = week
        ? `<td class="num gained ${r.gained > 0 ? "up" : r.gained < 0 ? "down" : ""}">${esc(signed(r.gained ?? 0))}</td>`
        : "";
      const you = mine ? ` <span class="tag you">${esc(t("youMark"))}</span>` : "";
      return (
        `<tr class="${mine ? "mine" : ""}" data-testid="board-row" data-player="${esc(r.id)}">` +
        `<td class="rank">${esc(num(r.rank, lang))}</td>` +
        `<th scope="row" class="who"><a href="${esc(profileUrl(r.id))}">${handleHtml(r, esc)}</a>${you}</th>` +
        `<td class="num">${esc(num(r.rating, lang))}${provisional}</td>` +
        `<td class="num">${esc(num(r.matches, lang))}</td>${gained}</tr>`
      );
    })
    .join("");
}

async function load() {
  const asking = ++B.asking;
  B.error = null;
  draw();
  const { ok, data } = await identity.request("GET", `/api/leaderboard/${encodeURIComponent(B.game)}?period=${B.period}`, undefined, { auth: false });
  if (asking !== B.asking) return;
  if (ok) B.board = data;
  else B.error = data;
  draw();
}

/** Shows another game or period, kept in the address. */
function show(game, period) {
  B.game = game;
  B.period = period;
  const q = new URLSearchParams(location.search);
  q.set("game", game);
  q.set("period", period);
  history.replaceState(null, "", `${location.pathname}?${q}`);
  load();
}

el.games.addEventListener("click", (ev) => {
  const tab = ev.target.closest("[data-game]");
  if (tab) show(tab.dataset.game, B.period);
});
el.games.addEventListener("keydown", (ev) => {
  const names = GAMES.map((g) => g.name);
  const i = names.indexOf(B.game);
  const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: names.length - 1 }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  show(names[(to + names.length) % names.length], B.period);
  el.games.querySelector(`[data-game="${B.game}"]`).focus();
});
el.period.addEventListener("click", (ev) => {
  const b = ev.target.closest("[data-period]");
  if (b) show(B.game, b.dataset.period);
});

startPage({ draw, title });
load();
