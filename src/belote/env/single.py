"""The Gymnasium environment: one seat learns, the project's bots play the others.

The learner's observation, actions and rewards are those of its seat in the PettingZoo environment
(``belote.env.aec``); between two of its turns the bots play theirs, each shown its own seat's view
(``belote.bots``), seeded from the episode's seed so that a seed replays the same episode.

>>> e = BeloteSingleEnv(game="classic", seat=0)
>>> obs, info = e.reset(seed=2)
>>> obs["observation"].shape, sorted(info)
((769,), ['seat'])
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from belote.bots import Bot, make_bot
from belote.env.aec import BeloteEnv
from belote.env.encoding import ACTIONS, OBS_SIZE
from belote.rules import Rules

__all__ = ["BOTS", "OBSERVATIONS", "BeloteSingleEnv"]

#: The bots the other seats may be: the heuristic bot; the search bot (much stronger, a few
#: milliseconds a decision: for evaluation rather than training); the random bot; the learned one.
BOTS = ("heuristic", "search", "random", "learned")
#: What an observation is: the dict of the PettingZoo environment (``observation`` and
#: ``action_mask``), or one flat vector, the observation followed by the mask (for a plain MLP policy).
OBSERVATIONS = ("dict", "flat")


def observation_space(flat: bool) -> spaces.Space[Any]:
    """One seat's observation: the dict of the observation and the mask, or the flat vector of both."""
    if flat:
        return spaces.Box(0.0, 1.0, (OBS_SIZE + ACTIONS,), np.float32)
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
        }
    )


class BeloteSingleEnv(gym.Env[Any, int]):
    """One seat of any game against bots, for single-agent learning."""

    # Gymnasium reads the class's render modes before making an environment (gymnasium.make).
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str | None = None,
        rules: Rules | dict[str, Any] | None = None,
        seat: int = 0,
        bot: str = "heuristic",
        bot_options: dict[str, Any] | None = None,
        episode: str = "deal",
        reward: str = "deal",
        illegal: str = "random",
        render_mode: str | None = None,
        reward_scale: float = 1.0,
        observation: str = "dict",
    ) -> None:
        if bot not in BOTS:
            raise ValueError(f"bot must be one of {', '.join(BOTS)}, not {bot!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        self.table = BeloteEnv(
            game=game,
            rules=rules,
            episode=episode,
            reward=reward,
            illegal=illegal,
            render_mode=render_mode,
            reward_scale=reward_scale,
        )
        players = self.table.rules.players
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1} in this game, not {seat}")
        self.seat = seat
        self.agent = self.table.possible_agents[seat]
        self.bot_name, self.bot_options = bot, dict(bot_options or {})
        self.render_mode = render_mode
        self.flat = observation == "flat"
        self.observation_space = observation_space(self.flat)
        self.action_space: spaces.Space[Any] = spaces.Discrete(ACTIONS)
        self.bots: dict[str, Bot] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        self.table.reset(seed=int(rng.integers(2**63)))
        self.bots = {
            a: make_bot(self.bot_name, seed=int(rng.integers(2**63)), **self.bot_options)
            for a in self.table.possible_agents
            if a != self.agent
        }
        self._reward = 0.0
        self._play_bots()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        table = self.table
        if table.agent_selection != self.agent or table.terminations.get(self.agent, True):
            raise RuntimeError("the episode is over: call reset()")
        self._reward = 0.0
        table.step(action)
        self._collect()
        illegal = bool(table.infos.get(self.agent, {}).get("illegal"))
        self._play_bots()
        info = self._info()
        if illegal:
            info["illegal"] = True
        return self._observe(), self._reward, self._over(), False, info

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The legal actions now (the name sb3-contrib's MaskablePPO asks for)."""
        return self.table.observe(self.agent)["action_mask"]

    def render(self) -> str | None:
        return self.table.render()

    def close(self) -> None:
        self.table.close()

    # ----------------------------------------------------------------- inside
    def _over(self) -> bool:
        return bool(self.table.terminations.get(self.agent, True))

    def _collect(self) -> None:
        self._reward += float(self.table.rewards.get(self.agent, 0.0))

    def _play_bots(self) -> None:
        """The bots play until it is the learner's turn or the episode is over."""
        table = self.table
        while not self._over() and table.agent_selection != self.agent:
            agent = table.agent_selection
            table.step(self.bots[agent].act(table.view(agent)))
            self._collect()

    def _observe(self) -> Any:
        obs = self.table.observe(self.agent)
        if self.flat:
            return np.concatenate((obs["observation"], obs["action_mask"].astype(np.float32)))
        return obs

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat}
