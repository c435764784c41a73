// What the table page keeps for itself, beside the table the server tells it (state.js): where it
// is, what it sent, and what is on show for a moment. Its fields are read anywhere; they change
// only through the named transitions below, each the one place that changes its fields, called by
// the controller (app.js) as things happen. No drawing function changes them.
//
//   const page = new Page(settings, "classic");
//   page.sent("JH");      page.sending === "JH", and the newcomer's hint to take is gone
//   page.answered();      page.sending === null

import { lowestLevel } from "./coinche.js";
import { AUTO_PLAY_MS, AUTO_PLAY_RETRY_MS, DEFAULT_PREFS } from "./flow.js";

/** How many of the log's events are kept, to be drawn again in another language. */
export const LOG_KEPT = 300;

export class Page {
  constructor(settings, queueVariant, prefs = DEFAULT_PREFS) {
    this.table = null; // the table's id
    this.token = null; // the seat token, or null for a spectator
    this.watch = null; // the spectator code when watching
    this.connected = false;
    this.settings = settings; // the solo settings and the page's language
    this.sending = null; // the card or bid sent and not yet answered
    this.bubbles = {}; // seat -> {html, cls, until}
    this.banner = null; // {html, until}
    this.lastTrickOpen = false;
    this.historyTab = null; // the history drawer's open tab ("deal" | "match"), or null when closed
    this.panelHeld = false; // the deal's score waits a moment while the last trick is seen
    this.takeHint = false; // a newcomer's first taking decision: what taking means is said
    this.errors = [];
    this.passing = null; // the words of a join refused for a passing reason, shown until a join succeeds
    this.queueName = null; // the name given to the queue while waiting for a table
    this.queueVariant = queueVariant; // the game asked of the queue
    this.queueSeating = "partners"; // partners: sit with the other people against bots; any: as drawn
    this.queue = null; // the queue's last message, with the deadline on this page's clock
    this.chatOpen = false;
    this.unread = 0;
    this.bidLevel = null; // Coinche: the level chosen in the bid panel
    this.bidKey = ""; // the legal bids the level was chosen for
    this.fresh = {}; // two hands: card -> when it was turned up
    this.logItems = []; // the log's events, drawn again in another language: {e, deal}
    this.elsewhere = false; // at no table, but waiting in the queue or being seated
    this.prefs = prefs; // the player's preferences (flow.js): the next deal, the only card, announcing
    this.saying = { declarations: false, belote: false }; // what the player pressed Announce for, this deal
    this.nextDeal = { deal: null, at: null, paused: false, stopped: false }; // the next deal by itself
    this.autoPlay = { key: null, at: 0 }; // the only card, playing itself at `at`
  }

  // ------------------------------------------------------------------ the socket
  /** The socket's status changed: a lost socket's card in flight is forgotten; open or closed ends a passing refusal. */
  connection(status) {
    this.connected = status === "open";
    if (status === "lost") this.sending = null;
    else if (status !== "connecting") this.passing = null;
  }

  /** A join was refused for a passing reason (`words`): it is said until a join succeeds. */
  joinRefused(words) {
    this.passing = words;
  }

  /** The server answered (a state or a refusal): nothing is in flight any more. */
  answered() {
    this.sending = null;
  }

  // ------------------------------------------------------------------ where the page is
  /** Sits at (or watches) `table`: `token` for a seat, else the spectator's code `watch`. */
  entered(table, token, watch) {
    this.table = table;
    this.token = token;
    this.watch = token ? null : watch;
  }

  /** Left the table: no table, seat or spectator's code. */
  left() {
    this.table = null;
    this.token = null;
    this.watch = null;
  }

  /** The table refused us (gone, or not our seat): no table; the seat's token is forgotten elsewhere. */
  tableGone() {
    this.table = null;
  }

  /** A fresh table: nothing in flight, unread or on show. */
  tableReset() {
    this.sending = null;
    this.unread = 0;
    this.bubbles = {};
    this.banner = null;
    this.fresh = {};
    this.panelHeld = false;
  }

  /** At no table but waiting for one (in the queue, or while the seat dialog is open). */
  placed(seatDialogOpen) {
    this.elsewhere = !this.table && (Boolean(this.queueName) || seatDialogOpen);
  }

  // ------------------------------------------------------------------ settings
  /** The solo settings chosen on the home screen (with the page's language). */
  settingsChosen(settings) {
    this.settings = settings;
  }

  /** The page's language, chosen on the home screen. */
  langChosen(lang) {
    this.settings = { ...this.settings, lang };
  }

  /** A solo table's settings as the server holds them; the language stays the one this page chose last. */
  tableSettings(settings) {
    this.settings = { ...this.settings, ...settings, lang: this.settings.lang };
  }

  // ------------------------------------------------------------------ playing
  /** `action` sent: it is in flight, and the newcomer has taken their first decision. */
  sent(action) {
    this.sending = action;
    this.takeHint = false;
  }

  /** Our turn to bid came: a newcomer (`newcomer`) is told what taking means. */
  turnToBid(newcomer) {
    this.takeHint = newcomer;
  }

  /** The bids `view` offers this seat: at each new turn to bid the bid panel's level is the lowest open. */
  bidsOffered(view) {
    const key = `${view.deal_number}|${view.bids.length}|${view.legal.join(",")}`;
    if (this.bidKey === key) return;
    this.bidKey = key;
    this.bidLevel = lowestLevel(view.legal, view.rules);
  }

  /** Coinche: the player chose the bid panel's level. */
  bidLevelChosen(level) {
    this.bidLevel = level;
  }

  // ------------------------------------------------------------------ what is on show
  /** A new deal: the last deal's bubbles and turned-up cards go, and what was announced by hand. */
  dealStarted() {
    this.bubbles = {};
    this.fresh = {};
    this.saying = { declarations: false, belote: false };
  }

  // ------------------------------------------------------------------ the flow (flow.js)
  /** The player changed their preferences. */
  prefsChosen(prefs) {
    this.prefs = prefs;
  }

  /** The player pressed (or released) Announce for `what`: "declarations" or "belote". */
  said(what) {
    this.saying = { ...this.saying, [what]: !this.saying[what] };
  }

  /** The score of the deal before `deal` is read: the next deal starts by itself after the
   * preference's seconds from `now` (once per deal), unless the player waits for it by hand. */
  nextDealWaits(deal, now) {
    if (this.nextDeal.deal === deal) return;
    const s = this.prefs.autoNext;
    this.nextDeal = { deal, at: s ? now + s * 1000 : null, paused: false, stopped: !s };
  }

  /** The count stops while the player looks elsewhere (a hidden tab, a dialog), and starts again after. */
  nextDealPaused(paused, now) {
    const n = this.nextDeal;
    if (n.stopped || n.deal === null || paused === n.paused) return;
    this.nextDeal = { ...n, paused, at: paused ? null : now + this.prefs.autoNext * 1000 };
  }

  /** The player stays on the score (Pause), or the next deal was asked for: no more counting this deal. */
  nextDealStopped() {
    this.nextDeal = { ...this.nextDeal, at: null, stopped: true };
  }

  /** The only card (`key`: the state it was offered in) plays itself from `now` + AUTO_PLAY_MS. */
  autoPlayOffered(key, now) {
    if (this.autoPlay.key !== key) this.autoPlay = { key, at: now + AUTO_PLAY_MS };
  }

  /** The only card was played for the player at `now`: not again in the same state, unless the
   * state is still the same AUTO_PLAY_RETRY_MS later with nothing in flight (the card was lost with
   * a dropped socket, or refused for a passing reason), when it plays itself again. */
  autoPlayed(now) {
    this.autoPlay = { ...this.autoPlay, at: now + AUTO_PLAY_RETRY_MS };
  }

  /** Two hands: `card` was turned up at `now`. */
  turnedUp(card, now) {
    this.fresh = { ...this.fresh, [card]: now };
  }

  /** The deal's score waits (`held`) while the last trick is seen, then shows. */
  scoreHeld(held) {
    this.panelHeld = held;
  }

  /** `html` in a bubble at `seat` until `until`. */
  bubbled(seat, html, cls, until) {
    this.bubbles = { ...this.bubbles, [seat]: { html, cls, until } };
  }

  /** `html` in the banner until `until`. */
  bannered(html, until) {
    this.banner = { html, until };
  }

  /** A refusal's or a problem's words were shown. */
  erred(text) {
    this.errors.push(text);
  }

  /** The log starts afresh. */
  logCleared() {
    this.logItems = [];
  }

  /** An event in the log; the last `LOG_KEPT` are kept. */
  logged(e, deal) {
    this.logItems.push({ e, deal });
    if (this.logItems.length > LOG_KEPT) this.logItems.shift();
  }

  /** The last trick's box opened or closed. */
  lastTrick(open) {
    this.lastTrickOpen = open;
  }

  /** The history drawer opened at `tab`, or closed (null). */
  history(tab) {
    this.historyTab = tab;
  }

  // ------------------------------------------------------------------ the queue
  /** Waiting in the queue as `name` for a table of `variant`, sitting as `seating` says. */
  queueJoined(name, variant, seating) {
    this.queueName = name;
    this.queueVariant = variant;
    this.queueSeating = seating;
    this.queue = null;
  }

  /** The queue's news: its deadline on this page's clock (`now`). */
  queued(msg, now) {
    this.queue = { ...msg, deadline: now + (msg.left_ms || 0), variant: msg.variant || this.queueVariant };
  }

  /** Out of the queue: matched to a table, or left it. */
  queueLeft() {
    this.queueName = null;
    this.queue = null;
  }

  // ------------------------------------------------------------------ chat
  /** The chat opened (its lines read) or closed. */
  chatToggled(open) {
    this.chatOpen = open;
    if (open) this.unread = 0;
  }

  /** A chat line came that nobody has read yet. */
  chatUnread() {
    this.unread += 1;
  }
}
