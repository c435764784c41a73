"""Random complete deals per second through the public API of the engine.

Each deal: shuffle, deal, bidding by a simple rule (take the turned suit with its jack or nine, or
three cards of it; in the second round name the longest other suit held with two cards or more),
random legal cards, declarations, belote, scoring. Only deals played to the end are counted; the
time of the few thrown in is included. Prints each run and the median of the runs. In Coinche
the first player bids 80 in their longest suit and everybody else passes.

    python bench/engine.py [--deals 20000] [--runs 5] [--variant classic|coinche|three-handed|two-handed]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from belote import game
from belote.cards import SUIT_MASKS
from belote.contracts import contract_action
from belote.game import NAMES, PASS, PLAY, TAKE, Deal, shuffled_deck
from belote.rules import Rules
from belote.variants import VARIANTS


def simple_bid(deal: Deal) -> int:
    hand = deal.hand_mask(deal.to_move)
    if deal.rules.game.contracts:
        if deal.bids:
            return PASS
        return contract_action(80, max(range(4), key=lambda s: (hand & SUIT_MASKS[s]).bit_count()))
    turned = deal.turned
    assert turned is not None
    if deal.bid_round == 0:
        suit = turned.suit
        trumps = hand & SUIT_MASKS[suit]
        strong = trumps >> (8 * suit + 4) & 1 or trumps >> (8 * suit + 2) & 1
        return TAKE if strong or trumps.bit_count() >= 3 else PASS
    length, suit = max(((hand & SUIT_MASKS[s]).bit_count(), s) for s in range(4) if s != turned.suit)
    return NAMES[suit] if length >= 2 else PASS


def run(deals: int, seed: int, variant: str = "classic") -> tuple[float, int]:
    rng = random.Random(seed)
    r = rng.random
    rules = Rules(variant=variant)
    played = thrown_in = 0
    start = time.perf_counter()
    while played < deals:
        deal = Deal(rules, played % rules.players, shuffled_deck(rng))
        while deal.phase == "bidding":
            deal.apply(simple_bid(deal))
        while deal.phase is PLAY:
            actions = deal.legal_actions()
            deal.apply(actions[int(r() * len(actions))])
        assert deal.result is not None
        if deal.result.outcome == "thrown-in":
            thrown_in += 1
        else:
            played += 1
    return played / (time.perf_counter() - start), thrown_in


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--variant", choices=VARIANTS, default="classic")
    args = parser.parse_args()
    print(f"play state: {game.PlayState.__module__}.{game.PlayState.__name__}")
    rates = []
    for k in range(args.runs):
        rate, thrown_in = run(args.deals, seed=k, variant=args.variant)
        rates.append(rate)
        print(f"run {k + 1}: {rate:,.0f} complete deals/s ({args.deals} played, {thrown_in} thrown in)")
    print(f"engine ({args.variant}): {statistics.median(rates):.0f} deals/s")


if __name__ == "__main__":
    main()
