// The deal's sheet of the end-of-deal panel (src/belote/web/dealsheet.js): the rows the engine scored,
// drawn as given, adding up in every column to the points the score adds. The results are the
// engine's (tests/test_js.py writes them to BELOTE_FIXTURE): results of every kind, and every deal of
// real matches of every game.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { addedHtml, rowLabel, rowPoints, sheetRowsHtml } from "../../src/belote/web/dealsheet.js";
import { hasWords, setLang, t } from "../../src/belote/web/i18n.js";

const fixture = JSON.parse(readFileSync(process.env.BELOTE_FIXTURE, "utf8"));

/** The table as drawn: each row's cells (its label first), as text. */
function drawn(result, cols) {
  const html = sheetRowsHtml(result, cols) + addedHtml(result, cols);
  return [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map((tr) =>
    [...tr[1].matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((cell) => cell[1]),
  );
}

/** A drawn number: "152", "−90", "+342"; an empty cell is no points. */
const number = (text) => (text === "" ? 0 : Number(text.replace("\u2212", "-")));

/** Every column's rows add up to the points added drawn under them, which are the engine's. */
function checkSums(result) {
  const cols = Object.keys(result.points);
  const rows = drawn(result, cols);
  const added = rows.pop();
  assert.equal(added[0], t("added"));
  cols.forEach((x, i) => {
    const sum = rows.reduce((total, cells) => total + number(cells[i + 1]), 0);
    assert.equal(added[i + 1], `+${result.points[x]}`);
    assert.equal(sum, result.points[x], `${x}: ${JSON.stringify(rows)} add up to ${sum}, not ${result.points[x]}`);
  });
  return rows;
}

test("a capot's sheet has its 90 on a row: 152 + 10 + 70 + 20 + 90 = +342", () => {
  setLang("en");
  const capot = fixture.results[0];
  assert.deepEqual(drawn(capot, ["NS", "EW"]), [
    ["Card points", "152", "0"],
    ["Last trick (dix de der)", "10", ""],
    ["Declarations", "70", ""],
    ["Belote &amp; rebelote", "20", ""],
    ["Capot bonus", "90", ""],
    ["Points added", "+342", "+0"],
  ]);
  setLang("fr");
  assert.deepEqual(
    drawn(capot, ["EW", "NS"]).map((cells) => cells[0]),
    ["Points des cartes", "Dix de der", "Annonces", "Belote et rebelote", "Prime de capot", "Points marqués"],
  );
  assert.deepEqual(drawn(capot, ["EW", "NS"])[4], ["Prime de capot", "", "90"], "the reader's column first");
});

test("a dedans shows the takers' points going to the defenders, a true minus on the takers' side", () => {
  setLang("en");
  const rows = checkSums(fixture.results[1]);
  assert.deepEqual(rows, [
    ["Card points", "40", "112"],
    ["Last trick (dix de der)", "", "10"],
    ["Declarations", "50", ""],
    ["From the other side", "", "90"],
    ["Given to the other side", "\u221290", ""],
  ]);
});

test("a Coinche contract made has its row, a surcoinche its multiplier", () => {
  setLang("fr");
  const made = checkSums(fixture.results[4]);
  assert.deepEqual(made.find((cells) => cells[0] === "Contrat"), ["Contrat", "100", ""]);
  const surcoinche = checkSums(fixture.results[5]);
  assert.deepEqual(surcoinche.find((cells) => cells[0].startsWith("Surcoinche")), ["Surcoinche ×4", "", "720"]);
  setLang("en");
  assert.equal(rowLabel("surcoinche", { multiplier: 3 }), "Surcoinche ×3");
  assert.ok(checkSums(fixture.results[6]).some((cells) => cells[0] === "Coinche ×2"));
});

test("every result of the engine, in both languages, adds up column by column", () => {
  for (const l of ["en", "fr"]) {
    setLang(l);
    for (const result of fixture.results) checkSums(result);
    for (const m of fixture.matches) {
      for (const [, e] of m.events) if (e.type === "scored") checkSums(e);
    }
  }
  const litige = checkSums(fixture.results[2]);
  assert.ok(litige.some((cells) => cells[1] === "\u221281"), "the takers' 81 set aside");
});

test("every row the engine scores has its words", () => {
  for (const name of fixture.sheet_rows) assert.ok(hasWords(`row_${name}`), name);
  setLang("en");
  assert.equal(rowLabel("a_row_of_a_newer_server"), "a_row_of_a_newer_server");
  assert.deepEqual([rowPoints(0), rowPoints(-2), rowPoints(undefined)], ["0", "\u22122", ""]);
});

test("a thrown-in deal has no row, only what each score adds", () => {
  setLang("en");
  const thrown = { outcome: "thrown-in", points: { NS: 0, EW: 0 }, rows: [] };
  assert.deepEqual(drawn(thrown, ["NS", "EW"]), [["Points added", "+0", "+0"]]);
});
