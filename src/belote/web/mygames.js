// My games: the tables this browser played or watched, kept in localStorage (no account), so that
// their deals can be reviewed later at /review. The table page remembers each table as its state
// arrives (remember); the review page and the home screen list them (loadGames) and forget one on
// request (forget). The seat token itself stays where the table page keeps it
// (belote.token.<table>): an entry holds only what a list shows.
//
// An entry: {table, game, when, variant, seat, kind, names: {seat: name}, score, deals, watch}
//   game: the match's number at that table, from 1 (a solo table or a private one plays several);
//   score: the match's score by side when last seen; deals: finished deals then.

import { esc } from "./dom.js";
import { rt } from "./review-words.js";

const KEY = "belote.games";
/** The most entries kept: the oldest go first. */
const MAX = 50;

export function loadGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY));
    return Array.isArray(list) ? list.filter((g) => g && typeof g.table === "string") : [];
  } catch {
    return [];
  }
}

function saveGames(list) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX)));
  } catch {
    // Storage refused (a private window, full): the list is simply not kept.
  }
}

/** The entry of a table's latest game, or null. */
export function latestGame(table) {
  return loadGames().find((g) => g.table === table) || null;
}

/** The seat token of a table (the table page's), or the spectator code kept with its entry. */
export function secretOf(table, game = null) {
  try {
    const token = localStorage.getItem(`belote.token.${table}`);
    if (token) return token;
  } catch {
    return null;
  }
  const entry = loadGames().find((g) => g.table === table && (game === null || g.game === game));
  return entry && entry.watch ? entry.watch : null;
}

/**
 * Keeps (or brings up to date) the entry of the table state `T` (state.js) seen by this page (`U`:
 * its table id and spectator code). A table whose finished deals drop below the entry's is playing
 * its next match: a new entry, game + 1.
 */
export function remember(T, U) {
  if (!U.table || !T.view || !T.game) return;
  // A solo table's token lives only in the table page's current-table slot: kept under the table's
  // id too (the table page's key for a seat token), so that its reviews outlive the next table.
  try {
    const key = `belote.token.${U.table}`;
    if (U.token && localStorage.getItem(key) !== U.token) localStorage.setItem(key, U.token);
  } catch {
    // Storage refused: the review asks for the token and finds none; it says so.
  }
  const list = loadGames();
  const i = list.findIndex((g) => g.table === U.table);
  const finished = T.deals.filter((d) => d.result).length;
  const old = i >= 0 ? list[i] : null;
  const names = {};
  for (const [seat, p] of Object.entries(T.players || {})) if (p && p.name) names[seat] = p.name;
  const entry = {
    table: U.table,
    game: old ? (finished < old.deals ? old.game + 1 : old.game) : 1,
    when: old && finished >= old.deals ? old.when : Date.now(),
    variant: T.game.name,
    seat: T.seat,
    kind: T.kind,
    names,
    score: T.view.score || null,
    deals: finished,
    over: Boolean(T.view.match_over),
    watch: U.watch || (old && old.watch) || null,
  };
  if (old && old.game === entry.game && JSON.stringify({ ...old, when: 0 }) === JSON.stringify({ ...entry, when: 0 })) return;
  if (i >= 0) list.splice(i, 1);
  saveGames([entry, ...list]);
}

/** Forgets a table's entry (its seat token stays with the table page, which forgets it itself). */
export function forget(table) {
  saveGames(loadGames().filter((g) => g.table !== table));
}

/** The address of a deal's review: deal is its number in the match, from 1. */
export function reviewUrl(table, game, deal) {
  const q = new URLSearchParams({ table, game: String(game), deal: String(deal) });
  return `/review?${q}`;
}

/**
 * The end-of-deal window's link to the review of `deal` (state.js, scored): for a seat at any time,
 * for a spectator once the match is over (the archive is theirs only then).
 */
export function reviewLinkHtml(T, U, deal) {
  if (!U.table || !deal || !deal.result) return "";
  if (!T.seat && !(T.view && T.view.match_over && U.watch)) return "";
  const entry = latestGame(U.table);
  const url = reviewUrl(U.table, entry ? entry.game : 1, deal.number);
  return `<p class="review-link"><a href="${esc(url)}" target="_blank" rel="noopener" data-testid="panel-review">${esc(rt("reviewDeal"))}</a></p>`;
}
