"""Time a hint takes (``belote.hints.hint`` with the table's hint bot): medians per game.

Deals are shuffled from their seeds and played by heuristic bots; at every decision of the seat to
move with a choice (bids and cards), the hint is worked out from that seat's view as the server does
(``server/hints.py``: the search bot of ``HINT_BOT``). The time is the CPU time of this process (one
core): what one bot worker spends on a hint, which the person waits for after pressing *Hint*.

    python bench/hints.py [--deals 4] [--seed 1] [--games classic,coinche,three-handed,two-handed]
"""

from __future__ import annotations

import argparse
import statistics
import time

from belote.bots import make_bot
from belote.bots.heuristic import HeuristicBot
from belote.game import PLAY, Deal
from belote.hints import hint
from belote.rules import Rules
from belote.server.hints import HINT_BOT

GAMES = ("classic", "coinche", "three-handed", "two-handed")


def timings(variant: str, deals: int, seed: int) -> tuple[list[float], list[float]]:
    """Seconds per hint in the bidding and in the play, over ``deals`` deals of ``variant``."""
    rules = Rules(variant=variant)
    name, options = HINT_BOT
    bids: list[float] = []
    cards: list[float] = []
    for number in range(seed, seed + deals):
        deal = Deal.from_seed(number, rules, dealer=number % rules.players)
        bots = [HeuristicBot(number * 7 + s) for s in range(rules.players)]
        while deal.phase != "done":
            seat = deal.to_move
            view = deal.view(seat)
            if len(view.legal) > 1:
                started = time.process_time()
                hint(view, make_bot(name, seed=number * 7 + seat, **options))
                (cards if deal.phase == PLAY else bids).append(time.process_time() - started)
            deal.apply(bots[seat].act(view))
    return bids, cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    for variant in args.games.split(","):
        bids, cards = timings(variant, args.deals, args.seed)
        for what, times in (("bid", bids), ("card", cards)):
            if times:
                print(
                    f"{variant:13} {what:4} hints {len(times):3}  median {statistics.median(times):.2f} s"
                    f"  max {max(times):.2f} s"
                )


if __name__ == "__main__":
    main()
