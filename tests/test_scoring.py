"""Scoring (seed 000, "Scoring", "A worked deal", "Ending", "Rounded scores")."""

from __future__ import annotations

import pytest

from belote.rules import Rules
from belote.scoring import (
    CAPOT_POINTS,
    DEAL_POINTS,
    DealResult,
    match_winner,
    round_points,
    score_deal,
    thrown_in,
)

CARRY = Rules()
HOLD = Rules(litige="hold")
ROUNDED = Rules(rounding=True)


def test_deal_and_capot_totals() -> None:
    assert DEAL_POINTS == 162
    assert CAPOT_POINTS == 252


# --- made --------------------------------------------------------------------------------------------


def test_made_both_sides_keep_what_they_made() -> None:
    r = score_deal(CARRY, takers=0, cards=(108, 54), tricks=(5, 3), declarations=(0, 0), belote=(20, 0))
    assert r.outcome == "made"
    assert r.points == (128, 54)
    assert (r.winner, r.takers, r.capot, r.pending) == (0, 0, None, 0)


def test_made_by_side_one() -> None:
    r = score_deal(CARRY, takers=1, cards=(70, 92), tricks=(3, 5), declarations=(0, 0), belote=(0, 0))
    assert (r.outcome, r.points, r.winner) == ("made", (70, 92), 1)


def test_made_with_declarations_on_both_sides_of_the_ledger() -> None:
    # Takers 90 + quarte 50 against 72: each side keeps its card points, the takers their quarte.
    r = score_deal(CARRY, takers=0, cards=(90, 72), tricks=(5, 3), declarations=(50, 0), belote=(0, 0))
    assert (r.outcome, r.points) == ("made", (140, 72))
    # The defenders held the best declaration: they score it while the takers make their contract.
    r = score_deal(CARRY, takers=0, cards=(110, 52), tricks=(6, 2), declarations=(0, 20), belote=(0, 0))
    assert (r.outcome, r.points) == ("made", (110, 72))


def test_the_takers_need_more_than_the_defenders_declarations_included() -> None:
    # 100 card points against 62 plus a quarte (112): the takers go down.
    r = score_deal(CARRY, takers=0, cards=(100, 62), tricks=(5, 3), declarations=(0, 50), belote=(0, 0))
    assert r.outcome == "dedans"
    assert r.points == (0, 212)


def test_belote_counts_toward_making_it() -> None:
    # 71 + belote 20 = 91 against 91: not more, a litige; 72 + 20 against 90 is made.
    r = score_deal(CARRY, takers=0, cards=(72, 90), tricks=(4, 4), declarations=(0, 0), belote=(20, 0))
    assert (r.outcome, r.points) == ("made", (92, 90))


# --- dedans ------------------------------------------------------------------------------------------


def test_dedans_the_defenders_take_all_162() -> None:
    r = score_deal(CARRY, takers=1, cards=(88, 74), tricks=(4, 4), declarations=(0, 0), belote=(0, 0))
    assert r.outcome == "dedans"
    assert r.points == (162, 0)
    assert (r.winner, r.pending) == (0, 0)


def test_dedans_the_defenders_take_every_declaration_of_both_sides() -> None:
    # The takers' tierce goes to the defenders with the deal.
    r = score_deal(CARRY, takers=0, cards=(70, 92), tricks=(4, 4), declarations=(20, 0), belote=(0, 0))
    assert (r.outcome, r.points) == ("dedans", (0, 182))
    r = score_deal(CARRY, takers=1, cards=(100, 62), tricks=(5, 3), declarations=(50, 0), belote=(0, 0))
    assert (r.outcome, r.points) == ("dedans", (212, 0))


def test_dedans_the_takers_keep_only_their_belote() -> None:
    r = score_deal(CARRY, takers=0, cards=(60, 102), tricks=(3, 5), declarations=(0, 0), belote=(20, 0))
    assert (r.outcome, r.points) == ("dedans", (20, 162))
    r = score_deal(CARRY, takers=0, cards=(50, 112), tricks=(3, 5), declarations=(20, 0), belote=(20, 0))
    assert (r.outcome, r.points) == ("dedans", (20, 182))


def test_dedans_the_defenders_belote_is_added() -> None:
    r = score_deal(CARRY, takers=0, cards=(70, 92), tricks=(4, 4), declarations=(0, 0), belote=(0, 20))
    assert (r.outcome, r.points) == ("dedans", (0, 182))


# --- litige, 81 all ----------------------------------------------------------------------------------


def test_litige_carry_the_defenders_score_81_and_the_takers_81_wait() -> None:
    r = score_deal(CARRY, takers=0, cards=(81, 81), tricks=(4, 4), declarations=(0, 0), belote=(0, 0))
    assert r.outcome == "litige"
    assert r.points == (0, 81)
    assert r.pending == 81
    assert r.winner is None


def test_litige_carry_side_one_takes() -> None:
    r = score_deal(CARRY, takers=1, cards=(81, 81), tricks=(4, 4), declarations=(0, 0), belote=(0, 0))
    assert (r.outcome, r.points, r.pending) == ("litige", (81, 0), 81)


def test_litige_carry_the_takers_keep_their_belote() -> None:
    # 71 + belote 20 against 91: the takers keep the belote, their 71 waits.
    r = score_deal(CARRY, takers=0, cards=(71, 91), tricks=(4, 4), declarations=(0, 0), belote=(20, 0))
    assert (r.outcome, r.points, r.pending) == ("litige", (20, 91), 71)
    # 61 + tierce 20 + belote 20 against 101: the card points and the tierce wait.
    r = score_deal(CARRY, takers=0, cards=(61, 101), tricks=(3, 5), declarations=(20, 0), belote=(20, 0))
    assert (r.outcome, r.points, r.pending) == ("litige", (20, 101), 81)


def test_litige_carry_with_a_declaration_the_takers_points_all_wait() -> None:
    # 71 + tierce 20 against 91.
    r = score_deal(CARRY, takers=0, cards=(71, 91), tricks=(4, 4), declarations=(20, 0), belote=(0, 0))
    assert (r.outcome, r.points, r.pending) == ("litige", (0, 91), 91)


def test_pending_points_go_to_the_winner_of_the_next_deal() -> None:
    made = score_deal(CARRY, 0, (108, 54), (5, 3), (0, 0), (20, 0), pending=81)
    assert (made.outcome, made.points, made.pending, made.winner) == ("made", (209, 54), 0, 0)
    dedans = score_deal(CARRY, 1, (88, 74), (4, 4), (0, 0), (0, 0), pending=81)
    assert (dedans.outcome, dedans.points, dedans.pending, dedans.winner) == ("dedans", (243, 0), 0, 0)
    made_by_one = score_deal(CARRY, 1, (62, 100), (3, 5), (0, 0), (0, 0), pending=81)
    assert made_by_one.points == (62, 181)


def test_a_second_litige_adds_to_what_waits() -> None:
    r = score_deal(CARRY, 1, (81, 81), (4, 4), (0, 0), (0, 0), pending=81)
    assert (r.outcome, r.points, r.pending) == ("litige", (81, 0), 162)


def test_litige_hold_nobody_scores_but_belote() -> None:
    r = score_deal(HOLD, takers=0, cards=(81, 81), tricks=(4, 4), declarations=(0, 0), belote=(0, 0))
    assert (r.outcome, r.points, r.pending) == ("litige", (0, 0), 162)
    r = score_deal(HOLD, takers=0, cards=(71, 91), tricks=(4, 4), declarations=(20, 0), belote=(0, 0))
    assert (r.outcome, r.points, r.pending) == ("litige", (0, 0), 182)
    r = score_deal(HOLD, takers=1, cards=(91, 71), tricks=(4, 4), declarations=(0, 0), belote=(0, 20))
    assert (r.outcome, r.points, r.pending) == ("litige", (0, 20), 162)


def test_litige_hold_pending_goes_to_the_next_winner() -> None:
    r = score_deal(HOLD, 0, (90, 72), (5, 3), (0, 0), (0, 0), pending=162)
    assert (r.outcome, r.points, r.pending) == ("made", (252, 72), 0)
    r = score_deal(HOLD, 0, (81, 81), (4, 4), (0, 0), (0, 0), pending=162)
    assert (r.outcome, r.points, r.pending) == ("litige", (0, 0), 324)


# --- capot -------------------------------------------------------------------------------------------


def test_capot_by_the_takers_is_252_plus_declarations() -> None:
    r = score_deal(CARRY, takers=0, cards=(162, 0), tricks=(8, 0), declarations=(50, 0), belote=(20, 0))
    assert r.outcome == "capot"
    assert r.capot == 0 and r.winner == 0
    assert r.points == (322, 0)


def test_capot_by_the_takers_the_defenders_keep_their_belote() -> None:
    r = score_deal(CARRY, takers=1, cards=(0, 162), tricks=(0, 8), declarations=(0, 0), belote=(20, 0))
    assert (r.outcome, r.capot, r.points) == ("capot", 1, (20, 252))


def test_capot_by_the_defenders() -> None:
    r = score_deal(CARRY, takers=0, cards=(0, 162), tricks=(0, 8), declarations=(0, 0), belote=(0, 0))
    assert (r.outcome, r.capot, r.winner, r.points) == ("capot", 1, 1, (0, 252))
    # The takers' declarations go to the defenders; the takers keep their belote.
    r = score_deal(CARRY, takers=0, cards=(0, 162), tricks=(0, 8), declarations=(20, 0), belote=(20, 0))
    assert r.points == (20, 272)


def test_capot_takes_pending_points() -> None:
    r = score_deal(CARRY, 0, (162, 0), (8, 0), (0, 0), (0, 0), pending=81)
    assert r.points == (333, 0)


# --- belote is never lost ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "takers", "cards", "tricks"),
    [
        (CARRY, 0, (100, 62), (5, 3)),  # made
        (CARRY, 0, (50, 112), (3, 5)),  # dedans
        (CARRY, 0, (71, 91), (4, 4)),  # litige: 71 with belote against 91
        (HOLD, 0, (71, 91), (4, 4)),
        (CARRY, 0, (0, 162), (0, 8)),  # capot against them
        (ROUNDED, 0, (50, 112), (3, 5)),
    ],
)
def test_the_takers_never_lose_their_belote(
    rules: Rules, takers: int, cards: tuple[int, int], tricks: tuple[int, int]
) -> None:
    r = score_deal(rules, takers, cards, tricks, (0, 0), (20, 0))
    assert r.points[0] >= 20
    assert r.belote == (20, 0)


# --- rounding ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "rounded"),
    [(0, 0), (4, 0), (5, 0), (6, 10), (74, 70), (75, 70), (76, 80), (80, 80), (85, 80), (86, 90), (162, 160)],
)
def test_round_points_a_five_goes_down(points: int, rounded: int) -> None:
    assert round_points(points) == rounded


def test_rounded_the_defenders_have_the_rest_of_160() -> None:
    r = score_deal(ROUNDED, takers=0, cards=(86, 76), tricks=(4, 4), declarations=(0, 0), belote=(0, 0))
    assert (r.outcome, r.points) == ("made", (90, 70))
    r = score_deal(ROUNDED, takers=0, cards=(85, 77), tricks=(4, 4), declarations=(0, 0), belote=(0, 0))
    assert (r.outcome, r.points) == ("made", (80, 80))
    r = score_deal(ROUNDED, takers=1, cards=(54, 108), tricks=(3, 5), declarations=(0, 0), belote=(0, 20))
    assert (r.outcome, r.points) == ("made", (50, 130))
    # The cards as played are kept unrounded in the result.
    assert r.cards == (54, 108)


def test_rounded_dedans_is_160_and_capot_250() -> None:
    r = score_deal(ROUNDED, takers=0, cards=(70, 92), tricks=(4, 4), declarations=(20, 0), belote=(0, 0))
    assert (r.outcome, r.points) == ("dedans", (0, 180))
    r = score_deal(ROUNDED, takers=0, cards=(162, 0), tricks=(8, 0), declarations=(0, 0), belote=(20, 0))
    assert (r.outcome, r.points) == ("capot", (270, 0))
    r = score_deal(ROUNDED, takers=1, cards=(162, 0), tricks=(8, 0), declarations=(0, 0), belote=(0, 0))
    assert (r.outcome, r.points) == ("capot", (250, 0))


def test_rounded_litige() -> None:
    r = score_deal(ROUNDED, takers=0, cards=(81, 81), tricks=(4, 4), declarations=(0, 0), belote=(0, 0))
    assert (r.outcome, r.points, r.pending) == ("litige", (0, 80), 80)
    r = score_deal(Rules(rounding=True, litige="hold"), 0, (81, 81), (4, 4), (0, 0), (0, 0))
    assert (r.outcome, r.points, r.pending) == ("litige", (0, 0), 160)


# --- the worked deal of seed 000 and the end of the match --------------------------------------------


def test_the_worked_match_of_the_seed() -> None:
    score = (210, 176)
    # Alice and Cara (side 0) take hearts: 108 card points and belote, against 54.
    first = score_deal(CARRY, takers=0, cards=(108, 54), tricks=(5, 3), declarations=(0, 0), belote=(20, 0))
    assert sum(first.cards) == 162
    assert first.points == (128, 54)
    score = (score[0] + first.points[0], score[1] + first.points[1])
    assert score == (338, 230)
    assert match_winner(CARRY, score, 1) == (False, None)
    # Ben (side 1) takes spades and finishes with 74 to 88: dedans, Alice and Cara get 162.
    second = score_deal(CARRY, takers=1, cards=(88, 74), tricks=(5, 3), declarations=(0, 0), belote=(0, 0))
    assert second.outcome == "dedans"
    score = (score[0] + second.points[0], score[1] + second.points[1])
    assert score == (500, 230)
    assert match_winner(CARRY, score, 2) == (False, None)  # one short of the line
    # A quiet third deal at 90 to 72.
    third = score_deal(CARRY, takers=0, cards=(90, 72), tricks=(5, 3), declarations=(0, 0), belote=(0, 0))
    score = (score[0] + third.points[0], score[1] + third.points[1])
    assert score == (590, 302)
    assert match_winner(Rules(), (590, 302), 3) == (True, 0)


def test_the_line_is_501() -> None:
    assert match_winner(Rules(), (501, 0), 5) == (True, 0)
    assert match_winner(Rules(), (500, 499), 5) == (False, None)
    assert match_winner(Rules(), (12, 501), 5) == (True, 1)


def test_both_past_the_line_the_higher_wins() -> None:
    assert match_winner(Rules(), (520, 510), 9) == (True, 0)
    assert match_winner(Rules(), (505, 530), 9) == (True, 1)


def test_both_past_the_line_and_equal_is_a_tie() -> None:
    assert match_winner(Rules(), (510, 510), 9) == (True, None)


def test_game_to_1000() -> None:
    assert match_winner(Rules(target=1000), (590, 302), 3) == (False, None)
    assert match_winner(Rules(target=1000), (1004, 990), 12) == (True, 0)


def test_a_fixed_number_of_deals() -> None:
    rules = Rules(deals=3)
    assert match_winner(rules, (900, 0), 2) == (False, None)  # the line does not end it
    assert match_winner(rules, (300, 250), 3) == (True, 0)
    assert match_winner(rules, (100, 250), 3) == (True, 1)
    assert match_winner(rules, (250, 250), 3) == (True, None)


# --- other results -----------------------------------------------------------------------------------


def test_thrown_in_scores_nothing_and_keeps_what_waits() -> None:
    r = thrown_in(81)
    assert (r.outcome, r.points, r.pending, r.takers, r.winner) == ("thrown-in", (0, 0), 81, None, None)
    assert thrown_in().pending == 0


def test_deal_result_to_json() -> None:
    r = score_deal(CARRY, takers=0, cards=(108, 54), tricks=(5, 3), declarations=(0, 0), belote=(20, 0))
    assert r.to_json() == {
        "outcome": "made",
        "cards": {"NS": 108, "EW": 54},
        "declarations": {"NS": 0, "EW": 0},
        "belote": {"NS": 20, "EW": 0},
        "points": {"NS": 128, "EW": 54},
        "pending": 0,
    }
    capot = score_deal(CARRY, takers=1, cards=(0, 162), tricks=(0, 8), declarations=(0, 0), belote=(0, 0))
    assert capot.to_json()["capot"] == "EW"
    assert isinstance(capot, DealResult)
