"""The two auctions, each on its own: the turned card (seed 000) and the contracts of Coinche.

An auction reads the bids of a deal and moves its turn; these tests drive it with a bare state
(``Bids``), not a deal, so that each rule of the auction is seen alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from belote.actions import NAMES, PASS, TAKE, Bid, parse_action
from belote.auctions import THROWN_IN
from belote.auctions.contracts import CONTRACTS, contracts_above
from belote.auctions.turned import TURNED
from belote.cards import Card, parse_card
from belote.contracts import CAPOT, COINCHE, GENERALE, SURCOINCHE, Contract, contract_action
from belote.play import NO_TRUMP
from belote.rules import Rules

N, E, S, W = range(4)
HEARTS, SPADES = 1, 0


@dataclass
class Bids:
    """The part of a deal an auction reads and moves: its bids, whose turn, the turned card, the contract."""

    rules: Rules = field(default_factory=Rules)
    players: int = 4
    step: int = 1
    to_move: int = E  # the player next to the dealer N
    camps: list[int] = field(default_factory=lambda: [0, 1, 0, 1])
    bids: list[Bid] = field(default_factory=list)
    turned: Card | None = None
    contract: Contract | None = None


def say(state: Bids, auction: object, *texts: str) -> object:
    """Each text bid in turn by the player to move; returns the last outcome."""
    outcome = None
    for text in texts:
        bid = Bid(parse_action(text))
        seat = state.to_move
        state.bids.append(bid)
        outcome = auction.bid(state, seat, bid)  # type: ignore[attr-defined]
    return outcome


# ----------------------------------------------------------------- the turned card


def turned_state(players: int = 4) -> Bids:
    return Bids(players=players, camps=[s & 1 for s in range(players)], turned=parse_card("9H"))


def test_first_round_take_or_pass() -> None:
    state = turned_state()
    assert TURNED.legal(state) == (PASS, TAKE)


def test_taking_the_turned_card_makes_its_suit_trumps() -> None:
    state = turned_state()
    assert say(state, TURNED, "pass", "take") == (S, HEARTS)


def test_second_round_names_any_suit_but_the_turned_one() -> None:
    state = turned_state()
    assert say(state, TURNED, "pass", "pass", "pass", "pass") is None
    assert state.to_move == E  # the second round starts again next to the dealer
    assert [str(b) for b in TURNED.legal(state)] == ["pass", "S", "D", "C"]
    assert say(state, TURNED, "pass", "S") == (S, SPADES)


def test_everybody_passing_twice_throws_the_deal_in() -> None:
    state = turned_state()
    assert say(state, TURNED, *["pass"] * 8) == THROWN_IN


def test_three_players_pass_six_times() -> None:
    state = turned_state(players=3)
    assert say(state, TURNED, *["pass"] * 5) is None
    assert say(state, TURNED, "pass") == THROWN_IN


def test_counterclockwise_turn() -> None:
    state = turned_state()
    state.step = 3
    say(state, TURNED, "pass")
    assert state.to_move == N


@pytest.mark.parametrize(
    ("bids", "action", "reason"),
    [
        ([], NAMES[SPADES], "in the first round you take the turned suit or pass; other suits are named in the second"),
        ([PASS] * 4, TAKE, "in the second round you name a suit or pass; the turned card can no longer be taken"),
        ([PASS] * 4, NAMES[HEARTS], "the turned suit ♥ cannot be named in the second round"),
        ([], contract_action(80, HEARTS), "80H is a Coinche bid: take, pass or name a suit"),
        ([], COINCHE, "coinche is a Coinche bid: take, pass or name a suit"),
    ],
)
def test_turned_card_refusals_name_the_rule(bids: list[Bid], action: int, reason: str) -> None:
    state = turned_state()
    state.bids = list(bids)
    assert str(TURNED.explain(state, action)) == reason


# ----------------------------------------------------------------- contracts


def contract_state(**options: object) -> Bids:
    return Bids(rules=Rules.from_dict({"variant": "coinche", **options}))


def test_the_first_bid_may_be_any_contract_from_80() -> None:
    legal = CONTRACTS.legal(contract_state())
    assert legal[0] == PASS and str(legal[1]) == "80S" and str(legal[-1]) == "capotAT"
    assert COINCHE not in legal and SURCOINCHE not in legal
    assert len(legal) == 1 + 10 * 6  # pass, 80..160 and capot in six modes


def test_a_bid_must_be_higher_and_the_other_side_may_coinche() -> None:
    state = contract_state()
    assert say(state, CONTRACTS, "100H") is None
    assert state.contract == Contract(100, HEARTS, E)
    legal = CONTRACTS.legal(state)  # S, of the other side
    assert COINCHE in legal and contract_action(100, NO_TRUMP) not in legal
    assert contract_action(110, SPADES) in legal
    say(state, CONTRACTS, "pass")
    assert COINCHE not in CONTRACTS.legal(state)  # W, partner of the bidder


def test_three_passes_behind_a_contract_end_the_auction() -> None:
    state = contract_state()
    assert say(state, CONTRACTS, "pass", "90D", "pass", "pass") is None
    assert say(state, CONTRACTS, "pass") == (S, 2)


def test_four_passes_throw_the_deal_in() -> None:
    assert say(contract_state(), CONTRACTS, "pass", "pass", "pass", "pass") == THROWN_IN


def test_a_coinche_asks_the_bidders_to_surcoinche_or_pass() -> None:
    state = contract_state()
    say(state, CONTRACTS, "110H", "coinche")
    assert state.contract == Contract(110, HEARTS, E, 2)
    assert state.to_move == W and CONTRACTS.legal(state) == (PASS, SURCOINCHE)
    assert say(state, CONTRACTS, "pass") is None
    assert state.to_move == E  # the bidder's partner let it stand: the bidder may still surcoinche
    assert say(state, CONTRACTS, "surcoinche") == (E, HEARTS)
    assert state.contract == Contract(110, HEARTS, E, 4)


def test_both_bidders_letting_the_coinche_stand_end_the_auction() -> None:
    state = contract_state()
    assert say(state, CONTRACTS, "110H", "coinche", "pass", "pass") == (E, HEARTS)
    assert state.contract == Contract(110, HEARTS, E, 2)


def test_surcoinche_three_times_as_an_option() -> None:
    state = contract_state(surcoinche=3)
    say(state, CONTRACTS, "80C", "coinche", "surcoinche")
    assert state.contract is not None and state.contract.multiplier == 3


def test_the_table_options_bound_the_contracts() -> None:
    assert [str(b) for b in contracts_above(160, 160, True, False)][:2] == ["capotS", "capotH"]
    assert [str(b) for b in contracts_above(160, 180, False, False)] == [
        *(f"{lv}{m}" for lv in (170, 180) for m in "SHDC"),
        *(f"capot{m}" for m in "SHDC"),
    ]
    assert [str(b) for b in contracts_above(CAPOT, 160, True, True)] == [
        f"generale{m}" for m in ("S", "H", "D", "C", "NT", "AT")
    ]


@pytest.mark.parametrize(
    ("options", "bids", "action", "reason"),
    [
        ({}, [], TAKE, "in Coinche you bid a contract such as 80H, 100NT or capotS, or pass; no card is turned"),
        ({}, [], COINCHE, "there is no contract to coinche yet"),
        ({}, [], SURCOINCHE, "surcoinche answers a coinche: nobody has coinched"),
        ({}, ["100H"], contract_action(90, SPADES), "a bid must be higher than 100H"),
        ({}, ["100H", "pass"], COINCHE, "you coinche the other side's contract, not your own side's"),
        (
            {},
            ["100H", "coinche"],
            contract_action(110, SPADES),
            "the bidding is closed by the coinche: the bidding side may surcoinche or pass",
        ),
        ({}, [], contract_action(GENERALE, SPADES), "the générale is not played at this table"),
        (
            {"no_trump_all_trump": False},
            [],
            contract_action(80, NO_TRUMP),
            "no-trumps and all-trumps are not played at this table",
        ),
        ({}, [], contract_action(170, SPADES), "bids go from 80 to 160, then capot"),
    ],
)
def test_contract_refusals_name_the_rule(options: dict[str, object], bids: list[str], action: int, reason: str) -> None:
    state = contract_state(**options)
    say(state, CONTRACTS, *bids)
    assert action not in CONTRACTS.legal(state)
    assert str(CONTRACTS.explain(state, action)) == reason
