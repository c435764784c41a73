// The table page (docs/protocol.md): a solo table against bots, a seat at an online or a private
// table, or a spectator's view. The server owns the game: this page shows what it is sent (a
// PlayerView and numbered public events) and sends bids, cards and table messages. Nothing here
// decides what is legal.

import { cardBack, cardFace, cardText, sortHand, suitIcon } from "./cards.js";
import { Chat, REACTIONS } from "./chat.js";
import { bidHtml, bidPanelHtml, contractHtml, contractText, lowestLevel, modeHtml, modeWord, parseBid } from "./coinche.js";
import { $, esc, setHtml } from "./dom.js";
import { browserLang, getLang, setLang, t, translatePage, ts } from "./i18n.js";
import { copyText, lobbySeatsHtml, tableLinks } from "./lobby.js";
import { pilesHtml } from "./piles.js";
import { GAMES, gameOf } from "./games.js";
import { screenPos, seatAt, SEATS, teamSeats } from "./seats.js";
import { DEFAULT_SETTINGS, fillSettingsForm, readSettingsForm, settingsFieldsHtml, syncSettingsForm, variantPickerHtml } from "./settings.js";

const STORE_KEY = "belote.table"; // the table this page is at: {table, token | watch, since}
const SETTINGS_KEY = "belote.settings"; // the solo settings and the page's language
const NAME_KEY = "belote.name";
const CREATE_KEY = "belote.create"; // the rules last chosen for a private table
const ONLINE_KEY = "belote.online"; // the game last chosen for Play online
const tokenKey = (table) => `belote.token.${table}`; // a seat token, kept under its table's id
const BUBBLE_MS = 2600;
const BANNER_MS = 2400;
const CHAT_BUBBLE_MS = 4000;
const TURNED_UP_MS = 2500; // how long a card just turned up on the table (two hands) is marked
const FLIP_MS = 450; // and how long it takes to turn

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
  scores: $('[data-testid="scores"]'),
  target: $('[data-testid="target"]'),
  contract: $('[data-testid="contract"]'),
  declarations: $('[data-testid="declarations"]'),
  spectatorBadge: $('[data-testid="spectator-badge"]'),
  // The four places around the table, by where they are on the screen (S: the bottom).
  places: Object.fromEntries(SEATS.map((pos) => [pos, $(`.felt .seat-${pos}`)])),
  trick: $('[data-testid="trick"]'),
  turned: $('[data-testid="turned"]'),
  banner: $('[data-testid="announce"]'),
  turn: $('[data-testid="turn"]'),
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
  newGame: $('[data-testid="new-game"]'),
  keys: $(".keys"),
  home: $('[data-testid="home"]'),
  dialog: $('[data-testid="settings-dialog"]'),
  botsForm: $('[data-testid="bots-form"]'),
  onlineForm: $('[data-testid="online-form"]'),
  createForm: $('[data-testid="create-form"]'),
  homeError: $('[data-testid="home-error"]'),
  langPick: $('[data-testid="settings-lang"]'),
  sitDialog: $('[data-testid="sit-dialog"]'),
  sitForm: $('[data-testid="sit-form"]'),
  sitError: $('[data-testid="sit-error"]'),
  queuePanel: $('[data-testid="queue-panel"]'),
  queueStatus: $('[data-testid="queue-status"]'),
  queueError: $('[data-testid="queue-error"]'),
  lobby: $('[data-testid="lobby"]'),
  lobbyStatus: $('[data-testid="lobby-status"]'),
  lobbySeats: $('[data-testid="lobby-seats"]'),
  lobbyForm: $('[data-testid="lobby-settings"]'),
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
};

// ---------------------------------------------------------------------- state
const S = {
  ws: null,
  joined: false,
  table: null,
  token: null, // the seat token, or null for a spectator
  watch: null, // the spectator code when watching
  last: -1, // the number of the last event seen
  msg: null, // the last "state" message
  view: null,
  kind: null, // solo | online | private
  status: null, // lobby | playing
  seat: null, // this page's seat; null for a spectator
  host: null,
  players: {},
  waiting: null,
  timer: null,
  timerDeadline: 0,
  settings: loadSettings(), // the solo settings and the page's language
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
  queueName: null, // the name given to the queue while waiting for a table
  queueVariant: GAMES[0].name, // the game asked of the queue
  queue: null, // {waiting, deadline}
  spectatorPanel: null, // the deal whose score a spectator is shown
  chatOpen: false,
  unread: 0,
  game: GAMES[0], // the game at this table (settings "variant"): its facts (games.js)
  bidLevel: null, // Coinche: the level chosen in the bid panel
  bidKey: "", // the legal bids the level was chosen for
  fresh: {}, // two hands: card -> when it was turned up
};
const chat = new Chat(el.chatLines);

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
  get seat() { return S.seat; },
  get variant() { return S.game.name; },
  get seatCount() { return S.game.players; },
  get kind() { return S.kind; },
  get status() { return S.status; },
  get host() { return S.host; },
  get players() { return S.players; },
  get timer() { return S.timer; },
  get spectator() { return spectating(); },
  get queue() { return S.queue; },
  get chat() { return chat.lines.map(({ seat, name, text, reaction }) => ({ seat, name, text, reaction })); },
};

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
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(S.settings));
}

function saveTable() {
  if (!S.table) return;
  const saved = S.token ? { table: S.table, token: S.token } : { table: S.table, watch: S.watch };
  localStorage.setItem(STORE_KEY, JSON.stringify({ ...saved, since: S.last }));
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
  if (saved && saved.table === S.table) localStorage.removeItem(STORE_KEY);
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

// ---------------------------------------------------------------------- who is who
function shared() {
  return S.kind !== null && S.kind !== "solo";
}

function spectating() {
  return Boolean(S.table) && !S.token;
}

/** The seat drawn at the bottom: one's own, or for a spectator South (East at two hands). */
function me() {
  return S.seat || S.game.bottom;
}

/** The game played at this table: from the view, or in a lobby from the table's settings. */
function variantOf(msg) {
  const rules = msg && msg.view && msg.view.rules;
  return (rules && rules.variant) || (msg && msg.settings && msg.settings.variant);
}

/** The table's seats, and the scores kept: two sides, or one per player. */
function seats() {
  return S.game.seats;
}

function teams() {
  return S.game.teams;
}

function team(seat) {
  return S.game.team(seat);
}

/** The scores in the reader's order: one's own first, then the others in the order of play. */
function teamsFromMe() {
  const mine = team(me());
  const all = teams();
  const i = Math.max(0, all.indexOf(mine));
  return [...all.slice(i), ...all.slice(0, i)];
}

/** Where a seat is drawn on this page. */
function posOf(seat) {
  return screenPos(seat, me(), S.game.players);
}

function isMe(seat) {
  return S.seat !== null && seat === S.seat;
}

/** Words about a seat, in the grammar of "you" when it is this page's seat. */
function tsSeat(key, seat, params) {
  return ts(key, isMe(seat), params);
}

function personAt(seat) {
  const p = S.players[seat];
  return p && !p.bot ? p : null;
}

/** A seat in a sentence: "You", a person's name at a shared table, else the seat ("North"). */
function seatName(seat) {
  if (isMe(seat)) return t("you");
  const person = shared() ? personAt(seat) : null;
  return person ? person.name : t(`seat${seat}`);
}

/** A seat's label at the table: the name of whoever sits there (one's own too, at a shared table). */
function labelName(seat) {
  const person = shared() ? personAt(seat) : null;
  return person ? person.name : isMe(seat) ? t("you") : t(`seat${seat}`);
}

/**
 * A side in words: "You & North", "Alice & Bob" (one's own seat first); at two and three hands a
 * score is one player's ("You", "East"), and the defenders of a three-handed deal are two ("NS").
 */
function sideName(side) {
  const members = teamSeats(side);
  if (members.length === 1) return seatName(side);
  const [a, b] = S.seat && members[1] === S.seat ? [members[1], members[0]] : members;
  return t("sideOf", { a: seatName(a), b: seatName(b) });
}

/** The score columns' heads: Us and Them for a player at four (the two sides for a spectator), else each player. */
function sideHead(side) {
  if (!S.game.partners) return isMe(side) ? t("you") : labelName(side);
  if (spectating()) return t(side === "NS" ? "sideShortNS" : "sideShortEW");
  return t(side === team(me()) ? "us" : "them");
}

/** A trump mode in words: a suit, "No trumps" or "All trumps". */
function suitWord(suit) {
  return modeWord(suit, t);
}

/** A trump mode as a symbol: the suit's shape, or a badge SA / TA. */
function suitHtml(suit) {
  return modeHtml(suit, t);
}

function declName(name) {
  return t(name);
}

/** Sets the page's language (`root`: only that part of the page, such as a dialog being filled). */
function applyLang(lang, root = document) {
  setLang(lang);
  translatePage(root);
  if (root !== document) return;
  renderReactions();
  chat.render(t);
}

function tableSettings() {
  return (S.msg && S.msg.settings) || S.settings;
}

// ---------------------------------------------------------------------- connection
function wsUrl() {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
}

/** The first message on a new socket: join the table (with the seat token or the watch code), or queue. */
function hello() {
  if (!S.table) {
    return { type: "queue", name: S.queueName, variant: S.queueVariant };
  }
  if (S.token) return { type: "join", table: S.table, token: S.token, since: S.last };
  return { type: "join", table: S.table, watch: S.watch, since: S.last };
}

function connect() {
  clearTimeout(S.retry);
  if (!S.table && !S.queueName) return;
  const ws = new WebSocket(wsUrl());
  S.ws = ws;
  S.joined = false;
  ws.addEventListener("open", () => {
    if (S.ws !== ws) return;
    ws.send(JSON.stringify(hello()));
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

/** Closes the socket for good (no reconnection): the page goes to another table or home. */
function disconnect() {
  clearTimeout(S.retry);
  const old = S.ws;
  S.ws = null;
  S.joined = false;
  if (old) old.close();
  showConnection("");
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
  switch (msg.type) {
    case "state":
      S.joined = true;
      S.backoff = 500;
      showConnection("");
      onState(msg);
      break;
    case "error":
      onError(msg);
      break;
    case "queue":
      onQueue(msg);
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
    default:
      break;
  }
}

function onError(msg) {
  S.sending = null;
  if (!S.table && S.queueName) {
    // The queue refused us (a bad name): back to the home screen, with the reason.
    S.backoff = 500;
    showConnection("");
    leaveQueue(false);
    openHome("online", msg.message);
    return;
  }
  if (!S.joined) {
    tableGone();
    return;
  }
  showError(msg.message);
  // A change of rules the server refused: the lobby shows the table's rules again.
  if (S.status === "lobby") fillSettingsForm(el.lobbyForm, tableSettings());
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
  const table = S.table;
  const link = readLink();
  if (S.token) localStorage.removeItem(tokenKey(table));
  forgetTable();
  disconnect();
  resetTable();
  S.table = null;
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
  // Who sits where comes first: the events below name the seats.
  S.kind = msg.kind || "solo";
  S.status = msg.status || "playing";
  S.seat = msg.seat ?? null;
  S.host = msg.host ?? null;
  S.players = msg.players || {};
  S.game = gameOf(variantOf(msg));
  const first = msg.events.length ? msg.events[0][0] : null;
  if (first === 0 || msg.gap) resetHistory();
  const live = S.states > 0 && first !== 0 && !msg.gap;
  for (const [n, e] of msg.events) {
    if (n <= S.last && first !== 0 && !msg.gap) continue;
    applyEvent(e, live);
    S.last = n;
  }
  if (typeof msg.last === "number" && msg.last > S.last) S.last = msg.last;
  const before = S.view;
  S.msg = msg;
  S.view = msg.view;
  S.waiting = msg.waiting;
  S.timer = msg.timer || null;
  S.timerDeadline = S.timer ? Date.now() + S.timer.left_ms : 0;
  S.sending = null;
  S.states += 1;
  if (S.kind === "solo" && msg.settings) {
    // A solo table's settings are the page's; the language stays the one this page chose last.
    S.settings = { ...S.settings, ...msg.settings, lang: S.settings.lang };
  }
  // A message refused earlier stays until something happens at the table.
  const v = msg.view;
  if (before && v && (before.hand.length !== v.hand.length || before.bids.length !== v.bids.length)) {
    showError("");
  }
  saveTable();
  render();
}

// ---------------------------------------------------------------------- queue
function onQueue(msg) {
  S.queue = { waiting: msg.waiting, deadline: Date.now() + (msg.left_ms || 0), variant: msg.variant || S.queueVariant };
  S.joined = true; // the queue answers: the socket is in use
  S.backoff = 500;
  showConnection("");
  renderQueue();
}

function onMatched(msg) {
  localStorage.setItem(tokenKey(msg.table), msg.token);
  S.queueName = null;
  S.queue = null;
  el.queuePanel.hidden = true;
  enterTable({ table: msg.table, token: msg.token });
}

function playOnline(name, variant = storedOnlineVariant()) {
  leaveTable();
  S.queueName = name;
  S.queueVariant = variant;
  S.queue = null;
  el.queueError.textContent = "";
  el.queuePanel.hidden = false;
  renderQueue();
  connect();
}

function leaveQueue(tell = true) {
  if (tell) send({ type: "leave_queue" });
  S.queueName = null;
  S.queue = null;
  el.queuePanel.hidden = true;
  disconnect();
}

function renderQueue() {
  if (el.queuePanel.hidden) return;
  const q = S.queue;
  if (!q) {
    el.queueStatus.textContent = t("connecting");
    return;
  }
  const waiting = q.waiting === 1 ? t("queueWaitingOne") : t("queueWaiting", { n: q.waiting });
  const left = Math.ceil((q.deadline - Date.now()) / 1000);
  const bots = left > 0 ? t("queueBots", { s: left }) : t("queueBotsNow");
  el.queueStatus.textContent = `${t(`variant_${q.variant}`)} · ${waiting} · ${bots}`;
}

// ---------------------------------------------------------------------- chat
function onChat(line) {
  if (!chat.add(line)) return;
  chat.render(t);
  if (line.old) return;
  if (line.seat && S.view) {
    const html = esc(line.reaction ? t(`react_${line.reaction}`) : line.text);
    bubble(line.seat, html, line.reaction ? "react" : "chat", CHAT_BUBBLE_MS);
  }
  if (!chatVisible() && !isMe(line.seat)) S.unread += 1;
  render();
}

function chatVisible() {
  return !el.chat.hidden && el.chat.offsetParent !== null;
}

function sendChat(text) {
  const line = text.trim();
  if (!line || spectating()) return false;
  return send({ type: "chat", text: line.slice(0, 200) });
}

function renderReactions() {
  el.reactions.innerHTML = REACTIONS.map(
    (r) =>
      `<button type="button" class="btn ghost reaction" data-reaction="${r}" data-testid="react-${r}" ` +
      `>${esc(t(`react_${r}`))}</button>`,
  ).join("");
}

function toggleChat(open = !S.chatOpen) {
  S.chatOpen = open;
  if (open) S.unread = 0;
  render();
  if (open) el.chatForm.elements.text.focus({ preventScroll: true });
}

// ---------------------------------------------------------------------- events
function resetHistory() {
  S.deals = [];
  S.matchOver = null;
  S.last = -1;
  S.bubbles = {};
  S.banner = null;
  S.spectatorPanel = null;
  S.fresh = {};
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
        contract: null, cards: [], tricks: [], declared: [], shown: null, result: null,
      });
      S.bubbles = {};
      S.fresh = {};
      break;
    case "dealt":
      deal.dealer = e.dealer;
      deal.turned = e.turned;
      if (e.turned) {
        log(esc(tsSeat("dealtBy", e.dealer, { n: deal.number, seat: seatName(e.dealer), card: cardText(e.turned, getLang()) })), "deal");
      } else {
        log(esc(tsSeat("dealtByAll", e.dealer, { n: deal.number, seat: seatName(e.dealer) })), "deal");
      }
      break;
    case "bid": {
      deal.bids.push([e.seat, e.bid]);
      const text = bidText(e.seat, e.bid, deal.turned);
      log(text, e.bid === "coinche" || e.bid === "surcoinche" ? "say" : "");
      if (e.bid !== "pass" && live) banner(text);
      // The second round of the games with a turned card begins once everybody has passed.
      if (S.game.turned_card && deal.bids.length === S.game.players + 1) log(esc(t("round2")));
      S.spectatorPanel = null; // the next deal is under way
      break;
    }
    case "trump":
      deal.taker = e.taker;
      deal.trump = e.trump;
      if (e.contract) {
        deal.contract = { ...e.contract, bidder: e.taker };
        log(esc(tsSeat("contractLine", e.taker, { seat: seatName(e.taker), contract: contractText(deal.contract, t) })), "say");
      }
      break;
    case "turned-up":
      // Two hands: the card under a table card played to the trick is turned face up.
      log(esc(tsSeat("turnedUp", e.seat, { seat: seatName(e.seat), card: cardText(e.card, getLang()) })));
      if (live) {
        S.fresh[e.card] = Date.now();
        setTimeout(render, TURNED_UP_MS + 30);
      }
      break;
    case "declared": {
      const what = e.declarations.map(declName).join(", ");
      const text = tsSeat("declared", e.seat, { seat: seatName(e.seat), what });
      deal.declared.push({ seat: e.seat, declarations: e.declarations });
      log(esc(text), "say");
      if (live) {
        bubble(e.seat, esc(what), "say");
        banner(esc(text));
      }
      break;
    }
    case "card":
      deal.cards.push([e.seat, e.card, e.say || null]);
      if (e.say) {
        const text = t(e.say === "belote" ? "saysBelote" : "saysRebelote", { seat: seatName(e.seat) });
        log(esc(text), "say");
        if (live) {
          bubble(e.seat, esc(t(e.say)) + "!", "say");
          banner(esc(text));
        }
      }
      break;
    case "trick": {
      const cards = deal.cards.slice(-S.game.players);
      deal.tricks.push({ winner: e.winner, points: e.points, number: e.number, cards });
      log(esc(tsSeat("wonTrick", e.winner, { seat: seatName(e.winner), n: e.points })));
      break;
    }
    case "declarations-shown":
      deal.shown = e;
      log(
        esc(
          t("declarationsShown", {
            side: sideName(e.side),
            what: e.declarations.map((d) => `${declName(d.name)} (${d.points})`).join(", "),
          }),
        ),
        "say",
      );
      break;
    case "scored":
      deal.result = e;
      log(esc(`${t("deal", { n: deal.number })}: ${dealOutcomeWord(e.outcome)} · ${teams().map((x) => e.points[x]).join(" – ")}`), "result");
      if (live) S.spectatorPanel = deal.number;
      break;
    case "match-over":
      S.matchOver = e;
      log(esc(t("matchOver")), "result");
      break;
    default:
      break;
  }
}

function bidText(seat, bid, turned) {
  if (bid === "pass") return esc(tsSeat("bidPass", seat, { seat: seatName(seat) }));
  if (bid === "coinche") return esc(t("saysCoinche", { seat: seatName(seat) }));
  if (bid === "surcoinche") return esc(t("saysSurcoinche", { seat: seatName(seat) }));
  if (parseBid(bid)) return `${esc(tsSeat("bidContract", seat, { seat: seatName(seat) }))} ${bidHtml(bid, t)}`;
  if (bid === "take") return `${esc(tsSeat("bidTake", seat, { seat: seatName(seat), suit: "" }))}${suitHtml(turned[1])}`;
  return `${esc(tsSeat("bidName", seat, { seat: seatName(seat), suit: "" }))}${suitHtml(bid)}`;
}

function outcomeWord(outcome) {
  return t({ made: "made", dedans: "dedans", litige: "litige", capot: "capot", "thrown-in": "thrownIn" }[outcome] || outcome);
}

/** A line of the table's log; `html` is already escaped where it holds text. */
function log(html, cls = "") {
  const li = document.createElement("li");
  li.innerHTML = html;
  if (cls) li.className = cls;
  el.log.append(li);
  while (el.log.childElementCount > 300) el.log.firstElementChild.remove();
  el.log.scrollTop = el.log.scrollHeight;
}

function bubble(seat, html, cls, ms = BUBBLE_MS) {
  S.bubbles[seat] = { html, cls, until: Date.now() + ms };
  setTimeout(render, ms + 30);
}

function banner(html) {
  S.banner = { html, until: Date.now() + BANNER_MS };
  setTimeout(render, BANNER_MS + 30);
}

// ---------------------------------------------------------------------- actions at the table
function act(action) {
  if (!S.view || S.sending || spectating()) return;
  if (send({ type: "act", action })) {
    S.sending = action;
    render();
  }
}

function myTurn(phase) {
  const v = S.view;
  // "others": this player has read the score and the next deal waits for the rest of the table
  return Boolean(v && S.seat && v.to_move === S.seat && v.phase === phase && !v.match_over && S.waiting !== "others");
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
  openHome("bots");
}

function showError(text) {
  el.error.textContent = text || "";
  if (text) S.errors.push(text);
}

// ---------------------------------------------------------------------- going to a table
function resetTable() {
  S.view = null;
  S.msg = null;
  S.states = 0;
  S.kind = null;
  S.status = null;
  S.seat = null;
  S.host = null;
  S.players = {};
  S.waiting = null;
  S.timer = null;
  S.sending = null;
  S.unread = 0;
  resetHistory();
  chat.clear();
  closeLastTrick();
}

/** Sits at (or watches) a table: `token` for a seat, `watch` for the spectator's view. */
function enterTable({ table, token = null, watch = null }) {
  disconnect();
  resetTable();
  S.table = table;
  S.token = token;
  S.watch = token ? null : watch;
  saveTable();
  showError("");
  showConnection(t("connecting"));
  connect();
  render();
}

/** Leaves the table this page is at; its seat token stays, so the table's link brings the player back. */
function leaveTable() {
  if (!S.table) return;
  disconnect();
  forgetTable();
  S.table = null;
  S.token = null;
  S.watch = null;
  resetTable();
  clearLink();
  render();
}

async function postJson(url, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  let data = {};
  try {
    data = await res.json();
  } catch {
    /* an answer without a body */
  }
  return { ok: res.ok, status: res.status, data };
}

async function startSolo(settings) {
  S.settings = settings;
  saveSettings();
  applyLang(settings.lang);
  showError("");
  closeLastTrick();
  if (S.kind === "solo" && send({ type: "new_game", settings })) {
    render();
    return;
  }
  try {
    const { ok, status, data } = await postJson("/api/solo", settings);
    if (!ok) {
      showError(data.error || `HTTP ${status}`);
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
      openHome("create", data.error || `HTTP ${status}`);
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
      el.sitError.textContent = [reason, data.error].filter(Boolean).join(" ") || `HTTP ${status}`;
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
  f.seat.value = "";
  el.sitError.textContent = "";
  el.sitWatch.hidden = true;
  el.sitDialog.dataset.table = link.table;
  el.sitDialog.dataset.invite = link.invite;
  const help = el.sitDialog.querySelector('[data-testid="sit-help"]');
  help.textContent = t("sitHelp");
  for (const option of f.seat.options) option.hidden = option.disabled = false;
  if (!el.sitDialog.open) el.sitDialog.showModal();
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
  const variant = pick ? pick.value : S.game.name;
  send(variant === S.game.name ? { type: "new_game" } : { type: "new_game", settings: { ...tableSettings(), variant } });
}

function playAgain() {
  const name = storedName();
  if (name) playOnline(name, S.game.name);
  else openHome("online");
}

// ---------------------------------------------------------------------- the home screen
/** The home screen: play against bots (the solo settings), play online, or create a private table. */
function storedOnlineVariant() {
  return gameOf(localStorage.getItem(ONLINE_KEY)).name;
}

function storedCreateSettings() {
  try {
    return { ...S.settings, turn_timer: DEFAULT_SETTINGS.turn_timer, ...(JSON.parse(localStorage.getItem(CREATE_KEY)) || {}) };
  } catch {
    return { ...S.settings, turn_timer: DEFAULT_SETTINGS.turn_timer };
  }
}

function openHome(mode = "bots", error = "") {
  fillSettingsForm(el.botsForm, S.settings);
  fillSettingsForm(el.createForm, storedCreateSettings());
  fillSettingsForm(el.onlineForm, { variant: storedOnlineVariant() });
  el.langPick.value = S.settings.lang;
  for (const form of [el.onlineForm, el.createForm]) form.elements.name.value = storedName();
  el.homeError.textContent = error || "";
  showMode(mode);
  if (!el.dialog.open) el.dialog.showModal();
}

function showMode(mode) {
  for (const tab of el.dialog.querySelectorAll("[data-mode]")) tab.setAttribute("aria-selected", String(tab.dataset.mode === mode));
  for (const pane of el.dialog.querySelectorAll("[data-pane]")) pane.hidden = pane.dataset.pane !== mode;
  el.dialog.dataset.mode = mode;
}

/** A name as the server takes it: 1 to 24 characters once trimmed; null when it is not one. */
function checkName(raw) {
  const name = raw.trim().replace(/\s+/g, " ");
  return name.length >= 1 && name.length <= 24 ? name : null;
}

/** The page's language, chosen on the home screen, is kept for every kind of table. */
function keepLang() {
  S.settings = { ...S.settings, lang: el.langPick.value };
  saveSettings();
  applyLang(S.settings.lang);
}

/** Leaving a shared table for something else asks first: a bot will play the seat. */
function mayLeave() {
  return !(shared() && S.token && matchUnderway()) || window.confirm(t("confirmLeave"));
}

function onHomeSubmit(form) {
  if (form === el.botsForm) {
    if (!mayLeave()) return;
    el.dialog.close();
    startSolo({ ...readSettingsForm(form), lang: el.langPick.value });
    return;
  }
  const name = checkName(form.elements.name.value);
  if (!name) {
    el.homeError.textContent = t("badName");
    return;
  }
  if (!mayLeave()) return;
  localStorage.setItem(NAME_KEY, name);
  keepLang();
  el.dialog.close();
  if (form === el.onlineForm) {
    const variant = gameOf(form.elements.variant.value).name;
    localStorage.setItem(ONLINE_KEY, variant);
    playOnline(name, variant);
  } else {
    const settings = readSettingsForm(form);
    localStorage.setItem(CREATE_KEY, JSON.stringify(settings));
    createTable(name, settings);
  }
}

// ---------------------------------------------------------------------- last trick
function lastTrickShown() {
  // The trick most recently completed in this deal (or in the deal just scored).
  const v = S.view;
  if (!v) return null;
  if (v.tricks.length) return { ...v.tricks[v.tricks.length - 1], cards: trickSeats(v.tricks[v.tricks.length - 1]) };
  const scored = lastScoredDeal();
  if (scored && scored.tricks.length && (S.waiting === "continue" || S.spectatorPanel === scored.number)) {
    const tr = scored.tricks[scored.tricks.length - 1];
    return { winner: tr.winner, points: tr.points, cards: tr.cards };
  }
  return null;
}

function trickSeats(trick) {
  // A completed trick from the view: the leader, then the others in the order of play (the view's).
  const order = S.view.order;
  const start = order.indexOf(trick.leader);
  return trick.cards.map((c, i) => [order[(start + i) % order.length], c]);
}

function openLastTrick() {
  const tr = lastTrickShown();
  if (!tr) return;
  S.lastTrickOpen = true;
  el.lastTrickCards.innerHTML = tr.cards
    .map(([seat, card]) => trickCardHtml(seat, card, seat === tr.winner, "last-trick-card"))
    .join("");
  el.lastTrickInfo.textContent = tsSeat("wonTrick", tr.winner, { seat: seatName(tr.winner), n: tr.points });
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
    `<div class="trick-card pos-${posOf(seat)}${winner ? " winner" : ""}" data-testid="${testid}" data-seat="${seat}" ` +
    `data-card="${card}" title="${esc(seatName(seat))}">${cardFace(card, getLang())}</div>`
  );
}

/** The cards a seat holds in hand, as the server counts them (at two hands, not its table cards). */
function handCount(seat, v) {
  if (isMe(seat)) return v.hand.length;
  return v.hand_sizes[seat] ?? 0;
}

function render() {
  const v = S.view;
  const now = Date.now();
  const betweenDeals = S.waiting === "continue";

  renderChrome();
  renderScores(v);
  el.lastTrickBtn.disabled = !lastTrickShown();
  renderContract(v, betweenDeals);
  for (const pos of SEATS) renderPlace(pos, v, now, betweenDeals);
  renderCenter(v, betweenDeals);
  renderHand(v, betweenDeals);
  renderBids(v, betweenDeals);
  renderTurn(v, betweenDeals);
  renderPanel(v);
  renderLobby();
  setHtml(el.banner, S.banner && S.banner.until > now ? S.banner.html : "");
  tick();
}

/** What the page offers around the table: its buttons, the chat, the spectator's badge. */
function renderChrome() {
  const sharedTable = shared();
  const watching = spectating() && S.table !== null;
  el.app.dataset.players = String(S.game.players);
  el.app.dataset.variant = S.game.name;
  el.newGame.hidden = sharedTable || watching;
  el.home.hidden = !(sharedTable || watching);
  el.app.classList.toggle("shared", sharedTable);
  el.app.classList.toggle("spectating", watching);
  el.app.classList.toggle("chat-open", sharedTable && S.chatOpen);
  el.spectatorBadge.hidden = !watching;
  // N starts a new game only at a solo table: at a shared one the others play on.
  el.keys.dataset.i18n = sharedTable ? "keysHelpShared" : "keysHelp";
  el.keys.textContent = t(el.keys.dataset.i18n);
  el.chat.hidden = !sharedTable;
  el.chatToggle.hidden = !sharedTable;
  el.chatForm.hidden = watching;
  el.reactions.hidden = watching;
  el.chatReadOnly.hidden = !watching;
  el.chatUnread.hidden = S.unread === 0;
  el.chatUnread.textContent = String(S.unread);
  const mine = S.seat && S.players[S.seat];
  el.takeBack.hidden = !(mine && mine.standin);
}

function renderScores(v) {
  // The reader's score first (Us, or You), then the others in the order of play.
  const html = teamsFromMe()
    .map(
      (x, i) =>
        `<div class="side ${i === 0 ? "side-us" : "side-them"}" data-team="${x}"><span class="side-name">${esc(sideHead(x))}</span> ` +
        `<b data-testid="score-${x}">${v ? v.score[x] ?? 0 : 0}</b></div>`,
    )
    .join("");
  setHtml(el.scores, html);
  const s = tableSettings();
  el.target.textContent = v
    ? s.deals
      ? t("targetDeals", { n: Math.min(v.deal_number, s.deals), m: s.deals })
      : t("target", { n: s.target })
    : "";
}

function renderContract(v, betweenDeals) {
  for (const name of ["trump", "taker", "contract", "multiplier"]) el.contract.removeAttribute(`data-${name}`);
  if (!v || betweenDeals) {
    setHtml(el.contract, "");
    setHtml(el.declarations, "");
    return;
  }
  const deal = currentDeal();
  if (v.trump) {
    const tricks = teamsFromMe().map((x) => trickCount(v, x)).join("–");
    const head = v.contract
      ? `<span class="trump-chip contract-chip">${contractHtml(v.contract, t)}</span>` +
        `<span>${esc(tsSeat("bidBy", v.taker, { seat: seatName(v.taker) }))}</span>`
      : `<span class="trump-chip">${suitHtml(v.trump)}${esc(t("trumps"))}</span>` +
        `<span>${esc(tsSeat("takenBy", v.taker, { seat: seatName(v.taker) }))}</span>`;
    setHtml(el.contract, `${head}<span class="tricks-won" data-testid="tricks-won">${esc(t("tricks"))} ${tricks}</span>`);
    el.contract.dataset.trump = v.trump;
    el.contract.dataset.taker = v.taker;
    if (v.contract) {
      el.contract.dataset.contract = `${v.contract.level}${v.contract.mode}`;
      el.contract.dataset.multiplier = String(v.contract.multiplier);
    }
  } else if (S.game.contracts) {
    // The auction: the highest bid so far, and who bid it.
    const standing = v.contract
      ? `<span class="trump-chip contract-chip">${contractHtml(v.contract, t)}</span>` +
        `<span>${esc(tsSeat("bidBy", v.contract.bidder, { seat: seatName(v.contract.bidder) }))}</span>`
      : `<span>${esc(t("noBidYet"))}</span>`;
    setHtml(el.contract, `<span>${esc(t("deal", { n: v.deal_number }))}</span>${standing}`);
    if (v.contract) {
      el.contract.dataset.contract = `${v.contract.level}${v.contract.mode}`;
      el.contract.dataset.multiplier = String(v.contract.multiplier);
    }
  } else if (v.turned) {
    const round = v.bids.length >= S.game.players ? 2 : 1;
    setHtml(
      el.contract,
      `<span>${esc(t("deal", { n: v.deal_number }))}</span>` +
      `<span class="trump-chip">${esc(t("turned"))} ${esc(cardText(v.turned, getLang()))}</span>` +
      (round === 2 ? `<span>${esc(t("round2"))}</span>` : ""),
    );
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
  return v.tricks.filter((tr) => team(tr.winner) === side).length;
}

/** One place around the table: the seat drawn there, or nothing where nobody sits in this game. */
function renderPlace(pos, v, now, betweenDeals) {
  const box = el.places[pos];
  const seat = seatAt(pos, me(), S.game.players);
  box.classList.toggle("vacant", !seat);
  if (!seat) {
    box.dataset.seat = "";
    box.dataset.testid = `place-${pos}`;
    for (const part of seatParts(box)) setHtml(part, "");
    box.classList.remove("to-move");
    return;
  }
  renderSeat(seat, box, v, now, betweenDeals);
}

/**
 * A place's two parts: the player (name, backs, bubble) and the cards on its table (two hands).
 * Each is drawn on its own, so that a bubble coming and going leaves the table cards (and a card
 * being turned up) alone. Both are laid out as the place's own children (display: contents).
 */
function seatParts(box) {
  if (!box.firstElementChild) box.innerHTML = `<div class="seat-body"></div><div class="seat-table"></div>`;
  return [box.firstElementChild, box.lastElementChild];
}

/** One seat: the name, marks, the cards held (backs), the cards on its table (two hands), a bubble. */
function renderSeat(seat, box, v, now, betweenDeals) {
  box.dataset.seat = seat;
  box.dataset.testid = `seat-${seat}`;
  const [body, table] = seatParts(box);
  if (!v) {
    setHtml(body, "");
    setHtml(table, "");
    box.classList.remove("to-move");
    return;
  }
  let html = seatLabelHtml(seat, v, betweenDeals) + seatMarksHtml(seat);
  if (!isMe(seat)) {
    const n = betweenDeals ? 0 : handCount(seat, v);
    const backs = Array.from({ length: n }, () => `<div class="back">${cardBack()}</div>`).join("");
    html += `<div class="backs" data-count="${n}">${backs}</div>`;
  }
  html += seatBubbleHtml(seat, v, now, betweenDeals);
  setHtml(body, html);
  let piles = "";
  if (v.table && v.table[seat] && !betweenDeals) {
    const turn = isMe(seat) && myTurn("play");
    piles = pilesHtml({
      seat,
      piles: v.table[seat],
      own: isMe(seat),
      turn,
      legal: new Set(turn ? v.legal : []),
      sending: S.sending,
      fresh: new Set(Object.keys(S.fresh).filter((c) => now - S.fresh[c] < TURNED_UP_MS)),
      flipping: new Set(Object.keys(S.fresh).filter((c) => now - S.fresh[c] < FLIP_MS)),
      lang: getLang(),
    });
  }
  setHtml(table, piles);
  box.classList.toggle("to-move", !betweenDeals && v.to_move === seat && !v.match_over);
}

function seatLabelHtml(seat, v, betweenDeals) {
  const chips = [];
  if (!betweenDeals && v.dealer === seat) chips.push(`<span class="chip dealer" title="${esc(t("dealer"))}">D</span>`);
  if (!betweenDeals && v.taker === seat && v.trump) {
    const what = v.contract ? bidHtml(`${v.contract.level}${v.contract.mode}`, t) : suitHtml(v.trump);
    chips.push(`<span class="chip taker">${what}</span>`);
  }
  const p = S.players[seat];
  if (shared() && p && p.bot) chips.push(`<span class="chip bot" data-testid="bot-${seat}">${esc(t("bot"))}</span>`);
  // One's own clock is in the turn line, next to what to do.
  if (S.timer && S.timer.seat === seat && !isMe(seat)) chips.push(`<span class="chip timer" data-testid="timer-${seat}" data-timer></span>`);
  let role = "";
  if (S.seat && seat === S.game.partner(S.seat)) role = `<span class="role">${esc(t("partner"))}</span>`;
  else if (S.game.defendersAlly && S.seat && v.trump && !betweenDeals && ![S.seat, v.taker].includes(seat) && S.seat !== v.taker) {
    // Three hands: the two defenders play together against the taker for this deal.
    role = `<span class="role" data-testid="ally-${seat}">${esc(t("ally"))}</span>`;
  } else if (shared() && isMe(seat)) role = `<span class="role">${esc(t("youMark"))}</span>`;
  return (
    `<div class="seat-label" data-testid="seat-label-${seat}"><span class="name" data-testid="name-${seat}">` +
    `${esc(labelName(seat))}</span>${role}${chips.join("")}</div>`
  );
}

/** A visible mark when a bot plays for a person who is away. */
function seatMarksHtml(seat) {
  const p = S.players[seat];
  if (!p || !p.standin) return "";
  const text = isMe(seat) ? t("standinYou") : t("standin", { name: p.name });
  return `<div class="standin" data-testid="standin-${seat}">${esc(text)}</div>`;
}

/** The bubble: a chat line, a reaction or a saying, or this seat's latest bid while the bidding lasts. */
function seatBubbleHtml(seat, v, now, betweenDeals) {
  const b = S.bubbles[seat];
  if (b && b.until > now && (!betweenDeals || b.cls === "chat" || b.cls === "react")) {
    return `<div class="bubble ${b.cls}" data-testid="bubble-${seat}">${b.html}</div>`;
  }
  if (betweenDeals || v.phase !== "bidding") return "";
  const mine = v.bids.filter(([s]) => s === seat);
  if (!mine.length) return "";
  const bid = mine[mine.length - 1][1];
  let text;
  if (S.game.contracts) text = bidHtml(bid, t);
  else if (bid === "pass") text = esc(t("passed"));
  else if (bid === "take") text = `${esc(t("took"))} ${suitHtml(v.turned[1])}`;
  else text = `${esc(t("names"))} ${suitHtml(bid)}`;
  const cls = bid === "pass" ? "pass" : bid === "coinche" || bid === "surcoinche" ? "say doubled" : "say";
  return `<div class="bubble ${cls}" data-testid="bubble-${seat}" data-bid="${esc(bid)}">${text}</div>`;
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
      const full = tsSeat("wonTrick", tr.winner, { seat: seatName(tr.winner), n: tr.points });
      info = `<div class="trick-info" title="${esc(full)}">${esc(seatName(tr.winner))} +${tr.points}</div>`;
    }
  }
  el.trick.classList.toggle("done", done);
  placeTrick(el.trick, cards, winner, info);
}

/** Put the cards of a trick on the table, keeping those already there (so only a new card moves in). */
function placeTrick(box, cards, winner, info) {
  const lang = getLang();
  const keys = cards.map(([seat, card]) => `${seat}${card}${lang}${me()}${S.game.players}`);
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
  if (!v || betweenDeals || !S.seat) {
    el.hand.innerHTML = "";
    el.hand.dataset.key = "";
    el.hand.classList.remove("my-turn");
    return;
  }
  const mine = myTurn("play");
  const legal = new Set(mine ? v.legal : []);
  const cards = sortHand(v.hand, v.trump);
  const key = `${cards.join(",")}|${[...legal].join(",")}|${mine}|${S.sending}|${getLang()}`;
  el.hand.classList.toggle("my-turn", mine);
  el.hand.classList.toggle("waiting", !mine);
  el.hand.style.setProperty("--n", String(Math.max(cards.length, 2)));
  if (el.hand.dataset.key === key) return;
  el.hand.dataset.key = key;
  el.hand.innerHTML = cards
    .map((c, i) => {
      const ok = legal.has(c);
      const cls = ["card", mine ? (ok ? "legal" : "illegal") : "", S.sending === c ? "sending" : ""].join(" ");
      return (
        `<button type="button" class="${cls.trim()}" data-testid="hand-card" data-card="${c}" data-legal="${ok}" ` +
        `data-index="${i + 1}" aria-label="${esc(cardText(c, getLang()))}" title="${i + 1}">${cardFace(c, getLang())}</button>`
      );
    })
    .join("");
}

function renderBids(v, betweenDeals) {
  const mine = !betweenDeals && myTurn("bidding");
  if (mine && S.game.contracts) {
    renderCoincheBids(v);
    return;
  }
  const key = mine ? v.legal.join(",") + getLang() + S.sending : "";
  if (el.bids.dataset.key === key) return;
  el.bids.dataset.key = key;
  el.bids.classList.remove("coinche");
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

/** Coinche: the bid panel, its level chosen afresh (the lowest one open) at each turn to bid. */
function renderCoincheBids(v) {
  const legalKey = `${v.deal_number}|${v.bids.length}|${v.legal.join(",")}`;
  if (S.bidKey !== legalKey) {
    S.bidKey = legalKey;
    S.bidLevel = lowestLevel(v.legal, v.rules);
  }
  const key = `coinche|${legalKey}|${S.bidLevel}|${getLang()}|${S.sending}`;
  if (el.bids.dataset.key === key) return;
  el.bids.dataset.key = key;
  el.bids.classList.add("coinche");
  el.bids.innerHTML = bidPanelHtml({
    legal: v.legal,
    rules: v.rules,
    contract: v.contract || null,
    bidderName: v.contract ? tsSeat("bidBy", v.contract.bidder, { seat: seatName(v.contract.bidder) }) : "",
    level: S.bidLevel,
    sending: S.sending,
    t,
  });
}

function turnText(v, betweenDeals) {
  if (S.status === "lobby") return { text: "" }; // the lobby says who starts the game
  if (!v) return { text: S.table ? t("connecting") : t("pressNew") };
  if (betweenDeals || v.match_over) return { text: "" };
  if (S.seat && (S.waiting === "others" || (!S.waiting && S.timer && S.timer.seat === null))) {
    return { text: t("waitingOthers") };
  }
  if (isMe(v.to_move)) {
    let key;
    if (v.phase === "play") key = "yourTurnPlay";
    else if (S.game.contracts) {
      // Name only what the player may do now: coinche is there only against the other side's contract.
      key = v.legal.includes("surcoinche")
        ? "yourTurnSurcoinche"
        : v.legal.includes("coinche")
          ? "yourTurnCoinche"
          : "yourTurnContract";
    }
    else key = v.bids.length >= S.game.players ? "yourTurnName" : "yourTurnBid";
    return { text: t(key), mine: true };
  }
  if (v.to_move) return { text: t(v.phase === "play" ? "waitingFor" : "waitingBid", { seat: seatName(v.to_move) }) };
  return { text: "" };
}

function renderTurn(v, betweenDeals) {
  const { text, mine = false } = turnText(v, betweenDeals);
  const timer = mine && S.timer && S.timer.seat === S.seat ? ` <span class="chip timer" data-timer></span>` : "";
  setHtml(el.turn, esc(text) + timer);
  el.turn.classList.toggle("mine", mine);
  el.turn.dataset.mine = String(mine);
}

/** The score of a deal: for a player while the table waits to go on, for a spectator until closed. */
function panelShown(v) {
  if (!v) return false;
  if (S.waiting === "continue" || v.match_over) return true;
  const deal = lastScoredDeal();
  return spectating() && deal !== null && S.spectatorPanel === deal.number;
}

function renderPanel(v) {
  const deal = panelShown(v) ? lastScoredDeal() : null;
  if (!deal) {
    el.panel.hidden = true;
    el.panel.dataset.key = "";
    return;
  }
  const key = `${deal.number}|${S.waiting}|${v.match_over}|${getLang()}|${S.sending}|${S.host}|${S.seat}`;
  if (el.panel.dataset.key === key && !el.panel.hidden) return;
  el.panel.dataset.key = key;
  el.panelBody.innerHTML = panelHtml(v, deal);
  el.panel.hidden = false;
  const button = el.panelBody.querySelector(".btn.primary");
  if (button) button.focus({ preventScroll: true });
}

/** What a deal's outcome is called: in Coinche a contract that fails is "Failed" (chuté). */
function dealOutcomeWord(outcome) {
  return S.game.contracts && outcome === "dedans" ? t("failed") : outcomeWord(outcome);
}

function panelHtml(v, deal) {
  const r = deal.result;
  const outcome = r.outcome;
  const cols = teamsFromMe();
  let html = `<h2>${esc(t("deal", { n: deal.number }))}<span class="outcome ${outcome}" data-testid="outcome" data-outcome="${outcome}">${esc(dealOutcomeWord(outcome))}</span></h2>`;
  const row = (label, by, cls = "", testid = "") =>
    `<tr class="${cls}"${testid ? ` data-testid="${testid}"` : ""}><td>${label}</td>${cols.map((x) => `<td>${by(x)}</td>`).join("")}</tr>`;
  if (outcome === "thrown-in") {
    html += `<p>${esc(t(S.game.contracts ? "thrownInCoinche" : "thrownInLong"))}</p>`;
    html += `<table class="sheet"><tbody>${row(esc(t("matchScore")), (x) => v.score[x], "score", "row-score")}</tbody></table>`;
  } else {
    const taker = seatName(deal.taker);
    const takers = team(deal.taker);
    const contract = r.contract || deal.contract;
    if (contract) {
      const sentence = {
        made: tsSeat("coincheMadeLong", deal.taker, { seat: taker }),
        dedans: tsSeat("coincheFailedLong", deal.taker, { seat: taker }),
        litige: tsSeat("coincheMadeLong", deal.taker, { seat: taker }),
        capot: capotWords(r.capot || takers),
      }[outcome];
      html +=
        `<p class="contract-result" data-testid="panel-contract" data-contract="${contract.level}${contract.mode}" ` +
        `data-multiplier="${contract.multiplier}">${esc(t("contract"))} ${contractHtml(contract, t)} · ` +
        `${esc(tsSeat("bidBy", deal.taker, { seat: taker }))}</p>` +
        `<p data-testid="outcome-text">${esc(sentence)}</p>`;
    } else {
      const suit = suitWord(deal.trump);
      const sentence = {
        made: tsSeat("madeLong", deal.taker, { seat: taker, suit }),
        dedans: tsSeat("dedansLong", deal.taker, { seat: taker, suit }),
        litige: tsSeat("litigeLong", deal.taker, { seat: taker, suit, n: r.cards[takers] }),
        capot: capotWords(r.capot || takers),
      }[outcome];
      html += `<p data-testid="outcome-text">${suitHtml(deal.trump)} ${esc(sentence)}</p>`;
    }
    const last = deal.tricks[deal.tricks.length - 1];
    const lastSide = last ? team(last.winner) : null;
    const tricks = Object.fromEntries(teams().map((x) => [x, 0]));
    for (const tr of deal.tricks) tricks[team(tr.winner)] += 1;
    const dix = (side) => (lastSide === side ? 10 : 0);
    const shown = deal.shown
      ? deal.shown.declarations.map((d) => `${esc(seatName(d.seat))}: ${esc(declName(d.name))} ${d.points}`).join(", ")
      : "";
    // The reader's score in the first column, as on the scoreboard.
    html +=
      `<table class="sheet" data-testid="deal-sheet"><thead><tr><th></th>${cols.map((x) => `<th data-team="${x}">${esc(sideName(x))}</th>`).join("")}</tr></thead><tbody>` +
      row(esc(t("tricks")), (s) => tricks[s], "", "row-tricks") +
      row(esc(t("cards")), (s) => r.cards[s] - dix(s), "", "row-cards") +
      row(esc(t("lastTrickLine")), (s) => dix(s) || "", "", "row-last") +
      row(esc(t("declarations")), (s) => r.declarations[s] || "", "", "row-declarations") +
      row(esc(t("beloteRebelote")), (s) => r.belote[s] || "", "", "row-belote") +
      row(esc(t("added")), (s) => `+${r.points[s]}`, "strong", "row-added") +
      row(esc(t("matchScore")), (s) => v.score[s], "score", "row-score") +
      `</tbody></table>`;
    if (shown) html += `<p class="note">${esc(t("declarations"))}: ${shown}</p>`;
  }
  if (r.pending) html += `<p class="note" data-testid="pending">${esc(t("pending", { n: r.pending }))}</p>`;
  const s = tableSettings();
  html += `<p class="note" data-testid="panel-target">${esc(
    s.deals ? t("targetDeals", { n: Math.min(deal.number, s.deals), m: s.deals }) : t("target", { n: s.target }),
  )}</p>`;
  if (v.match_over) html += winnerHtml(v);
  html += historyHtml(deal);
  html += `<div class="panel-buttons">${panelButtonsHtml(v)}</div>`;
  return html;
}

/** "Capot! North & South took every trick", or one player alone at two and three hands. */
function capotWords(side) {
  return teamSeats(side).length === 1
    ? tsSeat("capotLongOne", side, { side: sideName(side) })
    : t("capotLong", { side: sideName(side) });
}

function winnerHtml(v) {
  const w = v.match_winner;
  let line;
  if (!w) {
    line = t("winnerTie", { a: v.score[teams()[0]] });
  } else {
    const a = v.score[w];
    const b = teams()
      .filter((x) => x !== w)
      .map((x) => v.score[x])
      .join(" – ");
    if (S.game.partners && S.seat && team(S.seat) === w) line = t("winnerUs", { partner: seatName(S.game.partner(S.seat)), a, b });
    else if (S.game.partners) line = t("winnerSide", { side: sideName(w), a, b });
    else if (isMe(w)) line = t("winnerYou", { a, b });
    else line = t("winnerPlayer", { side: sideName(w), a, b });
  }
  return `<p class="winner-line" data-testid="match-winner" data-winner="${w || ""}">${esc(t("matchOver"))}: ${esc(line)}</p>`;
}

/** What the reader can do once the score is read: go on, or after the match, play again. */
function panelButtonsHtml(v) {
  const button = (action, testid, text) =>
    `<button type="button" class="btn primary" data-testid="${testid}" data-action="${action}">${text}</button>`;
  if (S.waiting === "continue") {
    const timer = S.timer && S.timer.seat === null ? ` <span class="timer-inline" data-timer></span>` : "";
    return button("continue", "continue", esc(t("continue")) + timer);
  }
  if (spectating()) return button("close-panel", "panel-close", esc(t("close")));
  if (!v.match_over) return "";
  if (S.kind === "solo") return button("new-game", "panel-new-game", esc(t("newGame")));
  if (S.kind === "online") return button("play-again", "play-again", esc(t("playAgain")));
  if (isMe(S.host)) {
    // The host may play the next match at another game: the server seats the people for it.
    const games = GAMES.map(
      ({ name }) => `<option value="${name}"${name === S.game.name ? " selected" : ""}>${esc(t(`variant_${name}`))}</option>`,
    ).join("");
    return (
      `<label class="rematch-game"><span>${esc(t("nextGame"))}</span><select data-testid="rematch-variant">${games}</select></label>` +
      button("rematch", "panel-rematch", esc(t("newMatch")))
    );
  }
  return `<p class="note" data-testid="wait-host">${esc(t("waitHostNewMatch"))}</p>`;
}

function historyHtml(current) {
  const cols = teamsFromMe();
  const rows = [];
  for (const d of S.deals) {
    if (!d.result) continue;
    const after = (s) => d.scoreBefore[s] + d.result.points[s];
    const c = d.result.contract || d.contract;
    let contract = "—";
    if (c) contract = `${esc(seatName(d.taker))} ${contractHtml(c, t)}`;
    else if (d.trump) contract = `${esc(seatName(d.taker))} ${suitHtml(d.trump)}`;
    rows.push(
      `<tr class="${d === current ? "current" : ""}"><td>${d.number}</td><td>${contract}</td>` +
        `<td>${esc(dealOutcomeWord(d.result.outcome))}</td>${cols.map((x) => `<td>+${d.result.points[x]}</td>`).join("")}` +
        `<td>${cols.map(after).join(" – ")}</td></tr>`,
    );
  }
  return (
    `<h3>${esc(t("history"))}</h3><table class="sheet history" data-testid="history"><thead><tr>` +
    `<th>${esc(t("historyDeal"))}</th><th>${esc(t("historyContract"))}</th><th>${esc(t("historyResult"))}</th>` +
    `${cols.map((x) => `<th>${esc(sideHead(x))}</th>`).join("")}<th>${esc(t("total"))}</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
  );
}

/** A private table's lobby: the links, the seats, the rules (the host edits them) and Start. */
function renderLobby() {
  const open = Boolean(S.table) && S.status === "lobby";
  el.app.classList.toggle("in-lobby", open);
  el.lobby.hidden = !open;
  if (!open) return;
  const host = S.host;
  const isHost = isMe(host);
  const hostName = host && S.players[host] ? S.players[host].name : t("host");
  el.lobbyStatus.textContent = isHost ? t("lobbyHost") : t("lobbyWaitHost", { name: hostName });
  const links = tableLinks(S.table, S.msg && S.msg.invite, S.msg && S.msg.watch);
  el.links.hidden = !links.invite && !links.watch;
  el.inviteLink.value = links.invite;
  el.watchLink.value = links.watch;
  setHtml(el.lobbySeats, lobbySeatsHtml({ me: S.seat, players: S.players, host, t, game: S.game }));
  el.lobbySeats.dataset.players = String(S.game.players);
  el.lobbyForm.querySelector("fieldset").disabled = !isHost;
  // The host's own edits are not overwritten while a field is in use.
  if (!el.lobbyForm.contains(document.activeElement) || !isHost) fillSettingsForm(el.lobbyForm, tableSettings());
  el.lobbyStart.hidden = !isHost;
  el.lobbyLeave.hidden = isHost || !S.token;
}

/** The clocks: the turn timer of the seat to move, and the queue's wait before bots fill the table. */
function tick() {
  const left = S.timer ? Math.max(0, Math.ceil((S.timerDeadline - Date.now()) / 1000)) : 0;
  for (const node of document.querySelectorAll("[data-timer]")) {
    node.textContent = t("timeLeft", { s: left });
    node.classList.toggle("low", left <= 5);
  }
  renderQueue();
}

// ---------------------------------------------------------------------- input
el.hand.addEventListener("click", (ev) => {
  const card = ev.target.closest(".card");
  if (card && myTurn("play")) act(card.dataset.card);
});

el.bids.addEventListener("click", (ev) => {
  const level = ev.target.closest("[data-level]");
  if (level) {
    // Coinche: choosing a level enables the trump modes that may be bid at it.
    S.bidLevel = level.dataset.level;
    render();
    return;
  }
  const b = ev.target.closest("[data-bid]");
  if (b) act(b.dataset.bid);
});

// Two hands: one's own face-up table cards are played as the cards of the hand are.
$(".felt").addEventListener("click", (ev) => {
  const card = ev.target.closest('button[data-testid="table-card"]');
  if (card && isMe(card.dataset.seat) && myTurn("play")) act(card.dataset.card);
});

const PANEL_ACTIONS = {
  continue: continueDeal,
  "new-game": () => openHome("bots"),
  "play-again": playAgain,
  rematch,
  "close-panel": () => {
    S.spectatorPanel = null;
    render();
  },
};

el.panel.addEventListener("click", (ev) => {
  const b = ev.target.closest("[data-action]");
  if (b && PANEL_ACTIONS[b.dataset.action]) PANEL_ACTIONS[b.dataset.action]();
});

el.newGame.addEventListener("click", askNewGame);
el.home.addEventListener("click", () => openHome(S.kind === "private" ? "create" : "online"));
el.takeBack.addEventListener("click", () => send({ type: "back" }));
el.lastTrickBtn.addEventListener("click", () => (S.lastTrickOpen ? closeLastTrick() : openLastTrick()));
$('[data-testid="last-trick-close"]').addEventListener("click", closeLastTrick);
el.lastTrick.addEventListener("click", (ev) => {
  if (ev.target === el.lastTrick) closeLastTrick();
});

// The home screen.
for (const form of [el.botsForm, el.onlineForm, el.createForm]) {
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    onHomeSubmit(form);
  });
}
el.dialog.addEventListener("click", (ev) => {
  const tab = ev.target.closest("[data-mode]");
  if (tab) {
    el.homeError.textContent = "";
    showMode(tab.dataset.mode);
  } else if (ev.target.closest('[data-role="cancel"]')) {
    el.dialog.close();
  }
});
for (const form of [el.botsForm, el.onlineForm, el.createForm]) form.addEventListener("change", () => syncSettingsForm(form));
// A language chosen is the page's at once, and kept for the next visit.
el.langPick.addEventListener("change", keepLang);
el.dialog.addEventListener("close", () => {
  if (getLang() !== S.settings.lang) applyLang(S.settings.lang);
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
    send({ type: "seat", seat: b.dataset.seat });
  } else if (b.dataset.action === "copy") {
    const copied = await copyText($(`#${b.dataset.copy}`));
    b.textContent = t(copied ? "copied" : "copy");
    setTimeout(() => (b.textContent = t("copy")), 1600);
  }
});
el.lobbyForm.addEventListener("change", () => {
  syncSettingsForm(el.lobbyForm);
  send({ type: "settings", settings: readSettingsForm(el.lobbyForm) });
});
el.lobbyForm.addEventListener("submit", (ev) => ev.preventDefault());
el.lobbyStart.addEventListener("click", () => send({ type: "start" }));
el.lobbyLeave.addEventListener("click", () => send({ type: "leave" }));
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
  if (b && !spectating()) send({ type: "react", reaction: b.dataset.reaction });
});
el.chatToggle.addEventListener("click", () => toggleChat());
$('[data-testid="chat-close"]').addEventListener("click", () => toggleChat(false));

document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (el.dialog.open || el.sitDialog.open) return;
  const tag = ev.target && ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (ev.key >= "1" && ev.key <= "8") {
    if (myTurn("play") && el.panel.hidden) {
      playIndex(Number(ev.key) - 1);
      ev.preventDefault();
    }
  } else if (ev.key === "n" || ev.key === "N") {
    // A new game is a solo table's: at a shared table the others are playing on.
    if (shared() || spectating()) return;
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

// Sayings and banners expire on their own; the clocks tick.
setInterval(() => {
  const now = Date.now();
  const expired =
    (S.banner && S.banner.until <= now && el.banner.innerHTML) ||
    Object.values(S.bubbles).some((b) => b.until <= now && b.until > now - 1500);
  if (expired) render();
}, 700);
setInterval(tick, 250);

// ---------------------------------------------------------------------- start
function boot() {
  applyLang(S.settings.lang);
  const link = readLink();
  const saved = loadTable();
  if (link && (link.watch || link.invite)) {
    openLink(link);
  } else if (saved) {
    // A fresh page has no history: the server sends every event again.
    enterTable({ table: saved.table, token: saved.token || null, watch: saved.watch || null });
  } else {
    openHome("bots");
  }
  render();
}

boot();
