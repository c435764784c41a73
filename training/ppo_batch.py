"""MaskablePPO against the heuristic bot on the batched engine: a learning curve in a few minutes.

One seat learns (``--seat``), the heuristic bot plays the others inside the batched engine's step
(``belote.env.batch``, in C); sb3-contrib's MaskablePPO, the maintained PPO with action masks (on
PyTorch), sees each deal's observation of that seat and its mask. Before training it measures two
baselines on the same engine, seat and game: a random legal player, and the heuristic bot itself in
that seat. It then prints the learning curve (the learner's points a deal, its score less the other
side's, over the deals ended since the last line) and, at the end, the trained policy's points a deal
on fresh deals, sampled from its masked distribution and played greedily.

    pip install '.[train]'        # torch, stable-baselines3, sb3-contrib (docs/env.md)
    python training/ppo_batch.py [--game classic] [--minutes 5] [--num-envs 256] [--seed 1]

The adapter to stable-baselines3's own ``VecEnv`` interface is below (``SB3Batch``): SB3 and
sb3-contrib take theirs, not Gymnasium's vector API (``belote.env.vector``, for other libraries).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecEnv

from belote.env.batch import BatchEnv
from belote.env.encoding import ACTIONS, OBS_SIZE


class SB3Batch(VecEnv):
    """The batched engine, one learner seat against the heuristic bot, as stable-baselines3's VecEnv."""

    def __init__(self, batch: BatchEnv) -> None:
        assert batch.learner is not None, "a learner seat: the bots play the others"
        self.batch = batch
        self.seat = batch.learner
        self.scale = batch.reward_scale
        self.render_mode = None
        super().__init__(batch.num_envs, spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32), spaces.Discrete(ACTIONS))
        self._actions = np.zeros(batch.num_envs, np.int64)
        #: Each deal ended so far: (the learner's steps so far, its points in that deal).
        self.ended: list[tuple[int, float]] = []
        self.steps = 0

    def reset(self) -> Any:
        seed = self._seeds[0] if self._seeds else None
        self._reset_seeds()
        self.batch.reset(seed)
        return self.batch.obs.copy()

    def step_async(self, actions: np.ndarray[Any, Any]) -> None:
        self._actions = np.asarray(actions, np.int64)

    def step_wait(self) -> Any:
        b = self.batch
        b.step(self._actions)
        self.steps += self.num_envs
        rewards = b.rewards[:, self.seat].copy()
        dones = b.dones.copy()
        for r in rewards[dones]:
            self.ended.append((self.steps, float(r) / self.scale))
        return b.obs.copy(), rewards, dones, [{} for _ in range(self.num_envs)]

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self, attr_name)] * self.num_envs

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self, attr_name, value)

    def action_masks(self) -> np.ndarray[Any, Any]:
        """Every deal's legal actions (MaskablePPO finds the masks by this name)."""
        return self.batch.mask.astype(np.bool_)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        if method_name == "action_masks":
            return list(self.action_masks())
        raise AttributeError(f"the batch has no method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * self.num_envs


def points_a_deal(batch: BatchEnv, choose: Any, deals: int) -> tuple[float, float]:
    """The learner's mean points a deal and its 95% half-width, over ``deals`` deals ended."""
    batch.reset(12345)
    got: list[float] = []
    while len(got) < deals:
        batch.step(choose(batch))
        got.extend(float(r) / batch.reward_scale for r in batch.rewards[batch.dones, batch.learner])
    got = got[:deals]
    return statistics.fmean(got), 1.96 * statistics.stdev(got) / len(got) ** 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="classic")
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report", type=int, default=100_000, help="learner steps between two lines of the curve")
    parser.add_argument("--eval-deals", type=int, default=20_000)
    parser.add_argument("--lr", type=float, default=3e-4, help="Adam's learning rate")
    parser.add_argument("--epochs", type=int, default=4, help="passes over each rollout")
    parser.add_argument("--ent", type=float, default=0.01, help="the entropy bonus")
    parser.add_argument(
        "--threads", type=int, default=1, help="PyTorch's threads (more, beside other work, slows it tenfold)"
    )
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    scale = 1 / 162
    probe = BatchEnv(args.num_envs, game=args.game, seed=args.seed, learner=args.seat, reward_scale=scale)
    random_mean = points_a_deal(probe, lambda b: b.sample(rng), args.eval_deals)
    bot_mean = points_a_deal(
        probe, lambda b: np.array([b.bot_action(i) for i in range(b.num_envs)], np.int64), args.eval_deals
    )
    print(f"{args.game}, seat {args.seat}, {args.num_envs} deals at once; points a deal over {args.eval_deals:,} deals")
    print(f"  a random legal player: {random_mean[0]:+.1f} (+/- {random_mean[1]:.1f})")
    print(f"  the heuristic bot:     {bot_mean[0]:+.1f} (+/- {bot_mean[1]:.1f})")
    env = SB3Batch(BatchEnv(args.num_envs, game=args.game, seed=args.seed, learner=args.seat, reward_scale=scale))
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=64,
        batch_size=4096,
        n_epochs=args.epochs,
        learning_rate=args.lr,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=args.ent,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=0,
    )
    print(f"{'learner steps':>14s} {'deals':>8s} {'seconds':>8s} {'points a deal':>14s}")
    start = time.monotonic()
    shown = 0
    while time.monotonic() - start < args.minutes * 60:
        model.learn(total_timesteps=args.report, reset_num_timesteps=False)
        window = [r for _, r in env.ended[shown:]]
        shown = len(env.ended)
        if window:
            print(f"{env.steps:>14,d} {shown:>8,d} {time.monotonic() - start:>8.0f} {statistics.fmean(window):>+14.1f}")
    policy = model.policy

    def trained(b: BatchEnv, deterministic: bool) -> np.ndarray[Any, Any]:
        with torch.no_grad():
            actions, _ = policy.predict(b.obs, deterministic=deterministic, action_masks=b.mask.astype(np.bool_))
        return np.asarray(actions, np.int64)

    sampled = points_a_deal(probe, lambda b: trained(b, False), args.eval_deals)
    greedy = points_a_deal(probe, lambda b: trained(b, True), args.eval_deals)
    print(f"trained for {env.steps:,} learner steps ({len(env.ended):,} deals), {time.monotonic() - start:.0f} s:")
    print(f"  sampled: {sampled[0]:+.1f} (+/- {sampled[1]:.1f}); greedy: {greedy[0]:+.1f} (+/- {greedy[1]:.1f})")


if __name__ == "__main__":
    main()
