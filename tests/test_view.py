"""The player's view: what it carries so that no consumer works the rules out again.

The seating order, the camps, who played each card, how many cards each seat holds, and the
deal's scoring as a function; checked against the deal itself in random deals of every game, and
the scoring against worked numbers.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from belote.bots import make_bot
from belote.game import PASS, TAKE, Deal, Match, parse_action, shuffled_deck
from belote.rules import PRESETS, Rules
from belote.variants import DEFAULT_GAME, VARIANTS, UnknownVariant, find_variant
from games import GAMES, of_game

N, E, S, W = range(4)
#: Every game, and the classic game played counterclockwise.
MATCHES = {**{game: Rules(variant=game) for game in GAMES}, "counterclockwise": PRESETS["counterclockwise"]}


def play_some(rules: Rules, seed: int, steps: int) -> Deal:
    rng = random.Random(seed)
    deal = Deal(rules, seed % rules.players, shuffled_deck(rng))
    for _ in range(steps):
        if deal.phase == "done":
            break
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return deal


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(list(MATCHES)), seed=st.integers(0, 10**6), steps=st.integers(0, 80))
def test_the_view_carries_order_camps_players_and_hand_sizes(game: str, seed: int, steps: int) -> None:
    rules = MATCHES[game]
    deal = play_some(rules, seed, steps)
    n = rules.players
    for seat in (*range(n), None):
        v = deal.view(seat)
        assert v.order == tuple((deal.dealer + rules.step * (i + 1)) % n for i in range(n))
        assert v.camps == rules.game.camps(deal.taker)
        # Who played each card: the trick's leader, then each in turn.
        seats = [s for t in deal.tricks for s in t.seats(rules.step, n)] + [s for s, _ in v.trick]
        assert list(v.played_by) == seats and len(v.played_by) == len(v.played)
        assert v.hand_sizes == tuple(len(deal.view(s).hand) for s in range(n))
        masks = v.cards_played_by()
        assert [m.bit_count() for m in masks] == [seats.count(s) for s in range(n)]


#: Each seat's cards in hand while the bidding goes on, and when play starts (table cards apart).
HAND_SIZES = {
    "classic": ((5, 5, 5, 5), (8, 8, 8, 8)),
    "coinche": ((8, 8, 8, 8), (8, 8, 8, 8)),
    "three-handed": ((5, 5, 5), (8, 8, 8)),
    "two-handed": ((5, 5), (6, 6)),  # and ten cards on the table each
}


@pytest.mark.parametrize("variant", GAMES)
def test_hand_sizes_through_a_deal_of_each_game(variant: str) -> None:
    bidding, play = of_game(HAND_SIZES, variant)
    deal = Deal.from_seed(3, Rules(variant=variant))
    assert deal.view(None).hand_sizes == bidding
    bidder = make_bot("heuristic", take_extra=-200)  # someone takes at once
    while deal.phase == "bidding":
        deal.apply(bidder.act(deal.view(deal.to_move)))
    assert deal.phase == "play" and deal.view(None).hand_sizes == play


def test_camps_before_and_after_the_taking() -> None:
    three = Deal.from_seed(1, PRESETS["three-handed"], dealer=N)
    assert three.view(N).camps == (0, 1, 2)  # nobody plays with anybody yet
    three.apply(PASS)
    three.apply(TAKE)  # S takes
    assert three.view(N).camps == (1, 1, 0)
    assert Deal.from_seed(1).view(N).camps == (0, 1, 0, 1)


def taken(rules: Rules, *bids: str) -> Deal:
    deal = Deal.from_seed(11, rules, dealer=rules.players - 1)  # N bids first
    for b in bids:
        deal.apply(parse_action(b))
    assert deal.phase == "play"
    return deal


def test_score_deal_classic() -> None:
    v = taken(Rules(), "take").view(N)
    # N-S took 100 card points and belote is N's: made.
    r = v.score_deal((100, 62), (5, 3), (0, 0), N)
    assert (r.outcome, r.points) == ("made", (120, 62))
    # Dedans: 70 against 92, and E-W's tierce that scores.
    r = v.score_deal((70, 92), (3, 5), (0, 20), None)
    assert (r.outcome, r.points) == ("dedans", (0, 182))


def test_score_deal_coinche() -> None:
    v = taken(Rules(variant="coinche"), "110H", "pass", "pass", "pass").view(E)
    assert v.contract is not None and v.contract.bidder == N
    r = v.score_deal((113, 49), (6, 2), (0, 0), None)  # N-S 113: made
    assert (r.outcome, r.points) == ("made", (223, 49))
    r = v.score_deal((90, 72), (5, 3), (0, 0), None)  # N-S 90: failed
    assert (r.outcome, r.points) == ("dedans", (0, 270))


def test_score_deal_three_handed() -> None:
    v = taken(Rules(variant="three-handed"), "take").view(E)
    assert v.taker == N
    r = v.score_deal((70, 30, 25), (4, 2, 2), (0, 0, 0), None)
    assert (r.outcome, r.points) == ("made", (70, 30, 25))


def test_score_deal_two_handed() -> None:
    r = taken(Rules(variant="two-handed"), "take").view(N).score_deal((100, 62), (10, 6), (0, 0), E)
    assert (r.outcome, r.points) == ("made", (100, 82))


@pytest.mark.parametrize("game", MATCHES)
def test_score_deal_gives_the_result_of_a_deal_played_out(game: str) -> None:
    """At the end of a deal, the view's scoring of what each seat took is the deal's result."""
    m = Match(MATCHES[game], seed=5)
    rng = random.Random(5)
    while m.deal.result is None or m.deal.result.outcome == "thrown-in":
        if m.deal.result is not None:
            m = Match(MATCHES[game], seed=rng.randrange(1000))
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))])
    deal = m.deal if m.over else m.deals[-2]
    if deal.result is None:
        deal = m.deals[-1]
    v = deal.view(None)
    n = MATCHES[game].players
    cards, tricks = [0] * n, [0] * n
    for t in v.tricks:
        cards[t.winner] += t.points
        tricks[t.winner] += 1
    game = deal.variant
    declared = game.scoring_declarations(deal.rules, deal.declared, deal.order, deal.camps)
    belote = v.belote[0][0] if v.belote else None
    alone = tricks[deal.taker] == len(v.tricks)
    assert v.score_deal(game.by_team(cards), game.by_team(tricks), game.by_team(declared), belote, alone) == deal.result


def test_the_games_registry() -> None:
    assert list(VARIANTS) == ["classic", "coinche", "three-handed", "two-handed"]
    assert find_variant("two-handed").describe() == {
        "name": "two-handed",
        "title": "the two-handed game",
        "players": 2,
        "seats": ["N", "E"],
        "teams": ["N", "E"],
        "partners": False,
        "tricks": 16,
        "auction": "turned",
        "turned_card": True,
        "bidding_hand": 5,
        "playing_hand": 6,
        "table_cards": 10,
        "out_of_play": 0,
        "declarations": False,
        "sheet_entry": "sides",
    }
    assert find_variant("coinche").contracts and not find_variant("classic").contracts
    assert find_variant("three-handed").order(dealer=2, step=2) == (1, 0, 2)
    with pytest.raises(UnknownVariant, match="no game 'bridge'; the games are: classic, coinche"):
        find_variant("bridge")
    assert Rules(variant="three-handed").game is find_variant("three-handed")


#: The facts a game gives the edges, with their value in each game: (fact, {game: value}).
GAME_FACTS: list[tuple[str, dict[str, object]]] = [
    ("sheet_entry", {"classic": "sides", "coinche": "contract", "three-handed": "players", "two-handed": "sides"}),
    ("take_extra", {"classic": 0, "coinche": 0, "three-handed": 25, "two-handed": 20}),
    ("par_budget", {"classic": 10_000_000, "coinche": 10_000_000, "three-handed": 10_000_000, "two-handed": 1_000_000}),
    (
        "analysis_limit",
        {"classic": 10_000_000, "coinche": 10_000_000, "three-handed": 10_000_000, "two-handed": 1_000_000},
    ),
]


@pytest.mark.parametrize(("fact", "values"), GAME_FACTS, ids=[f for f, _ in GAME_FACTS])
def test_each_game_gives_its_facts(fact: str, values: dict[str, object]) -> None:
    assert {name: getattr(game, fact) for name, game in VARIANTS.items()} == values


def test_the_default_game_is_the_rules_default() -> None:
    assert DEFAULT_GAME in VARIANTS and Rules().variant == DEFAULT_GAME == "classic"
