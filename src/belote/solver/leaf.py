"""The learned value of a double-dummy position at a trick boundary: the leaf of a depth-limited search.

A *leaf* is four hands of the same number of cards ``n`` (1..8; 4 to 6 in practice), a trump mode
``m`` (0..3 that suit, 4 no trumps, 5 all trumps), the seat ``L`` to lead the next trick and the
``step`` of play (1 or 3: the next seat is ``(seat + step) % 4``). Its exact value ``V`` is what the
leader's side (seats ``L`` and ``L + 2``) takes from here with best play: the card points
(``POINTS[m]``) of the tricks it wins and the ten of the last trick, capot closed for both sides, i.e.
``value(Position(hands, m, leader=L, step=step, rules=..., tricks_won=(1, 1)))`` (at a trick boundary
the player to move is the leader, and a side that already lost a trick cannot make capot). This
module estimates ``V`` with a small integer network, computed exactly the same way here (plain Python
ints) and in the C solver (``_dds.c``), bit for bit:

- Relative order: the ``r``-th player of the trick is seat ``(L + step * r) % 4``, ``r`` = 0..3.
- Suit permutation ``perm[suit]``: for ``m`` in 0..3, ``perm[m] = 0`` and the three other suits keep
  their increasing order as 1, 2, 3; for ``m`` = 4 or 5 the identity.
- Features: 128 binary inputs, ``x[32 * r + 8 * perm[suit] + rank] = 1`` for each card held by the
  ``r``-th player (``features`` gives the indices of the inputs that are 1).
- Class ``k``: 0 for ``m`` in 0..3, 1 for ``m == 4``, 2 for ``m == 5``.
- Network (``H`` hidden units, the file's choice): ``h[j] = max(0, b1[k][j] + sum of W1[k][i][j] over
  the active inputs i)`` in int32 (no overflow: every weight and bias is in int16 range and at most
  32 inputs are active, so ``|h| < 33 * 2**15``), ``out = b2[k] + sum_j W2[k][j] * h[j]`` in int64,
  ``V = (out + (1 << (shift - 1))) >> shift`` (an arithmetic shift: floor division by ``2**shift``
  after adding half), then clamped to ``[0, A]``, ``A`` the card points of all the cards still held
  (``POINTS[m]``) plus 10.
- The weights file (``belote/data/leaf-value.npz``): ``W1`` int32 (3, 128, H), ``b1`` int32 (3, H),
  ``W2`` int32 (3, H), ``b2`` int64 (3,), ``shift`` int64 scalar, and metadata (``version``,
  ``samples``, ``mae`` the held-out mean absolute error per class of the integer model).
  ``training/leaf_train.py`` makes it from the positions of ``training/leaf_data.py``.

numpy reads the file; the rules engine never imports this module.

>>> from belote.cards import mask_of
>>> hands = tuple(mask_of(h.split()) for h in ("JH 7S", "9H 8S", "AS TD", "KC QC"))
>>> # hearts trumps, E (seat 1) leads, play goes 1 -> 2 -> 3 -> 0: E is r = 0, S r = 1, W r = 2, N r = 3.
>>> features(hands, 1, 1, 1)
[2, 9, 47, 51, 93, 94, 100, 104]
"""

from __future__ import annotations

import operator
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from belote.play import LAST_TRICK, POINTS

__all__ = [
    "CLASSES",
    "INPUTS",
    "LeafModel",
    "default_model",
    "features",
    "limit",
    "mode_class",
    "read_weights",
    "suit_perm",
]

#: The inputs of the network: four players of 32 cards.
INPUTS = 128
#: The three networks: trumps (a suit), no trumps, all trumps.
CLASSES = 3
_I32 = npt.NDArray[np.int32]
DEFAULT_PATH = Path(__file__).resolve().parent.parent / "data" / "leaf-value.npz"

# _BITS[b]: the positions of the one bits of the byte b.
_BITS: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(8) if b >> i & 1) for b in range(256))


def suit_perm(mode: int) -> tuple[int, int, int, int]:
    """Where each suit goes among the inputs: the trump suit first, the others in order; at no
    trumps and all trumps, each suit in its place.

    >>> suit_perm(2), suit_perm(4)
    ((1, 2, 0, 3), (0, 1, 2, 3))
    """
    if 0 <= mode <= 3:
        perm = [0, 0, 0, 0]
        nxt = 1
        for s in range(4):
            if s != mode:
                perm[s] = nxt
                nxt += 1
        return (perm[0], perm[1], perm[2], perm[3])
    if mode in (4, 5):
        return (0, 1, 2, 3)
    raise ValueError(f"the trump mode is 0..5, not {mode}")


_PERMS: tuple[tuple[int, int, int, int], ...] = tuple(suit_perm(m) for m in range(6))


def mode_class(mode: int) -> int:
    """The network of a mode: 0 for a trump suit, 1 no trumps, 2 all trumps."""
    if not 0 <= mode <= 5:
        raise ValueError(f"the trump mode is 0..5, not {mode}")
    return 0 if mode < 4 else mode - 3


def features(hands: tuple[int, ...] | list[int], mode: int, leader: int, step: int) -> list[int]:
    """The indices of the active inputs, in increasing order (see the module's docstring)."""
    perm = _PERMS[mode]
    out: list[int] = []
    for r in range(4):
        h = hands[(leader + step * r) % 4]
        base = 32 * r
        for s in range(4):
            byte = h >> (8 * s) & 0xFF
            if byte:
                off = base + 8 * perm[s]
                out.extend(off + i for i in _BITS[byte])
    out.sort()
    return out


def limit(hands: tuple[int, ...] | list[int], mode: int) -> int:
    """``A``: the card points of every card still held, and the ten of the last trick."""
    pts = POINTS[mode]
    total = LAST_TRICK
    for h in hands:
        for s in range(4):
            byte = h >> (8 * s) & 0xFF
            if byte:
                total += sum(pts[8 * s + i] for i in _BITS[byte])
    return total


def read_weights(
    path: str | Path,
) -> tuple[
    npt.NDArray[np.generic],
    npt.NDArray[np.generic],
    npt.NDArray[np.generic],
    npt.NDArray[np.generic],
    int,
    dict[str, npt.NDArray[np.generic]],
]:
    """``W1``, ``b1``, ``W2``, ``b2``, ``shift`` and the other arrays (metadata) of a network's weights
    file: the leaf value's, and the card-play prior's (``belote.bots.prior``)."""
    with np.load(path) as f:
        arrays = {name: f[name] for name in f.files}
    meta = {k: v for k, v in arrays.items() if k not in ("W1", "b1", "W2", "b2", "shift")}
    return arrays["W1"], arrays["b1"], arrays["W2"], arrays["b2"], int(arrays["shift"]), meta


class LeafModel:
    """The integer network of a weights file; ``value`` is the estimate of a leaf."""

    def __init__(
        self,
        w1: npt.ArrayLike,
        b1: npt.ArrayLike,
        w2: npt.ArrayLike,
        b2: npt.ArrayLike,
        shift: int,
        meta: dict[str, npt.NDArray[np.generic]] | None = None,
    ) -> None:
        self.w1: npt.NDArray[np.int32] = np.ascontiguousarray(w1, dtype=np.int32)
        self.b1: npt.NDArray[np.int32] = np.ascontiguousarray(b1, dtype=np.int32)
        self.w2: npt.NDArray[np.int32] = np.ascontiguousarray(w2, dtype=np.int32)
        self.b2: npt.NDArray[np.int64] = np.ascontiguousarray(b2, dtype=np.int64)
        self.shift = int(shift)
        self.meta = dict(meta or {})
        hidden = self.w1.shape[2] if self.w1.ndim == 3 else 0
        if (
            self.w1.shape != (CLASSES, INPUTS, hidden)
            or self.b1.shape != (CLASSES, hidden)
            or self.w2.shape != (CLASSES, hidden)
            or self.b2.shape != (CLASSES,)
            or hidden < 1
        ):
            raise ValueError("a leaf model is W1 (3, 128, H), b1 (3, H), W2 (3, H), b2 (3,)")
        if not 1 <= self.shift <= 40:
            raise ValueError(f"the shift is 1..40, not {self.shift}")
        if max(int(np.abs(self.w1).max()), int(np.abs(self.b1).max())) >= 1 << 15:
            raise ValueError("W1 and b1 must be in int16 range (an int32 hidden unit must not overflow)")
        self.hidden = hidden
        # Plain Python ints, the rows of W1 per class: what ``value`` adds up.
        self._w1: list[list[list[int]]] = [[[int(v) for v in row] for row in cls] for cls in self.w1]
        self._b1: list[list[int]] = [[int(v) for v in row] for row in self.b1]
        self._w2: list[list[int]] = [[int(v) for v in row] for row in self.w2]
        self._b2: list[int] = [int(v) for v in self.b2]

    @classmethod
    def load(cls, path: str | Path | None = None) -> LeafModel:
        """The model of a weights file; by default the one packaged with belote."""
        return cls(*read_weights(DEFAULT_PATH if path is None else path))

    def raw(self, hands: tuple[int, ...] | list[int], mode: int, leader: int, step: int) -> int:
        """The network's value before the clamp: ``(out + 2**(shift-1)) >> shift``."""
        k = mode_class(mode)
        rows = self._w1[k]
        h = self._b1[k]
        add = operator.add
        for i in features(hands, mode, leader, step):
            h = list(map(add, h, rows[i]))
        out = self._b2[k] + sum(w * x for w, x in zip(self._w2[k], h, strict=True) if x > 0)
        return (out + (1 << (self.shift - 1))) >> self.shift

    def value(self, hands: tuple[int, ...] | list[int], mode: int, leader: int, step: int) -> int:
        """The estimated value of the leaf for the leader's side, clamped to ``[0, A]``."""
        if len(hands) != 4 or step not in (1, 3) or not 0 <= leader <= 3:
            raise ValueError("a leaf is four hands, a leader 0..3 and a step of 1 or 3")
        v = self.raw(hands, mode, leader, step)
        return min(max(v, 0), limit(hands, mode))

    # ----------------------------------------------------------------- for the C module
    def arrays(self) -> tuple[_I32, _I32, _I32, npt.NDArray[np.int64]]:
        """``W1`` (3, 128, H), ``b1`` (3, H), ``W2`` (3, H) int32 and ``b2`` (3,) int64, C-contiguous."""
        return self.w1, self.b1, self.w2, self.b2

    def to_bytes(self) -> tuple[bytes, bytes, bytes, bytes]:
        """The same arrays as native-endian bytes (int32, int32, int32, int64), C order."""
        return self.w1.tobytes(), self.b1.tobytes(), self.w2.tobytes(), self.b2.tobytes()


@cache
def default_model() -> LeafModel:
    """The packaged model, loaded once."""
    return LeafModel.load()
