// The games and their options, as the server describes them (GET /api/games, docs/protocol.md):
// the one place in the page that knows how the games differ. The rest of the page asks a game for
// its facts (game.players, game.contracts, game.tricks, game.table_cards...) instead of testing
// its name, and builds its forms from the options (settings.js).

const SIDES = { N: "NS", S: "NS", E: "EW", W: "EW" };
const COMPASS = ["N", "E", "S", "W"];

/** One game: the server's facts, and the few questions the page asks of them. */
export class Game {
  constructor(spec) {
    // name, players, seats ["N", "E", ...], teams (the scores' names: ["NS", "EW"] or the seats),
    // partners, tricks, auction, turned_card, bidding_hand, playing_hand, table_cards, out_of_play,
    // declarations, options (those the game reads) and sheet_options (those its score sheet holds).
    Object.assign(this, spec);
  }

  /** Whether the auction names contracts (Coinche) rather than taking a turned card. */
  get contracts() {
    return this.auction === "contracts";
  }

  /** The score a seat's points go to: its side, or its own. */
  team(seat) {
    return this.partners ? SIDES[seat] : seat;
  }

  /** The partner across the table, or null in a game where each plays for themselves. */
  partner(seat) {
    return this.partners ? COMPASS[(COMPASS.indexOf(seat) + 2) % 4] : null;
  }

  /** The seat drawn at the bottom for a page without one: South, or the last seat where nobody sits South. */
  get bottom() {
    return this.seats.includes("S") ? "S" : this.seats[this.seats.length - 1];
  }

  /** Whether the two defenders play together against the taker for a deal (three hands). */
  get defendersAlly() {
    return !this.partners && this.players > 2;
  }

  /**
   * Whether a form shows an option for this game: at a table (`place` "table") the options the game
   * reads and a host chooses, and the table settings (bots, timer); on a score sheet ("sheet") the
   * options its sheet holds. Sequences and fours are never declared in a game without declarations
   * (two hands): the option that turns them off is not asked.
   */
  shows(name, place = "table") {
    if (name === "declarations" && !this.declarations) return false;
    if (place === "sheet") return this.sheet_options.includes(name);
    const option = OPTIONS.find((o) => o.name === name);
    if (option) return option.table !== false && this.options.includes(name);
    const setting = TABLE_SETTINGS.find((o) => o.name === name);
    return Boolean(setting) && (!setting.games || setting.games.includes(this.name));
  }
}

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
export const GAMES = answer.games.map((spec) => new Game(spec));
/** The rule options, in form order, and the settings only a server table has (bots, speed, timer). */
export const OPTIONS = answer.options;
export const TABLE_SETTINGS = answer.table_settings || [];

const BY_NAME = new Map(GAMES.map((g) => [g.name, g]));

/** The game of a name; an unknown name (an old saved setting) is the first game. */
export function gameOf(name) {
  return BY_NAME.get(name) || GAMES[0];
}

/** Whether a name is one of the games. */
export function isGame(name) {
  return BY_NAME.has(name);
}

/** The default of every option and table setting, with the first game. */
export function defaultSettings() {
  const out = { variant: GAMES[0].name };
  for (const o of [...OPTIONS, ...TABLE_SETTINGS]) if (o.name !== "variant") out[o.name] = o.default;
  return out;
}
