// The table page (docs/protocol.md): a solo table against bots, a seat at an online or a private
// table, or a spectator's view. The server owns the game: this page shows what it is sent (a
// PlayerView and numbered public events) and sends bids, cards and table messages. Nothing here
// decides what is legal.
//
// The page in parts, each with one job: connection.js (the socket), state.js (the table folded from
// the server's messages: a pure reducer), words.js (the table in words), view.js and history.js
// (drawn from state), motion.js and sound.js (what happens as events arrive). This file is the
// controller: it hands messages to the reducer, clicks and keys to the socket, and asks the views
// to draw.

import { attend } from "./attention.js";
import { askHint, drawHint, hintRefused, onHint } from "./hints.js";
import { Chat, reactionButtonsHtml, reactionHtml } from "./chat.js";
import { Connection } from "./connection.js";
import { $, esc, setHtml } from "./dom.js";
import { autoCard, cardAction, PREFS_KEY, readPrefs } from "./flow.js";
import { GAMES, gameOf, REACTIONS } from "./games.js";
import { historyHtml } from "./history.js";
import { SETTINGS_KEY, browserLang, getLang, setLang, t, translatePage } from "./i18n.js";
import { copyText, shareLink } from "./lobby.js";
import { Motion } from "./motion.js";
import { Page } from "./page.js";
import { remember } from "./mygames.js";
import { refusalText } from "./refusals.js";
import { SEATS } from "./seats.js";
import { DEFAULT_SETTINGS, fillSettingsForm, readSettingsForm, settingsFieldsHtml, syncSettingsForm, variantPickerHtml } from "./settings.js";
import * as sound from "./sound.js";
import { closePanel, emptyTable, lastTrickShown, myTurn, reduceState, shared } from "./state.js";
import { drawTable, spectating, tableSettings, trickCardHtml, TURNED_UP_MS } from "./view.js";
import { wordsFor } from "./words.js";
import { presenceNews } from "./state.js";
import { tickGone } from "./view.js";
import * as identity from "./identity.js";
import * as panels from "./panels.js";
import { fromBlocked, handleHtml, identityLink, profileUrl } from "./people.js";
import { translateTw } from "./tournament-words.js";

const STORE_KEY = "belote.table"; // the table this page is at: {table, token | watch, since}
const NAME_KEY = "belote.name";
const CREATE_KEY = "belote.create"; // the rules last chosen for a private table
const ONLINE_KEY = "belote.online"; // the game last chosen for Play online
const SEATING_KEY = "belote.seating"; // partners | any, last chosen for Play online
const TOOK_KEY = "belote.took"; // set once this browser has made a taking decision: no more hint
const tokenKey = (table) => `belote.token.${table}`; // a seat token, kept under its table's id
const BANNER_MS = 2400;
const BUBBLE_MS = 2600;
const CHAT_BUBBLE_MS = 4000;
const PANEL_PAUSE_MS = 1200; // the last trick is seen (and swept) before the deal's score covers it

// The settings forms are built before anything looks their fields up: the game tiles, the rule
// options, and the table settings a form names in data-table (the bots, the turn timer).
for (const box of document.querySelectorAll("[data-fields]")) {
  const prefix = box.dataset.fields;
  box.outerHTML =
    box.dataset.only === "variant"
      ? variantPickerHtml(prefix)
      : settingsFieldsHtml(prefix, { table: (box.dataset.table || "").split(" ") });
}

const el = {
  app: $("#app"),
  hintBtn: $('[data-testid="hint-button"]'), // hints.js
  hintPanel: $('[data-testid="hint-panel"]'),
  scoreboard: $('[data-testid="scoreboard"]'),
  scores: $('[data-testid="scores"]'),
  target: $('[data-testid="target"]'),
  contract: $('[data-testid="contract"]'),
  declarations: $('[data-testid="declarations"]'),
  spectatorBadge: $('[data-testid="spectator-badge"]'),
  // The four places around the table, by where they are on the screen (S: the bottom).
  places: Object.fromEntries(SEATS.map((pos) => [pos, $(`.felt .seat-${pos}`)])),
  felt: $(".felt"),
  trick: $('[data-testid="trick"]'),
  turned: $('[data-testid="turned"]'),
  banner: $('[data-testid="announce"]'),
  turn: $('[data-testid="turn"]'),
  takeHint: $('[data-testid="take-hint"]'),
  error: $('[data-testid="error"]'),
  takeBack: $('[data-testid="take-back"]'),
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
  historyBtn: $('[data-testid="history-btn"]'),
  history: $('[data-testid="history-drawer"]'),
  historyBody: $('[data-testid="history-drawer"] .drawer-body'),
  muteBtn: $('[data-testid="mute"]'),
  rulesLink: $('[data-testid="rules-link"]'),
  newGame: $('[data-testid="new-game"]'),
  keys: $(".keys"),
  home: $('[data-testid="home"]'),
  tournamentLink: $('[data-testid="tournament-link"]'), // a tournament's board: back to its tournament
  dialog: $('[data-testid="settings-dialog"]'),
  botsForm: $('[data-testid="bots-form"]'),
  onlineForm: $('[data-testid="online-form"]'),
  createForm: $('[data-testid="create-form"]'),
  homeError: $('[data-testid="home-error"]'),
  prefsForm: $('[data-testid="prefs-form"]'),
  langPick: $('[data-testid="settings-lang"]'),
  sitDialog: $('[data-testid="sit-dialog"]'),
  sitForm: $('[data-testid="sit-form"]'),
  sitError: $('[data-testid="sit-error"]'),
  queuePanel: $('[data-testid="queue-panel"]'),
  queueStatus: $('[data-testid="queue-status"]'),
  queueCounts: $('[data-testid="queue-counts"]'),
  queueError: $('[data-testid="queue-error"]'),
  confirm: $('[data-testid="confirm-dialog"]'),
  lobby: $('[data-testid="lobby"]'),
  lobbyStatus: $('[data-testid="lobby-status"]'),
  lobbySeats: $('[data-testid="lobby-seats"]'),
  lobbyForm: $('[data-testid="lobby-settings"]'),
  lobbyActions: $('[data-testid="lobby-actions"]'),
  lobbyStart: $('[data-testid="lobby-start"]'),
  lobbyLeave: $('[data-testid="lobby-leave"]'),
  sitWatch: $('[data-testid="sit-watch"]'),
  links: $('[data-testid="links"]'),
  inviteLink: $('[data-testid="invite-link"]'),
  watchLink: $('[data-testid="watch-link"]'),
  chat: $('[data-testid="chat"]'),
  chatLines: $('[data-testid="chat-lines"]'),
  chatForm: $('[data-testid="chat-form"]'),
  chatReadOnly: $('[data-testid="chat-readonly"]'),
  reactions: $('[data-testid="reactions"]'),
  chatToggle: $('[data-testid="chat-toggle"]'),
  chatUnread: $('[data-testid="chat-unread"]'),
  barMe: $('[data-testid="bar-me"]'),
  identityDialog: $('[data-testid="identity-dialog"]'),
  friendsDialog: $('[data-testid="friends-dialog"]'),
};

// ---------------------------------------------------------------------- state
/** The table, as the server told it: replaced by the reducer (state.js) at each message. */
let T = emptyTable(GAMES[0]);

/** What this page keeps for itself (page.js): changed only through its named transitions. */
const U = new Page(loadSettings(), GAMES[0].name, readPrefs(localStorage.getItem(PREFS_KEY)));
const chat = new Chat(el.chatLines, (line) => fromBlocked(line, T.players, identity.blockedIds()));
const motion = new Motion({ felt: el.felt, trick: el.trick, hand: el.hand });

const conn = new Connection({
  hello,
  onMessage,
  onStatus(status) {
    U.connection(status);
    if (status === "lost") {
      // A join refused for a passing reason (Redis restarting) keeps saying why while it is tried again.
      showConnection(U.passing || t("reconnecting"));
    } else if (status !== "connecting") {
      showConnection(""); // joined (open) or gone (closed)
    }
    render();
  },
});

/** The page's own socket for its identity while it has no table (the table's socket says hello itself). */
const presence = new identity.Presence((msg) => identity.absorb([msg]));
let helloSaid = null; // the table socket that said hello

// What the tests read: the last state the page received and what it shows.
window.__belote = {
  get state() { return T.msg; },
  get view() { return T.view; },
  get waiting() { return T.waiting; },
  get last() { return T.last; },
  get table() { return U.table; },
  get joined() { return conn.joined; },
  get connected() { return conn.connected; },
  get states() { return T.states; },
  get errors() { return U.errors; },
  get seat() { return T.seat; },
  get variant() { return T.game.name; },
  get seatCount() { return T.game.players; },
  get kind() { return T.kind; },
  get status() { return T.status; },
  get host() { return T.host; },
  get players() { return T.players; },
  get timer() { return T.timer; },
  get spectator() { return spectating(U); },
  get queue() { return U.queue; },
  get chat() { return chat.lines.map(({ seat, name, text, reaction }) => ({ seat, name, text, reaction })); },
  get deals() { return T.deals; },
  get prefs() { return U.prefs; },
  get nextDeal() { return U.nextDeal; },
  get player() { return identity.player(); },
};

// ---------------------------------------------------------------------- what this browser keeps
/** The solo settings kept by this browser; the page's language, until one is chosen, is the browser's. */
function loadSettings() {
  const first = { ...DEFAULT_SETTINGS, lang: browserLang() };
  try {
    return { ...first, ...(JSON.parse(localStorage.getItem(SETTINGS_KEY)) || {}) };
  } catch {
    return first;
  }
}

function saveSettings() {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(U.settings));
}

function saveTable() {
  if (!U.table) return;
  const saved = U.token ? { table: U.table, token: U.token } : { table: U.table, watch: U.watch };
  localStorage.setItem(STORE_KEY, JSON.stringify({ ...saved, since: T.last }));
}

function loadTable() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY));
    const ok = saved && typeof saved.table === "string";
    if (ok && (typeof saved.token === "string" || typeof saved.watch === "string")) return saved;
  } catch {
    /* nothing saved */
  }
  return null;
}

function forgetTable() {
  const saved = loadTable();
  if (saved && saved.table === U.table) localStorage.removeItem(STORE_KEY);
}

function storedName() {
  return localStorage.getItem(NAME_KEY) || "";
}

/** The link this page was opened with: /?table=ID&invite=CODE or /?table=ID&watch=CODE. */
function readLink() {
  const q = new URLSearchParams(location.search);
  const table = q.get("table");
  if (!table) return null;
  return { table, invite: q.get("invite"), watch: q.get("watch") };
}

/** Drops a table's link from the address bar once the page has gone elsewhere (a reload stays there). */
function clearLink() {
  if (location.search) history.replaceState(null, "", "/");
}


/** Sets the page's language (`root`: only that part of the page, such as a dialog being filled). */
function applyLang(lang, root = document) {
  setLang(lang);
  translatePage(root);
  if (root !== document) return;
  translateTw(root);
  renderReactions();
  chat.render(t);
  redrawLog();
  el.rulesLink.href = `/rules?lang=${getLang()}`;
  panels.retranslate();
  drawIdentityCorner();
}

// ---------------------------------------------------------------------- messages
/** The first message on a new socket: join the table (with the seat token or the watch code), or queue. */
function hello() {
  if (!U.table) {
    if (!U.queueName) return null;
    const player = identity.secret();
    return { type: "queue", name: U.queueName, variant: U.queueVariant, seating: U.queueSeating, ...(player ? { player } : {}) };
  }
  if (U.token) return { type: "join", table: U.table, token: U.token, since: T.last };
  // A spectator's lines in the chat carry the name this browser plays under, if it has one.
  const name = storedName().trim();
  return { type: "join", table: U.table, watch: U.watch, since: T.last, ...(name ? { name } : {}) };
}

function showConnection(text) {
  el.conn.textContent = text || "";
  el.conn.hidden = !text;
}

function onMessage(msg) {
  switch (msg.type) {
    case "state":
      conn.answered();
      onState(msg);
      sayHello();
      break;
    case "error":
      onError(msg);
      break;
    case "queue":
      conn.answered();
      onQueue(msg);
      sayHello();
      break;
    case "invited":
      identity.absorb([msg]);
      break;
    case "matched":
      onMatched(msg);
      break;
    case "chat":
      onChat(msg);
      break;
    case "left":
      onLeft(msg);
      break;
    case "hint":
      onHint(T, msg);
      render();
      break;
    default:
      break;
  }
}

/**
 * Once on each table socket, with an identity: hello, so that friends see the player online and
 * invitations reach this page. A seat of the identity's own already says who sits there (its join).
 */
function sayHello() {
  const secret = identity.secret();
  if (!secret || !conn.connected || helloSaid === conn.ws) return;
  const mine = identity.player();
  const seat = T.seat && T.players ? T.players[T.seat] : null;
  helloSaid = conn.ws;
  if (seat && mine && seat.player === mine.id) return;
  conn.send({ type: "hello", player: secret });
}

/** A refusal in the reader's language, from its code (refusals.js), else the server's words. */
function refusal(msg) {
  return refusalText({ code: msg.code, args: msg.args || {}, message: msg.message || msg.error || "" }, getLang());
}

/** Refusals the server may give a join that a moment later it would not (docs/protocol.md): the seat is kept. */
const PASSING = new Set(["server_error", "slow_down", "flooding", "store_unreachable", "store_full"]);

function onError(msg) {
  U.answered();
  hintRefused();
  if (msg.code === "no_identity") {
    // The identity was deleted on another device: the page goes on without it.
    identity.forget();
    if (!U.table && U.queueName) conn.tryAgain(); // queued again, without it
    return;
  }
  if (!U.table && U.queueName) {
    // The queue refused us (a bad name): back to the home screen, with the reason.
    leaveQueue(false);
    openHome("online", refusal(msg));
    return;
  }
  if (!conn.joined) {
    if (PASSING.has(msg.code)) {
      U.joinRefused(refusal(msg));
      showConnection(U.passing);
      conn.tryAgain(); // the join is tried again after a pause, the seat kept
      return;
    }
    tableGone();
    return;
  }
  showError(refusal(msg));
  // A change of rules the server refused: the lobby shows the table's rules again.
  if (T.status === "lobby") fillSettingsForm(el.lobbyForm, tableSettings(T, U));
  render();
}

/** We gave our seat up in a lobby: the token opens nothing any more. */
function onLeft(msg) {
  localStorage.removeItem(tokenKey(msg.table));
  leaveTable();
  openHome("create");
}

/** The join was refused: this table is gone, or this seat is not ours. Start afresh. */
function tableGone() {
  const table = U.table;
  const link = readLink();
  if (U.token) localStorage.removeItem(tokenKey(table));
  forgetTable();
  conn.close();
  resetTable();
  U.tableGone();
  render();
  if (link && link.table === table && link.invite) {
    openSit(link);
  } else {
    if (link) clearLink();
    showError(t("noTable"));
    openHome("bots", link ? t("inviteInvalid") : "");
  }
}

function onState(msg) {
  const before = T.view;
  const { table, applied } = reduceState(T, msg, gameOf);
  const restart = applied.length > 0 && applied[0].n === 0;
  const news = presenceNews(T, table); // who left the table, who came back
  T = table;
  if (restart || msg.gap) clearLog();
  const w = wordsFor(T);
  for (const item of applied) announce(item, w);
  for (const seat of news.gone) banner(esc(t("gone", { name: T.players[seat].name })));
  for (const seat of news.back) {
    bubble(seat, esc(t("backMark")), "back");
    banner(esc(t("isBack", { name: T.players[seat].name })));
  }
  U.answered();
  if (T.kind === "solo" && msg.settings) {
    // A solo table's settings are the page's; the language stays the one this page chose last.
    U.tableSettings(msg.settings);
  }
  // A message refused earlier stays until something happens at the table.
  const v = T.view;
  if (before && v && (before.hand.length !== v.hand.length || before.bids.length !== v.bids.length)) showError("");
  if (v && myTurn(T, "play", U.connected) && !(before && myTurn({ ...T, view: before }, "play"))) sound.play("turn");
  if (v && myTurn(T, "bidding", U.connected) && !(before && before.to_move === T.seat && before.phase === "bidding")) {
    sound.play("turn");
    U.turnToBid(!localStorage.getItem(TOOK_KEY));
  }
  if (v && v.phase === "bidding" && v.legal.length) U.bidsOffered(v);
  saveTable();
  remember(T, U); // My games (mygames.js): this table, for its reviews
  render();
}

/** An event that happened: its line in the log and, when it happens now, its bubble, banner, sound and motion. */
function announce({ e, deal, live }, w) {
  if (e.type === "deal") U.dealStarted();
  if (e.type !== "deal") addLog(e, deal, w);
  if (!live) return;
  switch (e.type) {
    case "dealt":
      motion.deal();
      sound.play("deal");
      break;
    case "bid":
      if (e.bid !== "pass") banner(w.bidText(e.seat, e.bid, deal.turned));
      if (T.seat && e.seat === T.seat) localStorage.setItem(TOOK_KEY, "1");
      break;
    case "declared": {
      const what = e.declarations.map(w.declName).join(", ");
      bubble(e.seat, esc(what), "say");
      banner(esc(w.tsSeat("declared", e.seat, { seat: w.seatName(e.seat), what })));
      break;
    }
    case "card":
      sound.play("card");
      motion.cardPlayed(e.seat, T.seat && e.seat === T.seat);
      if (e.say) {
        bubble(e.seat, esc(t(e.say)) + "!", "say");
        banner(esc(t(e.say === "belote" ? "saysBelote" : "saysRebelote", { seat: w.seatName(e.seat) })));
      }
      break;
    case "trick":
      sound.play("trick", { won: !T.seat || T.game.team(e.winner) === T.game.team(T.seat) });
      motion.trickWon();
      break;
    case "turned-up":
      U.turnedUp(e.card, Date.now());
      setTimeout(render, TURNED_UP_MS + 30);
      break;
    case "scored":
      // The last trick is seen (and swept to its winner) before the deal's score covers the table.
      if (!motion.reduced) {
        U.scoreHeld(true);
        setTimeout(() => {
          U.scoreHeld(false);
          render();
        }, PANEL_PAUSE_MS);
      }
      break;
    case "match-over": {
      const mine = T.seat && e.winner && T.game.team(T.seat) === e.winner;
      sound.play(!T.seat ? "trick" : mine ? "win" : "lose");
      break;
    }
    default:
      break;
  }
}

// ---------------------------------------------------------------------- the log
function clearLog() {
  U.logCleared();
  el.log.textContent = "";
}

function logLines(e, deal, w) {
  const lines = w.eventLine(e, deal);
  return lines === null ? [] : Array.isArray(lines) ? lines : [lines];
}

function logNode({ html, cls }) {
  const li = document.createElement("li");
  li.innerHTML = html;
  if (cls) li.className = cls;
  return li;
}

function addLog(e, deal, w) {
  U.logged(e, deal);
  for (const line of logLines(e, deal, w)) el.log.append(logNode(line));
  while (el.log.childElementCount > 300) el.log.firstElementChild.remove();
  el.log.scrollTop = el.log.scrollHeight;
}

/** The log in the page's language (after a change of language). */
function redrawLog() {
  const w = wordsFor(T);
  el.log.replaceChildren(...U.logItems.flatMap(({ e, deal }) => logLines(e, deal, w).map(logNode)));
  el.log.scrollTop = el.log.scrollHeight;
}

function bubble(seat, html, cls, ms = BUBBLE_MS) {
  U.bubbled(seat, html, cls, Date.now() + ms);
  setTimeout(render, ms + 30);
}

function banner(html) {
  U.bannered(html, Date.now() + BANNER_MS);
  setTimeout(render, BANNER_MS + 30);
}

// ---------------------------------------------------------------------- queue
function onQueue(msg) {
  U.queued(msg, Date.now());
  renderQueue();
}

function onMatched(msg) {
  localStorage.setItem(tokenKey(msg.table), msg.token);
  U.queueLeft();
  el.queuePanel.hidden = true;
  enterTable({ table: msg.table, token: msg.token });
}

function playOnline(name, variant = storedOnlineVariant(), seating = storedSeating()) {
  leaveTable();
  U.queueJoined(name, variant, seating);
  el.queueError.textContent = "";
  el.queuePanel.hidden = false;
  render();
  conn.open();
}

function leaveQueue(tell = true) {
  if (tell) conn.send({ type: "leave_queue" });
  U.queueLeft();
  el.queuePanel.hidden = true;
  conn.close();
  render();
}

function renderQueue() {
  if (el.queuePanel.hidden) return;
  const q = U.queue;
  if (!q) {
    el.queueStatus.textContent = t("connecting");
    setHtml(el.queueCounts, "");
    return;
  }
  const waiting = q.waiting === 1 ? t("queueWaitingOne") : t("queueWaiting", { n: q.waiting });
  const left = Math.ceil((q.deadline - Date.now()) / 1000);
  const bots = left > 0 ? t("queueBots", { s: left }) : t("queueBotsNow");
  el.queueStatus.textContent = `${t(`variant_${q.variant}`)} · ${waiting} · ${bots}`;
  const counts = q.waiting_by_game || null;
  setHtml(
    el.queueCounts,
    counts
      ? GAMES.map(
          ({ name }) =>
            `<li data-testid="queue-count-${name}" class="${name === q.variant ? "mine" : ""}"><span>${esc(t(`variant_${name}`))}</span><b>${counts[name] ?? 0}</b></li>`,
        ).join("")
      : "",
  );
}

// ---------------------------------------------------------------------- chat
function onChat(line) {
  if (!chat.add(line)) return;
  chat.render(t);
  if (line.old || fromBlocked(line, T.players, identity.blockedIds())) return;
  if (line.seat && T.view) {
    const html = line.reaction ? reactionHtml(line.reaction, t) : esc(line.text);
    bubble(line.seat, html, line.reaction ? "react" : "chat", CHAT_BUBBLE_MS);
  }
  if (!chatVisible() && !(T.seat && line.seat === T.seat)) U.chatUnread();
  render();
}

function chatVisible() {
  return !el.chat.hidden && el.chat.offsetParent !== null;
}

function sendChat(text) {
  const line = text.trim();
  if (!line) return false;
  return conn.send({ type: "chat", text: line.slice(0, 200) });
}

function renderReactions() {
  el.reactions.innerHTML = reactionButtonsHtml(REACTIONS, t);
}

function toggleChat(open = !U.chatOpen) {
  U.chatToggled(open);
  render();
  if (open) el.chatForm.elements.text.focus({ preventScroll: true });
}

// ---------------------------------------------------------------------- actions at the table
/** Sends `action` (a bid, or a card with what its player keeps quiet); `shown` is what is marked in flight. */
function act(action, shown = action) {
  if (!T.view || U.sending || spectating(U)) return;
  if (conn.send({ type: "act", action })) {
    U.sent(shown);
    render();
  } else {
    showError(t("offlineAct"));
  }
}

/** Plays `card`, with what a player who announces by hand did not announce (flow.js). */
function playCard(card) {
  act(cardAction(T.view, U.prefs, card, U.saying), card);
}

function playIndex(i) {
  const cards = el.hand.querySelectorAll(".card");
  if (cards[i]) playCard(cards[i].dataset.card);
}

function continueDeal() {
  U.nextDealStopped();
  if (T.waiting === "continue") conn.send({ type: "continue" });
}

/** What happens by itself, as the player's preferences say: the next deal after its seconds (not
 * while the player looks elsewhere), the only card one may play. Asked at every tick of the clock. */
function flow(now) {
  if (T.waiting === "continue" && T.seat && !el.panel.hidden) {
    U.nextDealWaits(T.view.deal_number, now);
    U.nextDealPaused(document.hidden || anyDialogOpen() || U.lastTrickOpen, now);
    if (U.nextDeal.at !== null && now >= U.nextDeal.at) continueDeal();
  }
  const card = !U.sending && myTurn(T, "play", U.connected) ? autoCard(T.view, U.prefs) : null;
  if (card) {
    U.autoPlayOffered(`${T.last}|${card}`, now);
    if (now >= U.autoPlay.at) {
      U.autoPlayed(now);
      playCard(card);
    }
  }
}

function matchUnderway() {
  return Boolean(U.table && T.view && !T.view.match_over);
}

/** The page's own question box (not the browser's): resolves true for yes.
 *
 * The answer is the button pressed (or Escape) for this question; it is given once the box has
 * closed. A box's "close" event comes a task after it closed: a key pressed meanwhile can open the
 * box again, so a "close" event before this question is answered belongs to an earlier one. */
function ask(text, yes) {
  return new Promise((resolve) => {
    const box = el.confirm;
    const form = box.querySelector("form");
    box.querySelector('[data-testid="confirm-text"]').textContent = text;
    box.querySelector('[data-testid="confirm-yes"]').textContent = yes;
    let answer = null;
    const submitted = (ev) => {
      answer ??= ev.submitter?.value === "yes";
    };
    const cancelled = () => {
      answer ??= false;
    };
    const closed = () => {
      if (answer === null) return;
      form.removeEventListener("submit", submitted);
      box.removeEventListener("cancel", cancelled);
      box.removeEventListener("close", closed);
      resolve(answer);
    };
    form.addEventListener("submit", submitted);
    box.addEventListener("cancel", cancelled);
    box.addEventListener("close", closed);
    box.showModal();
  });
}

async function askNewGame() {
  if (el.dialog.open || el.confirm.open) return;
  if (matchUnderway() && !(await ask(t("confirmNew"), t("newGame")))) return;
  openHome("bots");
}

function showError(text) {
  el.error.textContent = text || "";
  if (text) U.erred(text);
}

// ---------------------------------------------------------------------- going to a table
function resetTable() {
  T = emptyTable(T.game);
  U.tableReset();
  clearLog();
  chat.clear();
  closeLastTrick();
  closeHistory();
}

/** Sits at (or watches) a table: `token` for a seat, `watch` for the spectator's view. */
function enterTable({ table, token = null, watch = null }) {
  conn.close();
  resetTable();
  U.entered(table, token, watch);
  saveTable();
  showError("");
  showConnection(t("connecting"));
  conn.open();
  render();
}

/** Leaves the table this page is at; its seat token stays, so the table's link brings the player back. */
function leaveTable() {
  if (!U.table) return;
  conn.close();
  forgetTable();
  U.left();
  resetTable();
  clearLink();
  render();
}

/** A request that creates or sits at a table, with the identity's header when there is one
 * (identity.request): an identity deleted on another device is forgotten there, and the request is
 * made again without it. */
async function postJson(url, body) {
  const first = await identity.request("POST", url, body);
  if (first.status === 401 && first.data.code === "no_identity" && !identity.secret()) {
    return identity.request("POST", url, body); // the table takes the person without it
  }
  return first;
}

async function startSolo(settings) {
  U.settingsChosen(settings);
  saveSettings();
  applyLang(settings.lang);
  showError("");
  closeLastTrick();
  if (T.kind === "solo" && conn.send({ type: "new_game", settings })) {
    render();
    return;
  }
  try {
    const { ok, status, data } = await postJson("/api/solo", settings);
    if (!ok) {
      showError(data.error ? refusal(data) : `HTTP ${status}`);
      return;
    }
    clearLink();
    enterTable({ table: data.table, token: data.token });
  } catch {
    showError(t("reconnecting"));
  }
}

async function createTable(name, settings) {
  try {
    const { ok, status, data } = await postJson("/api/tables", { name, settings });
    if (!ok) {
      openHome("create", data.error ? refusal(data) : `HTTP ${status}`);
      return;
    }
    localStorage.setItem(tokenKey(data.table), data.token);
    clearLink();
    enterTable({ table: data.table, token: data.token });
  } catch {
    openHome("create", t("connectionLost"));
  }
}

/** Takes a seat through an invitation; the token is kept under the table's id. */
async function sit(link, name, seat) {
  const body = { invite: link.invite, name };
  if (seat) body.seat = seat;
  el.sitError.textContent = "";
  try {
    const { ok, status, data } = await postJson(`/api/tables/${encodeURIComponent(link.table)}/sit`, body);
    if (!ok) {
      const reason = { 404: t("inviteInvalid"), 409: t("seatTaken"), 400: t("badName") }[status];
      el.sitError.textContent = data.code ? refusal(data) : [reason, data.error].filter(Boolean).join(" ") || `HTTP ${status}`;
      // No seat left: the invitation still lets one watch.
      el.sitDialog.dataset.watch = data.watch || "";
      el.sitWatch.hidden = !data.watch;
      return;
    }
    localStorage.setItem(tokenKey(data.table), data.token);
    el.sitDialog.close();
    enterTable({ table: data.table, token: data.token });
  } catch {
    el.sitError.textContent = t("connectionLost");
  }
}

/** Opens a table's link: the spectator's view, or one's seat (with the kept token) or a new seat. */
function openLink(link) {
  if (link.watch) {
    enterTable({ table: link.table, watch: link.watch });
    return;
  }
  const token = localStorage.getItem(tokenKey(link.table));
  if (token) enterTable({ table: link.table, token });
  else openSit(link);
}

function openSit(link) {
  const f = el.sitForm.elements;
  f.name.value = storedName();
  nameAsIdentity(el.sitForm);
  f.seat.value = "";
  el.sitError.textContent = "";
  el.sitWatch.hidden = true;
  el.sitDialog.dataset.table = link.table;
  el.sitDialog.dataset.invite = link.invite;
  const help = el.sitDialog.querySelector('[data-testid="sit-help"]');
  help.textContent = t("sitHelp");
  for (const option of f.seat.options) option.hidden = option.disabled = false;
  if (!el.sitDialog.open) el.sitDialog.showModal();
  render();
  offerFreeSeats(link, help);
}

/** Ask the server what the invitation opens on: name the game and offer only its free seats. */
async function offerFreeSeats(link, help) {
  let found;
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(link.table)}?invite=${encodeURIComponent(link.invite)}`);
    if (!r.ok) return; // sitting down will say what is wrong
    found = await r.json();
  } catch {
    return;
  }
  if (el.sitDialog.dataset.table !== link.table) return;
  help.textContent = t("sitHelpGame", { game: t(`variant_${found.variant}`) });
  for (const option of el.sitForm.elements.seat.options) {
    const free = option.value === "" || found.free.includes(option.value);
    option.hidden = option.disabled = !free;
  }
}

function rematch() {
  const pick = el.panelBody.querySelector('[data-testid="rematch-variant"]');
  const variant = pick ? pick.value : T.game.name;
  conn.send(variant === T.game.name ? { type: "new_game" } : { type: "new_game", settings: { ...tableSettings(T, U), variant } });
}

function playAgain() {
  const name = storedName();
  if (name) playOnline(name, T.game.name);
  else openHome("online");
}

// ---------------------------------------------------------------------- the home screen
/** The home screen: play against bots (the solo settings), play online, or create a private table. */
function storedOnlineVariant() {
  return gameOf(localStorage.getItem(ONLINE_KEY)).name;
}

function storedSeating() {
  return localStorage.getItem(SEATING_KEY) === "any" ? "any" : "partners";
}

function storedCreateSettings() {
  try {
    return { ...U.settings, turn_timer: DEFAULT_SETTINGS.turn_timer, ...(JSON.parse(localStorage.getItem(CREATE_KEY)) || {}) };
  } catch {
    return { ...U.settings, turn_timer: DEFAULT_SETTINGS.turn_timer };
  }
}

function openHome(mode = "bots", error = "") {
  fillSettingsForm(el.botsForm, U.settings);
  fillSettingsForm(el.createForm, storedCreateSettings());
  fillSettingsForm(el.onlineForm, { variant: storedOnlineVariant() });
  el.onlineForm.elements.seating.value = storedSeating();
  el.langPick.value = U.settings.lang;
  fillPrefs();
  for (const form of [el.onlineForm, el.createForm]) {
    form.elements.name.value = storedName();
    nameAsIdentity(form);
  }
  el.homeError.textContent = error || "";
  showMode(mode);
  if (!el.dialog.open) el.dialog.showModal();
}

function showMode(mode) {
  for (const tab of el.dialog.querySelectorAll("[data-mode]")) tab.setAttribute("aria-selected", String(tab.dataset.mode === mode));
  for (const pane of el.dialog.querySelectorAll("[data-pane]")) pane.hidden = pane.dataset.pane !== mode;
  el.dialog.dataset.mode = mode;
  if (mode === "online") panels.loadOpenTables();
}

/**
 * With an identity, a form's name is the identity's (the server seats it under that name): the
 * field is filled and put away, and the form says under which name one plays.
 */
function nameAsIdentity(form) {
  const p = identity.player();
  const field = form.elements.name;
  const label = field.closest("label");
  let line = form.querySelector(".playing-as");
  if (!line) {
    line = document.createElement("p");
    line.className = "note playing-as";
    line.dataset.testid = "playing-as";
    label.after(line);
  }
  label.hidden = Boolean(p);
  line.hidden = !p;
  if (!p) return;
  field.value = p.name;
  line.innerHTML = t("playingAs", { handle: handleHtml(p, esc) });
}

/** A name as the server takes it: 1 to 24 characters once trimmed; null when it is not one. */
function checkName(raw) {
  const name = raw.trim().replace(/\s+/g, " ");
  return name.length >= 1 && name.length <= 24 ? name : null;
}

/** The player's preferences (flow.js), on the home screen. */
function fillPrefs() {
  const f = el.prefsForm.elements;
  f.autoNext.value = String(U.prefs.autoNext);
  f.autoPlay.checked = U.prefs.autoPlay;
  f.announce.value = U.prefs.announce;
  f.belote.value = U.prefs.belote;
}

/** A preference changed: it holds at once, at every table, and is kept for the next visit. */
function keepPrefs() {
  const f = el.prefsForm.elements;
  const chosen = { autoNext: Number(f.autoNext.value), autoPlay: f.autoPlay.checked, announce: f.announce.value, belote: f.belote.value };
  U.prefsChosen(readPrefs(JSON.stringify({ ...U.prefs, ...chosen })));
  localStorage.setItem(PREFS_KEY, JSON.stringify(U.prefs));
  render();
}

/** The page's language, chosen on the home screen, is kept for every kind of table. */
function keepLang() {
  U.langChosen(el.langPick.value);
  saveSettings();
  applyLang(U.settings.lang);
  render(); // the table under the menu (its scoreboard, its turn line) in the new language at once
}

/** Leaving a shared table for something else asks first: a bot will play the seat. */
async function mayLeave() {
  if (!(shared(T) && U.token && matchUnderway())) return true;
  return ask(t("confirmLeave"), t("leaveTable"));
}

async function onHomeSubmit(form) {
  if (form === el.botsForm) {
    const settings = { ...readSettingsForm(form), lang: el.langPick.value };
    el.dialog.close();
    if (!(await mayLeave())) return;
    startSolo(settings);
    return;
  }
  const name = checkName(form.elements.name.value);
  if (!name) {
    el.homeError.textContent = t("badName");
    return;
  }
  localStorage.setItem(NAME_KEY, name);
  keepLang();
  const variant = gameOf(form.elements.variant.value).name;
  const settings = form === el.createForm ? readSettingsForm(form) : null;
  el.dialog.close();
  if (!(await mayLeave())) return;
  if (form === el.onlineForm) {
    const seating = el.onlineForm.elements.seating.value === "any" ? "any" : "partners";
    localStorage.setItem(ONLINE_KEY, variant);
    localStorage.setItem(SEATING_KEY, seating);
    playOnline(name, variant, seating);
  } else {
    localStorage.setItem(CREATE_KEY, JSON.stringify(settings));
    createTable(name, settings);
  }
}

// ---------------------------------------------------------------------- last trick and history
function openLastTrick() {
  const tr = lastTrickShown(T);
  if (!tr) return;
  const w = wordsFor(T);
  U.lastTrick(true);
  el.lastTrickCards.innerHTML = tr.cards.map(([seat, card]) => trickCardHtml(T, w, seat, card, seat === tr.winner, "last-trick-card")).join("");
  el.lastTrickInfo.textContent = w.tsSeat("wonTrick", tr.winner, { seat: w.seatName(tr.winner), n: tr.points });
  el.lastTrick.hidden = false;
}

function closeLastTrick() {
  U.lastTrick(false);
  el.lastTrick.hidden = true;
}

/** The history drawer: the deal under way (bids, contract, declarations, tricks) or the match's score sheet. */
function openHistory(tab = "deal") {
  U.history(tab);
  renderHistory();
  if (!el.history.open) el.history.showModal();
}

function closeHistory() {
  U.history(null);
  if (el.history.open) el.history.close();
}

function renderHistory() {
  if (!U.historyTab) return;
  setHtml(el.historyBody, historyHtml(T, U.historyTab));
}

// ---------------------------------------------------------------------- drawing
function render() {
  U.placed(el.sitDialog.open);
  presence.want(!U.table && !U.queueName);
  const host = hosting();
  const key = host ? `${host.table}|${host.invite}` : "";
  if (key !== hostingKey) {
    hostingKey = key;
    panels.hostingChanged();
  }
  drawTable(el, T, U);
  drawHint(el, T, U);
  renderHistory();
  attend(myTurn(T, "bidding", U.connected) || myTurn(T, "play", U.connected)); // a hidden tab says so
  tick();
}

let hostingKey = "";

/**
 * The private lobby this page hosts with its identity, with its invitation: {table, invite}, or null.
 * Friends are invited only to a table where one's identity sits (a seat taken without it cannot).
 */
function hosting() {
  const invite = T.msg && T.msg.invite;
  if (!U.table || T.status !== "lobby" || !T.seat || T.host !== T.seat || !invite) return null;
  const mine = identity.player();
  const seat = T.players ? T.players[T.seat] : null;
  if (!mine || !seat || seat.player !== mine.id) return null;
  return { table: U.table, invite };
}

/** The identity in the header (wide screens) and in the forms that ask a name. */
function drawIdentityCorner() {
  const p = identity.player();
  el.barMe.hidden = !p;
  if (p) {
    el.barMe.href = profileUrl(p.id);
    el.barMe.innerHTML = handleHtml(p, esc);
    el.barMe.setAttribute("aria-label", t("yourProfileOf", { handle: p.handle }));
  }
  for (const form of [el.onlineForm, el.createForm, el.sitForm]) nameAsIdentity(form);
}

/** The clocks: the turn timer of the seat to move, and the queue's wait before bots fill the table. */
function tick() {
  const now = Date.now();
  const left = T.timer ? Math.max(0, Math.ceil((timerDeadline() - now) / 1000)) : 0;
  for (const node of document.querySelectorAll("[data-timer]")) {
    node.textContent = t("timeLeft", { s: left });
    node.classList.toggle("low", left <= 5);
  }
  const next = U.nextDeal.at;
  for (const node of document.querySelectorAll("[data-next-deal]")) {
    node.textContent = next === null ? "" : t("nextDealIn", { s: Math.max(0, Math.ceil((next - now) / 1000)) });
  }
  tickGone(T);
  renderQueue();
}

/** When the turn timer of the last state ends, on this page's clock. */
let timerSeen = { msg: null, at: 0 };
function timerDeadline() {
  if (timerSeen.msg !== T.msg) timerSeen = { msg: T.msg, at: Date.now() + (T.timer ? T.timer.left_ms : 0) };
  return timerSeen.at;
}

function renderMute() {
  const muted = sound.muted();
  el.muteBtn.setAttribute("aria-pressed", String(muted));
  el.muteBtn.dataset.muted = String(muted);
  el.muteBtn.setAttribute("aria-label", t(muted ? "soundOff" : "soundOn"));
  el.muteBtn.title = t(muted ? "soundOff" : "soundOn");
}

// ---------------------------------------------------------------------- input
el.hand.addEventListener("click", (ev) => {
  const card = ev.target.closest(".card");
  if (!card) return;
  if (myTurn(T, "play", U.connected)) playCard(card.dataset.card);
  else if (!U.connected && U.table) showError(t("offlineAct"));
});

el.hintBtn.addEventListener("click", () => {
  if (askHint(T, U, (m) => conn.send(m))) render();
});

el.bids.addEventListener("click", (ev) => {
  const level = ev.target.closest("[data-level]");
  if (level) {
    // Coinche: choosing a level enables the trump modes that may be bid at it.
    U.bidLevelChosen(level.dataset.level);
    render();
    return;
  }
  const b = ev.target.closest("[data-bid]");
  if (b) act(b.dataset.bid);
  const say = ev.target.closest("[data-say]");
  if (say) {
    // Announcing by hand: what the player will announce with the card it plays next.
    U.said(say.dataset.say);
    render();
  }
});

// Two hands: one's own face-up table cards are played as the cards of the hand are.
el.felt.addEventListener("click", (ev) => {
  const card = ev.target.closest('button[data-testid="table-card"]');
  if (card && T.seat && card.dataset.seat === T.seat && myTurn(T, "play", U.connected)) playCard(card.dataset.card);
});

const PANEL_ACTIONS = {
  continue: continueDeal,
  stay: () => {
    U.nextDealStopped();
    render();
  },
  "new-game": () => openHome("bots"),
  "play-again": playAgain,
  rematch,
  // A tournament's board is over: its link leads back to the tournament; "/" then opens the home screen.
  tournament: forgetTable,
  "close-panel": () => {
    T = closePanel(T);
    render();
  },
};

el.panel.addEventListener("click", (ev) => {
  const b = ev.target.closest("[data-action]");
  if (b && PANEL_ACTIONS[b.dataset.action]) PANEL_ACTIONS[b.dataset.action]();
});

el.newGame.addEventListener("click", askNewGame);
el.tournamentLink.addEventListener("click", forgetTable);
el.home.addEventListener("click", () => openHome(T.kind === "private" ? "create" : "online"));
el.takeBack.addEventListener("click", () => conn.send({ type: "back" }));
el.lastTrickBtn.addEventListener("click", () => (U.lastTrickOpen ? closeLastTrick() : openLastTrick()));
$('[data-testid="last-trick-close"]').addEventListener("click", closeLastTrick);
el.lastTrick.addEventListener("click", (ev) => {
  if (ev.target === el.lastTrick) closeLastTrick();
});
el.scoreboard.addEventListener("click", () => openHistory("match"));
el.historyBtn.addEventListener("click", () => openHistory("deal"));
el.history.addEventListener("click", (ev) => {
  const tab = ev.target.closest("[data-tab]");
  if (tab) openHistory(tab.dataset.tab);
  else if (ev.target.closest('[data-testid="history-close"]') || ev.target === el.history) closeHistory();
});
el.history.addEventListener("close", () => U.history(null));
el.muteBtn.addEventListener("click", () => {
  sound.setMuted(!sound.muted());
  renderMute();
});

// The home screen.
for (const form of [el.botsForm, el.onlineForm, el.createForm]) {
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    onHomeSubmit(form);
  });
}
el.dialog.addEventListener("click", (ev) => {
  // A tab of the modes (the dialog itself carries data-mode too: a click elsewhere is no tab's).
  const tab = ev.target.closest('[role="tab"][data-mode]');
  if (tab) {
    el.homeError.textContent = "";
    showMode(tab.dataset.mode);
  } else if (ev.target.closest('[data-role="cancel"]')) {
    el.dialog.close();
  }
});
for (const form of [el.botsForm, el.onlineForm, el.createForm]) form.addEventListener("change", () => syncSettingsForm(form));
el.prefsForm.addEventListener("change", keepPrefs);
el.prefsForm.addEventListener("submit", (ev) => ev.preventDefault());
// A language chosen is the page's at once, and kept for the next visit.
el.langPick.addEventListener("change", keepLang);
el.dialog.addEventListener("close", () => {
  if (getLang() !== U.settings.lang) applyLang(U.settings.lang);
});

// An invitation.
el.sitForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const f = el.sitForm.elements;
  const name = checkName(f.name.value);
  if (!name) {
    el.sitError.textContent = t("badName");
    return;
  }
  localStorage.setItem(NAME_KEY, name);
  sit({ table: el.sitDialog.dataset.table, invite: el.sitDialog.dataset.invite }, name, f.seat.value || null);
});
$('[data-testid="sit-cancel"]').addEventListener("click", () => {
  el.sitDialog.close();
  clearLink();
  openHome("bots");
});

// The queue.
$('[data-testid="queue-cancel"]').addEventListener("click", () => {
  leaveQueue();
  openHome("online");
});

// The lobby.
el.lobby.addEventListener("click", async (ev) => {
  const b = ev.target.closest("[data-action]");
  if (!b) return;
  if (b.dataset.action === "sit") {
    conn.send({ type: "seat", seat: b.dataset.seat });
  } else if (b.dataset.action === "copy") {
    const copied = await copyText($(`#${b.dataset.copy}`));
    b.textContent = t(copied ? "copied" : "copy");
    setTimeout(() => (b.textContent = t("copy")), 1600);
  } else if (b.dataset.action === "share") {
    const how = await shareLink(el.inviteLink, t("shareText", { game: t(`variant_${T.game.name}`) }));
    if (how === "copied") {
      b.textContent = t("copied");
      setTimeout(() => (b.textContent = t("share")), 1600);
    }
  }
});
el.lobbyForm.addEventListener("change", () => {
  syncSettingsForm(el.lobbyForm);
  conn.send({ type: "settings", settings: readSettingsForm(el.lobbyForm) });
});
el.lobbyForm.addEventListener("submit", (ev) => ev.preventDefault());
el.lobbyStart.addEventListener("click", () => conn.send({ type: "start" }));
el.lobbyLeave.addEventListener("click", () => conn.send({ type: "leave" }));
el.sitDialog.addEventListener("close", render);
el.sitWatch.addEventListener("click", () => {
  const { table, watch } = el.sitDialog.dataset;
  el.sitDialog.close();
  enterTable({ table, watch });
});

// The chat.
el.chatForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const input = el.chatForm.elements.text;
  if (sendChat(input.value)) input.value = "";
});
el.reactions.addEventListener("click", (ev) => {
  const b = ev.target.closest("[data-reaction]");
  if (b) conn.send({ type: "react", reaction: b.dataset.reaction });
});
el.chatToggle.addEventListener("click", () => toggleChat());
$('[data-testid="chat-close"]').addEventListener("click", () => toggleChat(false));

function anyDialogOpen() {
  return el.dialog.open || el.sitDialog.open || el.confirm.open || el.history.open || el.identityDialog.open || el.friendsDialog.open;
}

document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Escape") closeLastTrick();
  if (anyDialogOpen()) return;
  const tag = ev.target && ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (ev.key >= "1" && ev.key <= "8") {
    if (myTurn(T, "play", U.connected) && el.panel.hidden) {
      playIndex(Number(ev.key) - 1);
      ev.preventDefault();
    }
  } else if (ev.key === "n" || ev.key === "N") {
    // A new game is a solo table's: at a shared table the others are playing on; a tournament's
    // board is one deal, played once.
    if (shared(T) || spectating(U) || T.kind === "tournament") return;
    ev.preventDefault();
    askNewGame();
  } else if (ev.key === "l" || ev.key === "L") {
    if (U.lastTrickOpen) closeLastTrick();
    else openLastTrick();
  } else if (ev.key === "h" || ev.key === "H") {
    if (T.view) openHistory("deal");
  } else if (ev.key === "?") {
    if (askHint(T, U, (m) => conn.send(m))) render();
  } else if ((ev.key === "Enter" || ev.key === " ") && T.waiting === "continue" && !el.panel.hidden) {
    if (ev.target.closest && ev.target.closest("[data-action]")) return; // the button handles it
    ev.preventDefault();
    continueDeal();
  }
});

// Sayings and banners expire on their own; the clocks tick.
setInterval(() => {
  const now = Date.now();
  const expired =
    (U.banner && U.banner.until <= now && el.banner.innerHTML) ||
    Object.values(U.bubbles).some((b) => b.until <= now && b.until > now - 1500);
  if (expired) render();
}, 700);
setInterval(() => {
  flow(Date.now());
  tick();
}, 250);

// ---------------------------------------------------------------------- start
/** An invitation's Join: the seat taken with the identity, then the table, as an invitation link opens it. */
async function joinInvitation(inv) {
  if (!(await mayLeave())) return t("stayed");
  const link = { table: inv.table, invite: inv.invite, watch: null };
  if (el.dialog.open) el.dialog.close();
  for (const d of [el.identityDialog, el.friendsDialog]) if (d.open) d.close();
  const token = localStorage.getItem(tokenKey(link.table));
  if (token) {
    enterTable({ table: link.table, token });
    return "";
  }
  const p = identity.player();
  openSit(link);
  if (p) sit(link, p.name, null);
  return "";
}

/** An open table's Join (Play online): a seat with its invitation, under the name of the home screen. */
async function joinOpen(x) {
  const name = checkName(el.onlineForm.elements.name.value);
  if (!name) {
    el.homeError.textContent = t("badName");
    el.onlineForm.elements.name.focus();
    return;
  }
  localStorage.setItem(NAME_KEY, name);
  el.dialog.close();
  if (!(await mayLeave())) return;
  const link = { table: x.table, invite: x.invite, watch: null };
  openSit(link);
  sit(link, name, null);
}

panels.setupPanels({
  ask,
  hosting,
  refusal: (data) => refusal({ code: data.code, args: data.args, message: data.error || data.message || "" }),
  joinOpen,
});
identity.onIdentity(() => {
  drawIdentityCorner();
  chat.render(t); // a block hides (an unblock shows) a player's lines
  render();
});

/** What the page opened with for its identity: a transfer code, a friend to add, a panel to open. */
function openIdentityLinks() {
  const { transfer, friend } = identityLink(location.search);
  if (transfer || friend) history.replaceState(null, "", "/");
  if (transfer) panels.claimLink(transfer);
  else if (friend) panels.friendLinkOpened(friend);
  else if (location.hash === "#identity") panels.openIdentity();
  else if (location.hash === "#friends") panels.openFriends();
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
}

function boot() {
  applyLang(U.settings.lang);
  renderMute();
  identity.showInvitations(joinInvitation);
  identity.refresh();
  const link = readLink();
  const saved = loadTable();
  const kept = link && !link.watch && !link.invite ? localStorage.getItem(tokenKey(link.table)) : null;
  if (link && (link.watch || link.invite)) {
    openLink(link);
  } else if (kept) {
    // A table this browser holds a seat at (a tournament's board, opened by its tournament's page).
    enterTable({ table: link.table, token: kept });
  } else if (saved) {
    // A fresh page has no history: the server sends every event again.
    enterTable({ table: saved.table, token: saved.token || null, watch: saved.watch || null });
  } else {
    openHome("bots");
  }
  render();
  openIdentityLinks();
}

boot();
