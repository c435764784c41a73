"""The research environments (``belote.env``): PettingZoo's and Gymnasium's own conformance tests for
every game, the observation against its definition (``encode(view)``) at every step, no card of
another hand in any observation, and the rewards of worked deals."""

from __future__ import annotations

import gc
import random
import re
import subprocess
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

from belote.actions import IllegalAction
from belote.cards import mask_of
from belote.env import ACTIONS, FIELDS, OBS_SIZE, action_mask, encode, env, field, parallel_env, raw_env
from belote.env.single import BeloteSingleEnv
from belote.rules import Rules
from games import GAMES, of_game


@contextmanager
def env_warnings() -> Iterator[list[warnings.WarningMessage]]:
    """Every warning raised inside, recorded. What earlier tests left for the garbage collector is
    collected first: a socket found unclosed while recording would be counted as the env's."""
    gc.collect()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught


#: Rule options that change what an observation holds, in each game: the direction of play, no
#: declarations, Coinche's générale and 180, no no-trumps.
OPTIONS = {
    "classic": {"direction": "counterclockwise", "declarations": False},
    "coinche": {"generale": True, "coinche_max_bid": 180, "no_trump_all_trump": False},
    "three-handed": {"direction": "counterclockwise"},
    "two-handed": {"direction": "counterclockwise"},
}
#: The warnings PettingZoo's api_test gives any environment whose observation is a dict (it lists
#: its own such games by name).
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def test_the_spaces_are_the_same_for_every_game() -> None:
    assert (ACTIONS, OBS_SIZE) == (118, 769)
    assert FIELDS[0].name == "hand" and FIELDS[-1].name == "pending"
    for game in GAMES:
        e = raw_env(game=game)
        e.reset(seed=0)
        assert e.possible_agents == [f"player_{s}" for s in range(Rules(variant=game).players)]
        assert e.action_space("player_0").n == ACTIONS
        assert e.observation_space("player_0")["observation"].shape == (OBS_SIZE,)


def test_the_engine_imports_none_of_the_optional_extras() -> None:
    """The engine, the bots and the front ends load none of the research extras (the environments,
    the OpenSpiel game) nor what they need: only those who ask for an extra do."""
    extras = ("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel", "belote.env", "belote.openspiel")
    code = (
        "import sys, belote, belote.game, belote.bots, belote.arena, belote.record, belote.knowledge, belote.cli; "
        f"print(sorted(m for m in sys.modules if m in {extras!r} or m.split('.')[0] in {extras!r}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_environments_import_none_of_the_server() -> None:
    """The base install brings the web server's packages (``pip install .`` then ``belote serve``);
    the environments, their bots and a deal played through them load none of them."""
    server = ("starlette", "uvicorn", "websockets", "redis", "anyio", "openskill", "argon2", "segno", "belote.server")
    code = (
        "import sys, gymnasium, belote.env; from belote.env.single import BeloteSingleEnv; "
        "e = BeloteSingleEnv(game='coinche', bot='heuristic'); o, _ = e.reset(seed=1); "
        "e.step(int(o['action_mask'].nonzero()[0][0])); "
        f"print(sorted(m for m in sys.modules if any(m == s or m.startswith(s + '.') for s in {server!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_docs_env_md_tells_every_field_where_it_is() -> None:
    text = (Path(__file__).parent.parent / "docs" / "env.md").read_text()
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \| (?:(\d) × )?(\d+) \|", text, re.MULTILINE)
    told = [(int(offset), name, int(slots or 1) * int(width)) for offset, name, slots, width in rows]
    assert told == [(f.offset, f.name, f.size) for f in FIELDS]


def test_the_code_of_docs_env_md_runs() -> None:
    """Each Python example of docs/env.md, in order in one namespace, as a newcomer pastes them."""
    text = (Path(__file__).parent.parent / "docs" / "env.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) >= 4
    done: dict[str, Any] = {}
    exec(blocks[0], done)  # the learning loop: one deal played to its end
    first = done["e"]
    assert all(first.terminations.values()) and sum(first.rewards.values()) == 0
    for block in blocks[1:]:
        exec(block, done)
    done["v"].close()


# ----------------------------------------------------------------- PettingZoo's and Gymnasium's tests


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test(game: str) -> None:
    with env_warnings() as caught:
        api_test(env(game=game, episode="match"), num_cycles=1000)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_seed_test(game: str) -> None:
    seed_test(lambda: env(game=game, episode="match"), num_cycles=300)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_max_cycles_test(game: str) -> None:
    """``max_cycles`` counts steps of the parallel form; its round-robin AEC form (PettingZoo's
    ``parallel_to_aec``) gives each agent that many turns. The test draws actions without the mask:
    with the default options the environment plays a legal one instead (``illegal="random"``)."""
    module = SimpleNamespace(
        parallel_env=lambda **kw: parallel_env(game=game, **kw),
        env=lambda **kw: parallel_to_aec(parallel_env(game=game, **kw)),
    )
    max_cycles_test(module)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_parallel_api_test(game: str) -> None:
    parallel_api_test(parallel_env(game=game, episode="match"), num_cycles=300)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env(game: str) -> None:
    """Through the registered id, so that check_env also makes it in each render mode; check_env
    steps with actions drawn without the mask, which the default options take (``illegal="random"``)."""
    with env_warnings() as caught:
        check_env(gym.make("belote/Belote-v0", game=game).unwrapped)
        check_env(gym.make("belote/Belote-v0", game=game, render_mode="ansi", observation="flat").unwrapped)
    assert [str(w.message) for w in caught] == []


def test_the_flat_observation_is_the_observation_then_the_mask() -> None:
    e = BeloteSingleEnv(game="coinche", seat=2, observation="flat")
    obs, _ = e.reset(seed=5)
    assert obs.shape == (OBS_SIZE + ACTIONS,) and obs.dtype == np.float32
    assert e.observation_space.contains(obs)
    view = e.table.view("player_2")
    assert np.array_equal(obs[:OBS_SIZE], encode(view))
    assert [int(a) for a in np.flatnonzero(obs[OBS_SIZE:])] == sorted(view.legal)
    assert np.array_equal(e.action_masks(), obs[OBS_SIZE:].astype(np.int8))
    with pytest.raises(ValueError, match="observation must be one of dict, flat, not 'image'"):
        BeloteSingleEnv(observation="image")


def test_made_as_stable_baselines3_makes_a_vector_env() -> None:
    """stable-baselines3's ``make_vec_env`` asks for ``render_mode="rgb_array"`` and, refused with a
    ``TypeError``, makes the environment without it (its code, as of 2.x, in that order)."""
    refused = pytest.raises(TypeError, match="render_mode must be None or 'ansi', not 'rgb_array'")
    with refused, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gymnasium.make's warning of a mode not in the metadata
        gym.make("belote/Belote-v0", render_mode="rgb_array", game="coinche")
    made = gym.make("belote/Belote-v0", game="coinche")
    obs, _ = made.reset(seed=1)
    assert obs["action_mask"].sum() > 0
    with pytest.raises(ValueError, match="render_mode must be None or 'ansi'"):
        raw_env(render_mode="human")


@pytest.mark.parametrize("same_step", [False, True], ids=["next-step", "same-step"])
def test_a_vector_env_after_a_deal_ends(same_step: bool) -> None:
    """Gymnasium's vector environments reset a finished episode by themselves. By default (autoreset
    NEXT_STEP) the step that ends a deal returns its last observation, whose mask is all 0, and the
    next step resets that environment, its action unused; with SAME_STEP the step that ends a deal
    returns the next deal's first observation and mask (the last one in ``info["final_obs"]``)."""
    mode = gym.vector.AutoresetMode.SAME_STEP if same_step else gym.vector.AutoresetMode.NEXT_STEP
    v = gym.make_vec("belote/Belote-v0", num_envs=2, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode})
    obs, _ = v.reset(seed=3)
    first = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]  # pass, at both tables
    for _ in range(8):  # eight passes in a row: the deal of seed 3's first table is thrown in
        obs, reward, terminated, _, info = v.step(np.array(first))
        if terminated.any():
            break
    assert terminated.tolist() == [True, False] and reward.tolist() == [0.0, 0.0]
    masks = obs["action_mask"].sum(axis=1)
    if same_step:
        assert masks[0] > 0 and info["final_obs"][0]["action_mask"].sum() == 0
    else:
        assert masks[0] == 0
        obs, *_ = v.step(np.array(first))  # the reset step: table 0's action is not played
        assert obs["action_mask"][0].sum() > 0
    v.close()


def test_one_seat_against_the_search_bot() -> None:
    e = BeloteSingleEnv(game="classic", seat=1, bot="search", bot_options={"think": 0.05})
    obs, info = e.reset(seed=4)
    assert info == {"seat": 1}
    view = e.table.view("player_1")
    assert np.array_equal(obs["observation"], encode(view))
    assert view.to_move == 1
    legal = np.flatnonzero(obs["action_mask"])
    assert [int(a) for a in legal] == sorted(view.legal)
    obs, reward, terminated, truncated, _ = e.step(int(legal[0]))
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert e.table.view("player_1").to_move == 1  # the bots played up to the learner's next turn


@pytest.mark.parametrize("bot", ["heuristic", "learned"])
def test_one_seat_plays_a_whole_deal_against_a_bot(bot: str) -> None:
    e = BeloteSingleEnv(game="coinche", seat=0, bot=bot)
    obs, _ = e.reset(seed=11)
    rewards, steps, terminated = [], 0, False
    while not terminated:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, _, _ = e.step(int(legal[0]))
        rewards.append(reward)
        steps += 1
    deal = e.table.match.deals[0] if e.table.match else None
    assert deal is not None and deal.result is not None
    points = deal.result.points
    assert rewards[-1] == points[0] - points[1]
    assert all(r == 0 for r in rewards[:-1])
    assert not obs["action_mask"].any()


# ----------------------------------------------------------------- the observation


def play(e: Any, seed: int, steps: int, check: Any) -> None:
    """Random legal actions, ``check(e)`` before each; a new episode when one ends."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    for _ in range(steps):
        check(e)
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))


def same_as_the_view(e: Any) -> None:
    for agent in e.agents:
        view = e.view(agent)
        obs = e.observe(agent)
        assert obs["observation"].dtype == np.float32
        assert np.array_equal(obs["observation"], encode(view)), (agent, view.phase)
        expected = action_mask(view.legal) if agent == e.agent_selection else np.zeros(ACTIONS, np.int8)
        assert np.array_equal(obs["action_mask"], expected)


@pytest.mark.parametrize("changed", [False, True], ids=["default", "options"])
@pytest.mark.parametrize("game", GAMES)
def test_the_observation_is_the_encoding_of_the_view(game: str, changed: bool) -> None:
    options = of_game(OPTIONS, game) if changed else {}
    play(raw_env(game=game, rules=options, episode="match"), seed=5, steps=250, check=same_as_the_view)
    play(raw_env(game=game, rules=options, episode="deal"), seed=6, steps=150, check=same_as_the_view)


CARD_FIELDS = ("hand", "table", "covering", "trick", "played", "turned", "shown")


def shows_no_hidden_card(e: Any) -> None:
    """No card field of a seat's observation holds a card another seat holds unseen."""
    deal = e._deal
    n = e.rules.players
    for agent in e.agents:
        seat = int(agent.split("_")[1])
        view = e.view(agent)
        seen = mask_of([c for _, _, cs in view.declarations for c in cs])
        seen |= mask_of([up for piles in view.table for up, _ in piles if up is not None])
        if view.turned is not None:
            seen |= 1 << view.turned
        hidden = 0
        for other in range(n):
            if other != seat:
                hidden |= deal.hand_mask(other)
        if deal.under:  # the cards still face down are nobody's to see, their owner's included
            held = sum(deal.hand_mask(s) for s in range(n)) | mask_of(view.played)
            hidden |= mask_of([d for d in deal.under if d >= 0]) & ~held
        hidden &= ~seen
        obs = e.observe(agent)["observation"]
        shown = 0
        for name in CARD_FIELDS:
            f = next(f for f in FIELDS if f.name == name)
            for slot in range(f.slots):
                cards = obs[field(name, slot)]
                shown |= mask_of([int(c) for c in np.flatnonzero(cards)])
        assert shown & hidden == 0, (agent, view.phase)
        assert mask_of([int(c) for c in np.flatnonzero(obs[field("hand")])]) == mask_of(view.hand)


@pytest.mark.parametrize("game", GAMES)
def test_no_observation_holds_a_card_of_another_hand(game: str) -> None:
    play(raw_env(game=game, episode="match"), seed=8, steps=250, check=shows_no_hidden_card)


def test_the_fields_of_a_first_observation() -> None:
    e = raw_env(game="classic")
    e.reset(seed=3)
    agent = e.agent_selection
    view = e.view(agent)
    obs = e.observe(agent)["observation"]
    hand = [int(c) for c in np.flatnonzero(obs[field("hand")])]
    assert hand == sorted(view.hand) and len(hand) == 5
    assert view.turned is not None and np.flatnonzero(obs[field("turned")]).tolist() == [view.turned]
    assert obs[field("to_move", 0)].tolist() == [1.0]  # the observer is the one to move
    assert obs[field("phase")].tolist() == [1.0, 0.0, 0.0]
    assert obs[field("game")].tolist() == [1.0, 0.0, 0.0, 0.0]
    assert obs[field("hand_sizes")].tolist() == [5 / 8] * 4
    assert obs[field("bid_round")].tolist() == [1.0, 0.0]
    assert not obs[field("played")].any() and not obs[field("trick")].any()


# ----------------------------------------------------------------- rewards, options, illegal actions


def lowest_to_the_end(e: Any) -> dict[str, float]:
    """Each agent plays its last legal action (the highest bid, the highest card) until the episode ends."""
    total = dict.fromkeys(e.agents, 0.0)
    while True:
        obs, _, terminated, _, _ = e.last()
        if terminated:
            return total
        e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        for agent, reward in e.rewards.items():
            total[agent] += reward


#: Each seat's reward in the deal of seed 7 where every seat plays its last legal action.
REWARDS = {
    "classic": [-162, 162, -162, 162],  # dedans: the defenders score 162
    "coinche": [-1640, 1640, -1640, 1640],  # capot surcoinched, lost
    "three-handed": [40, -80, 40],  # 80 to each defender: each gets 80 less the others' mean
    "two-handed": [162, -162],
}


@pytest.mark.parametrize("game", GAMES)
def test_a_deals_rewards_are_its_points_from_each_side(game: str) -> None:
    rewards = of_game(REWARDS, game)
    e = raw_env(game=game)
    e.reset(seed=7)
    total = lowest_to_the_end(e)
    assert [total[f"player_{s}"] for s in range(len(rewards))] == rewards
    assert sum(rewards) == 0


def test_the_match_reward_goes_to_the_winner() -> None:
    e = raw_env(game="three-handed", episode="match", reward="match")
    e.reset(seed=3)
    rng = random.Random(1)
    total = dict.fromkeys(e.agents, 0.0)
    while not e.terminations["player_0"]:
        legal = np.flatnonzero(e.last()[0]["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
        for agent, reward in e.rewards.items():
            total[agent] += reward
    assert e.match.over and e.match.score == [386, 518, 528] and e.match.winner == 2
    assert len(e.match.deals) == 10
    assert total == {"player_0": -0.5, "player_1": -0.5, "player_2": 1.0}


def test_an_illegal_action_is_replaced_or_refused() -> None:
    e = raw_env(game="classic")  # the default: a legal action drawn instead
    e.reset(seed=1)
    agent = e.agent_selection
    e.step(0)  # a card during the bidding
    assert e.infos[agent] == {"illegal": True}
    assert len(e.view(agent).bids) == 1
    e = raw_env(game="classic", illegal="raise")
    e.reset(seed=1)
    with pytest.raises(IllegalAction) as refused:
        e.step(0)
    assert refused.value.code == "bidding_not_over"
    assert e.view(e.agent_selection).bids == ()  # nothing changed


@pytest.mark.parametrize("illegal", ["random", "raise"])
@pytest.mark.parametrize("action", [ACTIONS, -1, 10_000])
def test_an_action_outside_the_space_is_refused_as_such(illegal: str, action: int) -> None:
    e = raw_env(game="coinche", illegal=illegal)
    e.reset(seed=1)
    agent = e.agent_selection
    with pytest.raises(ValueError, match=rf"action {action} is outside the action space Discrete\(118\)"):
        e.step(action)
    assert e.view(agent).bids == () and e.agent_selection == agent and e.infos[agent] == {}


@pytest.mark.parametrize("game", GAMES)
def test_rewards_scaled(game: str) -> None:
    scale = 1 / 162
    e = raw_env(game=game, reward_scale=scale)
    e.reset(seed=7)
    total = lowest_to_the_end(e)
    assert [total[f"player_{s}"] for s in range(e.rules.players)] == [r * scale for r in of_game(REWARDS, game)]
    g = BeloteSingleEnv(game=game, reward_scale=0.5, bot="random")
    assert g.table.reward_scale == 0.5
    for bad in (0, -1.0, float("nan"), float("inf"), "1"):
        with pytest.raises(ValueError, match="reward_scale must be a finite number above 0"):
            raw_env(reward_scale=bad)


def test_max_cycles_truncates_after_that_many_steps() -> None:
    e = raw_env(game="classic", max_cycles=6)
    e.reset(seed=2)
    steps = 0
    while not any(e.truncations.values()):
        obs, *_ = e.last()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 6 and not any(e.terminations.values())


def test_the_options_are_checked() -> None:
    with pytest.raises(ValueError, match="reward='match' needs episode='match'"):
        raw_env(reward="match")
    with pytest.raises(ValueError, match="episode must be one of deal, match"):
        raw_env(episode="trick")
    with pytest.raises(ValueError, match="bot must be one of"):
        BeloteSingleEnv(bot="oracle")
    with pytest.raises(ValueError, match="seat must be 0 to 2"):
        BeloteSingleEnv(game="three-handed", seat=3)


def test_render_ansi_shows_the_table() -> None:
    e = raw_env(game="classic", render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    assert text is not None
    assert text.splitlines()[0] == "the classic game, deal 1, phase bidding"
    assert "turned: " + str(e.view("player_0").turned) in text
    assert raw_env(game="classic").render() is None


def test_a_seed_replays_the_single_seat_episode() -> None:
    def episode(seed: int) -> list[bytes]:
        e = BeloteSingleEnv(game="two-handed", seat=1)
        obs, _ = e.reset(seed=seed)
        seen, terminated = [obs["observation"].tobytes()], False
        while not terminated:
            obs, _, terminated, _, _ = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
            seen.append(obs["observation"].tobytes())
        return seen

    assert episode(5) == episode(5)
    assert episode(5) != episode(6)
