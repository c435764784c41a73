"""What the line protocol of outside bots costs: the random bot in process, behind ``belote bot
serve random`` and as the plain example program, on the same duplicate deals against random.

For each: the arena's wall time, and the median and p95 of one decision of team A as the arena
times it (for a program: writing the view, the program reading it and answering, reading the
answer). Prints each run and the medians of the runs; the figures of the three must be identical
(it says so), the protocol changing nothing but the time.

    python bench/botproto.py [--deals 200] [--runs 3] [--rules classic]
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import time
from pathlib import Path

from belote.arena import Team, run_arena

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "random_bot.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rules", default="classic")
    args = parser.parse_args()
    py = shlex.quote(sys.executable)
    bots = {
        "in process": Team("random"),
        "belote bot serve random": Team(f"exec:{py} -m belote.cli bot serve random"),
        "examples/random_bot.py": Team(f"exec:{py} {shlex.quote(str(EXAMPLE))}"),
    }
    figures = {}
    print(f"{args.deals} duplicate deals of {args.rules} against random, {args.runs} runs, one process")
    for label, team in bots.items():
        walls, medians, p95s = [], [], []
        for _ in range(args.runs):
            start = time.perf_counter()
            result = run_arena(team, "random", deals=args.deals, seed=1, rules=args.rules, jobs=1)
            walls.append(time.perf_counter() - start)
            times = result.times[0].all
            medians.append(times.median * 1e3)
            p95s.append(times.p95 * 1e3)
            print(f"  {label:<24} {walls[-1]:6.2f} s  decision median {medians[-1]:.3f} ms  p95 {p95s[-1]:.3f} ms")
        out = result.to_json()
        del out["team_a"], out["decision_time"]
        figures[label] = out
        print(
            f"{label:<26} median of runs: {statistics.median(walls):6.2f} s, {times.count} decisions of A, "
            f"decision median {statistics.median(medians):.3f} ms, p95 {statistics.median(p95s):.3f} ms"
        )
    same = all(f == figures["in process"] for f in figures.values())
    print("the same figures seed for seed:", "yes" if same else "NO")


if __name__ == "__main__":
    main()
