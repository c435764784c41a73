// The table as this page knows it, folded from the server's messages (docs/protocol.md): a pure
// reducer and the questions the views ask of its state. Nothing here touches the page, the socket
// or the clock, so it runs (and is tested) without a browser: tests/js/state.test.mjs.
//
// A table state is replaced, never changed in place: `reduce(table, message)` returns a new one,
// with the events it folded in (`applied`) so that the page can animate and announce them.

import { auctionOf } from "./auctions.js";

/** A page at no table. `game` is the game's facts (games.js), given by whoever builds the state. */
export function emptyTable(game) {
  return {
    game,
    kind: null, // solo | online | private
    status: null, // lobby | playing
    seat: null, // this page's seat; null for a spectator
    host: null,
    players: {},
    view: null, // the PlayerView of the last state
    msg: null, // the last "state" message
    waiting: null, // "continue" | "others" | null
    timer: null, // {seat, left_ms} as sent
    settings: null,
    deals: [], // the deals of the match, rebuilt from the events
    matchOver: null,
    last: -1, // the number of the last event seen
    states: 0,
    spectatorPanel: null, // the deal whose score a spectator is shown, until closed
  };
}

function newDeal(e) {
  return {
    number: e.number,
    scoreBefore: e.score,
    dealer: null,
    turned: null,
    bids: [],
    taker: null,
    trump: null,
    contract: null,
    cards: [],
    tricks: [],
    declared: [],
    shown: null,
    result: null,
  };
}

/**
 * One event folded into the deals: a new list, whose last deal is a new object when the event
 * changes it. `players` is the game's number of players (a trick holds that many cards).
 */
export function foldEvent(deals, e, players) {
  if (e.type === "deal") return [...deals, newDeal(e)];
  if (!deals.length) return deals; // an event of a deal this page never saw begin
  const d = { ...deals[deals.length - 1] };
  switch (e.type) {
    case "dealt":
      d.dealer = e.dealer;
      d.turned = e.turned ?? null;
      break;
    case "bid":
      d.bids = [...d.bids, [e.seat, e.bid]];
      break;
    case "trump":
      d.taker = e.taker;
      d.trump = e.trump;
      if (e.contract) d.contract = { ...e.contract, bidder: e.taker };
      break;
    case "declared":
      d.declared = [...d.declared, { seat: e.seat, declarations: e.declarations }];
      break;
    case "card":
      d.cards = [...d.cards, [e.seat, e.card, e.say || null]];
      break;
    case "trick":
      d.tricks = [...d.tricks, { winner: e.winner, points: e.points, number: e.number, cards: d.cards.slice(-players) }];
      break;
    case "declarations-shown":
      d.shown = e;
      break;
    case "scored":
      d.result = e;
      break;
    default:
      return deals;
  }
  return [...deals.slice(0, -1), d];
}

/** The game played at a table: from the view, or in a lobby from the table's settings. */
export function variantOf(msg) {
  const rules = msg && msg.view && msg.view.rules;
  return (rules && rules.variant) || (msg && msg.settings && msg.settings.variant) || null;
}

/**
 * A "state" message folded into the table. `gameOf(name)` gives a game's facts. Returns
 * `{table, applied}`: `applied` lists the events folded in, each `{n, e, deal, live}` (`deal`: the
 * deal it belongs to once folded; `live`: it happened now, rather than being history caught up on
 * a join, so the page may animate and announce it).
 */
export function reduceState(table, msg, gameOf) {
  const game = gameOf(variantOf(msg));
  const events = Array.isArray(msg.events) ? msg.events : [];
  const first = events.length ? events[0][0] : null;
  const restart = first === 0 || Boolean(msg.gap);
  const live = table.states > 0 && !restart;
  let deals = restart ? [] : table.deals;
  let matchOver = restart ? null : table.matchOver;
  let spectatorPanel = restart ? null : table.spectatorPanel;
  let last = restart ? -1 : table.last;
  const applied = [];
  for (const [n, e] of events) {
    if (n <= last && !restart) continue;
    deals = foldEvent(deals, e, game.players);
    if (e.type === "match-over") matchOver = e;
    if (e.type === "bid") spectatorPanel = null; // the next deal is under way
    if (e.type === "scored" && live) spectatorPanel = deals[deals.length - 1].number;
    applied.push({ n, e, deal: deals[deals.length - 1] || null, live });
    last = n;
  }
  if (typeof msg.last === "number" && msg.last > last) last = msg.last;
  const next = {
    ...table,
    game,
    kind: msg.kind || "solo",
    status: msg.status || "playing",
    seat: msg.seat ?? null,
    host: msg.host ?? null,
    players: msg.players || {},
    view: msg.view || null,
    msg,
    waiting: msg.waiting ?? null,
    timer: msg.timer || null,
    settings: msg.settings || table.settings,
    deals,
    matchOver,
    last,
    states: table.states + 1,
    spectatorPanel,
  };
  return { table: next, applied };
}

/** A spectator closes the score of a deal. */
export function closePanel(table) {
  return { ...table, spectatorPanel: null };
}

// ---------------------------------------------------------------------- questions the views ask

export function currentDeal(table) {
  return table.deals[table.deals.length - 1] || null;
}

export function lastScoredDeal(table) {
  for (let i = table.deals.length - 1; i >= 0; i--) if (table.deals[i].result) return table.deals[i];
  return null;
}

/** Whether the table is shared with other people (online or private), not a solo table nor a
 * tournament's board (one person and the tournament's bots). */
export function shared(table) {
  return table.kind !== null && table.kind !== "solo" && table.kind !== "tournament";
}

/** The seat drawn at the bottom: one's own, or for a spectator the game's (South, or East at two hands). */
export function me(table) {
  return table.seat || table.game.bottom;
}

/** This page's player, when a bot plays for them because they were away. */
export function standingIn(table) {
  const mine = table.seat && table.players[table.seat];
  return Boolean(mine && mine.standin);
}

/**
 * Whether this page may act now in `phase` ("bidding" or "play"): its seat is to move, it is
 * connected, no bot stands in for it, and the next deal is not waiting for the others to read.
 */
export function myTurn(table, phase, connected = true) {
  const v = table.view;
  return Boolean(
    v && table.seat && connected && v.to_move === table.seat && v.phase === phase && !v.match_over &&
      table.waiting !== "others" && !standingIn(table),
  );
}

/**
 * What the turn line says, as an i18n key and its parameters, and whether it is the reader's turn
 * to act. One state, one message: away from the server nothing is playable; while a bot stands in,
 * only that is said.
 */
export function turnLine(table, { connected = true, hasTable = false } = {}) {
  const v = table.view;
  if (table.status === "lobby") return { key: "" }; // the lobby says who starts the game
  if (!v) return { key: hasTable ? "connecting" : "pressNew" };
  if (!connected) return { key: "offlineTurn", offline: true };
  if (standingIn(table)) return { key: "standinYou", standin: true };
  if (table.waiting === "continue" || v.match_over) return { key: "" };
  if (table.seat && (table.waiting === "others" || (!table.waiting && table.timer && table.timer.seat === null))) {
    return { key: "waitingOthers" };
  }
  if (table.seat && v.to_move === table.seat) {
    let key;
    if (v.phase === "play") key = "yourTurnPlay";
    else key = auctionOf(table.game).turnKey(v, table.game);
    return { key, mine: true };
  }
  if (v.to_move) return { key: v.phase === "play" ? "waitingFor" : "waitingBid", seat: v.to_move };
  return { key: "" };
}

/** A completed trick of the view: the leader, then the others in the view's order of play. */
export function trickSeats(view, trick) {
  const order = view.order;
  const start = order.indexOf(trick.leader);
  return trick.cards.map((c, i) => [order[(start + i) % order.length], c]);
}

/** The trick most recently completed in this deal (or in the deal just scored), as [seat, card] pairs. */
export function lastTrickShown(table) {
  const v = table.view;
  if (!v) return null;
  if (v.tricks.length) {
    const tr = v.tricks[v.tricks.length - 1];
    return { winner: tr.winner, points: tr.points, cards: trickSeats(v, tr) };
  }
  const scored = lastScoredDeal(table);
  if (scored && scored.tricks.length && (table.waiting === "continue" || table.spectatorPanel === scored.number)) {
    const tr = scored.tricks[scored.tricks.length - 1];
    return { winner: tr.winner, points: tr.points, cards: tr.cards };
  }
  return null;
}

/** The cards a seat holds in hand, as the server counts them (at two hands, not its table cards). */
export function handCount(table, seat) {
  const v = table.view;
  if (table.seat && seat === table.seat) return v.hand.length;
  return v.hand_sizes[seat] ?? 0;
}

/** The score of a deal is shown: to a player while the table waits to go on, to a spectator until closed. */
export function panelShown(table) {
  const v = table.view;
  if (!v) return false;
  if (table.waiting === "continue" || v.match_over) return true;
  const deal = lastScoredDeal(table);
  return !table.seat && deal !== null && table.spectatorPanel === deal.number;
}

/** The scores in the reader's order: one's own first, then the others in the order of play. */
export function teamsFromMe(table) {
  const mine = table.game.team(me(table));
  const all = table.game.teams;
  const i = Math.max(0, all.indexOf(mine));
  return [...all.slice(i), ...all.slice(0, i)];
}

/** The tricks each score has taken in the deal under way. */
export function tricksBy(table) {
  const out = Object.fromEntries(table.game.teams.map((x) => [x, 0]));
  for (const tr of table.view ? table.view.tricks : []) out[table.game.team(tr.winner)] += 1;
  return out;
}

/**
 * The declarations of a deal, seat by seat, and what became of them: each `{seat, declarations,
 * fate}` where `fate` is "scored" (counted: the best of the table), "beaten" (the other side's were
 * higher, so they score nothing), "tied" (the best were equal: neither side scores) or null while
 * the first trick, at whose end they are compared, is not over.
 */
export function declarationsOf(deal) {
  if (!deal) return [];
  const compared = deal.tricks.length > 0 || deal.result !== null;
  return deal.declared.map((d) => {
    let fate = null;
    if (deal.shown) fate = deal.shown.side.includes(d.seat) ? "scored" : "beaten";
    else if (compared) fate = "tied";
    return { ...d, fate };
  });
}

/**
 * Who has left the table and who has come back, between the state `before` and the state `after`
 * of the same table (docs/protocol.md, `players[seat].away`): `{gone: [seats], back: [seats]}`. The
 * reader's own seat is never in them: their own lost connection is said in the turn line.
 */
export function presenceNews(before, after) {
  const news = { gone: [], back: [] };
  if (!before.msg || !after.msg || before.msg.table !== after.msg.table) return news;
  for (const [seat, p] of Object.entries(after.players)) {
    const was = before.players[seat];
    if (seat === after.seat || !was || was.name !== p.name) continue;
    if (p.away && !was.away) news.gone.push(seat);
    if (!p.away && was.away) news.back.push(seat);
  }
  return news;
}
