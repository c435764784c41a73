"""The play of the cards: card order and points for a trump mode, the legal cards, the trick winner.

A trump mode is a suit (0..3, that suit is trumps), ``NO_TRUMP`` or ``ALL_TRUMP``. Every table
here is indexed by the mode and then by the card, so the engine never branches on rank names.

>>> from belote.cards import HEARTS, mask_of, cards_of, parse_card
>>> hand = mask_of(["9H", "7H", "AD"])
>>> # Spades led, the other side wins with the king: no spade, so you must trump.
>>> cards_of(legal_mask(HEARTS, hand, parse_card("KS"), False, UNDERTRUMP))
(Card('7H'), Card('9H'))

The rule options that change which cards may be played travel together as one value,
``PlayRules`` (``Rules.play``): one int of flags, the same bits in C (``_play.h``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from belote.cards import CARDS, RANK_PEOPLE, SUIT_LETTERS, SUIT_MASKS, SUIT_SYMBOLS, cards_of

NO_TRUMP = 4
ALL_TRUMP = 5
MODES = (0, 1, 2, 3, NO_TRUMP, ALL_TRUMP)
MODE_NAMES = ("spades", "hearts", "diamonds", "clubs", "no trumps", "all trumps")

# Strength of each rank (7 8 9 T J Q K A) inside its suit: higher wins.
TRUMP_ORDER = (0, 1, 6, 4, 7, 2, 3, 5)  # J 9 A T K Q 8 7
PLAIN_ORDER = (0, 1, 2, 6, 3, 4, 5, 7)  # A T K Q J 9 8 7
# Points of each rank (7 8 9 T J Q K A).
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
# The common French count of Coinche: sans atout and tout atout both total 162 with the last trick.
NO_TRUMP_POINTS = (0, 0, 0, 10, 2, 3, 4, 19)
ALL_TRUMP_POINTS = (0, 0, 9, 5, 14, 1, 3, 6)
LAST_TRICK = 10

TRUMP_BONUS = 100  # a trump's key is above every key of a plain suit

#: The play options, each a bit of ``PlayRules.flags`` (``_play.h`` names the same bits, and checks
#: them against these at import): the rule options of ``belote.rules`` that change the legal cards.
UNDERTRUMP = 1  # who must trump but cannot overtrump still trumps
#: Each play option's bit, by the name of its rule option.
PLAY_OPTIONS: dict[str, int] = {"undertrump": UNDERTRUMP}
_ALL_FLAGS = sum(PLAY_OPTIONS.values())


@dataclass(frozen=True, slots=True)
class PlayRules:
    """The rules of play of a table: its play options as one int of flags, the bits of ``PLAY_OPTIONS``.

    ``Rules.play`` makes it from the rule options (``Rules(undertrump=False).play`` is
    ``PlayRules(flags=0)``); ``legal_mask`` and the solver read its ``flags``.
    """

    flags: int

    def __post_init__(self) -> None:
        if self.flags & ~_ALL_FLAGS or self.flags < 0:
            raise ValueError(f"play rules are flags of the play options ({', '.join(PLAY_OPTIONS)}), not {self.flags}")


def _is_trumplike(mode: int, suit: int) -> bool:
    """A suit in which a player must go higher when it is led: the trump suit, or every suit at all trumps."""
    return mode == suit or mode == ALL_TRUMP


def _key(mode: int, c: int) -> int:
    suit, rank = c >> 3, c & 7
    if mode == ALL_TRUMP:
        return TRUMP_ORDER[rank]
    if mode == suit:
        return TRUMP_BONUS + TRUMP_ORDER[rank]
    return PLAIN_ORDER[rank]


def _points(mode: int, c: int) -> int:
    suit, rank = c >> 3, c & 7
    if mode == ALL_TRUMP:
        return ALL_TRUMP_POINTS[rank]
    if mode == NO_TRUMP:
        return NO_TRUMP_POINTS[rank]
    return TRUMP_POINTS[rank] if mode == suit else PLAIN_POINTS[rank]


#: KEY[mode][card]: the card's strength; trumps carry TRUMP_BONUS.
KEY: tuple[tuple[int, ...], ...] = tuple(tuple(_key(m, c) for c in range(32)) for m in MODES)
#: POINTS[mode][card]: the card's value in points.
POINTS: tuple[tuple[int, ...], ...] = tuple(tuple(_points(m, c) for c in range(32)) for m in MODES)
#: HIGHER[mode][card]: the cards of the same suit that beat it (used for trump-like suits).
HIGHER: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << d for d in range((c >> 3) * 8, (c >> 3) * 8 + 8) if KEY[m][d] > KEY[m][c]) for c in range(32))
    for m in MODES
)
#: TRUMPS[mode]: the mask of the trump suit (nothing at no trumps or all trumps, where nobody cuts).
TRUMPS: tuple[int, ...] = tuple(SUIT_MASKS[m] if m < 4 else 0 for m in MODES)


def beats(mode: int, card: int, best: int) -> bool:
    """Does ``card`` take the trick from ``best``, the card now winning it?

    A card wins only in the suit led or in trumps, and ``best`` is always one of those. The one
    statement of the rule in Python (``beats`` of ``_play.h`` is its C twin): the play state, the
    solvers, the knowledge of a seat and the bots all ask it.
    """
    k = KEY[mode][card]
    return k > KEY[mode][best] and (card >> 3 == best >> 3 or k >= TRUMP_BONUS)


def legal_mask(mode: int, hand: int, best: int, partner_winning: bool, flags: int, led: int = -1) -> int:
    """The cards of ``hand`` that may be played to a trick.

    ``best`` is the card winning the trick (-1 when leading); ``flags`` the play options
    (``PlayRules.flags``); ``led`` is the suit led (by default the suit of ``best``, which is right
    unless the trick has been trumped). ``_play.h`` holds its C twin, line for line.
    """
    if best < 0:
        return hand
    if led < 0:
        led = best >> 3
    follow = hand & SUIT_MASKS[led]
    if follow:
        if best >> 3 == led and (mode == led or mode == ALL_TRUMP):
            return follow & HIGHER[mode][best] or follow
        return follow
    trumps = hand & TRUMPS[mode]
    if not trumps or partner_winning:
        return hand
    if best >> 3 == mode:
        over = trumps & HIGHER[mode][best]
        if over:
            return over
        return trumps if flags & UNDERTRUMP else hand
    return trumps


@functools.cache
def not_held(mode: int, card: int, best: int, partner_winning: bool, flags: int, led: int) -> int:
    """The cards a player who played ``card`` to a trick (``best`` winning it, ``led`` the suit led)
    showed they do not hold: each of them, held beside it, would have made it illegal.

    What a seat learns from the play is read from ``legal_mask`` itself, so that it follows every
    play option. It is exact for the rules of play as they are: a card is legal in a hand exactly
    when it is legal beside each other card of that hand alone (a property test holds that).

    >>> from belote.cards import CARDS, HEARTS, SPADES, parse_card
    >>> # Spades led, the opponents' king winning: a diamond played shows no spade and no trump.
    >>> void = not_held(HEARTS, parse_card("7D"), parse_card("KS"), False, UNDERTRUMP, SPADES)
    >>> void == SUIT_MASKS[SPADES] | SUIT_MASKS[HEARTS]
    True
    """
    out = 0
    for x in range(32):
        if x != card and not legal_mask(mode, 1 << card | 1 << x, best, partner_winning, flags, led) >> card & 1:
            out |= 1 << x
    return out


def explain_illegal(mode: int, hand: int, best: int, partner_winning: bool, flags: int, led: int, card: int) -> str:
    """The rule a card breaks, in words for people (the card is assumed illegal)."""
    return why_illegal(mode, hand, best, partner_winning, flags, led, card)[2]


def why_illegal(
    mode: int, hand: int, best: int, partner_winning: bool, flags: int, led: int, card: int
) -> tuple[str, dict[str, Any], str]:
    """The rule a card breaks: its code, its args and its words (the refusals of ``belote.actions``).

    Cards are named as the server names them (``"JH"``), a suit by its letter.

    >>> from belote.cards import HEARTS, SPADES, mask_of, parse_card
    >>> hand = mask_of(["7S", "AS", "JH"])
    >>> why_illegal(HEARTS, hand, parse_card("KS"), False, UNDERTRUMP, SPADES, parse_card("JH"))
    ('must_follow', {'suit': 'S', 'cards': ['7S', 'AS']}, 'you must follow suit: ♠ was led and you hold 7♠ A♠')
    """
    c = CARDS[card]
    if led < 0:
        led = best >> 3
    if not hand >> card & 1:
        return "not_in_hand", {"card": str(c)}, f"you do not hold {c.pretty()}"
    legal = legal_mask(mode, hand, best, partner_winning, flags, led)
    allowed = cards_of(legal)
    cards = [str(x) for x in allowed]
    shown = " ".join(x.pretty() for x in allowed)
    suit, symbol = SUIT_LETTERS[led], SUIT_SYMBOLS[led]
    winning = CARDS[best]
    follow = hand & SUIT_MASKS[led]
    if follow:
        if _is_trumplike(mode, led) and legal != follow:
            higher = "play a higher trump" if mode != ALL_TRUMP else f"go higher in {symbol}"
            words = f"you must {higher}: {winning.pretty()} is winning and you hold {shown}"
            return "must_go_higher", {"suit": suit, "best": str(winning), "cards": cards}, words
        words = f"you must follow suit: {symbol} was led and you hold {shown}"
        return "must_follow", {"suit": suit, "cards": cards}, words
    if best >> 3 == mode and legal & HIGHER[mode][best]:
        words = f"you must overtrump: {winning.pretty()} is winning and you hold {shown}"
        return "must_overtrump", {"best": str(winning), "cards": cards}, words
    if best >> 3 == mode:
        words = f"you must still trump: {winning.pretty()} is winning, you cannot overtrump, and you hold {shown}"
        return "must_undertrump", {"best": str(winning), "cards": cards}, words
    words = f"you must trump: you have no {symbol}, the other side is winning, and you hold {shown}"
    return "must_trump", {"suit": suit, "cards": cards}, words


def trick_points(mode: int, cards: list[int] | tuple[int, ...]) -> int:
    p = POINTS[mode]
    return sum(p[c] for c in cards)


def rank_word(c: int) -> str:
    return RANK_PEOPLE[c & 7]
