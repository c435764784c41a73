"""Coinche (contrée): four players in two partnerships, every card dealt at once, an auction of contracts.

Three cards each, then two, then three, from the player next to the dealer; no card is turned. The
auction (``belote.auctions.contracts``) names a contract: a level and trumps, no-trumps or
all-trumps; the other side may coinche it and the bidders surcoinche. The deal is scored against the
contract (``belote.scoring.score_contract``); no points wait from a deal to the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from belote.auctions.contracts import CONTRACTS
from belote.scoring import DealResult, score_contract
from belote.variants.base import Tally, Variant, sides

if TYPE_CHECKING:
    from belote.rules import Rules

#: Three cards each, then two, then three: the places of the deck each player takes, in playing order.
_PLACES = tuple((*range(3 * k, 3 * k + 3), 12 + 2 * k, 13 + 2 * k, *range(20 + 3 * k, 23 + 3 * k)) for k in range(4))


class Coinche(Variant):
    name = "coinche"
    title = "Coinche"
    auction = CONTRACTS
    bidding_hand = 8
    carries_pending = False
    own_options = ("coinche_max_bid", "coinche_made", "coinche_failed", "surcoinche", "no_trump_all_trump", "generale")

    def first_places(self) -> tuple[tuple[int, ...], ...]:
        return _PLACES

    def second_distribution(
        self, deck: Sequence[int], hands: list[int], order: Sequence[int], taker: int
    ) -> tuple[list[int], list[int] | None, list[int]]:
        """Nothing more is dealt: every card is in hand since the start."""
        return hands, None, []

    def score(self, rules: Rules, tally: Tally) -> DealResult:
        """Against the contract: made or failed, coinched, capot, générale (the bidder alone took every trick)."""
        contract = tally.contract
        assert contract is not None
        cards, tricks, declarations, belote = sides(tally)
        return score_contract(
            rules, contract, cards, tricks, declarations, belote, bidder_took_all=tally.taker_alone, last=tally.last
        )
