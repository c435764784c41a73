"""The auction of the turned card (seed 000): two rounds of taking.

First round: from the player next to the dealer, each in turn takes the turned card (its suit is
trumps) or passes. Second round, if everybody passed: each names another suit or passes. If
everybody passes twice, the deal is thrown in.

>>> from types import SimpleNamespace
>>> from belote.cards import parse_card
>>> deal = SimpleNamespace(players=4, step=1, to_move=1, bids=[], turned=parse_card("9H"))
>>> [str(b) for b in TURNED.legal(deal)]
['pass', 'take']
>>> deal.bids = [PASS] * 4
>>> [str(b) for b in TURNED.legal(deal)]
['pass', 'S', 'D', 'C']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from belote.actions import NAME_SUIT, NAMES, PASS, TAKE, Action, Bid, IllegalBid, action_str
from belote.auctions import PASSES, TAKES, THROWN_IN, AuctionState, Claim, Outcome
from belote.cards import SUIT_LETTERS, SUIT_SYMBOLS
from belote.contracts import COINCHE, SURCOINCHE, Contract, is_contract

if TYPE_CHECKING:
    from belote.rules import Rules
    from belote.view import PlayerView


class TurnedCardAuction:
    name = "turned"
    what_to_bid = "take, pass or name a suit"
    #: The bids a record may hold, for a refusal of something else.
    bid_words = "pass, take, or a suit letter S H D C"
    #: Why a card cannot be played yet, and why a deal was thrown in.
    not_over = "the bidding is not over: nobody has taken yet"
    thrown_in_words = "Everybody passed twice"
    outcome_words: Mapping[str, str] = MappingProxyType(
        {
            "made": "made",
            "dedans": "dedans: the takers went down",
            "litige": "litige: equal points, the takers' points wait for the next deal",
            "capot": "capot: every trick to one side",
            "thrown-in": "thrown in: everybody passed twice",
        }
    )

    def legal(self, deal: AuctionState) -> tuple[Action, ...]:
        assert deal.turned is not None
        if len(deal.bids) < deal.players:
            return (PASS, TAKE)
        return (PASS, *(b for b in NAMES if b - NAME_SUIT != deal.turned.suit))

    def bid(self, deal: AuctionState, seat: int, bid: Bid) -> Outcome:
        assert deal.turned is not None
        if bid == TAKE:
            return (seat, deal.turned.suit)
        if bid != PASS:
            return (seat, bid - NAME_SUIT)
        if len(deal.bids) == 2 * deal.players:
            return THROWN_IN
        deal.to_move = (seat + deal.step) % deal.players
        return None

    def explain(self, deal: AuctionState, action: Action) -> IllegalBid:
        assert deal.turned is not None
        name = action_str(action)
        if is_contract(action) or action in (COINCHE, SURCOINCHE):
            return IllegalBid(f"{name} is a Coinche bid: take, pass or name a suit", "coinche_bid", bid=name)
        if action == TAKE:
            return IllegalBid(
                "in the second round you name a suit or pass; the turned card can no longer be taken",
                "take_in_first_round",
            )
        if NAME_SUIT <= action < NAME_SUIT + 4:
            suit = SUIT_LETTERS[action - NAME_SUIT]
            if len(deal.bids) < deal.players:
                return IllegalBid(
                    "in the first round you take the turned suit or pass; other suits are named in the second",
                    "name_in_second_round",
                    suit=suit,
                )
            return IllegalBid(
                f"the turned suit {SUIT_SYMBOLS[deal.turned.suit]} cannot be named in the second round",
                "turned_suit",
                suit=suit,
            )
        return IllegalBid(f"{name} is not a bid", "not_a_bid", bid=name)

    def prompt(self, legal: Sequence[Action]) -> str:
        """Take or pass, then a suit to name.

        >>> TURNED.prompt([PASS, TAKE]), TURNED.prompt([PASS, *NAMES[1:]])
        ('take or pass? ', 'name a suit or pass (pass/H/D/C)? ')
        """
        if TAKE in legal:
            return "take or pass? "
        return f"name a suit or pass ({'/'.join(action_str(a) for a in legal)})? "

    def bid_round(self, bids: int, players: int) -> int | None:
        """Two rounds, each player once in each."""
        return bids // players

    def max_bids(self, rules: Rules) -> int:
        """Two rounds of passes."""
        return 2 * rules.players

    def most_contract_points(self, rules: Rules) -> int:
        return 0

    def claims(self, view: PlayerView) -> tuple[Claim, ...]:
        """Once somebody has taken: the taker's trumps, then the first round's passes of the card
        turned while it lies face up (the bidding itself is read for nothing)."""
        trump = view.trump
        if trump is None:
            return ()
        out = [] if view.taker is None else [Claim(TAKES, view.taker, trump)]
        if view.turned is not None:
            suit = view.turned.suit
            players = view.rules.players
            out += [Claim(PASSES, s, suit) for i, (s, b) in enumerate(view.bids) if i < players and b == PASS]
        return tuple(out)

    def described(self, contract: Contract | None, seats: str) -> dict[str, Any]:
        """Nothing: the taker and the trumps say it all."""
        return {}


TURNED = TurnedCardAuction()
