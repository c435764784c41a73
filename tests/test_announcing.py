"""Announcing by hand: a player may keep its declarations quiet, or not say belote.

A card's action may carry what its player keeps to themselves (``JH/quiet``, ``KH/nobelote``): the
declarations it would announce with its first card, the belote it would say with the first of the
king and queen of trumps. What is kept quiet does not score, is shown to nobody, and travels in the
match's log and the deal record (``quiet``), so that a replay gives the same result.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games import GAMES

from belote.actions import NO_BELOTE, QUIET, TAKE, IllegalAction, action_str, parse_action, split_says
from belote.cards import parse_card
from belote.game import PLAY, Deal, Match
from belote.record import replay, to_record
from belote.rules import Rules

# Dealer West: North speaks and leads first. North holds a tierce to the nine of spades, East a
# tierce to the ten of diamonds (the best), South the king and queen of hearts; North takes hearts.
HANDS = [
    ["7S", "8S", "9S", "JH", "9H", "AH", "7C", "8C"],
    ["8D", "9D", "TD", "AS", "KS", "7H", "9C", "JC"],
    ["KH", "QH", "TH", "AD", "KD", "TS", "QS", "KC"],
    ["JS", "8H", "JD", "QD", "7D", "TC", "QC", "AC"],
]
N, E, S, W = range(4)


def deck_for(hands: list[list[str]], dealer: int, taker: int, turned: str) -> list[int]:
    """The deck that deals ``hands`` at four hands: three then two each from the player next to the
    dealer, the turned card, then three each (two and the turned card to the taker)."""
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    rest = {s: [c for c in hands[s] if c != turned] for s in range(4)}
    deck = [c for s in order for c in rest[s][:3]] + [c for s in order for c in rest[s][3:5]] + [turned]
    for s in order:
        deck += rest[s][5:]
    return [parse_card(c) for c in deck]


def taken() -> Deal:
    deal = Deal(Rules(), W, deck_for(HANDS, W, N, "AH"))
    deal.apply(TAKE)
    assert deal.phase == PLAY and deal.to_move == N
    return deal


def play_out(deal: Deal, says: dict[int, int]) -> Deal:
    """The lowest legal card each time; ``says[seat]`` rides on that seat's cards while it may."""
    while deal.phase == PLAY:
        seat = deal.to_move
        card = deal.legal_actions()[0]
        flags = says.get(seat, 0)
        may = deal._may_keep_quiet(seat, card)
        deal.apply(card | sum(f for f in (QUIET, NO_BELOTE) if flags & f and f in may))
    return deal


def test_a_card_with_what_its_player_keeps_quiet_reads_and_writes_back() -> None:
    action = parse_action("kh/QUIET/nobelote")
    assert split_says(action) == (parse_card("KH"), QUIET | NO_BELOTE)
    assert action_str(action) == "KH/quiet/nobelote"
    assert action_str(parse_action("7s/nobelote")) == "7S/nobelote"
    for bad in ("KH/", "KH/loud", "pass/quiet", "KH/quiet/quiet", "/quiet"):
        with pytest.raises(IllegalAction) as e:
            parse_action(bad)
        assert e.value.code == "not_an_action"


def test_each_seat_is_told_what_it_would_announce_and_nobody_else() -> None:
    deal = taken()
    assert deal.to_announce(N) == ("tierce",)
    assert deal.view(N).to_announce == ("tierce",)
    assert deal.view(E).to_announce == () and deal.view(None).to_announce == ()
    assert "to_announce" not in deal.view(E).to_json()
    deal.apply(deal.legal_actions()[0])
    assert deal.view(E).to_announce == ("tierce",)
    assert deal.view(N).to_announce == ()  # its first card is played
    deal.apply(deal.legal_actions()[0])
    assert deal.view(S).to_announce == ("belote",)  # no declaration, the king and queen of hearts


def test_the_best_declaration_kept_quiet_lets_the_other_side_score_its_own() -> None:
    announced = play_out(taken(), {})
    assert announced.result is not None and announced.result.declarations == (0, 20)
    quiet = play_out(taken(), {E: QUIET})
    assert quiet.result is not None and quiet.result.declarations == (20, 0)
    assert [s for s, _ in quiet.announced()] == [N]


def test_a_declaration_kept_quiet_is_shown_to_nobody() -> None:
    deal = taken()
    deal.apply(deal.legal_actions()[0])
    deal.apply(deal.legal_actions()[0] | QUIET)
    seen = [deal.view(s).to_json() for s in (N, S, W, None)]
    assert all(v["declarations"] == [{"seat": "N", "name": "tierce", "cards": []}] for v in seen)
    assert not [e for e in deal.events() if e["type"] == "declared" and e["seat"] == "E"]
    # A player who kept quiet looks exactly like one with nothing to announce.
    assert all("quiet" not in str(v) for v in seen)


def test_belote_not_said_scores_nothing_and_is_not_heard() -> None:
    said = play_out(taken(), {})
    assert said.result is not None and said.result.belote == (20, 0)
    assert [w for _, w in said.belote_words()] == ["belote", "rebelote"]
    silent = play_out(taken(), {S: NO_BELOTE})
    assert silent.result is not None and silent.result.belote == (0, 0)
    assert silent.belote_words() == []
    assert not [e for e in silent.events() if e.get("say")]


def test_keeping_quiet_where_there_is_nothing_to_say_is_refused_and_changes_nothing() -> None:
    deal = taken()
    deal.apply(deal.legal_actions()[0])  # North's first card
    north_again = deal.copy()
    while north_again.to_move != N:
        north_again.apply(north_again.legal_actions()[0])
    before = north_again.actions
    with pytest.raises(IllegalAction) as e:
        north_again.apply(north_again.legal_actions()[0] | QUIET)
    assert e.value.code == "nothing_to_keep_quiet" and e.value.details == {"what": "declarations"}
    assert north_again.actions == before
    with pytest.raises(IllegalAction) as e:  # East holds no belote
        deal.apply(deal.legal_actions()[0] | NO_BELOTE)
    assert e.value.code == "nothing_to_keep_quiet" and e.value.details == {"what": "belote"}
    assert "king and queen of trumps" in str(e.value)


def test_undo_takes_back_what_was_kept_quiet_with_the_card() -> None:
    deal = taken()
    deal.apply(deal.legal_actions()[0])
    card = deal.legal_actions()[0]
    deal.apply(card | QUIET)
    assert deal.quiet[E] == QUIET
    assert deal.undo() == card | QUIET
    assert deal.quiet == [0, 0, 0, 0] and deal.to_announce(E) == ("tierce",)


def test_the_record_and_the_match_carry_what_was_kept_quiet() -> None:
    deal = play_out(taken(), {E: QUIET, S: NO_BELOTE})
    record = to_record(deal)
    assert record["quiet"] == {"E": ["declarations"], "S": ["belote"]}
    replayed = replay(record)
    assert replayed["valid"] and deal.result is not None
    assert replayed["result"] == deal.result.to_json()
    assert replayed["declarations"]["EW"] == {"announced": [], "scored": 0}
    plain = dict(record)
    del plain["quiet"]
    assert replay(plain)["result"] != replayed["result"]


def test_a_record_that_keeps_quiet_what_was_never_there_is_refused() -> None:
    record = to_record(play_out(taken(), {}))
    record["quiet"] = {"W": ["belote"]}  # West never holds the king and queen of hearts
    out = replay(record)
    assert not out["valid"] and out["error"]["key"] in ("plays", "quiet")
    record["quiet"] = {"W": ["declarations"]}  # nor any declaration
    out = replay(record)
    assert not out["valid"] and out["error"]["key"] == "plays" and "nothing to keep quiet" in out["error"]["message"]


def test_a_match_log_with_quiet_cards_replays_to_the_same_score() -> None:
    match = Match(seed=2)
    rng = random.Random(1)
    while not match.over and len(match.deals) < 4:
        seat = match.to_move
        assert seat is not None
        action = rng.choice(match.legal_actions())
        deal = match.deal
        if deal.phase == PLAY:
            may = deal._may_keep_quiet(seat, action)
            action |= sum(f for f in may if rng.random() < 0.7)
        match.apply(action, seat=seat)
    data = match.to_dict()
    again = Match.from_dict(data)
    assert again.score == match.score and again.to_dict() == data


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), game=st.sampled_from(GAMES), chance=st.floats(0, 1))
def test_any_deal_with_things_kept_quiet_adds_up_and_replays(seed: int, game: str, chance: float) -> None:
    rules = Rules(variant=game)
    deal = Deal.from_seed(seed, rules)
    rng = random.Random(seed)
    while deal.phase != "done":
        action = rng.choice(deal.legal_actions())
        if deal.phase == PLAY:
            may = deal._may_keep_quiet(deal.to_move, action)
            action |= sum(f for f in may if rng.random() < chance)
        deal.apply(action)
    assert deal.result is not None
    quiet = {s for s, q in enumerate(deal.quiet) if q & QUIET}
    assert not quiet & {s for s, _ in deal.announced()}
    if any(q & NO_BELOTE for q in deal.quiet):
        assert deal.belote_seat() is None and not any(deal.result.belote)
    assert replay(to_record(deal))["result"] == deal.result.to_json()


def test_at_two_hands_a_belote_card_still_face_down_is_not_offered_to_say() -> None:
    """A queen of trumps lying face down under its owner's own card is unknown to them too: the
    seat is told of no belote (nor offered to keep it quiet) until both cards are in its sight."""
    from belote.cards import mask_of as masks
    from belote.declarations import belote_cards, belote_holder
    from belote.rules import PRESETS

    found = seen_both = 0
    for seed in range(400):
        match = Match(PRESETS["two-handed"], seed, seed % 2)
        deal = match.deal
        while deal.phase != PLAY and not match.over:
            match.apply(match.legal_actions()[-1 if deal.phase != PLAY else 0])
            deal = match.deal
        if deal.phase != PLAY or deal.mode >= 4:
            continue
        pair = belote_cards(deal.mode)
        holder = belote_holder(deal.start_hands, deal.mode)
        while holder is not None and deal.phase == PLAY and not masks(deal.plays) & pair:
            if deal.to_move == holder:
                hidden = bool(pair & ~deal.hand_mask(holder))
                said = "belote" in deal.to_announce(holder)
                assert said is not hidden, (seed, deal.plays)
                assert (NO_BELOTE in deal._may_keep_quiet(holder)) is not hidden
                found += hidden
                seen_both += not hidden
            deal.apply(deal.legal_actions()[0])
    assert found >= 5 and seen_both >= 5, (found, seen_both)
