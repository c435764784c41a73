"""The double-dummy solver: both implementations against a plain minimax, and positions worked by hand.

The value of a position is what the side to move takes from there with best play on both sides:
card points (those on the table included), the ten of der for the last trick, and ninety more for
capot (seed 000: "Capot, all eight tricks to one side, scores 252 for the deal instead of 162").
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
from dataclasses import replace
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

import belote.solver
from belote.cards import CARDS, HEARTS, SPADES, mask_of, parse_card
from belote.game import TAKE, Deal
from belote.play import ALL_TRUMP, LAST_TRICK, NO_TRUMP, POINTS, PlayRules
from belote.playstate import PLAY, PlayState
from belote.rules import Rules
from belote.solver import Position, PositionError, alphabeta, card_values, reference, value
from games import GAMES, of_game

try:
    from belote.solver import _dds
except ImportError:  # built without a compiler: only the Python solver is tested
    _dds = None  # type: ignore[assignment]

MODE_NAMES = {SPADES: "S", HEARTS: "H", 2: "D", 3: "C", NO_TRUMP: "NT", ALL_TRUMP: "AT"}
IMPLS = [
    pytest.param(alphabeta, id="python"),
    pytest.param(_dds, id="c"),
]
UNDER, FREE = Rules(undertrump=True).play, Rules(undertrump=False).play


def play_rules(undertrump: bool) -> PlayRules:
    return UNDER if undertrump else FREE


def play_state(deal_seed: int, mode: int, step: int, undertrump: bool) -> PlayState:
    """The eight-card hands of a real deal (taken at the first chance), ready to play in ``mode``."""
    deal = Deal.from_seed(deal_seed)
    deal.apply(TAKE)
    state = PlayState()
    state.step = step
    state.play_flags = play_rules(undertrump).flags
    state.reset_play(deal.hands, mode, deal.leader)
    state.phase = PLAY
    return state


def random_position(seed: int, mode: int, step: int, undertrump: bool, max_left: int = 4) -> tuple[Position, PlayState]:
    """A deal played by random legal cards to 1..``max_left`` tricks to go, sometimes mid-trick.

    ``tricks_won`` is the real count, or (to reach capot more often) every trick so far to one side.
    """
    rng = random.Random(seed)
    state = play_state(seed, mode, step, undertrump)
    left = rng.randint(1, max_left)
    # Four whole tricks make the reference minimax slow (a quarter of a second on average): start
    # those inside the first trick.
    on_table = rng.choice((1, 2, 3) if left >= 4 else (0, 0, 1, 2, 3))
    for _ in range((8 - left) * 4 + on_table):
        legal = state.legal_actions()
        state.play_card(legal[rng.randrange(len(legal))])
    pos = Position.from_state(state)
    done = 8 - pos.tricks_left
    won = rng.choice((state.won_tricks, state.won_tricks, (done, 0), (0, done)))
    return Position(pos.hands, mode, pos.leader, pos.trick, step, play_rules(undertrump), won), state


RULE_SETS = [(mode, step, ut) for mode in MODE_NAMES for step in (1, 3) for ut in (True, False)]


def small_state(seed: int, players: int, mode: int, step: int, undertrump: bool) -> PlayState:
    """A three- or two-hand deal ready to play in ``mode`` (``step`` 1 or ``players - 1``).

    Three hands: 24 cards of the pack, 8 each, one seat (the taker) on a side of its own against the two
    others. Two hands: 16 tricks; each player holds 6 cards and has 5 more face up on the table, each
    over a card face down.
    """
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    state = PlayState()
    state.players, state.step, state.play_flags = players, step, play_rules(undertrump).flags
    if players == 3:
        taker, side = rng.randrange(3), rng.randrange(2)
        state.camps = [side if seat == taker else 1 - side for seat in range(3)]
        hands = [mask_of(deck[8 * seat : 8 * seat + 8]) for seat in range(3)]
    else:
        state.camps = [0, 1]
        state.ntricks = 16
        under = [-1] * 32
        hands = []
        for seat in range(2):
            cards = deck[16 * seat : 16 * seat + 16]
            for up, down in zip(cards[6:11], cards[11:], strict=True):
                under[up] = down
            hands.append(mask_of(cards[:11]))
        state.set_under(under)
    state.reset_play(hands, mode, rng.randrange(players))
    state.phase = PLAY
    return state


def random_small_position(
    seed: int, players: int, mode: int, step: int, undertrump: bool, max_left: int = 4
) -> tuple[Position, PlayState]:
    """A three- or two-hand deal played by random legal cards to 1..``max_left`` tricks to go, sometimes
    mid-trick; ``tricks_won`` as in ``random_position``. At two hands the cards with one face down under
    them are mostly kept back, so that some of those are still down near the end."""
    rng = random.Random(seed)
    state = small_state(seed, players, mode, step, undertrump)
    left = rng.randint(1, max_left)
    for _ in range((state.ntricks - left) * players + rng.randrange(players)):
        legal = state.legal_actions()
        under = state.under
        plain = [c for c in legal if under is None or under[c] < 0]
        pick = plain if plain and rng.random() < 0.8 else legal
        state.play_card(pick[rng.randrange(len(pick))])
    pos = Position.from_state(state)
    done = state.ntricks - pos.tricks_left
    won = rng.choice((state.won_tricks, state.won_tricks, (done, 0), (0, done)))
    return replace(pos, tricks_won=won), state


SMALL_RULE_SETS = [
    (players, mode, step, ut)
    for players in (3, 2)
    for mode in MODE_NAMES
    for step in sorted({1, players - 1})
    for ut in (True, False)
]


def small_rule_id(rules: tuple[int, int, int, bool]) -> str:
    players, mode, step, ut = rules
    return f"{players}-{rule_id((mode, 1 if step == 1 else 3, ut))}"


def rule_id(rules: tuple[int, int, bool]) -> str:
    mode, step, ut = rules
    return f"{MODE_NAMES[mode]}-{'cw' if step == 1 else 'ccw'}-{'under' if ut else 'free'}"


# ----------------------------------------------------------------- against the reference minimax
@pytest.mark.parametrize("rules", RULE_SETS, ids=rule_id)
def test_both_solvers_agree_with_the_reference(rules: tuple[int, int, bool]) -> None:
    """Ten random positions for each mode, direction and undertrump rule: 240 in all."""
    mode, step, ut = rules
    for k in range(10):
        seed = 1000 * RULE_SETS.index(rules) + k
        pos, _ = random_position(seed, mode, step, ut)
        want = reference.card_values(pos)
        assert want, pos
        assert card_values(pos) == want, pos
        assert value(pos) == max(want.values()), pos
        for impl in (alphabeta, _dds):
            if impl is None:
                continue
            assert impl.card_values(pos) == want, (impl.__name__, pos)
            assert impl.value(pos) == max(want.values()), (impl.__name__, pos)


def test_the_c_solver_searches_exactly_like_the_python_one() -> None:
    """Same algorithm, not only same answers: the same nodes and the same null-window probes."""
    for seed in range(60):
        mode, step, ut = RULE_SETS[seed % len(RULE_SETS)]
        pos, _ = random_position(seed, mode, step, ut, max_left=5)
        for name in ("card_values", "value"):
            assert getattr(alphabeta, name)(pos) == getattr(_dds, name)(pos)
            py, c = alphabeta.stats(), _dds.stats()
            assert (py["nodes"], py["probes"]) == (c["nodes"], c["probes"]), (name, pos)


def test_a_limit_of_nodes_stops_both_solvers_at_the_same_node() -> None:
    """A solve given exactly the nodes it needs answers as without a limit; one node fewer and both
    implementations stop there, having visited one node more than the limit (nodes, not seconds:
    where a bounded bot stops is a property of the position)."""
    for seed in range(24):
        mode, step, ut = RULE_SETS[seed % len(RULE_SETS)]
        pos, _ = random_position(seed, mode, step, ut, max_left=5)
        for name in ("card_values", "value"):
            want = getattr(_dds, name)(pos)
            needed = _dds.stats()["nodes"]
            for impl in (alphabeta, _dds):
                assert getattr(impl, name)(pos, needed) == want, (impl.__name__, name, pos)
                assert impl.stats()["nodes"] == needed
                if needed:
                    assert getattr(impl, name)(pos, needed - 1) is None, (impl.__name__, name, pos)
                    assert impl.stats()["nodes"] == needed


def test_a_solve_past_its_limit_raises_and_the_next_solve_is_whole() -> None:
    """``NodeLimit`` from the wrapper; the table left by the stopped search misleads no later solve."""
    pos, _ = random_position(5, HEARTS, 1, True, max_left=8)
    want = card_values(pos)
    needed = belote.solver.nodes()
    assert needed > 50
    with pytest.raises(belote.solver.NodeLimit, match="more than 50 nodes"):
        card_values(pos, limit=50)
    assert belote.solver.nodes() == 51
    assert card_values(pos, limit=needed) == want
    assert value(pos) == max(want.values())
    with pytest.raises(ValueError, match="0 or more"):
        value(pos, limit=-1)


@pytest.mark.parametrize("impl", IMPLS)
def test_value_is_the_value_of_the_best_card(impl: ModuleType) -> None:
    for seed in range(12):
        mode, step, ut = RULE_SETS[(5 * seed) % len(RULE_SETS)]
        pos, state = random_position(seed, mode, step, ut, max_left=6)
        vals = impl.card_values(pos)
        assert set(vals) == set(state.legal_actions())
        assert impl.value(pos) == max(vals.values())


# ----------------------------------------------------------------- three and two hands
@pytest.mark.parametrize("rules", SMALL_RULE_SETS, ids=small_rule_id)
def test_three_and_two_hands_both_solvers_agree_with_the_reference(rules: tuple[int, int, int, bool]) -> None:
    """Six random positions for each number of hands, mode, direction and undertrump rule: 216 in all."""
    players, mode, step, ut = rules
    for k in range(6):
        seed = 1000 * SMALL_RULE_SETS.index(rules) + k
        pos, state = random_small_position(seed, players, mode, step, ut)
        want = reference.card_values(pos)
        assert set(want) == set(state.legal_actions()), pos
        assert card_values(pos) == want, pos
        for impl in (alphabeta, _dds):
            assert impl.card_values(pos) == want, (impl.__name__, pos)
            assert impl.value(pos) == max(want.values()), (impl.__name__, pos)


def test_two_hand_positions_keep_cards_face_down() -> None:
    """The random two-hand positions above do test cards face down: most have some."""
    rules = [r for r in SMALL_RULE_SETS if r[0] == 2]
    down = [
        random_small_position(1000 * SMALL_RULE_SETS.index(r) + k, *r)[0].hidden != 0 for r in rules for k in range(6)
    ]
    assert sum(down) > len(down) // 2


def test_three_and_two_hands_the_c_solver_searches_exactly_like_the_python_one() -> None:
    for seed in range(48):
        players, mode, step, ut = SMALL_RULE_SETS[seed % len(SMALL_RULE_SETS)]
        pos, _ = random_small_position(seed, players, mode, step, ut, max_left=5)
        for name in ("card_values", "value"):
            assert getattr(alphabeta, name)(pos) == getattr(_dds, name)(pos)
            py, c = alphabeta.stats(), _dds.stats()
            assert (py["nodes"], py["probes"]) == (c["nodes"], c["probes"]), (name, pos)


def led_over_a_card_face_down(seed: int, mode: int, undertrump: bool, left: int) -> Position | None:
    """A two-hand deal played at random to ``left`` tricks to go, where the leader then leads a card with
    another face down under it (None if the leader has none): the next card decides a trick whose taking
    turns up a card, which the table's key after it must count."""
    rng = random.Random(seed)
    state = small_state(seed, 2, mode, 1, undertrump)
    while len(state.tricks) < 16 - left:
        legal = state.legal_actions()
        under = state.under
        assert under is not None
        plain = [c for c in legal if under[c] < 0]
        pick = plain if plain and rng.random() < 0.8 else legal
        state.play_card(pick[rng.randrange(len(pick))])
    under = state.under
    assert under is not None
    tops = [c for c in state.legal_actions() if under[c] >= 0]
    if not tops:
        return None
    state.play_card(rng.choice(tops))
    return Position.from_state(state)


def test_two_hands_a_card_led_over_one_face_down() -> None:
    """Six tricks to go, C and Python search alike (the table's key after the trick counts the card that
    turns up); three to go, both agree with the reference."""
    checked = 0
    for seed in range(40):
        mode, ut = seed % 6, seed % 4 < 2
        deep = led_over_a_card_face_down(seed, mode, ut, 6)
        if deep is not None:
            got = alphabeta.card_values(deep)
            py = alphabeta.stats()
            assert _dds.card_values(deep) == got
            assert (py["nodes"], py["probes"]) == (_dds.stats()["nodes"], _dds.stats()["probes"]), deep
            checked += 1
        short = led_over_a_card_face_down(seed, mode, ut, 3)
        if short is not None:
            want = reference.card_values(short)
            assert alphabeta.card_values(short) == want == _dds.card_values(short), short
    assert checked >= 30


def test_four_hands_with_the_sides_named_the_other_way_round() -> None:
    """Camps (1, 0, 1, 0) are the usual sides under other names (and take the C solver's general path):
    with the tricks won named the other way round too, every value is the same."""
    for seed in range(24):
        mode, step, ut = RULE_SETS[seed % len(RULE_SETS)]
        pos, _ = random_position(seed, mode, step, ut, max_left=5)
        swapped = replace(pos, camps=(1, 0, 1, 0), tricks_won=pos.tricks_won[::-1])
        want = card_values(pos)
        assert card_values(replace(pos, camps=(0, 1, 0, 1))) == want
        for impl in (alphabeta, _dds):
            assert impl.card_values(swapped) == want, (impl.__name__, pos)


@pytest.mark.parametrize("players", [3, 2])
def test_three_and_two_hands_the_best_line_played_out_by_the_engine_scores_the_value(players: int) -> None:
    """As at four hands: each player plays a card of the best value for their camp, and the play state
    (which turns the cards face down up itself, and gives the ten of der to its last trick) agrees."""
    checked = 0
    for seed in range(30):
        _, mode, step, ut = SMALL_RULE_SETS[(7 * seed) % len(SMALL_RULE_SETS)]
        state = random_small_position(seed, players, mode, 1 if step == 1 else players - 1, ut, max_left=4)[1]
        pos = Position.from_state(state)
        if min(pos.tricks_won) == 0:
            continue
        side = state.camps[pos.to_move]
        before = state.won
        expected = value(pos)
        while state.phase == PLAY:
            vals = card_values(Position.from_state(state))
            best = max(vals.values())
            state.play_card(min(c for c, v in vals.items() if v == best))
        assert state.won[side] - before[side] == expected, pos
        checked += 1
    assert checked >= 10


def test_three_hands_the_defenders_play_together() -> None:
    """E (seat 1) plays alone at hearts against N and S. N leads the ace of spades: S, with no spade,
    need not trump a partner's trick and throws the ace of diamonds, keeping the jack of trumps for
    the last trick: the defenders take all 11 + 11 + 20 and the ten of der. Had S played with E (and
    N alone), S would have to trump the ace, and take the last trick with the ace of diamonds."""
    three = tuple(mask_of(h.split()) for h in ("AS 7C", "7S 8C", "AD JH"))
    pos = Position(three, HEARTS, 0, tricks_won=(3, 3), camps=(0, 1, 0))
    for impl in (alphabeta, _dds):
        assert impl.card_values(pos) == {parse_card("AS"): 52, parse_card("7C"): 52}
    assert reference.card_values(pos) == {parse_card("AS"): 52, parse_card("7C"): 52}
    # N alone: after the ace of spades, S must trump with the jack, then leads the ace of diamonds.
    alone = replace(pos, camps=(0, 1, 1))
    assert reference.card_values(alone)[parse_card("AS")] == 0
    for impl in (alphabeta, _dds):
        assert impl.card_values(alone) == reference.card_values(alone)
    # The defenders having taken the six tricks before: capot.
    assert value(replace(pos, tricks_won=(6, 0))) == 52 + 90


@pytest.mark.parametrize("impl", IMPLS)
def test_two_hands_the_card_under_turns_up_when_the_trick_is_taken(impl: ModuleType) -> None:
    """N's ace of hearts lies over the jack of trumps (spades), E holds two hearts. The ace takes the
    first trick (11), the jack turns up and takes the last: 20 and the ten of der."""
    under = [-1] * 32
    under[parse_card("AH")] = parse_card("JS")
    two = (mask_of(["AH"]), mask_of(["7H", "8H"]))
    pos = Position(two, SPADES, 0, tricks_won=(7, 7), under=tuple(under))
    assert pos.tricks_left == 2 and pos.hidden == mask_of(["JS"])
    assert impl.card_values(pos) == {parse_card("AH"): 41}
    # With E to lead, E's seven goes under N's ace, and so on: N still takes both tricks.
    assert impl.value(replace(pos, leader=1)) == 0
    # Capot: every trick of the sixteen to N.
    assert impl.value(replace(pos, tricks_won=(14, 0))) == 41 + 90


def test_the_best_line_played_out_by_the_engine_scores_the_value() -> None:
    """Each player in turn plays a card of the best value for their side; the engine's count agrees.

    With capot out of reach for both sides the deal is zero-sum (the points left are shared), so
    each side playing for its own value is the minimax line.
    """
    checked = 0
    for seed in range(40):
        mode, step, ut = RULE_SETS[(7 * seed) % len(RULE_SETS)]
        state = random_position(seed, mode, step, ut, max_left=5)[1]
        pos = Position.from_state(state)  # the tricks really won, not the ones random_position may give
        if min(pos.tricks_won) == 0:
            continue
        side = pos.to_move & 1
        before = state.won
        held = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
        left = sum(POINTS[mode][c] for c in range(32) if held >> c & 1) + sum(POINTS[mode][c] for c in pos.trick)
        expected = value(pos)
        while state.phase == PLAY:
            vals = card_values(Position.from_state(state))
            best = max(vals.values())
            state.play_card(min(c for c, v in vals.items() if v == best))
        assert state.won[side] - before[side] == expected, pos
        assert sum(state.won) - sum(before) == left + LAST_TRICK
        checked += 1
    assert checked >= 10


# ----------------------------------------------------------------- positions worked by hand
def hands(*cards: str) -> tuple[int, int, int, int]:
    """Four hands, N E S W, each written as cards separated by spaces."""
    h = [mask_of(text.split()) for text in cards]
    return (h[0], h[1], h[2], h[3])


@pytest.mark.parametrize("impl", IMPLS)
def test_the_last_trick_is_its_points_and_the_ten_of_der(impl: ModuleType) -> None:
    four = hands("JH", "9H", "AS", "7D")
    # N leads the jack of trumps: 20 + 14 + 11 + 0, and 10 for the last trick.
    assert impl.value(Position(four, HEARTS, 0, (), 1, UNDER, (3, 4))) == 55
    # E/W (W to move, after N, E, S) take nothing from it.
    assert impl.card_values(
        Position(
            (0, 0, 0, mask_of(["7D"])), HEARTS, 0, tuple(parse_card(c) for c in ("JH", "9H", "AS")), 1, UNDER, (3, 4)
        )
    ) == {parse_card("7D"): 0}
    # Counterclockwise, the same cards: N leads, W plays next; N still wins.
    assert impl.value(Position(four, HEARTS, 0, (), 3, UNDER, (3, 4))) == 55
    # At no trumps the jack counts 2 and the ace 19; whoever leads wins, nobody can follow.
    assert impl.value(Position(four, NO_TRUMP, 0, (), 1, UNDER, (3, 4))) == 2 + 19 + LAST_TRICK
    assert impl.value(Position(four, NO_TRUMP, 3, (), 1, UNDER, (3, 4))) == 2 + 19 + LAST_TRICK
    # At all trumps, the jack 14, the nine 9, the ace 6: the jack of hearts beats the nine.
    assert impl.value(Position(four, ALL_TRUMP, 1, (), 1, UNDER, (3, 4))) == 0
    assert impl.value(Position(four, ALL_TRUMP, 0, (), 1, UNDER, (3, 4))) == 14 + 9 + 6 + LAST_TRICK


@pytest.mark.parametrize("impl", IMPLS)
def test_capot_counts_252(impl: ModuleType) -> None:
    # N and S hold every trump and every ace and the ten of spades: they take all eight tricks.
    ns = "JH 9H AH TH AS AD AC TS", "KH QH 8H 7H TD TC KS KD"
    rest = [str(CARDS[c]) for c in range(32) if not mask_of(" ".join(ns).split()) >> c & 1]
    deal = hands(ns[0], " ".join(rest[:8]), ns[1], " ".join(rest[8:]))
    assert impl.value(Position(deal, HEARTS, 0, (), 1, UNDER, (0, 0))) == 252
    assert set(impl.card_values(Position(deal, HEARTS, 0, (), 1, UNDER, (0, 0))).values()) == {252}
    # After the jack is led, E's side is to move and takes nothing.
    after_jack = (deal[0] & ~mask_of(["JH"]), *deal[1:])
    assert impl.value(Position(after_jack, HEARTS, 0, (parse_card("JH"),), 1, UNDER, (0, 0))) == 0
    # Three tricks from the end, N and S having taken the first five: the rest, the ten of der and capot.
    end = hands("AS AD AC", "7S 8S 9S", "TS TD TC", "7D 8D 9D")
    points = 11 * 3 + 10 * 3
    assert impl.value(Position(end, HEARTS, 0, (), 1, UNDER, (5, 0))) == points + LAST_TRICK + 90
    # One trick to E and W earlier in the deal, and capot is gone.
    assert impl.value(Position(end, HEARTS, 0, (), 1, UNDER, (4, 1))) == points + LAST_TRICK


@pytest.mark.parametrize("impl", IMPLS)
def test_undertrump_rule(impl: ModuleType) -> None:
    """N leads the ace of spades, E trumps with the jack, S has no spade and cannot overtrump.

    Undertrump (the default): S must still trump with the seven, and E and W take the last trick too;
    N does better to lead the seven of clubs (4). Free: S throws the ten of diamonds and keeps the seven
    of trumps to ruff E's eight of clubs: 4 + 10.
    """
    deal = hands("AS 7C", "JH 8C", "7H TD", "9S KC")
    c = parse_card
    assert impl.card_values(Position(deal, HEARTS, 0, (), 1, UNDER, (3, 3))) == {c("AS"): 0, c("7C"): 4}
    assert impl.card_values(Position(deal, HEARTS, 0, (), 1, FREE, (3, 3))) == {c("AS"): 14, c("7C"): 4}


@pytest.mark.parametrize("impl", IMPLS)
def test_cards_side_by_side_are_not_equivalent_when_their_points_differ(impl: ModuleType) -> None:
    """E holds the queen and seven of trumps, the eight is gone: no card of another hand lies between.

    Either one loses to N's nine, and the other wins the last trick; but the card led is N's: the
    seven gives nothing, the queen gives 3. So the solver must search both (equivalent cards must also
    be worth the same points).
    """
    deal = hands("9S 7D", "7S QS", "TH AD", "9H QH")
    vals = impl.card_values(Position(deal, SPADES, 1, (), 1, UNDER, (4, 2)))
    assert vals == {parse_card("7S"): 26, parse_card("QS"): 23}
    assert vals == reference.card_values(Position(deal, SPADES, 1, tricks_won=(4, 2)))


@pytest.mark.parametrize("impl", IMPLS)
def test_equivalent_cards_get_one_value(impl: ModuleType) -> None:
    # At no trumps the nine, eight and seven of spades are worth nothing and N holds all three.
    deal = hands("7S 8S 9S", "7H 8H 9H", "7D 8D 9D", "7C 8C 9C")
    vals = impl.card_values(Position(deal, NO_TRUMP, 0, (), 1, UNDER, (2, 3)))
    assert vals == {parse_card(x): 10 for x in ("7S", "8S", "9S")}


@pytest.mark.parametrize("impl", IMPLS)
def test_a_card_of_another_hand_between_breaks_the_equivalence(impl: ModuleType) -> None:
    """N's nine and seven of spades are both worth nothing, but E's eight lies between them: the nine
    wins the trick and keeps the lead for the seven, which then takes E's ace and W's ten."""
    deal = hands("9S 7S", "8S AH", "7H 8H", "9H TH")
    vals = impl.card_values(Position(deal, NO_TRUMP, 0, (), 1, UNDER, (3, 3)))
    assert vals == {parse_card("9S"): 19 + 10 + LAST_TRICK, parse_card("7S"): 0}


@pytest.mark.parametrize("impl", IMPLS)
def test_a_finished_deal_is_worth_nothing_more(impl: ModuleType) -> None:
    assert impl.value(Position((0, 0, 0, 0), HEARTS, 2, (), 1, UNDER, (8, 0))) == 0
    assert impl.card_values(Position((0, 0, 0, 0), HEARTS, 2, (), 1, UNDER, (8, 0))) == {}
    assert Position((0, 0, 0, 0), HEARTS, 2).tricks_left == 0


# ----------------------------------------------------------------- whole deals
def test_whole_deals_c_and_python_agree() -> None:
    """The first card of a deal, every card valued; two deals quick enough for the Python solver."""
    for seed in (32, 0):
        deal = Deal.from_seed(seed)
        deal.apply(TAKE)
        pos = Position.from_state(deal)
        assert pos.tricks_left == 8
        got = _dds.card_values(pos)
        assert got == alphabeta.card_values(pos)
        assert set(got) == set(deal.legal_actions())
        assert _dds.value(pos) == max(got.values())


@pytest.mark.parametrize("mode", MODE_NAMES, ids=MODE_NAMES.values())
def test_whole_deals_in_every_mode(mode: int) -> None:
    for seed in range(3):
        state = play_state(seed, mode, 1 + 2 * (seed & 1), seed != 1)
        pos = Position.from_state(state)
        got = _dds.card_values(pos)
        assert set(got) == set(state.legal_actions())
        assert _dds.value(pos) == max(got.values())
        assert all(0 <= v <= 252 for v in got.values())


def test_a_deal_in_play_is_a_position() -> None:
    deal = Deal.from_seed(3)
    deal.apply(TAKE)
    for _ in range(6):
        deal.apply(deal.legal_actions()[0])
    pos = Position.from_state(deal)
    assert pos.trick == tuple(deal.trick) and pos.to_move == deal.to_move and pos.tricks_left == 7
    assert set(card_values(pos)) == set(deal.legal_actions())


# ----------------------------------------------------------------- positions that cannot be
@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"hands": hands("JH", "JH", "AS", "7D")}, "held by two seats"),
        ({"hands": hands("JH 9H", "7S", "AS", "7D")}, "seat 1 holds 1 cards; .* should hold 2"),
        ({"trick": (parse_card("JH"),)}, "still in a hand"),
        ({"mode": 6}, "trump mode"),
        ({"step": 2}, "step 1 or 3"),
        ({"hands": hands("JH", "9H", "AS", "7D")[:1]}, "two to four masks"),
        ({"camps": (0, 1, 0)}, "camps gives each of the 4 seats"),
        ({"camps": (0, 0, 0, 0)}, "both sides"),
        ({"camps": (0, 2, 0, 1)}, "0 or 1"),
        ({"under": (-1,) * 31}, "32 cards"),
        ({"under": (32,) + (-1,) * 31}, "32 cards"),
    ],
)
def test_impossible_positions_are_refused(kwargs: dict[str, Any], words: str) -> None:
    base: dict[str, Any] = {"hands": hands("JH", "9H", "AS", "7D"), "mode": HEARTS, "leader": 0}
    with pytest.raises(PositionError, match=words):
        Position(**{**base, **kwargs})


def under(*pairs: str) -> tuple[int, ...]:
    """``under("AH JS", ...)``: the jack of spades lies under the ace of hearts..."""
    out = [-1] * 32
    for pair in pairs:
        top, down = pair.split()
        out[parse_card(top)] = parse_card(down)
    return tuple(out)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        # Three hands: seats 0..2, steps 1 and 2, two cards on the table at most.
        ({"hands": (mask_of(["JH"]), mask_of(["9H"]), mask_of(["AS"])), "leader": 3}, "leader is a seat 0..2"),
        ({"hands": (mask_of(["JH"]), mask_of(["9H"]), mask_of(["AS"])), "step": 3}, "step 1 or 2"),
        ({"hands": (0, 0, 0), "trick": tuple(map(parse_card, ("JH", "9H", "AS")))}, "at most 2 cards"),
        # Two hands: a card face down counts in its owner's hand...
        (
            {"hands": (mask_of(["AH"]), mask_of(["7H", "8H", "9H"])), "under": under("AH JS")},
            "seat 0 holds 2 cards .1 of them face",
        ),
        # ... cannot be held too, lie under two cards, nor have another under it.
        ({"hands": (mask_of(["AH", "JS"]), mask_of(["7H", "8H"])), "under": under("AH JS")}, "face down is also in"),
        ({"hands": (mask_of(["AH"]), mask_of(["7H"])), "under": under("AH 8H", "7H 8H")}, "face down is also"),
        ({"hands": (mask_of(["AH"]), mask_of(["7H"])), "under": under("AH AH")}, "face down is also"),
        (
            {"hands": (mask_of(["AH", "AS"]), mask_of(["7H", "8H", "9H", "TH"])), "under": under("AH JS", "AS JS")},
            "two cards lie over the same card",
        ),
        (
            {"hands": (mask_of(["AH"]), mask_of(["7H", "8H", "9H"])), "under": under("AH JS", "JS QS")},
            "has another under it",
        ),
    ],
)
def test_impossible_positions_of_three_and_two_hands_are_refused(kwargs: dict[str, Any], words: str) -> None:
    base: dict[str, Any] = {"mode": HEARTS, "leader": 0}
    with pytest.raises(PositionError, match=words):
        Position(**{**base, **kwargs})


def test_positions_of_three_and_two_hands() -> None:
    three = Position((0, mask_of(["9H"]), mask_of(["JH"])), HEARTS, 0, trick=(parse_card("AS"),), step=2)
    assert (three.players, three.to_move, three.tricks_left, three.sides) == (3, 2, 1, (0, 1, 0))
    # A card face down under one on the table is still in play: it turns up when that trick is taken.
    two = Position((0, mask_of(["7H", "8H"])), SPADES, 0, trick=(parse_card("AH"),), under=under("AH JS"))
    assert (two.to_move, two.tricks_left, two.hidden) == (1, 2, mask_of(["JS"]))
    assert value(two) == 0  # E has only hearts under the ace: the ace and then the jack of trumps win
    # Under a card played earlier, the card named has long turned up: nothing is looked at.
    assert Position((mask_of(["JS"]), mask_of(["7H"])), HEARTS, 0, under=under("AH JS")).hidden == 0


def test_a_deal_of_three_or_two_hands_in_play_is_a_position() -> None:
    for players in (3, 2):
        state = small_state(5, players, HEARTS, 1, True)
        for _ in range(7):
            state.play_card(state.legal_actions()[0])
        pos = Position.from_state(state)
        assert pos.hands == tuple(state.hands) and pos.camps == tuple(state.camps) and pos.under == state.under
        assert pos.trick == tuple(state.trick) and pos.to_move == state.to_move
        assert pos.tricks_left == state.ntricks - len(state.tricks)


def unchecked(*fields: Any) -> SimpleNamespace:
    """A position's fields, in the order of ``Position``'s, that ``Position`` itself is not asked to check."""
    names = [f.name for f in dataclasses.fields(Position)]
    defaults = {f.name: f.default for f in dataclasses.fields(Position)}
    return SimpleNamespace(**{**defaults, **dict(zip(names, fields, strict=False))})


def test_the_c_solver_checks_what_it_is_given() -> None:
    """The C solver reads a position by its fields' names, and checks it as ``Position`` does."""
    with pytest.raises(ValueError):
        _dds.value(unchecked(hands("JH 9H", "7S", "AS", "7D"), HEARTS, 0, (), 1, UNDER, (0, 0)))
    with pytest.raises(ValueError):
        _dds.card_values(unchecked(hands("JH", "9H", "AS", "7D"), 9, 0, (), 1, UNDER, (0, 0)))
    four = hands("JH", "9H", "AS", "7D")
    for camps in ((0, 1, 0), (1, 1, 1, 1), (0, 2, 0, 1)):
        with pytest.raises(ValueError):
            _dds.value(unchecked(four, HEARTS, 0, (), 1, UNDER, (0, 0), camps, None))
    with pytest.raises(ValueError):
        _dds.value(unchecked(four, HEARTS, 0, (), 2, UNDER, (0, 0), None, None))
    two = (mask_of(["AH"]), mask_of(["7H"]))
    for bad in (under("AH JS"), under("AH 7H"), (-1,) * 31, (-2,) + (-1,) * 31):
        with pytest.raises(ValueError):
            _dds.value(unchecked(two, HEARTS, 0, (), 1, UNDER, (0, 0), None, bad))
    assert _dds.value(unchecked(two, HEARTS, 0, (), 1, UNDER, (0, 0), (0, 1), under())) == 11 + 10 + 90


@pytest.mark.parametrize(
    "env, module",
    [({}, "belote.solver._dds"), ({"BELOTE_PURE_PYTHON": "1"}, "belote.solver.alphabeta")],
    ids=["default", "pure"],
)
def test_the_implementation_in_use(env: dict[str, str], module: str) -> None:
    if module.endswith("_dds") and _dds is None:
        pytest.fail("the C solver is not built: pip install . builds it with the system compiler")
    environ = {k: v for k, v in os.environ.items() if k != "BELOTE_PURE_PYTHON"} | env
    out = subprocess.run(
        [sys.executable, "-c", "import belote.solver as s; print(s.IMPLEMENTATION)"],
        capture_output=True,
        text=True,
        env=environ,
        check=True,
    )
    assert out.stdout.strip() == module


def test_this_process_uses_the_c_solver_when_built() -> None:
    expected = (
        "belote.solver.alphabeta" if _dds is None or os.environ.get("BELOTE_PURE_PYTHON") else "belote.solver._dds"
    )
    assert expected == belote.solver.IMPLEMENTATION


def test_the_c_solver_is_built() -> None:
    """``pip install .`` compiles it; the pure-Python solver is only the fallback where no compiler exists."""
    assert _dds is not None


def test_the_c_solver_gives_the_same_values_in_several_threads_at_once() -> None:
    """Each thread has its own table and the search runs with the GIL released: no answer changes."""
    from concurrent.futures import ThreadPoolExecutor

    assert _dds is not None, "the C solver was not built"

    positions = [random_position(seed, seed % 6, 1, True, max_left=8)[0] for seed in range(40)]
    alone = [_dds.card_values(p) for p in positions]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda p: _dds.card_values(p), positions * 3))
    assert together == alone * 3


# ----------------------------------------------------------------------------- the kept table
def _deal_positions(variant: str, seed: int, skip: int) -> list[Position]:
    """The positions of a deal of ``variant`` at each card from the ``skip``-th on, played by random legal cards."""
    from belote.rules import Rules

    rng = random.Random(seed)
    rules = Rules(variant=variant)
    while True:
        deal = Deal.from_seed(seed, rules, dealer=seed % rules.players)
        while deal.phase == "bidding":
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase == "play":
            break
        seed += 1000
    out = []
    while deal.phase == "play":
        if len(deal.plays) >= skip:
            out.append(Position.from_state(deal))
        deal.apply(rng.choice(deal.legal_actions()))
    return out


#: Where each game's deals are young enough to share much, and old enough to solve in milliseconds.
KEEP_FROM = {"classic": 4, "coinche": 4, "three-handed": 0, "two-handed": 12}


@pytest.mark.parametrize("variant", GAMES)
def test_a_kept_table_gives_the_values_of_fresh_solves(variant: str) -> None:
    """Positions of two deals solved in a shuffled order, each keeping the table the solves before it
    kept: every value is the value a fresh solve gives; a position of the other deal starts the table
    anew (its cards left may be the same set, held by other seats), and solving the same deal again
    in order visits fewer nodes than fresh solves."""
    first = _deal_positions(variant, 11, of_game(KEEP_FROM, variant))
    second = _deal_positions(variant, 12, of_game(KEEP_FROM, variant))
    fresh = {id(p): (card_values(p), value(p)) for p in first + second}
    order = first + second + first[::3] + second[1::2]
    random.Random(variant).shuffle(order)
    belote.solver.forget()
    for pos in order:
        assert card_values(pos, keep=True) == fresh[id(pos)][0], pos
        assert value(pos, keep=True) == fresh[id(pos)][1], pos
    belote.solver.forget()
    kept = fresh_nodes = 0
    for pos in first:
        card_values(pos, keep=True)
        kept += belote.solver.nodes()
        card_values(pos)
        fresh_nodes += belote.solver.nodes()
    assert kept < fresh_nodes


def test_the_same_cards_left_in_other_hands_are_not_read_from_a_kept_table() -> None:
    """Two positions with the same cards left and leader, two cards swapped between E and W: the
    second does not join the first's table (its entries would be read for the wrong hands)."""
    hands = [mask_of(h.split()) for h in ("JH 9H AS", "7D 8D KC", "TH 8C QS", "KS 7S AD")]
    swapped = list(hands)
    swapped[1], swapped[3] = mask_of(["KS", "8D", "KC"]), mask_of(["7D", "7S", "AD"])
    a, b = Position(tuple(hands), SPADES, leader=0), Position(tuple(swapped), SPADES, leader=0)
    assert (value(a), value(b)) == (25, 30)
    belote.solver.forget()
    assert value(a, keep=True) == 25
    assert value(b, keep=True) == 30
    assert value(a, keep=True) == 25


def test_a_fresh_solve_visits_the_same_nodes_whatever_was_kept_before() -> None:
    """The bots bound their solves by nodes: a solve that does not keep is the same solve after any
    kept ones (the two tables are apart), and a run that starts with ``forget`` visits the same nodes
    each time (an analysis stops at its limit at the same places)."""
    positions = _deal_positions("classic", 21, 4)
    alone = []
    for pos in positions:
        card_values(pos)
        alone.append(belote.solver.nodes())
    runs = []
    for _ in range(2):
        belote.solver.forget()
        run = []
        for pos, nodes in zip(positions, alone, strict=True):
            card_values(pos, keep=True)
            run.append(belote.solver.nodes())
            card_values(pos)
            assert belote.solver.nodes() == nodes
        runs.append(run)
    assert runs[0] == runs[1]
