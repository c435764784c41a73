"""Declarations: sequences and fours of a kind in a hand, their values, and which side scores.

Sequences run in the ordinary order, seven up to ace, in every suit (trumps too).

>>> from belote.cards import mask_of, HEARTS
>>> [d.name for d in find_declarations(mask_of("QH KH AH 9S 9H 9D 9C 7C".split()), HEARTS)]
['four nines', 'tierce']
>>> SEQUENCE_POINTS[3], SEQUENCE_POINTS[8], FOUR_POINTS[4]
(20, 100, 200)
"""

from __future__ import annotations

from dataclasses import dataclass

from belote.cards import CARDS, RANK_NAMES, cards_of
from belote.play import ALL_TRUMP, TRUMP_ORDER

SEQUENCE_POINTS = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 100}
SEQUENCE_NAMES = {3: "tierce", 4: "quarte", 5: "quinte", 6: "sixte", 7: "septième", 8: "huitième"}
#: Four of a kind by rank (7 8 9 T J Q K A): sevens and eights count nothing and are no declaration.
FOUR_POINTS = (0, 0, 150, 100, 200, 100, 100, 100)
FOUR_RANK_MASK = 0x01010101  # the four sevens; shift by the rank for the others

KIND_FOUR = 2
KIND_SEQUENCE = 1


@dataclass(frozen=True, slots=True)
class Declaration:
    """One declaration of one hand."""

    kind: int  # KIND_FOUR or KIND_SEQUENCE
    cards: int  # the mask of its cards
    top: int  # the top card of a sequence, or a card of the four's rank
    points: int
    trump: bool  # a sequence in trumps

    @property
    def length(self) -> int:
        return self.cards.bit_count()

    @property
    def name(self) -> str:
        if self.kind == KIND_FOUR:
            return FOUR_NAMES[self.top & 7]
        return SEQUENCE_NAMES[self.length]

    @property
    def key(self) -> tuple[int, int, int, int]:
        """Compare declarations by this: a four beats any sequence, then length, height, trumps."""
        if self.kind == KIND_FOUR:
            return (KIND_FOUR, 0, TRUMP_ORDER[self.top & 7], 0)
        return (KIND_SEQUENCE, self.length, self.top & 7, int(self.trump))

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "cards": [str(c) for c in cards_of(self.cards)],
            "points": self.points,
        }


def _plural(word: str) -> str:
    return word + "es" if word.endswith("x") else word + "s"


#: The ranks whose four is a declaration, as bits (not the sevens, nor the eights).
FOUR_RANKS = sum(1 << rank for rank in range(8) if FOUR_POINTS[rank])
#: The name of the four of each rank ("" where four of that rank is no declaration).
FOUR_NAMES = tuple("four " + _plural(RANK_NAMES[rank]) if FOUR_POINTS[rank] else "" for rank in range(8))


def _runs(bits: int) -> tuple[tuple[int, int], ...]:
    """The runs of three or more set bits in a byte, as (lowest bit, length)."""
    out = []
    rank = 0
    while rank < 8:
        end = rank
        while end < 8 and bits >> end & 1:
            end += 1
        if end - rank >= 3:
            out.append((rank, end - rank))
        rank = end + 1
    return tuple(out)


_RUNS = tuple(_runs(b) for b in range(256))


def _sequences(hand: int, mode: int) -> list[Declaration]:
    out: list[Declaration] = []
    if not hand & hand >> 1 & hand >> 2 & 0x3F3F3F3F:  # no three in a row in any suit
        return out
    for suit in range(4):
        for rank, length in _RUNS[hand >> (8 * suit) & 0xFF]:
            mask = ((1 << length) - 1) << (8 * suit + rank)
            trump = mode == suit or mode == ALL_TRUMP
            out.append(Declaration(KIND_SEQUENCE, mask, 8 * suit + rank + length - 1, SEQUENCE_POINTS[length], trump))
    return out


def _fours(hand: int) -> list[Declaration]:
    ranks = hand & hand >> 8 & hand >> 16 & hand >> 24 & FOUR_RANKS
    out = []
    while ranks:
        rank = (ranks & -ranks).bit_length() - 1
        ranks &= ranks - 1
        out.append(Declaration(KIND_FOUR, FOUR_RANK_MASK << rank, rank, FOUR_POINTS[rank], False))
    return out


def find_declarations(hand: int, mode: int, card_reuse: bool = True) -> list[Declaration]:
    """Every declaration of an eight-card hand, fours first.

    With ``card_reuse`` false a card counts in one declaration only: the hand keeps whichever
    choice of fours and sequences is worth the most (fours kept on equal points).
    """
    fours = _fours(hand)
    if card_reuse or not fours:
        return fours + _sequences(hand, mode)
    best: list[Declaration] = []
    best_points = -1
    for choice in range(1 << len(fours)):
        kept = [f for i, f in enumerate(fours) if choice >> i & 1]
        rest = hand
        for f in kept:
            rest &= ~f.cards
        found = kept + _sequences(rest, mode)
        points = sum(d.points for d in found)
        if points > best_points or (points == best_points and len(kept) > sum(1 for d in best if d.kind == 2)):
            best, best_points = found, points
    return best


def declaration_names(hand: int, card_reuse: bool = True) -> list[str]:
    """The names of every declaration of a hand, sorted: what its player announces, the same as the
    names of ``find_declarations`` (which the trump mode does not change), for a bot that checks many
    drawn hands against what the table heard.

    >>> from belote.cards import mask_of, HEARTS
    >>> hand = mask_of("QH KH AH 9S 9H 9D 9C 7C".split())
    >>> declaration_names(hand) == sorted(d.name for d in find_declarations(hand, HEARTS))
    True
    """
    if not card_reuse:
        return sorted(d.name for d in find_declarations(hand, 0, False))
    # The walk of _fours and _sequences over the same tables, written inline: the search bot asks
    # this of every hand it draws (some 7,000 a deal), and two calls more a hand cost it 3% of a deal.
    names = []
    ranks = hand & hand >> 8 & hand >> 16 & hand >> 24 & FOUR_RANKS
    while ranks:
        names.append(FOUR_NAMES[(ranks & -ranks).bit_length() - 1])
        ranks &= ranks - 1
    if hand & hand >> 1 & hand >> 2 & 0x3F3F3F3F:
        for suit in range(4):
            for _, length in _RUNS[hand >> (8 * suit) & 0xFF]:
                names.append(SEQUENCE_NAMES[length])
    names.sort()
    return names


def best_side(declared: list[list[Declaration]], order: list[int], side_of: list[int], tie_rule: str) -> int | None:
    """The side whose declarations score, or None.

    ``declared[seat]`` lists each seat's declarations; ``order`` gives the seats in playing order from
    the first leader, which breaks an exact tie when ``tie_rule`` is ``eldest``.
    """
    top: tuple[tuple[int, int, int, int], int] | None = None
    top_side: int | None = None
    tied = False
    for seat in order:
        for d in declared[seat]:
            k = d.key
            if top is None or k > top[0]:
                top, top_side, tied = (k, seat), side_of[seat], False
            elif k == top[0] and side_of[seat] != top_side:
                tied = True  # an earlier seat holds an equal one: it wins under 'eldest'
    if top is None:
        return None
    if tied and tie_rule == "none":
        return None
    return top_side


def belote_holder(hands: list[int], mode: int) -> int | None:
    """The seat holding the king and queen of trumps (suit modes only)."""
    if mode >= 4:
        return None
    pair = (1 << (8 * mode + 5)) | (1 << (8 * mode + 6))
    for seat, hand in enumerate(hands):
        if hand & pair == pair:
            return seat
    return None


def belote_cards(mode: int) -> int:
    return (1 << (8 * mode + 5)) | (1 << (8 * mode + 6)) if mode < 4 else 0


def describe(d: Declaration) -> str:
    """``tierce to the A♥``, ``four jacks``."""
    if d.kind == KIND_FOUR:
        return d.name
    return f"{d.name} to the {CARDS[d.top].pretty()}"


#: The points of a declaration by the name said at the table ("tierce", "four jacks").
POINTS_BY_NAME: dict[str, int] = {SEQUENCE_NAMES[n]: SEQUENCE_POINTS[n] for n in SEQUENCE_NAMES} | {
    "four " + _plural(RANK_NAMES[rank]): FOUR_POINTS[rank] for rank in range(8) if FOUR_POINTS[rank]
}


def name_key(name: str) -> tuple[int, int, int]:
    """What a declaration's name alone says of its rank: (four or sequence, length, four's order).

    Two sequences of the same length need their top cards to be told apart; the name cannot.
    """
    for n, word in SEQUENCE_NAMES.items():
        if word == name:
            return (KIND_SEQUENCE, n, 0)
    for rank in range(8):
        if FOUR_POINTS[rank] and name == FOUR_NAMES[rank]:
            return (KIND_FOUR, 0, TRUMP_ORDER[rank])
    raise ValueError(f"{name!r} is not a declaration")
