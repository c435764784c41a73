"""The card-play prior (``belote.bots.prior``): its inputs, its integer network, and the weight it gives
to drawn worlds, on constructed deals."""

from __future__ import annotations

import random

import numpy as np
import pytest

from belote.actions import parse_action
from belote.bots import make_bot
from belote.bots.prior import (
    INPUTS,
    PlayPrior,
    PriorModel,
    chance_table,
    default_prior,
    hand_inputs,
    public_inputs,
)
from belote.cards import mask_of, parse_card
from belote.game import PLAY, TAKE, Deal, Match
from belote.play import beats, legal_mask
from belote.rules import PRESETS, Rules
from test_announcing import deck_for

N, E, S, W = range(4)
HEARTS = 1


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def test_the_inputs_of_a_constructed_play() -> None:
    # Hearts trumps: hearts first among the inputs, then spades, diamonds, clubs.
    assert sorted(hand_inputs(HEARTS, mask_of(cards("JH 7S AS")))) == [4, 8, 15]
    # West plays third: North (an opponent) led the ace of spades, East (partner) the eight; the
    # seven of clubs fell in an earlier trick; West's side did not take.
    inputs = public_inputs(HEARTS, False, mask_of(cards("7C")), cards("AS 8S"), [False, True], False)
    assert inputs == [32 + 24, 96 + 15, 64 + 9, 128 + 2, 134, 137 + 1]
    # No trumps keeps the suits in their order; leading, nothing is on the table.
    assert public_inputs(4, True, 0, [], [], False) == [128, 133, 135]


def test_the_packaged_prior_gives_its_stored_logits() -> None:
    model = default_prior()
    assert model.w1.shape == (INPUTS, model.hidden) and model.w2.shape == (model.hidden, 32)
    lead = public_inputs(HEARTS, False, 0, [], [], False) + hand_inputs(
        HEARTS, mask_of(cards("7S AS 8D 9D QC KC 7H 8H"))
    )
    logits = model.logits(HEARTS, lead)
    assert [logits[c] for c in cards("7S AS 8D 9D QC KC 7H 8H")] == STORED_LEAD
    # What it learned: a defender leads the ace of a suit it holds, not the seven.
    assert logits[parse_card("AS")] - logits[parse_card("7S")] > 3 * 16


STORED_LEAD = [-11, 55, 11, -47, 4, -20, 11, -34]


def test_the_integer_network_gives_the_same_logits_in_plain_integers() -> None:
    model = default_prior()
    rng = random.Random(5)
    w1 = [[int(v) for v in row] for row in model.w1]
    w2 = [[int(v) for v in row] for row in model.w2]
    for _ in range(50):
        active = sorted(rng.sample(range(INPUTS), rng.randrange(1, 40)))
        h = [int(model.b1[j]) + sum(w1[i][j] for i in active) for j in range(model.hidden)]
        out = [int(model.b2[c]) + sum(w2[j][c] * h[j] for j in range(model.hidden) if h[j] > 0) for c in range(32)]
        expected = [(o + (1 << (model.shift - 1))) >> model.shift for o in out]
        assert list(model.logits_of(model.hidden_of(active)).astype(np.int64)) == expected


def test_the_chance_table_is_integers() -> None:
    table = chance_table(1.0)
    assert table[0] == 2**24 and table[16] == 6171993 and table[-1] == 0.0
    assert all(float(v).is_integer() for v in table)


def test_a_weights_file_of_the_wrong_shape_is_refused() -> None:
    m = default_prior()
    with pytest.raises(ValueError, match="W1"):
        PriorModel(m.w1[:10], m.b1, m.w2, m.b2, m.shift)
    with pytest.raises(ValueError, match="int16"):
        PriorModel(m.w1 * 4, m.b1, m.w2, m.b2, m.shift)
    with pytest.raises(ValueError, match="shift"):
        PriorModel(m.w1, m.b1, m.w2, m.b2, 0)


def test_the_packaged_prior_predicts_better_than_a_uniform_choice() -> None:
    meta = default_prior().meta
    assert float(meta["nll"]) < 0.8 * float(meta["uniform_nll"])


HANDS = [
    "7S AS 8D 9D QC KC 7H 8H",
    "AH JH 9H KD QD 8C 7C TD",
    "8S TS QS KS JD AC 9C TC",
    "JS 9S AD 7D JC QH TH KH",
]


def seven_of_spades_led() -> Deal:
    """East takes the ace of hearts; North, a defender, leads the seven of spades from its ace."""
    deal = Deal(Rules(), W, deck_for([h.split() for h in HANDS], W, E, "AH"))
    deal.apply(TAKE)
    assert deal.phase == PLAY and deal.to_move == N
    deal.apply(parse_action("7S"))
    return deal


def swapped(hands: list[int], a: int, b: int, card_a: str, card_b: str) -> list[int]:
    """``hands`` with ``card_a`` of seat ``a`` and ``card_b`` of seat ``b`` exchanged."""
    x, y = 1 << parse_card(card_a), 1 << parse_card(card_b)
    out = list(hands)
    out[a] = out[a] ^ x | y
    out[b] = out[b] ^ y | x
    return out


def test_a_lead_of_the_seven_makes_the_worlds_where_its_player_held_the_ace_unlikely() -> None:
    deal = seven_of_spades_led()
    view = deal.view(deal.to_move)
    now = [mask_of(cards(h)) & ~(1 << parse_card("7S")) for h in HANDS]
    other = next(s for s in (E, S, W) if s != view.seat)
    spade = "TS" if other == S else "9S" if other == W else None
    assert spade is not None
    real, ace_elsewhere = now, swapped(now, N, other, "AS", spade)
    w_real, w_else = PlayPrior(view).weights([real, ace_elsewhere])
    assert w_real < w_else / 5
    assert (round(w_real, 6), round(w_else, 6)) == STORED_LEAD_WEIGHTS


STORED_LEAD_WEIGHTS = (0.038881, 0.2653)


def test_forced_cards_and_no_play_by_the_others_weigh_nothing() -> None:
    deal = Deal(Rules(), W, deck_for([h.split() for h in HANDS], W, E, "AH"))
    deal.apply(TAKE)
    view = deal.view(N)
    now = [mask_of(cards(h)) for h in HANDS]
    assert PlayPrior(view).weights([now, now]) == [1.0, 1.0]  # nothing played yet


def test_the_weights_are_those_of_the_chances_of_each_play() -> None:
    """With the floor at 0 a world's weight is the product of the model's chances of the cards played."""
    deal = seven_of_spades_led()
    for c in deal.legal_actions()[:1]:
        deal.apply(c)
    view = deal.view(deal.to_move)
    assert view.seat is not None
    now = [mask_of(cards(h)) for h in HANDS]
    for c, s in zip(view.played, view.played_by, strict=True):
        now[s] &= ~(1 << int(c))
    prior = PlayPrior(view, floor=0.0)
    model = prior.model
    expected = 1.0
    for seat, card, later, _, _ in prior.plays:
        held = now[seat] | later
        trick = [int(c) for c in view.played[: len(view.played) - len(view.played) % 4]]
        assert not trick  # the first trick: nothing before, and the cards before this one on the table
        before = [int(c) for c, s in zip(view.played, view.played_by, strict=True)]
        on_table = before[: before.index(card)]
        seats = list(view.played_by[: len(on_table)])
        camps = view.camps
        partner_wins = len(on_table) == 1 and camps[seats[0]] == camps[seat]
        inputs = public_inputs(
            view.trump,
            camps[seat] == camps[view.taker],
            0,
            on_table,
            [camps[x] == camps[seat] for x in seats],
            partner_wins,
        ) + hand_inputs(view.trump, held)
        logits = model.logits(view.trump, inputs)
        best = on_table[0] if on_table else -1
        for c in on_table[1:]:
            if beats(view.trump, c, best):
                best = c
        mask = legal_mask(
            view.trump, held, best, partner_wins, view.rules.play.flags, on_table[0] >> 3 if on_table else -1
        )
        legal = [c for c in range(32) if mask >> c & 1]
        table = chance_table(1.0)
        top = max(logits[c] for c in legal)
        expected *= table[top - logits[card]] / sum(table[top - logits[c]] for c in legal)
    assert PlayPrior(view, floor=0.0).weights([now])[0] == pytest.approx(expected, rel=1e-12)


def test_the_search_bot_weighs_its_worlds_the_same_every_time() -> None:
    """With the prior the bot still decides from the view and its seed alone, and the prior changes
    some of its cards (the worlds it keeps are not the ones it drew)."""
    rules = PRESETS["classic"]
    views = []
    for seed in (3, 4):
        match = Match(rules, seed, seed % 4)
        bots = [make_bot("search", seed=seed * 7 + s) for s in range(4)]
        deal = match.deal
        while match.deal is deal and not match.over:
            view = match.view(match.to_move)
            if view.phase == "play" and len(view.legal) > 1 and len(view.tricks) >= 2:
                views.append(view)
            match.apply(bots[match.to_move].act(view))
    with_prior = [make_bot("search", seed=11, prior_pool=3).act(v) for v in views]
    assert [make_bot("search", seed=11, prior_pool=3).act(v) for v in views] == with_prior
    without = [make_bot("search", seed=11, prior_pool=0).act(v) for v in views]
    assert with_prior != without


def test_in_coinche_the_default_bot_keeps_every_world_it_draws() -> None:
    rules = PRESETS["coinche"]
    match = Match(rules, 5, 1)
    bots = [make_bot("search", seed=40 + s) for s in range(4)]
    views = []
    deal = match.deal
    while match.deal is deal and not match.over:
        view = match.view(match.to_move)
        if view.phase == "play" and len(view.legal) > 1 and view.played:
            views.append(view)
        match.apply(bots[match.to_move].act(view))
    assert len(views) >= 10
    assert [make_bot("search", seed=3).act(v) for v in views] == [
        make_bot("search", seed=3, prior_pool=0).act(v) for v in views
    ]
    assert any(
        make_bot("search", seed=3, contract_prior_pool=5).act(v) != make_bot("search", seed=3).act(v) for v in views
    )
