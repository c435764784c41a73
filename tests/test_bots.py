"""Every bot sees only its view: the same view gives the same decision, whatever the hidden cards are."""

from __future__ import annotations

import random

import pytest

from belote.bots import bot_names, make_bot
from belote.game import Match
from belote.knowledge import Knowledge

BOTS = ["random", "heuristic", "search"]


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
