// The page's words of the games (src/belote/web/i18n.js): one title per game, which the review and
// the refusals read, and the server's title (GET /api/games) for a game the page has no words for.
// Run with `node --test tests/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

import { gameTitle, hasWords, knowGames } from "../../src/belote/web/i18n.js";
import { refusalText } from "../../src/belote/web/refusals.js";

test("a game's title is its words in the language asked", () => {
  assert.equal(gameTitle("three-handed", "en"), "Three-handed Belote");
  assert.equal(gameTitle("three-handed", "fr"), "Belote à trois");
  assert.equal(gameTitle("classic", "fr"), "Belote classique");
  assert.equal(gameTitle("coinche", "fr", { subject: true }), "La coinche");
  assert.equal(gameTitle("two-handed", "en", { subject: true }), "Two-handed Belote");
});

test("a game without words is the server's title, then its name", () => {
  assert.equal(gameTitle("five-handed", "fr"), "five-handed");
  knowGames([{ name: "five-handed", title: "the five-handed game" }]);
  assert.equal(gameTitle("five-handed", "fr"), "the five-handed game");
  assert.equal(gameTitle("five-handed", "en", { subject: true }), "The five-handed game");
  const refusal = { code: "too_many_people", args: { variant: "five-handed", seats: ["N", "E"], people: 3 } };
  assert.ok(refusalText(refusal, "en").startsWith("The five-handed game has 2 seats (North and East)"));
  assert.ok(refusalText(refusal, "fr").startsWith("The five-handed game se joue à 2"));
});

test("words are known in some language or not at all", () => {
  assert.ok(hasWords("game_coinche"));
  assert.ok(hasWords("gameSubject_coinche"), "French alone has it");
  assert.ok(!hasWords("choice_litige_nobody"));
});
