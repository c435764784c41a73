"""The card-play prior: how likely a player was to play the card it played, given the hand it held.

The search bot draws worlds consistent with what its seat knows for certain (``belote.knowledge``);
among those, some make the others' play look natural and some make it look absurd (a ten kept back
while partner's ace won the trick, an ace led from a suit it does not hold). The prior is a small
network that reads a player's hand and what was public when it played, and gives each legal card
its chance; a world is then worth the product, over the cards the others played with a choice, of
the chance of the card played given that world's hand (policy-based inference). ``PlayPrior.weights``
gives these weights for a set of drawn worlds, and the bot keeps worlds in proportion to them.

- **Inputs** (``INPUTS`` = 141 binary inputs, suits in the leaf's order, ``belote.solver.leaf.suit_perm``):
  the hand (0-31), the cards of the tricks already played (32-63), partner's card on the table (64-95),
  the opponents' cards on the table (96-127), how many cards are on the table (128-131), partner
  winning the trick (132), the player's side took (133), the mode's class: a suit, no trumps, all
  trumps (134-136), the suit led (137-140).
- **Network**: ``h[j] = max(0, b1[j] + sum of W1[i][j] over the active inputs i)``, then the logit of
  card ``c`` (in the permuted order) ``(b2[c] + sum_j W2[j][c] h[j] + 2**(shift-1)) >> shift``, in
  sixteenths of a nat. Every weight is an integer in int16 range, so the sums are exact in float64 as
  in integers, in any order: the same value on every machine.
- **Chance of a card**: ``E[m - l_c] / sum of E[m - l_j]`` over the legal cards ``j``, ``m`` their
  highest logit, ``E[k] = round(2**24 * exp(-temper * k / 16))`` (0 past the table); then mixed with
  the uniform choice among the legal cards (``floor``), so that no play rules a world out: people do
  not always play as the bots would.

The weights file (``belote/data/card-prior.npz``): ``W1`` int32 (141, H), ``b1`` int32 (H,), ``W2``
int32 (H, 32), ``b2`` int64 (32,), ``shift`` int64, and metadata. ``training/prior_train.py`` makes it
from the search bot's decisions (``training/prior_data.py``). numpy reads it; the rules engine never
imports this module.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from belote.cards import bits_of
from belote.play import beats, not_held
from belote.solver.leaf import read_weights, suit_perm
from belote.view import PlayerView

__all__ = ["INPUTS", "PlayPrior", "PriorModel", "default_prior", "hand_inputs", "public_inputs", "winning"]

HAND, BEFORE, PARTNER, OPPONENTS = 0, 32, 64, 96
POSITION, PARTNER_WINS, TOOK, MODE_CLASS, LED = 128, 132, 133, 134, 137
INPUTS = 141
#: Logits are in sixteenths of a nat.
SCALE = 16
#: The table of chances stops this far below the best legal card's logit (beyond, a chance of 0).
SPAN = 40 * SCALE
DEFAULT_PATH = Path(__file__).resolve().parent.parent / "data" / "card-prior.npz"

_PERMS = tuple(suit_perm(m) for m in range(6))
#: _PLACE[mode][card]: the card's place among 32 inputs, its suit permuted.
_PLACE: tuple[tuple[int, ...], ...] = tuple(tuple(8 * _PERMS[m][c >> 3] + (c & 7) for c in range(32)) for m in range(6))
#: _CARD_AT[mode][j]: the card at place ``j`` (the inverse of ``_PLACE[mode]``).
_CARD_AT = tuple(np.argsort(np.array(_PLACE[m])).astype(np.int64) for m in range(6))


def winning(mode: int, trick: Sequence[int]) -> int:
    """Which card of a trick begun (in the order played) wins it so far; -1 for an empty trick."""
    top = -1
    for i, c in enumerate(trick):
        if top < 0 or beats(mode, c, trick[top]):
            top = i
    return top


def hand_inputs(mode: int, hand: int) -> list[int]:
    """The active inputs of a hand (a mask of cards)."""
    place = _PLACE[mode]
    return [HAND + place[c] for c in bits_of(hand)]


def public_inputs(
    mode: int, took: bool, before: int, trick: Sequence[int], partner_cards: Sequence[bool], partner_wins: bool
) -> list[int]:
    """The active inputs of what was public when a player played: the cards of the tricks before
    (a mask), the cards on the table in the order played and whether each is partner's, partner
    winning the trick, and whether the player's side took."""
    place = _PLACE[mode]
    out = [BEFORE + place[c] for c in bits_of(before)]
    for c, ours in zip(trick, partner_cards, strict=True):
        out.append((PARTNER if ours else OPPONENTS) + place[c])
    out.append(POSITION + len(trick))
    if partner_wins:
        out.append(PARTNER_WINS)
    if took:
        out.append(TOOK)
    out.append(MODE_CLASS + (0 if mode < 4 else mode - 3))
    if trick:
        out.append(LED + _PERMS[mode][trick[0] >> 3])
    return out


class PriorModel:
    """The integer network of a weights file."""

    def __init__(
        self,
        w1: npt.ArrayLike,
        b1: npt.ArrayLike,
        w2: npt.ArrayLike,
        b2: npt.ArrayLike,
        shift: int,
        meta: dict[str, npt.NDArray[np.generic]] | None = None,
    ) -> None:
        self.w1 = np.ascontiguousarray(w1, dtype=np.int32)
        self.b1 = np.ascontiguousarray(b1, dtype=np.int32)
        self.w2 = np.ascontiguousarray(w2, dtype=np.int32)
        self.b2 = np.ascontiguousarray(b2, dtype=np.int64)
        self.shift = int(shift)
        self.meta = dict(meta or {})
        hidden = self.b1.shape[0] if self.b1.ndim == 1 else 0
        if hidden < 1 or self.w1.shape != (INPUTS, hidden) or self.w2.shape != (hidden, 32) or self.b2.shape != (32,):
            raise ValueError(f"a prior model is W1 ({INPUTS}, H), b1 (H,), W2 (H, 32), b2 (32,)")
        if not 1 <= self.shift <= 40:
            raise ValueError(f"the shift is 1..40, not {self.shift}")
        for name, a in (("W1", self.w1), ("b1", self.b1), ("W2", self.w2)):
            if int(np.abs(a).max()) >= 1 << 15:
                raise ValueError(f"{name} must be in int16 range")
        if int(np.abs(self.b2).max()) >= 1 << 40:
            raise ValueError("b2 must be below 2**40")
        self.hidden = hidden
        # Float copies of the integer weights: every sum below stays an exact integer (< 2**53).
        self._w1 = self.w1.astype(np.float64)
        self._b1 = self.b1.astype(np.float64)
        self._w2 = self.w2.astype(np.float64)
        self._b2 = self.b2.astype(np.float64)

    @classmethod
    def load(cls, path: str | Path | None = None) -> PriorModel:
        """The model of a weights file; by default the one packaged with belote."""
        return cls(*read_weights(DEFAULT_PATH if path is None else path))

    def hidden_of(self, inputs: Sequence[int]) -> npt.NDArray[np.float64]:
        """The first layer's sum (before the ReLU, bias included) for active ``inputs``."""
        out: npt.NDArray[np.float64] = self._b1 + self._w1[list(inputs)].sum(axis=0)
        return out

    def logits_of(self, hidden: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Integer logits (as floats) of pre-activations ``hidden`` (..., H), in the permuted order."""
        out = np.maximum(hidden, 0.0) @ self._w2 + self._b2
        return np.floor((out + float(1 << (self.shift - 1))) / float(1 << self.shift))

    def logits(self, mode: int, inputs: Sequence[int]) -> list[int]:
        """The 32 logits of the cards, in card order (card ``c`` at ``c``), for active ``inputs``."""
        permuted = self.logits_of(self.hidden_of(inputs))
        return [int(permuted[p]) for p in _PLACE[mode]]


@cache
def default_prior() -> PriorModel:
    """The packaged model, loaded once."""
    return PriorModel.load()


@cache
def chance_table(temper: float) -> npt.NDArray[np.float64]:
    """``E[k] = round(2**24 * exp(-temper * k / 16))`` for ``k`` in 0..SPAN, then 0 (integers, as floats)."""
    table = [float(round(2**24 * math.exp(-temper * k / SCALE))) for k in range(SPAN + 1)]
    return np.array([*table, 0.0], dtype=np.float64)


@cache
def _blockers(mode: int, best: int, partner_wins: bool, led: int, flags: int) -> tuple[int, ...]:
    """For each input place, the cards whose holding makes its card illegal to a trick."""
    if best < 0:
        return (0,) * 32
    return tuple(not_held(mode, int(c), best, partner_wins, flags, led) for c in _CARD_AT[mode])


class PlayPrior:
    """The weight of drawn worlds given the cards the others played (see the module)."""

    def __init__(self, view: PlayerView, model: PriorModel | None = None, temper: float = 1.0, floor: float = 0.1):
        assert view.seat is not None and view.trump is not None and view.taker is not None
        self.model = model or default_prior()
        self.table = chance_table(temper)
        self.floor = floor
        mode = view.trump
        self.mode = mode
        flags = view.rules.play.flags
        camps = view.camps
        players = view.rules.players
        me = view.seat
        played = [int(c) for c in view.played]
        by = list(view.played_by)
        #: For each play the prior weighs: the seat, the card, what was public, the cards that seat
        #: played from then on (its hand then: its hand now and these), and how legality is read.
        self.plays: list[tuple[int, int, int, tuple[int, bool, int], npt.NDArray[np.float64]]] = []
        later = [0] * players
        for i in range(len(played) - 1, -1, -1):
            seat, card = by[i], played[i]
            later[seat] |= 1 << card
            if seat == me:
                continue
            start = i - i % players
            before = 0
            for c in played[:start]:
                before |= 1 << c
            trick = played[start:i]
            seats = by[start:i]
            top = winning(mode, trick)
            best, best_seat = (trick[top], seats[top]) if trick else (-1, -1)
            partner_wins = best_seat >= 0 and best_seat != seat and camps[best_seat] == camps[seat]
            inputs = public_inputs(
                mode,
                camps[seat] == camps[view.taker],
                before,
                trick,
                [camps[s] == camps[seat] for s in seats],
                partner_wins,
            ) + hand_inputs(mode, later[seat])
            led = trick[0] >> 3 if trick else -1
            self.plays.append((seat, card, later[seat], (best, partner_wins, led), self.model.hidden_of(inputs)))
        self.flags = flags
        self.seats = sorted({p[0] for p in self.plays})

    def weights(self, worlds: Sequence[Sequence[int]]) -> list[float]:
        """Each world's weight (``worlds``: each seat's hand now, a mask each), 1.0 with nothing to weigh."""
        n = len(worlds)
        if not self.plays or not n:
            return [1.0] * n
        model, mode, place = self.model, self.mode, _PLACE[self.mode]
        # Bit ``_CARD_AT[mode][j]`` of a mask is the card at input ``j``: masks to rows of inputs.
        shifts = _CARD_AT[mode]
        hands = np.array([list(w) for w in worlds], dtype=np.int64)  # (n, seats)
        table, floor = self.table, self.floor
        # Each play's chance in each world, computed once for each hand its player may have held.
        chance_of: list[npt.NDArray[np.float64]] = [np.empty(0)] * len(self.plays)
        for seat in self.seats:
            mine = [i for i, play in enumerate(self.plays) if play[0] == seat]
            held_now, where = np.unique(hands[:, seat], return_inverse=True)
            # The first layer's part of the hand now, then of each play's hand then: (plays, m, H).
            now = ((held_now[:, None] >> shifts) & 1).astype(np.float64) @ model._w1[HAND : HAND + 32]
            logits = model.logits_of(np.stack([now + self.plays[i][4] for i in mine]))
            # A card is legal in a hand when the hand holds none of the cards that, beside it, would
            # make it illegal (``belote.play.not_held``, read from the rule itself).
            held = np.stack([held_now | self.plays[i][2] for i in mine])  # (plays, m)
            blockers = np.array([_blockers(mode, *self.plays[i][3], self.flags) for i in mine], dtype=np.int64)
            legal = (((held[:, :, None] >> shifts) & 1) == 1) & ((held[:, :, None] & blockers[:, None, :]) == 0)
            top = np.where(legal, logits, -np.inf).max(axis=2)
            drop = np.clip(top[:, :, None] - logits, 0, SPAN + 1).astype(np.int64)
            chances = np.where(legal, table[drop], 0.0)
            played = np.array([place[self.plays[i][1]] for i in mine])
            p = np.take_along_axis(chances, played[:, None, None], axis=2)[:, :, 0] / chances.sum(axis=2)
            mixed = (1.0 - floor) * p + floor / legal.sum(axis=2)
            for row, i in zip(mixed, mine, strict=True):
                chance_of[i] = row[where]
        # The product over the plays, in their order (each product a correctly rounded multiplication).
        weights = np.ones(n)
        for row in chance_of:
            weights *= row
        return [float(w) for w in weights]
