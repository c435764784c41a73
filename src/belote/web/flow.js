// What the page does by itself for its player, as the player's preferences say (kept in this
// browser, not at the table): the next deal after a few seconds, the only card one may play, and
// whether declarations and belote are announced for the player or by hand. Plain functions of the
// view and the preferences: the controller (app.js) asks them, the tests run them under node.
//
// Announcing by hand: the view tells its seat what it would announce with its next cards
// (`view.to_announce`: its declarations' names before its first card, and "belote" while it holds
// the king and queen of trumps, neither played). A player who announces by hand presses Announce;
// a card played without it carries "/quiet" (declarations) or "/nobelote" (belote), and what is kept
// quiet does not score (docs/protocol.md, `act`).

export const PREFS_KEY = "belote.prefs";
/** The preferences of a first visit: the page flows by itself, and announces for the player. */
export const DEFAULT_PREFS = Object.freeze({ autoNext: 5, autoPlay: true, announce: "auto", belote: "auto" });
/** The seconds the next deal may wait by itself (0: until the player presses Continue). */
export const AUTO_NEXT_CHOICES = [0, 3, 5, 10];
export const ANNOUNCE_CHOICES = ["auto", "hand"];
/** How long the only card one may play shows before it plays itself. */
export const AUTO_PLAY_MS = 600;
/** How long a card that played itself may go unanswered, the table still in the same state, before
 * it is played again: it was lost with a dropped socket or refused for a passing reason. */
export const AUTO_PLAY_RETRY_MS = 3000;

const CHOICES = { autoNext: AUTO_NEXT_CHOICES, announce: ANNOUNCE_CHOICES, belote: ANNOUNCE_CHOICES };

/** The preferences `stored` (JSON text, or null), each kept only when it is one of its choices. */
export function readPrefs(stored) {
  let saved = {};
  try {
    saved = JSON.parse(stored) || {};
  } catch {
    /* nothing kept, or not JSON: the defaults */
  }
  const prefs = { ...DEFAULT_PREFS };
  for (const [name, value] of Object.entries(saved)) {
    if (!(name in prefs)) {
      prefs[name] = value; // a preference of another module (the notification's), kept as it is
    } else if (CHOICES[name] ? CHOICES[name].includes(value) : typeof value === typeof DEFAULT_PREFS[name]) {
      prefs[name] = value;
    }
  }
  return prefs;
}

/** Whether `card` is one of the king and queen of trumps. */
export function isBeloteCard(view, card) {
  return Boolean(view.trump) && card.length === 2 && card[1] === view.trump && (card[0] === "K" || card[0] === "Q");
}

/** What a player who announces by hand may announce now: its declarations' names, and belote. */
export function announceOffer(view, prefs) {
  const say = (view && view.to_announce) || [];
  return {
    declarations: prefs.announce === "hand" ? say.filter((w) => w !== "belote") : [],
    belote: prefs.belote === "hand" && say.includes("belote"),
  };
}

/** The action that plays `card`: with what a player who announces by hand left unsaid (`saying`:
 * what it pressed Announce for). */
export function cardAction(view, prefs, card, saying) {
  const offer = announceOffer(view, prefs);
  let action = card;
  if (offer.declarations.length && !saying.declarations) action += "/quiet";
  if (offer.belote && isBeloteCard(view, card) && !saying.belote) action += "/nobelote";
  return action;
}

/** The card that plays itself: the only one the player may play, unless an announcement by hand
 * is still to choose with it. */
export function autoCard(view, prefs) {
  if (!prefs.autoPlay || !view || view.phase !== "play" || view.legal.length !== 1) return null;
  const card = view.legal[0];
  const offer = announceOffer(view, prefs);
  if (offer.declarations.length || (offer.belote && isBeloteCard(view, card))) return null;
  return card;
}
