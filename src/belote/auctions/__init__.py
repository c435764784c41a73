"""The two auctions of the games: the turned card (``turned``) and the contracts of Coinche (``contracts``).

An auction is a rule object without state of its own: it reads the bids made so far on the deal
(``AuctionState``) and says which bids are legal, what a bid does, and why a refused one is
refused (an ``IllegalBid`` with its code, ``belote.actions.REFUSALS``). ``Deal`` asks the auction of
its game while the phase is ``bidding``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

from belote.actions import Action, Bid, IllegalBid
from belote.cards import Card
from belote.contracts import Contract

if TYPE_CHECKING:
    from belote.rules import Rules

#: What a bid did: the auction goes on (``None``), the deal is thrown in, or a seat takes with a mode.
THROWN_IN: Literal["thrown-in"] = "thrown-in"
Outcome = tuple[int, int] | Literal["thrown-in"] | None


class AuctionState(Protocol):
    """What an auction reads and moves on: the deal's bids so far and whose turn it is."""

    rules: Rules
    players: int
    step: int
    to_move: int
    camps: list[int]
    bids: list[Bid]
    turned: Card | None
    contract: Contract | None


class Auction(Protocol):
    #: ``turned`` or ``contracts``: the auction's name in the game descriptions (``/api/games``) and
    #: in the refusal ``bidding_not_over``.
    name: str
    #: The words of a refused card during the bidding: "take, pass or name a suit".
    what_to_bid: str
    #: The bids a record may hold ("pass, take, or a suit letter S H D C").
    bid_words: str
    #: Why no card may be played yet ("the bidding is not over: nobody has taken yet").
    not_over: str
    #: How a thrown-in deal is told ("Everybody passed twice").
    thrown_in_words: str

    def legal(self, deal: AuctionState) -> tuple[Action, ...]:
        """The legal bids of the player to move."""
        ...

    def bid(self, deal: AuctionState, seat: int, bid: Bid) -> Outcome:
        """``bid`` by ``seat``, already appended to ``deal.bids``; moves the turn or ends the auction."""
        ...

    def explain(self, deal: AuctionState, action: Action) -> IllegalBid:
        """Why ``action`` (not a card, not legal) is refused now: the refusal, with its code, to raise."""
        ...
