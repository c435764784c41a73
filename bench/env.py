"""Steps per second of the research environments, with an observation and an action mask at every step.

A step is what a learning loop does for the agent to move: ``last()`` (its observation array and its
action mask), a legal action drawn from the mask, ``step(action)``. Episodes are deals (the default);
at an episode's end the loop calls ``reset()``, whose time is counted. For each game it prints each
run and the median of the runs, for the raw AEC environment (``belote.env.raw_env``), the same with
PettingZoo's wrappers (``belote.env.env``), and the engine alone playing the same random actions
without observations (what the environment's own work is measured against).

    python bench/env.py [--steps 200000] [--runs 3] [--games classic,coinche,three-handed,two-handed]
                        [--profile GAME]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from belote.env import env, raw_env
from belote.env.single import BeloteSingleEnv
from belote.game import Match
from belote.rules import Rules
from belote.variants import VARIANTS


def env_steps(make: Callable[..., Any], game: str, steps: int, seed: int) -> float:
    e = make(game=game)
    e.reset(seed=seed)
    r = random.Random(seed).random
    done = 0
    start = time.perf_counter()
    while done < steps:
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.reset()
            continue
        legal = obs["action_mask"].nonzero()[0]
        e.step(legal[int(r() * len(legal))])
        done += 1
    return steps / (time.perf_counter() - start)


def engine_steps(game: str, steps: int, seed: int) -> float:
    """The same loop on the engine alone: legal actions, one drawn, applied; one deal an episode."""
    rules = Rules(variant=game)
    seeds = random.Random(seed)
    r = random.Random(seed).random
    done = 0
    start = time.perf_counter()
    while done < steps:
        m = Match(rules, seed=seeds.getrandbits(63))
        deal = m.deal
        while deal.result is None and done < steps:
            legal = deal.legal_actions()
            deal.apply(legal[int(r() * len(legal))])
            done += 1
    return steps / (time.perf_counter() - start)


def single_steps(game: str, steps: int, seed: int) -> float:
    """The Gymnasium environment against the heuristic bots: the learner's steps per second."""
    e = BeloteSingleEnv(game=game)
    obs, _ = e.reset(seed=seed)
    r = random.Random(seed).random
    done = 0
    start = time.perf_counter()
    while done < steps:
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, terminated, _, _ = e.step(int(legal[int(r() * len(legal))]))
        done += 1
        if terminated:
            obs, _ = e.reset()
    return steps / (time.perf_counter() - start)


def median_of(runs: int, what: str, measure: Callable[[int], float]) -> float:
    rates = []
    for k in range(runs):
        rate = measure(k)
        rates.append(rate)
        print(f"  {what} run {k + 1}: {rate:,.0f} steps/s")
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", default=",".join(VARIANTS))
    parser.add_argument("--single-steps", type=int, default=2_000, help="learner steps against the heuristic bots")
    parser.add_argument("--profile", metavar="GAME", help="profile the raw environment in one game and stop")
    args = parser.parse_args()
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(env_steps, raw_env, args.profile, args.steps, 0)
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return
    table = []
    for game in args.games.split(","):
        print(f"{game}:")
        raw = median_of(args.runs, "raw env", lambda k, g=game: env_steps(raw_env, g, args.steps, k))
        wrapped = median_of(args.runs, "wrapped env", lambda k, g=game: env_steps(env, g, args.steps, k))
        engine = median_of(args.runs, "engine alone", lambda k, g=game: engine_steps(g, args.steps, k))
        single = median_of(args.runs, "one seat vs heuristic", lambda k, g=game: single_steps(g, args.single_steps, k))
        table.append((game, raw, wrapped, engine, single))
    print()
    print("medians of", args.runs, "runs, steps/s (observation and mask at every step)")
    print(f"{'game':14s} {'raw env':>10s} {'wrapped':>10s} {'engine':>10s} {'1 seat vs bots':>15s}")
    for game, raw, wrapped, engine, single in table:
        print(f"{game:14s} {raw:10,.0f} {wrapped:10,.0f} {engine:10,.0f} {single:15,.0f}")


if __name__ == "__main__":
    main()
