// What the pages say of players (src/belote/web/people.js) and the rating chart's scale
// (src/belote/web/chart.js). Run with `node --test tests/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

import { chartScale, niceTicks, ratingChartSvg } from "../../src/belote/web/chart.js";
import {
  fromBlocked,
  handleHtml,
  handleOf,
  identityLink,
  invitationKey,
  looksLikeHandle,
  mergeInvitations,
  num,
  outcomeOf,
  percent,
  profileUrl,
  ratingChange,
  sideOf,
  signed,
  sortFriends,
  splitHandle,
} from "../../src/belote/web/people.js";

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

test("a handle splits at its last # and shows its tag apart, the name escaped", () => {
  assert.deepEqual(splitHandle("Léa#4821"), { name: "Léa", tag: "4821" });
  assert.deepEqual(splitHandle("No#1 fan#0042"), { name: "No#1 fan", tag: "0042" });
  assert.deepEqual(splitHandle("plain"), { name: "plain", tag: "" });
  assert.equal(handleOf({ name: "Hugo", tag: 42 }), "Hugo#0042");
  assert.equal(handleOf({ name: "Hugo", tag: 42, handle: "Hugo#0042" }), "Hugo#0042");
  assert.equal(
    handleHtml({ handle: "<b>Zoé</b>#0007" }, esc),
    '<span class="handle"><span class="handle-name">&lt;b&gt;Zoé&lt;/b&gt;</span><span class="handle-tag">#0007</span></span>',
  );
});

test("text reads as a handle with a name and four digits", () => {
  assert.ok(looksLikeHandle(" Léa#4821 "));
  assert.ok(looksLikeHandle("Marie Charlotte#0001"));
  assert.ok(!looksLikeHandle("Léa"));
  assert.ok(!looksLikeHandle("#4821"));
  assert.ok(!looksLikeHandle("Léa#482"));
  assert.ok(!looksLikeHandle("Léa#48210"));
});

test("addresses: a profile, and the links the table page opens with", () => {
  assert.equal(profileUrl("a/b c"), "/players/a%2Fb%20c");
  assert.deepEqual(identityLink("?transfer=ABCDE12345"), { transfer: "ABCDE12345", friend: null });
  assert.deepEqual(identityLink("?friend=xyz&other=1"), { transfer: null, friend: "xyz" });
  assert.deepEqual(identityLink("?table=t&invite=i"), { transfer: null, friend: null });
});

test("numbers as people read them, and a dash where there is nothing to count", () => {
  assert.equal(percent(0.75, "en"), "75%");
  assert.equal(percent(0.333, "fr"), "33\u202f%");
  assert.equal(percent(null), "\u2014");
  assert.equal(num(null), "\u2014");
  assert.equal(num(1234, "en"), "1,234");
  assert.equal(num(97.04, "en", 1), "97.0");
  assert.equal(num(1234.5, "fr", 1).replace(/\s/g, " "), "1 234,5");
  assert.deepEqual([signed(12), signed(-8), signed(0), signed(null)], ["+12", "\u22128", "\u00b10", ""]);
});

test("a match read for one player: their side, how it ended, their rating's change", () => {
  const match = {
    score: [1012, 640],
    winner: 0,
    sides: [
      [{ player: "a", name: "Léa" }, { player: null, name: "Hugo", bot: "heuristic" }],
      [{ player: "b", name: "Zoé" }, { player: "c", name: "Tom" }],
    ],
    changes: { a: { before: 1000, after: 1021 }, b: { before: 990, after: 975 } },
  };
  assert.equal(sideOf(match, "a"), 0);
  assert.equal(sideOf(match, "c"), 1);
  assert.equal(sideOf(match, "nobody"), -1);
  assert.equal(outcomeOf(match, 0), "won");
  assert.equal(outcomeOf(match, 1), "lost");
  assert.equal(outcomeOf({ score: [500, 700, 700], winner: null }, 1), "tied");
  assert.equal(outcomeOf({ score: [500, 700, 700], winner: null }, 0), "lost");
  assert.equal(ratingChange(match, "a"), 21);
  assert.equal(ratingChange(match, "b"), -15);
  assert.equal(ratingChange(match, "c"), null);
  assert.equal(ratingChange({ rated: false }, "a"), null);
});

test("friends: online first, those at a table before the others, then by name", () => {
  const friends = [
    { handle: "Zoé#0001", online: false },
    { handle: "Ana#0002", online: true, table: null },
    { handle: "Bob#0003", online: true, table: { id: "t", variant: "coinche" } },
    { handle: "Al#0004", online: false },
  ];
  assert.deepEqual(sortFriends(friends).map((f) => f.handle), ["Bob#0003", "Ana#0002", "Al#0004", "Zoé#0001"]);
});

test("invitations: one per table (the latest), none expired or dismissed, the latest first", () => {
  const a = { table: "t1", invite: "i1", expires: 100 };
  const b = { table: "t2", invite: "i2", expires: 200 };
  const a2 = { table: "t1", invite: "i1b", expires: 300 };
  assert.deepEqual(mergeInvitations([a], [b], 50), [b, a]);
  assert.deepEqual(mergeInvitations([a, b], [a2], 50), [a2, b]);
  assert.deepEqual(mergeInvitations([a, b], [], 150), [b]);
  assert.deepEqual(mergeInvitations([a, b], [], 50, new Set([invitationKey(b)])), [a]);
  assert.deepEqual(mergeInvitations([], [{ table: 3 }, null], 0), []);
});

test("a chat line is hidden when its seat's person is blocked", () => {
  const players = { N: { name: "Troll", player: "x" }, S: { name: "Léa", player: "a" }, E: { name: "Bot", bot: true } };
  const blocked = new Set(["x"]);
  assert.ok(fromBlocked({ seat: "N", text: "hi" }, players, blocked));
  assert.ok(!fromBlocked({ seat: "S", text: "hi" }, players, blocked));
  assert.ok(!fromBlocked({ seat: "E", text: "hi" }, players, blocked));
  assert.ok(!fromBlocked({ seat: null, spectator: true, text: "hi" }, players, blocked));
  assert.ok(!fromBlocked({ seat: "N", text: "hi" }, players, new Set()));
});

test("the chart's axis runs between round numbers around the ratings", () => {
  assert.deepEqual(niceTicks(1012, 1187, 4), { low: 1000, high: 1200, step: 50, ticks: [1000, 1050, 1100, 1150, 1200] });
  assert.deepEqual(niceTicks(700, 1100, 4).ticks, [700, 800, 900, 1000, 1100]);
  const flat = niceTicks(1000, 1000);
  assert.ok(flat.low < 1000 && flat.high > 1000, "a flat line gets a band around it");
  assert.ok(flat.ticks.includes(1000));
});

test("the chart's points are spread evenly and scaled into the plot", () => {
  const history = [
    { at: 1, rating: 1000 },
    { at: 2, rating: 1100 },
    { at: 3, rating: 1050 },
  ];
  const pad = { top: 10, right: 10, bottom: 20, left: 40 };
  const { plot, points, ticks } = chartScale(history, { width: 240, height: 130, pad });
  assert.deepEqual(plot, { left: 40, top: 10, right: 230, bottom: 110 });
  assert.deepEqual(points.map((p) => p.x), [40, 135, 230]);
  // 1000..1100 fill the plot from its bottom to its top.
  assert.deepEqual(points.map((p) => p.y), [110, 10, 60]);
  assert.deepEqual(ticks.map((t) => [t.value, t.y]), [[1000, 110], [1050, 60], [1100, 10]]);
  const one = chartScale([{ at: 5, rating: 1234 }], { width: 240, height: 130, pad });
  assert.equal(one.points[0].x, 135, "a single point sits in the middle");
  assert.ok(one.points[0].y > 10 && one.points[0].y < 110);
});

test("the chart is an image named and described, its words escaped", () => {
  const svg = ratingChartSvg([{ at: 1, rating: 1000 }, { at: 2, rating: 1040 }], {
    title: "Rating <over> time",
    desc: "Coinche & co",
    esc,
    id: "c1",
    date: (at) => `day ${at}`,
  });
  assert.match(svg, /^<svg class="rating-chart" viewBox="0 0 320 160" role="img" aria-labelledby="c1-title c1-desc"/);
  assert.match(svg, /<title id="c1-title">Rating &lt;over&gt; time<\/title><desc id="c1-desc">Coinche &amp; co<\/desc>/);
  assert.match(svg, /<path class="line" d="M/);
  assert.match(svg, />day 1<\/text>.*>day 2<\/text>/);
  assert.equal(ratingChartSvg([], {}), "");
});
