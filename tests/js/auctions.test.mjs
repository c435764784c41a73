// What the page asks of a game's auction (src/belote/web/auctions.js), one entry per auction name.
// node --test tests/js/

import assert from "node:assert/strict";
import { test } from "node:test";

import { AUCTIONS, auctionOf } from "../../src/belote/web/auctions.js";
import { setLang } from "../../src/belote/web/i18n.js";

const words = { suitHtml: (s) => `[${s}]` };

test("an auction the page does not know is drawn as the turned card's", () => {
  assert.equal(auctionOf({ auction: "some-new-auction" }), AUCTIONS.turned);
  assert.equal(auctionOf({ auction: "contracts" }), AUCTIONS.contracts);
});

test("the turned card's bids: take names the turned suit, a second-round bid names its own", () => {
  setLang("en");
  const a = auctionOf({ auction: "turned" });
  assert.equal(a.bidHtml("pass", words, "JH"), "Pass");
  assert.equal(a.bidHtml("take", words, "JH"), "Takes [H]");
  assert.equal(a.bidHtml("S", words, "JH"), "Names [S]");
  assert.equal(a.turnKey({ bids: [[1, "pass"]] }, { players: 4 }), "yourTurnBid");
  assert.equal(a.turnKey({ bids: [1, 2, 3, 4].map((s) => [s, "pass"]) }, { players: 4 }), "yourTurnName");
  assert.equal(a.turnKey({ bids: [1, 2, 3].map((s) => [s, "pass"]) }, { players: 3 }), "yourTurnName");
  assert.deepEqual([a.panel, a.standing, a.outcomeKeys.dedans], [false, false, undefined]);
});

test("Coinche's turn line names only what the player may do now", () => {
  const a = auctionOf({ auction: "contracts" });
  assert.equal(a.turnKey({ legal: ["pass", "80H", "90H"] }), "yourTurnContract");
  assert.equal(a.turnKey({ legal: ["pass", "coinche", "90H"] }), "yourTurnCoinche");
  assert.equal(a.turnKey({ legal: ["pass", "surcoinche"] }), "yourTurnSurcoinche");
  assert.deepEqual([a.panel, a.standing, a.outcomeKeys.dedans], [true, true, "failed"]);
});
