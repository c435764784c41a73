"""Ratings: one per person and game, moved by the matches between people, with OpenSkill's Weng-Lin
Plackett-Luce model (docs/players.md says why this library and this model).

A rating is a belief about a player's skill: ``mu`` (its mean) and ``sigma`` (how unsure it is),
both in OpenSkill's units (a new player is 25 and 25/3). What people see is ``shown``: the
conservative estimate ``mu - 3 sigma`` scaled so that a new player shows 1,000 and a point of
skill is 40, the order of every leaderboard. A rating is *provisional* for its first
``PROVISIONAL`` rated matches.

The bots have fixed ratings, one per strength (``BOT_RATINGS``), with a small sigma: a table with a
bot in it means the same everywhere, and a match never moves a bot's rating. A match moves ratings
only when it is between people: at least two identities on different sides (``rated_sides``), so a
match against bots alone moves nothing, however often it is played.

Each game has its own rating: classic, Coinche, three-handed (each for themselves: three sides of
one) and two-handed. A side's rank is its place at the end of the match: the side that reached the
line first (or was ahead after the last deal) is first; at three hands the places follow the scores,
and a tie shares its place.

>>> [shown(Rating(25.0, 25 / 3)), shown(BOT_RATINGS["normal"])]
[1000, 2000]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

#: Rated matches before a rating is no longer provisional.
PROVISIONAL = 10
MU, SIGMA = 25.0, 25.0 / 3.0
_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    def to_json(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma}


#: The bots' fixed ratings, by strength (room.STRENGTHS), published (docs/players.md, GET
#: /api/ratings): anchors, so that a bot at a table means the same everywhere. An average person
#: settles near mu 25 (shown about 1,760 once sigma is near 2); the easy bot is a little below,
#: the normal and strong search bots above. sigma is small: a bot's play never changes.
BOT_RATINGS: dict[str, Rating] = {
    "easy": Rating(22.0, 1.0),
    "normal": Rating(28.0, 1.0),
    "strong": Rating(30.0, 1.0),
}


def shown(rating: Rating) -> int:
    """The number people see: 1,000 for a new player, 40 a point of the conservative estimate."""
    return round(1000 + 40 * (rating.mu - 3 * rating.sigma))


def provisional(matches: int) -> bool:
    return matches < PROVISIONAL


#: A seat of a finished match: the identity of the person there, or None (a bot, or a person without
#: an identity: rated as the table's bots, at their strength's fixed rating).
Seat = str | None


def rated_sides(sides: list[list[Seat]]) -> bool:
    """Whether a match between these sides moves ratings: two identities at least, on different sides.

    >>> rated_sides([["a", None], [None, None]]), rated_sides([["a"], ["b"], [None]])
    (False, True)
    """
    with_people = [side for side in sides if any(p is not None for p in side)]
    return len(with_people) >= 2


def ranks_of(scores: list[int], winner: int | None) -> list[int]:
    """Each side's place (1 first): the winner first, then by score; equal scores share a place.

    >>> ranks_of([1012, 640], 0), ranks_of([520, 700, 520], None), ranks_of([500, 500], 1)
    ([1, 2], [2, 1, 2], [2, 1])
    """
    keys = [(i == winner, score) for i, score in enumerate(scores)]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def rate(sides: list[list[Seat]], ranks: list[int], ratings: dict[str, Rating], strength: str) -> dict[str, Rating]:
    """The new rating of every identity of a match: the model's update of the sides in their
    ``ranks``, from their ``ratings`` (a new player's when missing); the table's bots play at their
    ``strength``'s fixed rating, which does not move. An identity that sat twice counts once (it cannot: the
    tables refuse it)."""
    model_teams = []
    for side in sides:
        team = []
        for p in side:
            r = BOT_RATINGS[strength] if p is None else ratings.get(p, Rating())
            team.append(_MODEL.rating(mu=r.mu, sigma=r.sigma))
        model_teams.append(team)
    rated = _MODEL.rate(model_teams, ranks=[float(r) for r in ranks])
    out: dict[str, Rating] = {}
    for side, team in zip(sides, rated, strict=True):
        for p, moved in zip(side, team, strict=True):
            if p is not None and p not in out:
                out[p] = Rating(float(moved.mu), float(moved.sigma))
    return out


def published() -> dict[str, Any]:
    """What ``GET /api/ratings`` says of the scale: the bots' ratings, the start, the provisional period."""
    return {
        "model": "OpenSkill Weng-Lin Plackett-Luce",
        "start": shown(Rating()),
        "provisional_matches": PROVISIONAL,
        "bots": {name: {**r.to_json(), "rating": shown(r)} for name, r in BOT_RATINGS.items()},
    }
