// The games and their options, as the server describes them (GET /api/games, docs/protocol.md):
// the one place in the page that knows how the games differ. The rest of the page asks a game for
// its facts (game.players, game.auction, game.tricks, game.table_cards...) instead of testing
// its name, and builds its forms from the options (settings.js).

import { Game } from "./gamefacts.js";
import { knowGames } from "./i18n.js";

export { Game };

/** The server's answer; asked again (after 0.5 s, 1 s, 2 s... up to 5 s) while the server does not answer. */
async function load() {
  for (let wait = 500; ; wait = Math.min(2 * wait, 5000)) {
    try {
      const response = await fetch("/api/games");
      if (response.ok) return await response.json();
    } catch {
      // No answer (a server restarting): ask again.
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

const answer = await load();

/** The games, in the server's order (the order of the game tiles). */
export const GAMES = answer.games.map((spec) => new Game(spec, answer));
// The server's titles stand in for the words of a game the page has none for (i18n.js gameTitle).
knowGames(GAMES);
/** The rule options, in form order, and the settings only a server table has (bots, speed, timer). */
export const OPTIONS = answer.options;
export const TABLE_SETTINGS = answer.table_settings || [];
/** The bounds of a score sheet's entries (belote/sheet.py): card points, declarations, start, names. */
export const SHEET_LIMITS = answer.sheet_limits;
/** The quick reactions a table takes (room.REACTIONS), in the order the page offers them. */
export const REACTIONS = answer.reactions || [];

const BY_NAME = new Map(GAMES.map((g) => [g.name, g]));

/** The game of a name; an unknown name (an old saved setting) is the first game. */
export function gameOf(name) {
  return BY_NAME.get(name) || GAMES[0];
}

/** Whether a name is one of the games. */
export function isGame(name) {
  return BY_NAME.has(name);
}

/** The default of every option and table setting, with the first game: a table's (its match to
 * 1,000, the server's `table_default`), or with `atTable` false the rules' own (the score sheet's: 501). */
export function defaultSettings(atTable = true) {
  const out = { variant: GAMES[0].name };
  for (const o of [...OPTIONS, ...TABLE_SETTINGS]) {
    if (o.name !== "variant") out[o.name] = atTable ? (o.table_default ?? o.default) : o.default;
  }
  return out;
}
