"""A benchmark whose figures can be quoted: any bot against fixed opponents on fixed duplicate deals.

``belote-bench/1`` (``VERSION``) is, for each game (classic, Coinche, three-handed, two-handed with
their default rules), ``PAIRS`` duplicate groups of one-deal matches whose decks come from the game's
seed in ``SEEDS``, against each of three opponents (``OPPONENTS``):

- ``random``: a legal action drawn at random;
- ``heuristic``: the heuristic bot (the tables' easy level);
- ``search``: the search bot at its default budget of worlds and nodes, without its card-play prior
  (the tables' normal level less its learned weights): a budget counted in nodes, not in time, so
  that its play depends on nothing but the deal and the seeds, not on the machine or its speed.

The figure of a cell is ``belote.arena``'s: the bot's points less the opponent's, per deal (per seat
and deal at three hands), over the groups of the same deal played with the seats swapped, with its 95%
confidence interval. A bot is a built-in bot with options (``Team``) or any program behind the line
protocol (``exec:COMMAND``, docs/bot-protocol.md). ``tests/test_benchmark.py`` holds the opponents'
play on fixed deals: a change to the bots that moves them fails there, and the benchmark's version,
with the table of docs/bots.md, must then move too.

>>> [o.name for o in OPPONENTS], GAMES
(['random', 'heuristic', 'search'], ('classic', 'coinche', 'three-handed', 'two-handed'))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from belote.arena import ArenaError, ArenaResult, Team, run_arena
from belote.rules import Rules, find_rules

#: The benchmark's name and version: its games, deals, opponents and figures as this module defines them.
VERSION = "belote-bench/1"
#: The games, each with the rules of its preset.
GAMES = ("classic", "coinche", "three-handed", "two-handed")
#: The duplicate groups of each cell (game and opponent).
PAIRS = 200
#: The seed of each game's deal set (the arena's base seed).
SEEDS = {"classic": 20_271, "coinche": 20_272, "three-handed": 20_273, "two-handed": 20_274}


@dataclass(frozen=True)
class Opponent:
    name: str
    team: Team
    what: str


OPPONENTS = (
    Opponent("random", Team("random"), "a legal action drawn at random"),
    Opponent("heuristic", Team("heuristic"), "the heuristic bot (the tables' easy level)"),
    Opponent(
        "search",
        Team("search", {"prior_pool": 0}),
        "the search bot at its default budget (nodes, not time), without the card-play prior",
    ),
)


def opponent(name: str) -> Opponent:
    for o in OPPONENTS:
        if o.name == name:
            return o
    raise ArenaError(f"no opponent {name!r} in {VERSION}; its opponents: {', '.join(o.name for o in OPPONENTS)}")


def game_rules(game: str) -> Rules:
    """A game's rules in the benchmark: its preset's, each match one deal."""
    if game not in GAMES:
        raise ArenaError(f"no game {game!r} in {VERSION}; its games: {', '.join(GAMES)}")
    return replace(find_rules(game), deals=1)


@dataclass(frozen=True)
class Cell:
    """One game against one opponent: the arena's figures (team A is the bot benchmarked)."""

    game: str
    opponent: str
    result: ArenaResult

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.result.ci95
        return {
            "game": self.game,
            "opponent": self.opponent,
            "pairs": self.result.pairs,
            "mean": self.result.mean,
            "ci95": [lo, hi],
            "arena": self.result.to_json(),
        }


@dataclass(frozen=True)
class BenchmarkResult:
    bot: Team
    pairs: int
    cells: tuple[Cell, ...]

    @property
    def complete(self) -> bool:
        """Whether these are the benchmark's figures: every game and opponent, ``PAIRS`` groups each."""
        done = {(c.game, c.opponent) for c in self.cells}
        return self.pairs == PAIRS and done == {(g, o.name) for g in GAMES for o in OPPONENTS}

    def to_json(self) -> dict[str, Any]:
        return {
            "benchmark": VERSION,
            "complete": self.complete,
            "bot": self.bot.to_json(),
            "pairs": self.pairs,
            "cells": [c.to_json() for c in self.cells],
        }

    def report(self) -> str:
        """The figures for people: a line a cell, the points a deal and their 95% interval."""
        head = f"{VERSION}: {self.bot.label}, {self.pairs} pairs a cell"
        if not self.complete:
            head += f" (not the benchmark's figures: those are every game and opponent at {PAIRS} pairs)"
        lines = [head, f"{'game':<14}{'opponent':<11}{'points/deal':>12}   95% CI"]
        for c in self.cells:
            lo, hi = c.result.ci95
            lines.append(f"{c.game:<14}{c.opponent:<11}{c.result.mean:>+12.1f}   {lo:+.1f} .. {hi:+.1f}")
        return "\n".join(lines)

    def markdown_rows(self, name: str | None = None) -> list[str]:
        """The bot's rows of the table of docs/bots.md, one a game it played: its name, the game, then
        each opponent's cell, ``mean (lo .. hi)`` (empty for an opponent not played)."""
        by = {(c.game, c.opponent): c.result for c in self.cells}
        rows = []
        for g in GAMES:
            if not any(game == g for game, _ in by):
                continue
            cells = []
            for o in OPPONENTS:
                r = by.get((g, o.name))
                cells.append("" if r is None else f"{r.mean:+.1f} ({r.ci95[0]:+.1f} .. {r.ci95[1]:+.1f})")
            rows.append(f"| {name or self.bot.label} | {g} | " + " | ".join(cells) + " |")
        return rows


def run_benchmark(
    bot: Team | str,
    games: Sequence[str] = GAMES,
    opponents: Sequence[str] | None = None,
    pairs: int = PAIRS,
    jobs: int | None = None,
    done: Callable[[Cell], None] | None = None,
) -> BenchmarkResult:
    """``bot`` against each opponent (default: all) in each game; ``done`` is told of each cell as it ends.
    A game or opponent the benchmark does not have is refused (``ArenaError``) before a deal is played."""
    team = Team(bot) if isinstance(bot, str) else bot
    names = [o.name for o in OPPONENTS] if opponents is None else opponents
    plan = [(g, game_rules(g), opponent(o)) for g in games for o in names]
    cells = []
    for game, rules, against in plan:
        result = run_arena(team, against.team, deals=pairs, seed=SEEDS[game], rules=rules, jobs=jobs)
        cell = Cell(game, against.name, result)
        cells.append(cell)
        if done is not None:
            done(cell)
    return BenchmarkResult(team, pairs, tuple(cells))


__all__ = [
    "GAMES",
    "OPPONENTS",
    "PAIRS",
    "SEEDS",
    "VERSION",
    "BenchmarkResult",
    "Cell",
    "Opponent",
    "game_rules",
    "opponent",
    "run_benchmark",
]
