// What the page does by itself for its player (src/belote/web/flow.js), and the page's state of it
// (page.js). Run with `node --test tests/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  announceOffer,
  AUTO_PLAY_MS,
  AUTO_PLAY_RETRY_MS,
  autoCard,
  cardAction,
  DEFAULT_PREFS,
  readPrefs,
} from "../../src/belote/web/flow.js";
import { Page } from "../../src/belote/web/page.js";

const HAND = { ...DEFAULT_PREFS, announce: "hand", belote: "hand" };
const view = (over) => ({ phase: "play", trump: "H", legal: ["7S", "KH"], to_announce: [], ...over });

test("the preferences kept are read back, each only when it is one of its choices", () => {
  assert.deepEqual(readPrefs(null), DEFAULT_PREFS);
  assert.deepEqual(readPrefs("not json"), DEFAULT_PREFS);
  const kept = readPrefs(JSON.stringify({ autoNext: 10, autoPlay: false, announce: "hand", belote: "loud", notify: true }));
  assert.deepEqual(kept, { autoNext: 10, autoPlay: false, announce: "hand", belote: "auto", notify: true });
  assert.equal(readPrefs(JSON.stringify({ autoNext: 7 })).autoNext, DEFAULT_PREFS.autoNext);
});

test("announced for the player, a card goes as it is", () => {
  const v = view({ to_announce: ["tierce", "belote"] });
  assert.equal(cardAction(v, DEFAULT_PREFS, "KH", { declarations: false, belote: false }), "KH");
  assert.deepEqual(announceOffer(v, DEFAULT_PREFS), { declarations: [], belote: false });
});

test("by hand, what the player did not announce goes quiet with the card", () => {
  const v = view({ to_announce: ["tierce", "belote"] });
  assert.deepEqual(announceOffer(v, HAND), { declarations: ["tierce"], belote: true });
  assert.equal(cardAction(v, HAND, "KH", { declarations: false, belote: false }), "KH/quiet/nobelote");
  assert.equal(cardAction(v, HAND, "KH", { declarations: true, belote: false }), "KH/nobelote");
  assert.equal(cardAction(v, HAND, "KH", { declarations: true, belote: true }), "KH");
  // Belote is said with the king or queen of trumps only.
  assert.equal(cardAction(v, HAND, "7S", { declarations: true, belote: false }), "7S");
  assert.equal(cardAction(view({ to_announce: ["belote"], trump: "S" }), HAND, "KH", { declarations: false, belote: false }), "KH");
});

test("the only card plays itself, unless an announcement by hand is still to choose with it", () => {
  assert.equal(autoCard(view({ legal: ["7S"] }), DEFAULT_PREFS), "7S");
  assert.equal(autoCard(view({ legal: ["7S", "8S"] }), DEFAULT_PREFS), null);
  assert.equal(autoCard(view({ legal: ["7S"] }), { ...DEFAULT_PREFS, autoPlay: false }), null);
  assert.equal(autoCard(view({ legal: ["7S"], phase: "bidding" }), DEFAULT_PREFS), null);
  assert.equal(autoCard(view({ legal: ["7S"], to_announce: ["tierce"] }), HAND), null);
  assert.equal(autoCard(view({ legal: ["7S"], to_announce: ["tierce"] }), DEFAULT_PREFS), "7S");
  assert.equal(autoCard(view({ legal: ["KH"], to_announce: ["belote"] }), HAND), null);
  assert.equal(autoCard(view({ legal: ["7S"], to_announce: ["belote"] }), HAND), "7S");
});

test("the next deal counts once per deal, stops while the player looks elsewhere, and Stay ends it", () => {
  const p = new Page({ lang: "en" }, "classic", { ...DEFAULT_PREFS, autoNext: 5 });
  p.nextDealWaits(2, 1000);
  assert.deepEqual(p.nextDeal, { deal: 2, at: 6000, paused: false, stopped: false });
  p.nextDealWaits(2, 3000);
  assert.equal(p.nextDeal.at, 6000, "asked again for the same deal, the count goes on");
  p.nextDealPaused(true, 4000);
  assert.equal(p.nextDeal.at, null);
  p.nextDealPaused(false, 9000);
  assert.equal(p.nextDeal.at, 14000, "back from elsewhere, the whole count again");
  p.nextDealStopped();
  p.nextDealPaused(true, 10000);
  p.nextDealPaused(false, 11000);
  assert.deepEqual([p.nextDeal.at, p.nextDeal.stopped], [null, true]);
  p.nextDealWaits(3, 20000);
  assert.equal(p.nextDeal.at, 25000);
  const byHand = new Page({ lang: "en" }, "classic", { ...DEFAULT_PREFS, autoNext: 0 });
  byHand.nextDealWaits(2, 0);
  assert.deepEqual([byHand.nextDeal.at, byHand.nextDeal.stopped], [null, true]);
});

test("the only card waits a moment once per state; what was announced by hand lasts one deal", () => {
  const p = new Page({ lang: "en" }, "classic");
  p.autoPlayOffered("12|7S", 1000);
  const at = p.autoPlay.at;
  assert.ok(at > 1000);
  p.autoPlayOffered("12|7S", 1200);
  assert.equal(p.autoPlay.at, at);
  p.autoPlayed(1600);
  p.autoPlayOffered("12|7S", 2000);
  assert.equal(p.autoPlay.at, 1600 + AUTO_PLAY_RETRY_MS, "not played again while its answer may come");
  p.autoPlayOffered("12|7S", 1600 + AUTO_PLAY_RETRY_MS);
  assert.equal(p.autoPlay.at, 1600 + AUTO_PLAY_RETRY_MS, "played again: the same state, the card lost or refused");
  p.autoPlayOffered("13|8S", 5000);
  assert.equal(p.autoPlay.at, 5000 + AUTO_PLAY_MS, "another state: its own moment");
  p.said("declarations");
  assert.deepEqual(p.saying, { declarations: true, belote: false });
  p.said("declarations");
  p.said("belote");
  assert.deepEqual(p.saying, { declarations: false, belote: true });
  p.dealStarted();
  assert.deepEqual(p.saying, { declarations: false, belote: false });
});
