// The seats and the scores of each game, and where each seat goes on the screen. The server names
// seats by the compass: N E S W at four players, N E S at three, N E at two. The page turns the
// table so that its own seat is at the bottom.

export const SEATS = ["N", "E", "S", "W"];
export const SIDE_OF = { N: "NS", S: "NS", E: "EW", W: "EW" };
export const OTHER_SIDE = { NS: "EW", EW: "NS" };

/** Players at the table in each game (src/belote/rules.py, PLAYERS). */
export const PLAYERS = { classic: 4, coinche: 4, "three-handed": 3, "two-handed": 2 };

/** The places on the screen, from the bottom in the order of play: at three the others sit left and right. */
const PLACES = { 4: ["S", "W", "N", "E"], 3: ["S", "W", "E"], 2: ["S", "N"] };

export function playersOf(variant) {
  return PLAYERS[variant] || 4;
}

/** The seats of a table of `n` players: ["N", "E", "S", "W"], ["N", "E", "S"] or ["N", "E"]. */
export function seatsOf(n = 4) {
  return SEATS.slice(0, n);
}

/** The names of the scores: the sides NS and EW at four, else each player's seat. */
export function teamsOf(n = 4) {
  return n === 4 ? ["NS", "EW"] : seatsOf(n);
}

/** The score a seat's points go to: its side at four, its own at two and three. */
export function teamOf(seat, n = 4) {
  return n === 4 ? SIDE_OF[seat] : seat;
}

/** The seats of a score: "NS" -> ["N", "S"]; at two and three hands a score is one seat. */
export function teamSeats(team) {
  return team.split("");
}

/** The partner across the table, at four players only (null otherwise). */
export function partnerOf(seat, n = 4) {
  return n === 4 ? SEATS[(SEATS.indexOf(seat) + 2) % 4] : null;
}

/**
 * Where `seat` is drawn for a page whose own seat is `me`: "S" (bottom), "N" (top), "W" (left) or
 * "E" (right). The whole table turns, so the order of play around it is the same on every screen.
 * screenPos("E", "E") === "S"; screenPos("S", "E") === "W"; screenPos("W", "E") === "N";
 * at three players screenPos("N", "S", 3) === "W"; at two screenPos("E", "N", 2) === "N".
 */
export function screenPos(seat, me = "S", n = 4) {
  const seats = seatsOf(n);
  const mine = seats.includes(me) ? me : seats[seats.length - 1];
  return PLACES[n][(seats.indexOf(seat) - seats.indexOf(mine) + n) % n];
}

/** The seat drawn at a place on the screen, or null where nobody sits in this game. */
export function seatAt(pos, me = "S", n = 4) {
  return seatsOf(n).find((seat) => screenPos(seat, me, n) === pos) || null;
}

/** The seats in the order they appear from the bottom of the screen: me, left, (partner,) right. */
export function seatsAround(me = "S", n = 4) {
  return PLACES[n].map((pos) => seatAt(pos, me, n));
}
