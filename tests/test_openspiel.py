"""The OpenSpiel game ``python_belote``: OpenSpiel's own checks, the information states and
observations of one worked deal, resampling from a seat's information state, and IS-MCTS at the table."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

from belote import openspiel as bo
from belote.actions import PASS, TAKE
from belote.cards import mask_of, parse_card
from belote.game import Deal
from belote.rules import MATCH_OPTIONS, OPTIONS, Rules

GAMES = ("classic", "coinche", "three-handed", "two-handed")


def load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game(bo.NAME, params)


def dealt(game: pyspiel.Game, pack: list[int] | None = None) -> bo.BeloteState:
    """A state with the pack drawn: ``pack`` in order (its first 31 places), or 0..31."""
    state = game.new_initial_state()
    for c in (pack or list(range(32)))[: bo.CHANCE_NODES]:
        state.apply_action(c)
    return state


def random_deal(game: pyspiel.Game, rng: random.Random) -> list[bo.BeloteState]:
    """Every state of one deal of random outcomes and actions, from the first to the last."""
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


# ----------------------------------------------------------------- OpenSpiel's own checks
@pytest.mark.parametrize(
    "params",
    [
        {"variant": "classic"},
        {"variant": "coinche"},
        {"variant": "three-handed"},
        {"variant": "two-handed"},
        {"variant": "classic", "direction": "counterclockwise", "declarations": False, "dealer": 2},
        {"variant": "coinche", "coinche_max_bid": 180, "generale": True, "utility": "points"},
    ],
    ids=lambda p: "-".join(str(v) for v in p.values()),
)
def test_random_sim_test(params: dict[str, object]) -> None:
    game = load(**params)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_parameters_are_the_rule_options() -> None:
    game = load(variant="coinche", surcoinche=3, dealer=1)
    assert game.get_parameters()["surcoinche"] == 3
    state = dealt(game)
    assert state.deal is not None
    assert state.deal.rules == Rules(variant="coinche", surcoinche=3)
    assert state.deal.dealer == 1 and state.current_player() == 2
    assert "target" not in bo.PARAMETERS and "deals" not in bo.PARAMETERS
    assert set(bo.PARAMETERS) - {"dealer", "utility"} == set(Rules.__dataclass_fields__) - {"target", "deals"}
    assert [name for name in bo.PARAMETERS if name not in ("dealer", "utility")] == [
        spec.name for spec in OPTIONS if spec.name not in MATCH_OPTIONS
    ]


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"variant": "four-handed"}, "four-handed"),
        ({"variant": "two-handed", "dealer": 2}, "dealer must be a seat from 0 to 1"),
        ({"utility": "money"}, "utility must be one of difference, points"),
    ],
)
def test_wrong_parameters_are_refused(params: dict[str, object], words: str) -> None:
    with pytest.raises((ValueError, pyspiel.SpielError), match=words):
        load(**params)


def test_game_facts() -> None:
    facts = {
        v: (g.num_players(), g.max_game_length(), g.information_state_tensor_size(), g.observation_tensor_size())
        for v in GAMES
        for g in [load(variant=v)]
    }
    # Bids: two rounds, or 3 * 10 levels + 6 at Coinche; then every card.
    assert facts == {
        "classic": (4, 8 + 32, 1849, 848),
        "coinche": (4, 36 + 32, 2661, 848),
        "three-handed": (3, 6 + 24, 1410, 658),
        "two-handed": (2, 4 + 32, 1503, 468),
    }
    game = load()
    assert game.num_distinct_actions() == 118 and game.max_chance_outcomes() == 32
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert load(utility="points").get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_longest_coinche_auction_fills_the_bid_slots() -> None:
    """Three passes, every contract with two passes between, a coinche and two more bids."""
    game = load(variant="coinche")
    state = dealt(game)
    contracts = [a for a in state.legal_actions() if a != PASS]
    modes = 6
    bids = [PASS] * 3
    for level in range(len(contracts) // modes):
        if level:
            bids += [PASS, PASS]
        bids.append(contracts[level * modes])
    bids += [PASS, PASS, bo.COINCHE, PASS, PASS]
    for b in bids:
        state.apply_action(b)
    assert state.deal is not None and state.deal.phase == "play"
    assert len(bids) == bo.bid_slots(Rules(variant="coinche")) == 36


# ----------------------------------------------------------------- the chance model
def test_the_pack_is_drawn_card_by_card() -> None:
    state = load().new_initial_state()
    assert state.chance_outcomes() == [(c, 1 / 32) for c in range(32)]
    state.apply_action(parse_card("JH"))
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 31 and parse_card("JH") not in dict(outcomes) and outcomes[0][1] == 1 / 31
    pack = random.Random(3).sample(range(32), 32)
    state = dealt(load(), pack)
    assert state.deal is not None and list(state.deal.deck) == pack  # the 32nd card took the last place
    assert state.deal.hand(1) == Deal(Rules(), 0, pack).hand(1)
    assert state.history() == pack[:31]


# ----------------------------------------------------------------- a worked deal
def test_information_state_and_observation_strings() -> None:
    state = dealt(load())  # the pack in order: E (first after the dealer N) holds 7S 8S 9S JH QH, JD turned
    assert state.information_state_string(1) == "classic seat E dealer N\nfirst 7S 8S 9S JH QH\nturned JD\nbids "
    assert state.observation_string(1) == (
        "classic seat E dealer N\nbidding\nhand 7S 8S 9S JH QH\nturned JD\nbids \ntrick \nwon 0 0"
    )
    state.apply_action(TAKE)
    assert state.information_state_string(1).splitlines()[3:] == [
        "bids E:take",
        "hand 7S 8S 9S JH QH JD QD KD",
        "trump E D",
    ]
    # N saw another first hand, and now its own eight cards.
    assert state.information_state_string(0).splitlines()[1:5] == [
        "first 8H 9H TH 9D TD",
        "turned JD",
        "bids E:take",
        "hand 8H 9H TH 9D TD QC KC AC",
    ]
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    lines = state.information_state_string(0).splitlines()
    assert lines[6:9] == ["declared E tierce tierce", "E 7S", "declared S tierce"]
    assert "shown NS S:tierce:TS.JS.QS N:tierce:8H.9H.TH N:tierce:QC.KC.AC" in lines
    assert "E QD belote" in lines and "E KD rebelote" in lines
    assert lines[-1] == "scored dedans NS:222 EW:20"
    # The deal is dedans: NS score 222, EW their belote (20); the returns are the differences.
    assert state.returns() == [202.0, -202.0, 202.0, -202.0]


def test_returns_as_points() -> None:
    state = dealt(load(utility="points"))
    state.apply_action(TAKE)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.returns() == [222.0, 20.0, 222.0, 20.0]
    three = dealt(load(variant="three-handed"))
    three.apply_action(TAKE)
    while not three.is_terminal():
        three.apply_action(three.legal_actions()[0])
    assert three.deal is not None and three.deal.result is not None
    points = three.deal.result.points
    # Each player's score less the mean of the two others'.
    assert three.returns() == [p - (sum(points) - p) / 2 for p in points]
    assert sum(three.returns()) == 0


def test_information_state_tensor() -> None:
    game = load()
    state = dealt(game)
    state.apply_action(PASS)  # E
    state.apply_action(TAKE)  # S takes the jack of diamonds
    state.apply_action(state.legal_actions()[0])  # E leads
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    obs.set_from(state, 1)
    d = obs.dict
    assert list(d["dealer"]) == [0, 0, 0, 1]  # N is three seats after E
    assert np.flatnonzero(d["first_hand"]).tolist() == [0, 1, 2, 12, 13]
    assert np.flatnonzero(d["turned"]).tolist() == [parse_card("JD")]
    assert d["bids"].shape == (8, 4 + 6 + 6 + 13)
    assert np.flatnonzero(d["bids"][0]).tolist() == [0, 4]  # E (offset 0) passes
    assert np.flatnonzero(d["bids"][1]).tolist() == [1, 5, 4 + 6 + 2]  # S (offset 1) takes: diamonds
    assert d["bids"][2:].sum() == 0
    assert np.flatnonzero(d["contract"]).tolist() == [1, 4 + 2]
    # E's eight cards: its first five and three more.
    assert d["hand"].sum() == 8 and mask_of(np.flatnonzero(d["hand"]).tolist()) == state.start_hand(1)
    assert np.flatnonzero(d["tricks"][0]).tolist() == [0, 4 + state.deal.plays[0]]  # type: ignore[union-attr]
    assert d["tricks"][1:].sum() == 0
    assert np.array_equal(np.asarray(state.information_state_tensor(1)), obs.tensor)


def test_observation_tensor() -> None:
    game = load(variant="two-handed")
    state = dealt(game)
    state.apply_action(TAKE)
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    obs.set_from(state, 1)
    d = obs.dict
    deal = state.deal
    assert deal is not None
    assert list(d["phase"]) == [0, 1, 0] and list(d["to_move"]) == [1, 0]
    assert mask_of(np.flatnonzero(d["hand"]).tolist()) == mask_of(deal.hand(1))
    # Five face-up cards each, every one with a card face down under it.
    assert d["table"][:, 0].sum() == 10 and d["table"][:, 1].sum() == 10
    ups = {int(up) for up, _ in deal.table()[0] if up is not None}
    assert set(np.flatnonzero(d["table"][1, 0]).tolist()) == ups  # N is offset 1 from E
    assert np.array_equal(np.asarray(state.observation_tensor(1)), obs.tensor)


# ----------------------------------------------------------------- resampling
@pytest.mark.parametrize("variant", GAMES)
def test_resampled_states_keep_the_information_state(variant: str) -> None:
    """Over random prefixes (the drawing of the pack, the bidding, the play): a state resampled for
    any seat has that seat's information state, and the legal actions when the seat is to move."""
    game = load(variant=variant)
    rng = random.Random(variant)
    checked = moved = 0
    prefixes = [s for _ in range(4) for s in rng.sample(random_deal(game, rng)[:-1], 6)]
    for state in prefixes:
        for seat in range(game.num_players()):
            new = state.resample_from_infostate(seat, rng.random)
            assert new.information_state_string(seat) == state.information_state_string(seat)
            assert new.information_state_tensor(seat) == state.information_state_tensor(seat)
            if seat == state.current_player():
                assert new.legal_actions() == state.legal_actions()
                moved += 1
            checked += 1
    assert checked == 24 * game.num_players() and moved >= 5


def test_resampling_hides_what_the_seat_cannot_see() -> None:
    """Another seat's cards change between resamples; the seat's own never do."""
    state = dealt(load())
    state.apply_action(TAKE)
    seen = set()
    rng = random.Random(1)
    for _ in range(10):
        new = state.resample_from_infostate(1, rng.random)
        assert new.deal is not None
        assert new.deal.hand(1) == state.deal.hand(1)  # type: ignore[union-attr]
        seen.add(new.deal.hand(0))
    assert len(seen) > 5
    state = random_deal(load(), random.Random(2))[-1]
    with pytest.raises(ValueError, match="the deal is over"):
        state.resample_from_infostate(0, rng.random)


# ----------------------------------------------------------------- OpenSpiel's IS-MCTS at the table
def test_ismcts_plays_a_deal_against_the_heuristic_bot() -> None:
    """IS-MCTS (OpenSpiel's, a small budget) holds N and S, the heuristic bot E and W."""
    game = load()
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=20, max_world_samples=4, random_state=np.random.RandomState(2)
    )
    rng = random.Random(5)
    resampled: list[int] = []

    def resample(state: bo.BeloteState, player: int) -> bo.BeloteState:
        resampled.append(player)
        return state.resample_from_infostate(player, rng.random)

    bot.set_resampler(resample)
    heuristic = bo.EngineBot("heuristic", seed=3)
    chance = np.random.RandomState(7)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(outcomes, p=probs)))
        elif state.current_player() % 2 == 0:
            action = int(bot.step(state))
            assert action in state.legal_actions()
            searched += len(state.legal_actions()) > 1
            state.apply_action(action)
        else:
            state.apply_action(heuristic.step(state))
    assert searched > 5
    assert set(resampled) == {0, 2} and len(resampled) == 4 * searched
    # The returns are the engine's score of the same pack and actions.
    deal = state.deal
    assert deal is not None and deal.result is not None
    replay = Deal(Rules(), 0, deal.deck)
    for a in deal.actions:
        replay.apply(a)
    assert replay.result == deal.result
    ns, ew = deal.result.points
    assert state.returns() == [ns - ew, ew - ns, ns - ew, ew - ns]
