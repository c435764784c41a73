"""The learned leaf value of the solver's depth-limited search (``belote.solver.leaf``): its inputs, the
packaged integer weights, the clamp, and its error against the exact solver."""

from __future__ import annotations

import random

import numpy as np
import pytest

from belote.cards import CLUBS, DIAMONDS, HEARTS, SPADES, mask_of
from belote.play import ALL_TRUMP, LAST_TRICK, NO_TRUMP, POINTS
from belote.rules import PRESETS
from belote.solver import Position, value
from belote.solver.leaf import DEFAULT_PATH, LeafModel, default_model, features, limit, mode_class, suit_perm

# N E S W
HANDS = tuple(mask_of(h.split()) for h in ("JH 7S", "9H 8S", "AS TD", "KC QC"))


def test_suit_permutation_and_classes() -> None:
    assert suit_perm(SPADES) == (0, 1, 2, 3)
    assert suit_perm(HEARTS) == (1, 0, 2, 3)
    assert suit_perm(DIAMONDS) == (1, 2, 0, 3)
    assert suit_perm(CLUBS) == (1, 2, 3, 0)
    assert suit_perm(NO_TRUMP) == suit_perm(ALL_TRUMP) == (0, 1, 2, 3)
    assert [mode_class(m) for m in range(6)] == [0, 0, 0, 0, 1, 2]


def test_features_by_hand() -> None:
    # Hearts trumps (hearts -> block 0, spades 1, diamonds 2, clubs 3), E leads, play goes E S W N.
    # E (r=0): 9H -> 0 + 0 + 2, 8S -> 0 + 8 + 1; S (r=1): AS -> 32 + 8 + 7, TD -> 32 + 16 + 3;
    # W (r=2): QC -> 64 + 24 + 5, KC -> 64 + 24 + 6; N (r=3): JH -> 96 + 0 + 4, 7S -> 96 + 8 + 0.
    assert features(HANDS, HEARTS, 1, 1) == [2, 9, 47, 51, 93, 94, 100, 104]
    # No trumps, suits in place, E leads the other way round: E (r=0), N (r=1), W (r=2), S (r=3).
    # E: 8S 1, 9H 8 + 2; N: 7S 32, JH 32 + 8 + 4; W: QC 64 + 24 + 5, KC 64 + 24 + 6; S: AS 96 + 7, TD 96 + 16 + 3.
    assert features(HANDS, NO_TRUMP, 1, 3) == [1, 10, 32, 44, 93, 94, 103, 115]


def test_features_follow_the_definition() -> None:
    rng = random.Random(5)
    for _ in range(200):
        n = rng.randint(1, 8)
        deck = rng.sample(range(32), 4 * n)
        hands = tuple(mask_of(deck[i * n : i * n + n]) for i in range(4))
        mode, leader, step = rng.randrange(6), rng.randrange(4), rng.choice((1, 3))
        perm = suit_perm(mode)
        want = sorted(
            32 * r + 8 * perm[c >> 3] + (c & 7)
            for r in range(4)
            for c in range(32)
            if hands[(leader + step * r) % 4] >> c & 1
        )
        assert features(hands, mode, leader, step) == want


def test_the_packaged_weights() -> None:
    model = default_model()
    with np.load(DEFAULT_PATH) as f:
        assert f["W1"].dtype == f["b1"].dtype == f["W2"].dtype == np.int32
        assert f["b2"].dtype == f["shift"].dtype == np.int64 and f["shift"].shape == ()
        assert f["mae"].shape == (3,)
    h = model.hidden
    assert h <= 64
    assert model.w1.shape == (3, 128, h) and model.b1.shape == (3, h) and model.w2.shape == (3, h)
    assert model.b2.shape == (3,)
    for a in model.arrays():
        assert a.flags.c_contiguous
    # int16 range: a hidden unit (at most 32 inputs and its bias) cannot overflow int32
    assert max(int(np.abs(a).max()) for a in (model.w1, model.b1, model.w2)) < 1 << 15
    w1, b1, w2, b2 = model.to_bytes()
    assert len(w1) == 4 * 3 * 128 * h and len(b1) == len(w2) == 4 * 3 * h and len(b2) == 8 * 3
    assert np.frombuffer(w1, dtype=np.int32).reshape(3, 128, h).tolist() == model.w1.tolist()


# Five leaves and the packaged model's values for them (the C solver must compute the same).
FIXED = [
    (("JH 9H AS KS", "TH 8H AD 7C", "AH QS TD 8C", "KH 7S JD AC"), HEARTS, 0, 1),
    (("JS 9S TS AH KH", "7S AD QD 8C 9C", "8S KD TH 7D JC", "QS AC TC 7H 9D"), SPADES, 2, 1),
    (("AS TS 7H 8H JD QD", "KS 9S AH TH 7C 8C", "QS 8S KH AD TD 9C", "JS 7S QH KD AC TC"), NO_TRUMP, 1, 3),
    (("JC 9C AC TC", "JD 9D 7S 8S", "AH TH KH 7C", "JH 9H QS KS"), ALL_TRUMP, 3, 1),
    (("JD 9D 7D AS TS KS", "8D QD AH TH KH QH", "AD TD 7S 8S 9S QS", "AC TC KC QC JC 9C"), DIAMONDS, 1, 1),
]
FIXED_VALUES = [112, 118, 91, 96, 0]  # the exact solver says 121, 123, 77, 108, 0


def _hands(texts: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(mask_of(t.split()) for t in texts)


def test_values_of_fixed_positions() -> None:
    model = default_model()
    got = [model.value(_hands(h), m, leader, step) for h, m, leader, step in FIXED]
    assert got == FIXED_VALUES


def test_integer_network_by_numpy() -> None:
    """``value`` is the spec's integer network: recomputed here with numpy's int64."""
    model = default_model()
    for texts, mode, leader, step in FIXED:
        hands = _hands(texts)
        k = mode_class(mode)
        x = np.zeros(128, dtype=np.int64)
        x[features(hands, mode, leader, step)] = 1
        h = np.maximum(model.b1[k].astype(np.int64) + x @ model.w1[k].astype(np.int64), 0)
        out = int(model.b2[k] + h @ model.w2[k].astype(np.int64))
        raw = (out + (1 << (model.shift - 1))) >> model.shift
        assert model.raw(hands, mode, leader, step) == raw
        assert model.value(hands, mode, leader, step) == min(max(raw, 0), limit(hands, mode))


def test_seats_and_direction_do_not_matter() -> None:
    """The inputs are by order of play from the leader: the same trick order gives the same value."""
    model = default_model()
    n, e, s, w = _hands(FIXED[1][0])
    # clockwise from N (N E S W) is counterclockwise from N with E and W swapped
    assert model.value((n, e, s, w), SPADES, 0, 1) == model.value((n, w, s, e), SPADES, 0, 3)
    # and from E with everyone moved one seat on
    assert model.value((n, e, s, w), SPADES, 0, 1) == model.value((w, n, e, s), SPADES, 1, 1)


def test_clamp() -> None:
    hidden = 4
    zeros = np.zeros((3, 128, hidden), dtype=np.int32)
    b1 = np.zeros((3, hidden), dtype=np.int32)
    w2 = np.zeros((3, hidden), dtype=np.int32)
    shift = 8
    hands = _hands(FIXED[0][0])
    a = sum(POINTS[HEARTS][c] for c in range(32) if (hands[0] | hands[1] | hands[2] | hands[3]) >> c & 1) + LAST_TRICK
    assert limit(hands, HEARTS) == a == 121
    high = LeafModel(zeros, b1, w2, np.full(3, 500 << shift, dtype=np.int64), shift)
    assert high.raw(hands, HEARTS, 0, 1) == 500 and high.value(hands, HEARTS, 0, 1) == a
    low = LeafModel(zeros, b1, w2, np.full(3, -7 << shift, dtype=np.int64), shift)
    assert low.raw(hands, HEARTS, 0, 1) == -7 and low.value(hands, HEARTS, 0, 1) == 0
    # rounding: out / 2**shift rounded half up
    half = LeafModel(zeros, b1, w2, np.full(3, (41 << shift) + (1 << (shift - 1)), dtype=np.int64), shift)
    assert half.value(hands, HEARTS, 0, 1) == 42
    below = LeafModel(zeros, b1, w2, np.full(3, (41 << shift) + (1 << (shift - 1)) - 1, dtype=np.int64), shift)
    assert below.value(hands, HEARTS, 0, 1) == 41
    with pytest.raises(ValueError):
        LeafModel(zeros + (1 << 15), b1, w2, np.zeros(3, dtype=np.int64), shift)


#: The packaged model's mean absolute error on random four-card leaves is 7.65 points, measured on 20,000
#: of them (training/README.md); the mean of 200 has a standard deviation of 0.5 (the draw below: 7.54).
#: The bound leaves five of them, and a retrained model must not be much worse.
MAE_BOUND = 10.0


def test_error_against_the_solver() -> None:
    model = default_model()
    rules = PRESETS["classic"].play
    rng = random.Random(2024)
    errors = []
    for _ in range(200):
        deck = rng.sample(range(32), 16)
        hands = tuple(mask_of(deck[i * 4 : i * 4 + 4]) for i in range(4))
        mode, leader, step = rng.randrange(6), rng.randrange(4), rng.choice((1, 3))
        exact = value(Position(hands, mode, leader=leader, step=step, rules=rules, tricks_won=(1, 1)))
        errors.append(abs(model.value(hands, mode, leader, step) - exact))
    assert sum(errors) / len(errors) < MAE_BOUND


# ---------------------------------------------------------------------- the solver's depth-limited search


def _deal(rng: random.Random, n: int) -> tuple[int, ...]:
    deck = rng.sample(range(32), 4 * n)
    return tuple(mask_of(deck[i * n : i * n + n]) for i in range(4))


def test_the_c_solver_computes_the_leaf_value_as_the_reference_does() -> None:
    from belote.solver import IMPLEMENTATION, _set_leaf

    if IMPLEMENTATION != "belote.solver._dds":
        pytest.fail("the C solver was not built: ./scripts/test builds it")
    from belote.solver import _dds

    _set_leaf(Position(_deal(random.Random(0), 8), 0, 0, leaf=6))
    model, rng = default_model(), random.Random(11)
    for _ in range(500):
        hands = _deal(rng, rng.randint(1, 8))
        args = (hands, rng.randrange(6), rng.randrange(4), rng.choice((1, 3)))
        assert _dds.leaf_value(*args) == model.value(*args)


def test_a_search_with_leaves_gives_the_same_values_in_c_and_in_python() -> None:
    """Both solvers search the same tree, cut at the same boundaries and valued by the same network:
    the values of every card agree, whatever their order of search and their tables."""
    from belote.solver import alphabeta, card_values

    rng = random.Random(3)
    for i in range(24):
        n = 7 if i % 3 else 8
        hands = _deal(rng, n)
        mode, leader = rng.randrange(6), rng.randrange(4)
        trick = ()
        if i % 2:  # a trick begun: the leader's lowest card of its first suit
            c = min(range(32), key=lambda c: (not hands[leader] >> c & 1, c))
            hands = tuple(h & ~(1 << c) for h in hands)
            trick = (c,)
        pos = Position(hands, mode, leader, trick, leaf=n - 2)
        py = alphabeta.card_values(pos)
        assert py is not None
        assert card_values(pos) == py
        exact = card_values(Position(hands, mode, leader, trick))
        assert exact.keys() == py.keys()


def test_a_search_with_leaves_costs_a_fraction_of_the_exact_one() -> None:
    from belote.solver import card_values, nodes

    rng = random.Random(8)
    cut = exact = 0
    for _ in range(10):
        hands = _deal(rng, 8)
        card_values(Position(hands, HEARTS, 0, leaf=6))
        cut += nodes()
        card_values(Position(hands, HEARTS, 0))
        exact += nodes()
    assert cut * 20 < exact, (cut, exact)


def test_the_leaf_is_for_four_hands_in_two_partnerships() -> None:
    from belote.solver import PositionError

    three = tuple(mask_of(h.split()) for h in ("JH 7S", "9H 8S", "AS TD"))
    with pytest.raises(PositionError, match="leaf"):
        Position(three, HEARTS, 0, leaf=1)
    with pytest.raises(PositionError, match="leaf"):
        Position(HANDS, HEARTS, 0, leaf=9)
