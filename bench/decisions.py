"""How long the search bot thinks: every decision of whole deals timed, with the solver nodes it spent.

Plays deals of each game with the search bot (the tables' ``--strength``, or ``--think``) at every seat, as a
server table seeds them, and times each decision. Each deal is played ``--runs`` times: a decision's
time is its median over the runs (its nodes and its action are the same in every run, which is
checked: the bots replay exactly). Prints per game and phase (bid / card) the p50, p99 and max of
the decision times and of the nodes, then the slowest decisions found, with what replays them.

Times are the CPU time of the thread deciding (``time.thread_time``): on a machine shared with other
work the wall clock measures the others too. The wall time's p99 and max are shown beside them; on an
idle core the two agree.

    python bench/decisions.py [--deals 30] [--runs 3] [--games classic,coinche,three-handed,two-handed]
                              [--seed 1] [--strength normal|strong] [--think X] [--budget NODES] [--slowest 5]

``--budget 0`` lifts the bot's node budget (its thinking as before the budget existed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

import belote.solver
from belote.bots import make_bot
from belote.game import Action, Match
from belote.rules import PRESETS
from belote.server.room import STRENGTHS

GAMES = ("classic", "coinche", "three-handed", "two-handed")
#: A deal thrown in (everyone passed) is followed by the next: at most this many tried for one played.
MAX_DEALS = 6


class CountingSolver:
    """The solver's back end, adding up the nodes of every solve (those stopped at their limit too)."""

    def __init__(self, impl: Any) -> None:
        self.impl = impl
        self.total = 0

    def value(self, *args: Any) -> Any:
        try:
            return self.impl.value(*args)
        finally:
            self.total += self.impl.stats()["nodes"]

    def card_values(self, *args: Any) -> Any:
        try:
            return self.impl.card_values(*args)
        finally:
            self.total += self.impl.stats()["nodes"]

    def stats(self) -> dict[str, int]:
        stats: dict[str, int] = self.impl.stats()
        return stats


@dataclass
class Decision:
    game: str
    seed: int
    index: int  # the decision's number in its match
    seat: int
    phase: str  # "bid" or "card"
    action: Action
    nodes: int
    seconds: float  # CPU
    wall: float


def play(game: str, seed: int, options: dict[str, Any], counter: CountingSolver) -> list[Decision]:
    """The first deal played out (not thrown in) of the match of ``seed``, one search bot per seat."""
    rules = PRESETS[game]
    match = Match(rules, seed, seed % rules.players)
    bots = [make_bot("search", seed=seed * 7 + seat, **options) for seat in range(rules.players)]
    out: list[Decision] = []
    cpu, wall = time.thread_time, time.perf_counter
    while not match.over and len(match.deals) <= MAX_DEALS:
        deal = match.deal
        seat = match.to_move
        assert seat is not None
        view = match.view(seat)
        before = counter.total
        start, wall_start = cpu(), wall()
        action = bots[seat].act(view)
        elapsed, wall_elapsed = cpu() - start, wall() - wall_start
        phase = "bid" if view.phase == "bidding" else "card"
        out.append(Decision(game, seed, len(out), seat, phase, action, counter.total - before, elapsed, wall_elapsed))
        match.apply(action, seat=seat)
        if deal.result is not None and deal.result.outcome != "thrown-in":
            break
    return out


def pct(values: list[float], q: float) -> float:
    """The nearest-rank percentile ``q`` (0..100) of ``values``."""
    s = sorted(values)
    return s[max(0, min(len(s) - 1, round(q / 100 * len(s) + 0.5) - 1))]


def ms(seconds: float) -> str:
    x = seconds * 1000
    return f"{x:.0f} ms" if x >= 10 else f"{x:.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=30, help="deals of each game (default 30)")
    parser.add_argument("--runs", type=int, default=3, help="plays of each deal; times are medians (default 3)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated presets (default: the four games)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed (default 1)")
    parser.add_argument(
        "--strength",
        choices=[k for k, (bot, _) in STRENGTHS.items() if bot == "search"],
        default="normal",
        help="the tables' search bot of that strength (default normal, the tables' default)",
    )
    parser.add_argument(
        "--think", type=float, default=None, help="the search bot's option think (default: the level's)"
    )
    parser.add_argument(
        "--budget", type=int, default=None, help="the search bot's node budget (default: its own; 0: none)"
    )
    parser.add_argument("--slowest", type=int, default=5, help="slowest decisions shown per game (default 5)")
    args = parser.parse_args()
    options: dict[str, Any] = dict(STRENGTHS[args.strength][1])
    if args.think is not None:
        options["think"] = args.think
    if args.budget is not None:
        options["budget"] = args.budget
    counter = CountingSolver(belote.solver._impl)
    belote.solver._impl = counter
    print(
        f"search bot {options}, {args.deals} deals of each game from seed {args.seed}, {args.runs} runs; "
        f"solver {belote.solver.IMPLEMENTATION}",
        flush=True,
    )
    status = 0
    for game in args.games.split(","):
        if game not in PRESETS:
            parser.error(f"no game {game!r}; the presets are: {', '.join(sorted(PRESETS))}")
        decisions: list[Decision] = []
        started = time.perf_counter()
        for seed in range(args.seed, args.seed + args.deals):
            runs = [play(game, seed, options, counter) for _ in range(args.runs)]
            first = runs[0]
            for other in runs[1:]:
                if [(d.action, d.nodes) for d in other] != [(d.action, d.nodes) for d in first]:
                    print(f"{game} seed {seed}: the bots did not replay the same deal", flush=True)
                    status = 1
            for i, d in enumerate(first):
                d.seconds = statistics.median(r[i].seconds for r in runs if i < len(r))
                d.wall = statistics.median(r[i].wall for r in runs if i < len(r))
            decisions.extend(first)
        wall = time.perf_counter() - started
        print(f"\n{game}: {len(decisions)} decisions in {args.deals} deals ({wall:.0f} s for {args.runs} runs)")
        bids = sum(d.seconds for d in decisions if d.phase == "bid") / args.deals
        cards = sum(d.seconds for d in decisions if d.phase == "card") / args.deals
        print(f"  cpu a deal (four bots) {ms(bids + cards)}: bids {ms(bids)}, cards {ms(cards)}")
        for phase in ("bid", "card"):
            some = [d for d in decisions if d.phase == phase]
            if not some:
                continue
            t = [d.seconds for d in some]
            w = [d.wall for d in some]
            n = [float(d.nodes) for d in some]
            print(
                f"  {phase:4} {len(some):5} decisions  cpu p50 {ms(pct(t, 50)):>7}  p99 {ms(pct(t, 99)):>7}  "
                f"max {ms(max(t)):>7}  (wall p99 {ms(pct(w, 99)):>7}  max {ms(max(w)):>7})  "
                f"nodes p50 {pct(n, 50):>9,.0f}  p99 {pct(n, 99):>10,.0f}  max {max(n):>10,.0f}"
            )
        print("  slowest (replay: the match of that seed, first dealer seed % players, that decision's view):")
        for d in sorted(decisions, key=lambda d: -d.seconds)[: args.slowest]:
            print(
                f"    {ms(d.seconds):>8} cpu  {ms(d.wall):>8} wall  {d.nodes:>11,} nodes  {d.phase} seat {d.seat}  "
                f"seed {d.seed} decision {d.index}  -> {d.action}",
                flush=True,
            )
    return status


if __name__ == "__main__":
    sys.exit(main())
