// The tournaments' page (/tournaments, issue 27, docs/tournaments.md): today's daily tournament of
// each game (GET /api/tournaments: its state, when it closes, and for this browser's player the
// boards played and the percentage so far), each a link to its page where its boards are played;
// the month's ranking of the daily tournaments by game (GET /api/tournaments/monthly/{game}?month=);
// a form that creates a private tournament (an identity's: POST /api/tournaments), and the private
// tournaments this browser created or opened from a link (kept in localStorage with their invitation).

import { $, esc } from "./dom.js";
import { GAMES, isGame } from "./games.js";
import { gameTitle, getLang, t } from "./i18n.js";
import * as identity from "./identity.js";
import { copyText } from "./lobby.js";
import { num, profileUrl } from "./people.js";
import { dateWords, startPage } from "./players-page.js";
import { ask, refusalWords } from "./tournament-ask.js";
import {
  apiPath, checkName, forgetTournament, keepTournament, keptTournaments, localInput, monthOf, pct, progress,
  shiftMonth, tournamentUrl, whenWords,
} from "./tournament-core.js";
import { translateTw, tw } from "./tournament-words.js";

const REFRESH_MS = 60_000; // the dailies' state and time left, again

const el = {
  lead: $('[data-testid="daily-lead"]'),
  dailies: $('[data-testid="dailies"]'),
  dailyError: $('[data-testid="daily-error"]'),
  dailyLoading: $('[data-testid="daily-loading"]'),
  games: $('[data-testid="monthly-games"]'),
  panel: $('[data-testid="monthly-panel"]'),
  month: $('[data-testid="month"]'),
  monthNext: $('[data-testid="month-next"]'),
  monthlyError: $('[data-testid="monthly-error"]'),
  monthlyTable: $('[data-testid="monthly-table"]'),
  monthlyCaption: $('[data-testid="monthly-caption"]'),
  monthlyRows: $('[data-testid="monthly-rows"]'),
  monthlyEmpty: $('[data-testid="monthly-empty"]'),
  monthlyHelp: $('[data-testid="monthly-help"]'),
  needName: $('[data-testid="create-need-name"]'),
  form: $('[data-testid="create-form"]'),
  createError: $('[data-testid="create-error"]'),
  created: $('[data-testid="created"]'),
  createdLink: $('[data-testid="created-link"]'),
  createdOpen: $('[data-testid="created-open"]'),
  kept: $('[data-testid="kept"]'),
};

const asked = new URLSearchParams(location.search);
const nowSeconds = () => Date.now() / 1000;

/** What the page holds. */
const S = {
  daily: null, // GET /api/tournaments's list, or null before it answers
  dailyError: null,
  game: isGame(asked.get("game")) ? asked.get("game") : GAMES[0].name,
  month: /^\d{4}-\d{2}$/.test(asked.get("month") || "") ? asked.get("month") : monthOf(nowSeconds()),
  monthly: null,
  monthlyError: null,
  asking: 0,
  kept: new Map(), // id -> the tournament as the server answers it for this browser, or {gone: true}
};

// What the tests read.
window.__tournaments = {
  get daily() { return S.daily; },
  get monthly() { return S.monthly; },
  get month() { return S.month; },
};

const title = () => `${tw("pageTitle")} — ${t("title")}`;
const gameName = (g) => gameTitle(g);

// ---------------------------------------------------------------------- drawing
function draw() {
  translateTw();
  document.title = title();
  const boards = S.daily && S.daily.length ? S.daily[0].boards : 8;
  el.lead.textContent = tw("dailyLead", { n: boards });
  drawDaily();
  drawMonthly();
  drawCreate();
  drawKept();
}

/** The little row of a tournament's boards: played (its percentage as its shade), under way, to play. */
function dotsHtml(mine) {
  return (
    `<ol class="dots" aria-hidden="true">` +
    mine
      .map((b) => {
        const shade = b.state === "played" && typeof b.percent === "number" ? ` style="--p:${Math.round(b.percent)}"` : "";
        return `<li class="dot-${b.state}"${shade}></li>`;
      })
      .join("") +
    `</ol>`
  );
}

/** What the player did in a tournament, in words: "3 of 8 boards played · your score so far: 54.2%". */
function mineWords(mine) {
  const p = progress(mine);
  if (!p.played) return tw("notStarted");
  const parts = [tw(p.played === 1 ? "playedOne" : "playedOf", { n: p.played, m: p.boards })];
  if (p.percent !== null) parts.push(tw("soFar", { percent: pct(p.percent, getLang()) }));
  return parts.join(" · ");
}

/** The button of a tournament: Play, Continue or See the results. */
function goWords(x) {
  const p = progress(x.mine || []);
  if (x.state !== "open" || p.played === p.boards) return tw("results");
  return p.played || (x.mine || []).some((b) => b.state === "playing") ? tw("continue") : tw("play");
}

function stateHtml(x) {
  return `<span class="state state-${esc(x.state)}" data-testid="state">${esc(tw(`state_${x.state}`))}</span>`;
}

function drawDaily() {
  el.dailyLoading.hidden = Boolean(S.daily || S.dailyError);
  el.dailyError.hidden = !S.dailyError;
  el.dailyError.textContent = S.dailyError ? refusalWords(S.dailyError) : "";
  const now = nowSeconds();
  el.dailies.innerHTML = (S.daily || [])
    .map((x) => {
      const mine = x.mine || [];
      const go = goWords(x);
      const label = `${go}: ${gameName(x.game)}`;
      return (
        `<li class="daily" data-testid="daily" data-game="${esc(x.game)}" data-tournament="${esc(x.id)}">` +
        `<div class="daily-head"><h2 class="daily-game">${esc(gameName(x.game))}</h2>${stateHtml(x)}</div>` +
        `<p class="daily-when" data-testid="when">${esc(whenWords(x, now, (s) => dateWords(s, { time: true })))} · ${esc(
          x.boards === 1 ? tw("boardsOne") : tw("boardsN", { n: x.boards }),
        )}</p>` +
        `${dotsHtml(mine)}<p class="daily-mine" data-testid="daily-mine">${esc(mineWords(mine))}</p>` +
        `<a class="btn${x.state === "open" && progress(mine).played < x.boards ? "" : " ghost"}" href="${esc(tournamentUrl(x.id))}" ` +
        `data-testid="daily-play" aria-label="${esc(label)}">${esc(go)}</a></li>`
      );
    })
    .join("");
}

function drawMonthly() {
  el.games.innerHTML = GAMES.map(({ name }) => {
    const on = name === S.game;
    return (
      `<button type="button" role="tab" class="tab" id="month-tab-${name}" data-game="${name}" aria-controls="monthly-panel" ` +
      `aria-selected="${on}" tabindex="${on ? 0 : -1}" data-testid="monthly-game-${name}">${esc(gameName(name))}</button>`
    );
  }).join("");
  el.panel.setAttribute("aria-labelledby", `month-tab-${S.game}`);
  const [y, m] = S.month.split("-").map(Number);
  const monthName = new Date(Date.UTC(y, m - 1, 15)).toLocaleString(getLang() === "fr" ? "fr-FR" : "en-GB", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  el.month.textContent = monthName;
  el.month.dataset.month = S.month;
  el.monthNext.disabled = S.month >= monthOf(nowSeconds());
  el.monthlyCaption.textContent = `${tw("monthlyTitle")}: ${gameName(S.game)}, ${monthName}`;
  const board = S.monthly && S.monthly.game === S.game && S.monthly.month === S.month ? S.monthly : null;
  el.monthlyError.hidden = !S.monthlyError;
  el.monthlyError.textContent = S.monthlyError ? refusalWords(S.monthlyError) : "";
  const rows = board ? board.rows : [];
  const min = board ? board.min : 3;
  el.monthlyHelp.textContent = tw("monthlyHelp", { min });
  el.monthlyTable.hidden = !rows.length;
  el.monthlyEmpty.hidden = !board || rows.length > 0;
  el.monthlyEmpty.textContent = tw("monthlyEmpty");
  const me = identity.player();
  const lang = getLang();
  let rank = 0;
  el.monthlyRows.innerHTML = rows
    .map((r) => {
      const ranked = r.n >= min;
      if (ranked) rank += 1;
      const mine = Boolean(me && r.player === me.id);
      const who = r.player ? `<a href="${esc(profileUrl(r.player))}">${esc(r.name)}</a>` : esc(r.name);
      const you = mine ? ` <span class="tag you">${esc(t("youMark"))}</span>` : "";
      return (
        `<tr class="${mine ? "mine" : ""}${ranked ? "" : " unranked"}" data-testid="monthly-row">` +
        `<td class="rank">${ranked ? esc(num(rank, lang)) : `<span class="sr-only">${esc(tw("unranked", { min }))}</span>`}</td>` +
        `<th scope="row" class="who">${who}${you}</th>` +
        `<td class="num">${esc(num(r.n, lang))}</td>` +
        `<td class="num strong">${esc(pct(r.percent, lang, 2, true))}</td></tr>`
      );
    })
    .join("");
}

function drawCreate() {
  const p = identity.player();
  el.needName.hidden = Boolean(p);
  el.form.hidden = !p;
  const select = el.form.elements.variant;
  if (select.options.length !== GAMES.length) {
    select.innerHTML = GAMES.map(({ name }) => `<option value="${name}">${esc(gameName(name))}</option>`).join("");
  } else {
    for (const option of select.options) option.textContent = gameName(option.value);
  }
  if (!el.form.elements.opens.value) {
    const now = Math.floor(nowSeconds() / 60) * 60;
    el.form.elements.opens.value = localInput(now);
    el.form.elements.closes.value = localInput(now + 7 * 86400);
  }
}

function drawKept() {
  const list = keptTournaments();
  if (!list.length) {
    el.kept.innerHTML = `<li class="none" data-testid="kept-none">${esc(tw("mineEmpty"))}</li>`;
    return;
  }
  const now = nowSeconds();
  el.kept.innerHTML = list
    .map((k) => {
      const x = S.kept.get(k.id);
      const gone = Boolean(x && x.gone);
      const facts = x && !gone ? `${stateHtml(x)} <span>${esc(whenWords(x, now, (s) => dateWords(s, { time: true })))}</span>` : "";
      const mine = x && !gone ? `<p class="daily-mine">${esc(mineWords(x.mine || []))}</p>` : "";
      const note = gone ? `<p class="note">${esc(tw("mineGone"))}</p>` : "";
      const open = gone
        ? ""
        : `<a class="btn small" href="${esc(tournamentUrl(k.id, { invite: k.invite }))}" data-testid="kept-open">${esc(tw("open"))}</a>`;
      return (
        `<li class="kept-item${gone ? " gone" : ""}" data-testid="kept-item" data-tournament="${esc(k.id)}">` +
        `<div class="kept-what"><h3>${esc(k.name || tw("privateTitle"))}</h3>` +
        `<p class="kept-facts">${esc(gameName(k.game))}${facts ? " · " : ""}${facts}</p>${mine}${note}</div>` +
        `<div class="kept-buttons">${open}<button type="button" class="btn ghost small" data-forget="${esc(k.id)}" data-testid="kept-forget">${esc(tw("forget"))}</button></div></li>`
      );
    })
    .join("");
}

// ---------------------------------------------------------------------- asking the server
async function loadDaily() {
  const { ok, data } = await ask("GET", "/api/tournaments");
  if (ok) {
    S.daily = data.daily;
    S.dailyError = null;
  } else if (!S.daily) {
    S.dailyError = data;
  }
  drawDaily();
}

async function loadMonthly() {
  const asking = ++S.asking;
  S.monthlyError = null;
  drawMonthly();
  const path = `/api/tournaments/monthly/${encodeURIComponent(S.game)}?month=${encodeURIComponent(S.month)}`;
  const { ok, data } = await ask("GET", path);
  if (asking !== S.asking) return;
  if (ok) S.monthly = data;
  else S.monthlyError = data;
  drawMonthly();
}

async function loadKept() {
  await Promise.all(
    keptTournaments().map(async (k) => {
      const { ok, status, data } = await ask("GET", apiPath(k.id, "", k.invite));
      if (ok) S.kept.set(k.id, data);
      else if (status === 404) S.kept.set(k.id, { gone: true });
    }),
  );
  drawKept();
}

/** Shows another game or month of the monthly ranking, kept in the address. */
function showMonthly(game, month) {
  S.game = game;
  S.month = month;
  const q = new URLSearchParams(location.search);
  q.set("game", game);
  q.set("month", month);
  history.replaceState(null, "", `${location.pathname}?${q}`);
  loadMonthly();
}

// ---------------------------------------------------------------------- what one does here
el.games.addEventListener("click", (ev) => {
  const tab = ev.target.closest("[data-game]");
  if (tab) showMonthly(tab.dataset.game, S.month);
});
el.games.addEventListener("keydown", (ev) => {
  const names = GAMES.map((g) => g.name);
  const i = names.indexOf(S.game);
  const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: names.length - 1 }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  showMonthly(names[(to + names.length) % names.length], S.month);
  el.games.querySelector(`[data-game="${S.game}"]`).focus();
});
el.panel.addEventListener("click", (ev) => {
  const b = ev.target.closest("[data-step]");
  if (b && !b.disabled) showMonthly(S.game, shiftMonth(S.month, Number(b.dataset.step)));
});

el.form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const f = el.form.elements;
  const say = (words) => {
    el.createError.textContent = words;
    el.createError.hidden = !words;
  };
  const name = checkName(f.name.value);
  if (!name) {
    say(tw("badName"));
    f.name.focus();
    return;
  }
  const opens = new Date(f.opens.value).getTime() / 1000;
  const closes = new Date(f.closes.value).getTime() / 1000;
  const boards = Number(f.boards.value);
  say("");
  const button = el.form.querySelector('[type="submit"]');
  button.disabled = true;
  const body = {
    name,
    settings: { variant: f.variant.value, strength: f.strength.value },
    boards: Number.isInteger(boards) ? boards : f.boards.value,
    opens: Number.isFinite(opens) ? Math.floor(opens) : null,
    closes: Number.isFinite(closes) ? Math.floor(closes) : null,
  };
  const { ok, data } = await ask("POST", "/api/tournaments", body);
  button.disabled = false;
  if (!ok) {
    say(refusalWords(data));
    return;
  }
  const link = new URL(data.link, location.origin);
  keepTournament(data, data.invite || link.searchParams.get("invite"));
  S.kept.set(data.id, { ...data, mine: [] });
  el.createdLink.value = link.href;
  el.createdOpen.href = link.pathname + link.search;
  el.created.hidden = false;
  drawKept();
  el.createdLink.focus();
  el.createdLink.select();
});

el.created.addEventListener("click", async (ev) => {
  const b = ev.target.closest('[data-testid="created-copy"]');
  if (!b) return;
  const copied = await copyText(el.createdLink);
  b.textContent = copied ? tw("copied") : tw("copy");
  setTimeout(() => (b.textContent = tw("copy")), 1600);
});

el.kept.addEventListener("click", (ev) => {
  const b = ev.target.closest("[data-forget]");
  if (!b) return;
  forgetTournament(b.dataset.forget);
  S.kept.delete(b.dataset.forget);
  drawKept();
});

startPage({ draw, title });
identity.onIdentity(draw); // a name picked or forgotten on another page: the form follows
draw();
loadDaily();
loadMonthly();
loadKept();
setInterval(() => {
  if (!document.hidden) loadDaily();
}, REFRESH_MS);
