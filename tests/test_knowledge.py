"""What a seat knows of the hidden hands is always true, and the deals drawn from it fit the view."""

from __future__ import annotations

import random

import pytest

from belote.cards import FULL_PACK, mask_of
from belote.game import PASS, TAKE, Deal, Match
from belote.knowledge import OUT, Knowledge
from belote.rules import PRESETS, Rules
from games import GAMES


def _play_random(m: Match, rng: random.Random) -> None:
    actions = m.legal_actions()
    m.apply(actions[rng.randrange(len(actions))])


def real_holdings(deal: Deal) -> list[int]:
    """What each holder of ``Knowledge`` really holds: the players' playable cards, then the cards
    out of play (three hands) or each player's face-down cards (two hands)."""
    n = deal.players
    hands = [deal.hand_mask(s) for s in range(n)]
    if n == 3:
        held = mask_of(deal.plays)
        for h in hands:
            held |= h
        return [*hands, FULL_PACK & ~held]
    if n == 2:
        under = deal.under
        assert under is not None
        downs = [0, 0]
        seats = deal.play_seats()
        on_trick = [(seats[i], c) for i, c in enumerate(deal.plays) if i >= len(deal.plays) - len(deal.trick)]
        for s in range(2):
            tops = [c for c in range(32) if hands[s] >> c & 1] + [c for seat, c in on_trick if seat == s]
            for c in tops:
                if under[c] >= 0 and not (hands[s] >> under[c] & 1) and under[c] not in deal.plays:
                    downs[s] |= 1 << under[c]
        return [*hands, *downs]
    return hands


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_knowledge_never_contradicts_the_real_hands(preset: str) -> None:
    rules = PRESETS[preset]
    for seed in range(40 if rules.players == 4 else 25):
        m = Match(rules, seed=seed)
        rng = random.Random(seed)
        while not m.over and len(m.deals) < 2:
            deal = m.deal
            if deal.phase == "play":
                real = real_holdings(deal)
                for seat in range(rules.players):
                    k = Knowledge.from_view(m.view(seat))
                    assert k.holders == len(real)
                    for s in range(k.holders):
                        assert real[s] & k.excluded[s] == 0, (preset, seed, s)
                        assert k.hands[s] & ~real[s] == 0, (preset, seed, s)
                        assert k.counts[s] == real[s].bit_count(), (preset, seed, seat, s)
            _play_random(m, rng)


@pytest.mark.parametrize("variant", GAMES)
def test_sampled_deals_fit_the_view(variant: str) -> None:
    rules = Rules(variant=variant)
    for seed in range(40):
        m = Match(rules, seed=seed)
        rng = random.Random(seed)
        while not m.over and len(m.deals) < 2:
            if m.deal.phase == "play":
                seat = m.to_move
                assert seat is not None
                view = m.view(seat)
                k = Knowledge.from_view(view)
                hands = k.sample(rng)
                assert hands[seat] & mask_of(view.hand) == mask_of(view.hand)
                assert hands[seat] == m.deal.hand_mask(seat)  # its hand and its face-up cards
                everything = mask_of(view.played)
                for s, h in enumerate(hands):
                    assert h & k.excluded[s] == 0
                    assert everything & h == 0
                    everything |= h
                assert everything == FULL_PACK
                if rules.players == 3:
                    assert hands[OUT].bit_count() == 8
                world, under = k.sample_world(rng)
                assert len(world) == rules.players
                if rules.players == 2:
                    assert under is not None
                    downs = [c for c in under if c >= 0]
                    assert len(set(downs)) == len(downs)
                    assert not any(w >> c & 1 for w in world for c in downs)
            _play_random(m, rng)


def test_a_player_who_did_not_follow_is_void() -> None:
    # Fixed deck: N leads, and the position is checked against what each seat holds.
    deal = Deal(Rules(), 3, list(range(32)))  # dealer W: N is next and leads
    deal.apply(TAKE)  # N takes the turned card
    # Play the first trick: everyone follows or not as the hands make them.
    while len(deal.plays) < 4:
        deal.apply(deal.legal_actions()[-1])
    led = deal.plays[0] >> 3
    view = deal.view(deal.to_move)
    k = Knowledge.from_view(view)
    for i, c in enumerate(deal.plays):
        seat = (0 + i) % 4
        if c >> 3 != led and seat != view.seat:
            assert k.excluded[seat] & (0xFF << (8 * led)) == (0xFF << (8 * led))


def test_the_taker_holds_the_turned_card_until_played() -> None:
    deal = Deal.from_seed(11)
    deal.apply(PASS)
    deal.apply(TAKE)
    taker = deal.taker
    assert taker is not None and deal.turned is not None
    for seat in range(4):
        if seat != taker:
            k = Knowledge.from_view(deal.view(seat))
            assert k.hands[taker] >> deal.turned & 1


def test_bidding_knowledge_places_five_cards_each() -> None:
    deal = Deal.from_seed(5)
    k = Knowledge.from_view(deal.view(0))
    hands = k.sample(random.Random(3))
    assert [h.bit_count() for h in hands] == [5, 5, 5, 5]
    assert deal.turned is not None
    assert not any(h >> deal.turned & 1 for h in hands)
