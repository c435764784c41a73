"""Steps per second of the research environments, with an observation and an action mask at every step.

A step is what a learning loop does for the agent to move: ``last()`` (its observation array and its
action mask), a legal action drawn from the mask, ``step(action)``. Episodes are deals (the default);
at an episode's end the loop calls ``reset()``, whose time is counted. For each game it prints each
run and the median of the runs, for the raw AEC environment (``belote.env.raw_env``), the same with
PettingZoo's wrappers (``belote.env.env``), and the engine alone playing the same random actions
without observations (what the environment's own work is measured against).

The batched engine (``belote.env.batch``, ``--num-envs`` deals stepped at once in C) is measured the
same way: its agent steps a second in self-play (every seat the agent) and for one learner seat
against the heuristic bot (the bots' moves inside the step, not counted as steps), each twice: the
engine's ``step`` alone (CPU time in it: the observations, masks and rewards written, the bots'
moves), and the whole loop with a random legal action drawn by numpy for every deal at every step.

    python bench/env.py [--steps 200000] [--runs 3] [--games classic,coinche,three-handed,two-handed]
                        [--num-envs 1024] [--batch-steps 2000000] [--profile GAME]
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
from belote.env.batch import BatchEnv
from belote.env.single import BeloteSingleEnv
from belote.game import Match
from belote.rules import Rules
from belote.variants import VARIANTS


def env_steps(make: Callable[..., Any], game: str, steps: int, seed: int) -> tuple[float, float]:
    e = make(game=game)
    e.reset(seed=seed)
    r = random.Random(seed).random
    done = 0
    start, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.reset()
            continue
        legal = obs["action_mask"].nonzero()[0]
        e.step(legal[int(r() * len(legal))])
        done += 1
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)


def engine_steps(game: str, steps: int, seed: int) -> tuple[float, float]:
    """The same loop on the engine alone: legal actions, one drawn, applied; one deal an episode."""
    rules = Rules(variant=game)
    seeds = random.Random(seed)
    r = random.Random(seed).random
    done = 0
    start, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        m = Match(rules, seed=seeds.getrandbits(63))
        deal = m.deal
        while deal.result is None and done < steps:
            legal = deal.legal_actions()
            deal.apply(legal[int(r() * len(legal))])
            done += 1
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)


def single_steps(game: str, steps: int, seed: int) -> tuple[float, float]:
    """The Gymnasium environment against the heuristic bots: the learner's steps per second."""
    e = BeloteSingleEnv(game=game)
    obs, _ = e.reset(seed=seed)
    r = random.Random(seed).random
    done = 0
    start, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, terminated, _, _ = e.step(int(legal[int(r() * len(legal))]))
        done += 1
        if terminated:
            obs, _ = e.reset()
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)


def batch_steps(game: str, steps: int, seed: int, num_envs: int, learner: int | None) -> tuple[float, float, float]:
    """The batched engine: agent steps a second by the clock and per CPU second for the loop with a
    random legal action drawn by numpy, and per CPU second of ``step`` alone."""
    b = BatchEnv(num_envs, game=game, seed=seed, learner=learner)
    rng = np.random.default_rng(seed)
    done = 0
    in_step = 0.0
    start, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        actions = b.sample(rng)
        t = time.process_time()
        b.step(actions)
        in_step += time.process_time() - t
        done += num_envs
    return done / (time.perf_counter() - start), done / (time.process_time() - cpu), done / in_step


def median_of(runs: int, what: str, measure: Callable[[int], tuple[float, float]]) -> tuple[float, float]:
    """The median of the runs, by the clock and by the process's CPU time (on a machine shared with
    other work, the CPU time says more of what one core does)."""
    walls, cpus = [], []
    for k in range(runs):
        wall, cpu = measure(k)
        walls.append(wall)
        cpus.append(cpu)
        print(f"  {what} run {k + 1}: {wall:,.0f} steps/s ({cpu:,.0f} per CPU second)")
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", default=",".join(VARIANTS))
    parser.add_argument("--single-steps", type=int, default=2_000, help="learner steps against the heuristic bots")
    parser.add_argument("--num-envs", type=int, default=1024, help="deals the batched engine steps at once")
    parser.add_argument("--batch-steps", type=int, default=2_000_000, help="agent steps of each batched run")
    parser.add_argument("--profile", metavar="GAME", help="profile the raw environment in one game and stop")
    args = parser.parse_args()
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(env_steps, raw_env, args.profile, args.steps, 0)
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return
    table = []
    batched: list[tuple[str, str, float, float, float]] = []
    for game in args.games.split(","):
        print(f"{game}:")
        raw = median_of(args.runs, "raw env", lambda k, g=game: env_steps(raw_env, g, args.steps, k))
        wrapped = median_of(args.runs, "wrapped env", lambda k, g=game: env_steps(env, g, args.steps, k))
        engine = median_of(args.runs, "engine alone", lambda k, g=game: engine_steps(g, args.steps, k))
        single = median_of(args.runs, "one seat vs heuristic", lambda k, g=game: single_steps(g, args.single_steps, k))
        table.append((game, raw, wrapped, engine, single))
        for learner, what in ((None, "self-play"), (0, "1 seat vs bots")):
            runs = []
            for k in range(args.runs):
                runs.append(batch_steps(game, args.batch_steps, k, args.num_envs, learner))
                wall, cpu, alone = runs[-1]
                print(
                    f"  batch {what} run {k + 1}: {wall:,.0f} steps/s ({cpu:,.0f} per CPU second), "
                    f"step alone {alone:,.0f} per CPU second"
                )
            batched.append((game, what, *(statistics.median(r[i] for r in runs) for i in range(3))))
    print()
    print(f"medians of {args.runs} runs, steps/s by the clock / per CPU second (observation and mask at every step)")
    print(f"{'game':14s} {'raw env':>17s} {'wrapped':>17s} {'engine alone':>17s} {'1 seat vs bots':>17s}")
    for game, *rates in table:
        print(f"{game:14s}" + "".join(f" {wall:>8,.0f} /{cpu:>8,.0f}" for wall, cpu in rates))
    print()
    print(f"the batched engine, {args.num_envs} deals at once: agent steps/s, medians of {args.runs} runs")
    print(f"{'game':14s} {'':15s} {'loop (clock)':>13s} {'loop (CPU)':>13s} {'step alone':>13s}")
    for game, what, wall, cpu, alone in batched:
        print(f"{game:14s} {what:15s} {wall:>13,.0f} {cpu:>13,.0f} {alone:>13,.0f}")


if __name__ == "__main__":
    main()
