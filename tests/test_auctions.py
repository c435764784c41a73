"""The two auctions, each on its own: the turned card (seed 000) and the contracts of Coinche.

An auction reads the bids of a deal and moves its turn; these tests drive it with a bare state
(``Bids``), not a deal, so that each rule of the auction is seen alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from belote.actions import NAMES, PASS, TAKE, Bid, parse_action
from belote.auctions import COUNT, PASSES, TAKES, THROWN_IN, Claim
from belote.auctions.contracts import CONTRACTS, contracts_above
from belote.auctions.turned import TURNED
from belote.cards import Card, parse_card
from belote.contracts import CAPOT, COINCHE, GENERALE, SURCOINCHE, Contract, contract_action
from belote.game import Match
from belote.play import NO_TRUMP
from belote.rules import Rules
from belote.variants import VARIANTS

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


# ----------------------------------------------------------------- what the edges ask an auction

#: Each game's auction's answers: the round after three bids, the most bids of a deal, the bound on
#: what its contract adds to a score, the outcomes it words.
AUCTION_FACTS: dict[str, tuple[int | None, int, int, set[str]]] = {
    "classic": (0, 8, 0, {"made", "dedans", "litige", "capot", "thrown-in"}),
    "coinche": (None, 36, (160 + 250) * 4, {"made", "dedans", "thrown-in"}),
    "three-handed": (1, 6, 0, {"made", "dedans", "litige", "capot", "thrown-in"}),
    "two-handed": (1, 4, 0, {"made", "dedans", "litige", "capot", "thrown-in"}),
}


def test_each_games_auction_answers_the_edges() -> None:
    got = {}
    for name, game in VARIANTS.items():
        rules, auction = Rules(variant=name), game.auction
        got[name] = (
            auction.bid_round(3, game.players),
            auction.max_bids(rules),
            auction.most_contract_points(rules),
            set(auction.outcome_words),
        )
    assert got == AUCTION_FACTS


def test_the_most_bids_and_points_follow_the_coinche_options() -> None:
    wide = Rules(variant="coinche", coinche_max_bid=180, generale=True, coinche_failed=162, surcoinche=3)
    assert CONTRACTS.max_bids(wide) == 3 * 13 + 6
    assert CONTRACTS.most_contract_points(wide) == (162 + GENERALE) * 3


def test_the_auctions_questions() -> None:
    assert TURNED.prompt([PASS, TAKE]) == "take or pass? "
    assert TURNED.prompt([PASS, *NAMES[1:]]) == "name a suit or pass (pass/H/D/C)? "
    assert CONTRACTS.prompt([PASS, Bid(SURCOINCHE)]) == "surcoinche or pass? "
    opening = CONTRACTS.prompt([PASS, *contracts_above(0, 160, True, False)])
    assert opening == "your bid: a contract of 80 or more in S H D C NT AT (such as 80H), pass? "


def test_what_a_deals_description_says_of_the_auction() -> None:
    assert TURNED.described(Contract(110, HEARTS, E), "NESW") == {}
    assert CONTRACTS.described(None, "NESW") == {"contract": None}
    assert CONTRACTS.described(Contract(110, HEARTS, E, 2), "NESW") == {
        "contract": {"bidder": "E", "level": "110", "mode": "H", "multiplier": 2}
    }


def match_after(rules: Rules, *texts: str) -> Match:
    m = Match(rules, seed=2, first_dealer=N)
    for text in texts:
        m.apply(parse_action(text))
    return m


def test_what_the_turned_cards_bids_tell() -> None:
    bidding = match_after(Rules(), "pass", "pass")
    assert TURNED.claims(bidding.view(N)) == ()  # nothing is read while the bidding goes on
    taken = match_after(Rules(), "pass", "pass", "take")
    view = taken.view(N)
    assert view.turned is not None and view.trump == view.turned.suit
    suit = view.turned.suit
    assert TURNED.claims(view) == (Claim(TAKES, W, suit), Claim(PASSES, E, suit), Claim(PASSES, S, suit))


def test_what_the_contracts_tell() -> None:
    m = match_after(Rules(variant="coinche"), "pass", "90H", "pass", "100H")
    # E passed with no contract: no mode counted 90; S opened at 90; W's pass says little; N raised
    # its partner's hearts by ten.
    assert CONTRACTS.claims(m.view(E)) == (
        *(Claim(COUNT, E, mode, None, 90.0) for mode in range(6)),
        Claim(COUNT, S, HEARTS, 80.0),
        Claim(COUNT, N, HEARTS, 50.0),
    )
