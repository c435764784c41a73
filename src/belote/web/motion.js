// Motion at the table: the cards dealt into the hand, a card laid on the trick, the trick swept to
// its winner. Each is a class put on for the time of a CSS animation (style.css, "Motion"); with
// `prefers-reduced-motion` the page does none of them and nothing waits for them.

const DEAL_MS = 900;
const SWEEP_AFTER_MS = 450; // the finished trick is seen whole, then swept

export class Motion {
  constructor({ felt, trick, hand }) {
    this.felt = felt;
    this.trick = trick;
    this.hand = hand;
    this.media = window.matchMedia("(prefers-reduced-motion: reduce)");
    this.timers = {};
  }

  get reduced() {
    return this.media.matches;
  }

  /** A class on `node` for `ms`, started afresh if it was on. */
  flash(name, node, cls, ms) {
    clearTimeout(this.timers[name]);
    node.classList.remove(cls);
    void node.offsetWidth; // restart the animation
    node.classList.add(cls);
    this.timers[name] = setTimeout(() => node.classList.remove(cls), ms);
  }

  /** A new deal: the hand's cards come in one after another. */
  deal() {
    if (this.reduced) return;
    this.flash("deal", this.hand, "dealing", DEAL_MS);
  }

  /** A card laid on the trick comes from where its player sits; one's own from the hand. */
  cardPlayed(seat, mine) {
    if (this.reduced) return;
    this.trick.classList.remove("sweep");
    this.trick.dataset.from = mine ? "hand" : "";
  }

  /** The trick is won: seen whole for a moment, then swept towards its winner's place. */
  trickWon() {
    if (this.reduced) return;
    clearTimeout(this.timers.sweep);
    this.timers.sweep = setTimeout(() => {
      if (this.trick.classList.contains("done")) this.trick.classList.add("sweep");
    }, SWEEP_AFTER_MS);
  }
}
