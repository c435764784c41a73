"""The 32-card pack: parsing and printing cards, card sets as masks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from belote.cards import (
    ACE,
    CARDS,
    CLUBS,
    DIAMONDS,
    FULL_PACK,
    HEARTS,
    JACK,
    NINE,
    SEVEN,
    SPADES,
    SUIT_MASKS,
    TEN,
    Card,
    CardError,
    card,
    cards_of,
    count,
    format_cards,
    mask_of,
    parse_card,
    parse_suit,
    suit_of,
)


@pytest.mark.parametrize(
    ("text", "suit", "rank", "number"),
    [
        ("JH", HEARTS, JACK, 12),
        ("10h", HEARTS, TEN, 11),
        ("10H", HEARTS, TEN, 11),
        ("TS", SPADES, TEN, 3),
        ("ts", SPADES, TEN, 3),
        ("9♦", DIAMONDS, NINE, 18),
        ("7S", SPADES, SEVEN, 0),
        ("AC", CLUBS, ACE, 31),
        ("10♣", CLUBS, TEN, 27),
        ("jh", HEARTS, JACK, 12),
        (" AC ", CLUBS, ACE, 31),
        ("a♠", SPADES, ACE, 7),
    ],
)
def test_parse_card(text: str, suit: int, rank: int, number: int) -> None:
    x = parse_card(text)
    assert isinstance(x, Card)
    assert (x.suit, x.rank, int(x)) == (suit, rank, number)


NOT_CARDS = ["", "1H", "JX", "11H", "JHH", "K", "10", "H", "HJ", "0H", "1♥", "J♥♥", "10HS"]


@pytest.mark.parametrize("text", NOT_CARDS)
def test_bad_card_raises_card_error_with_a_message(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    message = str(info.value)
    assert repr(text) in message
    assert "is not a card" in message
    assert "JH" in message and "10S" in message  # it shows how to write one


@pytest.mark.parametrize("thing", [12, None, 3.5, ["JH"]])
def test_a_card_must_be_text(thing: object) -> None:
    with pytest.raises(CardError, match="is not a card"):
        parse_card(thing)  # type: ignore[arg-type]


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)
    with pytest.raises(ValueError):
        parse_card("ZZ")


SUIT_TEXTS = [("S", 0), ("h", 1), ("♥", 1), ("D", 2), ("♦", 2), ("c", 3), ("♣", 3)]


@pytest.mark.parametrize(("text", "suit"), SUIT_TEXTS)
def test_parse_suit(text: str, suit: int) -> None:
    assert parse_suit(text) == suit


@pytest.mark.parametrize("text", ["", "X", "SH", "hearts", "1"])
def test_bad_suit(text: str) -> None:
    with pytest.raises(CardError, match="is not a suit: use one of S H D C"):
        parse_suit(text)


def test_printing() -> None:
    assert str(parse_card("10h")) == "TH"
    assert parse_card("10h").pretty() == "10♥"
    assert parse_card("JS").pretty() == "J♠"
    assert parse_card("9♦").pretty() == "9♦"
    assert parse_card("ac").pretty() == "A♣"
    assert repr(parse_card("JH")) == "Card('JH')"


def test_every_card_prints_and_parses_back() -> None:
    assert len(CARDS) == 32
    for number, x in enumerate(CARDS):
        assert int(x) == number
        assert parse_card(str(x)) == x
        assert parse_card(x.pretty()) == x
        assert parse_card(str(x).lower()) == x


def test_the_canonical_order_is_spades_hearts_diamonds_clubs_seven_to_ace() -> None:
    assert format_cards(CARDS[:8]) == "7S 8S 9S TS JS QS KS AS"
    assert [str(x) for x in CARDS[::8]] == ["7S", "7H", "7D", "7C"]
    assert str(CARDS[-1]) == "AC"


def test_card_from_suit_and_rank() -> None:
    assert card(HEARTS, JACK) == parse_card("JH")
    assert card(CLUBS, ACE) is CARDS[31]
    for x in CARDS:
        assert card(x.suit, x.rank) == x
        assert suit_of(x) == x.suit


def test_mask_of_and_cards_of() -> None:
    mask = mask_of(["JH", "9H"])
    assert mask == (1 << 12) | (1 << 10)
    assert cards_of(mask) == (parse_card("9H"), parse_card("JH"))
    assert mask_of([12, "9h"]) == mask
    assert mask_of([]) == 0
    assert cards_of(0) == ()
    assert cards_of(FULL_PACK) == CARDS
    assert mask_of(CARDS) == FULL_PACK


def test_cards_of_gives_the_canonical_order() -> None:
    mask = mask_of(["AC", "7S", "JH", "8D", "KS"])
    assert [str(x) for x in cards_of(mask)] == ["7S", "KS", "JH", "8D", "AC"]
    assert all(isinstance(x, Card) for x in cards_of(mask))


def test_suit_masks_and_count() -> None:
    for suit in range(4):
        assert [x.suit for x in cards_of(SUIT_MASKS[suit])] == [suit] * 8
    assert sum(SUIT_MASKS) == FULL_PACK
    assert count(mask_of(["7S", "8S", "JH"])) == 3
    assert count(FULL_PACK) == 32


def test_format_cards() -> None:
    cards = [parse_card(x) for x in ("TH", "JS", "7C")]
    assert format_cards(cards) == "TH JS 7C"
    assert format_cards(cards, pretty=True) == "10♥ J♠ 7♣"
    assert format_cards([]) == ""


@given(st.integers(0, FULL_PACK))
def test_mask_round_trip(mask: int) -> None:
    cards = cards_of(mask)
    assert mask_of(cards) == mask
    assert mask_of([str(x) for x in cards]) == mask
    assert list(cards) == sorted(cards)
    assert len(cards) == count(mask)


@given(st.sets(st.integers(0, 31)))
def test_cards_of_a_set_is_the_sorted_set(numbers: set[int]) -> None:
    assert [int(x) for x in cards_of(mask_of(numbers))] == sorted(numbers)
