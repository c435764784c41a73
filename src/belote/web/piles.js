// Two hands: the ten cards each player has on the table, in five piles in front of them. A pile is
// a face-up card lying on a face-down one; when the face-up card is played, the one under it is
// turned up once the trick is taken (the event "turned-up"). The view sends each pile as
// [face-up card or null, number of face-down cards under it].

import { esc } from "./dom.js";
import { cardBack, cardFace, cardName } from "./cards.js";

/**
 * A seat's piles as HTML. One's own face-up cards are buttons, played as the cards of the hand
 * are: `legal` holds the cards that may be played now (only when `mine` is this page's turn).
 * `fresh` holds the cards just turned up, marked for a moment; `flipping` those still turning over.
 */
export function pilesHtml({ seat, piles, own, turn, legal, sending, fresh, flipping, lang }) {
  return (
    `<div class="piles" data-testid="piles-${seat}" data-seat="${seat}">` +
    piles
      .map(([up, down], i) => {
        const under = down ? `<div class="pile-back" data-testid="pile-back">${cardBack()}</div>` : "";
        let top = "";
        if (up) {
          const cls = ["pile-card", "card"];
          if (fresh.has(up)) cls.push("fresh");
          if (flipping.has(up)) cls.push("flip");
          if (own && turn) cls.push(legal.has(up) ? "legal" : "illegal");
          if (sending === up) cls.push("sending");
          const attrs =
            `class="${cls.join(" ")}" data-testid="table-card" data-seat="${seat}" data-card="${up}" ` +
            `data-legal="${legal.has(up)}" aria-label="${esc(cardName(up, lang))}"`;
          top = own ? `<button type="button" ${attrs}>${cardFace(up, lang)}</button>` : `<div role="img" ${attrs}>${cardFace(up, lang)}</div>`; // a picture with its name: a label needs a role
        }
        const empty = !up && !down ? " empty" : "";
        return `<div class="pile${empty}" data-pile="${i}" data-down="${down}">${under}${top}</div>`;
      })
      .join("") +
    `</div>`
  );
}
