"""The two auctions of the games: the turned card (``turned``) and the contracts of Coinche (``contracts``).

An auction is a rule object without state of its own: it reads the bids made so far on the deal
(``AuctionState``) and says which bids are legal, what a bid does, and why a refused one is
refused (an ``IllegalBid`` with its code, ``belote.actions.REFUSALS``). ``Deal`` asks the auction of
its game while the phase is ``bidding``.

The front ends ask it too, instead of testing which auction a game has: the words of its bids and
outcomes (the terminal), how long it can be and what round it is in (the research environments'
slots), what its bids tell of the bidders' hands (``Claim``, read by ``belote.knowledge``), what a
deal's description says of its outcome (``belote.record``). What an auction gives a bot is data or a
small function of a view: the bots and the analysis keep their own strategy for each auction, by its
``name``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from belote.actions import Action, Bid, IllegalBid
from belote.cards import Card
from belote.contracts import Contract

if TYPE_CHECKING:
    from belote.rules import Rules
    from belote.view import PlayerView

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


#: The kinds of ``Claim``.
COUNT: Literal["count"] = "count"
TAKES: Literal["takes"] = "takes"
PASSES: Literal["passes"] = "passes"


@dataclass(frozen=True, slots=True)
class Claim:
    """What the bids say of one bidder's hand: a tendency, which a bot weighs when it draws the hidden
    cards (``belote.knowledge.Plausibility``).

    ``kind`` says which: ``count``, the hand counts from ``low`` to ``high`` (either may be None) for
    the trump mode ``mode``, by the bot's own count of a hand (a contract, or a pass below one);
    ``takes``, the taker of trumps ``mode`` holds their jack or nine, or four of them; ``passes``, a
    player who let the card turned in suit ``mode`` go by in the first round did not hold its jack
    with two more of the suit.
    """

    kind: Literal["count", "takes", "passes"]
    seat: int
    mode: int
    low: float | None = None
    high: float | None = None


class Auction(Protocol):
    #: ``turned`` or ``contracts``: the auction's name in the game descriptions (``/api/games``), in
    #: the refusal ``bidding_not_over``, and where the bots and the analysis keep a strategy for it.
    name: str
    #: The words of a refused card during the bidding: "take, pass or name a suit".
    what_to_bid: str
    #: The bids a record may hold ("pass, take, or a suit letter S H D C").
    bid_words: str
    #: Why no card may be played yet ("the bidding is not over: nobody has taken yet").
    not_over: str
    #: How a thrown-in deal is told ("Everybody passed twice").
    thrown_in_words: str

    #: A deal's outcome in words for people (``made``, ``dedans``, ``thrown-in``...; the terminal).
    outcome_words: Mapping[str, str]

    def legal(self, deal: AuctionState) -> tuple[Action, ...]:
        """The legal bids of the player to move."""
        ...

    def bid(self, deal: AuctionState, seat: int, bid: Bid) -> Outcome:
        """``bid`` by ``seat``, already appended to ``deal.bids``; moves the turn or ends the auction."""
        ...

    def explain(self, deal: AuctionState, action: Action) -> IllegalBid:
        """Why ``action`` (not a card, not legal) is refused now: the refusal, with its code, to raise."""
        ...

    def prompt(self, legal: Sequence[Action]) -> str:
        """What the player to move may bid, in a few words: the question a terminal asks."""
        ...

    def bid_round(self, bids: int, players: int) -> int | None:
        """The round of the auction after ``bids`` bids (0 the first), for an auction that goes round
        the table a fixed number of times; None for one that does not."""
        ...

    def max_bids(self, rules: Rules) -> int:
        """The most bids a deal of these rules can hold (the research environments' slots)."""
        ...

    def most_contract_points(self, rules: Rules) -> int:
        """A bound on what the contract alone can give one score in a deal, beyond the deal's own
        points (its cards, declarations, belote and capot): 0 where no contract is bid."""
        ...

    def claims(self, view: PlayerView) -> tuple[Claim, ...]:
        """What the bids so far say of the bidders' hands, in the order a bot weighs them."""
        ...

    def described(self, contract: Contract | None, seats: str) -> dict[str, Any]:
        """What a deal's description (``belote.record.describe``) says of the auction beyond the taker
        and trumps, its seats named by ``seats``."""
        ...
