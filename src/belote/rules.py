"""Rule options: one frozen object of named choices, with presets.

Every place where French tables differ is one field here; the engine reads these fields and
nothing else decides a rule. ``docs/rules.md`` explains each choice. Each field has one spec in
``OPTIONS`` (its values, its check, how forms show it): the server's settings, the deal record, the
score sheet, the command line and the pages are all made from those specs.

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
from collections.abc import Iterator, Sequence
from dataclasses import MISSING, asdict, dataclass, fields, replace
from typing import Any

from belote.play import PLAY_OPTIONS, PlayRules
from belote.variants import DEFAULT_GAME, VARIANTS, Variant

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
#: How an option is given: one of a few values, true or false, or a whole number in a range.
KINDS = ("choice", "bool", "int")
#: What a form groups an option under, in the order forms show them: the game; the match (its line
#: or its number of deals); Coinche's own options; the scoring of a deal; the play; which declaration
#: scores. A score sheet, where deals are played with real cards and only their count is entered,
#: reads the game, the match, the scoring and its game's own options (``belote.sheet``).
GROUPS = ("game", "match", "coinche", "scoring", "play", "declarations")


class RulesError(ValueError):
    """A rule option that does not exist or has a value it cannot take."""


class GameNames(Sequence[str]):
    """The names of the games of ``belote.variants.VARIANTS``, read from the registry each time they
    are asked: a game registered after this module was imported is one of them (a choice of the
    option ``variant``, so of the command line, the server's settings and the record's rules).

    >>> names = GameNames()
    >>> list(names), "coinche" in names, len(names)
    (['classic', 'coinche', 'three-handed', 'two-handed'], True, 4)
    """

    __slots__ = ()

    def __getitem__(self, index: Any) -> Any:
        return tuple(VARIANTS)[index]

    def __len__(self) -> int:
        return len(VARIANTS)

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(VARIANTS))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in VARIANTS

    def __repr__(self) -> str:
        return f"GameNames({', '.join(VARIANTS)})"


#: The choices of the option ``variant``: every game of ``belote.variants``, as registered now.
GAME_NAMES: Sequence[str] = GameNames()


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option: its values, its default, and how a form shows it. Every check, form, record and
    command-line flag of a rule option is made from its spec (``OPTIONS``).

    ``kind`` is ``choice`` (one of ``choices``, in the order a form lists them), ``bool``, or ``int``
    (a whole number from ``min`` to ``max``); ``nullable``: None is a value too (``deals``: play to
    the target). ``label`` is the pages' i18n key for its name, ``group`` one of ``GROUPS``, ``help``
    a line of English for people.

    >>> spec = OPTION_SPECS["surcoinche"]
    >>> spec.kind, list(spec.choices), spec.default, spec.games
    ('choice', [3, 4], 4, ('coinche',))
    >>> spec.problem(5)
    "rule option 'surcoinche' must be one of 3, 4, not 5"
    >>> OPTION_SPECS["target"].parse("1000"), OPTION_SPECS["deals"].parse("null")
    (1000, None)
    """

    name: str
    kind: str
    default: Any
    label: str
    group: str
    help: str
    choices: Sequence[Any] = ()
    min: int | None = None
    max: int | None = None
    nullable: bool = False
    #: The bool option this one only matters under (``round_five`` under ``rounding``): a form shows
    #: it beneath that one, and only while it is on.
    shown_with: str | None = None

    def __post_init__(self) -> None:
        assert self.kind in KINDS and (self.kind == "choice") == bool(self.choices), self.name
        assert (self.kind == "int") == (self.min is not None and self.max is not None), self.name

    @property
    def games(self) -> tuple[str, ...] | None:
        """The games that read this option (their ``own_options``), or None when every game reads it."""
        return tuple(g.name for g in VARIANTS.values() if self.name in g.own_options) or None

    def read_by(self, game: str) -> bool:
        games = self.games
        return games is None or game in games

    def problem(self, value: object, what: str = "rule option") -> str | None:
        """What is wrong with ``value`` for this option, in words naming it; None if it is right.

        Any JSON value may come here: only a value of the option's own type can be right (not
        ``True`` for a number, nor ``160.0`` for 160).
        """
        if value is None and self.nullable:
            return None
        if self.kind == "bool":
            return None if isinstance(value, bool) else f"{what} {self.name!r} is true or false, not {value!r}"
        if self.kind == "int":
            assert self.min is not None and self.max is not None
            if type(value) is int and self.min <= value <= self.max:
                return None
            null = " (or null)" if self.nullable else ""
            return f"{self.name} must be a whole number from {self.min} to {self.max}{null}, not {value!r}"
        if any(type(value) is type(c) and value == c for c in self.choices):
            return None
        return f"{what} {self.name!r} must be one of {', '.join(map(str, self.choices))}, not {value!r}"

    def check(self, value: object) -> None:
        problem = self.problem(value)
        if problem is not None:
            raise RulesError(problem)

    def parse(self, text: str) -> Any:
        """The value of a command-line ``NAME=VALUE``, read by the option's kind (raises RulesError)."""
        word = text.strip()
        value: object = word
        if self.nullable and word.lower() in ("null", "none"):
            value = None
        elif self.kind == "bool" and word.lower() in ("true", "false"):
            value = word.lower() == "true"
        elif self.kind == "int" and word.lstrip("-").isdigit():
            value = int(word)
        elif self.kind == "choice":
            value = next((c for c in self.choices if str(c) == word), word)
        self.check(value)
        return value

    def to_json(self) -> dict[str, Any]:
        """The spec for programs and pages (``GET /api/games``)."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.kind == "choice":
            out["choices"] = list(self.choices)
        if self.kind == "int":
            out["min"], out["max"] = self.min, self.max
        games = self.games
        out.update(
            default=self.default,
            games=None if games is None else list(games),
            label=self.label,
            group=self.group,
            nullable=self.nullable,
            help=self.help,
        )
        if self.shown_with is not None:
            out["shown_with"] = self.shown_with
        return out


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of one table. The defaults are the rules of seed 000; each field is checked by its
    spec in ``OPTIONS``."""

    direction: str = "clockwise"
    declarations: bool = True
    rounding: bool = False
    litige: str = "carry"
    undertrump: bool = True
    target: int = 501
    deals: int | None = None
    declaration_tie: str = "eldest"
    declaration_card_reuse: bool = True
    variant: str = DEFAULT_GAME
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
        for spec in OPTIONS:
            spec.check(getattr(self, spec.name))

    @property
    def game(self) -> Variant:
        """The game these rules play (``belote.variants``): players, scores, auction, scoring."""
        return VARIANTS[self.variant]

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
    def play(self) -> PlayRules:
        """The options that decide which cards may be played, as one value (``belote.play.PlayRules``)."""
        return _play_rules(self)

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


def _rule(name: str, kind: str, label: str, group: str, *, help: str, **details: Any) -> OptionSpec:
    """The spec of the rule option ``name``; its default is the field's of ``Rules``, written there once."""
    default = next(f.default for f in fields(Rules) if f.name == name)
    assert default is not MISSING, name
    return OptionSpec(name, kind, default, label, group, help, **details)


#: Every rule option, in the order forms show them (grouped by ``GROUPS``). docs/rules.md tells each.
# fmt: off
OPTIONS: tuple[OptionSpec, ...] = (
    _rule("variant", "choice", "settingsGame", "game", choices=GAME_NAMES,
          help="The game: classic, Coinche, three or two hands."),
    _rule("target", "int", "settingsTarget", "match", min=100, max=5000,
          help="The line a score must reach to end the match."),
    _rule("deals", "int", "settingsDeals", "match", min=1, max=100, nullable=True,
          help="A number of deals to play instead of a line (null: play to the target)."),
    _rule("coinche_max_bid", "choice", "settingsMaxBid", "coinche", choices=(160, 180),
          help="The highest bid in points before capot."),
    _rule("coinche_made", "choice", "settingsMade", "coinche", choices=COINCHE_MADE,
          help="A contract made scores the points made and the bid (points), or the bid alone (bid)."),
    _rule("coinche_failed", "choice", "settingsFailed", "coinche", choices=(160, 162),
          help="A failed contract gives the defenders 160 or 162, and the bid."),
    _rule("surcoinche", "choice", "settingsSurcoinche", "coinche", choices=(3, 4),
          help="What a surcoinche multiplies the score by (a coinche by 2)."),
    _rule("no_trump_all_trump", "bool", "settingsNtAt", "coinche",
          help="Whether no-trumps and all-trumps may be bid."),
    _rule("generale", "bool", "settingsGenerale", "coinche",
          help="Whether the générale (every trick to the bidder alone, worth 500) may be bid."),
    _rule("declarations", "bool", "settingsDeclarations", "scoring",
          help="Sequences and fours of a kind score; false is sans annonces (belote still counts)."),
    _rule("rounding", "bool", "settingsRounding", "scoring",
          help="Scores rounded to the ten (160 a deal)."),
    _rule("round_five", "choice", "settingsRoundFive", "scoring", choices=ROUND_FIVE, shown_with="rounding",
          help="Which way a five goes when rounding: down (85 to 80) or up (85 to 90)."),
    _rule("belote_counts", "bool", "settingsBeloteCounts", "scoring",
          help="Whether belote counts towards the takers' total that decides made or dedans (it scores either way)."),
    _rule("litige", "choice", "settingsLitige", "scoring", choices=LITIGE,
          help="At 81-81: the defenders score and the takers' points wait (carry), or the whole deal waits (hold)."),
    _rule("undertrump", "bool", "settingsUndertrump", "play",
          help="When you must trump but cannot overtrump: still trump (true), or play any card (false)."),
    _rule("direction", "choice", "settingsDirection", "play", choices=DIRECTIONS,
          help="Which way play and dealing go round the table."),
    _rule("declaration_tie", "choice", "settingsDeclarationTie", "declarations", choices=DECLARATION_TIES,
          help="Equal best declarations, neither in trumps: the first player's scores (eldest), or nobody's (none)."),
    _rule("declaration_card_reuse", "bool", "settingsCardReuse", "declarations",
          help="Whether one card may count in a four of a kind and in a sequence."),
)
# fmt: on
#: The specs by option name.
OPTION_SPECS: dict[str, OptionSpec] = {spec.name: spec for spec in OPTIONS}
assert all(OPTION_SPECS[s.shown_with].kind == "bool" for s in OPTIONS if s.shown_with), "shown_with names a bool option"
#: The options of a match, not of one deal (the group ``match``: its line, its number of deals): a deal
#: record's rule keys and the OpenSpiel game's parameters are the other options.
MATCH_OPTIONS: tuple[str, ...] = tuple(spec.name for spec in OPTIONS if spec.group == "match")

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
def _play_rules(rules: Rules) -> PlayRules:
    """Rules are frozen: their play rules are made once (every deal and every solve reads them)."""
    return PlayRules(sum(bit for name, bit in PLAY_OPTIONS.items() if getattr(rules, name)))


@functools.cache
def _as_dict(rules: Rules) -> dict[str, Any]:
    """Rules are frozen: their dict is made once (a server sends it in every view)."""
    return asdict(rules)
