"""Every bot sees only its view: the same view gives the same decision, whatever the hidden cards are."""

from __future__ import annotations

import random

import pytest

import belote.bots.coinche as coinche
import belote.bots.search as search
import belote.solver
from belote.bots import bot_names, make_bot
from belote.bots.heuristic import HeuristicBot, hand_worth
from belote.cards import mask_of
from belote.game import PASS, TAKE, Match, PlayerView
from belote.knowledge import Knowledge
from belote.rules import PRESETS

BOTS = ["random", "heuristic", "search", "learned"]


def test_every_bot_is_registered() -> None:
    assert set(BOTS) <= set(bot_names())
    with pytest.raises(ValueError, match="no bot named"):
        make_bot("oracle")


def _redeal(match: Match, seat: int, rng: random.Random) -> Match:
    """The same match with the cards hidden from ``seat`` dealt again among the others, consistently."""
    deal = match.deal
    hands = Knowledge.from_view(match.view(seat)).sample(rng)
    # Each other seat keeps the deck places it was dealt; its cards are now the drawn hand plus those it played.
    played = [0, 0, 0, 0]
    for i, c in enumerate(deal.plays):
        played[deal.seat_of_play(i)] |= 1 << c
    deck = list(deal.deck)
    places: dict[int, list[int]] = {s: [] for s in range(4)}
    start = deal.start_hands
    for i, c in enumerate(deck):
        for s in range(4):
            if start[s] >> c & 1 and not played[s] >> c & 1 and s != seat and c != deal.turned:
                places[s].append(i)
    for s in range(4):
        if s == seat:
            continue
        new_cards = [c for c in range(32) if hands[s] >> c & 1 and c != deal.turned]
        assert len(new_cards) == len(places[s])
        for i, c in zip(places[s], new_cards, strict=True):
            deck[i] = c
    twin = Match(match.rules, seed=match.seed, first_dealer=match.first_dealer)
    twin.deals[-1] = type(deal)(match.rules, deal.dealer, deck, deal.pending)
    for a in deal.actions:
        twin.apply(a)
    return twin


@pytest.mark.parametrize("name", BOTS)
def test_a_decision_does_not_depend_on_hidden_cards(name: str) -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(4):
        m = Match(seed=seed)
        while m.deal.phase == "bidding":
            m.apply(m.legal_actions()[-1])
        for _ in range(rng.randrange(0, 20)):
            m.apply(m.legal_actions()[0])
        seat = m.to_move
        assert seat is not None
        # A re-deal must also give the declarations already announced: draw until one does.
        for _ in range(200):
            twin = _redeal(m, seat, rng)
            if twin.view(seat) == m.view(seat):
                break
        assert twin.view(seat) == m.view(seat)
        others = [twin.deal.hand_mask(s) for s in range(4) if s != seat]
        assert others != [m.deal.hand_mask(s) for s in range(4) if s != seat] or len(m.deal.plays) > 24
        bot_a = make_bot(name, seed=11, think=0.3) if name == "search" else make_bot(name, seed=11)
        bot_b = make_bot(name, seed=11, think=0.3) if name == "search" else make_bot(name, seed=11)
        assert bot_a.act(m.view(seat)) == bot_b.act(twin.view(seat))
        checked += 1
    assert checked == 4


def test_search_bot_plays_a_whole_deal_legally_and_replays_exactly() -> None:
    def play(seed: int) -> list[int]:
        m = Match(seed=seed)
        bots = {s: make_bot("search", seed=s, think=0.25) for s in range(4)}
        while len(m.deals) == 1 and not m.over:
            seat = m.to_move
            assert seat is not None
            action = bots[seat].act(m.view(seat))
            assert action in m.legal_actions()
            m.apply(action, seat=seat)
        return list(m.deals[0].actions)

    assert play(21) == play(21)


# ----------------------------------------------------------------- the search bot's budget of nodes
def _first_views() -> dict[str, PlayerView]:
    """Decisions the search bot thinks long over: a classic first bid, its first card, a Coinche opening."""
    m = Match(seed=2)
    bid = m.view(m.to_move or 0)
    while m.deal.phase == "bidding":
        m.apply(m.legal_actions()[1] if TAKE in m.legal_actions() else m.legal_actions()[0])
    card = m.view(m.to_move or 0)
    c = Match(PRESETS["coinche"], seed=4)
    return {"bid": bid, "card": card, "coinche": c.view(c.to_move or 0)}


def _spending(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The nodes of every solve the search bot makes from now on."""
    spent: list[int] = []
    real = belote.solver.nodes

    def counted() -> int:
        spent.append(real())
        return spent[-1]

    monkeypatch.setattr(search, "nodes", counted)
    return spent


# The exact solves (no learned leaf: ``horizon=None``), whose nodes the budget bounds where it bites.
EXACT = {"horizon": None}


@pytest.mark.parametrize("kind", ["bid", "card", "coinche"])
def test_a_search_decision_spends_at_most_its_budget_of_nodes(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    view = _first_views()[kind]
    spent = _spending(monkeypatch)
    make_bot("search", seed=3, budget=0, **EXACT).act(view)
    unbounded = sum(spent)
    assert unbounded > 400_000  # the budget below bites
    spent.clear()
    action = make_bot("search", seed=3, budget=200_000, **EXACT).act(view)
    assert action in view.legal
    assert sum(spent) <= 200_000 + len(spent)  # each solve stopped visits one node past its limit
    spent.clear()
    assert make_bot("search", seed=3, budget=200_000, **EXACT).act(view) == action  # nodes, not seconds: it replays


@pytest.mark.parametrize("kind", ["bid", "card", "coinche"])
def test_a_budget_that_does_not_bite_changes_nothing(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    view = _first_views()[kind]
    spent = _spending(monkeypatch)
    action = make_bot("search", seed=3, budget=0, **EXACT).act(view)
    unbounded = list(spent)
    assert sum(unbounded) > 400_000
    spent.clear()
    # Room for all of it in each trump's or contract's part, and for each world within a world's share.
    budget = search.WORLD_SHARE * 3 * sum(unbounded)
    assert make_bot("search", seed=3, budget=budget, **EXACT).act(view) == action
    assert spent == unbounded


@pytest.mark.parametrize("kind", ["bid", "card", "coinche"])
def test_the_learned_leaf_spends_a_small_share_of_the_exact_nodes(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default bot searches the tricks ahead to the learned value of ``belote.solver.leaf``: the
    same decision in far fewer nodes, and the same action again for the same view."""
    view = _first_views()[kind]
    spent = _spending(monkeypatch)
    make_bot("search", seed=3, worlds=20, budget=0, **EXACT).act(view)
    exact = sum(spent)
    spent.clear()
    action = make_bot("search", seed=3, worlds=20, budget=0).act(view)
    assert sum(spent) * 10 < exact, (sum(spent), exact)
    assert action in view.legal
    assert make_bot("search", seed=3, worlds=20, budget=0).act(view) == action


def test_with_no_world_within_its_budget_the_count_or_the_heuristic_decides() -> None:
    views = _first_views()
    bot = make_bot("search", seed=3, budget=1)
    card = views["card"]
    assert bot.act(card) == HeuristicBot(3).act(card)
    coinche_view = views["coinche"]
    assert bot.act(coinche_view) == coinche.choose_bid(coinche_view, mask_of(coinche_view.hand))
    bid = views["bid"]
    assert bid.turned is not None and TAKE in bid.legal
    worth = hand_worth(mask_of(bid.hand) | 1 << bid.turned, bid.turned.suit)
    assert bot.act(bid) == (TAKE if worth > search.SearchBot().take_margin else PASS)


@pytest.mark.parametrize(
    ("hand", "counts"),
    [
        ("JH 9H AH 7H AS AD 8C 7S", (82.6, 135.7, 73.9, 77.9, 102.0, 79.7)),
        ("AS 10S KS AH 10H 7D 8D QC", (78.7, 71.5, 74.2, 65.9, 95.5, 52.3)),
        ("JS JH 9D 9C AC 7S 8H KD", (82.3, 82.3, 70.4, 67.8, 66.5, 90.4)),
    ],
)
def test_a_coinche_count_for_each_mode(hand: str, counts: tuple[float, ...]) -> None:
    """The fitted count of a hand, in clubs, hearts, diamonds, spades, no trumps and all trumps."""
    assert tuple(round(coinche.count(mask_of(hand.split()), mode), 6) for mode in range(6)) == counts


def test_the_coinche_features_of_a_hand() -> None:
    hand = mask_of(["JH", "9H", "AH", "7H", "AS", "AD", "8C", "7S"])
    assert coinche.no_trump_features(hand) == (3, 0, 0, 0, 1, 0, 0, 0, 9)
    assert coinche.all_trump_features(hand) == (1, 1, 0, 1, 3, 0, 2, 0, 1)
    # diamonds as trumps: the ace alone; outside, two aces and a singleton (clubs)
    assert coinche.suit_features(hand, 2) == (0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1)
