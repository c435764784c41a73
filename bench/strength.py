"""Playing strength of the bots on duplicate deals, with 95% confidence intervals, and their decision times.

Each comparison is an arena run (``belote.arena``): A's points minus B's per deal over pairs of the
same deal played at two tables with the seats swapped. A comparison whose bot does not exist yet is
skipped with a line saying so. Decision times are those of each bot at its default strength, bids and
cards together, measured while the comparisons ran (``--jobs`` processes at once: keep it at or
below the number of cores for times that mean something).

    python bench/strength.py [--deals 1000] [--random-deals N] [--think-deals N] [--jobs J] [--seed S]
                             [--rules PRESET] [--only heuristic-random,search-heuristic,search-think]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass

from belote.arena import ArenaResult, BotTimes, Team, TimeStats, run_arena
from belote.bots import bot_names
from belote.rules import PRESETS


@dataclass(frozen=True)
class Comparison:
    key: str
    a: Team
    b: Team
    deals_flag: str  # the argparse destination that gives its number of deals


COMPARISONS = (
    Comparison("heuristic-random", Team("heuristic"), Team("random"), "random_deals"),
    Comparison("search-heuristic", Team("search"), Team("heuristic"), "deals"),
    Comparison("search-think", Team("search"), Team("search", {"think": 4.0}), "think_deals"),
)


def ms(seconds: float) -> str:
    """``120 ms``, ``4.2 ms``, ``0.0031 ms``."""
    x = seconds * 1000
    return f"{x:.0f} ms" if x >= 100 else f"{x:.1f} ms" if x >= 1 else f"{x:.2g} ms"


def time_line(bot: str, times: BotTimes) -> str:
    def part(t: TimeStats) -> str:
        return f"median {ms(t.median)}, p95 {ms(t.p95)}"

    return (
        f"{bot} decision time: {part(times.all)} "
        f"(bids {part(times.bids)}; cards {part(times.cards)}; max {ms(times.all.max)}; {times.all.count} decisions)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=1000, help="duplicate pairs for search vs heuristic")
    parser.add_argument(
        "--random-deals", type=int, default=None, metavar="N", help="for heuristic vs random (default: --deals)"
    )
    parser.add_argument(
        "--think-deals",
        type=int,
        default=None,
        metavar="N",
        help="for search vs search at 4x the thinking time (default: --deals / 5, at least 20)",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: every core)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS))
    parser.add_argument(
        "--only", default=None, help="comma-separated comparisons to run: " + ", ".join(c.key for c in COMPARISONS)
    )
    args = parser.parse_args()
    if args.random_deals is None:
        args.random_deals = args.deals
    if args.think_deals is None:
        args.think_deals = max(20, args.deals // 5)
    wanted = [c.key for c in COMPARISONS] if args.only is None else args.only.split(",")
    unknown = set(wanted) - {c.key for c in COMPARISONS}
    if unknown:
        parser.error(f"no comparison {', '.join(sorted(unknown))}; they are: {', '.join(c.key for c in COMPARISONS)}")

    names = bot_names()
    print(f"rules {args.rules}, seed {args.seed}, {args.jobs} jobs; bots available: {', '.join(names)}")
    status = 0
    times: dict[str, BotTimes] = {}  # at default strength, from the first comparison that measured it
    for c in COMPARISONS:
        if c.key not in wanted:
            continue
        label = f"{c.a.label} vs {c.b.label}"
        missing = sorted({c.a.bot, c.b.bot} - set(names))
        if missing:
            print(f"{label}: skipped (no bot {' or '.join(missing)} yet)")
            continue
        start = time.perf_counter()
        try:
            r: ArenaResult = run_arena(c.a, c.b, getattr(args, c.deals_flag), args.seed, args.rules, args.jobs)
        except Exception as e:  # one broken bot should not hide the other comparisons
            notes = "; ".join(getattr(e, "__notes__", []))
            print(f"{label}: failed ({type(e).__name__}: {e}{'; ' + notes if notes else ''})", flush=True)
            status = 1
            continue
        print(
            f"{r.summary(c.a.label, c.b.label)} "
            f"[{r.unpaired} deals unpaired, {r.matches} matches, {time.perf_counter() - start:.0f} s]",
            flush=True,
        )
        for team, t in ((c.a, r.times[0]), (c.b, r.times[1])):
            if not team.options and team.bot not in times:
                times[team.bot] = t
    for bot in ("random", "heuristic", "search"):
        if bot in times:
            print(time_line(bot, times[bot]))
    return status


if __name__ == "__main__":
    sys.exit(main())
