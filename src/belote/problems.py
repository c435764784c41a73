"""Training problems: positions from real deals where one card is clearly best.

Deals are shuffled from a seed and bid and played by heuristic bots (quick, and their deals reach
the positions players meet). At each card with a choice and at least ``MIN_TRICKS_LEFT`` tricks to
play, the exact solver values every legal card in the deal's points (``belote.analysis``); a
position is kept when one card is best and every other costs at least ``min_cost`` points double
dummy, the search bot, from the seat's view alone, plays that card too (a problem a player can solve
from what they see, not only with the hands known), and the heuristic bot, a player by rules of
thumb, plays another card (a problem a reflex does not solve: not the master trump with two cards
left). At most ``PER_DEAL`` positions are taken from one deal, so a file spreads over many deals.

Each problem is one JSON object (format ``belote-problem/1``, ``docs/analysis.md``): the seat's
view (all a page may show before the answer), the answer, the analysis of each legal card, and the
deal's record up to the position (every hand: for after the answer).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from belote.analysis import dd_cards, margin, rounded
from belote.bots.heuristic import HeuristicBot
from belote.bots.search import SearchBot
from belote.cards import CARDS
from belote.game import PLAY, SEATS, Deal
from belote.record import to_record
from belote.rules import Rules
from belote.view import PlayerView

FORMAT = "belote-problem/1"
#: Problems taken from one deal at most.
PER_DEAL = 2
#: Tricks a problem leaves to play at least, the one under way included: with two, the deal is
#: played out but for cashing the last winners.
MIN_TRICKS_LEFT = 3
#: Solver nodes one position may take (a fraction of a second); a young two-handed deal's positions
#: that need more are passed over: there are plenty of others.
LIMIT = 5_000_000


def generate(
    rules: Rules, count: int, seed: int = 1, min_cost: int = 20, think: float = 1.0, limit: int = LIMIT
) -> Iterator[dict[str, Any]]:
    """``count`` problems of ``rules``' game from the deals of ``seed``, ``seed + 1``...: the same
    arguments give the same problems."""
    found = 0
    number = seed
    judge = SearchBot(seed, think=think)
    while found < count:
        for problem in _from_deal(rules, number, min_cost, judge, limit):
            yield problem
            found += 1
            if found == count:
                return
        number += 1


def _from_deal(rules: Rules, number: int, min_cost: int, judge: SearchBot, limit: int) -> Iterator[dict[str, Any]]:
    deal = Deal.from_seed(number, rules, dealer=number % rules.players)
    bots = [HeuristicBot(number * 8 + s) for s in range(rules.players)]
    taken = 0
    while deal.phase != "done" and taken < PER_DEAL:
        seat = deal.to_move
        view = deal.view(seat)
        if deal.phase == PLAY and len(view.legal) > 1 and tricks_left(view) >= MIN_TRICKS_LEFT:
            problem = _problem(deal, number, min_cost, judge, limit)
            if problem is not None:
                taken += 1
                yield problem
        deal.apply(bots[seat].act(view))


def _problem(deal: Deal, number: int, min_cost: int, judge: SearchBot, limit: int) -> dict[str, Any] | None:
    """The position of the seat to move as a problem, or None if no card is clearly best."""
    seat = deal.to_move
    dd = dd_cards(deal, limit)
    if dd is None:
        return None
    values = {c: margin(deal, seat, r.points) for c, (_v, r) in dd.items()}
    ranked = sorted(values, key=lambda c: -values[c])
    answer = ranked[0]
    if values[answer] - values[ranked[1]] < min_cost:
        return None
    view = deal.view(seat)
    if int(HeuristicBot().act(view)) == answer:
        return None
    choice, means, worlds = judge.card_evaluation(view)
    if means is None or int(choice) != answer:
        return None
    top = values[answer]
    rules = deal.rules
    return {
        "format": FORMAT,
        "id": f"{rules.variant}-{number}-{len(deal.plays)}",
        "game": rules.variant,
        "seat": SEATS[seat],
        "view": view.to_json(),
        "answer": str(CARDS[answer]),
        "cards": {
            str(CARDS[c]): {
                "value": rounded(values[c]),
                "cost": rounded(top - values[c]),
                "card_points": v,
                "points": dict(zip(rules.team_names, r.points, strict=True)),
                "outcome": r.outcome,
            }
            for c, (v, r) in dd.items()
        },
        "bot": {
            "choice": str(CARDS[choice]),
            "worlds": worlds,
            "cards": {str(CARDS[c]): rounded(round(m, 2)) for c, m in means.items()},
        },
        "deal": to_record(deal),
        "index": len(deal.plays),
    }


def tricks_left(view: PlayerView) -> int:
    """The tricks still to play in ``view``'s deal, the one under way included.

    >>> deal = Deal.from_seed(1, Rules(), dealer=0)
    >>> tricks_left(deal.view(deal.to_move))
    8
    """
    return view.game.tricks - len(view.tricks)


def problem_dumps(problem: dict[str, Any]) -> str:
    return json.dumps(problem, ensure_ascii=False)


__all__ = ["FORMAT", "MIN_TRICKS_LEFT", "PER_DEAL", "generate", "problem_dumps", "tricks_left"]
