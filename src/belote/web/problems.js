// The training problems page (/problems, docs/analysis.md): one position at a time, drawn from the
// player's view alone (GET /api/problems/{id}: the hand, the trick on the table, the contract, the
// score), a card tapped and sent (POST), then the server's verdict and the whole analysis: each
// legal card's result with all hands known, its cost against the best, the search bot's view from
// the player's seat, and the other hands. The page never holds the answer before it is given.

import { cardFace, cardName, cardText, sortHand } from "./cards.js";
import { contractHtml, modeHtml, modeWord } from "./coinche.js";
import { $, esc } from "./dom.js";
import { gameOf, GAMES } from "./games.js";
import { colon, getLang, keepPageLang, pageLang, setLang, t, translatePage, ts } from "./i18n.js";
import { refusalText } from "./refusals.js";
import { screenPos } from "./seats.js";

const el = {
  page: $('[data-testid="problems"]'),
  game: $('[data-testid="problems-game"]'),
  progress: $('[data-testid="problems-progress"]'),
  score: $('[data-testid="problems-score"]'),
  error: $('[data-testid="problems-error"]'),
  facts: $('[data-testid="problem-facts"]'),
  board: $('[data-testid="problem-board"]'),
  trick: $('[data-testid="problem-trick"]'),
  prompt: $('[data-testid="problem-prompt"]'),
  hand: $('[data-testid="problem-hand"]'),
  verdict: $('[data-testid="problem-verdict"]'),
  result: $('[data-testid="problem-result"]'),
  note: $('[data-testid="problem-analysis-note"]'),
  analysis: $('[data-testid="problem-analysis"]'),
  hands: $('[data-testid="problem-hands"]'),
  played: $('[data-testid="problem-played-tricks"]'),
  next: $('[data-testid="problem-next"]'),
  lang: $('[data-testid="problems-lang"]'),
};

/** The page's state: the set, the game chosen, the problem shown and its answer, the tally. */
const P = { list: [], game: "all", id: null, problem: null, answer: null, sending: false, right: 0, done: 0 };

function applyLang(lang) {
  setLang(lang);
  document.documentElement.lang = lang;
  document.title = t("problemsTitle");
  translatePage();
  const other = lang === "fr" ? "en" : "fr";
  el.lang.textContent = other === "fr" ? "Français" : "English";
  el.lang.lang = other;
}

function showError(text) {
  el.error.textContent = text || "";
  el.error.hidden = !text;
}

/** The server's JSON answer; a failed request (no network, a server away) answers as a refusal would. */
async function getJson(url, body) {
  const options = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  try {
    const res = await fetch(url, options);
    return { ok: res.ok, data: await res.json() };
  } catch {
    return { ok: false, data: { code: "server_error", args: {}, error: "the server could not be reached: try again" } };
  }
}

function refused(data) {
  return refusalText({ code: data.code, args: data.args || {}, message: data.error || "" }, getLang());
}

// ---------------------------------------------------------------------- the set
function shown() {
  return P.game === "all" ? P.list : P.list.filter((p) => p.game === P.game);
}

function drawGamePick() {
  const games = GAMES.map((g) => g.name).filter((name) => P.list.some((p) => p.game === name));
  el.game.innerHTML = [["all", t("problemsAll")], ...games.map((g) => [g, t(`variant_${g}`)])]
    .map(([v, words]) => `<option value="${v}"${v === P.game ? " selected" : ""}>${esc(words)}</option>`)
    .join("");
}

async function open(id) {
  showError("");
  const { ok, data } = await getJson(`/api/problems/${encodeURIComponent(id)}`);
  if (!ok) {
    showError(refused(data));
    return;
  }
  P.id = id;
  P.problem = data;
  P.answer = null;
  const url = new URL(location.href);
  url.searchParams.set("id", id);
  history.replaceState(null, "", url);
  draw();
}

function next() {
  const list = shown();
  if (!list.length) return;
  const at = list.findIndex((p) => p.id === P.id);
  open(list[(at + 1) % list.length].id);
}

async function answer(card) {
  if (P.answer || P.sending || !P.problem) return;
  P.sending = true;
  showError("");
  try {
    const { ok, data } = await getJson(`/api/problems/${encodeURIComponent(P.id)}`, { card });
    if (!ok) {
      showError(refused(data));
      return;
    }
    P.answer = data;
    P.done += 1;
    if (data.right) P.right += 1;
  } finally {
    P.sending = false;
  }
  draw();
  el.next.focus({ preventScroll: true });
  el.verdict.scrollIntoView({ block: "nearest", behavior: "smooth" });
}

// ---------------------------------------------------------------------- drawing
function seatWords(seat, me) {
  return seat === me ? t("you") : t(`seat${seat}`);
}

function signed(x) {
  const n = Math.round(x * 10) / 10;
  return `${n > 0 ? "+" : n < 0 ? "−" : ""}${Math.abs(n)}`;
}

function sideWords(game, team, me) {
  if (!game.partners) return seatWords(team, me);
  return game.team(me) === team ? t("problemsUs") : t("problemsThem");
}

function factsHtml(game, v) {
  const me = v.seat;
  const chips = [`<span class="chip game-chip">${esc(t(`variant_${game.name}`))}</span>`];
  const taker = seatWords(v.taker, me);
  const contract = v.contract ? contractHtml(v.contract, t) : `${modeHtml(v.trump, t)} ${esc(modeWord(v.trump, t))}`;
  chips.push(`<span class="chip contract-chip" data-testid="problem-contract">${esc(t("problemsContract"))} ${contract} · ${esc(t("problemsTaker"))} ${esc(taker)}</span>`);
  chips.push(`<span class="chip">${esc(t("problemsTrickN", { n: v.tricks.length + 1, m: game.tricks }))}</span>`);
  const sides = game.teams;
  const won = sides.map((x) => `${esc(sideWords(game, x, me))} ${v.won[x] ?? 0}`).join(" · ");
  const score = sides.map((x) => `${esc(sideWords(game, x, me))} ${v.score[x] ?? 0}`).join(" · ");
  chips.push(`<span class="chip" data-testid="problem-points">${esc(t("problemsPoints"))} ${won}</span>`);
  chips.push(`<span class="chip">${esc(t("problemsMatch"))} ${score}</span>`);
  return chips.join("");
}

function drawBoard(game, v) {
  const me = v.seat;
  const n = game.players;
  for (const node of el.board.querySelectorAll(".place")) node.innerHTML = "";
  el.board.dataset.players = String(n);
  for (const seat of game.seats) {
    const pos = screenPos(seat, me, n);
    const place = el.board.querySelector(`.place.pos-${pos}`);
    const marks = [
      seat === v.dealer ? `<span class="mark">${esc(t("problemsDealer"))}</span>` : "",
      seat === v.taker ? `<span class="mark taker">${esc(t("problemsTaker"))}</span>` : "",
    ].join("");
    const held = v.hand_sizes && seat !== me ? t("cardsHeld", { n: v.hand_sizes[seat] }) : "";
    const count = held
      ? `<span class="count" title="${esc(held)}"><span aria-hidden="true">${v.hand_sizes[seat]}</span><span class="sr-only">${esc(held)}</span></span>`
      : "";
    place.innerHTML = `<span class="who${seat === me ? " me" : ""}">${esc(seatWords(seat, me))}</span>${count}${marks}`;
  }
  const lang = getLang();
  el.trick.innerHTML = v.trick.length
    ? v.trick
        .map(
          ([seat, card]) =>
            `<div class="trick-card pos-${screenPos(seat, me, n)}" data-testid="problem-trick-card" data-card="${card}" role="img" ` +
            `aria-label="${esc(`${seatWords(seat, me)}: ${cardText(card, lang)}`)}">${cardFace(card, lang)}</div>`,
        )
        .join("")
    : `<p class="lead">${esc(t("problemsLead"))}</p>`;
}

/** The tricks played so far, each from its leader: who played each card, the winner's marked, its points. */
function drawPlayed(v) {
  const me = v.seat;
  const lang = getLang();
  const rows = v.tricks.map((trick, i) => {
    const first = v.order.indexOf(trick.leader);
    const cards = trick.cards
      .map((card, k) => {
        const seat = v.order[(first + k) % v.order.length];
        return (
          `<span class="played-card${seat === trick.winner ? " won" : ""}" data-card="${card}" data-seat="${seat}">` +
          `<span class="mini-card" role="img" aria-label="${esc(`${seatWords(seat, me)}${colon()}${cardText(card, lang)}`)}">` +
          `${cardFace(card, lang)}</span><span class="by" aria-hidden="true">${esc(seatWords(seat, me))}</span></span>`
        );
      })
      .join("");
    const won = ts("problemsWonBy", trick.winner === me, { seat: seatWords(trick.winner, me), n: trick.points });
    return (
      `<li class="played-trick" data-testid="problem-played-trick"><span class="n" aria-hidden="true">${i + 1}</span>` +
      `<span class="cards">${cards}</span><span class="points" title="${esc(won)}"><span aria-hidden="true">${trick.points}</span>` +
      `<span class="sr-only">${esc(won)}</span></span></li>`
    );
  });
  el.played.innerHTML = rows.join("") || `<li class="none">${esc(t("problemsNoTrick"))}</li>`;
}

function drawHand(v) {
  const lang = getLang();
  const legal = new Set(v.legal);
  const done = Boolean(P.answer);
  // At two hands the cards face up on the table are played too: they join the hand here.
  const cards = sortHand([...new Set([...v.hand, ...v.legal])], v.trump);
  el.hand.style.setProperty("--n", String(Math.max(cards.length, 2)));
  el.hand.classList.toggle("answered", done);
  el.hand.innerHTML = cards
    .map((c, i) => {
      const ok = legal.has(c);
      const cls = ["card", ok ? "legal" : "illegal"];
      if (done && c === P.answer.answer) cls.push("best");
      if (done && c === P.answer.card) cls.push("chosen");
      return (
        `<button type="button" class="${cls.join(" ")}" data-testid="problem-card" data-card="${c}" data-legal="${ok}" ` +
        `aria-label="${esc(cardName(c, lang))}" title="${i + 1}"${done || !ok ? " aria-disabled=\"true\"" : ""}>${cardFace(c, lang)}</button>`
      );
    })
    .join("");
}

function drawVerdict(game, v) {
  const a = P.answer;
  el.verdict.hidden = !a;
  el.prompt.hidden = Boolean(a);
  if (!a) return;
  const lang = getLang();
  el.verdict.classList.toggle("right", a.right);
  el.verdict.classList.toggle("wrong", !a.right);
  el.result.dataset.right = String(a.right);
  el.result.textContent = a.right
    ? t("problemsRight", { card: cardText(a.card, lang) })
    : t("problemsWrong", { card: cardText(a.card, lang), answer: cardText(a.answer, lang) });
  el.note.textContent = t("problemsAnalysis");
  const rows = Object.entries(a.cards).sort(([x, p], [y, q]) => q.value - p.value || (x < y ? -1 : 1));
  const head =
    `<thead><tr><th scope="col">${esc(t("problemsCard"))}</th><th scope="col">${esc(t("problemsDD"))}</th>` +
    `<th scope="col">${esc(t("problemsCost"))}</th><th scope="col">${esc(t("problemsBotMean"))}</th></tr></thead>`;
  const body = rows
    .map(([card, c]) => {
      const cls = [card === a.answer ? "best" : "", card === a.card ? "chosen" : ""].filter(Boolean).join(" ");
      const mean = a.bot.cards[card];
      const badge = card === a.bot.choice ? ` <span class="badge">${esc(t("problemsBot"))}</span>` : "";
      return (
        `<tr class="${cls}" data-testid="problem-row" data-card="${card}" data-cost="${c.cost}">` +
        `<th scope="row">${esc(cardText(card, lang))}${card === a.answer ? ` <span class="badge best">${esc(t("problemsBest"))}</span>` : ""}</th>` +
        `<td>${signed(c.value)} <span class="outcome ${c.outcome}">${esc(t(c.outcome))}</span></td>` +
        `<td class="cost">${c.cost ? `−${c.cost}` : "0"}</td>` +
        `<td>${mean === undefined ? "" : signed(mean)}${badge}</td></tr>`
      );
    })
    .join("");
  el.analysis.innerHTML = head + `<tbody>${body}</tbody>`;
  const me = v.seat;
  const others = game.seats
    .filter((s) => s !== me)
    .map(
      (s) =>
        `<div class="other" data-testid="problem-other" data-seat="${s}"><span class="who">${esc(seatWords(s, me))}</span>` +
        `<span class="minis">${sortHand(a.hands[s] || [], v.trump)
          .map((c) => `<span class="mini-card" role="img" aria-label="${esc(cardText(c, lang))}">${cardFace(c, lang)}</span>`)
          .join("")}</span></div>`,
    )
    .join("");
  el.hands.innerHTML = `<h2>${esc(t("problemsHands"))}</h2>${others}`;
}

function draw() {
  const list = shown();
  const at = list.findIndex((p) => p.id === P.id);
  el.progress.textContent = at >= 0 ? t("problemsOf", { n: at + 1, m: list.length }) : "";
  el.score.textContent = P.done ? t("problemsScore", { right: P.right, done: P.done }) : "";
  if (!P.problem) return;
  const v = P.problem.view;
  const game = gameOf(P.problem.game);
  el.facts.innerHTML = factsHtml(game, v);
  drawBoard(game, v);
  el.prompt.textContent = `${t("problemsIntro")} ${t("problemsHand")}`;
  drawHand(v);
  drawVerdict(game, v);
  drawPlayed(v);
  el.page.classList.toggle("answered", Boolean(P.answer));
}

// ---------------------------------------------------------------------- events
el.hand.addEventListener("click", (ev) => {
  const card = ev.target.closest(".card");
  if (card && card.dataset.legal === "true") answer(card.dataset.card);
});
el.next.addEventListener("click", next);
el.game.addEventListener("change", () => {
  P.game = el.game.value;
  const list = shown();
  if (list.length && !list.some((p) => p.id === P.id)) open(list[0].id);
  else draw();
});
el.lang.addEventListener("click", () => {
  const lang = getLang() === "fr" ? "en" : "fr";
  keepPageLang(lang);
  applyLang(lang);
  drawGamePick();
  draw();
});
document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.target.tagName === "SELECT") return;
  if (ev.key >= "1" && ev.key <= "9" && !P.answer) {
    const card = el.hand.querySelectorAll(".card")[Number(ev.key) - 1];
    if (card && card.dataset.legal === "true") answer(card.dataset.card);
  } else if ((ev.key === "n" || ev.key === "N") && P.answer) {
    next();
  }
});

// What the tests read.
window.__problems = {
  get id() { return P.id; },
  get problem() { return P.problem; },
  get answer() { return P.answer; },
};

async function boot() {
  applyLang(pageLang());
  const { ok, data } = await getJson("/api/problems");
  if (!ok) {
    showError(refused(data));
    return;
  }
  P.list = data.problems;
  const asked = new URLSearchParams(location.search).get("id");
  const first = P.list.find((p) => p.id === asked) || P.list[0];
  drawGamePick();
  if (first) await open(first.id);
}

boot();
