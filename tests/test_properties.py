"""Properties of every deal, over random seeds and random legal play (hypothesis).

The games come from ``play_game`` in ``conftest.py``: a seeded random deal under a few rule sets, with
each step's legal actions, every seat's view, the events and the record. The same function runs under
the C play state (in this process) and the plain Python one (in a worker), and both must agree exactly.
"""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from belote.cards import CARDS
from belote.game import SEATS, Deal, Match, shuffled_deck
from belote.record import replay, to_record
from belote.rules import Rules

PACK = {str(c) for c in CARDS}
CARD_RE = re.compile(r"^[789TJQKA][SHDC]$")
RULE_SETS = [
    {},
    {"direction": "counterclockwise"},
    {"undertrump": False},
    {"declarations": False},
    {"litige": "hold", "rounding": True},
]

seeds = st.integers(min_value=0, max_value=2**63)
rule_sets = st.sampled_from(RULE_SETS)
SETTINGS = settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])


def cards_in(obj: Any) -> set[str]:
    """Every string anywhere in a JSON object that is a card."""
    if isinstance(obj, str):
        return {obj} if CARD_RE.match(obj) else set()
    if isinstance(obj, dict):
        return set().union(*(cards_in(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(cards_in(v) for v in obj)) if obj else set()
    return set()


def check_game(game: dict[str, Any]) -> None:
    """Every invariant of one played deal (the dict of ``play_game``)."""
    record, result, steps, tricks = game["record"], game["result"], game["steps"], game["tricks"]
    assert game["undo_mismatch"] == [], "apply then undo (or copy) did not give back the exact state"

    for step in steps:
        assert step["legal"], "the player to move always has a legal action"
        assert step["action"] in step["legal"]
        if step["phase"] == "play":
            assert set(step["legal"]) <= set(step["hand"]), "legal cards come from the hand"
        else:
            assert step["phase"] == "bidding"
            assert set(step["legal"]) <= {"pass", "take", "S", "H", "D", "C"}

    if result["outcome"] == "thrown-in":
        assert record["bids"] == ["pass"] * 8
        assert record["plays"] == [] and tricks == []
        assert result["cards"] == {"NS": 0, "EW": 0} and result["points"] == {"NS": 0, "EW": 0}
    else:
        # Every card is played exactly once, in eight tricks of four.
        assert len(record["plays"]) == 32 and set(record["plays"]) == PACK
        assert len(tricks) == 8 and all(len(t[1]) == 4 for t in tricks)
        # 152 in the cards and 10 for the last trick.
        cards = result["cards"]
        assert cards["NS"] + cards["EW"] == 162
        assert sum(t[3] for t in tricks) == 162
        assert [sum(t[3] for t in tricks if t[2] % 2 == side) for side in (0, 1)] == [cards["NS"], cards["EW"]]
        tricks_won = [sum(1 for t in tricks if t[2] % 2 == side) for side in (0, 1)]
        declarations = game["declarations"]
        belote = [result["belote"]["NS"], result["belote"]["EW"]]
        points = [result["points"]["NS"], result["points"]["EW"]]
        if 0 in tricks_won:
            # Capot: 252 for the deal instead of 162 (250 when scores are rounded), declarations on top.
            side = tricks_won.index(8)
            capot = 250 if game["record"].get("rules", {}).get("rounding") else 252
            assert result["outcome"] == "capot"
            assert result["capot"] == ("NS", "EW")[side]
            own = declarations[side] if side == game["takers"] else sum(declarations)
            assert points[side] == capot + own + belote[side]
        else:
            assert result["outcome"] in ("made", "dedans", "litige")

    # The record replays to the same deal.
    again = replay(record)
    assert again["valid"] is True and "error" not in again
    assert again["result"] == result
    assert again["score_after"] == result["points"]
    assert again == game["replay"]


def check_views(game: dict[str, Any]) -> None:
    """No view holds another seat's card; legal actions only in the view of the seat to move."""
    assert game["leaks"] == []


@SETTINGS
@given(seed=seeds, rules=rule_sets)
def test_random_deal_invariants(random_game: Any, seed: int, rules: dict[str, Any]) -> None:
    game = random_game(seed, rules, True)
    check_game(game)
    check_views(game)


@settings(deadline=None, max_examples=25)
@given(seed=seeds, rules=rule_sets)
def test_same_game_under_c_and_pure(engines: Any, random_game: Any, seed: int, rules: dict[str, Any]) -> None:
    c = engines["c"].run(random_game, seed, rules, False)
    pure = engines["pure"].run(random_game, seed, rules, False)
    assert c["record"] == pure["record"]
    assert c["result"] == pure["result"]
    assert c["steps"] == pure["steps"]
    assert c["tricks"] == pure["tricks"]
    assert c == pure


def test_invariants_under_each_implementation(impl: Any, random_game: Any) -> None:
    """A fixed batch of deals, the same checks, under the C and then the plain play state."""
    for seed in range(12):
        game = impl.run(random_game, seed, RULE_SETS[seed % len(RULE_SETS)], True)
        check_game(game)
        check_views(game)


@settings(deadline=None, max_examples=60)
@given(seed=seeds, rules=rule_sets, data=st.data())
def test_apply_then_undo_restores_exactly(seed: int, rules: dict[str, Any], data: st.DataObject) -> None:
    """At a random point of a random deal, any legal action applied then undone changes nothing."""
    rng_deal = Deal(Rules.from_dict(rules), seed % 4, shuffled_deck(random.Random(seed)))
    steps = data.draw(st.integers(min_value=0, max_value=36), label="steps")
    for _ in range(steps):
        if rng_deal.phase == "done":
            break
        legal = rng_deal.legal_actions()
        rng_deal.apply(legal[data.draw(st.integers(0, len(legal) - 1))])
    if rng_deal.phase == "done":
        return

    def state(deal: Deal) -> Any:
        return ([deal.view(s).to_json() for s in (0, 1, 2, 3, None)], deal.events(), deal.hands, to_record(deal))

    before = state(rng_deal)
    for action in rng_deal.legal_actions():
        rng_deal.apply(action)
        assert rng_deal.undo() == action
        assert state(rng_deal) == before, f"undo of {action!r} did not restore the state"


@SETTINGS
@given(seed=seeds)
def test_view_never_holds_another_seats_card(seed: int) -> None:
    """Directly: at every step, each seat's view holds exactly its own hand and none of the others."""
    rng = random.Random(seed)
    deal = Deal(Rules(), rng.randrange(4), shuffled_deck(rng))
    while deal.phase != "done":
        for seat in range(4):
            view = deal.view(seat)
            assert view.hand == deal.hand(seat)
            others = {str(c) for o in range(4) if o != seat for c in deal.hand(o)}
            allowed = {str(deal.turned)} | {str(c) for _, _, cs in view.declarations for c in cs}
            assert cards_in(view.to_json()) & others <= allowed, SEATS[seat]
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])


@settings(deadline=None, max_examples=25)
@given(seed=seeds, rules=rule_sets, data=st.data())
def test_a_copied_match_plays_on_apart(seed: int, rules: dict[str, Any], data: st.DataObject) -> None:
    """A copy taken at any point plays on, and is undone past its deals' starts, without changing the
    match it was taken from; and it is the same match as one replayed from its actions."""
    match = Match(rules=Rules.from_dict({**rules, "target": 301}), seed=seed % 1000, first_dealer=seed % 4)
    rng = random.Random(seed)

    def state(m: Match) -> Any:
        views = [m.view(s).to_json() for s in (0, 1, 2, 3, None)]
        return views, m.events(), list(m.score), m.over, m.to_dict()

    def play(m: Match, n: int) -> None:
        for _ in range(n):
            if m.over:
                return
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])

    play(match, data.draw(st.integers(min_value=0, max_value=150), label="before"))
    before = state(match)
    copy = match.copy()
    assert state(copy) == before
    play(copy, data.draw(st.integers(min_value=1, max_value=80), label="after"))
    for _ in range(data.draw(st.integers(min_value=0, max_value=copy.action_count), label="undone")):
        copy.undo()
    assert state(match) == before
    replayed = Match.from_dict(copy.to_dict())
    assert state(replayed) == state(copy)


@settings(deadline=None, max_examples=25)
@given(seed=seeds, rules=rule_sets, data=st.data())
def test_match_saves_and_undoes_exactly(seed: int, rules: dict[str, Any], data: st.DataObject) -> None:
    """A match is its seed plus its actions: saved and loaded it is the same; undone it is the start."""
    match = Match(rules=Rules.from_dict({**rules, "target": 301}), seed=seed % 1000, first_dealer=seed % 4)

    def state(m: Match) -> Any:
        return [m.view(s).to_json() for s in (0, 1, 2, 3, None)], m.events(), list(m.score)

    start = state(match)
    rng = random.Random(seed)
    history = []
    for _ in range(data.draw(st.integers(min_value=0, max_value=120), label="actions")):
        if match.over:
            break
        history.append(state(match))
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    again = Match.from_dict(match.to_dict())
    assert state(again) == state(match)
    assert again.to_dict() == match.to_dict()
    while history:
        expected = history.pop()
        match.undo()
        assert state(match) == expected
    assert state(match) == start
