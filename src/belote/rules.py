"""Rule options: one frozen object of named choices, with presets.

Every place where French tables differ is one field here; the engine reads these fields and
nothing else decides a rule. ``docs/rules.md`` explains each choice.

>>> r = find_rules("sans-annonces")
>>> r.declarations, r.target
(False, 501)
>>> Rules.from_dict({"direction": "counterclockwise"}).step
3
>>> Rules.from_dict({"colour": "red"})
Traceback (most recent call last):
...
belote.rules.RulesError: unknown rule option 'colour'; the options are: direction, declarations, rounding, \
litige, undertrump, target, deals, declaration_tie, declaration_card_reuse, variant, round_five, belote_counts, \
coinche_max_bid, coinche_made, coinche_failed, surcoinche, no_trump_all_trump, generale
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, fields, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from belote.variants import Variant

DIRECTIONS = ("clockwise", "counterclockwise")
#: What an 81-81 deal does. ``carry`` (seed 000): the defenders score their 81 and the takers'
#: points wait for the winner of the next deal. ``hold`` (seed 003): nobody scores; all the
#: points of the deal wait for the winner of the next deal.
LITIGE = ("carry", "hold")
#: Two declarations of the same rank, length and height, neither in trumps: ``eldest`` gives
#: it to the player who plays first in the deal; ``none`` lets neither side score.
DECLARATION_TIES = ("eldest", "none")
#: Rounding to the ten: which way a five goes (75 -> 70 or 80).
ROUND_FIVE = ("down", "up")
#: Coinche, a contract made: the takers score the points they made plus the bid, or the bid alone.
COINCHE_MADE = ("points", "bid")
#: The options only Coinche reads.
COINCHE_OPTIONS = ("coinche_max_bid", "coinche_made", "coinche_failed", "surcoinche", "no_trump_all_trump", "generale")


class RulesError(ValueError):
    """A rule option that does not exist or has a value it cannot take."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of one table. The defaults are the rules of seed 000."""

    direction: str = "clockwise"
    declarations: bool = True
    rounding: bool = False
    litige: str = "carry"
    undertrump: bool = True
    target: int = 501
    deals: int | None = None
    declaration_tie: str = "eldest"
    declaration_card_reuse: bool = True
    variant: str = "classic"
    round_five: str = "down"
    belote_counts: bool = True
    # Coinche (docs/rules.md): the defaults are the most common set of the French federation's rules.
    coinche_max_bid: int = 160
    coinche_made: str = "points"
    coinche_failed: int = 160
    surcoinche: int = 4
    no_trump_all_trump: bool = True
    generale: bool = False

    def __post_init__(self) -> None:
        _check_choice("direction", self.direction, DIRECTIONS)
        _check_choice("litige", self.litige, LITIGE)
        _check_choice("declaration_tie", self.declaration_tie, DECLARATION_TIES)
        _check_choice("variant", self.variant, tuple(_games()))
        _check_choice("round_five", self.round_five, ROUND_FIVE)
        _check_choice("coinche_made", self.coinche_made, COINCHE_MADE)
        _check_number("coinche_max_bid", self.coinche_max_bid, (160, 180))
        _check_number("coinche_failed", self.coinche_failed, (160, 162))
        _check_number("surcoinche", self.surcoinche, (3, 4))
        for name in (
            "declarations",
            "rounding",
            "undertrump",
            "declaration_card_reuse",
            "belote_counts",
            "no_trump_all_trump",
            "generale",
        ):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"rule option {name!r} is true or false, not {getattr(self, name)!r}")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or not 1 <= self.target <= 100000:
            raise RulesError(f"target must be a whole number of points from 1 to 100000, not {self.target!r}")
        if self.deals is not None and (
            not isinstance(self.deals, int) or isinstance(self.deals, bool) or not 1 <= self.deals <= 1000
        ):
            raise RulesError(f"deals must be a number of deals from 1 to 1000 (or null), not {self.deals!r}")

    @property
    def game(self) -> Variant:
        """The game these rules play (``belote.variants``): players, scores, auction, scoring."""
        try:
            return _GAMES[self.variant]
        except KeyError:  # the first time: the registry is imported when first asked
            _GAMES.update(_games())
            return _GAMES[self.variant]

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def teams(self) -> int:
        """How many scores the match keeps: two partnerships, or one per player at three hands."""
        return self.game.teams

    @property
    def team_names(self) -> tuple[str, ...]:
        """The names of the scores: the sides ``NS`` and ``EW``, or each player's seat."""
        return self.game.team_names

    def team(self, seat: int) -> int:
        """Whose score a seat's points go to: its partnership, or its own at two and three hands."""
        return self.game.team(seat)

    @property
    def tricks(self) -> int:
        """Tricks in a deal: eight, or sixteen at two hands (each player has sixteen cards)."""
        return self.game.tricks

    @property
    def step(self) -> int:
        """How a seat number moves to the next player: +1 clockwise, -1 (mod players) otherwise."""
        return 1 if self.direction == "clockwise" else self.players - 1

    def to_dict(self) -> dict[str, Any]:
        return dict(_as_dict(self))

    def changes(self) -> dict[str, Any]:
        """Only the options that differ from the defaults."""
        base = Rules()
        return {k: v for k, v in asdict(self).items() if getattr(base, k) != v}

    @classmethod
    def from_dict(cls, data: dict[str, Any], base: Rules | None = None) -> Rules:
        if not isinstance(data, dict):
            raise RulesError("rules must be an object of rule options")
        names = [f.name for f in fields(cls)]
        for key in data:
            if key not in names:
                raise RulesError(f"unknown rule option {key!r}; the options are: {', '.join(names)}")
        try:
            return replace(base or cls(), **data)
        except TypeError as e:  # pragma: no cover - replace() only raises on unknown names
            raise RulesError(str(e)) from None


#: The games by name, filled from the registry the first time a game is asked for.
_GAMES: dict[str, Variant] = {}


@functools.cache
def _games() -> dict[str, Variant]:
    """The registry of games, imported when first asked: the games' modules import these rules."""
    from belote.variants import VARIANTS

    return VARIANTS


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise RulesError(f"rule option {name!r} must be one of {', '.join(choices)}, not {value!r}")


def _check_number(name: str, value: object, choices: tuple[int, ...]) -> None:
    if isinstance(value, bool) or value not in choices:
        raise RulesError(f"rule option {name!r} must be one of {', '.join(map(str, choices))}, not {value!r}")


PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "sans-annonces": Rules(declarations=False),
    "rounded": Rules(rounding=True),
    "classic-1000": Rules(target=1000),
    "counterclockwise": Rules(direction="counterclockwise", litige="hold"),
    "no-undertrump": Rules(undertrump=False),
    "coinche": Rules(variant="coinche"),
    "coinche-sans-annonces": Rules(variant="coinche", declarations=False),
    "three-handed": Rules(variant="three-handed"),
    "two-handed": Rules(variant="two-handed"),
}


def find_rules(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"no rules preset {name!r}; the presets are: {', '.join(PRESETS)}") from None


@functools.cache
def _as_dict(rules: Rules) -> dict[str, Any]:
    """Rules are frozen: their dict is made once (a server sends it in every view)."""
    return asdict(rules)
