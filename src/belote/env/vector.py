"""The Gymnasium vector environment on the batched engine: one seat of many deals against the bots.

``BatchVectorEnv(num_envs, game=..., seat=0)`` is what ``BeloteSingleEnv`` is, ``num_envs`` times
over, stepped in C (``belote.env.batch``): the learner plays ``seat``, the heuristic bot the other
seats inside the step (``bot="search"`` and the others of ``belote.bots`` play through Python). Each
sub-environment's episode is a deal; at its end the deal starts again on new cards within the same
step (Gymnasium's ``SAME_STEP`` autoreset): the observation returned is the new deal's first, and
``terminated`` is true. A deal is never truncated, so nothing is bootstrapped from its last
observation, which is not kept.

Made by ``gymnasium.make_vec("belote/Belote-v0", num_envs=N, vectorization_mode="vector_entry_point",
game=...)`` too. ``action_masks()`` gives every legal action (the name sb3-contrib's MaskablePPO asks for).

>>> import numpy as np
>>> v = BatchVectorEnv(8, game="classic", seat=0)
>>> obs, info = v.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape
((8, 769), (8, 118))
>>> obs, rewards, terminated, truncated, info = v.step(v.sample_legal(np.random.default_rng(0)))
>>> rewards.shape, terminated.dtype
((8,), dtype('bool'))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from belote.env.batch import BatchEnv
from belote.env.encoding import ACTIONS
from belote.env.single import observation_space
from belote.rules import Rules

__all__ = ["BatchVectorEnv"]

#: What an action the rules refuse does: a legal action drawn at random instead (``info["illegal"]``
#: marks the sub-environments where that happened), or ``ValueError`` with nothing played.
ILLEGAL = ("random", "raise")


class BatchVectorEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` deals of one game, the learner at ``seat`` and the bots at the others."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 1024,
        game: str | None = None,
        rules: Rules | dict[str, Any] | None = None,
        seat: int = 0,
        bot: str = "heuristic",
        bot_options: dict[str, Any] | None = None,
        reward_scale: float = 1.0,
        observation: str = "dict",
        illegal: str = "random",
        copy: bool = True,
    ) -> None:
        if observation not in ("dict", "flat"):
            raise ValueError(f"observation must be 'dict' or 'flat', not {observation!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        self.batch = BatchEnv(
            num_envs, game=game, rules=rules, reward_scale=reward_scale, learner=seat, bot=bot, bot_options=bot_options
        )
        self.num_envs = num_envs
        self.seat = seat
        self.flat = observation == "flat"
        self.illegal = illegal
        self.copy = copy
        self.single_observation_space = observation_space(self.flat)
        self.single_action_space: spaces.Space[Any] = spaces.Discrete(ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rng = np.random.default_rng()
        self._rows = np.arange(num_envs)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.batch.reset(seed)
        return self._observe(), {}

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        b = self.batch
        a = np.asarray(actions, dtype=np.int64).reshape(-1)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must be {self.num_envs} whole numbers, one a deal, not of shape {a.shape}")
        infos: dict[str, Any] = {}
        inside = (a >= 0) & (a < ACTIONS)
        legal = inside & (b.mask[self._rows, np.where(inside, a, 0)] == 1)
        if not legal.all():
            if self.illegal == "raise" or not inside.all():
                bad = int(np.flatnonzero(~legal)[0])
                raise ValueError(
                    f"deal {bad}: action {int(a[bad])} is not legal for the seat to move"
                    + ("" if inside[bad] else f" (outside the action space Discrete({ACTIONS}))")
                )
            a = np.where(legal, a, b.sample(self._rng))
            infos["illegal"] = ~legal
        b.step(a)
        rewards = b.rewards[:, self.seat].copy()
        terminated = b.dones.copy()
        if terminated.any():
            infos["rewards"] = b.rewards.copy()  # every seat's, for the deals just over
        return self._observe(), rewards, terminated, np.zeros(self.num_envs, np.bool_), infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every sub-environment (``num_envs`` x ``ACTIONS``)."""
        return self.batch.mask.astype(np.bool_)

    def sample_legal(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A legal action for each sub-environment, drawn evenly (a random learner's)."""
        return self.batch.sample(rng)

    def _observe(self) -> Any:
        b = self.batch
        if self.flat:
            return np.concatenate((b.obs, b.mask.astype(np.float32)), axis=1)
        if self.copy:
            return {"observation": b.obs.copy(), "action_mask": b.mask.copy()}
        return {"observation": b.obs, "action_mask": b.mask}
