"""The double-dummy solver: the exact value of a position when every hand is known.

A ``Position`` is the rest of a deal: the cards left in each hand, the trump mode, the trick on the
table and who led it, at four, three or two hands. ``value`` is what the side (the camp) of the
player to move takes from here with best play on both sides: the card points of the tricks it wins
(the cards already on the table included), ten for the last trick, and ninety more if that makes
every trick of the deal its own (capot: 252, not 162). The other side plays to keep that number
low. ``card_values`` gives the same number after each legal card of the player to move: what a
search bot compares.

Either may be given a limit of nodes: a solve that would visit more raises ``NodeLimit`` instead of
answering. Nodes, not seconds, so that a bot that bounds its thinking this way still decides the
same on any machine and under any load, and a game replays exactly. ``nodes()`` tells how many the
last solve of the thread visited, whether it answered or stopped.

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
import threading
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Protocol

from belote.cards import CARDS, FULL_PACK, bits_of
from belote.play import PlayRules
from belote.rules import Rules

if TYPE_CHECKING:
    from belote.playstate import PlayState

__all__ = ["IMPLEMENTATION", "NodeLimit", "Position", "PositionError", "card_values", "forget", "nodes", "value"]


class PositionError(ValueError):
    """A position that cannot arise in a deal: cards held twice, hands of the wrong sizes..."""


class NodeLimit(Exception):
    """A solve given a limit of nodes would have visited more: it stopped without an answer.

    >>> from belote.cards import HEARTS, mask_of
    >>> hands = tuple(mask_of(h.split()) for h in ("JH 9H", "AS 7D", "10H 8C", "KS QS"))
    >>> value(Position(hands, HEARTS, leader=0), limit=1)
    Traceback (most recent call last):
    ...
    belote.solver.NodeLimit: the search needed more than 1 nodes
    """

    def __init__(self, limit: int) -> None:
        super().__init__(f"the search needed more than {limit} nodes")
        self.limit = limit


@dataclass(frozen=True)
class Position:
    """The rest of a deal, every hand known.

    ``hands`` are masks of the cards each seat still holds, one per player: four (0..3 = N E S W),
    three or two. ``trick`` the cards already played to the current trick, in order, the first by
    ``leader`` (or, with no card down, ``leader`` is to lead). ``step`` is how play goes round: the
    next seat is ``(seat + step) % players``, ``step`` 1 or ``players - 1``. ``rules`` are the rules
    of play, the play options of the table (``Rules.play``; by default those of ``Rules()``).

    ``camps`` gives the side (0 or 1) each seat plays for: partners share one; ``None`` is the
    four-hand sides, ``seat & 1`` (N/S 0, E/W 1). At three hands the two defenders share one against
    the taker. ``tricks_won`` counts the tricks each camp took earlier in the deal: a camp can still
    make capot only while the other has none. The default (0, 0) leaves capot open to both, as at
    the first trick: later in a deal, give the real counts (``from_state`` does).

    ``under`` (two hands) gives for each of the 32 cards the card lying face down under it, or -1;
    ``None`` for none. A card under one still in a hand or on the table is still hidden, but in play:
    it joins the hand of the player of the card above it when the trick with that card is taken.
    Under a card played in an earlier trick, ``under`` names a card already turned up: it is not looked at.

    ``leaf`` (four hands in two partnerships): at each trick boundary with that many cards left in
    every hand, the learned value of ``belote.solver.leaf`` stands for the rest of the deal instead
    of searching it (what the leader's side takes from there, capot left aside). The answer is then
    an estimate, bought with far fewer nodes; 0 (the default) solves to the end, exactly.

    >>> from belote.cards import SPADES, mask_of, parse_card
    >>> # Two hands, spades trumps: N's ace of hearts lies over the jack of trumps, E holds two hearts.
    >>> under = [-1] * 32
    >>> under[parse_card("AH")] = parse_card("JS")
    >>> pos = Position((mask_of(["AH"]), mask_of(["7H", "8H"])), SPADES, 0, tricks_won=(7, 7), under=tuple(under))
    >>> pos.tricks_left, value(pos)  # the ace takes 11, the jack turns up and takes the last: 20 + 10
    (2, 41)
    """

    hands: tuple[int, ...]
    mode: int
    leader: int
    trick: tuple[int, ...] = ()
    step: int = 1
    rules: PlayRules = Rules().play
    tricks_won: tuple[int, int] = (0, 0)
    camps: tuple[int, ...] | None = None
    under: tuple[int, ...] | None = None
    leaf: int = 0

    def __post_init__(self) -> None:
        n = len(self.hands)
        if n not in (2, 3, 4) or any(not 0 <= h <= FULL_PACK for h in self.hands):
            raise PositionError(f"hands must be two to four masks of the 32-card pack, not {self.hands!r}")
        if not 0 <= self.mode <= 5:
            raise PositionError(f"the trump mode is 0..3 (a suit), 4 (no trumps) or 5 (all trumps), not {self.mode}")
        if self.leader not in range(n) or self.step not in (1, n - 1):
            raise PositionError(f"leader is a seat 0..{n - 1} and step 1 or {n - 1}, not {self.leader} and {self.step}")
        if len(self.trick) >= n or any(not 0 <= c < 32 for c in self.trick):
            raise PositionError(f"the trick on the table holds at most {n - 1} cards, not {self.trick!r}")
        if not isinstance(getattr(self.rules, "flags", None), int):  # a PlayRules, by its one field
            raise PositionError(
                f"rules are the rules of play (Rules.play, a belote.play.PlayRules), not {self.rules!r}"
            )
        if self.camps is not None and (len(self.camps) != n or set(self.camps) != {0, 1}):
            raise PositionError(
                f"camps gives each of the {n} seats its side, 0 or 1, both sides seated: {self.camps!r}"
            )
        if self.under is not None and (len(self.under) != 32 or any(not -1 <= u < 32 for u in self.under)):
            raise PositionError("under gives for each of the 32 cards the card under it, or -1")
        on_table = 0
        for c in self.trick:
            on_table |= 1 << c
        held = 0
        for h in self.hands:
            held |= h
        if sum(h.bit_count() for h in self.hands) != held.bit_count() or on_table.bit_count() != len(self.trick):
            raise PositionError("a card is held by two seats or played twice")
        if held & on_table:
            raise PositionError("a card on the table is still in a hand")
        hidden = self._hidden_by_seat()
        in_play = held | on_table
        seen = 0
        for h in hidden:
            if h & (in_play | seen):
                raise PositionError("a card lying face down is also in a hand, on the table or under another")
            seen |= h
        if self.under is not None and any(self.under[u] >= 0 for u in bits_of(seen)):
            raise PositionError("a card lying face down under another has another under it")
        left = self.tricks_left
        for i in range(n):
            seat = (self.leader + self.step * i) % n
            want = left - 1 if i < len(self.trick) else left
            has = self.hands[seat].bit_count() + hidden[seat].bit_count()
            if has != want:
                under = f" ({hidden[seat].bit_count()} of them face down)" if hidden[seat] else ""
                raise PositionError(
                    f"seat {seat} holds {has} cards{under}; with {left} tricks to play "
                    f"and {len(self.trick)} cards on the table it should hold {want}"
                )
        if len(self.tricks_won) != 2 or min(self.tricks_won) < 0:
            raise PositionError(f"tricks_won is two counts, not {self.tricks_won!r}")
        if not 0 <= self.leaf <= 8 or (self.leaf and (n != 4 or self.sides != (0, 1, 0, 1) or self.under)):
            raise PositionError(
                f"leaf is a number of cards a hand, 0..8, at four hands in two partnerships, not {self.leaf!r}"
            )

    @classmethod
    def trusted(
        cls,
        hands: tuple[int, ...],
        mode: int,
        leader: int,
        trick: tuple[int, ...],
        step: int,
        rules: PlayRules,
        tricks_won: tuple[int, int],
        camps: tuple[int, ...] | None,
        under: tuple[int, ...] | None,
        leaf: int,
    ) -> Position:
        """A position made without the checks of a new one: for a caller whose positions are those
        of a deal by construction (a bot's drawn worlds, thousands a decision). The C solver checks
        again what its search trusts; the plain Python one does not."""
        pos = object.__new__(cls)
        values = (hands, mode, leader, trick, step, rules, tricks_won, camps, under, leaf)
        for field, v in zip(fields(cls), values, strict=True):
            object.__setattr__(pos, field.name, v)
        return pos

    def _hidden_by_seat(self) -> list[int]:
        """The cards still face down, as masks by the seat they will join: those under a card in that
        seat's hand or played by that seat to the trick on the table."""
        n = len(self.hands)
        out = [0] * n
        if self.under is None:
            return out
        tops = [(seat, c) for seat in range(n) for c in bits_of(self.hands[seat])]
        tops += [((self.leader + self.step * i) % n, c) for i, c in enumerate(self.trick)]
        for seat, c in tops:
            u = self.under[c]
            if u >= 0:
                if out[seat] >> u & 1:
                    raise PositionError("two cards lie over the same card")
                out[seat] |= 1 << u
        return out

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def sides(self) -> tuple[int, ...]:
        """The camp of each seat: ``camps``, or the four-hand sides."""
        return self.camps if self.camps is not None else tuple(s & 1 for s in range(len(self.hands)))

    @property
    def hidden(self) -> int:
        """The cards still in play but face down, as a mask."""
        m = 0
        for h in self._hidden_by_seat():
            m |= h
        return m

    @property
    def to_move(self) -> int:
        return (self.leader + self.step * len(self.trick)) % len(self.hands)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the one on the table included."""
        n = len(self.hands)
        cards = sum(h.bit_count() for h in self.hands) + self.hidden.bit_count() + len(self.trick)
        return (cards + n - 1) // n

    @classmethod
    def from_state(cls, state: PlayState) -> Position:
        """The position of a deal in play (a ``Deal`` or any play state)."""
        n = state.players
        return cls(
            tuple(state.hands[:n]),
            state.mode,
            state.leader,
            tuple(state.trick),
            state.step,
            PlayRules(state.play_flags),
            state.won_tricks,
            tuple(state.camps[:n]),
            state.under,
        )


class _Backend(Protocol):
    """What both implementations provide: a solve reads its ``Position`` by the names of its fields."""

    def value(self, pos: Position, limit: int | None = None, keep: bool = False, /) -> int | None: ...

    def card_values(self, pos: Position, limit: int | None = None, keep: bool = False, /) -> dict[int, int] | None: ...

    def forget(self) -> None: ...

    def stats(self) -> dict[str, int]: ...


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
#: The module loaded, even where a caller wraps ``_impl`` (a benchmark counting nodes).
_backend = _impl
#: The module doing the work: ``belote.solver._dds`` or ``belote.solver.alphabeta``.
IMPLEMENTATION: str = getattr(_impl, "__name__", "")


def value(pos: Position, limit: int | None = None, keep: bool = False) -> int:
    """The exact value of ``pos`` for the side to move (0 when no card is left).

    Raises ``NodeLimit`` if that takes more than ``limit`` nodes. ``keep``: the solve uses the table
    the solves before it kept, and keeps its own, as long as they are positions of one deal (a later
    position of the same deal is then found mostly solved). The value is the same; the nodes are
    fewer, and depend on the solves before: a bot bounded by nodes never keeps (``forget``).
    """
    _set_leaf(pos)
    v = _impl.value(pos, limit, keep)
    if v is None:
        raise NodeLimit(limit or 0)
    return v


def card_values(pos: Position, limit: int | None = None, keep: bool = False) -> dict[int, int]:
    """The exact value for the side to move after each legal card of the player to move (keys are ``Card``s).

    Raises ``NodeLimit`` if that takes more than ``limit`` nodes. ``keep``: as ``value``.
    """
    _set_leaf(pos)
    vals = _impl.card_values(pos, limit, keep)
    if vals is None:
        raise NodeLimit(limit or 0)
    return {CARDS[c]: v for c, v in sorted(vals.items())}


_leaf_lock = threading.Lock()
_leaf_set = False


def _set_leaf(pos: Position) -> None:
    """The learned leaf value given to the solver the first time a position asks for it (its
    weights are read with numpy, which only the bots that use it need)."""
    global _leaf_set
    if pos.leaf and not _leaf_set:
        with _leaf_lock:
            if not _leaf_set:
                from belote.solver.leaf import default_model

                set_leaf = getattr(_backend, "set_leaf", None)
                if set_leaf is not None:
                    model = default_model()
                    set_leaf(model.hidden, model.shift, *model.to_bytes())
                _leaf_set = True


def forget() -> None:
    """The next solve that keeps its table starts it anew, whatever this thread solved before: a run
    of solves that begins with ``forget()`` visits the same nodes wherever and whenever it runs (the
    analysis of a deal stops at a limit of nodes at the same places)."""
    _impl.forget()


def nodes() -> int:
    """The nodes the last solve of this thread visited (all of them, or up to its limit and one more)."""
    return _impl.stats()["nodes"]
