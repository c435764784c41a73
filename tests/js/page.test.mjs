// The page's own state (src/belote/web/page.js): each named transition changes what it says.
// node --test tests/js/

import assert from "node:assert/strict";
import { test } from "node:test";

import { LOG_KEPT, Page } from "../../src/belote/web/page.js";

const page = () => new Page({ lang: "en", strength: "normal" }, "classic");

test("a card sent is in flight until the server answers, and ends a newcomer's hint to take", () => {
  const p = page();
  p.turnToBid(true);
  assert.equal(p.takeHint, true);
  p.sent("JH");
  assert.deepEqual([p.sending, p.takeHint], ["JH", false]);
  p.answered();
  assert.equal(p.sending, null);
});

test("a lost socket forgets what was in flight; a passing refusal is said until the socket opens or closes", () => {
  const p = page();
  p.sent("JH");
  p.joinRefused("Redis is restarting");
  p.connection("lost");
  assert.deepEqual([p.connected, p.sending, p.passing], [false, null, "Redis is restarting"]);
  p.connection("connecting");
  assert.equal(p.passing, "Redis is restarting");
  p.connection("open");
  assert.deepEqual([p.connected, p.passing], [true, null]);
});

test("entering a table as a spectator keeps the code, as a seat the token; leaving forgets them", () => {
  const p = page();
  p.entered("t1", null, "w1");
  assert.deepEqual([p.table, p.token, p.watch], ["t1", null, "w1"]);
  p.entered("t2", "tok", "w2");
  assert.deepEqual([p.table, p.token, p.watch], ["t2", "tok", null]);
  p.left();
  assert.deepEqual([p.table, p.token, p.watch], [null, null, null]);
});

test("the bid panel's level is the lowest open at each new turn to bid, and the player's choice until then", () => {
  const p = page();
  const view = { deal_number: 1, bids: ["pass"], legal: ["pass", "90H", "90S", "100H"], rules: { coinche_max_bid: 160 } };
  p.bidsOffered(view);
  assert.equal(p.bidLevel, "90");
  p.bidLevelChosen("100");
  p.bidsOffered(view); // the same turn, told again (a chat line, a presence)
  assert.equal(p.bidLevel, "100");
  p.bidsOffered({ ...view, bids: ["pass", "90H", "pass"], legal: ["pass", "100H", "100S"] });
  assert.equal(p.bidLevel, "100");
  p.bidLevelChosen("120");
  p.bidsOffered({ ...view, deal_number: 2 });
  assert.equal(p.bidLevel, "90");
});

test("the solo table's settings are the server's but the page's language stays", () => {
  const p = page();
  p.langChosen("fr");
  p.tableSettings({ strength: "strong", lang: "en" });
  assert.deepEqual(p.settings, { lang: "fr", strength: "strong" });
});

test("the queue: joined, its news with a deadline on the page's clock, left", () => {
  const p = page();
  p.queueJoined("Léa", "coinche", "any");
  p.queued({ type: "queue", left_ms: 5000 }, 1000);
  assert.deepEqual(p.queue, { type: "queue", left_ms: 5000, deadline: 6000, variant: "coinche" });
  p.placed(false);
  assert.equal(p.elsewhere, true);
  p.queueLeft();
  p.placed(false);
  assert.deepEqual([p.queueName, p.queue, p.elsewhere, p.queueSeating], [null, null, false, "any"]);
});

test("what is on show goes with a new deal or a fresh table; the log keeps its last events", () => {
  const p = page();
  p.bubbled("E", "Belote!", "say", 10);
  p.turnedUp("7H", 5);
  p.bannered("E takes", 20);
  p.scoreHeld(true);
  p.dealStarted();
  assert.deepEqual([p.bubbles, p.fresh, p.banner.html], [{}, {}, "E takes"]);
  p.chatUnread();
  p.tableReset();
  assert.deepEqual([p.banner, p.unread, p.panelHeld], [null, 0, false]);
  for (let i = 0; i < LOG_KEPT + 5; i++) p.logged({ n: i }, 1);
  assert.equal(p.logItems.length, LOG_KEPT);
  assert.equal(p.logItems[0].e.n, 5);
  p.logCleared();
  assert.deepEqual(p.logItems, []);
});

test("reading the chat clears its count; the drawers say what is open", () => {
  const p = page();
  p.chatUnread();
  p.chatUnread();
  p.chatToggled(true);
  assert.deepEqual([p.chatOpen, p.unread], [true, 0]);
  p.history("match");
  p.lastTrick(true);
  assert.deepEqual([p.historyTab, p.lastTrickOpen], ["match", true]);
  p.history(null);
  assert.equal(p.historyTab, null);
});
