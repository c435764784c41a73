// One game's facts, as the server describes them (GET /api/games, docs/protocol.md), and the few
// questions the page asks of them. No fetch and no page here: the reducer's tests build games from
// the same description (tests/js).

const SIDES = { N: "NS", S: "NS", E: "EW", W: "EW" };
const COMPASS = ["N", "E", "S", "W"];

/** One game: the server's facts, and the few questions the page asks of them. */
export class Game {
  /** `catalog`: the server's options and table settings (`{options, table_settings}`), which `shows` reads. */
  constructor(spec, catalog = { options: [], table_settings: [] }) {
    // name, players, seats ["N", "E", ...], teams (the scores' names: ["NS", "EW"] or the seats),
    // partners, tricks, auction, turned_card, bidding_hand, playing_hand, table_cards, out_of_play,
    // declarations, options (those the game reads) and sheet_options (those its score sheet holds).
    Object.assign(this, spec);
    Object.defineProperty(this, "catalog", { value: catalog, enumerable: false });
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
    const option = this.catalog.options.find((o) => o.name === name);
    if (option) return option.table !== false && this.options.includes(name);
    const setting = (this.catalog.table_settings || []).find((o) => o.name === name);
    return Boolean(setting) && (!setting.games || setting.games.includes(this.name));
  }
}
