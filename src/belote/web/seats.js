// The four seats and the two sides, and where each seat goes on the screen. The server names seats
// by the compass (N, E, S, W); the page turns the table so that its own seat is at the bottom.

export const SEATS = ["N", "E", "S", "W"];
export const SIDE_OF = { N: "NS", S: "NS", E: "EW", W: "EW" };
export const OTHER_SIDE = { NS: "EW", EW: "NS" };

export function partnerOf(seat) {
  return SEATS[(SEATS.indexOf(seat) + 2) % 4];
}

/**
 * Where `seat` is drawn for a page whose own seat is `me`: "S" (bottom), "N" (top), "W" (left) or
 * "E" (right). The whole table turns, so the order of play around it is the same on every screen.
 * screenPos("E", "E") === "S"; screenPos("S", "E") === "W"; screenPos("W", "E") === "N".
 */
export function screenPos(seat, me = "S") {
  const turn = SEATS.indexOf(me) - SEATS.indexOf("S");
  return SEATS[(SEATS.indexOf(seat) - turn + 8) % 4];
}

/** The seats in the order they appear from the bottom of the screen: me, left, partner, right. */
export function seatsAround(me = "S") {
  return ["S", "W", "N", "E"].map((pos) => SEATS.find((seat) => screenPos(seat, me) === pos));
}
