// The page's reducer (src/belote/web/state.js) without a browser: real matches of every game, played
// by the engine (tests/test_js.py writes them to BELOTE_FIXTURE), folded message by message.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Game } from "../../src/belote/web/gamefacts.js";
import {
  closePanel, declarationsOf, emptyTable, lastScoredDeal, myTurn, presenceNews, reduceState, teamsFromMe, turnLine,
} from "../../src/belote/web/state.js";

const fixture = JSON.parse(readFileSync(process.env.BELOTE_FIXTURE, "utf8"));
const GAMES = new Map(fixture.games.games.map((spec) => [spec.name, new Game(spec, fixture.games)]));
const gameOf = (name) => GAMES.get(name) || GAMES.get("classic");

/** A state message carrying some events, as the server sends them (the view is not what is tested here). */
function message(variant, events, extra = {}) {
  return { type: "state", kind: "solo", seat: "S", events, view: null, settings: { variant }, ...extra };
}

test("every match of every game is rebuilt from its events, sent a few at a time", () => {
  assert.ok(fixture.matches.length >= 8);
  for (const m of fixture.matches) {
    let table = emptyTable(gameOf("classic"));
    const first = m.events.slice(0, 7);
    let out = reduceState(table, message(m.variant, first), gameOf);
    table = out.table;
    assert.equal(table.game.name, m.variant);
    assert.ok(out.applied.every((a) => a.live === false), "the first state is history, not news");
    for (let i = 7; i < m.events.length; i += 3) {
      out = reduceState(table, message(m.variant, m.events.slice(i, i + 3)), gameOf);
      table = out.table;
      assert.ok(out.applied.every((a) => a.live === true), "later events happen now");
    }
    assert.equal(table.last, m.events[m.events.length - 1][0]);
    assert.equal(table.deals.length, m.deals.length, `${m.variant}: the number of deals`);
    table.deals.forEach((d, i) => {
      const want = m.deals[i];
      assert.equal(d.tricks.length, want.tricks, `${m.variant} deal ${i + 1}: tricks`);
      assert.deepEqual(d.tricks.map((tr) => tr.winner), want.winners);
      for (const tr of d.tricks) assert.equal(tr.cards.length, table.game.players);
      assert.equal(d.result ? d.result.outcome : null, want.outcome);
      assert.deepEqual(d.result ? d.result.points : null, want.points);
      // Every card of a deal played once (a deal thrown in has no card).
      const cards = d.cards.map(([, c]) => c);
      assert.equal(new Set(cards).size, cards.length);
    });
    assert.ok(table.matchOver, `${m.variant}: the match is over`);
    assert.equal(table.matchOver.winner ?? null, m.winner);
    assert.equal(lastScoredDeal(table).number, m.deals.length);
  }
});

test("events already seen are not folded twice; a gap or a restart from 0 starts afresh", () => {
  const m = fixture.matches[0];
  let { table } = reduceState(emptyTable(gameOf("classic")), message(m.variant, m.events.slice(0, 20)), gameOf);
  const again = reduceState(table, message(m.variant, m.events.slice(10, 25)), gameOf);
  assert.equal(again.applied.length, 5);
  assert.deepEqual(again.applied.map((a) => a.n), [20, 21, 22, 23, 24]);
  table = again.table;
  const before = table.deals;
  const restart = reduceState(table, message(m.variant, m.events.slice(0, 3)), gameOf);
  assert.equal(restart.table.deals.length, 1);
  assert.equal(restart.table.last, 2);
  assert.equal(before.length, table.deals.length, "the old state is left as it was");
  const gap = reduceState(table, message(m.variant, m.events.slice(30, 31), { gap: true }), gameOf);
  assert.equal(gap.table.last, 30);
  assert.ok(gap.applied.every((a) => !a.live));
});

function viewed(variant, view, extra = {}) {
  const base = { type: "state", kind: "solo", seat: "S", events: [], settings: { variant } };
  return reduceState(emptyTable(gameOf(variant)), { ...base, view, ...extra }, gameOf).table;
}

const PLAY = {
  rules: { variant: "classic" }, phase: "play", to_move: "S", legal: ["7H"], hand: ["7H", "8S"], bids: [], tricks: [],
  trick: [], match_over: false, score: { NS: 0, EW: 0 }, order: ["N", "E", "S", "W"], hand_sizes: { N: 2, E: 2, W: 2 },
};

test("the turn line says one thing in each state", () => {
  const mine = viewed("classic", PLAY);
  assert.deepEqual(turnLine(mine), { key: "yourTurnPlay", mine: true });
  assert.equal(myTurn(mine, "play"), true);
  assert.equal(myTurn(mine, "bidding"), false);
  // Away from the server nothing is playable, and the line says why.
  assert.deepEqual(turnLine(mine, { connected: false }), { key: "offlineTurn", offline: true });
  assert.equal(myTurn(mine, "play", false), false);
  // A bot stands in: one message, and no card offered.
  const standin = viewed("classic", PLAY, { players: { S: { name: "Ann", bot: false, standin: true } } });
  assert.deepEqual(turnLine(standin), { key: "standinYou", standin: true });
  assert.equal(myTurn(standin, "play"), false);
  // The deal's score read, waiting for the others.
  const others = viewed("classic", PLAY, { waiting: "others" });
  assert.equal(turnLine(others).key, "waitingOthers");
  assert.equal(myTurn(others, "play"), false);
  const east = viewed("classic", { ...PLAY, to_move: "E" });
  assert.deepEqual(turnLine(east), { key: "waitingFor", seat: "E" });
  assert.deepEqual(turnLine(emptyTable(gameOf("classic"))), { key: "pressNew" });
  assert.deepEqual(turnLine(emptyTable(gameOf("classic")), { hasTable: true }), { key: "connecting" });
});

test("a bidding prompt names only what may be done", () => {
  const bid = { ...PLAY, phase: "bidding", bids: [["W", "pass"]] };
  assert.equal(turnLine(viewed("classic", { ...bid, legal: ["take", "pass"] })).key, "yourTurnBid");
  const round2 = { ...bid, bids: [["W", "pass"], ["N", "pass"], ["E", "pass"], ["S", "pass"]], legal: ["H", "pass"] };
  assert.equal(turnLine(viewed("classic", round2)).key, "yourTurnName");
  const coinche = { ...bid, rules: { variant: "coinche" } };
  assert.equal(turnLine(viewed("coinche", { ...coinche, legal: ["80H", "pass"] })).key, "yourTurnContract");
  assert.equal(turnLine(viewed("coinche", { ...coinche, legal: ["90H", "coinche", "pass"] })).key, "yourTurnCoinche");
  assert.equal(turnLine(viewed("coinche", { ...coinche, legal: ["surcoinche", "pass"] })).key, "yourTurnSurcoinche");
});

test("the reader's score comes first", () => {
  assert.deepEqual(teamsFromMe(viewed("classic", PLAY)), ["NS", "EW"]);
  assert.deepEqual(teamsFromMe(viewed("classic", PLAY, { seat: "E" })), ["EW", "NS"]);
  const three = { ...PLAY, rules: { variant: "three-handed" } };
  assert.deepEqual(teamsFromMe(viewed("three-handed", three, { seat: "E" })), ["E", "S", "N"]);
});

test("declarations: scored, beaten by the other side's, or tied; unknown before the first trick ends", () => {
  const deal = {
    declared: [{ seat: "N", declarations: ["tierce"] }, { seat: "E", declarations: ["fifty"] }],
    tricks: [], shown: null, result: null,
  };
  assert.deepEqual(declarationsOf(deal).map((d) => d.fate), [null, null]);
  const shown = { ...deal, tricks: [{}], shown: { side: "EW", declarations: [{ seat: "E", name: "fifty", points: 50 }] } };
  assert.deepEqual(declarationsOf(shown).map((d) => d.fate), ["beaten", "scored"]);
  const tied = { ...deal, tricks: [{}] };
  assert.deepEqual(declarationsOf(tied).map((d) => d.fate), ["tied", "tied"]);
  // Three hands: the defenders' camp is named by its two seats.
  const three = { ...deal, declared: [{ seat: "S", declarations: ["tierce"] }], tricks: [{}], shown: { side: "NS", declarations: [] } };
  assert.deepEqual(declarationsOf(three).map((d) => d.fate), ["scored"]);
});

test("a spectator's score of a deal stays until closed, and goes once the next bidding starts", () => {
  const m = fixture.matches.find((x) => x.variant === "classic");
  const scored = m.events.findIndex(([, e]) => e.type === "scored");
  let { table } = reduceState(emptyTable(gameOf("classic")), { ...message("classic", m.events.slice(0, scored)), seat: null }, gameOf);
  table = reduceState(table, { ...message("classic", m.events.slice(scored, scored + 1)), seat: null }, gameOf).table;
  assert.equal(table.spectatorPanel, 1);
  assert.equal(closePanel(table).spectatorPanel, null);
  const nextBid = m.events.findIndex(([, e], i) => i > scored && e.type === "bid");
  table = reduceState(table, { ...message("classic", m.events.slice(scored + 1, nextBid + 1)), seat: null }, gameOf).table;
  assert.equal(table.spectatorPanel, null);
});

test("who left the table and who came back, never the reader", () => {
  const seats = (away) => Object.fromEntries(["N", "E", "S", "W"].map((s) => [s, {
    name: `P${s}`, bot: false, standin: false, ...(away.includes(s) ? { away: { standin_ms: 30000 } } : {}),
  }]));
  const at = (table, away, seat = "S") => reduceState(table, {
    type: "state", kind: "private", table: "t1", seat, events: [], settings: { variant: "classic" }, view: PLAY,
    players: seats(away),
  }, gameOf).table;
  const joined = at(emptyTable(gameOf("classic")), ["W"]);
  assert.deepEqual(presenceNews(emptyTable(gameOf("classic")), joined), { gone: [], back: [] }); // a join is no news
  const left = at(joined, ["W", "E"]);
  assert.deepEqual(presenceNews(joined, left), { gone: ["E"], back: [] });
  const back = at(left, ["E"]);
  assert.deepEqual(presenceNews(left, back), { gone: [], back: ["W"] });
  assert.deepEqual(presenceNews(back, at(back, ["E", "S"])), { gone: [], back: [] }); // one's own: the turn line's
  const spectator = at(emptyTable(gameOf("classic")), [], null);
  assert.deepEqual(presenceNews(spectator, at(spectator, ["S"], null)), { gone: ["S"], back: [] });
  const elsewhere = reduceState(back, { ...back.msg, table: "t2", players: seats([]) }, gameOf).table;
  assert.deepEqual(presenceNews(back, elsewhere), { gone: [], back: [] }); // another table: no news
});
