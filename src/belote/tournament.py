"""Duplicate tournaments: the same deals for everyone, each result scored against the field.

A tournament is a few deals (*boards*) of one game and rule set. Board ``k`` of a tournament of seed
``s`` is dealt from ``board_seed(s, k)``: the deck, the dealer and every bot's seed at its table
(``seed * 7 + seat``, as at any table) follow from it, so two people who play the same cards meet
exactly the same bots' play; the only difference between two results of a board is what the
people did. A board is one deal whatever its outcome (``Match(one_deal=True)``): a deal everybody
passed twice ends at 0 to 0.

Scoring, as duplicate bridge does it:

- a result's **score** is what its player's side made in the deal minus what the others made (at
  three hands, minus the mean of the other two): ``net``;
- its **matchpoints** are the share of the other results of the same board, in the same seat, that
  it beats, a tie counting half, as a percentage (``matchpoints``); its **difference** is its score
  minus the mean of those results (``difference``: the second ranking, as IMPs are in bridge);
- before ``FIELD`` people have played a board, the bots' own results on it fill its field: the
  board played by bots alone, the player's seat by each of ``BOT_FIELD`` in turn (``field_of``);
- a tournament's ranking is the mean of each entrant's percentages over the boards (``Standing``):
  the entrants who played every board first, by that mean, then the difference; those who have
  not, after them, by the boards they played.

This module is the arithmetic alone: no clock, no store, no bot (``belote.server.tournaments``
plays and keeps them).

>>> matchpoints(10, [0, 10, 20, -5])
62.5
>>> difference(10, [0, 10, 20, -5])
3.75
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

#: Results a board is compared with at least: the bots' results fill the field up to it.
FIELD = 8
#: The bots that play the player's seat for the fill-in results, in the order they are taken: a
#: strength and a draw (0: the seat's own seed, the bots' line; 1, 2: other seeds of that strength).
BOT_FIELD: tuple[tuple[str, int], ...] = (
    ("normal", 0),
    ("strong", 0),
    ("easy", 0),
    ("normal", 1),
    ("strong", 1),
    ("easy", 1),
    ("normal", 2),
    ("strong", 2),
)
#: Boards a tournament may have.
MIN_BOARDS, MAX_BOARDS = 1, 16


def board_seed(seed: int, board: int) -> int:
    """The seed of a board's table (31 bits, as a table's), from the tournament's secret seed.

    >>> board_seed(1, 0) == board_seed(1, 0) != board_seed(1, 1)
    True
    """
    digest = hashlib.sha256(f"belote-tournament:{seed}:{board}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFF_FFFF


def bot_draw_seed(seed: int, draw: int) -> int:
    """The seed of the fill-in bot of draw ``draw`` in the player's seat (draw 0: the seat's own)."""
    return seed if draw == 0 else board_seed(seed, 1_000 + draw)


def net(points: Sequence[int], side: int) -> float:
    """A side's score in a deal: its points minus the others' (their mean at three hands).

    >>> net([100, 62], 0), net([100, 62], 1), net([80, 40, 42], 0)
    (38.0, -38.0, 39.0)
    """
    others = [p for i, p in enumerate(points) if i != side]
    return float(points[side]) - sum(others) / len(others)


def matchpoints(score: float, others: Sequence[float]) -> float | None:
    """The percentage of ``others`` that ``score`` beats, a tie counting half (None: no field).

    >>> matchpoints(5, [5, 5]), matchpoints(5, [1, 9]), matchpoints(5, [])
    (50.0, 50.0, None)
    """
    if not others:
        return None
    below = sum(1 for o in others if o < score)
    ties = sum(1 for o in others if o == score)
    return 100.0 * (below + ties / 2) / len(others)


def difference(score: float, others: Sequence[float]) -> float | None:
    """``score`` minus the mean of ``others`` (None: no field)."""
    if not others:
        return None
    return score - sum(others) / len(others)


def field_of(people: Sequence[float], bots: Sequence[float], minimum: int = FIELD) -> tuple[list[float], int, int]:
    """The field a result is compared with: the other people's results, and as many of the bots'
    (in their order) as it takes to reach ``minimum``; the field, how many people, how many bots.

    >>> field_of([3, 4], [1, 2, 5, 6, 7, 8, 9, 0])
    ([3, 4, 1, 2, 5, 6, 7, 8], 2, 6)
    >>> field_of(list(range(9)), [1, 2])[1:]
    (9, 0)
    """
    taken = list(bots[: max(0, minimum - len(people))])
    return [*people, *taken], len(people), len(taken)


class Distribution:
    """The scores of a board's results, counted by score: a result's matchpoints against all the
    others in time proportional to the distinct scores (a few hundred at most), not to the results.

    >>> d = Distribution({0: 1, 10: 2, 20: 1})
    >>> d.matchpoints(10, bots=[]), d.matchpoints(10, bots=[-5], minimum=5)
    (50.0, 62.5)
    """

    def __init__(self, counts: Mapping[float, int] | None = None) -> None:
        self.counts: dict[float, int] = {float(s): int(n) for s, n in (counts or {}).items() if n}
        self.total = sum(self.counts.values())

    def add(self, score: float) -> None:
        self.counts[float(score)] = self.counts.get(float(score), 0) + 1
        self.total += 1

    def _others(self, score: float) -> tuple[int, int, int, float]:
        """Of the results but one of ``score`` (the one scored): below it, tied, in all, their sum."""
        below = sum(n for s, n in self.counts.items() if s < score)
        ties = self.counts.get(float(score), 0) - 1
        total = sum(s * n for s, n in self.counts.items()) - score
        return below, ties, self.total - 1, total

    def matchpoints(self, score: float, bots: Sequence[float], minimum: int = FIELD) -> float | None:
        below, ties, people, _ = self._others(score)
        taken = bots[: max(0, minimum - people)]
        below += sum(1 for b in taken if b < score)
        ties += sum(1 for b in taken if b == score)
        n = people + len(taken)
        return None if n == 0 else 100.0 * (below + ties / 2) / n

    def difference(self, score: float, bots: Sequence[float], minimum: int = FIELD) -> float | None:
        _, _, people, total = self._others(score)
        taken = bots[: max(0, minimum - people)]
        n = people + len(taken)
        return None if n == 0 else score - (total + sum(taken)) / n

    def compared(self, bots: Sequence[float], minimum: int = FIELD) -> tuple[int, int]:
        """How many people and how many bots' results one result of the board is compared with."""
        people = max(0, self.total - 1)
        return people, len(bots[: max(0, minimum - people)])


@dataclass
class Standing:
    """An entrant's line in a tournament's ranking."""

    entrant: str
    name: str
    player: str | None
    percents: dict[int, float] = field(default_factory=dict)  # board -> matchpoints (%)
    differences: dict[int, float] = field(default_factory=dict)  # board -> difference

    @property
    def played(self) -> int:
        return len(self.percents)

    @property
    def percent(self) -> float:
        return sum(self.percents.values()) / len(self.percents) if self.percents else 0.0

    @property
    def difference(self) -> float:
        return sum(self.differences.values()) / len(self.differences) if self.differences else 0.0


def ranked(standings: Iterable[Standing], boards: int) -> list[Standing]:
    """The ranking: those who played every board by mean percentage, then mean difference, then
    name; then the others by boards played and the same.

    >>> a = Standing("a", "A", None, {0: 50.0, 1: 70.0})
    >>> b = Standing("b", "B", None, {0: 90.0})
    >>> c = Standing("c", "C", None, {0: 60.0, 1: 60.0})
    >>> [s.entrant for s in ranked([b, c, a], 2)]
    ['a', 'c', 'b']
    """
    return sorted(
        standings,
        key=lambda s: (s.played < boards, -s.played, -round(s.percent, 9), -round(s.difference, 9), s.name, s.entrant),
    )
