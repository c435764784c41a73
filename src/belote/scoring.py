"""Scoring a deal (made, dedans, litige, capot) and the match to its line.

Sides are 0 (N and S) and 1 (E and W). ``score_deal`` is the one place the result of a deal is
computed; the state machine, the record replayer and the score sheet all call it.

The worked deal of seed 000: the takers make 108 card points with belote, the defenders 54.

>>> r = score_deal(Rules(), takers=0, cards=(108, 54), tricks=(5, 3), declarations=(0, 0), belote=(20, 0))
>>> r.outcome, r.points
('made', (128, 54))
>>> score_deal(Rules(), takers=1, cards=(88, 74), tricks=(4, 4), declarations=(0, 0), belote=(0, 0)).points
(162, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

from belote.rules import Rules

DEAL_POINTS = 162
CAPOT_POINTS = 252
SIDES = ("NS", "EW")


@dataclass(frozen=True, slots=True)
class DealResult:
    outcome: str  # "made", "dedans", "litige", "capot" or "thrown-in"
    takers: int | None
    cards: tuple[int, int]  # card points with the last trick
    declarations: tuple[int, int]  # the declarations that score, by whose they are
    belote: tuple[int, int]
    points: tuple[int, int]  # what each side adds to the match score
    pending: int  # points left waiting for the winner of the next deal
    capot: int | None = None  # the side that took every trick
    winner: int | None = None  # the side that won the deal (and any points waiting from before)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "outcome": self.outcome,
            "cards": {"NS": self.cards[0], "EW": self.cards[1]},
            "declarations": {"NS": self.declarations[0], "EW": self.declarations[1]},
            "belote": {"NS": self.belote[0], "EW": self.belote[1]},
            "points": {"NS": self.points[0], "EW": self.points[1]},
            "pending": self.pending,
        }
        if self.capot is not None:
            out["capot"] = SIDES[self.capot]
        return out


def round_points(points: int) -> int:
    """To the nearest ten, a five going down: 75 -> 70, 76 -> 80."""
    return (points + 4) // 10 * 10


def score_deal(
    rules: Rules,
    takers: int,
    cards: tuple[int, int],
    tricks: tuple[int, int],
    declarations: tuple[int, int],
    belote: tuple[int, int],
    pending: int = 0,
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
        own[t] = round_points(cards[t])
        own[d] = deal_total - own[t]
    totals = [cards[i] + declarations[i] + belote[i] for i in (0, 1)]
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
    )


def thrown_in(pending: int = 0) -> DealResult:
    return DealResult("thrown-in", None, (0, 0), (0, 0), (0, 0), (0, 0), pending)


def match_winner(rules: Rules, score: tuple[int, int], deals_played: int) -> tuple[bool, int | None]:
    """Is the match over, and who won it (None for a tie)?

    To the line: a deal that carries a side past it ends the match; when both are past, the higher
    wins and equal is a tie. With a fixed number of deals, the higher score once they are played.
    """
    if rules.deals is not None:
        over = deals_played >= rules.deals
    else:
        over = max(score) >= rules.target
    if not over:
        return False, None
    if score[0] == score[1]:
        return True, None
    return True, 0 if score[0] > score[1] else 1
