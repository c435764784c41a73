"""The batched engine (belote.env.batch) beside the rules engine: every deal of the batch is played
again by belote.game's Deal on the same deck, and at every step the batch's observation must equal
``encode`` of the seat's view, its mask the legal actions, and at each deal's end its rewards the
deal's points as the environments give them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote.actions import PASS
from belote.bots import Bot, make_bot
from belote.bots.heuristic import HeuristicBot
from belote.cards import HEARTS, mask_of, parse_card
from belote.contracts import COINCHE, CONTRACT_BASE, GENERALE, contract_action
from belote.env import batch
from belote.env.encoding import ACTIONS, FIELDS, OBS_SIZE, action_mask, action_str, encode, field
from belote.game import DONE, Deal
from belote.rules import Rules

# The batch is built wherever the package is (pip install needs a compiler for the other C modules
# too): a missing engine is a failure here, not a skip.
assert batch.available(), "belote.env._batch was not built"

RULE_SETS = [
    ("classic", {}),
    ("classic", {"direction": "counterclockwise"}),
    ("classic", {"rounding": True, "round_five": "up"}),
    ("classic", {"litige": "hold", "declaration_tie": "none", "declaration_card_reuse": False}),
    ("classic", {"declarations": False, "undertrump": False, "belote_counts": False}),
    ("coinche", {}),
    ("coinche", {"no_trump_all_trump": False, "generale": True, "coinche_max_bid": 180}),
    ("coinche", {"coinche_made": "bid", "coinche_failed": 162, "surcoinche": 3, "rounding": True}),
    ("coinche", {"direction": "counterclockwise", "declarations": False}),
    ("three-handed", {}),
    ("three-handed", {"rounding": True, "litige": "hold", "direction": "counterclockwise"}),
    ("two-handed", {}),
    ("two-handed", {"rounding": True, "litige": "hold", "undertrump": False}),
]


def differing(got: np.ndarray, expected: np.ndarray) -> list[str]:
    """The fields where two observations differ, with both values."""
    return [
        f"{f.name}: {got[f.offset : f.stop].nonzero()[0].tolist()} {expected[f.offset : f.stop].nonzero()[0].tolist()}"
        for f in FIELDS
        if not np.array_equal(got[f.offset : f.stop], expected[f.offset : f.stop])
    ]


def rewards_of(deal: Deal, scale: float = 1.0) -> list[float]:
    """The environments' rewards of a deal over (belote.env.aec: each seat's score less the mean of the others')."""
    assert deal.result is not None
    points = deal.result.points
    teams = len(points)
    total = sum(points)
    team_of = deal.variant.team_of
    return [scale * (points[team_of[s]] - (total - points[team_of[s]]) / (teams - 1)) for s in range(deal.players)]


def play_beside(
    game: str, options: dict[str, object], seed: int, deals: int, n: int = 6, scale: float = 1.0, pass_bias: float = 0.0
) -> dict[str, int]:
    """Steps the batch and the rules engine side by side until ``deals`` deals are over; counts what was seen."""
    rules = Rules.from_dict({**options, "variant": game})
    b = batch.BatchEnv(n, rules=rules, seed=seed, reward_scale=scale)
    mirrors = [Deal(rules, *b.deal(i)) for i in range(n)]
    rng = np.random.default_rng(seed)
    seen = {"steps": 0, "deals": 0, "thrown_in": 0, "made": 0, "low": 0, "declared": 0, "belote": 0}
    while seen["deals"] < deals:
        for i, d in enumerate(mirrors):
            seat = d.to_move
            assert b.seat[i] == seat
            expected = encode(d.view(seat))
            if not np.array_equal(b.obs[i], expected):
                pytest.fail(f"deal {i} after {[action_str(a) for a in d.actions]}: {differing(b.obs[i], expected)}")
            np.testing.assert_array_equal(b.mask[i], action_mask(d.legal_actions()))
        actions = b.sample(rng)
        if pass_bias:  # more passes and the lowest contracts: contracts of every level, not only the highest
            u = rng.random(n)
            bidding = b.mask[:, PASS] == 1
            lowest = CONTRACT_BASE + b.mask[:, CONTRACT_BASE:COINCHE].argmax(axis=1)
            low = bidding & (u < 0.3) & (b.mask[np.arange(n), lowest] == 1)
            actions[low] = lowest[low]
            actions[bidding & (u >= 0.3) & (u < 0.3 + pass_bias)] = PASS
        b.step(actions)
        seen["steps"] += n
        for i, d in enumerate(mirrors):
            d.apply(int(actions[i]))
            if d.phase == DONE:
                assert b.dones[i], f"deal {i} is over"
                assert d.result is not None
                np.testing.assert_allclose(b.rewards[i], rewards_of(d, scale), rtol=1e-6, err_msg=str(d.result))
                seen["deals"] += 1
                seen["thrown_in"] += d.result.outcome == "thrown-in"
                seen["made"] += d.result.outcome == "made"
                seen["low"] += d.contract is not None and d.contract.level < 120
                seen["declared"] += any(d.declared)
                seen["belote"] += d.belote_seat() is not None
                mirrors[i] = Deal(rules, *b.deal(i))
            else:
                assert not b.dones[i]
                assert not b.rewards[i].any()
    return seen


@pytest.mark.parametrize(("game", "options"), RULE_SETS, ids=[f"{g}-{i}" for i, (g, _) in enumerate(RULE_SETS)])
def test_every_observation_mask_and_reward_equals_the_rules_engine(game: str, options: dict[str, object]) -> None:
    seen = play_beside(game, options, seed=7, deals=60)
    if game == "coinche":
        seen = play_beside(game, options, seed=8, deals=60, pass_bias=0.6)
        assert seen["low"] > 10 and seen["made"] > 0
    # the deals covered what the observation writes: bids, declarations, belote
    assert seen["steps"] > 60 * 20
    if options.get("declarations", True) and game != "two-handed":  # nothing is declared at two hands
        assert seen["declared"] > 0
    assert seen["belote"] > 0


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), game=st.sampled_from(["classic", "coinche", "three-handed", "two-handed"]))
def test_random_deals_of_every_batched_game(seed: int, game: str) -> None:
    play_beside(game, {}, seed=seed, deals=8, n=3, scale=1 / 162)


@pytest.mark.parametrize(("game", "passes"), [("classic", 8), ("coinche", 4), ("three-handed", 6), ("two-handed", 4)])
def test_everybody_passes_the_deal_is_thrown_in_and_nothing_scored(game: str, passes: int) -> None:
    b = batch.BatchEnv(2, game=game, seed=4)
    first = [b.deal(i) for i in range(2)]
    for _ in range(passes):
        assert not b.dones.any()
        assert b.mask[:, PASS].all()
        b.step([PASS, PASS])
    assert b.dones.all() and not b.rewards.any()
    assert [b.deal(i) for i in range(2)] != first  # new cards
    assert (b.obs[:, field("phase")][:, 0] == 1).all() and not b.obs[:, field("last_bid")].any()


def test_the_arrays_and_a_new_deal_after_each_end() -> None:
    b = batch.BatchEnv(16, game="classic", seed=3)
    assert b.obs.shape == (16, OBS_SIZE) and b.obs.dtype == np.float32
    assert b.mask.shape == (16, ACTIONS) and b.mask.dtype == np.int8
    assert b.rewards.shape == (16, 4) and b.dones.dtype == np.bool_
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        obs, mask, rewards, dones = b.step(b.sample(rng))
        assert obs is b.obs and mask is b.mask
        # the rewards of a deal add up to 0, and every mask holds a legal action
        np.testing.assert_allclose(rewards.sum(axis=1), 0, atol=1e-3)
        assert (mask.sum(axis=1) > 0).all()
        ended += int(dones.sum())
    assert ended > 16


def test_the_same_seed_gives_the_same_deals() -> None:
    a, b = batch.BatchEnv(8, game="coinche", seed=11), batch.BatchEnv(8, game="coinche", seed=11)
    assert [a.deal(i) for i in range(8)] == [b.deal(i) for i in range(8)]
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    for _ in range(100):
        a.step(a.sample(rng_a))
        b.step(b.sample(rng_b))
    np.testing.assert_array_equal(a.obs, b.obs)
    a.reset(5)
    b.reset(5)
    assert [a.deal(i) for i in range(8)] == [b.deal(i) for i in range(8)]
    assert a.deal(0) != a.deal(1)


def test_an_illegal_action_is_refused_and_nothing_is_played() -> None:
    b = batch.BatchEnv(4, game="classic", seed=2)
    before = b.obs.copy()
    actions = b.sample(np.random.default_rng(0))
    actions[2] = 0  # a card while bidding
    with pytest.raises(ValueError, match="deal 2: action 0 is not legal"):
        b.step(actions)
    np.testing.assert_array_equal(b.obs, before)
    for bad in ([-1] * 4, [ACTIONS] * 4):
        with pytest.raises(ValueError, match="not legal"):
            b.step(bad)
    with pytest.raises(ValueError, match="4 whole numbers"):
        b.step([32, 32])
    actions[2] = b.mask[2].nonzero()[0][0]  # the same step with a legal action goes on
    b.step(actions)
    assert not np.array_equal(b.obs, before)


def test_refusals_of_the_constructor() -> None:
    with pytest.raises(ValueError, match="rule option 'variant' must be one of"):
        batch.BatchEnv(4, game="five-handed")
    with pytest.raises(ValueError, match="num_envs"):
        batch.BatchEnv(0)
    with pytest.raises(ValueError, match="reward_scale"):
        batch.BatchEnv(4, reward_scale=0)
    b = batch.BatchEnv(2, seed=1)
    with pytest.raises(IndexError, match="no deal 2: the batch holds 2"):
        b.deal(2)
    with pytest.raises(IndexError, match="no deal -1"):
        b.bot_action(-1)


def test_a_deal_set_from_its_deck() -> None:
    rules = Rules(variant="classic")
    b = batch.BatchEnv(2, rules=rules, seed=0)
    deck = tuple(range(32))
    b.set_deal(1, 3, deck)
    assert b.deal(1) == (3, deck)
    d = Deal(rules, 3, deck)
    np.testing.assert_array_equal(b.obs[1], encode(d.view(d.to_move)))
    with pytest.raises(ValueError, match="each of the 32 cards once"):
        b.set_deal(0, 0, [0] * 32)


# ----------------------------------------------------------------- the heuristic bot inside the batch

GAMES = ["classic", "coinche", "three-handed", "two-handed"]


@pytest.mark.parametrize("game", GAMES)
def test_the_batch_bot_decides_as_the_heuristic_bot_at_every_step(game: str) -> None:
    """Both bots are asked at every step of deals played mostly by the bot (so that its own lines
    are met), now and then by a random legal action."""
    rules = Rules(variant=game)
    n = 6
    b = batch.BatchEnv(n, rules=rules, seed=21)
    mirrors = [Deal(rules, *b.deal(i)) for i in range(n)]
    bot = HeuristicBot()
    rng = np.random.default_rng(21)
    deals = asked = 0
    while deals < 40:
        actions = b.sample(rng)
        for i, d in enumerate(mirrors):
            expected = int(bot.act(d.view(d.to_move)))
            assert b.bot_action(i) == expected, f"deal {i} after {[action_str(a) for a in d.actions]}"
            asked += 1
            if rng.random() < 0.85:
                actions[i] = expected
        b.step(actions)
        for i, d in enumerate(mirrors):
            d.apply(int(actions[i]))
            if d.phase == DONE:
                deals += 1
                mirrors[i] = Deal(rules, *b.deal(i))
    assert asked > 40 * 20


def learner_beside(b: batch.BatchEnv, rules: Rules, bots: dict[int, Bot], deals: int, scale: float = 1.0) -> None:
    """Steps ``b`` (a learner seat against bots) with random legal actions beside the rules engine,
    whose deals ``bots`` play at the other seats, until ``deals`` are over: at every step the same
    observation, mask and seat; at each end the same rewards."""
    learner = b.learner
    n = b.num_envs

    def bots_play(d: Deal) -> None:
        while d.phase != DONE and d.to_move != learner:
            d.apply(bots[d.to_move].act(d.view(d.to_move)))

    mirrors = [Deal(rules, *b.deal(i)) for i in range(n)]
    for d in mirrors:
        bots_play(d)
    rng = np.random.default_rng(5)
    ended = 0
    while ended < deals:
        assert (b.seat == learner).all()
        for i, d in enumerate(mirrors):
            np.testing.assert_array_equal(b.obs[i], encode(d.view(d.to_move)))
            np.testing.assert_array_equal(b.mask[i], action_mask(d.legal_actions()))
        actions = b.sample(rng)
        b.step(actions)
        for i, d in enumerate(mirrors):
            d.apply(int(actions[i]))
            bots_play(d)
            if d.phase == DONE:
                assert b.dones[i]
                np.testing.assert_allclose(b.rewards[i], rewards_of(d, scale), rtol=1e-6)
                ended += 1
                mirrors[i] = Deal(rules, *b.deal(i))
                bots_play(mirrors[i])
            else:
                assert not b.dones[i] and not b.rewards[i].any()


@pytest.mark.parametrize("game", GAMES)
def test_a_learner_against_the_bots_sees_what_the_rules_engine_shows(game: str) -> None:
    """One seat learns, the bots play the others inside the step: beside the rules engine with
    belote.bots' heuristic bot at those seats, the same observations, masks, rewards and ends."""
    rules = Rules(variant=game)
    b = batch.BatchEnv(4, rules=rules, seed=5, learner=1, reward_scale=0.5)
    bot = HeuristicBot()
    learner_beside(b, rules, dict.fromkeys(range(rules.players), bot), deals=30, scale=0.5)


def test_the_learner_must_be_a_seat() -> None:
    with pytest.raises(ValueError, match="learner must be a seat, 0 to 2"):
        batch.BatchEnv(2, game="three-handed", learner=3)


# ----------------------------------------------------------------- the Gymnasium vector environment


def test_the_vector_environment_from_gymnasium_make_vec() -> None:
    import gymnasium as gym

    from belote.env.vector import BatchVectorEnv

    v = gym.make_vec("belote/Belote-v0", num_envs=16, vectorization_mode="vector_entry_point", game="coinche", seat=2)
    assert isinstance(v, BatchVectorEnv) and v.num_envs == 16
    obs, info = v.reset(seed=3)
    assert v.observation_space.contains(obs)
    assert obs["observation"].shape == (16, OBS_SIZE) and info == {}
    rng = np.random.default_rng(0)
    ended = 0
    total = np.zeros(16)
    for _ in range(300):
        obs, rewards, terminated, truncated, info = v.step(v.sample_legal(rng))
        assert v.observation_space.contains(obs) and not truncated.any()
        np.testing.assert_array_equal(obs["action_mask"], v.action_masks())
        assert (obs["observation"][:, field("to_move", 0)] == 1).all()  # always the learner's turn
        if terminated.any():
            np.testing.assert_array_equal(info["rewards"][:, 2], rewards)
            np.testing.assert_allclose(info["rewards"][terminated].sum(axis=1), 0, atol=1e-3)
        assert not rewards[~terminated].any()
        ended += int(terminated.sum())
        total += rewards
    assert ended > 16 and total.any()


def test_the_vector_environment_refuses_or_replaces_an_illegal_action() -> None:
    from belote.env.vector import BatchVectorEnv

    v = BatchVectorEnv(4, game="classic", seat=0)
    v.reset(seed=1)
    actions = v.sample_legal(np.random.default_rng(1))
    actions[1] = 0  # a card in the bidding
    _, _, _, _, info = v.step(actions)
    assert info["illegal"].tolist() == [False, True, False, False]
    strict = BatchVectorEnv(4, game="classic", seat=0, illegal="raise")
    strict.reset(seed=1)
    before = strict.batch.obs.copy()
    with pytest.raises(ValueError, match="deal 1: action 0 is not legal"):
        strict.step(actions)
    np.testing.assert_array_equal(strict.batch.obs, before)
    with pytest.raises(ValueError, match=r"outside the action space Discrete\(118\)"):
        v.step([118, 32, 32, 32])
    with pytest.raises(ValueError, match="no bot named 'nobody'"):
        BatchVectorEnv(4, bot="nobody")


def test_the_flat_vector_observation_is_the_observation_then_the_mask() -> None:
    from belote.env.vector import BatchVectorEnv

    v = BatchVectorEnv(3, game="three-handed", seat=1, observation="flat")
    obs, _ = v.reset(seed=2)
    assert obs.shape == (3, OBS_SIZE + ACTIONS)
    np.testing.assert_array_equal(obs[:, :OBS_SIZE], v.batch.obs)
    np.testing.assert_array_equal(obs[:, OBS_SIZE:], v.batch.mask)


@pytest.mark.parametrize(
    ("game", "bot", "options"), [("classic", "search", {"budget": 20_000}), ("coinche", "random", {})]
)
def test_a_learner_against_bots_played_in_python(game: str, bot: str, options: dict[str, object]) -> None:
    """Any other bot than the heuristic one plays its seats through belote.bots: the same decisions as
    that bot shown the views of the rules engine's deal."""
    rules = Rules(variant=game)
    b = batch.BatchEnv(2, rules=rules, seed=9, learner=3, bot=bot, bot_options=options)
    learner_beside(b, rules, {s: make_bot(bot, seed=s, **options) for s in range(3)}, deals=4)
    with pytest.raises(ValueError, match="bot needs a learner seat"):
        batch.BatchEnv(2, game=game, bot=bot)
    with pytest.raises(ValueError, match="takes no options"):
        batch.BatchEnv(2, game=game, learner=0, bot_options={"think": 2})


def test_a_generale_made_is_scored_as_the_rules_engine_scores_it() -> None:
    """Coinche with the générale: the bidder alone takes every trick (a path random play never
    finds), scored by the batch as by the rules engine."""
    rules = Rules(variant="coinche", generale=True)
    dealer = 3  # North, next to the dealer, bids first and leads
    mine = [parse_card(c) for c in ["JH", "9H", "AH", "TH", "KH", "QH", "AS", "AD"]]
    rest = [c for c in range(32) if c not in mine]
    deck = rest[:]
    for place, card in zip((0, 1, 2, 12, 13, 20, 21, 22), mine, strict=True):
        deck.insert(place, card)
    b = batch.BatchEnv(1, rules=rules, seed=0)
    b.set_deal(0, dealer, deck)
    d = Deal(rules, dealer, deck)
    assert d.hand_mask(0) == mask_of(mine)
    plays = [contract_action(GENERALE, HEARTS), PASS, PASS, PASS]
    plays_in = iter(mine)
    while d.phase != DONE:
        action = plays.pop(0) if plays else next(plays_in) if d.to_move == 0 else d.legal_actions()[0]
        np.testing.assert_array_equal(b.obs[0], encode(d.view(d.to_move)))
        b.step([int(action)])
        d.apply(action)
    assert d.result is not None and d.result.outcome == "made" and d.contract is not None
    assert d.contract.level == GENERALE
    assert b.dones[0]
    np.testing.assert_allclose(b.rewards[0], rewards_of(d), rtol=1e-6)
    assert b.rewards[0][0] > 500
