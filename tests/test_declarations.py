"""Declarations (seed 000, "Declarations"): sequences, fours of a kind, belote, and which side scores."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote.cards import CLUBS, DIAMONDS, HEARTS, SPADES, cards_of, mask_of, parse_card
from belote.declarations import (
    FOUR_POINTS,
    KIND_FOUR,
    KIND_SEQUENCE,
    SEQUENCE_POINTS,
    Declaration,
    belote_cards,
    belote_holder,
    best_side,
    declaration_names,
    describe,
    find_declarations,
)
from belote.play import ALL_TRUMP, NO_TRUMP

SIDE_OF = [0, 1, 0, 1]


def m(text: str) -> int:
    return mask_of(text.split())


def found(text: str, mode: int = HEARTS, card_reuse: bool = True) -> list[tuple[str, int, list[str]]]:
    """The declarations of a hand as (name, points, cards)."""
    declared = find_declarations(m(text), mode, card_reuse)
    return [(d.name, d.points, [str(x) for x in cards_of(d.cards)]) for d in declared]


def decl(text: str, mode: int = HEARTS) -> list[Declaration]:
    return find_declarations(m(text), mode)


# --- values ------------------------------------------------------------------------------------------


def test_sequence_and_four_tables() -> None:
    assert SEQUENCE_POINTS == {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 100}
    # 7 8 9 T J Q K A
    assert FOUR_POINTS == (0, 0, 150, 100, 200, 100, 100, 100)


def test_no_declaration() -> None:
    assert found("7S 9S JS KH AH 8D TD QC") == []


def test_tierce_is_20() -> None:
    assert found("7S 8S 9S JH KD AC 9C JC") == [("tierce", 20, ["7S", "8S", "9S"])]


def test_quarte_is_50() -> None:
    assert found("TD JD QD KD 7S 9H JC AC") == [("quarte", 50, ["TD", "JD", "QD", "KD"])]


def test_quinte_is_100() -> None:
    assert found("9C TC JC QC KC 7S 9H JD") == [("quinte", 100, ["9C", "TC", "JC", "QC", "KC"])]


@pytest.mark.parametrize(
    ("text", "length", "name"),
    [
        ("7S 8S 9S TS JS QS 9H JD", 6, "sixte"),
        ("8D 9D TD JD QD KD AD 7C", 7, "septième"),
        ("7S 8S 9S TS JS QS KS AS", 8, "huitième"),
    ],
)
def test_six_seven_and_eight_in_a_row_still_score_100(text: str, length: int, name: str) -> None:
    ((d_name, points, cards),) = found(text)
    assert (d_name, points, len(cards)) == (name, 100, length)


def test_two_sequences_in_one_hand() -> None:
    assert found("7S 8S 9S QD KD AD JH 9C") == [
        ("tierce", 20, ["7S", "8S", "9S"]),
        ("tierce", 20, ["QD", "KD", "AD"]),
    ]


@pytest.mark.parametrize(
    ("rank", "name", "points"),
    [
        ("J", "four jacks", 200),
        ("9", "four nines", 150),
        ("A", "four aces", 100),
        ("T", "four tens", 100),
        ("K", "four kings", 100),
        ("Q", "four queens", 100),
    ],
)
def test_four_of_a_kind(rank: str, name: str, points: int) -> None:
    hand = " ".join(rank + s for s in "SHDC") + " 7S 8H 7D 8C"
    assert found(hand) == [(name, points, [rank + s for s in "SHDC"])]


@pytest.mark.parametrize("rank", ["7", "8"])
def test_four_eights_or_sevens_count_nothing(rank: str) -> None:
    hand = " ".join(rank + s for s in "SHDC") + " JS KH AD QC"
    assert found(hand) == []


def test_two_fours_in_one_hand() -> None:
    assert found("JS JH JD JC 9S 9H 9D 9C") == [
        ("four nines", 150, ["9S", "9H", "9D", "9C"]),
        ("four jacks", 200, ["JS", "JH", "JD", "JC"]),
    ]


def test_the_docstring_hand_four_nines_and_tierce() -> None:
    assert [d.name for d in decl("QH KH AH 9S 9H 9D 9C 7C")] == ["four nines", "tierce"]


# --- sequences run seven up to ace, in trumps too ----------------------------------------------------


def test_sequences_in_trumps_run_in_the_ordinary_order() -> None:
    # Hearts are trumps. 9 T J is a sequence (it is not one in the trump ranking J 9 A T).
    assert found("9H TH JH 7S AD 8C TC QC", HEARTS) == [("tierce", 20, ["9H", "TH", "JH"])]
    # J 9 A are the top three trumps but no sequence.
    assert found("JH 9H AH 7S 9D 8C TC QC", HEARTS) == []
    assert found("QH KH AH 7S 9D 8C TC 8D", HEARTS) == [("tierce", 20, ["QH", "KH", "AH"])]
    assert found("JH QH KH 7S 9D 8C TC 8D", HEARTS) == [("tierce", 20, ["JH", "QH", "KH"])]


def test_a_sequence_in_trumps_is_marked_trump() -> None:
    (d,) = decl("9H TH JH 7S AD 8C TC QC", HEARTS)
    assert d.trump and d.kind == KIND_SEQUENCE
    (d,) = decl("9H TH JH 7S AD 8C TC QC", SPADES)
    assert not d.trump
    (d,) = decl("9H TH JH 7S AD 8C TC QC", NO_TRUMP)
    assert not d.trump
    (d,) = decl("9H TH JH 7S AD 8C TC QC", ALL_TRUMP)
    assert d.trump


def test_top_length_and_description() -> None:
    (d,) = decl("QH KH AH 7S 9D 8C TC 8D")
    assert d.top == parse_card("AH")
    assert d.length == 3
    assert describe(d) == "tierce to the A♥"
    (d,) = decl("JS JH JD JC 7S 8H 7D 8C")
    assert d.kind == KIND_FOUR
    assert describe(d) == "four jacks"
    assert d.to_json() == {"name": "four jacks", "cards": ["JS", "JH", "JD", "JC"], "points": 200}


# --- card_reuse=False --------------------------------------------------------------------------------


def test_with_card_reuse_a_card_counts_in_a_four_and_a_sequence() -> None:
    assert found("8H 9H TH JH QH TS TD TC", HEARTS, card_reuse=True) == [
        ("four tens", 100, ["TS", "TH", "TD", "TC"]),
        ("quinte", 100, ["8H", "9H", "TH", "JH", "QH"]),
    ]


def test_without_card_reuse_the_four_and_what_is_left() -> None:
    # Four queens 100 plus 9 T J of what is left 20 beats the quinte 9..K alone (100).
    assert found("9H TH JH QH KH QS QD QC", HEARTS, card_reuse=False) == [
        ("four queens", 100, ["QS", "QH", "QD", "QC"]),
        ("tierce", 20, ["9H", "TH", "JH"]),
    ]
    # Four aces (100) beat the tierce Q K A (20) that shares the ace of hearts.
    assert found("QH KH AH AS AD AC 7S 9D", HEARTS, card_reuse=False) == [
        ("four aces", 100, ["AS", "AH", "AD", "AC"]),
    ]


def test_without_card_reuse_equal_points_keep_the_four() -> None:
    # Four tens 100 (8 9 and J Q are left, no sequence) against the quinte 8..Q 100.
    assert found("8H 9H TH JH QH TS TD TC", HEARTS, card_reuse=False) == [
        ("four tens", 100, ["TS", "TH", "TD", "TC"]),
    ]


def test_without_card_reuse_cards_outside_the_four_still_declare() -> None:
    # The tierce in clubs shares no card with the four jacks.
    assert found("JS JH JD JC 7C 8C 9C AD", HEARTS, card_reuse=False) == [
        ("four jacks", 200, ["JS", "JH", "JD", "JC"]),
        ("tierce", 20, ["7C", "8C", "9C"]),
    ]


# --- which side scores -------------------------------------------------------------------------------

TIERCE_TO_K_SPADES = "JS QS KS 7H 9D AD 8C TC"
TIERCE_TO_K_DIAMONDS = "JD QD KD 7S 9H AH 8C TC"
TIERCE_TO_K_HEARTS = "JH QH KH 7S 9D AD 8C TC"
TIERCE_TO_A_CLUBS = "QC KC AC 7S 9H 8D TD JH"
QUARTE_TO_J = "8D 9D TD JD 7S AS KH QC"
QUINTE_TO_A = "TS JS QS KS AS 7H 9D 8C"
FOUR_QUEENS = "QS QH QD QC 7S 9H 8D TC"


def seats(*hands: str, mode: int = HEARTS) -> list[list[Declaration]]:
    out = [decl(h, mode) if h else [] for h in hands]
    return out + [[] for _ in range(4 - len(out))]


def test_nobody_declared() -> None:
    assert best_side(seats(), [0, 1, 2, 3], SIDE_OF, "eldest") is None


def test_a_four_beats_any_sequence() -> None:
    declared = seats(QUINTE_TO_A, FOUR_QUEENS)
    assert best_side(declared, [0, 1, 2, 3], SIDE_OF, "eldest") == 1
    # Six in a row in trumps still loses to four kings.
    declared = seats("7H 8H 9H TH JH QH 7S 8S", "KS KH KD KC 9S 8D TC 7C")
    assert best_side(declared, [0, 1, 2, 3], SIDE_OF, "eldest") == 1
    assert best_side(declared, [1, 2, 3, 0], SIDE_OF, "eldest") == 1


def test_a_longer_sequence_beats_a_shorter() -> None:
    # The quarte to the jack beats the tierce to the ace.
    assert best_side(seats(TIERCE_TO_A_CLUBS, QUARTE_TO_J), [0, 1, 2, 3], SIDE_OF, "eldest") == 1
    assert best_side(seats(QUARTE_TO_J, TIERCE_TO_A_CLUBS), [0, 1, 2, 3], SIDE_OF, "eldest") == 0


def test_the_higher_of_two_equal_lengths_wins() -> None:
    assert best_side(seats(TIERCE_TO_K_SPADES, TIERCE_TO_A_CLUBS), [0, 1, 2, 3], SIDE_OF, "eldest") == 1
    assert best_side(seats(TIERCE_TO_A_CLUBS, TIERCE_TO_K_SPADES), [0, 1, 2, 3], SIDE_OF, "eldest") == 0


def test_a_sequence_in_trumps_beats_an_equal_one_outside() -> None:
    # Hearts trumps: K-high tierce in hearts against K-high in spades, whoever plays first.
    declared = seats(TIERCE_TO_K_SPADES, TIERCE_TO_K_HEARTS)
    assert best_side(declared, [0, 1, 2, 3], SIDE_OF, "eldest") == 1
    assert best_side(declared, [0, 1, 2, 3], SIDE_OF, "none") == 1
    declared = seats(TIERCE_TO_K_HEARTS, TIERCE_TO_K_SPADES)
    assert best_side(declared, [1, 2, 3, 0], SIDE_OF, "eldest") == 0
    # But a higher sequence outside trumps beats a lower one in trumps.
    assert best_side(seats(TIERCE_TO_K_HEARTS, TIERCE_TO_A_CLUBS), [0, 1, 2, 3], SIDE_OF, "eldest") == 1


def test_an_exact_tie_outside_trumps_eldest_gives_it_to_the_first_player() -> None:
    declared = seats(TIERCE_TO_K_SPADES, TIERCE_TO_K_DIAMONDS)
    assert best_side(declared, [0, 1, 2, 3], SIDE_OF, "eldest") == 0
    assert best_side(declared, [1, 2, 3, 0], SIDE_OF, "eldest") == 1
    assert best_side(declared, [3, 0, 1, 2], SIDE_OF, "eldest") == 0


def test_an_exact_tie_outside_trumps_none_gives_it_to_nobody() -> None:
    declared = seats(TIERCE_TO_K_SPADES, TIERCE_TO_K_DIAMONDS)
    assert best_side(declared, [0, 1, 2, 3], SIDE_OF, "none") is None
    assert best_side(declared, [1, 2, 3, 0], SIDE_OF, "none") is None


def test_a_tie_between_partners_is_no_tie() -> None:
    declared = [decl(TIERCE_TO_K_SPADES), [], decl(TIERCE_TO_K_DIAMONDS), []]
    assert best_side(declared, [1, 2, 3, 0], SIDE_OF, "none") == 0


def test_a_higher_declaration_after_a_tie_settles_it() -> None:
    declared = [decl(TIERCE_TO_K_SPADES), decl(TIERCE_TO_K_DIAMONDS), decl(QUARTE_TO_J), []]
    assert best_side(declared, [0, 1, 2, 3], SIDE_OF, "none") == 0
    declared = [decl(TIERCE_TO_K_SPADES), decl(TIERCE_TO_K_DIAMONDS), [], decl(QUARTE_TO_J)]
    assert best_side(declared, [0, 1, 2, 3], SIDE_OF, "none") == 1


def test_only_the_best_declaration_counts_not_the_total() -> None:
    # Two tierces are worth 40 together but lose to one quarte, which is longer.
    two_tierces = decl("7S 8S 9S QD KD AD JH 9C")
    assert best_side([two_tierces, decl(QUARTE_TO_J), [], []], [0, 1, 2, 3], SIDE_OF, "eldest") == 1
    # Two quartes (100) lose to one quinte.
    two_quartes = decl("7S 8S 9S TS 8D 9D TD JD")
    assert best_side([two_quartes, decl(QUINTE_TO_A), [], []], [0, 1, 2, 3], SIDE_OF, "eldest") == 1


def test_fours_rank_jacks_nines_then_aces() -> None:
    jacks = decl("JS JH JD JC 7S 8H 7D 8C")
    nines = decl("9S 9H 9D 9C 7S 8H 7D 8C")
    aces = decl("AS AH AD AC 7S 8H 7D 8C")
    kings = decl("KS KH KD KC 7S 8H 7D 8C")
    assert best_side([nines, jacks, [], []], [0, 1, 2, 3], SIDE_OF, "eldest") == 1
    assert best_side([aces, nines, [], []], [0, 1, 2, 3], SIDE_OF, "eldest") == 1
    assert best_side([kings, aces, [], []], [0, 1, 2, 3], SIDE_OF, "eldest") == 1
    assert best_side([aces, kings, [], []], [1, 2, 3, 0], SIDE_OF, "eldest") == 0


def test_all_trumps_equal_sequences_tie() -> None:
    # At all trumps every sequence is in trumps, so equal ones are an exact tie.
    declared = seats(TIERCE_TO_K_SPADES, TIERCE_TO_K_DIAMONDS, mode=ALL_TRUMP)
    assert best_side(declared, [1, 2, 3, 0], SIDE_OF, "eldest") == 1
    assert best_side(declared, [1, 2, 3, 0], SIDE_OF, "none") is None


# --- belote ------------------------------------------------------------------------------------------


def test_belote_holder() -> None:
    hands = [m("7S 8S"), m("9H TH"), m("KH QH 7D"), m("AC")]
    assert belote_holder(hands, HEARTS) == 2
    assert belote_holder(hands, SPADES) is None
    assert belote_holder([m("KD"), m("QD"), 0, 0], DIAMONDS) is None
    assert belote_holder([0, 0, 0, m("KC QC")], CLUBS) == 3
    assert belote_holder(hands, NO_TRUMP) is None
    assert belote_holder(hands, ALL_TRUMP) is None


def test_belote_cards() -> None:
    assert belote_cards(HEARTS) == m("QH KH")
    assert belote_cards(SPADES) == m("QS KS")
    assert belote_cards(NO_TRUMP) == 0
    assert belote_cards(ALL_TRUMP) == 0


@settings(max_examples=400, deadline=None)
@given(
    hand=st.sets(st.integers(0, 31), max_size=8).map(lambda cards: sum(1 << c for c in cards)),
    reuse=st.booleans(),
    mode=st.integers(0, 5),
)
def test_the_names_of_a_hands_declarations_are_those_find_declarations_gives(hand: int, reuse: bool, mode: int) -> None:
    assert declaration_names(hand, reuse) == sorted(d.name for d in find_declarations(hand, mode, reuse))


def test_the_names_of_four_jacks_and_a_quinte() -> None:
    hand = mask_of(["JS", "JH", "JD", "JC", "8H", "9H", "TH", "QH"])
    assert declaration_names(hand) == ["four jacks", "quinte"]
    assert declaration_names(hand, card_reuse=False) == ["four jacks", "tierce"]  # 8-9-10 left
