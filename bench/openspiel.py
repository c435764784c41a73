"""The OpenSpiel game's speed, and OpenSpiel's IS-MCTS against the heuristic bot.

For each game: whole deals played at random through the OpenSpiel API (chance nodes and actions
applied, per second); information state strings and tensors of the player to move (per second);
``resample_from_infostate`` at random decision points (per second, with the worlds drawn for each
one kept). Then IS-MCTS (OpenSpiel's, random rollouts) holding N and S against the heuristic bot at
E and W in classic deals, and the random bot in its place on the same deals, for scale: the mean
return of the N-S seats (their side's points less the other's) with a 95% interval.

    python bench/openspiel.py [--deals 200] [--match-deals 20] [--sims 100] [--worlds 10] [--seed 1]

Times are medians of three runs of the CPU time of this process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from belote import openspiel as bo

GAMES = ("classic", "coinche", "three-handed", "two-handed")


def median_rate(count: int, work: Callable[[], None]) -> float:
    """``count`` units of ``work``, timed three times: the median rate per second."""
    rates = []
    for _ in range(3):
        start = time.process_time()
        work()
        rates.append(count / max(time.process_time() - start, 1e-9))
    return statistics.median(rates)


def random_deal(game: Any, rng: random.Random) -> list[Any]:
    state = game.new_initial_state()
    states = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return states


def speed(variant: str, deals: int, seed: int) -> None:
    game = pyspiel.load_game(bo.NAME, {"variant": variant})
    rng = random.Random(seed)
    steps = [0]

    def play() -> None:
        r = random.Random(seed)
        for _ in range(deals):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(r.choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(r.choice(state.legal_actions()))
                steps[0] += 1

    deal_rate = median_rate(deals, play)
    step_rate = deal_rate * steps[0] / (3 * deals)
    points = [s for _ in range(20) for s in random_deal(game, rng)]
    sample = rng.sample(points, min(200, len(points)))
    info_rate = median_rate(len(sample), lambda: [s.information_state_string() for s in sample] and None)
    tensor_rate = median_rate(len(sample), lambda: [s.information_state_tensor() for s in sample] and None)
    drawn = [0]
    original = bo.BeloteState._replayed

    def counting(self: bo.BeloteState, pack: list[int]) -> bo.BeloteState | None:
        drawn[0] += 1
        return original(self, pack)

    bo.BeloteState._replayed = counting  # type: ignore[method-assign]
    few = sample[:60]
    resample_rate = median_rate(
        len(few), lambda: [s.resample_from_infostate(s.current_player(), rng.random) for s in few] and None
    )
    bo.BeloteState._replayed = original  # type: ignore[method-assign]
    print(
        f"{variant:13} deals/s {deal_rate:7.1f}  steps/s {step_rate:8.0f}  info strings/s {info_rate:7.0f}  "
        f"info tensors/s {tensor_rate:6.0f}  resamples/s {resample_rate:6.1f} "
        f"({drawn[0] / (3 * len(few)):.2f} worlds drawn each)"
    )


def ismcts_match(deals: int, sims: int, worlds: int, seed: int) -> None:
    game = pyspiel.load_game(bo.NAME, {"variant": "classic"})
    rng = random.Random(seed)
    searcher = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        uct_c=2.0,
        max_simulations=sims,
        max_world_samples=worlds,
        random_state=np.random.RandomState(seed),
    )
    searcher.set_resampler(lambda s, p: s.resample_from_infostate(p, rng.random))
    for name, ns in (("is-mcts", searcher), ("random", bo.EngineBot("random", seed=seed))):
        results = []
        think = 0.0
        decisions = 0
        for d in range(deals):
            chance = random.Random(f"{seed}:{d}")
            ew = bo.EngineBot("heuristic", seed=d)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(chance.choice(state.chance_outcomes())[0])
                elif state.current_player() % 2 == 0:
                    start = time.process_time()
                    action = int(ns.step(state))
                    think += time.process_time() - start
                    decisions += 1
                    state.apply_action(action)
                else:
                    state.apply_action(ew.step(state))
            results.append(state.returns()[0])
        mean = statistics.fmean(results)
        half = 1.96 * statistics.stdev(results) / len(results) ** 0.5 if len(results) > 1 else 0.0
        print(
            f"N-S {name:8} vs heuristic E-W, {deals} classic deals: mean return {mean:+7.1f} ± {half:5.1f}"
            f"  ({think / max(decisions, 1) * 1000:.0f} ms a decision)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--match-deals", type=int, default=20)
    parser.add_argument("--sims", type=int, default=100)
    parser.add_argument("--worlds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for variant in GAMES:
        speed(variant, args.deals, args.seed)
    print(f"IS-MCTS: {args.sims} simulations a decision over {args.worlds} worlds")
    ismcts_match(args.match_deals, args.sims, args.worlds, args.seed)


if __name__ == "__main__":
    main()
