// A player's profile (/players/{id}, docs/players.md): the name and handle, the rating of each game
// (provisional for its first rated matches), for the game chosen the rating over time (an SVG the
// page draws, chart.js) and the statistics (GET /api/players/{id}: `stats`, "—" where there is
// nothing to count yet), and the recent matches with their sides, score and rating change. Another
// player's profile offers Add friend and Block to a viewer with an identity.
//
// Each match opens in the review (/review?match=ID&seat=S, seen from this profile's player): the
// server keeps a finished match's deals with it. A match kept before it kept its deals opens only
// from a browser that sat at (or watched) its table, through the table's seat token or spectator code
// (mygames.js), and only while the table keeps its deals (its last match).
//
// Its Tournaments (GET /api/players/{id}/tournaments, issue 27): the average percentage of each game's
// complete daily tournaments, and the past daily tournaments with the percentage and rank of each.

import { ratingChartSvg } from "./chart.js";
import { $, esc } from "./dom.js";
import { GAMES, gameOf, isGame } from "./games.js";
import { gameTitle, getLang, t } from "./i18n.js";
import * as identity from "./identity.js";
import { secretOf } from "./mygames.js";
import { handleHtml, num, outcomeOf, percent, profileUrl, ratingChange, sideOf, signed } from "./people.js";
import { ask, dateWords, refused, startPage } from "./players-page.js";
import { pct, tournamentUrl } from "./tournament-core.js";
import { tw } from "./tournament-words.js";

const PROVISIONAL = 10; // rated matches before a rating is no longer provisional (server/ratings.py)

const el = {
  error: $('[data-testid="profile-error"]'),
  loading: $('[data-testid="profile-loading"]'),
  head: $('[data-testid="profile-head"]'),
  name: $('[data-testid="profile-name"]'),
  since: $('[data-testid="profile-since"]'),
  actions: $('[data-testid="profile-actions"]'),
  note: $('[data-testid="profile-note"]'),
  ratingsCard: $('[data-testid="profile-ratings"]'),
  ratings: $('[data-testid="ratings"]'),
  gamesCard: $('[data-testid="profile-games"]'),
  tabs: $('[data-testid="game-tabs"]'),
  panel: $('[data-testid="game-panel"]'),
  recentCard: $('[data-testid="profile-recent"]'),
  recent: $('[data-testid="recent"]'),
  reviewNote: $('[data-testid="review-note"]'),
  tournamentsCard: $('[data-testid="profile-tournaments"]'),
  averages: $('[data-testid="tournament-averages"]'),
  tournaments: $('[data-testid="tournament-history"]'),
};

/** What the page holds: the profile as the server sent it, the game shown, what was said last. */
const P = {
  id: decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || ""),
  profile: null,
  game: null,
  note: "",
  error: null,
  tournaments: null, // GET /api/players/{id}/tournaments
};

// What the tests read.
window.__profile = {
  get profile() { return P.profile; },
  get game() { return P.game; },
  get tournaments() { return P.tournaments; },
};

const gameName = (g) => gameTitle(g);

// ---------------------------------------------------------------------- drawing
function draw() {
  document.title = title();
  const error = !P.error ? "" : P.error.status === 404 ? t("profileMissing") : refused(P.error.data);
  el.error.hidden = !error;
  el.error.textContent = error;
  const p = P.profile;
  el.loading.hidden = Boolean(p || P.error);
  for (const card of [el.head, el.ratingsCard, el.gamesCard, el.recentCard]) card.hidden = !p;
  if (!p) return;
  el.name.innerHTML = handleHtml(p, esc);
  el.since.textContent = p.since ? t("profileSince", { date: dateWords(p.since) }) : "";
  drawActions();
  drawRatings();
  drawGames();
  drawRecent();
  drawTournaments();
}

function title() {
  return P.profile ? `${P.profile.handle} — ${t("title")}` : `${t("profileTitle")} — ${t("title")}`;
}

/** Add friend and Block on another's profile; on one's own, a way to one's identity. */
function drawActions() {
  const p = P.profile;
  const mine = identity.player();
  el.note.textContent = P.note;
  if (!mine) {
    el.actions.innerHTML = `<a class="btn ghost" href="/#identity" data-testid="need-name">${esc(t("needName"))}</a>`;
    return;
  }
  if (mine.id === p.id) {
    el.actions.innerHTML =
      `<span class="tag you">${esc(t("thisIsYou"))}</span>` +
      `<a class="btn ghost" href="/#identity" data-testid="my-identity">${esc(t("identityTitle"))}</a>` +
      `<a class="btn ghost" href="/#friends" data-testid="my-friends">${esc(t("friendsTitle"))}</a>`;
    return;
  }
  const me = identity.me();
  const has = (list) => Boolean(me && (me[list] || []).some((x) => x.id === p.id));
  const blocked = has("blocked");
  const parts = [];
  if (!blocked) {
    if (has("friends")) parts.push(`<span class="tag friend" data-testid="is-friend">${esc(t("friendAlready"))}</span>`);
    else if (has("asked")) parts.push(`<span class="tag" data-testid="request-sent">${esc(t("requestSent"))}</span>`);
    else {
      const words = has("asking") ? t("acceptFriend") : t("addFriend");
      parts.push(`<button type="button" class="btn primary" data-act="friend" data-testid="add-friend">${esc(words)}</button>`);
    }
  }
  parts.push(
    blocked
      ? `<button type="button" class="btn ghost" data-act="unblock" data-testid="unblock">${esc(t("unblock"))}</button>`
      : `<button type="button" class="btn ghost" data-act="block" data-testid="block">${esc(t("block"))}</button>`,
  );
  el.actions.innerHTML = parts.join("");
}

function ratingWords(r) {
  if (r.provisional) return t("provisionalOf", { n: r.matches, m: PROVISIONAL });
  return r.matches === 1 ? t("ratedMatchesOne") : t("ratedMatches", { n: num(r.matches, getLang()) });
}

function drawRatings() {
  const ratings = P.profile.ratings || {};
  const games = ordered(Object.keys(ratings));
  el.ratings.innerHTML = games.length
    ? games
        .map((g) => {
          const r = ratings[g];
          const mark = r.provisional ? `<span class="tag provisional">${esc(t("provisional"))}</span>` : "";
          return (
            `<li class="rating${r.provisional ? " is-provisional" : ""}" data-testid="rating-${esc(g)}">` +
            `<span class="rating-game">${esc(gameName(g))}</span>` +
            `<span class="rating-value">${esc(num(r.rating, getLang()))}${mark}</span>` +
            `<span class="rating-facts">${esc(ratingWords(r))}</span></li>`
          );
        })
        .join("")
    : `<li class="none">${esc(t("ratingsNone"))}</li>`;
}

/** The games in the server's order (unknown ones last). */
function ordered(names) {
  const known = GAMES.map((g) => g.name).filter((n) => names.includes(n));
  return [...known, ...names.filter((n) => !isGame(n)).sort()];
}

/** The games the profile has anything of. */
function profileGames() {
  const p = P.profile;
  return ordered([...new Set([...Object.keys(p.ratings || {}), ...Object.keys(p.stats || {})])]);
}

function drawGames() {
  const games = profileGames();
  el.gamesCard.hidden = games.length === 0;
  if (!games.length) return;
  if (!games.includes(P.game)) P.game = games[0];
  el.tabs.innerHTML = games
    .map((g) => {
      const on = g === P.game;
      return (
        `<button type="button" role="tab" class="tab" id="tab-${esc(g)}" data-game="${esc(g)}" aria-controls="game-panel" ` +
        `aria-selected="${on}" tabindex="${on ? 0 : -1}" data-testid="game-tab-${esc(g)}">${esc(gameName(g))}</button>`
      );
    })
    .join("");
  el.panel.setAttribute("aria-labelledby", `tab-${P.game}`);
  el.panel.innerHTML = chartHtml(P.game) + statsHtml(P.game);
}

function chartHtml(g) {
  const history = (P.profile.history || {})[g] || [];
  const head = `<h3>${esc(t("chartTitle"))}</h3>`;
  if (!history.length) return `${head}<p class="note" data-testid="chart-none">${esc(t("chartNone"))}</p>`;
  const values = history.map((h) => h.rating);
  const lang = getLang();
  const desc = t("chartDesc", {
    game: gameName(g),
    n: history.length,
    first: num(values[0], lang),
    last: num(values[values.length - 1], lang),
    min: num(Math.min(...values), lang),
    max: num(Math.max(...values), lang),
  });
  // As wide as the panel (at most 720), so that its words keep their size on a phone and a desktop.
  const width = Math.round(Math.min(720, Math.max(280, el.panel.clientWidth || 360)));
  const svg = ratingChartSvg(history, {
    width,
    height: width < 480 ? 180 : 220,
    title: `${t("chartTitle")}: ${gameName(g)}`,
    desc,
    label: (v) => num(v, lang),
    date: (at) => dateWords(at, { short: true }),
    esc,
    id: `chart-${g}`,
  });
  return `${head}<figure class="chart" data-testid="chart">${svg}</figure>`;
}

/** One statistic's row: its words and its value ("—" when there is nothing to count). */
function statRow(key, value, help = "") {
  const helpHtml = help ? `<span class="stat-help">${esc(help)}</span>` : "";
  return `<tr data-stat="${key}"><th scope="row">${esc(t(`stat_${key}`))}${helpHtml}</th><td>${esc(value)}</td></tr>`;
}

function statsHtml(g) {
  const s = (P.profile.stats || {})[g];
  const head = `<h3>${esc(t("statsTitle"))}</h3>`;
  if (!s || !s.matches) return `${head}<p class="note" data-testid="stats-none">${esc(t("statsNone"))}</p>`;
  const lang = getLang();
  const of = (rate, a, b) => (rate === null || rate === undefined ? percent(null) : t("statOf", { rate: percent(rate, lang), a: num(a, lang), b: num(b, lang) }));
  const rows = [
    statRow("matches", num(s.matches, lang)),
    statRow("win_rate", of(s.win_rate, s.won, s.matches)),
    statRow("deals", num(s.deals, lang)),
    statRow("take_rate", of(s.take_rate, s.taken, s.deals)),
    statRow("made", of(s.made_rate, s.made, s.taken)),
    statRow("points_taker", num(s.points_as_taker, lang, 1)),
    statRow("points_defender", num(s.points_as_defender, lang, 1)),
  ];
  if (gameOf(g).auction === "contracts" || s.coinches) rows.push(statRow("coinches", of(s.coinche_win_rate, s.coinches_won, s.coinches)));
  rows.push(statRow("capots", num(s.capots, lang)), statRow("dd", num(s.dd_cost_per_card, lang, 2), t("statDdHelp")));
  return (
    `${head}<table class="stats" data-testid="stats"><caption class="sr-only">${esc(`${t("statsTitle")}: ${gameName(g)}`)}</caption>` +
    `<tbody>${rows.join("")}</tbody></table>`
  );
}

/** A side of a match: its names (linked to their profiles where they have one), bots marked. */
function sideHtml(side) {
  return side
    .map((seat) => {
      const name = esc(seat.name);
      if (seat.player) return `<a href="${esc(profileUrl(seat.player))}">${name}</a>`;
      if (seat.bot) return `${name} <span class="bot">(${esc(t("botMark"))})</span>`;
      return name;
    })
    .join(" &amp; ");
}

/** The review of a match: its kept deals, seen from this profile's seat; for a match kept without
 * them, its table's, where this browser holds its secret and the table still has them. */
function reviewHref(match, latestAtTable) {
  if (match.deals) {
    const seat = (match.sides || []).flat().find((s) => s.player === P.profile.id);
    return `/review?${new URLSearchParams({ match: match.id, ...(seat ? { seat: seat.seat } : {}) })}`;
  }
  if (!match.table || !latestAtTable || !secretOf(match.table)) return null;
  return `/review?${new URLSearchParams({ table: match.table })}`;
}

function drawRecent() {
  const recent = P.profile.recent || [];
  const lang = getLang();
  const seenTables = new Set();
  let reviews = 0;
  el.recent.innerHTML = recent.length
    ? recent
        .map((m, i) => {
          const latest = !seenTables.has(m.table);
          seenTables.add(m.table);
          const mine = sideOf(m, P.profile.id);
          const outcome = outcomeOf(m, mine);
          const change = ratingChange(m, P.profile.id);
          const result = outcome
            ? `<span class="result ${outcome}">${esc(t(`recent${outcome[0].toUpperCase()}${outcome.slice(1)}`))}</span>`
            : "";
          const moved =
            change !== null
              ? `<span class="change ${change > 0 ? "up" : change < 0 ? "down" : ""}" aria-label="${esc(t("ratingMoved", { change: signed(change) }))}">${esc(signed(change))}</span>`
              : m.rated
                ? `<span class="tag">${esc(t("matchRated"))}</span>`
                : "";
          const sides = (m.sides || [])
            .map(
              (side, s) =>
                `<li class="side${s === mine ? " mine" : ""}${m.winner === s ? " winner" : ""}"><span class="names">${sideHtml(side)}</span>` +
                `<b class="score">${esc(num(m.score[s], lang))}</b></li>`,
            )
            .join("");
          const href = reviewHref(m, latest);
          if (href) reviews += 1;
          const review = href
            ? `<a class="review" href="${esc(href)}" data-testid="match-review" aria-label="${esc(t("reviewMatchLabel", { game: gameName(m.game) }))}">${esc(t("reviewMatch"))}</a>`
            : "";
          return (
            `<li class="match" data-testid="match" data-match="${esc(m.id)}">` +
            `<div class="match-head"><time datetime="${new Date(m.finished * 1000).toISOString()}">${esc(dateWords(m.finished, { time: true, short: true }))}</time>` +
            `<b class="match-game">${esc(gameName(m.game))}</b>${result}${moved}${review}</div>` +
            `<ul class="sides" aria-label="${esc(t("score"))}">${sides}</ul></li>`
          );
        })
        .join("")
    : `<li class="none">${esc(t("recentNone"))}</li>`;
  el.reviewNote.hidden = recent.length === 0 || reviews === recent.length;
}

/** The player's daily tournaments: the average of each game, and each past one with its percentage and rank. */
function drawTournaments() {
  const x = P.tournaments;
  const past = x ? x.tournaments || [] : [];
  const averages = x ? x.average || {} : {};
  el.tournamentsCard.hidden = !P.profile || !x;
  if (!x) return;
  const lang = getLang();
  const games = ordered(Object.keys(averages));
  el.averages.innerHTML = games.length
    ? games
        .map((g) => {
          const a = averages[g];
          const n = a.tournaments === 1 ? tw("profileAverageOne") : tw("profileAverageOf", { n: num(a.tournaments, lang) });
          return (
            `<li class="rating" data-testid="tournament-average-${esc(g)}"><span class="rating-game">${esc(gameName(g))}</span>` +
            `<span class="rating-value">${esc(pct(a.percent, lang, 1))}</span><span class="rating-facts">${esc(n)}</span></li>`
          );
        })
        .join("")
    : `<li class="none">${esc(tw("profileNone"))}</li>`;
  el.tournaments.innerHTML = past.length
    ? past
        .map((p) => {
          const rank = p.rank ? `<span class="tag">${esc(tw("profileRank", { rank: num(p.rank, lang) }))}</span>` : "";
          const played = tw("profilePlayed", { n: p.played, m: p.boards });
          const day = new Date(p.opens * 1000).toISOString().slice(0, 10);
          return (
            `<li class="match" data-testid="tournament-past" data-tournament="${esc(p.id)}"><div class="match-head">` +
            `<time datetime="${day}">${esc(dateWords(p.opens + 43200))}</time>` +
            `<b class="match-game">${esc(gameName(p.game))}</b>` +
            `<span class="result ${p.percent >= 50 ? "won" : "tied"}">${esc(pct(p.percent, lang, 1))}</span>${rank}` +
            `<span class="rating-facts">${esc(played)}</span>` +
            `<a class="review" href="${esc(tournamentUrl(p.id))}" aria-label="${esc(tw("profileOpen", { name: `${gameName(p.game)}, ${dateWords(p.opens + 43200)}` }))}">${esc(tw("open"))}</a>` +
            `</div></li>`
          );
        })
        .join("")
    : `<li class="none">${esc(tw("profileNone"))}</li>`;
}

// ---------------------------------------------------------------------- what one does here
el.tabs.addEventListener("click", (ev) => {
  const tab = ev.target.closest("[data-game]");
  if (!tab) return;
  P.game = tab.dataset.game;
  drawGames();
  el.tabs.querySelector(`[data-game="${CSS.escape(P.game)}"]`).focus();
});

el.tabs.addEventListener("keydown", (ev) => {
  const games = profileGames();
  const i = games.indexOf(P.game);
  const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: games.length - 1 }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  P.game = games[(to + games.length) % games.length];
  drawGames();
  el.tabs.querySelector(`[data-game="${CSS.escape(P.game)}"]`).focus();
});

el.actions.addEventListener("click", async (ev) => {
  const b = ev.target.closest("[data-act]");
  if (!b) return;
  const p = P.profile;
  b.disabled = true;
  let answer;
  if (b.dataset.act === "friend") {
    answer = await identity.change("POST", "/api/me/friends", { player: p.id });
    if (answer.ok) P.note = identity.friendAddedWords(p.handle, p.id);
  } else if (b.dataset.act === "block") {
    if (!(await ask(t("blockAsk", { handle: p.handle }), t("block")))) {
      b.disabled = false;
      return;
    }
    answer = await identity.change("POST", "/api/me/blocks", { player: p.id });
    if (answer.ok) P.note = t("blockedDone", { handle: p.handle });
  } else if (b.dataset.act === "unblock") {
    answer = await identity.change("DELETE", `/api/me/blocks/${encodeURIComponent(p.id)}`);
    if (answer.ok) P.note = t("unblockedDone", { handle: p.handle });
  }
  if (answer && !answer.ok) P.note = refused(answer.data);
  b.disabled = false;
  drawActions();
});

// The chart is drawn for the panel's width: again when the width changes.
let drawnWidth = 0;
window.addEventListener("resize", () => {
  const width = el.panel.clientWidth;
  if (!P.profile || Math.abs(width - drawnWidth) < 24) return;
  drawnWidth = width;
  drawGames();
});

// ---------------------------------------------------------------------- start
async function load() {
  const answer = await identity.request("GET", `/api/players/${encodeURIComponent(P.id)}`, undefined, { auth: false });
  if (answer.ok) {
    P.profile = answer.data;
    P.error = null;
  } else {
    P.error = answer;
  }
  draw();
  const history = await identity.request("GET", `/api/players/${encodeURIComponent(P.id)}/tournaments`, undefined, { auth: false });
  if (history.ok) {
    P.tournaments = history.data;
    drawTournaments();
  }
}

startPage({ draw, title });
load();
