// The tournaments' pages without a browser (src/belote/web/tournament-core.js, tournament-words.js):
// a guest's token, the addresses, the numbers as the pages write them, the board to play next, a
// traveller's rows with the bots' line in its place, the ranking's own row, the months.
// Run with `node --test tests/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang } from "../../src/belote/web/i18n.js";
import {
  apiPath, authOf, boardReviewUrl, checkName, monthOf, newGuestToken, nextBoard, pct, personSeat, pointsFromMe,
  progress, rankingRows, shiftMonth, signedNum, spanWords, tournamentUrl, travellerRows, whenWords,
} from "../../src/belote/web/tournament-core.js";
import { KEYS, twIn } from "../../src/belote/web/tournament-words.js";

test("a guest's token is 32 url-safe characters, and who asks is said by one header", () => {
  const token = newGuestToken((n) => Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) % 256));
  assert.equal(token.length, 32);
  assert.match(token, /^[A-Za-z0-9_-]{32}$/);
  assert.notEqual(newGuestToken(), newGuestToken());
  assert.deepEqual(authOf("s3cret", "guesttoken"), { Authorization: "Bearer s3cret" });
  assert.deepEqual(authOf(null, "guesttoken"), { Authorization: "Guest guesttoken" });
  assert.deepEqual(authOf(null, null), {});
});

test("the addresses of a tournament, its API and a board's review keep the invitation", () => {
  assert.equal(tournamentUrl("daily-classic-20261205"), "/tournaments/daily-classic-20261205");
  assert.equal(tournamentUrl("abc", { invite: "x y", board: 3 }), "/tournaments/abc?invite=x+y&board=3");
  assert.equal(apiPath("abc", "/ranking", null, { offset: 50 }), "/api/tournaments/abc/ranking?offset=50");
  assert.equal(apiPath("abc", "/boards/2/traveller", "K"), "/api/tournaments/abc/boards/2/traveller?invite=K");
  assert.equal(boardReviewUrl("abc", 2), "/review?tournament=abc&board=2");
  assert.equal(boardReviewUrl("abc", 2, "K"), "/review?tournament=abc&board=2&invite=K");
});

test("percentages and differences are written in each language's way", () => {
  assert.equal(pct(62.5, "en"), "62.5%");
  assert.equal(pct(62.5, "fr"), "62,5\u202f%");
  assert.equal(pct(53.125, "en", 2, true), "53.13%");
  assert.equal(pct(50, "en", 2, true), "50.00%");
  assert.equal(pct(null, "en"), "\u2014");
  assert.equal(signedNum(12.34, "en"), "+12.3");
  assert.equal(signedNum(-5, "fr"), "\u22125");
  assert.equal(signedNum(0.04, "en"), "\u00b10");
  assert.equal(signedNum(-38.5, "fr"), "\u221238,5");
});

test("time left in words, in English and French", () => {
  setLang("en");
  assert.equal(spanWords(3 * 3600 + 20 * 60 + 5), "3 h 20 min");
  assert.equal(spanWords(2 * 86400 + 4 * 3600), "2 d 4 h");
  assert.equal(spanWords(59), "less than a minute");
  const t = { state: "open", opens: 1000, closes: 1000 + 7200 };
  assert.equal(whenWords(t, 1000 + 3600, () => "-"), "closes in 1 h 0 min");
  assert.equal(whenWords({ ...t, state: "soon" }, 400, () => "-"), "opens in 10 min");
  assert.equal(whenWords({ ...t, state: "closed" }, 9999, () => "5 December"), "closed on 5 December");
  setLang("fr");
  assert.equal(spanWords(2 * 86400 + 4 * 3600), "2 j 4 h");
  assert.equal(whenWords(t, 1000 + 3600, () => "-"), "se termine dans 1 h 0 min");
  setLang("en");
});

test("the board to play next is the one under way, else the first to play", () => {
  const mine = [
    { board: 1, state: "played", percent: 75 },
    { board: 2, state: "to_play" },
    { board: 3, state: "playing" },
    { board: 4, state: "played", percent: 40 },
  ];
  assert.equal(nextBoard(mine), 3);
  assert.equal(nextBoard(mine.filter((b) => b.board !== 3)), 2);
  assert.equal(nextBoard([{ board: 1, state: "played", percent: 50 }]), null);
  assert.deepEqual(progress(mine), { played: 2, boards: 4, percent: 57.5 });
  assert.deepEqual(progress([]), { played: 0, boards: 0, percent: null });
});

test("a traveller's rows: best first, the bots' line after the people's of its score", () => {
  const traveller = {
    lines: [
      { score: 40, n: 1, names: ["Ana"], mine: false },
      { score: -38, n: 2, names: ["Ben", "Cid"], mine: true },
      { score: -44, n: 1, names: ["Dan"], mine: false },
    ],
    bots: { score: -38, percent: 40 },
  };
  const rows = travellerRows(traveller);
  assert.deepEqual(
    rows.map((r) => [r.kind, r.score]),
    [["people", 40], ["people", -38], ["bots", -38], ["people", -44]],
  );
  assert.deepEqual(travellerRows({ lines: [], bots: { score: 5 } }).map((r) => r.kind), ["bots"]);
  assert.deepEqual(travellerRows({ lines: [{ score: 1 }], bots: { score: 9 } }).map((r) => r.kind), ["bots", "people"]);
});

test("the ranking's own row comes after the page when it is not on it", () => {
  const rows = [{ entrant: "a" }, { entrant: "b" }];
  assert.deepEqual(rankingRows({ rows, you: { entrant: "b" } }), { rows, you: null });
  assert.deepEqual(rankingRows({ rows, you: { entrant: "z", rank: 90 } }), { rows, you: { entrant: "z", rank: 90 } });
  assert.deepEqual(rankingRows(null), { rows: [], you: null });
});

test("a line's points are the person's side's first; the person sits South, or North at two hands", () => {
  assert.equal(personSeat(["N", "E", "S", "W"]), "S");
  assert.equal(personSeat(["N", "E", "S"]), "S");
  assert.equal(personSeat(["N", "E"]), "N");
  assert.deepEqual(pointsFromMe([71, 111], ["NS", "EW"], "NS"), [71, 111]);
  assert.deepEqual(pointsFromMe([20, 82, 81], ["N", "E", "S"], "S"), [81, 20, 82]);
});

test("months move across the years", () => {
  assert.equal(shiftMonth("2026-12", 1), "2027-01");
  assert.equal(shiftMonth("2026-01", -1), "2025-12");
  assert.equal(shiftMonth("2026-05", -17), "2024-12");
  assert.equal(monthOf(Date.UTC(2026, 11, 31, 23, 59) / 1000), "2026-12");
});

test("a name is 1 to 24 characters once trimmed", () => {
  assert.equal(checkName("  Ana   Lou "), "Ana Lou");
  assert.equal(checkName("   "), null);
  assert.equal(checkName("x".repeat(25)), null);
});

test("the tournaments' words say the same things in English and French", () => {
  assert.deepEqual([...KEYS.fr].sort(), [...KEYS.en].sort());
  assert.equal(twIn("fr", "playBoard", { n: 3 }), "Jouer la donne 3");
  assert.equal(twIn("en", "backToTournament"), "Back to the tournament");
  assert.equal(twIn("fr", "backToTournament"), "Retour au tournoi");
});
