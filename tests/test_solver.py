"""The double-dummy solver: both implementations against a plain minimax, and positions worked by hand.

The value of a position is what the side to move takes from there with best play on both sides:
card points (those on the table included), the ten of der for the last trick, and ninety more for
capot (seed 000: "Capot, all eight tricks to one side, scores 252 for the deal instead of 162").
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from types import ModuleType
from typing import Any

import pytest

import belote.solver
from belote.cards import CARDS, HEARTS, SPADES, mask_of, parse_card
from belote.game import TAKE, Deal
from belote.play import ALL_TRUMP, LAST_TRICK, NO_TRUMP, POINTS
from belote.playstate import PLAY, PlayState
from belote.solver import Position, PositionError, alphabeta, card_values, reference, value

try:
    from belote.solver import _dds
except ImportError:  # built without a compiler: only the Python solver is tested
    _dds = None  # type: ignore[assignment]

MODE_NAMES = {SPADES: "S", HEARTS: "H", 2: "D", 3: "C", NO_TRUMP: "NT", ALL_TRUMP: "AT"}
IMPLS = [
    pytest.param(alphabeta, id="python"),
    pytest.param(_dds, id="c"),
]
FIELDS = ("hands", "mode", "leader", "trick", "step", "undertrump", "tricks_won")


def args(pos: Position) -> list[Any]:
    return [getattr(pos, f) for f in FIELDS]


def play_state(deal_seed: int, mode: int, step: int, undertrump: bool) -> PlayState:
    """The eight-card hands of a real deal (taken at the first chance), ready to play in ``mode``."""
    deal = Deal.from_seed(deal_seed)
    deal.apply(TAKE)
    state = PlayState()
    state.step = step
    state.undertrump = int(undertrump)
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
    return Position(pos.hands, mode, pos.leader, pos.trick, step, undertrump, won), state


RULE_SETS = [(mode, step, ut) for mode in MODE_NAMES for step in (1, 3) for ut in (True, False)]


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
            assert impl.card_values(*args(pos)) == want, (impl.__name__, pos)
            assert impl.value(*args(pos)) == max(want.values()), (impl.__name__, pos)


def test_the_c_solver_searches_exactly_like_the_python_one() -> None:
    """Same algorithm, not only same answers: the same nodes and the same null-window probes."""
    for seed in range(60):
        mode, step, ut = RULE_SETS[seed % len(RULE_SETS)]
        pos, _ = random_position(seed, mode, step, ut, max_left=5)
        for name in ("card_values", "value"):
            assert getattr(alphabeta, name)(*args(pos)) == getattr(_dds, name)(*args(pos))
            py, c = alphabeta.stats(), _dds.stats()
            assert (py["nodes"], py["probes"]) == (c["nodes"], c["probes"]), (name, pos)


@pytest.mark.parametrize("impl", IMPLS)
def test_value_is_the_value_of_the_best_card(impl: ModuleType) -> None:
    for seed in range(12):
        mode, step, ut = RULE_SETS[(5 * seed) % len(RULE_SETS)]
        pos, state = random_position(seed, mode, step, ut, max_left=6)
        vals = impl.card_values(*args(pos))
        assert set(vals) == set(state.legal_actions())
        assert impl.value(*args(pos)) == max(vals.values())


# ----------------------------------------------------------------- against the engine
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
    assert impl.value(four, HEARTS, 0, (), 1, True, (3, 4)) == 55
    # E/W (W to move, after N, E, S) take nothing from it.
    assert impl.card_values(
        (0, 0, 0, mask_of(["7D"])), HEARTS, 0, tuple(parse_card(c) for c in ("JH", "9H", "AS")), 1, True, (3, 4)
    ) == {parse_card("7D"): 0}
    # Counterclockwise, the same cards: N leads, W plays next; N still wins.
    assert impl.value(four, HEARTS, 0, (), 3, True, (3, 4)) == 55
    # At no trumps the jack counts 2 and the ace 19; whoever leads wins, nobody can follow.
    assert impl.value(four, NO_TRUMP, 0, (), 1, True, (3, 4)) == 2 + 19 + LAST_TRICK
    assert impl.value(four, NO_TRUMP, 3, (), 1, True, (3, 4)) == 2 + 19 + LAST_TRICK
    # At all trumps, the jack 14, the nine 9, the ace 6: the jack of hearts beats the nine.
    assert impl.value(four, ALL_TRUMP, 1, (), 1, True, (3, 4)) == 0
    assert impl.value(four, ALL_TRUMP, 0, (), 1, True, (3, 4)) == 14 + 9 + 6 + LAST_TRICK


@pytest.mark.parametrize("impl", IMPLS)
def test_capot_counts_252(impl: ModuleType) -> None:
    # N and S hold every trump and every ace and the ten of spades: they take all eight tricks.
    ns = "JH 9H AH TH AS AD AC TS", "KH QH 8H 7H TD TC KS KD"
    rest = [str(CARDS[c]) for c in range(32) if not mask_of(" ".join(ns).split()) >> c & 1]
    deal = hands(ns[0], " ".join(rest[:8]), ns[1], " ".join(rest[8:]))
    assert impl.value(deal, HEARTS, 0, (), 1, True, (0, 0)) == 252
    assert set(impl.card_values(deal, HEARTS, 0, (), 1, True, (0, 0)).values()) == {252}
    # After the jack is led, E's side is to move and takes nothing.
    after_jack = (deal[0] & ~mask_of(["JH"]), *deal[1:])
    assert impl.value(after_jack, HEARTS, 0, (parse_card("JH"),), 1, True, (0, 0)) == 0
    # Three tricks from the end, N and S having taken the first five: the rest, the ten of der and capot.
    end = hands("AS AD AC", "7S 8S 9S", "TS TD TC", "7D 8D 9D")
    points = 11 * 3 + 10 * 3
    assert impl.value(end, HEARTS, 0, (), 1, True, (5, 0)) == points + LAST_TRICK + 90
    # One trick to E and W earlier in the deal, and capot is gone.
    assert impl.value(end, HEARTS, 0, (), 1, True, (4, 1)) == points + LAST_TRICK


@pytest.mark.parametrize("impl", IMPLS)
def test_undertrump_rule(impl: ModuleType) -> None:
    """N leads the ace of spades, E trumps with the jack, S has no spade and cannot overtrump.

    Undertrump (the default): S must still trump with the seven, and E and W take the last trick too;
    N does better to lead the seven of clubs (4). Free: S throws the ten of diamonds and keeps the seven
    of trumps to ruff E's eight of clubs: 4 + 10.
    """
    deal = hands("AS 7C", "JH 8C", "7H TD", "9S KC")
    c = parse_card
    assert impl.card_values(deal, HEARTS, 0, (), 1, True, (3, 3)) == {c("AS"): 0, c("7C"): 4}
    assert impl.card_values(deal, HEARTS, 0, (), 1, False, (3, 3)) == {c("AS"): 14, c("7C"): 4}


@pytest.mark.parametrize("impl", IMPLS)
def test_cards_side_by_side_are_not_equivalent_when_their_points_differ(impl: ModuleType) -> None:
    """E holds the queen and seven of trumps, the eight is gone: no card of another hand lies between.

    Either one loses to N's nine, and the other wins the last trick; but the card led is N's: the
    seven gives nothing, the queen gives 3. So the solver must search both (equivalent cards must also
    be worth the same points).
    """
    deal = hands("9S 7D", "7S QS", "TH AD", "9H QH")
    vals = impl.card_values(deal, SPADES, 1, (), 1, True, (4, 2))
    assert vals == {parse_card("7S"): 26, parse_card("QS"): 23}
    assert vals == reference.card_values(Position(deal, SPADES, 1, tricks_won=(4, 2)))


@pytest.mark.parametrize("impl", IMPLS)
def test_equivalent_cards_get_one_value(impl: ModuleType) -> None:
    # At no trumps the nine, eight and seven of spades are worth nothing and N holds all three.
    deal = hands("7S 8S 9S", "7H 8H 9H", "7D 8D 9D", "7C 8C 9C")
    vals = impl.card_values(deal, NO_TRUMP, 0, (), 1, True, (2, 3))
    assert vals == {parse_card(x): 10 for x in ("7S", "8S", "9S")}


@pytest.mark.parametrize("impl", IMPLS)
def test_a_card_of_another_hand_between_breaks_the_equivalence(impl: ModuleType) -> None:
    """N's nine and seven of spades are both worth nothing, but E's eight lies between them: the nine
    wins the trick and keeps the lead for the seven, which then takes E's ace and W's ten."""
    deal = hands("9S 7S", "8S AH", "7H 8H", "9H TH")
    vals = impl.card_values(deal, NO_TRUMP, 0, (), 1, True, (3, 3))
    assert vals == {parse_card("9S"): 19 + 10 + LAST_TRICK, parse_card("7S"): 0}


@pytest.mark.parametrize("impl", IMPLS)
def test_a_finished_deal_is_worth_nothing_more(impl: ModuleType) -> None:
    assert impl.value((0, 0, 0, 0), HEARTS, 2, (), 1, True, (8, 0)) == 0
    assert impl.card_values((0, 0, 0, 0), HEARTS, 2, (), 1, True, (8, 0)) == {}
    assert Position((0, 0, 0, 0), HEARTS, 2).tricks_left == 0


# ----------------------------------------------------------------- whole deals
def test_whole_deals_c_and_python_agree() -> None:
    """The first card of a deal, every card valued; two deals quick enough for the Python solver."""
    for seed in (32, 0):
        deal = Deal.from_seed(seed)
        deal.apply(TAKE)
        pos = Position.from_state(deal)
        assert pos.tricks_left == 8
        got = _dds.card_values(*args(pos))
        assert got == alphabeta.card_values(*args(pos))
        assert set(got) == set(deal.legal_actions())
        assert _dds.value(*args(pos)) == max(got.values())


@pytest.mark.parametrize("mode", MODE_NAMES, ids=MODE_NAMES.values())
def test_whole_deals_in_every_mode(mode: int) -> None:
    for seed in range(3):
        state = play_state(seed, mode, 1 + 2 * (seed & 1), seed != 1)
        pos = Position.from_state(state)
        got = _dds.card_values(*args(pos))
        assert set(got) == set(state.legal_actions())
        assert _dds.value(*args(pos)) == max(got.values())
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
    ],
)
def test_impossible_positions_are_refused(kwargs: dict[str, Any], words: str) -> None:
    base: dict[str, Any] = {"hands": hands("JH", "9H", "AS", "7D"), "mode": HEARTS, "leader": 0}
    with pytest.raises(PositionError, match=words):
        Position(**{**base, **kwargs})


def test_the_c_solver_checks_what_it_is_given() -> None:
    with pytest.raises(ValueError):
        _dds.value(hands("JH 9H", "7S", "AS", "7D"), HEARTS, 0, (), 1, True, (0, 0))
    with pytest.raises(ValueError):
        _dds.card_values(hands("JH", "9H", "AS", "7D"), 9, 0, (), 1, True, (0, 0))


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
    alone = [_dds.card_values(*args(p)) for p in positions]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda p: _dds.card_values(*args(p)), positions * 3))
    assert together == alone * 3
