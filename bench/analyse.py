"""Time to analyse one deal (``belote analyse``), for each game: medians over deals.

Each deal is shuffled from its seed and played to its end by four heuristic bots (quick, and they make
mistakes worth finding), then analysed as ``belote analyse`` does: the double-dummy value of every
legal card, the search bot's view of each decision, the par of the bidding. The time is the CPU
time of this process (one core, whatever else the machine runs); the same deals are also timed
without the bot's view (``--no-view``'s share: the exact solver alone). The goal is a median of at
most 3 s a deal on one core.

    python bench/analyse.py [--deals 10] [--seed 1] [--games classic,coinche,three-handed,two-handed] [--think 1]
"""

from __future__ import annotations

import argparse
import statistics
import time

from belote.analysis import Options, analyse
from belote.bots.heuristic import HeuristicBot
from belote.game import Deal
from belote.record import to_record
from belote.rules import Rules

GAMES = ("classic", "coinche", "three-handed", "two-handed")


def played_deal(seed: int, variant: str) -> dict[str, object]:
    """A deal of ``variant`` from ``seed`` played to its end by heuristic bots (thrown-in deals skipped)."""
    rules = Rules(variant=variant)
    while True:
        deal = Deal.from_seed(seed, rules, dealer=seed % rules.players)
        bots = [HeuristicBot(seed * 7 + s) for s in range(rules.players)]
        while deal.phase != "done":
            deal.apply(bots[deal.to_move].act(deal.view(deal.to_move)))
        if deal.result is not None and deal.result.outcome != "thrown-in":
            return to_record(deal)
        seed += 1000


def timed(record: dict[str, object], view: bool, think: float) -> float:
    start = time.process_time()
    analyse(record, Options(view=view, think=think))
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument(
        "--think", type=float, default=1.0, help="the search bot's thinking (default 1, as at the table)"
    )
    args = parser.parse_args()
    for variant in args.games.split(","):
        records = [played_deal(args.seed + i, variant) for i in range(args.deals)]
        full = sorted(timed(r, True, args.think) for r in records)
        exact = sorted(timed(r, False, args.think) for r in records)
        print(
            f"{variant:13} {args.deals} deals: analyse median {statistics.median(full):.2f} s "
            f"(max {full[-1]:.2f}); double dummy and par alone median {statistics.median(exact):.2f} s "
            f"(max {exact[-1]:.2f})",
            flush=True,
        )


if __name__ == "__main__":
    main()
