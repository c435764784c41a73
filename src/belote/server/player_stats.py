"""A player's statistics: counters summed over their matches, read from the match as its stored log
replays it (each deal's result), and what people read of them (rates and means).

Counters, per player and game (``COUNTERS``): ``matches`` and ``won`` (matches); ``deals`` (deals
played to a score: a deal thrown in is not one) and ``deals_won`` (the player's side scored more of
it); ``taken`` (deals the player took or bid, alone deciding the contract) and ``made`` (of those,
the contract made: the takers scored it, capot of theirs included); ``taker_points`` (the side's
points in the deals the player took); ``defended`` and ``defender_points`` (the deals the other side
took: how many, and the player's side's points in them); ``coinches`` and ``coinches_won`` (Coinche:
contracts of the other side that the player's side coinched, and of those the ones that fell);
``capots`` (deals whose every trick the player's side took); ``analysed_cards`` and
``dd_cost_tenths`` (cards of the player's that the review analysed, each deal once, and their
double-dummy cost summed, in tenths of a point: the counters are whole numbers).

>>> from belote.server.room import check_settings
>>> from belote.server.replica import new_match
>>> import random
>>> match = new_match(check_settings({"variant": "classic", "deals": 2}), 3)
>>> rng = random.Random(1)
>>> while not match.over:
...     match.apply(rng.choice(match.legal_actions()))
>>> c = match_counters(match, 2)
>>> c["matches"], c["deals"], c["taken"] + c["defended"] <= c["deals"]
(1, 2, True)
"""

from __future__ import annotations

from typing import Any

from belote.game import Match

COUNTERS = (
    "matches",
    "won",
    "deals",
    "deals_won",
    "taken",
    "made",
    "taker_points",
    "defended",
    "defender_points",
    "coinches",
    "coinches_won",
    "capots",
    "analysed_cards",
    "dd_cost_tenths",
)


def match_counters(match: Match, seat: int) -> dict[str, int]:
    """What one finished match adds to the counters of the person at ``seat``."""
    rules = match.rules
    side = rules.team(seat)
    c = dict.fromkeys(COUNTERS, 0)
    c["matches"] = 1
    c["won"] = int(match.winner == side)
    for deal in match.deals:
        result = deal.result
        if result is None or result.outcome == "thrown-in" or result.takers is None:
            continue
        c["deals"] += 1
        points = result.points[side]
        c["deals_won"] += int(points > max(p for i, p in enumerate(result.points) if i != side))
        made = result.winner == result.takers  # the engine's verdict (a capot against the taker is no win)
        if deal.taker == seat:
            c["taken"] += 1
            c["made"] += int(made)
            c["taker_points"] += points
        elif result.takers != side:
            c["defended"] += 1
            c["defender_points"] += points
            contract = deal.contract
            if contract is not None and contract.multiplier > 1:
                c["coinches"] += 1
                c["coinches_won"] += int(not made)
        c["capots"] += int(result.capot == side)
    return c


def _ratio(a: int, b: int, digits: int = 3) -> float | None:
    return None if b == 0 else round(a / b, digits)


def summary(counters: dict[str, int]) -> dict[str, Any]:
    """The counters and what people read of them: the rates (of matches and deals won, of deals
    taken, of contracts made, of coinches won), the mean points per deal as taker and as defender,
    and the mean double-dummy cost per card analysed. A rate with nothing to count is None.

    >>> s = summary({"matches": 4, "won": 3, "deals": 10, "taken": 4, "made": 3, "taker_points": 480})
    >>> s["win_rate"], s["take_rate"], s["made_rate"], s["points_as_taker"], s["points_as_defender"]
    (0.75, 0.4, 0.75, 120.0, None)
    """
    c = {k: int(counters.get(k, 0)) for k in COUNTERS}
    return {
        **c,
        "win_rate": _ratio(c["won"], c["matches"]),
        "deal_win_rate": _ratio(c["deals_won"], c["deals"]),
        "take_rate": _ratio(c["taken"], c["deals"]),
        "made_rate": _ratio(c["made"], c["taken"]),
        "points_as_taker": _ratio(c["taker_points"], c["taken"], 1),
        "points_as_defender": _ratio(c["defender_points"], c["defended"], 1),
        "coinche_win_rate": _ratio(c["coinches_won"], c["coinches"]),
        "dd_cost_per_card": _ratio(c["dd_cost_tenths"], 10 * c["analysed_cards"], 2),
    }
