"""Playing strength of the bots on duplicate deals, with 95% confidence intervals, and their decision times.

Each comparison is an arena run (``belote.arena``): A's points minus B's per deal over groups of the
same deal played at every table with the seats rotated (pairs at four and two hands, six tables at
three). A comparison whose bot does not exist yet is skipped with a line saying so. Each comparison
is run ``--runs`` times on consecutive seeds; the last line of each gives the median over the runs.
Decision times are those of each bot at its default strength, bids and cards apart, measured while
the comparisons ran (``--jobs`` processes at once: keep it at or below the number of cores for
times that mean something), as medians over the runs.

Comparisons: heuristic-random, search-heuristic, search-think (classic, or ``--rules``), and the
other games: coinche (search vs heuristic in Coinche), coinche-heuristic-random, three-handed and
two-handed (search vs heuristic). By default the classic three and coinche are run.

    python bench/strength.py [--deals 1000] [--random-deals N] [--think-deals N] [--variant-deals N]
                             [--runs R] [--jobs J] [--seed S] [--rules PRESET] [--only KEY,KEY...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from belote.arena import ArenaResult, BotTimes, Team, run_arena
from belote.bots import bot_names
from belote.rules import PRESETS


@dataclass(frozen=True)
class Comparison:
    key: str
    a: Team
    b: Team
    deals_flag: str  # the argparse destination that gives its number of deals
    rules: str | None = None  # a preset of its own (None: --rules)
    default: bool = True  # run when --only is not given


COMPARISONS = (
    Comparison("heuristic-random", Team("heuristic"), Team("random"), "random_deals"),
    Comparison("search-heuristic", Team("search"), Team("heuristic"), "deals"),
    Comparison("search-think", Team("search"), Team("search", {"think": 4.0}), "think_deals"),
    Comparison("coinche", Team("search"), Team("heuristic"), "variant_deals", "coinche"),
    Comparison("coinche-heuristic-random", Team("heuristic"), Team("random"), "random_deals", "coinche", False),
    Comparison("three-handed", Team("search"), Team("heuristic"), "variant_deals", "three-handed", False),
    Comparison("two-handed", Team("search"), Team("heuristic"), "variant_deals", "two-handed", False),
)


def ms(seconds: float) -> str:
    """``120 ms``, ``4.2 ms``, ``0.0031 ms``."""
    x = seconds * 1000
    return f"{x:.0f} ms" if x >= 100 else f"{x:.1f} ms" if x >= 1 else f"{x:.2g} ms"


def time_line(bot: str, runs: list[BotTimes]) -> str:
    """A bot's decision times: each figure the median over the runs."""

    def med(pick: Callable[[BotTimes], float]) -> float:
        return statistics.median(pick(t) for t in runs)

    return (
        f"{bot} decision time: median {ms(med(lambda t: t.all.median))}, p95 {ms(med(lambda t: t.all.p95))} "
        f"(bids median {ms(med(lambda t: t.bids.median))}, p95 {ms(med(lambda t: t.bids.p95))}; "
        f"cards median {ms(med(lambda t: t.cards.median))}, p95 {ms(med(lambda t: t.cards.p95))}; "
        f"max {ms(max(t.all.max for t in runs))}; {sum(t.all.count for t in runs)} decisions in {len(runs)} runs)"
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
    parser.add_argument(
        "--variant-deals",
        type=int,
        default=None,
        metavar="N",
        help="for search vs heuristic in Coinche, three-handed, two-handed (default: --deals / 5, at least 20)",
    )
    parser.add_argument("--runs", type=int, default=1, help="runs of each comparison, on consecutive seeds")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: every core)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS), help="for the classic comparisons")
    parser.add_argument(
        "--only", default=None, help="comma-separated comparisons to run: " + ", ".join(c.key for c in COMPARISONS)
    )
    args = parser.parse_args()
    if args.random_deals is None:
        args.random_deals = args.deals
    if args.think_deals is None:
        args.think_deals = max(20, args.deals // 5)
    if args.variant_deals is None:
        args.variant_deals = max(20, args.deals // 5)
    wanted = [c.key for c in COMPARISONS if c.default] if args.only is None else args.only.split(",")
    unknown = set(wanted) - {c.key for c in COMPARISONS}
    if unknown:
        parser.error(f"no comparison {', '.join(sorted(unknown))}; they are: {', '.join(c.key for c in COMPARISONS)}")

    names = bot_names()
    print(f"rules {args.rules}, seed {args.seed}, {args.runs} runs, {args.jobs} jobs; bots: {', '.join(names)}")
    status = 0
    times: dict[str, dict[str, list[BotTimes]]] = {}  # by rules, by bot at default strength
    for c in COMPARISONS:
        if c.key not in wanted:
            continue
        rules = c.rules or args.rules
        label = f"{c.a.label} vs {c.b.label}" + ("" if c.rules is None else f" ({c.rules})")
        missing = sorted({c.a.bot, c.b.bot} - set(names))
        if missing:
            print(f"{label}: skipped (no bot {' or '.join(missing)} yet)")
            continue
        means = []
        for run in range(args.runs):
            seed = args.seed + run
            start = time.perf_counter()
            try:
                r: ArenaResult = run_arena(c.a, c.b, getattr(args, c.deals_flag), seed, rules, args.jobs)
            except Exception as e:  # one broken bot should not hide the other comparisons
                notes = "; ".join(getattr(e, "__notes__", []))
                print(f"{label}: failed ({type(e).__name__}: {e}{'; ' + notes if notes else ''})", flush=True)
                status = 1
                break
            means.append(r.mean)
            a_label = c.a.label if c.rules is None else f"{c.a.label} ({c.rules})"
            print(
                f"{r.summary(a_label, c.b.label)} [seed {seed}, {r.unpaired} deals unpaired, {r.matches} matches, "
                f"score per deal A {r.means[0]:.1f}, B {r.means[1]:.1f}; {time.perf_counter() - start:.0f} s]",
                flush=True,
            )
            for team, t in ((c.a, r.times[0]), (c.b, r.times[1])):
                if not team.options:
                    times.setdefault(rules, {}).setdefault(team.bot, []).append(t)
        if len(means) > 1:
            spread = ", ".join(f"{m:+.1f}" for m in means)
            print(f"{label}: median {statistics.median(means):+.1f} points/deal over {len(means)} runs ({spread})")
    for rules, by_bot in times.items():
        for bot in ("random", "heuristic", "search"):
            if bot in by_bot:
                print(f"[{rules}] {time_line(bot, by_bot[bot])}")
    return status


if __name__ == "__main__":
    sys.exit(main())
