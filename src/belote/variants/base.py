"""What every game has, and what each game may change: the base class of the games.

A game (``classic``, ``coinche``, ``three-handed``, ``two-handed``) is one subclass of ``Variant``
in its own module of this package, holding everything that differs between games: the players,
seats and scores, the tricks of a deal, the camps once someone takes, the distributions, the
auction, the deal's scoring, and what its records add. The state machine (``belote.game``) and
every front end ask the variant; nothing else tests which game is played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from belote.auctions import Auction
from belote.auctions.turned import TURNED
from belote.cards import CARDS, Card
from belote.contracts import Contract
from belote.declarations import Declaration, best_side
from belote.scoring import BELOTE_POINTS, DealResult, score_deal

if TYPE_CHECKING:
    from belote.rules import Rules

#: Seats by the compass, in playing order clockwise; a game of n players uses the first n.
SEATS = "NESW"


class Tally(NamedTuple):
    """What a deal comes to at its end, by score (each side's, or each player's where each plays
    alone): the input of a game's scoring.

    ``cards`` and ``tricks``: what each took (card points with the last trick's ten);
    ``declarations``: the points of its declarations that score (only the best camp's);
    ``belote``: its belote (20 to the holder of the king and queen of trumps);
    ``taker_alone``: whether the taker's seat alone took every trick (a générale);
    ``last``: the score that took the last trick, when known (its sheet gives the ten a row).
    """

    taker: int
    cards: tuple[int, ...]
    tricks: tuple[int, ...]
    declarations: tuple[int, ...]
    belote: tuple[int, ...]
    pending: int = 0
    order: Sequence[int] = (0, 1, 2, 3)
    contract: Contract | None = None
    taker_alone: bool = False
    last: int | None = None


class Variant:
    """One game. Subclasses set the class attributes and override what their game does differently."""

    #: The name in rules (``Rules.variant``), records, URLs and the server's settings.
    name: ClassVar[str] = ""
    #: The game for people, in English prose: "the classic game", "Coinche".
    title: ClassVar[str] = ""
    players: ClassVar[int] = 4
    #: The scores the match keeps, and their names: the two sides, or each player.
    team_names: ClassVar[tuple[str, ...]] = ("NS", "EW")
    #: Tricks in a deal.
    tricks: ClassVar[int] = 8
    #: The auction: the turned card, or the contracts of Coinche.
    auction: ClassVar[Auction] = TURNED
    #: Cards each player holds while the bidding goes on.
    bidding_hand: ClassVar[int] = 5
    #: Cards each player holds when play starts (in hand; not counting table cards).
    playing_hand: ClassVar[int] = 8
    #: Cards on the table in front of each player, half face up on the other half (two hands).
    table_cards: ClassVar[int] = 0
    #: Cards dealt to nobody, face down all the deal (three hands).
    out_of_play: ClassVar[int] = 0
    #: Whether sequences and fours of a kind are ever declared in this game (the ``declarations``
    #: rule option can still turn them off); belote-rebelote is in every game.
    has_declarations: ClassVar[bool] = True
    #: Whether a player's points are scored for a partnership (four hands) or for themselves.
    partners: ClassVar[bool] = True
    #: Rule options that only this game reads (the others are read by every game).
    own_options: ClassVar[tuple[str, ...]] = ()
    #: Whether the points of a tied deal (81-81) can wait for the next deal (not against a contract).
    carries_pending: ClassVar[bool] = True
    #: The worth a bot's hand needs, beyond what it needs at four hands, to take the turned card or
    #: name a suit (the heuristic bot's ``take_extra``): more where the taker plays alone against two,
    #: or with cards still unseen. Chosen in self-play over 1,000 duplicate deals.
    take_extra: ClassVar[int] = 0
    #: Solver nodes the par of one of its deals may spend in all (``belote.analysis``: its solves one
    #: after another, each stopped past what is left): a deal of four or three hands needs a few million.
    par_budget: ClassVar[int] = 10_000_000
    #: Solver nodes the analysis may spend on each position of the play (``belote.analysis``): past
    #: them that position's values are null.
    analysis_limit: ClassVar[int] = 10_000_000

    def __init__(self) -> None:
        n = self.players
        #: Whether a card is turned for the taking (every game but Coinche).
        self.turned_card = self.auction is TURNED
        #: Whether the auction names contracts (Coinche), the deal scored against the contract.
        self.contracts = self.auction.name == "contracts"
        # Asked at every deal: worked out once per game.
        self.teams = len(self.team_names)
        self.team_of = tuple(self.team(s) for s in range(n))
        self.parity = tuple(s & 1 for s in range(n))
        self.no_points = (0,) * self.teams
        self._own_scores = self.team_of == tuple(range(n))  # each seat its own score
        self.places = self.first_places()
        self._orders = {(d, step): self._order(d, step) for d in range(n) for step in (1, n - 1)}

    # ----------------------------------------------------------------- seats and scores

    @property
    def seats(self) -> str:
        return SEATS[: self.players]

    def team(self, seat: int) -> int:
        """Whose score a seat's points go to: its partnership, or its own."""
        return seat & 1 if self.partners else seat

    def order(self, dealer: int, step: int) -> tuple[int, ...]:
        """The seats in playing order, from the player next to the dealer."""
        return self._orders.get((dealer, step)) or self._order(dealer, step)

    def _order(self, dealer: int, step: int) -> tuple[int, ...]:
        n = self.players
        return tuple((dealer + step * (i + 1)) % n for i in range(n))

    def camps(self, taker: int | None) -> tuple[int, ...]:
        """The camp each seat plays for (partners share one): by partnership, or each alone."""
        return self.team_of

    # ----------------------------------------------------------------- dealing
    def first_places(self) -> tuple[tuple[int, ...], ...]:
        """Which places of the deck each player takes in the first distribution, in playing order:
        three each, then two each."""
        n = self.players
        return tuple((*range(3 * k, 3 * k + 3), *range(3 * n + 2 * k, 3 * n + 2 * k + 2)) for k in range(n))

    def first_distribution(self, deck: Sequence[int], order: Sequence[int]) -> tuple[list[int], Card | None]:
        """Each seat's hand (a mask) after the first distribution, and the turned card."""
        hands = [0] * self.players
        for seat, places in zip(order, self.places, strict=True):
            m = 0
            for i in places:
                m |= 1 << deck[i]
            hands[seat] = m
        return hands, CARDS[deck[5 * self.players]] if self.turned_card else None

    def second_distribution(
        self, deck: Sequence[int], hands: list[int], order: Sequence[int], taker: int
    ) -> tuple[list[int], list[int] | None, list[int]]:
        """After the auction: the hands, the cards lying under others (or None), each seat's table cards.

        Three more each from the player next to the dealer, but two and the turned card to the taker.
        """
        rest = deck[5 * self.players + 1 :]
        hands = complete_hands(hands, rest, order, taker, deck[5 * self.players])
        return hands, None, []

    # ----------------------------------------------------------------- declarations and scoring
    def scoring_declarations(
        self, rules: Rules, declared: list[list[Declaration]], order: list[int], camps: list[int]
    ) -> list[int]:
        """The points of each seat's declarations that score: only the camp with the best one scores."""
        points = [0] * self.players
        if not declared or not rules.declarations:
            return points
        best = best_side(declared, order, camps, rules.declaration_tie)
        if best is not None:
            for s in range(self.players):
                if camps[s] == best:
                    points[s] = sum(d.points for d in declared[s])
        return points

    def score(self, rules: Rules, tally: Tally) -> DealResult:
        """The deal's result: made, dedans, litige or capot, and what each score adds."""
        cards, tricks, declarations, belote = sides(tally)
        return score_deal(
            rules,
            self.team_of[tally.taker],
            cards,
            tricks,
            declarations,
            belote,
            tally.pending,
            self.team_names,
            tally.last,
        )

    def by_team(self, by_seat: Sequence[int]) -> tuple[int, ...]:
        """Values of each seat added up by score."""
        if self._own_scores:
            return tuple(by_seat)
        out = [0] * self.teams
        team_of = self.team_of
        for s, v in enumerate(by_seat):
            out[team_of[s]] += v
        return tuple(out)

    def belote_by_team(self, holder: int | None) -> tuple[int, ...]:
        """The belote of each score: 20 to the holder's."""
        if holder is None:
            return self.no_points
        out = [0] * self.teams
        out[self.team_of[holder]] = BELOTE_POINTS
        return tuple(out)

    # ----------------------------------------------------------------- descriptions
    @property
    def sheet_entry(self) -> str:
        """What a score sheet enters of one deal of this game (``belote.sheet``): ``contract`` (the
        contract, and the bidders' card points) where the auction names contracts; ``sides`` (the
        takers, and one side's card points) where two scores are kept; ``players`` (the taker, and each
        player's card points) where each of more than two players keeps a score."""
        if self.contracts:
            return "contract"
        return "sides" if self.teams == 2 else "players"

    def describe(self) -> dict[str, Any]:
        """The game's facts for programs and pages (``GET /api/games``)."""
        return {
            "name": self.name,
            "title": self.title,
            "players": self.players,
            "seats": list(self.seats),
            "teams": list(self.team_names),
            "partners": self.partners,
            "tricks": self.tricks,
            "auction": self.auction.name,
            "turned_card": self.turned_card,
            "bidding_hand": self.bidding_hand,
            "playing_hand": self.playing_hand,
            "table_cards": self.table_cards,
            "out_of_play": self.out_of_play,
            "declarations": self.has_declarations,
            "sheet_entry": self.sheet_entry,
        }

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def sides(tally: Tally) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int]]:
    """A game of two scores: each one's card points, tricks, declarations and belote."""
    c, t, d, b = tally.cards, tally.tricks, tally.declarations, tally.belote
    return (c[0], c[1]), (t[0], t[1]), (d[0], d[1]), (b[0], b[1])


def complete_hands(
    hands: Sequence[int], rest: Sequence[int], order: Sequence[int], taker: int, turned: int
) -> list[int]:
    """The second distribution of the four- and three-hand games: from the pile ``rest``, in
    ``order``, three cards each but two to the taker, who also gets the turned card."""
    out = list(hands)
    pos = 0
    for seat in order:
        end = pos + (2 if seat == taker else 3)
        m = out[seat]
        for i in range(pos, end):
            m |= 1 << rest[i]
        out[seat] = m
        pos = end
    out[taker] |= 1 << turned
    return out
