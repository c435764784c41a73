// Where each seat goes on the screen. The server names seats by the compass: N E S W at four
// players, N E S at three, N E at two (each game's seats and scores are in games.js). The page turns
// the table so that its own seat is at the bottom.

export const SEATS = ["N", "E", "S", "W"];
/** The places on the screen, from the bottom in the order of play: at three the others sit left and right. */
const PLACES = { 4: ["S", "W", "N", "E"], 3: ["S", "W", "E"], 2: ["S", "N"] };

/** The seats of a score: "NS" -> ["N", "S"]; at two and three hands a score is one seat. */
export function teamSeats(team) {
  return team.split("");
}

/** The seats of a table of `n` players: ["N", "E", "S", "W"], ["N", "E", "S"] or ["N", "E"]. */
function seatsOf(n) {
  return SEATS.slice(0, n);
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
