"""The PettingZoo AEC environment of every game: the players take turns, one agent a seat.

An agent is ``player_N`` for seat N (``player_0`` is North, then in the compass order of the seats).
Each acts when the engine says it is its turn; its observation is ``{"observation", "action_mask"}``
(``belote.env.encoding``), its actions the engine's (``Discrete(ACTIONS)``: cards 0..31, then the
bids). docs/env.md tells the options.

>>> e = raw_env(game="coinche")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
('player_1', (769,), 61)
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from belote.actions import IllegalAction
from belote.cards import CARDS
from belote.contracts import MODE_LETTERS
from belote.env import make_rules
from belote.env.encoding import ACTIONS, OBS_SIZE, Observer
from belote.game import BIDDING, DONE, PLAY, SEATS, Deal, Match
from belote.rules import Rules
from belote.view import PlayerView

__all__ = [
    "EPISODES",
    "ILLEGAL",
    "REWARDS",
    "BeloteEnv",
    "RenderModeError",
    "env",
    "make_rules",
    "parallel_env",
    "raw_env",
]

#: What one episode is: one deal (a deal thrown in ends it too, with nothing scored), or a match.
EPISODES = ("deal", "match")
#: What rewards say: each deal's points (as each seat's side scores them, less what the others
#: score), or the match's end only (1 to the winner, the others share -1).
REWARDS = ("deal", "match")
#: What an action the rules refuse does: play a legal action drawn by the environment's own
#: generator instead (``info`` then says ``illegal``: the default, so that checkers drawing actions
#: without the mask run as they are), or raise the engine's refusal (``IllegalAction``, with its code).
ILLEGAL = ("random", "raise")


class RenderModeError(TypeError, ValueError):
    """A render mode the environment does not have (it has ``ansi``). A ``TypeError`` as well as a
    ``ValueError``: stable-baselines3's ``make_vec_env`` asks for ``rgb_array`` first and, refused
    with a ``TypeError``, makes the environment without a render mode."""


def _check(name: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")


class BeloteEnv(AECEnv):
    """Belote for PettingZoo: every game and rule option, one agent a seat, turns as the rules give them."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "belote_v0", "is_parallelizable": True}

    def __init__(
        self,
        game: str | None = None,
        rules: Rules | dict[str, Any] | None = None,
        episode: str = "deal",
        reward: str = "deal",
        illegal: str = "random",
        max_cycles: int | None = None,
        render_mode: str | None = None,
        reward_scale: float = 1.0,
    ) -> None:
        super().__init__()
        _check("episode", episode, EPISODES)
        _check("reward", reward, REWARDS)
        _check("illegal", illegal, ILLEGAL)
        if reward == "match" and episode != "match":
            raise ValueError("reward='match' needs episode='match'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RenderModeError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if max_cycles is not None and max_cycles < 1:
            raise ValueError("max_cycles must be at least 1")
        if not (isinstance(reward_scale, (int, float)) and math.isfinite(reward_scale) and reward_scale > 0):
            raise ValueError(f"reward_scale must be a finite number above 0, not {reward_scale!r}")
        self.rules = make_rules(game, rules)
        # An episode of one deal is a match of one deal: the match deals no other after it (a deal
        # thrown in does not count, and ends the episode all the same).
        self._match_rules = replace(self.rules, deals=1) if episode == "deal" else self.rules
        self.episode, self.reward_mode, self.illegal = episode, reward, illegal
        self.max_cycles = max_cycles
        self.reward_scale = float(reward_scale)
        self.render_mode = render_mode
        n = self.rules.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self._team_of = self.rules.game.team_of
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(ACTIONS) for a in self.possible_agents}
        self._observer = Observer(n)
        self._seeds = random.Random()
        self.match: Match | None = None
        self._deal: Deal | None = None  # the deal observed: the one in play, or the one just over
        self._steps = 0

    # ----------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----------------------------------------------------------------- episodes
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode: a new match of a seed drawn from ``seed`` (the same seed, the same deals)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        rng = self._seeds
        self.match = Match(self._match_rules, seed=rng.getrandbits(63), first_dealer=rng.randrange(self.rules.players))
        self._start_deal()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._rewarded = False
        self._select()

    def _start_deal(self) -> None:
        assert self.match is not None
        self._deal = self.match.deal
        self._observer.start(self._deal, tuple(self.match.score))

    def _select(self) -> None:
        deal = self._deal
        assert deal is not None
        if deal.phase != DONE:
            self.agent_selection = self.possible_agents[deal.to_move]

    # ----------------------------------------------------------------- observing
    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, without its indirections: a learning loop calls it at every step."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self._seat_of[agent]
        observer = self._observer
        obs = observer.state.take(observer.gather[seat]) if observer.fresh else observer.observe(seat)
        deal = self._deal
        assert deal is not None
        alive = not (self.terminations[agent] or self.truncations[agent])
        if alive and deal.phase is not DONE and deal.to_move == seat:
            mask = observer.mask()
        else:
            mask = np.zeros(ACTIONS, np.int8)
        return {"observation": obs, "action_mask": mask}

    def view(self, agent: str) -> PlayerView:
        """What ``agent``'s observation encodes: its seat's view of the deal observed, with the match's score."""
        assert self.match is not None and self._deal is not None
        seat = self._seat_of[agent]
        if self._deal is self.match.deal:
            return self.match.view(seat)
        return replace(self._deal.view(seat), score=tuple(self.match.score))

    # ----------------------------------------------------------------- acting
    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match, deal = self.match, self._deal
        assert match is not None and deal is not None
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        self._cumulative_rewards[agent] = 0.0
        seat = deal.to_move
        bidding = deal.phase is BIDDING
        a = action if action.__class__ is int else int(action)
        if not 0 <= a < ACTIONS:
            raise ValueError(
                f"action {action!r} is outside the action space Discrete({ACTIONS}): "
                f"0-31 are the cards, 32-{ACTIONS - 1} the bids (belote.actions)"
            )
        try:
            match.apply(a)
        except IllegalAction:
            if self.illegal == "raise":
                raise
            legal = deal.legal_actions()
            a = legal[self._seeds.randrange(len(legal))]
            match.apply(a)
            self.infos[agent] = {"illegal": True}
        else:
            if self.infos[agent]:
                self.infos[agent] = {}
        self._steps += 1
        self._observer.acted(seat, a, bidding)
        if deal.phase is DONE:
            following = self._deal_over(deal)
            if following is not None:  # the match goes on with a new deal
                self.agent_selection = self.possible_agents[following.to_move]
        else:
            self.agent_selection = self.possible_agents[deal.to_move]
        if self.max_cycles is not None and self._steps >= self.max_cycles and not any(self.terminations.values()):
            self.truncations = dict.fromkeys(self.agents, True)
        if self._rewarded:  # rewards come only at the end of a deal
            self._accumulate_rewards()

    def _deal_over(self, deal: Deal) -> Deal | None:
        """Rewards for a deal just over; the episode ends, or the next deal starts (returned)."""
        match = self.match
        assert match is not None and deal.result is not None
        if self.reward_mode == "deal":
            points = deal.result.points
            self._give([points[t] for t in range(len(points))])
        over = match.over or self.episode == "deal"
        if match.over and self.reward_mode == "match":
            teams = self.rules.teams
            self._give([1.0 if t == match.winner else -1.0 / (teams - 1) for t in range(teams)], relative=False)
        if over:
            self._observer.rescore(tuple(match.score))
            self.terminations = dict.fromkeys(self.agents, True)
            return None
        self._start_deal()
        return self._deal

    def _give(self, by_team: list[float], relative: bool = True) -> None:
        """Rewards by score: each seat gets its score's part; ``relative``: less the mean of the others'
        (so that the rewards of a deal add up to 0)."""
        teams = len(by_team)
        total = sum(by_team)
        scale = self.reward_scale
        for agent in self.agents:
            own = by_team[self._team_of[self._seat_of[agent]]]
            self.rewards[agent] = scale * float(own - (total - own) / (teams - 1) if relative else own)
        self._rewarded = True

    # ----------------------------------------------------------------- the rest of the API
    def render(self) -> str | None:
        """``ansi``: the table as text (the deal, the bids, the trick, the score); nothing without a mode."""
        if self.render_mode is None:
            return None
        assert self.match is not None and self._deal is not None
        deal = self._deal
        lines = [f"{self.rules.game.title}, deal {len(self.match.deals)}, phase {deal.phase}"]
        names = self.rules.team_names
        lines.append("score: " + ", ".join(f"{t} {p}" for t, p in zip(names, self.match.score, strict=True)))
        for s in range(self.rules.players):
            mark = ">" if deal.phase != DONE and deal.to_move == s else " "
            hand = " ".join(str(c) for c in deal.hand(s))
            lines.append(f"{mark} {SEATS[s]}: {hand}")
        if deal.bids:
            lines.append("bids: " + " ".join(f"{SEATS[s]}:{b}" for s, b in zip(deal.bid_seats, deal.bids, strict=True)))
        if deal.turned is not None and deal.phase != PLAY:
            lines.append(f"turned: {deal.turned}")
        if deal.taker is not None and deal.trump is not None:
            lines.append(f"taker: {SEATS[deal.taker]}, trumps: {MODE_LETTERS[deal.trump]}")
        n = self.rules.players
        seats = [(deal.leader + deal.step * i) % n for i in range(len(deal.trick))]
        lines.append("trick: " + " ".join(f"{SEATS[s]}:{CARDS[c]}" for s, c in zip(seats, deal.trick, strict=True)))
        if deal.result is not None:
            lines.append(f"result: {deal.result.outcome}, points {deal.result.points}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to free: the environment holds no window nor process."""


def raw_env(**options: Any) -> BeloteEnv:
    """The environment without PettingZoo's wrappers (the fastest)."""
    return BeloteEnv(**options)


def env(**options: Any) -> Any:
    """The environment with PettingZoo's order-enforcing wrapper (the calls in a valid order).

    An action out of the action space needs no wrapper of its own: the engine refuses it as any
    illegal action (``illegal``)."""
    return wrappers.OrderEnforcingWrapper(BeloteEnv(**options))


def parallel_env(**options: Any) -> Any:
    """The parallel form (PettingZoo's ``turn_based_aec_to_parallel``): every agent sends an action at
    each step and the one whose turn it is plays; ``max_cycles`` counts these steps."""
    return turn_based_aec_to_parallel(BeloteEnv(**options))
