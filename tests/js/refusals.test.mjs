// The page's words for the server's refusals (src/belote/web/refusals.js): every code of the protocol,
// in English and in French, worded from its args. Run with `node --test tests/js/`.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { REFUSAL_CODES, refusalText } from "../../src/belote/web/refusals.js";

// Every refusal of docs/protocol.md, with the example args of its row: | `code` | `{args}` | ...
const PROTOCOL = readFileSync(new URL("../../docs/protocol.md", import.meta.url), "utf8");
const EXAMPLES = [...PROTOCOL.matchAll(/^\| `([a-z_]+)` \| `(\{.*?\})` \| .* \| (.*) \|$/gm)].map((m) => ({
  code: m[1],
  args: JSON.parse(m[2]),
  message: m[3],
}));

test("the protocol lists the refusals", () => {
  assert.ok(EXAMPLES.length >= 60, `only ${EXAMPLES.length} refusals read from docs/protocol.md`);
  assert.equal(new Set(EXAMPLES.map((e) => e.code)).size, EXAMPLES.length, "a code listed twice");
});

test("the page words exactly the codes of the protocol", () => {
  assert.deepEqual([...REFUSAL_CODES].sort(), EXAMPLES.map((e) => e.code).sort());
});

for (const lang of ["en", "fr"]) {
  test(`every refusal has its own words in ${lang}`, () => {
    for (const example of EXAMPLES) {
      const text = refusalText(example, lang);
      assert.equal(typeof text, "string", example.code);
      assert.notEqual(text, example.message, `${example.code} falls back to the server's English`);
      assert.ok(text.length > 5, `${example.code}: ${text}`);
      for (const bad of ["undefined", "null", "NaN", "[object", "${", "{"]) {
        assert.ok(!text.includes(bad), `${example.code} in ${lang}: ${text}`);
      }
    }
  });
}

test("French and English words differ for every refusal", () => {
  for (const example of EXAMPLES) {
    assert.notEqual(refusalText(example, "fr"), refusalText(example, "en"), example.code);
  }
});

const cases = [
  [
    { code: "must_follow", args: { suit: "C", cards: ["7C", "AC"] } },
    "You must follow ♣ (7♣, A♣).",
    "Vous devez fournir à ♣ (7♣, A♣).",
  ],
  [
    { code: "must_trump", args: { suit: "S", cards: ["9D", "TD"] } },
    "You have no ♠: you must trump (9♦, 10♦).",
    "Vous n'avez pas de ♠ : vous devez couper (9♦, 10♦).",
  ],
  [
    { code: "must_go_higher", args: { suit: "D", best: "TD", cards: ["JD"] } },
    "You must play a higher trump than 10♦ (J♦).",
    "Vous devez monter à l'atout : 10♦ est maître (V♦).",
  ],
  [
    { code: "must_overtrump", args: { best: "QD", cards: ["9D", "JD"] } },
    "You must overtrump Q♦ (9♦, J♦).",
    "Vous devez surcouper : D♦ est maître (9♦, V♦).",
  ],
  [
    { code: "must_undertrump", args: { best: "JD", cards: ["8D", "QD"] } },
    "You cannot overtrump J♦, but you must still trump (8♦, Q♦).",
    "V♦ est maître et vous ne pouvez pas surcouper, mais vous devez couper quand même (8♦, D♦).",
  ],
  [
    { code: "not_your_turn", args: { seat: "E", phase: "play" } },
    "It is not your turn: it is East's turn to play.",
    "Ce n'est pas votre tour : c'est à Est de jouer.",
  ],
  [
    { code: "not_your_turn", args: { seat: "W", phase: "bidding" } },
    "It is not your turn: it is West's turn to bid.",
    "Ce n'est pas votre tour : c'est à Ouest de parler.",
  ],
  [{ code: "not_in_hand", args: { card: "KH" } }, "You do not have K♥.", "R♥ : vous n'avez pas cette carte."],
  [
    { code: "bid_too_low", args: { min: "100", contract: "90NT" } },
    "Bid higher than 90 NT: 100 at least.",
    "Il faut monter au-dessus de 90 SA : 100 au moins.",
  ],
  [
    { code: "bid_too_low", args: { min: null, contract: "capotH" } },
    "No bid is higher than capot ♥.",
    "Aucune enchère ne monte au-dessus de capot ♥.",
  ],
  [
    { code: "bid_too_low", args: { min: "generale", contract: "capotAT" } },
    "Bid higher than capot AT: générale at least.",
    "Il faut monter au-dessus de capot TA : générale au moins.",
  ],
  [
    { code: "bidding_not_over", args: { card: "7S", auction: "contracts" } },
    "The bidding is not over: bid a contract or pass.",
    "Les enchères ne sont pas finies : annoncez un contrat ou passez.",
  ],
  [
    { code: "coinche_bid", args: { bid: "surcoinche" } },
    "surcoinche is a Coinche bid: take, pass or name a suit.",
    "« surcoinche » est une enchère de coinche : prenez, passez ou annoncez une couleur.",
  ],
  [
    { code: "mode_not_played", args: { mode: "AT" } },
    "All trumps is not played at this table.",
    "Le tout atout ne se joue pas à cette table.",
  ],
  [
    { code: "slow_down", args: { count: 5, seconds: 10 } },
    "Slow down: at most 5 messages in 10 seconds.",
    "Doucement : 5 messages au plus en 10 secondes.",
  ],
  [
    { code: "no_such_seat", args: { seat: "W", seats: ["N", "E", "S"] } },
    "This game has no West seat: its seats are North, East and South.",
    "Ce jeu n'a pas de place Ouest : ses places sont Nord, Est et Sud.",
  ],
  [
    { code: "seat_taken", args: { seat: "S" } },
    "South is taken: choose a free seat.",
    "La place Sud est prise : choisissez une place libre.",
  ],
  [
    { code: "too_many_people", args: { variant: "three-handed", seats: ["N", "E", "S"], people: 4 } },
    "Three-handed Belote has 3 seats (North, East and South): 4 people sit here, 1 must leave first.",
    "La belote à trois se joue à 3 (Nord, Est et Sud) : 4 personnes sont assises ici, 1 doit d'abord partir.",
  ],
  [
    { code: "too_many_people", args: { variant: "two-handed", seats: ["N", "E"], people: 4 } },
    "Two-handed Belote has 2 seats (North and East): 4 people sit here, 2 must leave first.",
    "La belote à deux se joue à 2 (Nord et Est) : 4 personnes sont assises ici, 2 doivent d'abord partir.",
  ],
  [
    { code: "waiting_for_others", args: { seats: ["N", "W"] } },
    "The next deal starts when everybody has read the score: waiting for North and West.",
    "La donne suivante commence quand tout le monde a lu le score : on attend Nord et Ouest.",
  ],
  [
    { code: "bad_setting", args: { option: "rounding", value: "yes", choices: [true, false], min: null, max: null } },
    "The setting “rounding” must be true or false, not yes.",
    "Le réglage « rounding » vaut vrai ou faux, pas yes.",
  ],
  [
    { code: "bad_setting", args: { option: "speed", value: 3, choices: ["slow", "normal", "fast"], min: null, max: null } },
    "The setting “speed” must be slow, normal or fast, not 3.",
    "Le réglage « speed » vaut slow, normal ou fast, pas 3.",
  ],
  [
    { code: "bad_setting", args: { option: "target", value: 5, choices: null, min: 100, max: 5000 } },
    "The setting “target” must be a whole number from 100 to 5000, not 5.",
    "Le réglage « target » est un nombre entier de 100 à 5000, pas 5.",
  ],
  [
    { code: "game_started", args: { request: "settings" } },
    "The rules are set before the game starts.",
    "Les règles se choisissent avant le début de la partie.",
  ],
];

for (const [err, en, fr] of cases) {
  test(`${err.code} ${JSON.stringify(err.args)}`, () => {
    const withMessage = { ...err, message: "the server's words" };
    assert.equal(refusalText(withMessage, "en"), en);
    assert.equal(refusalText(withMessage, "fr"), fr);
  });
}

test("an unknown code, or args the words cannot be made from, read the server's message", () => {
  const message = "a rule this page does not know";
  assert.equal(refusalText({ code: "brand_new_rule", args: {}, message }, "fr"), message);
  assert.equal(refusalText({ code: "must_follow", args: {}, message }, "fr"), message);
  assert.equal(refusalText({ code: "must_follow", message }, "en"), message);
  assert.equal(refusalText({ message }, "en"), message);
});

test("another language reads English", () => {
  const err = { code: "not_joined", args: {}, message: "join a table first" };
  assert.equal(refusalText(err, "de"), refusalText(err, "en"));
  assert.equal(refusalText(err), "Join a table first.");
});
