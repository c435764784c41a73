// The table in words, from the reader's side: "You", a person's name, a bot's name, a side ("You &
// North"), a bid, an event of the log. `wordsFor(table)` gives the words of one table state (state.js)
// in the page's language (i18n.js); it draws nothing.

import { cardText } from "./cards.js";
import { auctionOf } from "./auctions.js";
import { bidHtml, contractText, modeHtml, modeWord, parseBid } from "./coinche.js";
import { esc } from "./dom.js";
import { colon, getLang, t, ts } from "./i18n.js";
import { teamSeats } from "./seats.js";
import { me, shared } from "./state.js";

const COMPASS_NAMES = new Set(["North", "East", "South", "West"]);

export function outcomeWord(outcome) {
  return t({ made: "made", dedans: "dedans", litige: "litige", capot: "capot", "thrown-in": "thrownIn" }[outcome] || outcome);
}

export function wordsFor(table) {
  const game = table.game;
  const isMe = (seat) => table.seat !== null && seat === table.seat;

  /** Words about a seat, in the grammar of "you" when it is this page's seat. */
  const tsSeat = (key, seat, params) => ts(key, isMe(seat), params);

  /** Whoever sits there with a name of their own: a person at a shared table, or a bot given a name. */
  const named = (seat) => {
    const p = table.players[seat];
    if (!p || !p.name) return null;
    if (p.bot) return COMPASS_NAMES.has(p.name) ? null : p.name;
    return shared(table) ? p.name : null;
  };

  /** A seat in a sentence: "You", a name, else the seat ("North"). */
  const seatName = (seat) => (isMe(seat) ? t("you") : named(seat) || t(`seat${seat}`));

  /** A seat's label at the table: the name of whoever sits there (one's own too, at a shared table). */
  const labelName = (seat) => {
    const p = table.players[seat];
    if (isMe(seat) && !(shared(table) && p && p.name)) return t("you");
    return named(seat) || t(`seat${seat}`);
  };

  /**
   * A side in words: "You & North", "Alice & Bob" (one's own seat first); at two and three hands a
   * score is one player's ("You", "East"), and the defenders of a three-handed deal are two ("NS").
   */
  const sideName = (side) => {
    const members = teamSeats(side);
    if (members.length === 1) return seatName(side);
    const [a, b] = table.seat && members[1] === table.seat ? [members[1], members[0]] : members;
    return t("sideOf", { a: seatName(a), b: seatName(b) });
  };

  /** The score columns' heads: Us and Them for a player at four (the two sides for a spectator), else each player. */
  const sideHead = (side) => {
    if (!game.partners) return isMe(side) ? t("you") : labelName(side);
    if (!table.seat) return t(side === "NS" ? "sideShortNS" : "sideShortEW");
    return t(side === game.team(me(table)) ? "us" : "them");
  };

  /** A side's head with its members, for a sheet's column: "Us (You & North)". */
  const sideFull = (side) => {
    if (!game.partners) return sideHead(side);
    return `${sideHead(side)} · ${sideName(side)}`;
  };

  const suitWord = (suit) => modeWord(suit, t);
  const suitHtml = (suit) => modeHtml(suit, t);
  const declName = (name) => t(name);

  /** What a deal's outcome is called: in Coinche a contract that fails is "Failed" (chuté). */
  const dealOutcome = (outcome) => {
    const own = auctionOf(game).outcomeKeys[outcome];
    return own ? t(own) : outcomeWord(outcome);
  };

  const bidText = (seat, bid, turned) => {
    if (bid === "pass") return esc(tsSeat("bidPass", seat, { seat: seatName(seat) }));
    if (bid === "coinche") return esc(t("saysCoinche", { seat: seatName(seat) }));
    if (bid === "surcoinche") return esc(t("saysSurcoinche", { seat: seatName(seat) }));
    if (parseBid(bid)) return `${esc(tsSeat("bidContract", seat, { seat: seatName(seat) }))} ${bidHtml(bid, t)}`;
    if (bid === "take") return `${esc(tsSeat("bidTake", seat, { seat: seatName(seat), suit: "" }))}${suitHtml(turned[1])}`;
    return `${esc(tsSeat("bidName", seat, { seat: seatName(seat), suit: "" }))}${suitHtml(bid)}`;
  };

  /** "Capot! North & South took every trick", or one player alone at two and three hands. */
  const capotWords = (side) =>
    teamSeats(side).length === 1 ? tsSeat("capotLongOne", side, { side: sideName(side) }) : t("capotLong", { side: sideName(side) });

  /**
   * An event of the log as its lines: one `{html, cls}` (text escaped), a list of them, or null for
   * an event with no line. `deal` is the deal the event belongs to, once folded (state.js).
   */
  const eventLine = (e, deal) => {
    const lang = getLang();
    switch (e.type) {
      case "dealt":
        return e.turned
          ? { html: esc(tsSeat("dealtBy", e.dealer, { n: deal.number, seat: seatName(e.dealer), card: cardText(e.turned, lang) })), cls: "deal" }
          : { html: esc(tsSeat("dealtByAll", e.dealer, { n: deal.number, seat: seatName(e.dealer) })), cls: "deal" };
      case "bid": {
        const line = { html: bidText(e.seat, e.bid, deal.turned), cls: e.bid === "coinche" || e.bid === "surcoinche" ? "say" : e.bid === "pass" ? "line-pass" : "line-bid" };
        // The second round of the games with a turned card begins once everybody has passed.
        const round2 = game.turned_card && deal.bids.length === game.players && deal.bids.every(([, b]) => b === "pass");
        return round2 ? [line, { html: esc(t("round2")), cls: "line-round" }] : line;
      }
      case "trump":
        if (!e.contract) return null; // the bid that took says it
        return { html: esc(tsSeat("contractLine", e.taker, { seat: seatName(e.taker), contract: contractText({ ...e.contract, bidder: e.taker }, t) })), cls: "say" };
      case "turned-up":
        return { html: esc(tsSeat("turnedUp", e.seat, { seat: seatName(e.seat), card: cardText(e.card, lang) })), cls: "" };
      case "declared":
        return { html: esc(tsSeat("declared", e.seat, { seat: seatName(e.seat), what: e.declarations.map(declName).join(", ") })), cls: "say" };
      case "card":
        if (!e.say) return null;
        return { html: esc(t(e.say === "belote" ? "saysBelote" : "saysRebelote", { seat: seatName(e.seat) })), cls: "say" };
      case "trick":
        return { html: esc(tsSeat("wonTrick", e.winner, { seat: seatName(e.winner), n: e.points })), cls: "line-trick" };
      case "declarations-shown":
        return {
          html: esc(t("declarationsShown", { side: sideName(e.side), what: e.declarations.map((d) => `${declName(d.name)} (${d.points})`).join(", ") })),
          cls: "say",
        };
      case "scored":
        return {
          html: esc(`${t("deal", { n: deal.number })}${colon()}${dealOutcome(e.outcome)} · ${game.teams.map((x) => e.points[x]).join(" – ")}`),
          cls: "result",
        };
      case "match-over":
        return { html: esc(t("matchOver")), cls: "result" };
      default:
        return null;
    }
  };

  return {
    isMe, tsSeat, seatName, labelName, sideName, sideHead, sideFull, suitWord, suitHtml, declName,
    dealOutcome, bidText, capotWords, eventLine,
  };
}
