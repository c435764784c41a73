"""The 32-card pack: suits, ranks, cards as small ints and card sets as 32-bit masks.

A card is an int ``suit * 8 + rank`` where ranks run in the ordinary order of sequences,
seven up to ace (``7 8 9 T J Q K A`` are 0..7) and suits are ``S H D C`` (0..3).

>>> c = parse_card("10h")
>>> c, int(c), c.suit, c.rank
(Card('TH'), 11, 1, 3)
>>> str(c), c.pretty()
('TH', '10♥')
>>> mask_of(["JH", "9H"]) == (1 << parse_card("JH")) | (1 << parse_card("9H"))
True
"""

from __future__ import annotations

from collections.abc import Iterable

SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_LETTERS = "789TJQKA"
RANK_PEOPLE = ("7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

FULL_PACK = (1 << 32) - 1
SUIT_MASKS = tuple(0xFF << (8 * s) for s in range(4))


class CardError(ValueError):
    """A string that does not name a card of the 32-card pack."""


class Card(int):
    """One card of the pack; an int 0..31 that prints as ``JH`` (``pretty()`` gives ``J♥``)."""

    __slots__ = ()

    @property
    def suit(self) -> int:
        return self >> 3

    @property
    def rank(self) -> int:
        return self & 7

    def __str__(self) -> str:
        return RANK_LETTERS[self & 7] + SUIT_LETTERS[self >> 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def pretty(self) -> str:
        """The card for people, with a suit symbol: ``10♥``."""
        return RANK_PEOPLE[self & 7] + SUIT_SYMBOLS[self >> 3]


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(32))


def card(suit: int, rank: int) -> Card:
    return CARDS[suit * 8 + rank]


def parse_suit(text: str) -> int:
    """``"H"``, ``"h"`` or ``"♥"`` to the suit number."""
    t = text.strip().upper()
    if len(t) == 1:
        if t in SUIT_LETTERS:
            return SUIT_LETTERS.index(t)
        if t in SUIT_SYMBOLS:
            return SUIT_SYMBOLS.index(t)
    raise CardError(f"{text!r} is not a suit: use one of S H D C")


def parse_card(text: str) -> Card:
    """Parse ``JH``, ``10h``, ``TS``, ``9♦``; case does not matter."""
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card: a card is written as a rank then a suit, like JH or 10S")
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) == 2 and t[0] in RANK_LETTERS:
        try:
            return card(parse_suit(t[1]), RANK_LETTERS.index(t[0]))
        except CardError:
            pass
    raise CardError(f"{text!r} is not a card: a card is written as a rank then a suit, like JH or 10S")


def _byte_tables() -> tuple[tuple[tuple[Card, ...], ...], ...]:
    return tuple(tuple(tuple(CARDS[s * 8 + r] for r in range(8) if b >> r & 1) for b in range(256)) for s in range(4))


_BYTES = _byte_tables()
_B0, _B1, _B2, _B3 = _BYTES


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in order (spades 7..A, then hearts, diamonds, clubs)."""
    return _B0[mask & 255] + _B1[mask >> 8 & 255] + _B2[mask >> 16 & 255] + _B3[mask >> 24 & 255]


def bits_of(mask: int) -> list[int]:
    """The card numbers of a mask as plain ints, lowest first (``cards_of`` gives Cards)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[int | str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << (parse_card(c) if isinstance(c, str) else c)
    return m


def count(mask: int) -> int:
    return mask.bit_count()


def suit_of(c: int) -> int:
    return c >> 3


def format_cards(cards: Iterable[int], pretty: bool = False) -> str:
    return " ".join(CARDS[c].pretty() if pretty else str(CARDS[c]) for c in cards)
