"""Scoring a deal (made, dedans, litige, capot) and the match to its line.

Sides are 0 (N and S) and 1 (E and W). ``score_deal`` is the one place the result of a deal is
computed; the state machine, the record replayer and the score sheet all call it.

The worked deal of seed 000: the takers make 108 card points with belote, the defenders 54.

>>> from belote.rules import Rules
>>> r = score_deal(Rules(), takers=0, cards=(108, 54), tricks=(5, 3), declarations=(0, 0), belote=(20, 0))
>>> r.outcome, r.points
('made', (128, 54))
>>> score_deal(Rules(), takers=1, cards=(88, 74), tricks=(4, 4), declarations=(0, 0), belote=(0, 0)).points
(162, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from belote.contracts import CAPOT, GENERALE, Contract

if TYPE_CHECKING:
    from belote.rules import Rules

DEAL_POINTS = 162
CAPOT_POINTS = 252
#: Belote-rebelote: the king and queen of trumps in one hand.
BELOTE_POINTS = 20
SIDES = ("NS", "EW")


@dataclass(frozen=True, slots=True)
class DealResult:
    """The result of a deal. Each tuple has one entry per score the match keeps: the two sides
    (N-S, E-W; at two hands the two players) or, at three hands, each player."""

    outcome: str  # "made", "dedans", "litige", "capot" or "thrown-in"
    takers: int | None
    cards: tuple[int, ...]  # card points with the last trick
    declarations: tuple[int, ...]  # the declarations that score, by whose they are
    belote: tuple[int, ...]
    points: tuple[int, ...]  # what each side adds to the match score
    pending: int  # points left waiting for the winner of the next deal
    capot: int | None = None  # the side that took every trick
    winner: int | None = None  # the side that won the deal (and any points waiting from before)
    names: tuple[str, ...] = SIDES  # the names of the scores: NS EW, or the seats
    contract: Contract | None = None  # Coinche: the contract played

    def to_json(self) -> dict[str, object]:
        names = self.names
        out: dict[str, object] = {
            "outcome": self.outcome,
            "cards": dict(zip(names, self.cards, strict=True)),
            "declarations": dict(zip(names, self.declarations, strict=True)),
            "belote": dict(zip(names, self.belote, strict=True)),
            "points": dict(zip(names, self.points, strict=True)),
            "pending": self.pending,
        }
        if self.capot is not None:
            out["capot"] = names[self.capot]
        if self.contract is not None:
            out["contract"] = self.contract.to_json()
        return out


def share(points: int, seats: int) -> list[int]:
    """Card points a camp takes from now on, shared evenly among its ``seats`` (an odd point to the
    first in seat order): how the search bot and the analysis count a camp's future at three hands,
    where each defender scores alone.

    >>> share(17, 2), share(17, 1)
    ([9, 8], [17])
    """
    return [(points + (seats - 1 - i)) // seats for i in range(seats)]


def margin(points: Sequence[int], team: int) -> float:
    """What a deal's ``points`` give ``team`` less the mean of what they give the others: the value of
    a deal for one seat, which the search bot maximises and the analysis prices cards in."""
    others = [p for i, p in enumerate(points) if i != team]
    return points[team] - sum(others) / len(others)


def round_points(points: int, five: str = "down") -> int:
    """To the nearest ten, a five going down (75 -> 70, 76 -> 80), or up (75 -> 80) as chosen."""
    return (points + (5 if five == "up" else 4)) // 10 * 10


def score_deal(
    rules: Rules,
    takers: int,
    cards: tuple[int, int],
    tricks: tuple[int, int],
    declarations: tuple[int, int],
    belote: tuple[int, int],
    pending: int = 0,
    names: tuple[str, ...] = SIDES,
) -> DealResult:
    """The points of one played deal, and what the match adds.

    ``pending`` is what an earlier 81-81 deal left waiting; it goes to the winner of this deal.
    """
    t, d = takers, 1 - takers
    deal_total = DEAL_POINTS
    capot_total = CAPOT_POINTS
    own = list(cards)
    if rules.rounding:
        # Only the takers' points are rounded; the defenders have the rest of 160 (docs/rules.md).
        deal_total, capot_total = 160, 250
        own[t] = round_points(cards[t], rules.round_five)
        own[d] = deal_total - own[t]
    counted = belote if rules.belote_counts else (0, 0)
    totals = [cards[i] + declarations[i] + counted[i] for i in (0, 1)]
    all_declarations = declarations[0] + declarations[1]
    points = [0, 0]
    capot = t if tricks[d] == 0 else d if tricks[t] == 0 else None
    new_pending = 0
    winner: int | None
    if capot == t:
        outcome, winner = "capot", t
        points[t] = capot_total + declarations[t] + belote[t]
        points[d] = declarations[d] + belote[d]
    elif capot == d:
        outcome, winner = "capot", d
        points[d] = capot_total + all_declarations + belote[d]
        points[t] = belote[t]
    elif totals[t] > totals[d]:
        outcome, winner = "made", t
        points = [own[i] + declarations[i] + belote[i] for i in (0, 1)]
    elif totals[t] < totals[d]:
        outcome, winner = "dedans", d
        points[d] = deal_total + all_declarations + belote[d]
        points[t] = belote[t]
    else:
        outcome, winner = "litige", None
        if rules.litige == "carry":
            points[d] = own[d] + declarations[d] + belote[d]
            points[t] = belote[t]
            new_pending = own[t] + declarations[t]
        else:  # "hold": nobody scores but belote, which is never lost
            points = [belote[0], belote[1]]
            new_pending = deal_total + all_declarations
    if winner is None:
        new_pending += pending
    else:
        points[winner] += pending
    return DealResult(
        outcome=outcome,
        takers=takers,
        cards=(cards[0], cards[1]),
        declarations=(declarations[0], declarations[1]),
        belote=(belote[0], belote[1]),
        points=(points[0], points[1]),
        pending=new_pending,
        capot=capot,
        winner=winner,
        names=names,
    )


def score_contract(
    rules: Rules,
    contract: Contract,
    cards: tuple[int, int],
    tricks: tuple[int, int],
    declarations: tuple[int, int],
    belote: tuple[int, int],
    bidder_took_all: bool = False,
) -> DealResult:
    """A deal of Coinche: the bidding side must make its contract (docs/rules.md).

    ``cards`` count the last trick; a side that takes every trick has made 252 (90 more than its
    162). ``declarations`` are those that score.
    A contract is made when the takers' points (cards, their declarations, and their belote if
    ``belote_counts``) reach the bid; capot needs every trick, a générale every trick to the
    bidder alone (``bidder_took_all``). Made: the takers score their points and the bid (or the
    bid alone, ``coinche_made="bid"``), the defenders theirs. Failed: the defenders score
    ``coinche_failed`` (160 or 162) plus the bid and every declaration. Coinched or surcoinched,
    the side that wins scores (``coinche_failed`` + bid) times the multiplier and every
    declaration, the other nothing. Belote is never lost. With ``rounding`` each side's score
    goes to the nearest ten (``round_five``); whether the contract is made is decided before.

    >>> c = Contract(110, 1, bidder=0)
    >>> from belote.rules import Rules
    >>> score_contract(Rules(variant="coinche"), c, (113, 49), (5, 3), (0, 0), (0, 0)).points
    (223, 49)
    """
    t = contract.bidder & 1
    d = 1 - t
    capot = t if tricks[d] == 0 else d if tricks[t] == 0 else None
    made_cards = [cards[0], cards[1]]
    if capot is not None:
        made_cards[capot] += CAPOT_POINTS - DEAL_POINTS
    made_points = made_cards[t] + declarations[t] + (belote[t] if rules.belote_counts else 0)
    if contract.level == GENERALE:
        made = bidder_took_all
    elif contract.level == CAPOT:
        made = capot == t
    else:
        made = made_points >= contract.level
    winner = t if made else d
    all_declarations = declarations[0] + declarations[1]
    points = [belote[0], belote[1]]
    if contract.multiplier > 1:
        points[winner] += (rules.coinche_failed + contract.level) * contract.multiplier + all_declarations
    elif made:
        points[t] += contract.level + declarations[t]
        if rules.coinche_made == "points":
            points[t] += made_cards[t]
        points[d] += made_cards[d] + declarations[d]
    else:
        points[d] += rules.coinche_failed + contract.level + all_declarations
    if rules.rounding:
        points = [round_points(p, rules.round_five) for p in points]
    return DealResult(
        outcome="made" if made else "dedans",
        takers=t,
        cards=(cards[0], cards[1]),
        declarations=(declarations[0], declarations[1]),
        belote=(belote[0], belote[1]),
        points=(points[0], points[1]),
        pending=0,
        capot=capot,
        winner=winner,
        contract=contract,
    )


def score_three(
    rules: Rules,
    taker: int,
    cards: Sequence[int],
    tricks: Sequence[int],
    declarations: Sequence[int],
    belote: Sequence[int],
    pending: int = 0,
    order: Sequence[int] = (0, 1, 2),
) -> DealResult:
    """A deal at three hands: the taker against the two others together, each scoring alone.

    Only the cards in play count (some lie out of the deal), so a deal is worth what they hold
    and the last trick's ten (``deal``). The taker must make more than the two defenders together
    (declarations and belote included). Made: each player scores the points they took. Dedans:
    the defenders share the deal and every declaration, half each, an odd point to the one who
    plays first (``order``). Capot adds 90. At equal points, ``litige`` applies as at four hands
    with the defenders as one side. Belote is never lost.

    >>> from belote.rules import Rules
    >>> score_three(Rules(variant="three-handed"), 0, (70, 30, 25), (4, 2, 2), (0, 0, 0), (0, 0, 0)).points
    (70, 30, 25)
    """
    n = len(cards)
    defenders = [s for s in order if s != taker]
    deal_total = sum(cards)
    totals = [cards[s] + declarations[s] + (belote[s] if rules.belote_counts else 0) for s in range(n)]
    theirs = sum(totals[s] for s in defenders)
    all_declarations = sum(declarations)
    points = list(belote)
    capot: int | None = None
    new_pending = 0
    winner: int | None
    defender_tricks = sum(tricks[s] for s in defenders)
    if defender_tricks == 0 or tricks[taker] == 0:
        deal_total += CAPOT_POINTS - DEAL_POINTS
    if defender_tricks == 0:
        outcome, winner, capot = "capot", taker, taker
        points[taker] += deal_total + declarations[taker]
        for s in defenders:
            points[s] += declarations[s]
    elif totals[taker] > theirs and tricks[taker]:
        outcome, winner = "made", taker
        for s in range(n):
            points[s] += cards[s] + declarations[s]
    elif totals[taker] < theirs or not tricks[taker]:
        # The defenders share everything; a capot against the taker counts 90 more.
        outcome, winner = ("dedans" if tricks[taker] else "capot"), None
        half, odd = divmod(deal_total + all_declarations + pending, 2)
        points[defenders[0]] += half + odd
        points[defenders[1]] += half
    else:
        outcome, winner = "litige", None
        if rules.litige == "carry":
            for s in defenders:
                points[s] += cards[s] + declarations[s]
            new_pending = cards[taker] + declarations[taker]
        else:
            new_pending = deal_total + all_declarations
    if outcome == "litige":
        new_pending += pending
    elif winner is not None:
        points[winner] += pending
    if rules.rounding:
        points = [round_points(p, rules.round_five) for p in points]
    return DealResult(
        outcome=outcome,
        takers=taker,
        cards=tuple(cards),
        declarations=tuple(declarations),
        belote=tuple(belote),
        points=tuple(points),
        pending=new_pending,
        capot=capot,
        winner=winner,
        names=rules.team_names,
    )


def thrown_in(pending: int = 0, teams: int = 2, names: tuple[str, ...] = SIDES) -> DealResult:
    zero = (0,) * teams
    return DealResult("thrown-in", None, zero, zero, zero, zero, pending, names=names)


def match_winner(rules: Rules, score: Sequence[int], deals_played: int) -> tuple[bool, int | None]:
    """Is the match over, and who won it (None for a tie)?

    To the line: a deal that carries a side past it ends the match; when both are past, the higher
    wins and equal is a tie. With a fixed number of deals, the higher score once they are played.
    At three hands the same holds among the three players: the highest wins, a tie at the top is a tie.
    """
    if rules.deals is not None:
        over = deals_played >= rules.deals
    else:
        over = max(score) >= rules.target
    if not over:
        return False, None
    top = max(score)
    leaders = [i for i, s in enumerate(score) if s == top]
    return True, leaders[0] if len(leaders) == 1 else None
