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

Each result carries the rows of its sheet (``ROWS``): for each score, what makes up its points.

>>> r.rows[0]
(('cards', 108), ('belote', 20))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from belote.contracts import CAPOT, GENERALE, Contract
from belote.play import LAST_TRICK

if TYPE_CHECKING:
    from belote.rules import Rules

DEAL_POINTS = 162
CAPOT_POINTS = 252
#: With rounded scores (``Rules.rounding``), a deal counts 160 and a capot 250 (docs/rules.md).
ROUNDED_DEAL_POINTS = 160
ROUNDED_CAPOT_POINTS = 250
#: Belote-rebelote: the king and queen of trumps in one hand.
BELOTE_POINTS = 20
SIDES = ("NS", "EW")

#: The rows of a deal's sheet, in the order a sheet shows them: for each score, what its points are
#: made of. A row's name is stable (programs and the page read it); its points are signed, and the
#: rows of a score add up to exactly what it adds to the match (``DealResult.points``).
ROWS: dict[str, str] = {
    "cards": "card points taken (without the last trick's ten where the last trick is known)",
    "last_trick": "the ten of the last trick (dix de der)",
    "declarations": "the score's own declarations that count",
    "belote": "belote-rebelote",
    "won": "the other side's points, taken on a dedans, a failed or coinched contract (a capot's too)",
    "lost": "points given to the other side on a dedans, a failed or coinched contract (negative)",
    "capot": "every trick taken: 90 more for the deal (252 instead of 162)",
    "contract": "Coinche: the contract's level, to the side that wins it",
    "coinche": "Coinche: what the coinche adds (the deal and the contract counted twice)",
    "surcoinche": "Coinche: what the surcoinche adds (counted three or four times)",
    "waiting": "points set aside by a litige (81-81) for the next deal's winner (negative)",
    "collected": "points waiting from an earlier litige, taken by this deal's winner",
    "shared": "three hands, the defenders win: what evens their two shares of everything (signed)",
    "rounding": "to the nearest ten; a contract's deal counted 160 (or 162) instead of the cards' 162",
}
#: The rows of one score: (row name, points), in ``ROWS`` order.
Rows = tuple[tuple[str, int], ...]


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
    #: The sheet of each score: its rows (``ROWS``), which add up to its ``points``. Not compared: a
    #: result worked out without knowing who took the last trick (a bot's, the analysis's) is the same
    #: result, its ten on the cards' row.
    rows: tuple[Rows, ...] = field(default=(), compare=False)

    def to_json(self, sheet: bool = False) -> dict[str, object]:
        """The result as the deal record writes it; ``sheet``: with ``rows``, the deal's sheet (the
        view's and the ``scored`` event's, not the record's), one entry per row name that any score
        has, in ``ROWS`` order, with the points of each score that has it."""
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
        if sheet:
            out["rows"] = self.sheet_json()
        return out

    def sheet_json(self) -> list[dict[str, object]]:
        """The rows of the sheet as a table: ``[{"row": name, "points": {score: points}}, ...]``.

        >>> from belote.rules import Rules
        >>> r = score_deal(Rules(), 1, cards=(0, 162), tricks=(0, 8), declarations=(0, 0), belote=(0, 0), last=1)
        >>> r.points
        (0, 252)
        >>> for row in r.sheet_json():
        ...     print(row)
        {'row': 'cards', 'points': {'NS': 0, 'EW': 152}}
        {'row': 'last_trick', 'points': {'EW': 10}}
        {'row': 'capot', 'points': {'EW': 90}}
        """
        by_score = [dict(rows) for rows in self.rows]
        out: list[dict[str, object]] = []
        for name in ROWS:
            points = {n: row[name] for n, row in zip(self.names, by_score, strict=True) if name in row}
            if points:
                out.append({"row": name, "points": points})
        return out


class _Sheet:
    """The rows of each score as a scoring function writes them, beside its points: a row of no
    points is left out, but for the card points of a played deal (0 is what a side took)."""

    __slots__ = ("_rows",)

    def __init__(self, scores: int) -> None:
        self._rows: list[dict[str, int]] = [{} for _ in range(scores)]

    def add(self, score: int, name: str, points: int) -> None:
        if points:
            row = self._rows[score]
            row[name] = row.get(name, 0) + points

    def taken(self, score: int, cards: int | None, declarations: int, belote: int, last: int | None) -> None:
        """What a score took and holds: its card points (the last trick's ten on its own row where
        ``last``, the score that took the last trick, is known; None: its cards do not count),
        declarations and belote."""
        if cards is not None:
            ten = LAST_TRICK if last == score else 0
            self._rows[score]["cards"] = cards - ten
            self.add(score, "last_trick", ten)
        self.add(score, "declarations", declarations)
        self.add(score, "belote", belote)

    def rounded(self, points: list[int], rules: Rules) -> list[int]:
        """Each score to the nearest ten, the difference on its rounding row."""
        out = [round_points(p, rules.round_five) for p in points]
        for i, (p, q) in enumerate(zip(points, out, strict=True)):
            self.add(i, "rounding", q - p)
        return out

    def done(self) -> tuple[Rows, ...]:
        return tuple(tuple(sorted(row.items(), key=_in_order)) for row in self._rows)


_ORDER = {name: i for i, name in enumerate(ROWS)}


def _in_order(row: tuple[str, int]) -> int:
    return _ORDER[row[0]]


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
    last: int | None = None,
) -> DealResult:
    """The points of one played deal, and what the match adds.

    ``pending`` is what an earlier 81-81 deal left waiting; it goes to the winner of this deal.
    ``last``: the side that took the last trick, when known (the sheet gives its ten a row).
    """
    t, d = takers, 1 - takers
    deal_total = DEAL_POINTS
    capot_total = CAPOT_POINTS
    own = list(cards)
    if rules.rounding:
        # Only the takers' points are rounded; the defenders have the rest of 160 (docs/rules.md).
        deal_total, capot_total = ROUNDED_DEAL_POINTS, ROUNDED_CAPOT_POINTS
        own[t] = round_points(cards[t], rules.round_five)
        own[d] = deal_total - own[t]
    counted = belote if rules.belote_counts else (0, 0)
    totals = [cards[i] + declarations[i] + counted[i] for i in (0, 1)]
    all_declarations = declarations[0] + declarations[1]
    points = [0, 0]
    capot = t if tricks[d] == 0 else d if tricks[t] == 0 else None
    new_pending = 0
    winner: int | None
    sheet = _Sheet(2)
    for i in (0, 1):
        sheet.taken(i, cards[i], declarations[i], belote[i], last)
    if capot == t:
        outcome, winner = "capot", t
        points[t] = capot_total + declarations[t] + belote[t]
        points[d] = declarations[d] + belote[d]
        _given(sheet, d, t, cards[d])
        sheet.add(t, "capot", CAPOT_POINTS - cards[t] - cards[d])
        sheet.add(t, "rounding", capot_total - CAPOT_POINTS)
    elif capot == d:
        outcome, winner = "capot", d
        points[d] = capot_total + all_declarations + belote[d]
        points[t] = belote[t]
        _given(sheet, t, d, cards[t] + declarations[t])
        sheet.add(d, "capot", CAPOT_POINTS - cards[t] - cards[d])
        sheet.add(d, "rounding", capot_total - CAPOT_POINTS)
    elif totals[t] > totals[d]:
        outcome, winner = "made", t
        points = [own[i] + declarations[i] + belote[i] for i in (0, 1)]
        for i in (0, 1):
            sheet.add(i, "rounding", own[i] - cards[i])
    elif totals[t] < totals[d]:
        outcome, winner = "dedans", d
        points[d] = deal_total + all_declarations + belote[d]
        points[t] = belote[t]
        _given(sheet, t, d, cards[t] + declarations[t])
        sheet.add(d, "rounding", deal_total - cards[t] - cards[d])
    else:
        outcome, winner = "litige", None
        if rules.litige == "carry":
            points[d] = own[d] + declarations[d] + belote[d]
            points[t] = belote[t]
            new_pending = own[t] + declarations[t]
            waiting: tuple[int, ...] = (t,)
        else:  # "hold": nobody scores but belote, which is never lost
            points = [belote[0], belote[1]]
            new_pending = deal_total + all_declarations
            waiting = (t, d)
        for i in (0, 1):
            sheet.add(i, "rounding", own[i] - cards[i])
        for i in waiting:
            sheet.add(i, "waiting", -(own[i] + declarations[i]))
    if winner is None:
        new_pending += pending
    else:
        points[winner] += pending
        sheet.add(winner, "collected", pending)
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
        rows=sheet.done(),
    )


def _given(sheet: _Sheet, giver: int, to: int, points: int) -> None:
    """``points`` of ``giver``'s go to ``to``: a row lost on one sheet, won on the other."""
    sheet.add(giver, "lost", -points)
    sheet.add(to, "won", points)


def score_contract(
    rules: Rules,
    contract: Contract,
    cards: tuple[int, int],
    tricks: tuple[int, int],
    declarations: tuple[int, int],
    belote: tuple[int, int],
    bidder_took_all: bool = False,
    last: int | None = None,
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
    ``last``: the side that took the last trick, when known (the sheet gives its ten a row).

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
    loser = 1 - winner
    all_declarations = declarations[0] + declarations[1]
    points = [belote[0], belote[1]]
    sheet = _Sheet(2)
    bid_only = made and contract.multiplier == 1 and rules.coinche_made != "points"
    for i in (0, 1):
        # The bid alone: the takers' cards are not counted, so their sheet has no row of them.
        sheet.taken(i, None if bid_only and i == t else cards[i], declarations[i], belote[i], last)
    if contract.multiplier > 1:
        deal = rules.coinche_failed + contract.level
        points[winner] += deal * contract.multiplier + all_declarations
        _given(sheet, loser, winner, cards[loser] + declarations[loser])
        sheet.add(winner, "rounding", rules.coinche_failed - cards[0] - cards[1])
        sheet.add(winner, "contract", contract.level)
        sheet.add(winner, "coinche" if contract.multiplier == 2 else "surcoinche", deal * (contract.multiplier - 1))
    elif made:
        points[t] += contract.level + declarations[t]
        if rules.coinche_made == "points":
            points[t] += made_cards[t]
            sheet.add(t, "capot", made_cards[t] - cards[t])
        points[d] += made_cards[d] + declarations[d]
        sheet.add(d, "capot", made_cards[d] - cards[d])
        sheet.add(t, "contract", contract.level)
    else:
        points[d] += rules.coinche_failed + contract.level + all_declarations
        _given(sheet, t, d, cards[t] + declarations[t])
        sheet.add(d, "rounding", rules.coinche_failed - cards[0] - cards[1])
        sheet.add(d, "contract", contract.level)
    if rules.rounding:
        points = sheet.rounded(points, rules)
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
        rows=sheet.done(),
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
    last: int | None = None,
) -> DealResult:
    """A deal at three hands: the taker against the two others together, each scoring alone.

    Only the cards in play count (some lie out of the deal), so a deal is worth what they hold
    and the last trick's ten (``deal``). The taker must make more than the two defenders together
    (declarations and belote included). Made: each player scores the points they took. Dedans:
    the defenders share the deal and every declaration, half each, an odd point to the one who
    plays first (``order``). Capot adds 90. At equal points, ``litige`` applies as at four hands
    with the defenders as one side. Belote is never lost. ``last``: the player who took the last
    trick, when known (the sheet gives its ten a row).

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
    sheet = _Sheet(n)
    for s in range(n):
        sheet.taken(s, cards[s], declarations[s], belote[s], last)
    defender_tricks = sum(tricks[s] for s in defenders)
    if defender_tricks == 0 or tricks[taker] == 0:
        deal_total += CAPOT_POINTS - DEAL_POINTS
    if defender_tricks == 0:
        outcome, winner, capot = "capot", taker, taker
        points[taker] += deal_total + declarations[taker]
        for s in defenders:
            points[s] += declarations[s]
            _given(sheet, s, taker, cards[s])
        sheet.add(taker, "capot", deal_total - sum(cards))
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
        _shared(sheet, defenders, (half + odd, half), taker, cards, declarations, deal_total - sum(cards), pending)
    else:
        outcome, winner = "litige", None
        if rules.litige == "carry":
            for s in defenders:
                points[s] += cards[s] + declarations[s]
            new_pending = cards[taker] + declarations[taker]
            waiting: Sequence[int] = (taker,)
        else:
            new_pending = deal_total + all_declarations
            waiting = range(n)
        for s in waiting:
            sheet.add(s, "waiting", -(cards[s] + declarations[s]))
    if outcome == "litige":
        new_pending += pending
    elif winner is not None:
        points[winner] += pending
        sheet.add(winner, "collected", pending)
    if rules.rounding:
        points = sheet.rounded(points, rules)
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
        rows=sheet.done(),
    )


def _shared(
    sheet: _Sheet,
    defenders: Sequence[int],
    shares: tuple[int, int],
    taker: int,
    cards: Sequence[int],
    declarations: Sequence[int],
    capot: int,
    pending: int,
) -> None:
    """Three hands, the taker down: the sheets of the two defenders, who share everything.

    Each defender's sheet has what it took, half of the taker's points (``won``), of the capot's 90
    and of the points waiting (``collected``), an odd point to the first; then ``shared``, what
    one gives the other so that each has its share of the whole (the two rows are opposite).
    """
    lost = cards[taker] + declarations[taker]
    sheet.add(taker, "lost", -lost)
    for k, (s, share) in enumerate(zip(defenders, shares, strict=True)):
        parts = [(x + 1 - k) // 2 for x in (lost, capot, pending)]  # the first the odd point
        for name, part in zip(("won", "capot", "collected"), parts, strict=True):
            sheet.add(s, name, part)
        sheet.add(s, "shared", share - cards[s] - declarations[s] - sum(parts))


def thrown_in(pending: int = 0, teams: int = 2, names: tuple[str, ...] = SIDES) -> DealResult:
    """A deal nobody took: no score adds anything (its sheets have no row) and what waits still waits."""
    zero = (0,) * teams
    return DealResult("thrown-in", None, zero, zero, zero, zero, pending, names=names, rows=((),) * teams)


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
