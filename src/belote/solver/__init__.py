"""The double-dummy solver: the exact value of a position when every hand is known.

A ``Position`` is the rest of a deal: the cards left in each hand, the trump mode, the trick on the
table and who led it. ``value`` is what the side to move takes from here with best play on both
sides: the card points of the tricks it wins (the cards already on the table included), ten for the
last trick, and ninety more if that makes every trick of the deal its own (capot: 252, not 162).
The other side plays to keep that number low. ``card_values`` gives the same number after each
legal card of the player to move: what a search bot compares.

The work is done by the C module ``belote.solver._dds`` when it was built, else (or when the
environment variable ``BELOTE_PURE_PYTHON`` is set) by the same algorithm in plain Python,
``belote.solver.alphabeta``; ``belote.solver.reference`` is the slow minimax both are tested against.

>>> from belote.cards import HEARTS, mask_of, parse_card
>>> # The last trick, hearts trumps: N leads the jack and takes 20 + 14 + 11 + 0, and the ten of der.
>>> hands = tuple(mask_of([c]) for c in ("JH", "9H", "AS", "7D"))
>>> value(Position(hands, HEARTS, leader=0, tricks_won=(3, 4)))
55
>>> # Had N and S taken the seven tricks before, this one makes them capot: 252 in all.
>>> card_values(Position(hands, HEARTS, leader=0, tricks_won=(7, 0))) == {parse_card("JH"): 55 + 90}
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from belote.cards import CARDS, FULL_PACK

if TYPE_CHECKING:
    from belote.playstate import PlayState

__all__ = ["IMPLEMENTATION", "Position", "PositionError", "card_values", "value"]


class PositionError(ValueError):
    """A position that cannot arise in a deal: cards held twice, hands of the wrong sizes..."""


@dataclass(frozen=True)
class Position:
    """The rest of a deal, every hand known.

    ``hands`` are masks of the cards each seat (0..3 = N E S W) still holds; ``trick`` the cards
    already played to the current trick, in order, the first by ``leader`` (or, with no card down,
    ``leader`` is to lead). ``step`` is how play goes round: the next seat is ``(seat + step) % 4``.
    ``undertrump`` is the rule option of ``belote.rules.Rules``. ``tricks_won`` counts the tricks
    each side (0 = N/S, 1 = E/W) took earlier in the deal: a side can still make capot only while
    the other has none. The default (0, 0) leaves capot open to both, as at the first trick: later
    in a deal, give the real counts (``from_state`` does).
    """

    hands: tuple[int, int, int, int]
    mode: int
    leader: int
    trick: tuple[int, ...] = ()
    step: int = 1
    undertrump: bool = True
    tricks_won: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if len(self.hands) != 4 or any(not 0 <= h <= FULL_PACK for h in self.hands):
            raise PositionError(f"hands must be four masks of the 32-card pack, not {self.hands!r}")
        if not 0 <= self.mode <= 5:
            raise PositionError(f"the trump mode is 0..3 (a suit), 4 (no trumps) or 5 (all trumps), not {self.mode}")
        if self.leader not in range(4) or self.step not in (1, 3):
            raise PositionError(f"leader is a seat 0..3 and step 1 or 3, not {self.leader} and {self.step}")
        if len(self.trick) > 3 or any(not 0 <= c < 32 for c in self.trick):
            raise PositionError(f"the trick on the table holds at most three cards, not {self.trick!r}")
        on_table = 0
        for c in self.trick:
            on_table |= 1 << c
        held = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        if sum(h.bit_count() for h in self.hands) != held.bit_count() or on_table.bit_count() != len(self.trick):
            raise PositionError("a card is held by two seats or played twice")
        if held & on_table:
            raise PositionError("a card on the table is still in a hand")
        left = self.tricks_left
        for i in range(4):
            seat = (self.leader + self.step * i) % 4
            want = left - 1 if i < len(self.trick) else left
            if self.hands[seat].bit_count() != want:
                raise PositionError(
                    f"seat {seat} holds {self.hands[seat].bit_count()} cards; with {left} tricks to play "
                    f"and {len(self.trick)} cards on the table it should hold {want}"
                )
        if len(self.tricks_won) != 2 or min(self.tricks_won) < 0:
            raise PositionError(f"tricks_won is two counts, not {self.tricks_won!r}")

    @property
    def to_move(self) -> int:
        return (self.leader + self.step * len(self.trick)) % 4

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the one on the table included."""
        return (sum(h.bit_count() for h in self.hands) + len(self.trick) + 3) // 4

    @classmethod
    def from_state(cls, state: PlayState) -> Position:
        """The position of a deal in play (a ``Deal`` or any play state)."""
        h = state.hands
        return cls(
            (h[0], h[1], h[2], h[3]),
            state.mode,
            state.leader,
            tuple(state.trick),
            state.step,
            bool(state.undertrump),
            state.won_tricks,
        )


class _Backend(Protocol):
    """What both implementations provide, on plain values."""

    def value(
        self,
        hands: tuple[int, int, int, int],
        mode: int,
        leader: int,
        trick: tuple[int, ...],
        step: int,
        undertrump: bool,
        tricks_won: tuple[int, int],
    ) -> int: ...

    def card_values(
        self,
        hands: tuple[int, int, int, int],
        mode: int,
        leader: int,
        trick: tuple[int, ...],
        step: int,
        undertrump: bool,
        tricks_won: tuple[int, int],
    ) -> dict[int, int]: ...


def _load() -> _Backend:
    from belote.solver import alphabeta

    if os.environ.get("BELOTE_PURE_PYTHON"):
        return alphabeta
    try:
        from belote.solver import _dds
    except ImportError:  # built without a compiler
        return alphabeta
    return _dds


_impl = _load()
#: The module doing the work: ``belote.solver._dds`` or ``belote.solver.alphabeta``.
IMPLEMENTATION: str = getattr(_impl, "__name__", "")


def value(pos: Position) -> int:
    """The exact value of ``pos`` for the side to move (0 when no card is left)."""
    return _impl.value(pos.hands, pos.mode, pos.leader, pos.trick, pos.step, pos.undertrump, pos.tricks_won)


def card_values(pos: Position) -> dict[int, int]:
    """The exact value for the side to move after each legal card of the player to move (keys are ``Card``s)."""
    vals = _impl.card_values(pos.hands, pos.mode, pos.leader, pos.trick, pos.step, pos.undertrump, pos.tricks_won)
    return {CARDS[c]: v for c, v in sorted(vals.items())}
