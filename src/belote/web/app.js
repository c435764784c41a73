// The solo table: you sit South with a bot partner North against two bots (docs/protocol.md).
// The server owns the game: this page shows what it is sent (a PlayerView and numbered public
// events) and sends your bids and cards. Nothing here decides what is legal.

import { cardBack, cardFace, cardText, sortHand, suitIcon } from "./cards.js";
import { getLang, setLang, t, translatePage, ts } from "./i18n.js";

const SEATS = ["N", "E", "S", "W"];
const SIDE_OF = { N: "NS", S: "NS", E: "EW", W: "EW" };
const STORE_KEY = "belote.table";
const SETTINGS_KEY = "belote.settings";
const DEFAULT_SETTINGS = {
  target: 501,
  deals: null,
  direction: "clockwise",
  declarations: true,
  rounding: false,
  undertrump: true,
  strength: "normal",
  speed: "normal",
  lang: "en",
};
const BUBBLE_MS = 2600;
const BANNER_MS = 2400;

const $ = (sel, root = document) => root.querySelector(sel);
const el = {
  scoreNS: $('[data-testid="score-NS"]'),
  scoreEW: $('[data-testid="score-EW"]'),
  target: $('[data-testid="target"]'),
  contract: $('[data-testid="contract"]'),
  declarations: $('[data-testid="declarations"]'),
  seats: Object.fromEntries(SEATS.map((s) => [s, $(`[data-testid="seat-${s}"]`)])),
  trick: $('[data-testid="trick"]'),
  turned: $('[data-testid="turned"]'),
  banner: $('[data-testid="announce"]'),
  turn: $('[data-testid="turn"]'),
  error: $('[data-testid="error"]'),
  bids: $('[data-testid="bid-bar"]'),
  hand: $('[data-testid="hand"]'),
  log: $(".log-list"),
  conn: $('[data-testid="connection"]'),
  panel: $('[data-testid="score-panel"]'),
  panelBody: $('[data-testid="score-panel"] .panel-body'),
  lastTrick: $('[data-testid="last-trick"]'),
  lastTrickCards: $(".last-trick-cards"),
  lastTrickInfo: $(".last-trick-info"),
  lastTrickBtn: $('[data-testid="last-trick-btn"]'),
  newGame: $('[data-testid="new-game"]'),
  dialog: $('[data-testid="settings-dialog"]'),
};

// ---------------------------------------------------------------------- state
const S = {
  ws: null,
  joined: false,
  table: null,
  token: null,
  last: -1, // the number of the last event seen
  msg: null, // the last "state" message
  view: null,
  settings: loadSettings(),
  players: {},
  waiting: null,
  deals: [], // the deals of the match, rebuilt from the events
  matchOver: null,
  backoff: 500,
  retry: null,
  sending: null, // the card or bid sent and not yet answered
  bubbles: {}, // seat -> {html, cls, until}
  banner: null, // {html, until}
  lastTrickOpen: false,
  states: 0,
  errors: [],
};

// What the tests read: the last state the page received and what it shows.
window.__belote = {
  get state() { return S.msg; },
  get view() { return S.view; },
  get waiting() { return S.waiting; },
  get last() { return S.last; },
  get table() { return S.table; },
  get joined() { return S.joined; },
  get connected() { return S.ws !== null && S.ws.readyState === WebSocket.OPEN; },
  get states() { return S.states; },
  get errors() { return S.errors; },
};

function loadSettings() {
  try {
    return { ...DEFAULT_SETTINGS, ...(JSON.parse(localStorage.getItem(SETTINGS_KEY)) || {}) };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

function saveTable() {
  if (S.table) localStorage.setItem(STORE_KEY, JSON.stringify({ table: S.table, token: S.token, since: S.last }));
}

function loadTable() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY));
    if (saved && typeof saved.table === "string" && typeof saved.token === "string") return saved;
  } catch {
    /* nothing saved */
  }
  return null;
}

// ---------------------------------------------------------------------- words
function seatName(seat) {
  return t(`seat${seat}`);
}

function sideName(side) {
  return t(side === "NS" ? "sideNS" : "sideEW");
}

function suitWord(suit) {
  return t(`suit${suit}`);
}

function suitHtml(suit) {
  return `${suitIcon(suit, suitWord(suit))}`;
}

function declName(name) {
  return t(name);
}

function esc(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

// ---------------------------------------------------------------------- connection
function wsUrl() {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
}

function connect() {
  clearTimeout(S.retry);
  if (!S.table) return;
  const ws = new WebSocket(wsUrl());
  S.ws = ws;
  S.joined = false;
  ws.addEventListener("open", () => {
    if (S.ws !== ws) return;
    ws.send(JSON.stringify({ type: "join", table: S.table, token: S.token, since: S.last }));
  });
  ws.addEventListener("message", (ev) => {
    if (S.ws !== ws) return;
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    onMessage(msg);
  });
  ws.addEventListener("close", () => {
    if (S.ws !== ws) return;
    S.joined = false;
    S.ws = null;
    S.sending = null;
    showConnection(t("reconnecting"));
    S.retry = setTimeout(connect, S.backoff);
    S.backoff = Math.min(S.backoff * 2, 5000);
  });
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN && S.joined) {
    S.ws.send(JSON.stringify(msg));
    return true;
  }
  return false;
}

function showConnection(text) {
  el.conn.textContent = text || "";
  el.conn.hidden = !text;
}

function onMessage(msg) {
  if (msg.type === "state") {
    S.joined = true;
    S.backoff = 500;
    showConnection("");
    onState(msg);
  } else if (msg.type === "error") {
    S.sending = null;
    if (!S.joined) {
      // The join was refused: this table is gone (or never was). Start afresh.
      localStorage.removeItem(STORE_KEY);
      const ws = S.ws;
      S.ws = null;
      S.table = null;
      if (ws) ws.close();
      showConnection("");
      showError(t("noTable"));
      openSettings();
      return;
    }
    showError(msg.message);
    render();
  }
}

function onState(msg) {
  const first = msg.events.length ? msg.events[0][0] : null;
  if (first === 0) resetHistory();
  const live = S.states > 0 && first !== 0;
  for (const [n, e] of msg.events) {
    if (n <= S.last && first !== 0) continue;
    applyEvent(e, live);
    S.last = n;
  }
  if (typeof msg.last === "number" && msg.last > S.last) S.last = msg.last;
  const before = S.view;
  S.msg = msg;
  S.view = msg.view;
  S.players = msg.players || {};
  S.waiting = msg.waiting;
  S.sending = null;
  S.states += 1;
  if (msg.settings) {
    S.settings = { ...S.settings, ...msg.settings };
    if (msg.settings.lang !== getLang()) {
      setLang(msg.settings.lang);
      translatePage();
    }
  }
  // A message refused earlier stays until something happens at the table.
  if (before && (before.hand.length !== msg.view.hand.length || before.bids.length !== msg.view.bids.length)) {
    showError("");
  }
  saveTable();
  render();
}

// ---------------------------------------------------------------------- events
function resetHistory() {
  S.deals = [];
  S.matchOver = null;
  S.last = -1;
  S.bubbles = {};
  S.banner = null;
  el.log.textContent = "";
}

function currentDeal() {
  return S.deals[S.deals.length - 1];
}

function applyEvent(e, live) {
  const deal = currentDeal();
  switch (e.type) {
    case "deal":
      S.deals.push({
        number: e.number, scoreBefore: e.score, dealer: null, turned: null, bids: [], taker: null, trump: null,
        cards: [], tricks: [], declared: [], shown: null, result: null,
      });
      S.bubbles = {};
      break;
    case "dealt":
      deal.dealer = e.dealer;
      deal.turned = e.turned;
      log(ts("dealtBy", e.dealer, { n: deal.number, seat: seatName(e.dealer), card: cardText(e.turned, getLang()) }), "deal");
      break;
    case "bid": {
      deal.bids.push([e.seat, e.bid]);
      const round2 = deal.bids.length > 4;
      const text = bidText(e.seat, e.bid, deal.turned);
      log(text);
      if (e.bid !== "pass" && live) banner(text);
      if (round2 && deal.bids.length === 5) log(t("round2"));
      break;
    }
    case "trump":
      deal.taker = e.taker;
      deal.trump = e.trump;
      break;
    case "declared": {
      const what = e.declarations.map(declName).join(", ");
      deal.declared.push({ seat: e.seat, declarations: e.declarations });
      log(ts("declared", e.seat, { seat: seatName(e.seat), what }), "say");
      if (live) {
        bubble(e.seat, esc(what), "say");
        banner(esc(ts("declared", e.seat, { seat: seatName(e.seat), what })));
      }
      break;
    }
    case "card":
      deal.cards.push([e.seat, e.card, e.say || null]);
      if (e.say) {
        const text = t(e.say === "belote" ? "saysBelote" : "saysRebelote", { seat: seatName(e.seat) });
        log(text, "say");
        if (live) {
          bubble(e.seat, esc(t(e.say)) + "!", "say");
          banner(esc(text));
        }
      }
      break;
    case "trick": {
      const cards = deal.cards.slice(-4);
      deal.tricks.push({ winner: e.winner, points: e.points, number: e.number, cards });
      log(ts("wonTrick", e.winner, { seat: seatName(e.winner), n: e.points }));
      break;
    }
    case "declarations-shown":
      deal.shown = e;
      log(
        t("declarationsShown", {
          side: sideName(e.side),
          what: e.declarations.map((d) => `${declName(d.name)} (${d.points})`).join(", "),
        }),
        "say",
      );
      break;
    case "scored":
      deal.result = e;
      log(`${t("deal", { n: deal.number })}: ${outcomeWord(e.outcome)} · ${e.points.NS} – ${e.points.EW}`, "result");
      break;
    case "match-over":
      S.matchOver = e;
      log(t("matchOver"), "result");
      break;
    default:
      break;
  }
}

function bidText(seat, bid, turned) {
  if (bid === "pass") return esc(ts("bidPass", seat, { seat: seatName(seat) }));
  if (bid === "take") return `${esc(ts("bidTake", seat, { seat: seatName(seat), suit: "" }))}${suitHtml(turned[1])}`;
  return `${esc(ts("bidName", seat, { seat: seatName(seat), suit: "" }))}${suitHtml(bid)}`;
}

function outcomeWord(outcome) {
  return t({ made: "made", dedans: "dedans", litige: "litige", capot: "capot", "thrown-in": "thrownIn" }[outcome] || outcome);
}

function log(html, cls = "") {
  const li = document.createElement("li");
  li.innerHTML = html;
  if (cls) li.className = cls;
  el.log.append(li);
  while (el.log.childElementCount > 300) el.log.firstElementChild.remove();
  el.log.scrollTop = el.log.scrollHeight;
}

function bubble(seat, html, cls) {
  S.bubbles[seat] = { html, cls, until: Date.now() + BUBBLE_MS };
  setTimeout(render, BUBBLE_MS + 30);
}

function banner(html) {
  S.banner = { html, until: Date.now() + BANNER_MS };
  setTimeout(render, BANNER_MS + 30);
}

// ---------------------------------------------------------------------- actions
function act(action) {
  if (!S.view || S.sending) return;
  if (send({ type: "act", action })) {
    S.sending = action;
    render();
  }
}

function playIndex(i) {
  const cards = el.hand.querySelectorAll(".card");
  if (cards[i]) act(cards[i].dataset.card);
}

function continueDeal() {
  if (S.waiting === "continue") send({ type: "continue" });
}

function matchUnderway() {
  return Boolean(S.table && S.view && !S.view.match_over);
}

function askNewGame() {
  if (el.dialog.open) return;
  if (matchUnderway() && !window.confirm(t("confirmNew"))) return;
  openSettings();
}

function openSettings() {
  if (el.dialog.open) return;
  const f = el.dialog.querySelector("form");
  const s = S.settings;
  f.target.value = s.deals ? "deals" : String(s.target === 1000 ? 1000 : 501);
  f.deals.value = s.deals || 4;
  f.direction.value = s.direction;
  f.declarations.checked = s.declarations;
  f.rounding.checked = s.rounding;
  f.undertrump.checked = s.undertrump;
  f.strength.value = s.strength;
  f.speed.value = s.speed;
  f.lang.value = s.lang;
  syncDealsField();
  el.dialog.showModal();
}

function syncDealsField() {
  const f = el.dialog.querySelector("form");
  f.querySelector(".deals-field").hidden = f.target.value !== "deals";
}

function readSettings() {
  const f = el.dialog.querySelector("form");
  const byDeals = f.target.value === "deals";
  const deals = Math.max(1, Math.min(100, parseInt(f.deals.value, 10) || 4));
  return {
    target: byDeals ? 501 : parseInt(f.target.value, 10),
    deals: byDeals ? deals : null,
    direction: f.direction.value,
    declarations: f.declarations.checked,
    rounding: f.rounding.checked,
    undertrump: f.undertrump.checked,
    strength: f.strength.value,
    speed: f.speed.value,
    lang: f.lang.value,
  };
}

async function startGame(settings) {
  S.settings = settings;
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  setLang(settings.lang);
  translatePage();
  showError("");
  closeLastTrick();
  if (send({ type: "new_game", settings })) {
    render();
    return;
  }
  try {
    const res = await fetch("/api/solo", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(settings),
    });
    const data = await res.json();
    if (!res.ok) {
      showError(data.error || `HTTP ${res.status}`);
      return;
    }
    const old = S.ws;
    S.ws = null;
    if (old) old.close();
    S.table = data.table;
    S.token = data.token;
    S.view = null;
    S.msg = null;
    S.states = 0;
    resetHistory();
    saveTable();
    showConnection(t("connecting"));
    connect();
  } catch {
    showError(t("reconnecting"));
  }
}

function showError(text) {
  el.error.textContent = text || "";
  if (text) S.errors.push(text);
}

// ---------------------------------------------------------------------- last trick
function lastTrickShown() {
  // The trick most recently completed in this deal (or in the deal just scored).
  const v = S.view;
  if (!v) return null;
  if (v.tricks.length) return { ...v.tricks[v.tricks.length - 1], cards: trickSeats(v.tricks[v.tricks.length - 1]) };
  const scored = lastScoredDeal();
  if (scored && scored.tricks.length && S.waiting === "continue") {
    const tr = scored.tricks[scored.tricks.length - 1];
    return { winner: tr.winner, points: tr.points, cards: tr.cards };
  }
  return null;
}

function trickSeats(trick) {
  // A completed trick from the view: the leader, then each seat in the direction of play.
  const step = S.view.rules.direction === "clockwise" ? 1 : 3;
  const start = SEATS.indexOf(trick.leader);
  return trick.cards.map((c, i) => [SEATS[(start + step * i) % 4], c]);
}

function openLastTrick() {
  const tr = lastTrickShown();
  if (!tr) return;
  S.lastTrickOpen = true;
  el.lastTrickCards.innerHTML = tr.cards
    .map(([seat, card]) => trickCardHtml(seat, card, seat === tr.winner, "last-trick-card"))
    .join("");
  el.lastTrickInfo.textContent = ts("wonTrick", tr.winner, { seat: seatName(tr.winner), n: tr.points });
  el.lastTrick.hidden = false;
}

function closeLastTrick() {
  S.lastTrickOpen = false;
  el.lastTrick.hidden = true;
}

// ---------------------------------------------------------------------- rendering
function lastScoredDeal() {
  for (let i = S.deals.length - 1; i >= 0; i--) if (S.deals[i].result) return S.deals[i];
  return null;
}

function trickCardHtml(seat, card, winner, testid = "trick-card") {
  return (
    `<div class="trick-card pos-${seat}${winner ? " winner" : ""}" data-testid="${testid}" data-seat="${seat}" ` +
    `data-card="${card}" title="${seatName(seat)}">${cardFace(card, getLang())}</div>`
  );
}

function handCount(seat, v) {
  if (seat === "S") return v.hand.length;
  const played = v.tricks.length + (v.trick.some(([s]) => s === seat) ? 1 : 0);
  const dealt = v.phase === "bidding" ? 5 : 8;
  return Math.max(0, dealt - played);
}

const shownHtml = new WeakMap();

/** Replace the content of a node only when it changes, so that animations do not restart. */
function setHtml(node, html) {
  if (shownHtml.get(node) === html) return;
  shownHtml.set(node, html);
  node.innerHTML = html;
}

function render() {
  const v = S.view;
  const now = Date.now();
  const betweenDeals = S.waiting === "continue";

  // Scores and the line.
  el.scoreNS.textContent = v ? v.score.NS : 0;
  el.scoreEW.textContent = v ? v.score.EW : 0;
  const s = S.settings;
  el.target.textContent = v
    ? s.deals
      ? t("targetDeals", { n: Math.min(v.deal_number, s.deals), m: s.deals })
      : t("target", { n: s.target })
    : "";
  el.lastTrickBtn.disabled = !lastTrickShown();

  renderContract(v, betweenDeals);
  for (const seat of SEATS) renderSeat(seat, v, now, betweenDeals);
  renderCenter(v, betweenDeals);
  renderHand(v, betweenDeals);
  renderBids(v, betweenDeals);
  renderTurn(v, betweenDeals);
  renderPanel(v);
  setHtml(el.banner, S.banner && S.banner.until > now ? S.banner.html : "");
}

function renderContract(v, betweenDeals) {
  if (!v || betweenDeals) {
    setHtml(el.contract, "");
    setHtml(el.declarations, "");
    el.contract.removeAttribute("data-trump");
    el.contract.removeAttribute("data-taker");
    return;
  }
  const deal = currentDeal();
  if (v.trump) {
    setHtml(
      el.contract,
      `<span class="trump-chip">${suitHtml(v.trump)}${esc(t("trumps"))}</span>` +
      `<span>${esc(ts("takenBy", v.taker, { seat: seatName(v.taker) }))}</span>` +
      `<span class="tricks-won" data-testid="tricks-won">${esc(t("tricks"))} ${trickCount(v, "NS")}–${trickCount(v, "EW")}</span>`,
    );
    el.contract.dataset.trump = v.trump;
    el.contract.dataset.taker = v.taker;
  } else if (v.turned) {
    const round = v.bids.length >= 4 ? 2 : 1;
    setHtml(
      el.contract,
      `<span>${esc(t("deal", { n: v.deal_number }))}</span>` +
      `<span class="trump-chip">${esc(t("turned"))} ${esc(cardText(v.turned, getLang()))}</span>` +
      (round === 2 ? `<span>${esc(t("round2"))}</span>` : ""),
    );
    el.contract.removeAttribute("data-trump");
    el.contract.removeAttribute("data-taker");
  } else {
    setHtml(el.contract, "");
  }
  // Declarations stay on show through the deal, once made.
  const made = deal ? deal.declared : [];
  const beloteText = v.belote.length
    ? `${esc(seatName(v.belote[0][0]))}: ${v.belote.map(([, w]) => esc(t(w))).join(", ")}`
    : "";
  const declText = made.length
    ? `${esc(t("declarations"))}: ` +
      made.map((d) => `${esc(seatName(d.seat))} ${esc(d.declarations.map(declName).join(", "))}`).join(" · ")
    : "";
  setHtml(el.declarations, [declText, beloteText].filter(Boolean).join(" · "));
}

function trickCount(v, side) {
  return v.tricks.filter((tr) => SIDE_OF[tr.winner] === side).length;
}

function renderSeat(seat, v, now, betweenDeals) {
  const box = el.seats[seat];
  if (!v) {
    setHtml(box, "");
    return;
  }
  const chips = [];
  if (!betweenDeals && v.dealer === seat) chips.push(`<span class="chip dealer" title="${esc(t("dealer"))}">D</span>`);
  if (!betweenDeals && v.taker === seat && v.trump) chips.push(`<span class="chip taker">${suitHtml(v.trump)}</span>`);
  const role = seat === "N" ? `<span class="role">${esc(t("partner"))}</span>` : "";
  let html = `<div class="seat-label" data-testid="seat-label-${seat}">${esc(seatName(seat))}${role}${chips.join("")}</div>`;
  if (seat !== "S") {
    const n = betweenDeals ? 0 : handCount(seat, v);
    const backs = Array.from({ length: n }, () => `<div class="back">${cardBack()}</div>`).join("");
    html += `<div class="backs" data-count="${n}">${backs}</div>`;
  }
  // The bubble: a transient saying, or this seat's latest bid while the bidding lasts.
  const b = S.bubbles[seat];
  if (b && b.until > now && !betweenDeals) {
    html += `<div class="bubble ${b.cls}" data-testid="bubble-${seat}">${b.html}</div>`;
  } else if (!betweenDeals && v.phase === "bidding") {
    const mine = v.bids.filter(([s]) => s === seat);
    if (mine.length) {
      const bid = mine[mine.length - 1][1];
      const text =
        bid === "pass"
          ? esc(t("passed"))
          : bid === "take"
            ? `${esc(t("took"))} ${suitHtml(v.turned[1])}`
            : `${esc(t("names"))} ${suitHtml(bid)}`;
      html += `<div class="bubble ${bid === "pass" ? "pass" : "say"}" data-testid="bubble-${seat}">${text}</div>`;
    }
  }
  setHtml(box, html);
  box.classList.toggle("to-move", !betweenDeals && v.to_move === seat && !v.match_over);
}

function renderCenter(v, betweenDeals) {
  if (!v || (v.phase === "bidding" && v.turned && !betweenDeals)) {
    el.trick.classList.remove("done");
    el.trick.textContent = "";
    setHtml(
      el.turned,
      v
        ? `<div class="turned-card" data-testid="turned-card" data-card="${v.turned}">${cardFace(v.turned, getLang())}</div>` +
            `<div class="caption">${esc(t("turned"))}</div>`
        : "",
    );
    return;
  }
  setHtml(el.turned, "");
  let cards;
  let done = false;
  let winner = null;
  let info = "";
  if (v.trick.length && !betweenDeals) {
    cards = v.trick;
  } else {
    // A finished trick stays on the table until the next card arrives.
    const tr = lastTrickShown();
    cards = tr ? tr.cards : [];
    done = Boolean(tr);
    winner = tr ? tr.winner : null;
    if (tr) {
      const full = ts("wonTrick", tr.winner, { seat: seatName(tr.winner), n: tr.points });
      info = `<div class="trick-info" title="${esc(full)}">${esc(seatName(tr.winner))} +${tr.points}</div>`;
    }
  }
  el.trick.classList.toggle("done", done);
  placeTrick(el.trick, cards, winner, info);
}

/** Put the cards of a trick on the table, keeping those already there (so only a new card moves in). */
function placeTrick(box, cards, winner, info) {
  const lang = getLang();
  const keys = cards.map(([seat, card]) => `${seat}${card}${lang}`);
  for (const child of [...box.children]) {
    if (!child.dataset.key || !keys.includes(child.dataset.key)) child.remove();
  }
  cards.forEach(([seat, card], i) => {
    let node = box.querySelector(`[data-key="${keys[i]}"]`);
    if (!node) {
      const tmp = document.createElement("div");
      tmp.innerHTML = trickCardHtml(seat, card, false);
      node = tmp.firstElementChild;
      node.dataset.key = keys[i];
      box.append(node);
    }
    node.classList.toggle("winner", seat === winner);
  });
  if (info) {
    const tmp = document.createElement("div");
    tmp.innerHTML = info;
    box.append(tmp.firstElementChild);
  }
}

function renderHand(v, betweenDeals) {
  if (!v || betweenDeals) {
    el.hand.innerHTML = "";
    el.hand.dataset.key = "";
    el.hand.classList.remove("my-turn");
    return;
  }
  const myTurn = v.to_move === "S" && v.phase === "play" && !v.match_over;
  const legal = new Set(myTurn ? v.legal : []);
  const cards = sortHand(v.hand, v.trump);
  const key = `${cards.join(",")}|${[...legal].join(",")}|${myTurn}|${S.sending}|${getLang()}`;
  el.hand.classList.toggle("my-turn", myTurn);
  el.hand.classList.toggle("waiting", !myTurn);
  el.hand.style.setProperty("--n", String(Math.max(cards.length, 2)));
  if (el.hand.dataset.key === key) return;
  el.hand.dataset.key = key;
  el.hand.innerHTML = cards
    .map((c, i) => {
      const ok = legal.has(c);
      const cls = ["card", myTurn ? (ok ? "legal" : "illegal") : "", S.sending === c ? "sending" : ""].join(" ");
      return (
        `<button type="button" class="${cls.trim()}" data-testid="hand-card" data-card="${c}" data-legal="${ok}" ` +
        `data-index="${i + 1}" aria-label="${esc(cardText(c, getLang()))}" title="${i + 1}">${cardFace(c, getLang())}</button>`
      );
    })
    .join("");
}

function renderBids(v, betweenDeals) {
  const mine = v && !betweenDeals && v.phase === "bidding" && v.to_move === "S" && !v.match_over;
  const key = mine ? v.legal.join(",") + getLang() + S.sending : "";
  if (el.bids.dataset.key === key) return;
  el.bids.dataset.key = key;
  if (!mine) {
    el.bids.innerHTML = "";
    return;
  }
  el.bids.innerHTML = v.legal
    .map((bid) => {
      let label;
      if (bid === "pass") label = esc(t("pass"));
      else if (bid === "take") label = `${esc(t("take"))} ${suitHtml(v.turned[1])}`;
      else label = `${suitHtml(bid)}${esc(suitWord(bid))}`;
      const cls = bid === "pass" ? "btn ghost" : "btn primary";
      return `<button type="button" class="${cls}" data-testid="bid-${bid}" data-bid="${bid}"${S.sending ? " disabled" : ""}>${label}</button>`;
    })
    .join("");
}

function renderTurn(v, betweenDeals) {
  let text = "";
  let mine = false;
  if (!v) text = S.table ? t("connecting") : t("pressNew");
  else if (betweenDeals || v.match_over) text = "";
  else if (v.to_move === "S") {
    mine = true;
    text = v.phase === "play" ? t("yourTurnPlay") : v.bids.length >= 4 ? t("yourTurnName") : t("yourTurnBid");
  } else if (v.to_move) {
    text = t(v.phase === "play" ? "waitingFor" : "waitingBid", { seat: seatName(v.to_move) });
  }
  el.turn.textContent = text;
  el.turn.classList.toggle("mine", mine);
  el.turn.dataset.mine = String(mine);
}

function renderPanel(v) {
  const show = Boolean(v && (S.waiting === "continue" || v.match_over));
  const deal = show ? lastScoredDeal() : null;
  if (!show || !deal) {
    el.panel.hidden = true;
    el.panel.dataset.key = "";
    return;
  }
  const key = `${deal.number}|${S.waiting}|${v.match_over}|${getLang()}|${S.sending}`;
  if (el.panel.dataset.key === key && !el.panel.hidden) return;
  el.panel.dataset.key = key;
  el.panelBody.innerHTML = panelHtml(v, deal);
  el.panel.hidden = false;
  const button = el.panelBody.querySelector(".btn.primary");
  if (button) button.focus({ preventScroll: true });
}

function panelHtml(v, deal) {
  const r = deal.result;
  const outcome = r.outcome;
  let html = `<h2>${esc(t("deal", { n: deal.number }))}<span class="outcome ${outcome}" data-testid="outcome" data-outcome="${outcome}">${esc(outcomeWord(outcome))}</span></h2>`;
  if (outcome === "thrown-in") {
    html += `<p>${esc(t("thrownInLong"))}</p>`;
  } else {
    const taker = seatName(deal.taker);
    const suit = suitWord(deal.trump);
    const sentence = {
      made: ts("madeLong", deal.taker, { seat: taker, suit }),
      dedans: ts("dedansLong", deal.taker, { seat: taker, suit }),
      litige: ts("litigeLong", deal.taker, { seat: taker, suit, n: r.cards.NS }),
      capot: t("capotLong", { side: sideName(r.capot || SIDE_OF[deal.taker]) }),
    }[outcome];
    html += `<p data-testid="outcome-text">${suitHtml(deal.trump)} ${esc(sentence)}</p>`;
    const last = deal.tricks[deal.tricks.length - 1];
    const lastSide = last ? SIDE_OF[last.winner] : null;
    const tricks = { NS: 0, EW: 0 };
    for (const tr of deal.tricks) tricks[SIDE_OF[tr.winner]] += 1;
    const dix = (side) => (lastSide === side ? 10 : 0);
    const row = (label, a, b, cls = "", testid = "") =>
      `<tr class="${cls}"${testid ? ` data-testid="${testid}"` : ""}><td>${label}</td><td>${a}</td><td>${b}</td></tr>`;
    const shown = deal.shown
      ? deal.shown.declarations.map((d) => `${esc(seatName(d.seat))}: ${esc(declName(d.name))} ${d.points}`).join(", ")
      : "";
    html +=
      `<table class="sheet" data-testid="deal-sheet"><thead><tr><th></th><th>${esc(sideName("NS"))}</th><th>${esc(sideName("EW"))}</th></tr></thead><tbody>` +
      row(esc(t("tricks")), tricks.NS, tricks.EW, "", "row-tricks") +
      row(esc(t("cards")), r.cards.NS - dix("NS"), r.cards.EW - dix("EW"), "", "row-cards") +
      row(esc(t("lastTrickLine")), dix("NS") || "", dix("EW") || "", "", "row-last") +
      row(esc(t("declarations")), r.declarations.NS || "", r.declarations.EW || "", "", "row-declarations") +
      row(esc(t("beloteRebelote")), r.belote.NS || "", r.belote.EW || "", "", "row-belote") +
      row(esc(t("added")), `+${r.points.NS}`, `+${r.points.EW}`, "strong", "row-added") +
      row(esc(t("matchScore")), v.score.NS, v.score.EW, "score", "row-score") +
      `</tbody></table>`;
    if (shown) html += `<p class="note">${esc(t("declarations"))}: ${shown}</p>`;
  }
  if (outcome === "thrown-in") {
    html +=
      `<table class="sheet"><tbody><tr class="score" data-testid="row-score"><td>${esc(t("matchScore"))}</td>` +
      `<td>${v.score.NS}</td><td>${v.score.EW}</td></tr></tbody></table>`;
  }
  if (r.pending) html += `<p class="note" data-testid="pending">${esc(t("pending", { n: r.pending }))}</p>`;
  const s = S.settings;
  html += `<p class="note" data-testid="panel-target">${esc(
    s.deals ? t("targetDeals", { n: Math.min(deal.number, s.deals), m: s.deals }) : t("target", { n: s.target }),
  )}</p>`;
  if (v.match_over) {
    const a = v.score.NS;
    const b = v.score.EW;
    const w = v.match_winner;
    const line = w === "NS" ? t("winnerUs", { a, b }) : w === "EW" ? t("winnerThem", { a, b }) : t("winnerTie", { a });
    html += `<p class="winner-line" data-testid="match-winner" data-winner="${w || ""}">${esc(t("matchOver"))}: ${esc(line)}</p>`;
  }
  html += historyHtml(deal);
  html += `<div class="panel-buttons">`;
  if (S.waiting === "continue") {
    html += `<button type="button" class="btn primary" data-testid="continue" data-action="continue">${esc(t("continue"))}</button>`;
  } else if (v.match_over) {
    html += `<button type="button" class="btn primary" data-testid="panel-new-game" data-action="new-game">${esc(t("newGame"))}</button>`;
  }
  html += `</div>`;
  return html;
}

function historyHtml(current) {
  const rows = [];
  for (const d of S.deals) {
    if (!d.result) continue;
    const after = { NS: d.scoreBefore.NS + d.result.points.NS, EW: d.scoreBefore.EW + d.result.points.EW };
    const contract = d.trump ? `${esc(seatName(d.taker))} ${suitHtml(d.trump)}` : "—";
    rows.push(
      `<tr class="${d === current ? "current" : ""}"><td>${d.number}</td><td>${contract}</td>` +
        `<td>${esc(outcomeWord(d.result.outcome))}</td><td>+${d.result.points.NS}</td><td>+${d.result.points.EW}</td>` +
        `<td>${after.NS} – ${after.EW}</td></tr>`,
    );
  }
  return (
    `<h3>${esc(t("history"))}</h3><table class="sheet history" data-testid="history"><thead><tr>` +
    `<th>${esc(t("historyDeal"))}</th><th>${esc(t("historyContract"))}</th><th>${esc(t("historyResult"))}</th>` +
    `<th>${esc(t("us"))}</th><th>${esc(t("them"))}</th><th>${esc(t("total"))}</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
  );
}

// ---------------------------------------------------------------------- input
el.hand.addEventListener("click", (ev) => {
  const card = ev.target.closest(".card");
  if (!card || !S.view) return;
  if (S.view.to_move !== "S" || S.view.phase !== "play") return;
  act(card.dataset.card);
});

el.bids.addEventListener("click", (ev) => {
  const b = ev.target.closest("[data-bid]");
  if (b) act(b.dataset.bid);
});

el.panel.addEventListener("click", (ev) => {
  const b = ev.target.closest("[data-action]");
  if (!b) return;
  if (b.dataset.action === "continue") continueDeal();
  else if (b.dataset.action === "new-game") openSettings();
});

el.newGame.addEventListener("click", askNewGame);
el.lastTrickBtn.addEventListener("click", () => (S.lastTrickOpen ? closeLastTrick() : openLastTrick()));
$('[data-testid="last-trick-close"]').addEventListener("click", closeLastTrick);
el.lastTrick.addEventListener("click", (ev) => {
  if (ev.target === el.lastTrick) closeLastTrick();
});

el.dialog.querySelector("form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const settings = readSettings();
  el.dialog.close();
  startGame(settings);
});
el.dialog.querySelector('[data-testid="settings-cancel"]').addEventListener("click", () => el.dialog.close());
el.dialog.querySelector('[name="target"]').addEventListener("change", syncDealsField);
el.dialog.querySelector('[name="lang"]').addEventListener("change", (ev) => {
  // Show the dialog itself in the language being chosen.
  setLang(ev.target.value);
  translatePage(el.dialog);
});
el.dialog.addEventListener("close", () => {
  if (getLang() !== S.settings.lang) {
    setLang(S.settings.lang);
    translatePage();
  }
});

document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (el.dialog.open) return;
  const tag = ev.target && ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (ev.key >= "1" && ev.key <= "8") {
    if (S.view && S.view.to_move === "S" && S.view.phase === "play" && el.panel.hidden) {
      playIndex(Number(ev.key) - 1);
      ev.preventDefault();
    }
  } else if (ev.key === "n" || ev.key === "N") {
    ev.preventDefault();
    askNewGame();
  } else if (ev.key === "l" || ev.key === "L") {
    if (S.lastTrickOpen) closeLastTrick();
    else openLastTrick();
  } else if (ev.key === "Escape") {
    closeLastTrick();
  } else if ((ev.key === "Enter" || ev.key === " ") && S.waiting === "continue" && !el.panel.hidden) {
    if (ev.target.closest && ev.target.closest("[data-action]")) return; // the button handles it
    ev.preventDefault();
    continueDeal();
  }
});

// Sayings and banners expire on their own.
setInterval(() => {
  const now = Date.now();
  const expired =
    (S.banner && S.banner.until <= now && el.banner.innerHTML) ||
    Object.values(S.bubbles).some((b) => b.until <= now && b.until > now - 1500);
  if (expired) render();
}, 700);

// ---------------------------------------------------------------------- start
function boot() {
  setLang(S.settings.lang);
  translatePage();
  const saved = loadTable();
  if (saved) {
    S.table = saved.table;
    S.token = saved.token;
    S.last = -1; // a fresh page has no history: the server sends every event again
    showConnection(t("connecting"));
    connect();
  } else {
    openSettings();
  }
  render();
}

boot();
