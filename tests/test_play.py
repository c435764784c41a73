"""The play of the cards: legal cards, the trick winner, card order and points (seed 000, "Play")."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote.cards import (
    CARDS,
    CLUBS,
    DIAMONDS,
    FULL_PACK,
    HEARTS,
    SPADES,
    SUIT_MASKS,
    card,
    cards_of,
    mask_of,
    parse_card,
)
from belote.play import (
    ALL_TRUMP,
    KEY,
    LAST_TRICK,
    NO_TRUMP,
    PLAY_OPTIONS,
    POINTS,
    UNDERTRUMP,
    PlayRules,
    beats,
    explain_illegal,
    legal_mask,
    not_held,
    trick_points,
)
from belote.playstate import PLAY, PlayState
from belote.rules import OPTION_SPECS, Rules
from belote.solver import Position

try:
    from belote._playstate import PlayState as CPlayState
    from belote.solver import _dds
except ImportError:  # built without a compiler: only the plain Python is tested
    CPlayState = None  # type: ignore[assignment, misc]
    _dds = None  # type: ignore[assignment]

VECTORS = Path(__file__).parent / "vectors"
MODE_OF = {"S": SPADES, "H": HEARTS, "D": DIAMONDS, "C": CLUBS, "NT": NO_TRUMP, "AT": ALL_TRUMP}
LETTER_OF = {mode: letter for letter, mode in MODE_OF.items()}


def _load_reference() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_legal", VECTORS / "make_legal.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REFERENCE = _load_reference()


def _load_vectors() -> list[dict[str, object]]:
    with (VECTORS / "legal.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


LEGAL_VECTORS = _load_vectors()


def c(text: str) -> int:
    return parse_card(text)


def m(text: str) -> int:
    return mask_of(text.split())


def names(mask: int) -> list[str]:
    return [str(x) for x in cards_of(mask)]


def engine_legal(vector: dict[str, object]) -> list[str]:
    """The engine's legal set for a vector: best is the card winning the trick, led the suit of the first."""
    mode = MODE_OF[str(vector["mode"])]
    trick: list[str] = vector["trick"]  # type: ignore[assignment]
    hand = mask_of(vector["hand"])  # type: ignore[arg-type]
    if trick:
        best = c(REFERENCE.winning_card(trick, vector["mode"]))
        led = c(trick[0]).suit
    else:
        best, led = -1, -1
    partner_winning = bool(vector["partner_winning"])
    return names(legal_mask(mode, hand, best, partner_winning, play_rules(vector).flags, led))


def play_rules(vector: dict[str, object]) -> PlayRules:
    """The play options of a vector (its ``undertrump``), as the engine carries them."""
    return Rules(undertrump=bool(vector["undertrump"])).play


# --- the vector file ---------------------------------------------------------------------------------


@pytest.mark.parametrize("vector", LEGAL_VECTORS, ids=[str(v["id"]) for v in LEGAL_VECTORS])
def test_legal_vectors(vector: dict[str, object]) -> None:
    assert engine_legal(vector) == vector["legal"]


# The vectors again through the play states and the C solver: each has its own copy of the legal
# cards (the C ones share _play.h), reached through the position rather than through legal_mask's
# arguments, so that who is winning the trick and whether that is the partner are theirs to find.
NO_C = pytest.mark.skipif(CPlayState is None, reason="built without the C modules")
PLAY_STATES = [pytest.param(PlayState, id="python"), pytest.param(CPlayState, id="c", marks=NO_C)]


def vector_deal(vector: dict[str, object]) -> tuple[int, list[int], list[int]]:
    """A deal at four hands reaching the vector's position: the mode, each seat's cards before the
    trick on the table, and that trick, led by seat 0. The seat to move holds the vector's hand; the
    rest of the pack is dealt to the others, as many cards each as the deal allows (the solver checks)."""
    hand = [c(x) for x in vector["hand"]]  # type: ignore[attr-defined]
    trick = [c(x) for x in vector["trick"]]  # type: ignore[attr-defined]
    rest = iter(sorted(set(range(32)) - set(hand) - set(trick)))
    hands = []
    for seat in range(4):
        if seat == len(trick):
            cards = hand
        else:
            played = trick[seat : seat + 1]
            cards = played + [next(rest) for _ in range(len(hand) - len(played))]
        hands.append(mask_of(cards))
    return MODE_OF[str(vector["mode"])], hands, trick


@pytest.mark.parametrize("cls", PLAY_STATES)
@pytest.mark.parametrize("vector", LEGAL_VECTORS, ids=[str(v["id"]) for v in LEGAL_VECTORS])
def test_legal_vectors_through_the_play_states(vector: dict[str, object], cls: type[PlayState]) -> None:
    mode, hands, trick = vector_deal(vector)
    state = cls()
    state.play_flags = play_rules(vector).flags
    state.reset_play(hands, mode, 0)
    state.phase = PLAY
    for x in trick:
        state.play_card(x)  # no check: some vector tricks break the rules, only the last card matters
    # The vector's position, the partner (two seats back) winning or not as it says.
    seat = len(trick)
    assert state.to_move == seat and state.hand_mask(seat) == mask_of(vector["hand"])  # type: ignore[arg-type]
    assert (seat >= 2 and state.best_seat == seat - 2) == vector["partner_winning"]
    assert names(state.legal_mask()) == vector["legal"]
    assert [str(x) for x in state.legal_actions()] == vector["legal"]


@NO_C
@pytest.mark.parametrize("vector", LEGAL_VECTORS, ids=[str(v["id"]) for v in LEGAL_VECTORS])
def test_legal_vectors_through_the_c_solver(vector: dict[str, object]) -> None:
    """The solver values exactly the legal cards of the player to move."""
    mode, hands, trick = vector_deal(vector)
    left = tuple(h & ~mask_of(trick[seat : seat + 1]) for seat, h in enumerate(hands))
    pos = Position(left, mode, 0, tuple(trick), rules=play_rules(vector))
    values = _dds.card_values(pos)
    assert names(sum(1 << x for x in values)) == vector["legal"]


def test_vector_file_covers_every_play_rule() -> None:
    assert len(LEGAL_VECTORS) >= 200
    rules: dict[str, int] = {}
    for v in LEGAL_VECTORS:
        rules[str(v["rule"])] = rules.get(str(v["rule"]), 0) + 1
    assert set(rules) == {
        "lead",
        "follow-suit",
        "cannot-follow-no-trump",
        "partner-winning",
        "must-trump",
        "must-overtrump",
        "undertrump",
        "no-undertrump",
        "trump-led-go-higher",
        "trump-led-any-trump",
        "no-trump-follow-suit",
        "no-trump-cannot-follow",
        "all-trump-go-higher",
        "all-trump-cannot-go-higher",
        "all-trump-cannot-follow",
    }
    assert min(rules.values()) >= 10
    assert sum(1 for v in LEGAL_VECTORS if str(v["id"]).startswith("hand-")) >= 20
    assert {v["mode"] for v in LEGAL_VECTORS} == set(MODE_OF)
    assert {len(v["trick"]) for v in LEGAL_VECTORS} == {0, 1, 2, 3}  # type: ignore[arg-type]


def test_every_play_option_is_a_rule_option_of_play_carried_by_rules_play() -> None:
    """A play option is a yes-or-no rule option of the play group, a bit of the flags that
    ``Rules.play`` sets from it and only from it."""
    assert sorted(PLAY_OPTIONS.values()) == [1 << i for i in range(len(PLAY_OPTIONS))]
    for name, bit in PLAY_OPTIONS.items():
        spec = OPTION_SPECS[name]
        assert (spec.kind, spec.group) == ("bool", "play"), name
        for value in (True, False):
            rules = Rules(**{name: value})
            assert rules.play.flags & bit == (bit if value else 0), name
            assert rules.play.flags & ~bit == Rules().play.flags & ~bit, name
    assert Rules().play.flags & UNDERTRUMP  # seed 000: who cannot overtrump still trumps
    with pytest.raises(ValueError):
        PlayRules(1 << len(PLAY_OPTIONS))


def test_vector_ids_are_unique() -> None:
    ids = [v["id"] for v in LEGAL_VECTORS]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("vector", LEGAL_VECTORS, ids=[str(v["id"]) for v in LEGAL_VECTORS])
def test_vector_is_a_real_position(vector: dict[str, object]) -> None:
    hand: list[str] = vector["hand"]  # type: ignore[assignment]
    trick: list[str] = vector["trick"]  # type: ignore[assignment]
    legal: list[str] = vector["legal"]  # type: ignore[assignment]
    # Distinct cards of the pack, none both in the hand and on the table.
    assert len(set(hand + trick)) == len(hand) + len(trick)
    assert all(str(parse_card(x)) == x for x in hand + trick)
    assert 1 <= len(hand) <= 8 and len(trick) <= 3
    # The legal set is a non-empty part of the hand, in the canonical order.
    assert legal and set(legal) <= set(hand)
    assert legal == [str(x) for x in sorted(parse_card(x) for x in legal)]
    # Partner winning: with two cards down partner led, with three partner played second.
    partner_card = trick[-2] if len(trick) >= 2 else None
    winner = REFERENCE.winning_card(trick, vector["mode"]) if trick else None
    assert vector["partner_winning"] == (partner_card is not None and winner == partner_card)


def test_the_worked_examples_of_the_vectors_say_what_the_seed_says() -> None:
    """A few of the hand-checked vectors, read as sentences of the rule."""
    by_id = {v["id"]: v for v in LEGAL_VECTORS}
    # "you must overtrump when you can": the nine of hearts is down, only the jack is higher.
    assert by_id["hand-overtrump-over-nine"]["legal"] == ["JH"]
    # "If your partner is winning the trick, you may throw any card you like."
    assert by_id["hand-partner-winning-third"]["legal"] == ["JH", "AD", "7C"]
    # "When a trump is led, each player must play a higher trump than the best already down."
    assert by_id["hand-trump-led-partner-still-higher"]["legal"] == ["JS"]


# --- legal_mask by hand ------------------------------------------------------------------------------


def test_leading_any_card_is_legal() -> None:
    hand = m("7S JH 9D AC")
    assert legal_mask(HEARTS, hand, -1, False, UNDERTRUMP) == hand
    assert legal_mask(NO_TRUMP, hand, -1, False, UNDERTRUMP) == hand
    assert legal_mask(ALL_TRUMP, hand, -1, False, UNDERTRUMP) == hand


def test_follow_suit_if_you_can() -> None:
    assert names(legal_mask(HEARTS, m("7S AS JH 9D"), c("KS"), False, UNDERTRUMP, SPADES)) == ["7S", "AS"]


def test_follow_suit_even_when_the_trick_has_been_trumped() -> None:
    # Spades led and cut with the nine of hearts: a spade is still required, and any spade will do.
    assert names(legal_mask(HEARTS, m("8S TS 7H JH"), c("9H"), False, UNDERTRUMP, SPADES)) == ["8S", "TS"]


def test_the_suit_led_defaults_to_the_suit_of_the_best_card() -> None:
    hand = m("7S AS JH 9D")
    assert legal_mask(HEARTS, hand, c("KS"), False, UNDERTRUMP) == legal_mask(
        HEARTS, hand, c("KS"), False, UNDERTRUMP, 0
    )


def test_cannot_follow_and_the_other_side_wins_you_must_trump() -> None:
    assert names(legal_mask(HEARTS, m("9H 7H AD"), c("KS"), False, UNDERTRUMP, SPADES)) == ["7H", "9H"]


def test_you_must_overtrump_when_you_can() -> None:
    assert names(legal_mask(HEARTS, m("7H JH AS"), c("9H"), False, UNDERTRUMP, CLUBS)) == ["JH"]
    assert names(legal_mask(HEARTS, m("7H JH AS"), c("9H"), False, 0, CLUBS)) == ["JH"]


def test_cannot_overtrump_must_still_trump_or_play_anything() -> None:
    hand = m("7H 8H AS")
    assert names(legal_mask(HEARTS, hand, c("JH"), False, UNDERTRUMP, CLUBS)) == ["7H", "8H"]
    assert names(legal_mask(HEARTS, hand, c("JH"), False, 0, CLUBS)) == ["AS", "7H", "8H"]


def test_partner_winning_you_may_throw_any_card() -> None:
    hand = m("JH 7C AD")
    assert legal_mask(HEARTS, hand, c("AS"), True, UNDERTRUMP, SPADES) == hand
    # Partner's trump is winning: no need to overtrump it.
    assert legal_mask(DIAMONDS, m("AD 8S"), c("7D"), True, UNDERTRUMP, CLUBS) == m("AD 8S")


def test_partner_winning_does_not_release_you_from_following_suit() -> None:
    assert names(legal_mask(HEARTS, m("7S AS JH"), c("KS"), True, UNDERTRUMP, SPADES)) == ["7S", "AS"]


def test_trump_led_you_must_play_a_higher_trump_if_you_hold_one() -> None:
    assert names(legal_mask(HEARTS, m("9H 7H AH AS"), c("TH"), False, UNDERTRUMP, HEARTS)) == ["9H", "AH"]
    # Even over your partner's trump.
    assert names(legal_mask(SPADES, m("JS 8S 7D"), c("AS"), True, UNDERTRUMP, SPADES)) == ["JS"]


def test_trump_led_no_higher_trump_any_trump() -> None:
    assert names(legal_mask(HEARTS, m("7H 8H AS"), c("JH"), False, UNDERTRUMP, HEARTS)) == ["7H", "8H"]
    assert names(legal_mask(HEARTS, m("7H 8H AS"), c("JH"), False, 0, HEARTS)) == ["7H", "8H"]


def test_trump_led_no_trump_anything() -> None:
    hand = m("AS TH KD")
    assert legal_mask(CLUBS, hand, c("7C"), False, UNDERTRUMP, CLUBS) == hand


def test_no_trumps_follow_suit_else_anything() -> None:
    assert names(legal_mask(NO_TRUMP, m("7H AH JS"), c("KH"), False, UNDERTRUMP, HEARTS)) == ["7H", "AH"]
    assert legal_mask(NO_TRUMP, m("7H AH JS"), c("KD"), False, UNDERTRUMP, DIAMONDS) == m("7H AH JS")


def test_all_trumps_go_higher_in_the_suit_led() -> None:
    assert names(legal_mask(ALL_TRUMP, m("JD AD 8D 7S"), c("TD"), False, UNDERTRUMP, DIAMONDS)) == ["JD", "AD"]
    assert names(legal_mask(ALL_TRUMP, m("9S KS AH"), c("AS"), True, UNDERTRUMP, SPADES)) == ["9S"]
    assert names(legal_mask(ALL_TRUMP, m("8C 7C AD"), c("JC"), False, UNDERTRUMP, CLUBS)) == ["7C", "8C"]
    assert legal_mask(ALL_TRUMP, m("JS 9H"), c("8D"), False, UNDERTRUMP, DIAMONDS) == m("JS 9H")


# --- the trick winner --------------------------------------------------------------------------------


def test_the_jack_of_trumps_beats_everything() -> None:
    jack = c("JH")
    assert all(beats(HEARTS, jack, other) for other in range(32) if other != jack)
    assert not any(beats(HEARTS, other, jack) for other in range(32))


def test_the_nine_of_trumps_is_second() -> None:
    assert beats(HEARTS, c("9H"), c("AH"))
    assert not beats(HEARTS, c("9H"), c("JH"))
    assert not beats(HEARTS, c("AH"), c("9H"))


def test_the_ten_sits_above_the_king_outside_trumps() -> None:
    assert beats(HEARTS, c("TS"), c("KS"))
    assert not beats(HEARTS, c("KS"), c("TS"))
    assert beats(HEARTS, c("JS"), c("9S"))  # outside trumps the jack is above the nine


def test_any_trump_beats_a_plain_card_and_nothing_else_does() -> None:
    assert beats(HEARTS, c("7H"), c("AS"))
    assert not beats(HEARTS, c("AS"), c("7H"))
    # Another plain suit never wins, however high.
    assert not beats(HEARTS, c("AC"), c("7S"))
    assert beats(HEARTS, c("AC"), c("7C")) and not beats(HEARTS, c("7C"), c("AC"))


def test_no_trumps_nothing_cuts() -> None:
    assert not beats(NO_TRUMP, c("JH"), c("7S"))
    assert beats(NO_TRUMP, c("AS"), c("TS"))
    assert not beats(NO_TRUMP, c("JS"), c("QS"))


def test_all_trumps_nothing_cuts_and_the_jack_is_high() -> None:
    assert not beats(ALL_TRUMP, c("JH"), c("7S"))
    assert beats(ALL_TRUMP, c("JS"), c("9S"))
    assert beats(ALL_TRUMP, c("9S"), c("AS"))
    assert beats(ALL_TRUMP, c("QS"), c("8S"))


@pytest.mark.parametrize("vector", LEGAL_VECTORS, ids=[str(v["id"]) for v in LEGAL_VECTORS])
def test_beats_finds_the_winner_of_every_vector_trick(vector: dict[str, object]) -> None:
    trick: list[str] = vector["trick"]  # type: ignore[assignment]
    if not trick:
        return
    mode = MODE_OF[str(vector["mode"])]
    best = c(trick[0])
    for played in trick[1:]:
        if beats(mode, c(played), best):
            best = c(played)
    assert str(CARDS[best]) == REFERENCE.winning_card(trick, vector["mode"])


# --- card order and points ---------------------------------------------------------------------------


def _order(mode: int, suit: int) -> str:
    """The ranks of a suit, strongest first, as letters."""
    cards = sorted((card(suit, r) for r in range(8)), key=lambda x: -KEY[mode][x])
    return "".join(str(x)[0] for x in cards)


def _values(mode: int, suit: int, ranks: str) -> list[int]:
    return [POINTS[mode][parse_card(r + "SHDC"[suit])] for r in ranks]


@pytest.mark.parametrize("trump", [SPADES, HEARTS, DIAMONDS, CLUBS])
def test_card_order_with_a_trump_suit(trump: int) -> None:
    for suit in range(4):
        assert _order(trump, suit) == ("J9ATKQ87" if suit == trump else "ATKQJ987")


@pytest.mark.parametrize("suit", [SPADES, HEARTS, DIAMONDS, CLUBS])
def test_card_order_at_no_trumps_and_all_trumps(suit: int) -> None:
    assert _order(NO_TRUMP, suit) == "ATKQJ987"
    assert _order(ALL_TRUMP, suit) == "J9ATKQ87"


@pytest.mark.parametrize("trump", [SPADES, HEARTS, DIAMONDS, CLUBS])
def test_card_values_with_a_trump_suit(trump: int) -> None:
    for suit in range(4):
        if suit == trump:
            assert _values(trump, suit, "J9ATKQ87") == [20, 14, 11, 10, 4, 3, 0, 0]
        else:
            assert _values(trump, suit, "ATKQJ987") == [11, 10, 4, 3, 2, 0, 0, 0]


@pytest.mark.parametrize("mode", [SPADES, HEARTS, DIAMONDS, CLUBS, NO_TRUMP, ALL_TRUMP])
def test_the_pack_is_worth_152_and_a_deal_162(mode: int) -> None:
    assert sum(POINTS[mode]) == 152
    assert trick_points(mode, list(range(32))) == 152
    assert trick_points(mode, cards_of(FULL_PACK)) + LAST_TRICK == 162


def test_trick_points() -> None:
    assert trick_points(HEARTS, [c("JH"), c("9H"), c("AS"), c("TS")]) == 55
    assert trick_points(HEARTS, [c("7S"), c("8S"), c("9S"), c("7H")]) == 0
    assert trick_points(SPADES, [c("JH"), c("9H"), c("KS"), c("QS")]) == 2 + 0 + 4 + 3
    assert trick_points(HEARTS, []) == 0


def test_the_worked_deal_of_the_seed_counts() -> None:
    # Hearts trumps. Trumps taken: jack 20, nine 14, ace 11, king 4, queen 3.
    assert trick_points(HEARTS, list(cards_of(m("JH 9H AH KH QH")))) == 52
    # Spades taken: ace, ten and king.
    assert trick_points(HEARTS, list(cards_of(m("AS TS KS")))) == 25
    # Clubs taken: ace and ten. With the last trick: 108.
    assert trick_points(HEARTS, list(cards_of(m("AC TC")))) == 21
    assert 52 + 25 + 21 + LAST_TRICK == 108


def test_trump_jack_and_nine_only_count_in_trumps() -> None:
    assert POINTS[HEARTS][c("JH")] == 20 and POINTS[SPADES][c("JH")] == 2
    assert POINTS[HEARTS][c("9H")] == 14 and POINTS[SPADES][c("9H")] == 0


# --- explain_illegal ---------------------------------------------------------------------------------


def test_explain_a_card_you_do_not_hold() -> None:
    msg = explain_illegal(HEARTS, m("7S AS"), c("KS"), False, UNDERTRUMP, SPADES, c("JH"))
    assert msg == "you do not hold J♥"


def test_explain_follow_suit() -> None:
    msg = explain_illegal(HEARTS, m("7S AS JH"), c("KS"), False, UNDERTRUMP, SPADES, c("JH"))
    assert msg == "you must follow suit: ♠ was led and you hold 7♠ A♠"


def test_explain_must_trump() -> None:
    msg = explain_illegal(HEARTS, m("9H 7H AD"), c("KS"), False, UNDERTRUMP, SPADES, c("AD"))
    assert msg == "you must trump: you have no ♠, the other side is winning, and you hold 7♥ 9♥"


def test_explain_must_overtrump() -> None:
    msg = explain_illegal(HEARTS, m("7H JH AS"), c("9H"), False, UNDERTRUMP, CLUBS, c("7H"))
    assert msg == "you must overtrump: 9♥ is winning and you hold J♥"
    msg = explain_illegal(HEARTS, m("7H JH AS"), c("9H"), False, UNDERTRUMP, CLUBS, c("AS"))
    assert msg.startswith("you must overtrump")


def test_explain_must_still_trump_when_you_cannot_overtrump() -> None:
    msg = explain_illegal(HEARTS, m("7H 8H AS"), c("JH"), False, UNDERTRUMP, CLUBS, c("AS"))
    assert msg == "you must still trump: J♥ is winning, you cannot overtrump, and you hold 7♥ 8♥"


def test_explain_higher_trump_when_trumps_are_led() -> None:
    msg = explain_illegal(HEARTS, m("9H 7H AH AS"), c("TH"), False, UNDERTRUMP, HEARTS, c("7H"))
    assert msg == "you must play a higher trump: 10♥ is winning and you hold 9♥ A♥"


def test_explain_follow_suit_when_trumps_are_led_and_you_cannot_go_higher() -> None:
    msg = explain_illegal(HEARTS, m("7H 8H AS"), c("JH"), False, UNDERTRUMP, HEARTS, c("AS"))
    assert msg == "you must follow suit: ♥ was led and you hold 7♥ 8♥"


def test_explain_go_higher_at_all_trumps() -> None:
    msg = explain_illegal(ALL_TRUMP, m("JD AD 8D 7S"), c("TD"), False, UNDERTRUMP, DIAMONDS, c("8D"))
    assert msg == "you must go higher in ♦: 10♦ is winning and you hold J♦ A♦"


# Which words each rule of the vector file puts in the message for an illegal card.
RULE_WORDS = {
    "follow-suit": "you must follow suit:",
    "must-trump": "you must trump:",
    "must-overtrump": "you must overtrump:",
    "undertrump": "you must still trump:",
    "trump-led-go-higher": "you must play a higher trump:",
    "trump-led-any-trump": "you must follow suit:",
    "no-trump-follow-suit": "you must follow suit:",
    "all-trump-go-higher": "you must go higher in {suit}:",
    "all-trump-cannot-go-higher": "you must follow suit:",
}
SYMBOL_OF = dict(zip("SHDC", "♠♥♦♣", strict=True))


@pytest.mark.parametrize(
    "vector",
    [v for v in LEGAL_VECTORS if v["legal"] != v["hand"]],
    ids=[str(v["id"]) for v in LEGAL_VECTORS if v["legal"] != v["hand"]],
)
def test_explain_every_illegal_card_of_the_vectors(vector: dict[str, object]) -> None:
    mode = MODE_OF[str(vector["mode"])]
    trick: list[str] = vector["trick"]  # type: ignore[assignment]
    held: list[str] = vector["hand"]  # type: ignore[assignment]
    legal: list[str] = vector["legal"]  # type: ignore[assignment]
    best = c(REFERENCE.winning_card(trick, vector["mode"]))
    led = trick[0][1]
    words = RULE_WORDS[str(vector["rule"])].format(suit=SYMBOL_OF[led])
    if legal == [x for x in held if x[1] == led]:
        # Every card of the suit led is allowed: the only fault can be not following.
        words = "you must follow suit:"
    illegal = [x for x in held if x not in legal]
    assert illegal
    for x in illegal:
        msg = explain_illegal(
            mode,
            mask_of(held),
            best,
            bool(vector["partner_winning"]),
            play_rules(vector).flags,
            "SHDC".index(led),
            c(x),
        )
        assert msg.startswith(words), (x, msg)


# --- properties --------------------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, int, list[int], bool]:
    """A mode, a hand (one to eight cards), the cards down (none to three), the undertrump option."""
    mode = draw(st.sampled_from([SPADES, HEARTS, DIAMONDS, CLUBS, NO_TRUMP, ALL_TRUMP]))
    pack = draw(st.permutations(range(32)))
    down = draw(st.integers(0, 3))
    size = draw(st.integers(1, 8))
    trick = list(pack[:down])
    hand = sum(1 << x for x in pack[down : down + size])
    return mode, hand, trick, draw(st.booleans())


def _best(mode: int, trick: list[int]) -> int:
    best = trick[0]
    for played in trick[1:]:
        if beats(mode, played, best):
            best = played
    return best


@settings(max_examples=400)
@given(positions(), st.booleans())
def test_legal_set_is_never_empty_and_part_of_the_hand(
    position: tuple[int, int, list[int], bool], partner_winning: bool
) -> None:
    mode, hand, trick, undertrump = position
    best = _best(mode, trick) if trick else -1
    led = trick[0] >> 3 if trick else -1
    legal = legal_mask(mode, hand, best, partner_winning, Rules(undertrump=undertrump).play.flags, led)
    assert legal != 0
    assert legal & ~hand == 0


@settings(max_examples=400)
@given(positions())
def test_legal_set_agrees_with_the_reference(position: tuple[int, int, list[int], bool]) -> None:
    mode, hand, trick, undertrump = position
    letter = LETTER_OF[mode]
    trick_names = [str(CARDS[x]) for x in trick]
    hand_names = names(hand)
    partner_winning = REFERENCE.partner_is_winning(trick_names, letter)
    expected, _rule = REFERENCE.legal_cards(letter, hand_names, trick_names, partner_winning, undertrump)
    best = _best(mode, trick) if trick else -1
    led = trick[0] >> 3 if trick else -1
    flags = Rules(undertrump=undertrump).play.flags
    assert names(legal_mask(mode, hand, best, partner_winning, flags, led)) == expected


@settings(max_examples=200)
@given(positions())
def test_an_illegal_card_is_explained_and_a_legal_one_is_in_the_set(
    position: tuple[int, int, list[int], bool],
) -> None:
    mode, hand, trick, undertrump = position
    if not trick:
        return
    best, led = _best(mode, trick), trick[0] >> 3
    flags = Rules(undertrump=undertrump).play.flags
    legal = legal_mask(mode, hand, best, False, flags, led)
    for x in cards_of(hand & ~legal):
        assert explain_illegal(mode, hand, best, False, flags, led, x).startswith("you must ")
    assert hand & SUIT_MASKS[led] == 0 or legal & ~SUIT_MASKS[led] == 0


@settings(max_examples=400)
@given(positions(), st.booleans())
def test_a_card_is_legal_exactly_when_its_hand_holds_none_it_shows_not_held(
    position: tuple[int, int, list[int], bool], partner_winning: bool
) -> None:
    """What a seat learns from a card played (``not_held``, which knowledge.py reads) is exact: the
    card was legal in a hand exactly when the hand held none of those cards."""
    mode, hand, trick, undertrump = position
    if not trick:
        return
    best, led = _best(mode, trick), trick[0] >> 3
    flags = Rules(undertrump=undertrump).play.flags
    legal = legal_mask(mode, hand, best, partner_winning, flags, led)
    for x in cards_of(hand):
        shown = not_held(mode, x, best, partner_winning, flags, led)
        assert (legal >> x & 1 == 1) == (hand & shown == 0), (x, shown)
