"""The deal and the match as a state machine (``belote.game``): one test per rule sentence.

Most tests use the unshuffled pack ``PACK`` (7♠ 8♠ ... A♠, 7♥ ... A♣, top card first), so every hand
can be worked out by hand from the rule "3 each then 2 each from the player next to the dealer, the
next card turned, then 3 each, 2 and the turned card for the taker". With N dealing, clockwise:

    E: 7S 8S 9S + JH QH     S: TS JS QS + KH AH     W: KS AS 7H + 7D 8D     N: 8H 9H TH + 9D TD
    turned JD; then 3 each (QD KD AD / 7C 8C 9C / TC JC QC / KC AC ...), 2 for the taker.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from belote.cards import CARDS, parse_card
from belote.game import (
    NAMES,
    PASS,
    TAKE,
    Deal,
    GameOver,
    IllegalAction,
    IllegalBid,
    IllegalPlay,
    Match,
    NotYourTurn,
)
from belote.rules import Rules
from belote.scoring import match_winner

N, E, S, W = range(4)
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
PACK = list(range(32))


def cards(text: str) -> list[str]:
    return text.split()


def hand(deal: Deal, seat: int) -> list[str]:
    return [str(c) for c in deal.hand(seat)]


def play(deal: Deal | Match, *texts: str) -> None:
    for t in texts:
        deal.apply(parse_card(t))


def pack_deal(rules: Rules | None = None, dealer: int = N) -> Deal:
    return Deal(rules or Rules(), dealer, PACK)


def first_legal(deal: Deal) -> None:
    """Play the deal out, each player taking the first of its legal actions (take when it can)."""
    while deal.phase != "done":
        legal = deal.legal_actions()
        deal.apply(TAKE if TAKE in legal else legal[0])


def finish_deal(match: Match) -> None:
    """Play the current deal of a match out: take at once, then the first legal card."""
    deals = len(match.deals)
    while not match.over and len(match.deals) == deals:
        legal = match.legal_actions()
        match.apply(TAKE if TAKE in legal else legal[0])


def state(deal: Deal | Match) -> Any:
    """Everything observable: every seat's view, the spectator's, the events and the actions."""
    return (
        [deal.view(s).to_json() for s in (N, E, S, W, None)],
        deal.events(),
        [int(a) for a in deal.actions],
    )


CARD_RE = re.compile(r"\b[789TJQKA][SHDC]\b")


def cards_named(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return set(CARD_RE.findall(obj)) if len(obj) == 2 else set()
    if isinstance(obj, dict):
        return set().union(set(), *(cards_named(v) for v in obj.values()))
    if isinstance(obj, list | tuple):
        return set().union(set(), *(cards_named(v) for v in obj))
    return set()


# --------------------------------------------------------------------------- implementations
def test_c_play_state_is_built() -> None:
    """``pip install .`` builds the C play state with the system compiler; it must be importable."""
    import belote._playstate

    assert belote._playstate.PlayState.__module__ == "belote._playstate"


def test_game_uses_c_play_state_unless_pure_python_is_asked() -> None:
    import belote._playstate
    import belote.game
    import belote.playstate

    if os.environ.get("BELOTE_PURE_PYTHON"):
        assert belote.game.PlayState is belote.playstate.PlayState
    else:
        assert belote.game.PlayState is belote._playstate.PlayState
    assert issubclass(Deal, belote.game.PlayState)


def test_each_engine_runs_on_its_implementation(engines: Any) -> None:
    assert engines["c"].implementation() == "belote._playstate"
    assert engines["pure"].implementation() == "belote.playstate"


def fixed_deal_transcript() -> dict[str, Any]:
    """The unshuffled pack, N deals, E takes, everyone plays its first legal card (run under an engine)."""
    from belote.cards import CARDS
    from belote.game import TAKE, Deal, IllegalPlay, action_str
    from belote.rules import Rules

    deal = Deal(Rules(), 0, list(range(32)))
    deal.apply(TAKE)
    out: dict[str, Any] = {"hands": [[str(c) for c in deal.hand(s)] for s in range(4)], "legal": [], "refused": []}
    while deal.phase == "play":
        legal = deal.legal_actions()
        out["legal"].append([action_str(a) for a in legal])
        before = [deal.view(s).to_json() for s in range(4)]
        for c in CARDS:
            if c not in legal and deal.hand_mask(deal.to_move) >> c & 1:
                try:
                    deal.apply(c)
                except IllegalPlay as e:
                    out["refused"].append([str(c), str(e)])
                else:
                    raise AssertionError(f"{c} was accepted")
                assert [deal.view(s).to_json() for s in range(4)] == before
        deal.apply(legal[0])
    assert deal.result is not None
    out["tricks"] = [[t.leader, [str(CARDS[c]) for c in t.cards], t.winner, t.points] for t in deal.tricks]
    out["result"] = deal.result.to_json()
    out["events"] = deal.events()
    return out


def test_fixed_deal_under_each_implementation(impl: Any) -> None:
    out = impl.run(fixed_deal_transcript)
    assert out["hands"] == [
        cards("8H 9H TH 9D TD QC KC AC"),
        cards("7S 8S 9S JH QH JD QD KD"),
        cards("TS JS QS KH AH AD 7C 8C"),
        cards("KS AS 7H 7D 8D 9C TC JC"),
    ]
    assert out["tricks"] == [
        [E, cards("7S TS KS 8H"), S, 14],
        [S, cards("JS AS 9D 8S"), N, 27],
        [N, cards("9H JH KH 7H"), S, 6],
        [S, cards("QS 7D TD 9S"), N, 13],
        [N, cards("TH QH AH 8D"), W, 24],
        [W, cards("9C QC JD 7C"), E, 23],
        [E, cards("QD AD TC KC"), S, 28],
        [S, cards("8C JC AC KD"), E, 27],
    ]
    assert out["result"] == {
        "outcome": "dedans",
        "cards": {"NS": 88, "EW": 74},
        "declarations": {"NS": 60, "EW": 0},
        "belote": {"NS": 0, "EW": 20},
        "points": {"NS": 222, "EW": 20},
        "pending": 0,
    }
    # N cannot follow the first spade and its partner S is winning: anything goes.
    assert out["legal"][3] == cards("8H 9H TH 9D TD QC KC AC")
    follow = "you must follow suit: ♠ was led and you hold 10♠ J♠ Q♠"
    assert out["refused"][:5] == [["KH", follow], ["AH", follow], ["AD", follow], ["7C", follow], ["8C", follow]]
    assert len(out["refused"]) > 20


def refusal_transcript() -> list[list[Any]]:
    """What each kind of wrong action raises, in the bidding and in the play (run under an engine)."""
    from belote.cards import parse_card
    from belote.game import NAMES, PASS, TAKE, Deal
    from belote.rules import Rules

    class Small(int):
        pass

    out: list[list[Any]] = []
    for phase in ("bidding", "play"):
        deal = Deal(Rules(), 0, list(range(32)))
        if phase == "play":
            deal.apply(TAKE)
        before = [deal.view(s).to_json() for s in (0, 1, 2, 3, None)]
        tries: list[tuple[str, Any, Any]] = [
            ("str", "JH", None),
            ("none", None, None),
            ("float", 1.5, None),
            ("true", True, None),
            ("false", False, None),
            ("list", [0], None),
            ("card out of turn", parse_card("TS"), 2),
            ("bid out of turn", PASS, 2),
            ("card not held", parse_card("AC"), None),
            ("card not held, own seat", parse_card("AC"), 1),
            ("take", TAKE, None),
            ("name the turned suit", NAMES[2], None),
        ]
        for label, action, seat in tries:
            try:
                deal.apply(action, seat)
            except Exception as e:
                out.append([phase, label, type(e).__name__, str(e)])
            else:
                out.append([phase, label, "accepted", ""])
                deal.undo()
            assert [deal.view(s).to_json() for s in (0, 1, 2, 3, None)] == before, label
        deal.apply(Small(int(deal.legal_actions()[0])), 1)
        out.append([phase, "int subclass", "accepted", str(deal.actions[-1])])
    return out


def test_refusals_under_each_implementation(impl: Any) -> None:
    not_action = "is not an action: play a card or make a bid"
    not_over = "the bidding is not over: take, pass or name a suit before playing AC"
    first_round = "in the first round you take the turned suit or pass; other suits are named in the second"
    assert impl.run(refusal_transcript) == [
        ["bidding", "str", "IllegalAction", f"'JH' {not_action}"],
        ["bidding", "none", "IllegalAction", f"None {not_action}"],
        ["bidding", "float", "IllegalAction", f"1.5 {not_action}"],
        ["bidding", "true", "IllegalAction", f"True {not_action}"],
        ["bidding", "false", "IllegalAction", f"False {not_action}"],
        ["bidding", "list", "IllegalAction", f"[0] {not_action}"],
        ["bidding", "card out of turn", "NotYourTurn", "it is E's turn to bid, not S's"],
        ["bidding", "bid out of turn", "NotYourTurn", "it is E's turn to bid, not S's"],
        ["bidding", "card not held", "IllegalBid", not_over],
        ["bidding", "card not held, own seat", "IllegalBid", not_over],
        ["bidding", "take", "accepted", ""],
        ["bidding", "name the turned suit", "IllegalBid", first_round],
        ["bidding", "int subclass", "accepted", "pass"],
        ["play", "str", "IllegalAction", f"'JH' {not_action}"],
        ["play", "none", "IllegalAction", f"None {not_action}"],
        ["play", "float", "IllegalAction", f"1.5 {not_action}"],
        ["play", "true", "IllegalAction", f"True {not_action}"],
        ["play", "false", "IllegalAction", f"False {not_action}"],
        ["play", "list", "IllegalAction", f"[0] {not_action}"],
        ["play", "card out of turn", "NotYourTurn", "it is E's turn to play, not S's"],
        ["play", "bid out of turn", "NotYourTurn", "it is E's turn to play, not S's"],
        ["play", "card not held", "IllegalPlay", "you do not hold A♣"],
        ["play", "card not held, own seat", "IllegalPlay", "you do not hold A♣"],
        ["play", "take", "IllegalPlay", "the bidding is over: play a card, not take"],
        ["play", "name the turned suit", "IllegalPlay", "the bidding is over: play a card, not D"],
        ["play", "int subclass", "accepted", "7S"],
    ]  # fmt: skip


# --------------------------------------------------------------------------- the deal
def test_first_distribution_three_then_two_from_the_player_next_to_the_dealer() -> None:
    deal = pack_deal()
    assert deal.phase == "bidding"
    assert hand(deal, E) == cards("7S 8S 9S JH QH")
    assert hand(deal, S) == cards("TS JS QS KH AH")
    assert hand(deal, W) == cards("KS AS 7H 7D 8D")
    assert hand(deal, N) == cards("8H 9H TH 9D TD")


def test_first_distribution_with_another_dealer() -> None:
    deal = pack_deal(dealer=S)  # W is next to S, then N, E, S
    assert hand(deal, W) == cards("7S 8S 9S JH QH")
    assert hand(deal, N) == cards("TS JS QS KH AH")
    assert hand(deal, E) == cards("KS AS 7H 7D 8D")
    assert hand(deal, S) == cards("8H 9H TH 9D TD")


def test_the_next_card_is_turned_and_proposes_its_suit() -> None:
    deal = pack_deal()
    assert str(deal.turned) == "JD"
    assert deal.view(None).to_json()["turned"] == "JD"
    assert deal.events()[0] == {"type": "dealt", "dealer": "N", "turned": "JD"}
    assert deal.trump is None and deal.taker is None


def test_first_round_each_player_from_the_dealers_left_may_take_or_pass() -> None:
    deal = pack_deal()
    assert deal.to_move == E
    assert deal.legal_actions() == (PASS, TAKE)
    deal.apply(PASS)
    assert deal.to_move == S
    assert deal.legal_actions() == (PASS, TAKE)
    deal.apply(TAKE)
    assert (deal.taker, deal.trump, deal.phase) == (S, DIAMONDS, "play")


def test_the_taker_gets_the_turned_card_and_two_more_the_others_three() -> None:
    deal = pack_deal()
    deal.apply(PASS)
    deal.apply(TAKE)  # S takes the J♦
    assert hand(deal, E) == cards("7S 8S 9S JH QH QD KD AD")
    assert hand(deal, S) == cards("TS JS QS KH AH JD 7C 8C")
    assert hand(deal, W) == cards("KS AS 7H 7D 8D 9C TC JC")
    assert hand(deal, N) == cards("8H 9H TH 9D TD QC KC AC")


def test_first_bidder_takes() -> None:
    deal = pack_deal()
    deal.apply(TAKE)
    assert hand(deal, E) == cards("7S 8S 9S JH QH JD QD KD")
    assert hand(deal, S) == cards("TS JS QS KH AH AD 7C 8C")
    assert hand(deal, W) == cards("KS AS 7H 7D 8D 9C TC JC")
    assert hand(deal, N) == cards("8H 9H TH 9D TD QC KC AC")


def test_naming_a_suit_in_the_first_round_is_refused() -> None:
    deal = pack_deal()
    before = state(deal)
    with pytest.raises(IllegalBid, match="first round you take the turned suit or pass"):
        deal.apply(NAMES[HEARTS])
    assert state(deal) == before


def test_second_round_names_another_suit_but_not_the_turned_one() -> None:
    deal = pack_deal()
    for _ in range(4):
        deal.apply(PASS)
    assert deal.bid_round == 1 and deal.to_move == E
    assert deal.legal_actions() == (PASS, NAMES[SPADES], NAMES[HEARTS], NAMES[CLUBS])
    before = state(deal)
    with pytest.raises(IllegalBid) as info:
        deal.apply(NAMES[DIAMONDS])
    assert str(info.value) == "the turned suit ♦ cannot be named in the second round"
    with pytest.raises(IllegalBid, match="the turned card can no longer be taken"):
        deal.apply(TAKE)
    assert state(deal) == before
    deal.apply(NAMES[HEARTS])
    assert (deal.taker, deal.trump) == (E, HEARTS)
    # The one who names a suit also takes the turned card, with two more.
    assert hand(deal, E) == cards("7S 8S 9S JH QH JD QD KD")
    assert hand(deal, S) == cards("TS JS QS KH AH AD 7C 8C")


def test_everybody_passes_twice_the_deal_is_thrown_in() -> None:
    deal = pack_deal()
    for i in range(8):
        assert deal.phase == "bidding", i
        deal.apply(PASS)
    assert deal.phase == "done"
    assert deal.result is not None
    assert deal.result.outcome == "thrown-in"
    assert deal.result.points == (0, 0)
    assert deal.taker is None and deal.trump is None
    assert deal.events()[-1]["type"] == "scored"
    assert deal.events()[-1]["outcome"] == "thrown-in"
    with pytest.raises(GameOver):
        deal.apply(PASS)


def test_thrown_in_deal_in_a_match_scores_nothing_and_the_next_dealer_deals() -> None:
    match = Match(seed=4, score=(120, 80))
    for _ in range(8):
        match.apply(PASS)
    assert match.deals[0].result is not None and match.deals[0].result.outcome == "thrown-in"
    assert match.score == [120, 80]
    assert not match.over
    assert len(match.deals) == 2
    assert match.deal.dealer == E
    assert match.deal.phase == "bidding" and match.to_move == S
    assert match.view(None).deal_number == 2
    assert match.deals_played == 0


# --------------------------------------------------------------------------- the play
def test_the_player_next_to_the_dealer_leads_whoever_took() -> None:
    deal = pack_deal()
    deal.apply(PASS)
    deal.apply(PASS)
    deal.apply(TAKE)  # W takes
    assert deal.taker == W
    assert deal.to_move == E and deal.leader == E


def test_the_winner_of_a_trick_leads_the_next() -> None:
    deal = pack_deal()
    deal.apply(TAKE)
    play(deal, "7S", "TS", "AS")
    assert deal.to_move == N
    play(deal, "9D")  # N has no spade and the other side is winning: it trumps
    assert deal.tricks[0].winner == N
    assert deal.tricks[0].points == 0 + 10 + 11 + 14
    assert deal.to_move == N and deal.leader == N


def test_play_goes_clockwise_by_default() -> None:
    deal = pack_deal()
    deal.apply(TAKE)
    seats = []
    for _ in range(4):
        seats.append(deal.to_move)
        deal.apply(deal.legal_actions()[0])
    assert seats == [E, S, W, N]


def test_counterclockwise_the_next_player_after_n_is_w() -> None:
    rules = Rules(direction="counterclockwise")
    deal = Deal(rules, E, PACK)  # N is next to E counterclockwise
    assert hand(deal, N) == cards("7S 8S 9S JH QH")
    assert hand(deal, W) == cards("TS JS QS KH AH")
    assert hand(deal, S) == cards("KS AS 7H 7D 8D")
    assert hand(deal, E) == cards("8H 9H TH 9D TD")
    bidders = []
    for _ in range(4):
        bidders.append(deal.to_move)
        deal.apply(PASS)
    assert bidders == [N, W, S, E]
    deal.apply(PASS)
    deal.apply(NAMES[SPADES])  # W names spades in the second round
    assert deal.taker == W
    assert hand(deal, W) == cards("TS JS QS KH AH JD 7C 8C")
    players = []
    for _ in range(4):
        players.append(deal.to_move)
        deal.apply(deal.legal_actions()[0])
    assert players == [N, W, S, E]
    assert [str(CARDS[c]) for c in deal.tricks[0].cards] == cards("7S TS AS 8H")
    assert deal.tricks[0].winner == S and deal.to_move == S


def test_an_illegal_card_names_the_rule_and_changes_nothing() -> None:
    deal = pack_deal()
    deal.apply(TAKE)
    play(deal, "7S", "TS", "AS", "9D", "8H")  # N won the first trick and leads a heart
    before = state(deal)
    with pytest.raises(IllegalPlay) as info:
        play(deal, "8S")
    assert str(info.value) == "you must follow suit: ♥ was led and you hold J♥ Q♥"
    assert state(deal) == before
    assert deal.to_move == E


def test_must_trump_when_the_other_side_holds_the_trick() -> None:
    deal = pack_deal()
    deal.apply(TAKE)
    play(deal, "7S", "TS", "AS")  # W (E's partner) wins with the ace; N has no spade
    before = state(deal)
    with pytest.raises(IllegalPlay) as info:
        play(deal, "AC")
    assert str(info.value) == "you must trump: you have no ♠, the other side is winning, and you hold 9♦ 10♦"
    assert state(deal) == before
    assert [str(c) for c in deal.legal_actions()] == cards("9D TD")


def test_a_card_not_in_the_hand_is_refused() -> None:
    deal = pack_deal()
    deal.apply(TAKE)
    before = state(deal)
    with pytest.raises(IllegalPlay) as info:
        play(deal, "AC")  # N's card, E to lead
    assert str(info.value) == "you do not hold A♣"
    assert state(deal) == before


def test_out_of_turn_with_a_seat_is_refused() -> None:
    deal = pack_deal()
    before = state(deal)
    with pytest.raises(NotYourTurn) as info:
        deal.apply(TAKE, seat=S)
    assert str(info.value) == "it is E's turn to bid, not S's"
    assert state(deal) == before
    deal.apply(TAKE, seat=E)
    before = state(deal)
    with pytest.raises(NotYourTurn) as info:
        deal.apply(parse_card("TS"), seat=S)
    assert str(info.value) == "it is E's turn to play, not S's"
    assert state(deal) == before
    deal.apply(parse_card("7S"), seat=E)
    assert deal.to_move == S


def test_a_bid_during_the_play_is_refused() -> None:
    deal = pack_deal()
    deal.apply(TAKE)
    before = state(deal)
    for bid in (PASS, TAKE, NAMES[HEARTS]):
        with pytest.raises(IllegalPlay, match="the bidding is over"):
            deal.apply(bid)
    assert state(deal) == before


def test_a_card_during_the_bidding_is_refused() -> None:
    deal = pack_deal()
    before = state(deal)
    with pytest.raises(IllegalBid) as info:
        play(deal, "7S")
    assert str(info.value) == "the bidding is not over: take, pass or name a suit before playing 7S"
    assert state(deal) == before


@pytest.mark.parametrize("action", ["JH", "take", None, 1.5, True, False, b"x", [0], parse_card])
def test_non_int_actions_are_refused_with_illegal_action(action: Any) -> None:
    for phase in ("bidding", "play"):
        deal = pack_deal()
        if phase == "play":
            deal.apply(TAKE)
        before = state(deal)
        with pytest.raises(IllegalAction, match="is not an action"):
            deal.apply(action)
        assert state(deal) == before


@pytest.mark.parametrize("action", [-1, 38, 40, 1000, 2**31, 2**70, -(2**70)])
def test_out_of_range_int_actions_are_refused_with_illegal_action(action: int) -> None:
    """An int that is neither a card (0..31) nor a bid is an illegal action, never an IndexError."""
    for phase in ("bidding", "play"):
        deal = pack_deal()
        if phase == "play":
            deal.apply(TAKE)
        before = state(deal)
        with pytest.raises(IllegalAction) as info:
            deal.apply(action)
        assert "AC" not in str(info.value), "-1 is not the ace of clubs"
        assert state(deal) == before


def test_game_over_after_the_deal() -> None:
    deal = pack_deal()
    first_legal(deal)
    assert deal.phase == "done"
    assert deal.legal_actions() == ()
    before = state(deal)
    for action in (parse_card("7S"), PASS, TAKE):
        with pytest.raises(GameOver, match="the deal is over"):
            deal.apply(action)
    assert state(deal) == before
    assert deal.view(E).to_move is None and deal.view(E).legal == ()


def test_game_over_after_the_match() -> None:
    match = Match(seed=1, score=(500, 500))
    finish_deal(match)
    assert match.over
    assert match.legal_actions() == () and match.to_move is None
    with pytest.raises(GameOver, match="the match is over"):
        match.apply(PASS)
    with pytest.raises(GameOver):
        match.apply(parse_card("7S"))


# --------------------------------------------------------------------------- undo and copy
def test_undo_restores_every_state_exactly() -> None:
    deal = pack_deal()
    for _ in range(5):
        deal.apply(PASS)
    deal.apply(NAMES[CLUBS])
    history = []
    while deal.phase != "done":
        history.append((state(deal), deal.hands))
        legal = deal.legal_actions()
        deal.apply(legal[-1])
    assert len(history) == 6 + 32 - 6
    while history:
        expected = history.pop()
        deal.undo()
        assert (state(deal), deal.hands) == expected
    for _ in range(6):
        deal.undo()
    assert state(deal) == state(pack_deal())
    with pytest.raises(IllegalAction, match="nothing to undo"):
        deal.undo()


def test_undo_returns_the_action_taken_back() -> None:
    deal = pack_deal()
    deal.apply(TAKE)
    play(deal, "7S")
    assert deal.undo() == parse_card("7S")
    assert deal.undo() == TAKE
    assert deal.phase == "bidding" and deal.to_move == E


def test_undo_after_the_last_card_and_after_a_throw_in() -> None:
    deal = pack_deal()
    deal.apply(TAKE)
    while deal.phase == "play":
        before = state(deal)
        deal.apply(deal.legal_actions()[0])
    deal.undo()
    assert deal.result is None and deal.phase == "play"
    assert state(deal) == before

    thrown = pack_deal()
    for _ in range(7):
        thrown.apply(PASS)
    before = state(thrown)
    thrown.apply(PASS)
    thrown.undo()
    assert state(thrown) == before and thrown.result is None


def test_match_undo_across_deals() -> None:
    match = Match(seed=0)
    finish_deal(match)
    assert len(match.deals) == 2 and match.score == [182, 0]
    match.undo()
    assert len(match.deals) == 1 and match.score == [0, 0]
    assert match.deal.phase == "play" and match.deal.result is None
    finish_deal(match)
    assert match.score == [182, 0] and len(match.deals) == 2


def test_match_undo_after_the_match_is_over() -> None:
    match = Match(seed=1, score=(500, 500))
    finish_deal(match)
    assert match.over and match.score == [567, 595]
    ended = (state(match), list(match.score))
    last = match.undo()
    assert not match.over and match.winner is None and match.score == [500, 500]
    assert last in match.legal_actions()
    match.apply(last)
    assert match.over and match.winner == 1
    assert (state(match), match.score) == ended


def test_copy_is_independent() -> None:
    deal = pack_deal()
    deal.apply(TAKE)
    play(deal, "7S", "TS")
    original = state(deal)
    copy = deal.copy()
    assert state(copy) == original
    first_legal(copy)
    assert copy.phase == "done"
    assert state(deal) == original
    play(deal, "AS")
    assert len(copy.plays) == 32 and copy.plays[2] == parse_card("KS")
    assert deal.plays == [parse_card(c) for c in ("7S", "TS", "AS")]

    bidding = pack_deal()
    twin = bidding.copy()
    twin.apply(PASS)
    assert bidding.bids == [] and bidding.to_move == E


# --------------------------------------------------------------------------- what each seat sees
def test_a_view_holds_only_its_own_hand_and_legal_only_for_the_seat_to_move() -> None:
    deal = pack_deal()
    deal.apply(TAKE)
    while deal.phase != "done":
        for seat in (N, E, S, W):
            view = deal.view(seat)
            assert view.hand == deal.hand(seat)
            if seat == deal.to_move:
                assert view.legal == deal.legal_actions() and view.legal
            else:
                assert view.legal == ()
            others = {str(c) for o in (N, E, S, W) if o != seat for c in deal.hand(o)}
            shown = {str(c) for _, _, cs in view.declarations for c in cs} | {str(deal.turned)}
            assert cards_named(view.to_json()) & others <= shown
        spectator = deal.view(None)
        assert spectator.hand == () and spectator.legal == ()
        deal.apply(deal.legal_actions()[0])


def test_events_name_no_card_before_it_is_played() -> None:
    """Only the turned card, the cards played and the declarations shown after trick 1 appear in events."""
    for seed in range(6):
        deal = Deal.from_seed(seed, dealer=seed % 4)
        first_legal(deal)
        public = {str(deal.turned)}
        for event in deal.events():
            if event["type"] == "card":
                public.add(event["card"])
            if event["type"] == "declarations-shown":
                public |= cards_named(event)
            assert cards_named(event) <= public, event


def test_match_events_are_numbered_and_resumable() -> None:
    match = Match(seed=0)
    finish_deal(match)
    match.apply(TAKE)
    play(match, str(match.deal.legal_actions()[0]))
    events = match.events()
    assert [n for n, _ in events] == list(range(len(events)))
    assert events[0] == (0, {"type": "deal", "number": 1, "score": {"NS": 0, "EW": 0}})
    assert events[1][1]["type"] == "dealt"
    deal2 = [n for n, e in events if e["type"] == "deal" and e["number"] == 2]
    assert len(deal2) == 1 and events[deal2[0]][1]["score"] == {"NS": 182, "EW": 0}
    assert match.events(since=deal2[0]) == events[deal2[0] :]
    assert match.events(since=len(events)) == []
    assert events[-1][1]["type"] == "card"


# --------------------------------------------------------------------------- belote and declarations
def test_belote_and_rebelote_said_by_the_holder_as_the_king_and_queen_fall() -> None:
    deal = pack_deal()
    deal.apply(TAKE)  # E takes diamonds and holds Q♦ K♦
    while deal.phase == "play":
        if deal.plays and deal.plays[-1] == parse_card("QD"):
            assert deal.view(None).belote == ((E, "belote"),)
        deal.apply(deal.legal_actions()[0])
    said = [e for e in deal.events() if "say" in e]
    assert said == [
        {"type": "card", "seat": "E", "card": "QD", "say": "belote"},
        {"type": "card", "seat": "E", "card": "KD", "say": "rebelote"},
    ]
    assert deal.view(N).to_json()["belote"] == [["E", "belote"], ["E", "rebelote"]]
    assert deal.result is not None and deal.result.belote == (0, 20)
    # The takers go down, but never lose their belote.
    assert deal.result.outcome == "dedans" and deal.result.points == (222, 20)


def test_no_belote_when_the_king_and_queen_are_in_two_hands() -> None:
    deal = pack_deal()
    for _ in range(4):
        deal.apply(PASS)
    deal.apply(NAMES[HEARTS])  # E names hearts: E holds Q♥, S holds K♥
    first_legal(deal)
    assert not any("say" in e for e in deal.events())
    assert deal.view(None).belote == ()
    assert deal.result is not None and deal.result.belote == (0, 0)


def test_declarations_announced_at_the_first_card_and_shown_after_the_first_trick_for_the_scoring_side() -> None:
    deal = pack_deal()
    deal.apply(TAKE)  # trumps diamonds
    assert deal.view(None).declarations == ()
    play(deal, "7S")
    assert deal.view(S).to_json()["declarations"] == [
        {"seat": "E", "name": "tierce", "cards": []},
        {"seat": "E", "name": "tierce", "cards": []},
    ]
    play(deal, "TS", "KS")
    names = [(d["seat"], d["name"], d["cards"]) for d in deal.view(None).to_json()["declarations"]]
    assert names == [("E", "tierce", []), ("E", "tierce", []), ("S", "tierce", []), ("W", "tierce", [])]
    play(deal, "8H")  # the first trick is complete
    # N's tierce to the ace of clubs is the best: N and S show theirs, E and W keep theirs hidden.
    shown = deal.view(E).to_json()["declarations"]
    assert shown == [
        {"seat": "E", "name": "tierce", "cards": []},
        {"seat": "E", "name": "tierce", "cards": []},
        {"seat": "S", "name": "tierce", "cards": ["TS", "JS", "QS"]},
        {"seat": "W", "name": "tierce", "cards": []},
        {"seat": "N", "name": "tierce", "cards": ["8H", "9H", "TH"]},
        {"seat": "N", "name": "tierce", "cards": ["QC", "KC", "AC"]},
    ]
    events = deal.events()
    kinds = [e["type"] for e in events]
    assert kinds == [
        "dealt", "bid", "trump",
        "declared", "card", "declared", "card", "declared", "card", "declared", "card",
        "trick", "declarations-shown",
    ]  # fmt: skip
    assert events[3] == {"type": "declared", "seat": "E", "declarations": ["tierce", "tierce"]}
    assert events[-1]["side"] == "NS"
    assert [d["seat"] for d in events[-1]["declarations"]] == ["S", "N", "N"]
    first_legal(deal)
    assert deal.result is not None and deal.result.declarations == (60, 0)


def test_sans_annonces_announces_nothing_but_belote() -> None:
    deal = pack_deal(Rules(declarations=False))
    first_legal(deal)
    assert not any(e["type"] in ("declared", "declarations-shown") for e in deal.events())
    assert deal.view(None).declarations == ()
    assert deal.result is not None and deal.result.declarations == (0, 0) and deal.result.belote == (0, 20)


# --------------------------------------------------------------------------- the match
def test_match_to_501_the_deal_that_carries_a_side_past_the_line_ends_it() -> None:
    match = Match(seed=0)
    while not match.over:
        finish_deal(match)
    assert len(match.deals) == 6
    assert match.scores_before == [(0, 0), (182, 0), (182, 162), (217, 289), (368, 340), (433, 437)]
    assert match.score == [433, 619]
    assert (match.over, match.winner) == (True, 1)
    assert match.view(N).match_over and match.view(N).match_winner == 1
    assert match.events()[-1][1] == {"type": "match-over", "score": {"NS": 433, "EW": 619}, "winner": "EW"}


def test_501_is_the_line_and_500_is_one_short() -> None:
    # The same deal (seed 1) gives N-S 67 and E-W 95.
    short = Match(seed=1, score=(433, 0))
    finish_deal(short)
    assert short.score == [500, 95] and not short.over and len(short.deals) == 2
    exact = Match(seed=1, score=(434, 0))
    finish_deal(exact)
    assert exact.score == [501, 95] and exact.over and exact.winner == 0


def test_both_sides_past_the_line_the_higher_wins() -> None:
    match = Match(seed=1, score=(500, 500))
    finish_deal(match)
    assert match.score == [567, 595]
    assert (match.over, match.winner) == (True, 1)
    assert match_winner(Rules(), (567, 595), 1) == (True, 1)
    assert match_winner(Rules(), (620, 590), 1) == (True, 0)


def test_a_fixed_number_of_deals_ends_after_that_many_played_deals() -> None:
    match = Match(rules=Rules(deals=3), seed=0)
    for _ in range(8):
        match.apply(PASS)  # a thrown-in deal is not a played deal
    assert match.deals_played == 0 and not match.over
    for played in (1, 2):
        finish_deal(match)
        assert match.deals_played == played and not match.over
    finish_deal(match)
    assert match.deals_played == 3 and match.over
    assert len(match.deals) == 4
    expected = 0 if match.score[0] > match.score[1] else 1
    assert match.winner == expected


def test_match_to_dict_from_dict_round_trip() -> None:
    match = Match(rules=Rules(target=1000, direction="counterclockwise"), seed=12, first_dealer=S, score=(40, 60))
    finish_deal(match)
    finish_deal(match)
    match.apply(PASS)
    match.apply(TAKE)
    play(match, str(match.legal_actions()[0]))
    data = match.to_dict()
    assert data["format"] == "belote-match/1"
    assert data["rules"] == {"target": 1000, "direction": "counterclockwise"}
    assert data["first_dealer"] == "S" and data["score_before"] == {"NS": 40, "EW": 60}
    again = Match.from_dict(data)
    assert again.score == match.score
    assert again.events() == match.events()
    assert [again.view(s).to_json() for s in (N, E, S, W, None)] == [
        match.view(s).to_json() for s in (N, E, S, W, None)
    ]
    assert again.to_dict() == data


def test_the_dealer_moves_in_the_direction_of_play() -> None:
    clockwise = Match(seed=0, first_dealer=N)
    counter = Match(rules=Rules(direction="counterclockwise"), seed=0, first_dealer=N)
    for match in (clockwise, counter):
        for _ in range(4):
            finish_deal(match)
    assert [d.dealer for d in clockwise.deals] == [N, E, S, W, N]
    assert [d.dealer for d in counter.deals] == [N, W, S, E, N]
    # Each deal starts with the player next to its dealer.
    assert [d.order[0] for d in counter.deals] == [W, S, E, N, W]


@pytest.mark.parametrize("seed", range(6))
def test_the_views_of_all_seats_at_once_are_the_views_one_by_one(seed: int) -> None:
    """``Match.view_json`` (what a server sends after each action) is ``view(seat).to_json()`` for each seat."""
    import random

    rng = random.Random(seed)
    match = Match(Rules(target=701), seed=seed, first_dealer=seed % 4)
    seats: list[int | None] = [0, 1, 2, 3, None]
    checked = 0
    while not match.over and checked < 400:
        at_once = match.view_json(seats)
        for s in seats:
            assert at_once[s] == match.view(s).to_json()
        assert match.action_count == len(match.actions)
        for start in (0, len(match.actions) // 2, max(0, len(match.actions) - 3), len(match.actions)):
            assert match.actions_from(start) == match.actions[start:]
        match.apply(rng.choice(match.legal_actions()))
        checked += 1
    assert checked > 100


def test_events_are_the_same_when_asked_again_after_an_undo() -> None:
    match = Match(Rules(), seed=3)
    first = match.legal_actions()
    match.apply(first[0])
    before = match.events()
    match.undo()
    match.apply(first[-1])
    after = match.events()
    assert before[-1] != after[-1] and after == match.events()
