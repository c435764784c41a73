"""Double-dummy solver time: every card of the opening lead valued, on random deals.

Each deal is shuffled from its seed and taken through ``belote.game.Deal`` (the first player takes
the turned card); at the first trick, before any card is played, ``belote.solver.card_values``
values every card of the leader. The median is over the deals of a run, then over the runs. The
plain Python solver is timed on the first few of the same deals. Prints the figures, ending with
``solver: median X ms`` for the implementation in use.

    python bench/solver.py [--deals 100] [--runs 3] [--python-deals 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import belote.solver
from belote.game import PLAY, TAKE, Deal
from belote.solver import Position, alphabeta


def first_lead(seed: int) -> Position:
    deal = Deal.from_seed(seed)
    while deal.phase != PLAY:
        deal.apply(TAKE)
    return Position.from_state(deal)


def percentile(sorted_ms: list[float], q: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, int(q * len(sorted_ms)))]


def describe(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    return (
        f"median {statistics.median(ms):.1f} ms, mean {statistics.mean(ms):.1f}, "
        f"p90 {percentile(ms, 0.9):.1f}, p99 {percentile(ms, 0.99):.1f}, max {ms[-1]:.1f}"
    )


def time_deals(positions: list[Position], solve: Callable[[Position], object]) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds for each position (the CPU time is what the solver costs when other
    processes share the machine)."""
    wall, cpu = [], []
    for pos in positions:
        start, start_cpu = time.perf_counter(), time.process_time()
        solve(pos)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def python_card_values(pos: Position) -> dict[int, int] | None:
    return alphabeta.card_values(pos)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--python-deals", type=int, default=5, help="deals for the plain Python solver (0: skip)")
    args = parser.parse_args()
    positions = [first_lead(seed) for seed in range(args.deals)]
    print(f"solver: {belote.solver.IMPLEMENTATION}; {args.deals} deals, every card of the opening lead valued")
    medians = []
    for k in range(args.runs):
        wall, cpu = time_deals(positions, belote.solver.card_values)
        medians.append(statistics.median(wall) * 1000)
        print(f"run {k + 1}: {describe(wall)} (CPU time: median {statistics.median(cpu) * 1000:.1f} ms)")
    if belote.solver.IMPLEMENTATION.endswith("_dds"):
        from belote.solver import _dds

        nodes = []
        for pos in positions:
            belote.solver.card_values(pos)
            nodes.append(_dds.stats()["nodes"])
        print(f"nodes per deal: median {statistics.median(nodes):,.0f}, mean {statistics.mean(nodes):,.0f}")
    if args.python_deals:
        sample = positions[: args.python_deals]
        wall, _ = time_deals(sample, python_card_values)
        print(f"plain Python (belote.solver.alphabeta), first {len(sample)} deals: {describe(wall)}")
    print(f"solver: median {statistics.median(medians):.1f} ms")


if __name__ == "__main__":
    main()
