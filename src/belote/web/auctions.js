// What the page asks of a game's auction, in one table by the auction's name (`game.auction` in
// GET /api/games: "turned", the turned card taken in two rounds; "contracts", Coinche's auction).
// The views ask `auctionOf(game)` instead of testing which auction a game has: a new auction is
// its entry here (and its bid panel, when it has one), nothing else in the page.

import { bidHtml } from "./coinche.js";
import { esc } from "./dom.js";
import { t } from "./i18n.js";

/** The turned card: take it, or name another suit in the second round. */
const TURNED = {
  /** A bid as a bubble or the history writes it; `w` the table's words, `turned` the turned card. */
  bidHtml(bid, w, turned) {
    if (bid === "pass") return esc(t("passed"));
    if (bid === "take") return `${esc(t("took"))} ${w.suitHtml(turned[1])}`;
    return `${esc(t("names"))} ${w.suitHtml(bid)}`;
  },
  /** Whether the table's head shows the auction's standing bid while it goes on. */
  standing: false,
  /** Whether a turn to bid is a bid panel (levels and modes) rather than a row of buttons. */
  panel: false,
  /** The turn line's key at this seat's turn to bid. */
  turnKey: (v, game) => (v.bids.length >= game.players ? "yourTurnName" : "yourTurnBid"),
  /** What a newcomer is told at their first decision. */
  hintKey: "hintTake",
  /** What a deal nobody took is said to be. */
  thrownInKey: "thrownInLong",
  /** The page's key for an outcome this auction words its own way. */
  outcomeKeys: {},
};

/** Coinche: a contract (a level and a mode), coinche and surcoinche. */
const CONTRACTS = {
  bidHtml: (bid) => bidHtml(bid, t),
  standing: true,
  panel: true,
  // Name only what the player may do now: coinche is there only against the other side's contract.
  turnKey: (v) =>
    v.legal.includes("surcoinche") ? "yourTurnSurcoinche" : v.legal.includes("coinche") ? "yourTurnCoinche" : "yourTurnContract",
  hintKey: "hintContract",
  thrownInKey: "thrownInCoinche",
  // A contract that fails is "Failed" (chuté), not dedans.
  outcomeKeys: { dedans: "failed" },
};

export const AUCTIONS = { turned: TURNED, contracts: CONTRACTS };

/** The auction of `game`: the turned card's for a game whose auction the page does not know. */
export function auctionOf(game) {
  return AUCTIONS[game.auction] || TURNED;
}
