"""The score sheet: deals played with real cards, entered by hand and scored by the engine.

A sheet holds the rules of the match (its game, its line or number of deals, the scoring options),
the names of the sides (or of the players, at three and two hands), an optional starting score,
and one entry per deal. Each game has its entry:

- the classic game and the two-handed one (``Entry``): who took, the takers' card points (the
  others have the rest of 162), the declarations that count, belote and capot; scored by
  ``belote.scoring.score_deal``;
- Coinche (``ContractEntry``): the contract (level and trumps), the bidding side, coinche or
  surcoinche, the bidding side's card points, declarations, belote, capot; scored by
  ``belote.scoring.score_contract``;
- three-handed (``ThreeEntry``): the taker, the dealer, each player's card points, declarations,
  belote and capot; scored by ``belote.scoring.score_three``.

These are the functions the table uses, so the sheet and the engine can never disagree on a deal.

Seed 000's worked match, from 210 to 176:

>>> sheet = Sheet(start=(210, 176))
>>> sheet.add(Entry(takers=0, cards=108, belote=0)).points
(128, 54)
>>> sheet.add(Entry(takers=1, cards=74)).outcome
'dedans'
>>> sheet.score
(500, 230)
>>> sheet.add(Entry(takers=0, cards=90)).points, sheet.score, sheet.over, sheet.winner
((90, 72), (590, 302), True, 0)
>>> sheet.add(Entry(takers=1, cards=81))
Traceback (most recent call last):
...
belote.sheet.MatchOverError: no entry after the match is over: NS won 590 to 302

Coinche: 110 hearts bid by N-S, made with 113 card points (docs/rules.md):

>>> coinche = Sheet(Rules(variant="coinche"))
>>> coinche.add(ContractEntry(bidder=0, level=110, mode=1, cards=113)).points
(223, 49)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeGuard

from belote.contracts import CAPOT, GENERALE, LEVELS, MODE_LETTERS, Contract, level_name
from belote.rules import OPTION_SPECS, OPTIONS, Rules, RulesError
from belote.scoring import DEAL_POINTS, SIDES, DealResult, match_winner, score_contract, score_deal, score_three
from belote.variants import SEATS, VARIANTS, find_variant

FORMAT = "belote-sheet/1"
#: Far more deals than any match plays; it only bounds what one stored sheet can grow to.
MAX_ENTRIES = 1000
#: More than any side can declare in one deal (four jacks and four nines in one hand is 350).
MAX_DECLARATIONS = 1000
MAX_START = 100_000
MAX_NAME = 40
#: The groups of rule options (``belote.rules.GROUPS``) a score sheet reads: the game, the match, the
#: scoring of a deal and the game's own options. The others (undertrump...) only matter at a table.
SHEET_GROUPS = ("game", "match", "scoring", "coinche")
#: Numbers in words, for messages.
WORDS = {2: "two", 3: "three", 4: "four", 8: "eight", 16: "sixteen"}
#: The 24 cards in play at three hands hold at least 54 card points (the eight out of play hold at
#: most 98: the jack and nine of trumps, four aces and two tens), and the last trick is worth 10.
THREE_MIN_POINTS = 64
#: The bounds above, as the score sheet page checks an entry before sending it (``GET /api/games``).
LIMITS = {
    "deal_points": DEAL_POINTS,
    "max_declarations": MAX_DECLARATIONS,
    "max_start": MAX_START,
    "max_name": MAX_NAME,
    "three_min_points": THREE_MIN_POINTS,
}
#: How each game's sheet says the coinche and surcoinche of a contract.
COINCHES = (None, "coinche", "surcoinche")


class SheetError(ValueError):
    """Something the sheet refuses, in words for the people at the table. The sheet is unchanged.

    ``code`` names the kind of problem, so that a front end can say it in another language.
    """

    code = "invalid"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class EntryError(SheetError):
    """A deal that cannot have been played as entered."""


class MatchOverError(SheetError):
    """A deal entered after the match reached its line."""

    code = "over"


class NothingToUndo(SheetError):
    code = "empty"


def _or_list(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1]


def side_index(value: object, what: str, names: Sequence[str] = SIDES) -> int:
    """``"NS"`` or 0 is side 0, ``"EW"`` or 1 is side 1; at three and two hands, a player's seat.

    >>> side_index("ew", "the takers")
    1
    >>> side_index("s", "the taker", ("N", "E", "S"))
    2
    """
    if isinstance(value, str) and value.upper() in names:
        return list(names).index(value.upper())
    if _whole(value) and 0 <= value < len(names):
        return value
    raise EntryError(f"{what} must be {_or_list(names)}, not {value!r}", "side")


def _optional_side(value: object, what: str, names: Sequence[str] = SIDES) -> int | None:
    return None if value is None or value == "" else side_index(value, what, names)


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _by_team(value: object, what: str, code: str, names: Sequence[str] = SIDES) -> tuple[object, ...]:
    """One value per side (or player), from ``{"NS": a, "EW": b}`` or ``[a, b]``."""
    if isinstance(value, Mapping):
        unknown = set(value) - set(names)
        if unknown:
            by = "side" if len(names) == 2 and names == SIDES else "player"
            raise SheetError(f"{what} are given by {by}, {' and '.join(names)}, not {sorted(map(str, unknown))}", code)
        return tuple(value.get(n) for n in names)
    if isinstance(value, list | tuple) and len(value) == len(names):
        return tuple(value)
    if names == SIDES:
        raise SheetError(f"{what} are two values, one for NS and one for EW", code)
    raise SheetError(f"{what} are {len(names)} values, one for each of {', '.join(names)}", code)


def _check_keys(data: object, allowed: Sequence[str], what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise SheetError(f"{what} must be a JSON object", "format")
    unknown = [k for k in data if k not in allowed]
    if unknown:
        raise SheetError(f"unknown field {unknown[0]!r} in {what}; the fields are: {', '.join(allowed)}", "format")
    return data


def _check_declarations(values: Sequence[object], names: Sequence[str]) -> None:
    for name, points in zip(names, values, strict=True):
        if not _whole(points) or not 0 <= points <= MAX_DECLARATIONS:
            raise EntryError(
                f"declarations must be 0 to {MAX_DECLARATIONS} points, not {points!r} for {name}", "declarations"
            )
        if points % 10:
            raise EntryError(
                f"declarations are multiples of 10 (tierce 20, quarte 50, quinte 100...), not {points} for {name}",
                "declarations",
            )


def _declarations(value: object, names: Sequence[str]) -> tuple[int, ...]:
    """Declarations by side or player from JSON; a missing value is 0 (each is checked by the entry)."""
    if value is None:
        return (0,) * len(names)
    # JSON may hold anything here; the entry checks each value and names what is wrong.
    return tuple(0 if v is None else v for v in _by_team(value, "declarations", "declarations", names))  # type: ignore[misc]


def _check_sides(
    who: str,
    side: object,
    cards: object,
    declarations: tuple[int, int],
    belote: object,
    capot: object,
    names: Sequence[str],
) -> None:
    """The checks of a deal between two sides: ``side`` (the takers or the bidders) and its ``cards``."""
    if not _whole(side) or side not in (0, 1):
        raise EntryError(f"the {who} must be {_or_list(names)} (side 0 or 1), not {side!r}", "side")
    if not _whole(cards) or not 0 <= cards <= DEAL_POINTS:
        raise EntryError(f"card points must be 0 to {DEAL_POINTS}, not {cards!r}", "cards")
    _check_declarations(declarations, names)
    if declarations[0] and declarations[1]:
        raise EntryError(
            "only the side with the best declaration scores its declarations: "
            f"{names[0]} {declarations[0]} and {names[1]} {declarations[1]} cannot both count",
            "declarations-both",
        )
    for name, value in (("belote", belote), ("capot", capot)):
        if value is not None and (not _whole(value) or value not in (0, 1)):
            raise EntryError(f"{name} goes to {_or_list(names)} (side 0 or 1) or nobody, not {value!r}", "side")
    if _whole(capot):
        implied = DEAL_POINTS if capot == side else 0
        if cards != implied:
            raise EntryError(
                f"a capot by {names[capot]} gives them every card point: the {who}' card points are "
                f"{implied}, not {cards}",
                "capot-cards",
            )


# ---------------------------------------------------------------------------------- the classic game
class _SideEntry:
    """What an entry between two sides says of tricks and belote: ``capot`` and ``belote`` name a
    side (0 or 1) or None."""

    __slots__ = ()
    capot: int | None
    belote: int | None
    #: The rule options the entry reads beyond those of ``SHEET_GROUPS``.
    rule_options: ClassVar[tuple[str, ...]] = ()
    #: Whether the entry says who dealt.
    says_dealer: ClassVar[bool] = False

    def tricks(self, total: int) -> tuple[int, int]:
        """Tricks by side in a deal of ``total`` tricks, as ``score_deal`` and ``score_contract`` read them.

        They see a capot only in a side with no trick. Without one, each side took at least one
        trick, and how many more changes nothing in the score.
        """
        if self.capot is None:
            return (total // 2, total // 2)
        return (total, 0) if self.capot == 0 else (0, total)

    @property
    def belote_points(self) -> tuple[int, int]:
        if self.belote is None:
            return (0, 0)
        return (20, 0) if self.belote == 0 else (0, 20)


@dataclass(frozen=True, slots=True)
class Entry(_SideEntry):
    """One deal of the classic game (or of the two-handed one) as the table counted it.

    Sides are 0 (NS) and 1 (EW); at two hands, the two players. ``cards`` is the takers' card
    points, last trick included; the defenders have the rest of 162. ``declarations`` is the points
    of the declarations that count, by side: only the side holding the best declaration scores, so
    at most one of the two is not 0. ``belote`` and ``capot`` are the side that had them, or None. A
    capot gives its side every card point: 162 to 0. ``names`` only names the sides in messages.
    """

    takers: int
    cards: int
    declarations: tuple[int, int] = (0, 0)
    belote: int | None = None
    capot: int | None = None
    names: tuple[str, ...] = field(default=SIDES, compare=False, repr=False)

    def __post_init__(self) -> None:
        _check_sides("takers", self.takers, self.cards, self.declarations, self.belote, self.capot, self.names)

    @property
    def capot_cards(self) -> int:
        """The takers' card points that a capot implies (only meaningful with one)."""
        return DEAL_POINTS if self.capot == self.takers else 0

    @property
    def card_points(self) -> tuple[int, int]:
        """Card points by side: the defenders have the rest of 162."""
        other = DEAL_POINTS - self.cards
        return (self.cards, other) if self.takers == 0 else (other, self.cards)

    def score(self, rules: Rules, pending: int) -> DealResult:
        return score_deal(
            rules,
            self.takers,
            self.card_points,
            self.tricks(rules.tricks),
            self.declarations,
            self.belote_points,
            pending,
            rules.team_names,
        )

    def to_dict(self, names: Sequence[str] | None = None) -> dict[str, Any]:
        names = names or self.names
        return {
            "takers": names[self.takers],
            "cards": self.cards,
            "declarations": dict(zip(names, self.declarations, strict=True)),
            "belote": None if self.belote is None else names[self.belote],
            "capot": None if self.capot is None else names[self.capot],
        }

    @classmethod
    def from_dict(cls, data: object, names: tuple[str, ...] = SIDES) -> Entry:
        """An entry from JSON: sides as ``"NS"`` / ``"EW"``; ``cards`` may be left out with a capot.

        >>> Entry.from_dict({"takers": "EW", "capot": "EW"})
        Entry(takers=1, cards=162, declarations=(0, 0), belote=None, capot=1)
        """
        d = _check_keys(data, ("takers", "cards", "declarations", "belote", "capot"), "a deal")
        if d.get("takers") is None:
            raise EntryError(f"say who took: {_or_list(names)}", "takers-missing")
        takers = side_index(d["takers"], "the takers", names)
        capot = _optional_side(d.get("capot"), "capot", names)
        cards = d.get("cards")
        if cards is None or cards == "":
            if capot is None:
                raise EntryError("the takers' card points are missing", "cards-missing")
            cards = DEAL_POINTS if capot == takers else 0
        ns, ew = _declarations(d.get("declarations"), names)
        return cls(
            takers=takers,
            cards=cards,
            declarations=(ns, ew),
            belote=_optional_side(d.get("belote"), "belote", names),
            capot=capot,
            names=names,
        )


# ---------------------------------------------------------------------------------- Coinche
@dataclass(frozen=True, slots=True)
class ContractEntry(_SideEntry):
    """One deal of Coinche as the table counted it. Sides are 0 (NS) and 1 (EW).

    The contract: ``level`` (80 to 180, ``CAPOT`` 250 or ``GENERALE`` 500) and ``mode`` (0..3 a
    suit, 4 no-trumps, 5 all-trumps), bid by the side ``bidder``; ``coinche`` is None,
    ``"coinche"`` or ``"surcoinche"``. ``cards`` is the bidding side's card points, last trick
    included (the defenders have the rest of 162); ``declarations``, ``belote`` and ``capot`` as in
    ``Entry``. ``alone``: the bidder took every trick alone, which a générale needs.
    """

    bidder: int
    level: int
    mode: int
    cards: int
    coinche: str | None = None
    declarations: tuple[int, int] = (0, 0)
    belote: int | None = None
    capot: int | None = None
    alone: bool = False
    names: tuple[str, ...] = field(default=SIDES, compare=False, repr=False)

    def __post_init__(self) -> None:
        _check_sides("bidders", self.bidder, self.cards, self.declarations, self.belote, self.capot, self.names)
        if not _whole(self.level) or self.level not in LEVELS:
            raise EntryError(
                f"a contract is 80 to 180 in tens, capot or générale, not {self.level!r}", "contract-level"
            )
        if not _whole(self.mode) or not 0 <= self.mode < len(MODE_LETTERS):
            raise EntryError(f"the trumps of a contract are S H D C NT or AT, not {self.mode!r}", "contract-mode")
        if self.coinche not in COINCHES:
            raise EntryError(f"coinche is none, coinche or surcoinche, not {self.coinche!r}", "coinche")
        if self.belote is not None and self.mode >= 4:
            raise EntryError("there is no belote at no-trumps or all-trumps", "belote-mode")
        if not isinstance(self.alone, bool):
            raise EntryError(f"alone is true or false, not {self.alone!r}", "alone")
        if self.alone and (self.level != GENERALE or self.capot != self.bidder):
            raise EntryError(
                "only a générale asks whether the bidder took every trick alone, and only with a capot by "
                "the bidding side",
                "alone",
            )

    @property
    def name(self) -> str:
        """``110H``, ``capotNT``."""
        return level_name(self.level) + MODE_LETTERS[self.mode]

    def multiplier(self, rules: Rules) -> int:
        return {None: 1, "coinche": 2}.get(self.coinche, rules.surcoinche)

    @property
    def card_points(self) -> tuple[int, int]:
        other = DEAL_POINTS - self.cards
        return (self.cards, other) if self.bidder == 0 else (other, self.cards)

    def check_rules(self, rules: Rules) -> None:
        """What this table's options do not allow."""
        if self.level != CAPOT and self.level != GENERALE and self.level > rules.coinche_max_bid:
            raise EntryError(
                f"bids go from 80 to {rules.coinche_max_bid} at this table, then capot, not {self.level}",
                "contract-level",
            )
        if self.level == GENERALE and not rules.generale:
            raise EntryError("the générale is not played at this table", "contract-level")
        if self.mode >= 4 and not rules.no_trump_all_trump:
            raise EntryError("no-trumps and all-trumps are not played at this table", "contract-mode")

    def score(self, rules: Rules, pending: int) -> DealResult:
        contract = Contract(self.level, self.mode, self.bidder, self.multiplier(rules))
        return score_contract(
            rules,
            contract,
            self.card_points,
            self.tricks(rules.tricks),
            self.declarations,
            self.belote_points,
            bidder_took_all=self.alone,
        )

    def to_dict(self, names: Sequence[str] | None = None) -> dict[str, Any]:
        names = names or self.names
        return {
            "bidder": names[self.bidder],
            "level": level_name(self.level),
            "mode": MODE_LETTERS[self.mode],
            "coinche": self.coinche,
            "cards": self.cards,
            "declarations": dict(zip(names, self.declarations, strict=True)),
            "belote": None if self.belote is None else names[self.belote],
            "capot": None if self.capot is None else names[self.capot],
            "alone": self.alone,
        }

    @classmethod
    def from_dict(cls, data: object, names: tuple[str, ...] = SIDES) -> ContractEntry:
        """A Coinche entry from JSON. ``level`` is 80..180 (a number or its text), ``"capot"`` or
        ``"generale"``; ``mode`` a suit letter, ``"NT"`` or ``"AT"``; ``cards`` may be left out with a capot.

        >>> ContractEntry.from_dict({"bidder": "EW", "level": "110", "mode": "nt", "cards": 90, "coinche": "coinche"})
        ContractEntry(bidder=1, level=110, mode=4, cards=90, coinche='coinche', declarations=(0, 0), belote=None, \
capot=None, alone=False)
        """
        keys = ("bidder", "level", "mode", "coinche", "cards", "declarations", "belote", "capot", "alone")
        d = _check_keys(data, keys, "a deal")
        if d.get("bidder") is None:
            raise EntryError(f"say who bid the contract: {_or_list(names)}", "bidder-missing")
        bidder = side_index(d["bidder"], "the bidders", names)
        level = _level(d.get("level"))
        mode = _mode(d.get("mode"))
        coinche = d.get("coinche")
        coinche = None if coinche in ("", False) else coinche.strip().lower() if isinstance(coinche, str) else coinche
        capot = _optional_side(d.get("capot"), "capot", names)
        cards = d.get("cards")
        if cards is None or cards == "":
            if capot is None:
                raise EntryError("the bidders' card points are missing", "cards-missing")
            cards = DEAL_POINTS if capot == bidder else 0
        ns, ew = _declarations(d.get("declarations"), names)
        alone = d.get("alone", False)
        return cls(
            bidder=bidder,
            level=level,
            mode=mode,
            cards=cards,
            coinche=coinche,
            declarations=(ns, ew),
            belote=_optional_side(d.get("belote"), "belote", names),
            capot=capot,
            alone=False if alone is None else alone,
            names=names,
        )


def _level(value: object) -> int:
    if value is None or value == "":
        raise EntryError("say the contract: 80 to 180, capot or générale", "contract-missing")
    if isinstance(value, str):
        word = value.strip().lower().replace("é", "e")
        for level in LEVELS:
            if word == level_name(level):
                return int(level)
    if _whole(value):
        return value  # checked by the entry
    raise EntryError(f"a contract is 80 to 180 in tens, capot or générale, not {value!r}", "contract-level")


def _mode(value: object) -> int:
    if value is None or value == "":
        raise EntryError("say the contract's trumps: S H D C, NT (no-trumps) or AT (all-trumps)", "contract-missing")
    if isinstance(value, str) and value.strip().upper() in MODE_LETTERS:
        return MODE_LETTERS.index(value.strip().upper())
    return value if _whole(value) else -1  # checked by the entry


# ---------------------------------------------------------------------------------- three hands
#: The players of an entry by player: the first three seats.
THREE = tuple(SEATS[:3])


@dataclass(frozen=True, slots=True)
class ThreeEntry:
    """One deal of the three-handed game. Players are 0, 1, 2 (N, E, S).

    ``cards`` is each player's card points, last trick included; together they are what the deal
    holds in play (some cards stay out of it). ``declarations`` by player: only the camp with the
    best declaration scores (the taker, or the two defenders). ``belote`` is the player who had
    it. ``capot`` is ``"taker"`` (every trick to the taker) or ``"defenders"`` (none), or None.
    ``dealer`` says who plays first, to whom an odd point of a shared deal goes.
    """

    #: At three hands the direction says who plays first after the dealer: the odd point of a
    #: shared deal goes to that defender.
    rule_options: ClassVar[tuple[str, ...]] = ("direction",)
    says_dealer: ClassVar[bool] = True

    taker: int
    dealer: int
    cards: tuple[int, int, int]
    declarations: tuple[int, int, int] = (0, 0, 0)
    belote: int | None = None
    capot: str | None = None
    names: tuple[str, ...] = field(default=THREE, compare=False, repr=False)

    def __post_init__(self) -> None:
        names = self.names
        for what, value in (("the taker", self.taker), ("the dealer", self.dealer)):
            if not _whole(value) or value not in (0, 1, 2):
                raise EntryError(f"{what} must be {_or_list(names)} (player 0, 1 or 2), not {value!r}", "side")
        if len(self.cards) != 3:
            raise EntryError("card points are three values, one for each player", "cards")
        for name, points in zip(names, self.cards, strict=True):
            if not _whole(points) or not 0 <= points <= DEAL_POINTS:
                raise EntryError(f"card points must be 0 to {DEAL_POINTS}, not {points!r} for {name}", "cards")
        total = sum(self.cards)
        if not THREE_MIN_POINTS <= total <= DEAL_POINTS:
            raise EntryError(
                f"the three players' card points add up to {THREE_MIN_POINTS} to {DEAL_POINTS} (the 24 cards in "
                f"play and the last trick), not {total}",
                "cards-total",
            )
        if len(self.declarations) != 3:
            raise EntryError("declarations are three values, one for each player", "declarations")
        _check_declarations(self.declarations, names)
        defenders = [s for s in range(3) if s != self.taker]
        if self.declarations[self.taker] and any(self.declarations[s] for s in defenders):
            raise EntryError(
                "only the camp with the best declaration scores its declarations: the taker's and the "
                "defenders' cannot both count",
                "declarations-both",
            )
        if self.belote is not None and (not _whole(self.belote) or self.belote not in (0, 1, 2)):
            raise EntryError(f"belote goes to {_or_list(names)} or nobody, not {self.belote!r}", "side")
        if self.capot not in (None, "taker", "defenders"):
            raise EntryError(f"capot is by the taker or the defenders, not {self.capot!r}", "capot")
        if self.capot == "taker" and any(self.cards[s] for s in defenders):
            raise EntryError("a capot by the taker leaves the defenders no card point", "capot-cards")
        if self.capot == "defenders" and self.cards[self.taker]:
            raise EntryError("a capot by the defenders leaves the taker no card point", "capot-cards")

    def tricks(self, total: int) -> tuple[int, int, int]:
        """Tricks by player in a deal of ``total`` tricks, as ``score_three`` reads them (only the
        taker's and the defenders' none matter)."""
        if self.capot == "taker":
            return tuple(total if s == self.taker else 0 for s in range(3))  # type: ignore[return-value]
        if self.capot == "defenders":
            return tuple(0 if s == self.taker else total // 2 for s in range(3))  # type: ignore[return-value]
        return tuple(total // 2 if s == self.taker else total // 4 for s in range(3))  # type: ignore[return-value]

    @property
    def belote_points(self) -> tuple[int, int, int]:
        return tuple(20 if s == self.belote else 0 for s in range(3))  # type: ignore[return-value]

    def score(self, rules: Rules, pending: int) -> DealResult:
        order = list(rules.game.order(self.dealer, rules.step))
        tricks = self.tricks(rules.tricks)
        return score_three(rules, self.taker, self.cards, tricks, self.declarations, self.belote_points, pending, order)

    def to_dict(self, names: Sequence[str] | None = None) -> dict[str, Any]:
        names = names or self.names
        return {
            "taker": names[self.taker],
            "dealer": names[self.dealer],
            "cards": dict(zip(names, self.cards, strict=True)),
            "declarations": dict(zip(names, self.declarations, strict=True)),
            "belote": None if self.belote is None else names[self.belote],
            "capot": self.capot,
        }

    @classmethod
    def from_dict(cls, data: object, names: tuple[str, ...] = THREE) -> ThreeEntry:
        """A three-handed entry from JSON: players as ``"N"``, ``"E"``, ``"S"``; card points by player.

        >>> ThreeEntry.from_dict({"taker": "E", "dealer": "N", "cards": {"N": 30, "E": 70, "S": 25}})
        ThreeEntry(taker=1, dealer=0, cards=(30, 70, 25), declarations=(0, 0, 0), belote=None, capot=None)
        """
        d = _check_keys(data, ("taker", "dealer", "cards", "declarations", "belote", "capot"), "a deal")
        if d.get("taker") is None:
            raise EntryError(f"say who took: {_or_list(names)}", "takers-missing")
        taker = side_index(d["taker"], "the taker", names)
        if d.get("dealer") is None:
            raise EntryError(f"say who dealt: {_or_list(names)}", "dealer-missing")
        dealer = side_index(d["dealer"], "the dealer", names)
        if d.get("cards") is None:
            raise EntryError("the players' card points are missing", "cards-missing")
        cards = _by_team(d["cards"], "card points", "cards", names)
        if any(c is None or c == "" for c in cards):
            raise EntryError("each player's card points are needed (0 for none)", "cards-missing")
        capot = d.get("capot")
        return cls(
            taker=taker,
            dealer=dealer,
            cards=cards,  # type: ignore[arg-type]  # checked by the entry
            declarations=_declarations(d.get("declarations"), names),  # type: ignore[arg-type]
            belote=_optional_side(d.get("belote"), "belote", names),
            capot=None if capot == "" else capot,
            names=names,
        )


AnyEntry = Entry | ContractEntry | ThreeEntry
EntryType = type[Entry] | type[ContractEntry] | type[ThreeEntry]
#: Each kind of entry, by what a game's sheet enters of a deal (``Variant.sheet_entry``): the takers
#: and one side's card points, the contract and the bidders' card points, or each player's.
ENTRY_TYPES: dict[str, EntryType] = {
    "sides": Entry,
    "contract": ContractEntry,
    "players": ThreeEntry,
}


def entry_type_of(variant: str) -> EntryType:
    """The entry of a game's sheet: chosen by the game's ``sheet_entry``.

    >>> entry_type_of("coinche").__name__
    'ContractEntry'
    """
    return ENTRY_TYPES[find_variant(variant).sheet_entry]


# ---------------------------------------------------------------------------------- the sheet
def sheet_rule_keys(variant: str) -> tuple[str, ...]:
    """The rule options a sheet of this game holds, in the order forms show them: those of
    ``SHEET_GROUPS`` that the game reads, and those its entry reads.

    >>> sheet_rule_keys("three-handed")
    ('variant', 'target', 'deals', 'declarations', 'rounding', 'round_five', 'belote_counts', 'litige', 'direction')
    """
    entry = entry_type_of(variant)
    return tuple(
        spec.name
        for spec in OPTIONS
        if spec.read_by(variant) and (spec.group in SHEET_GROUPS or spec.name in entry.rule_options)
    )


#: Every rule option a score sheet may hold, in the order forms show them.
SHEET_RULES = tuple(spec.name for spec in OPTIONS if any(spec.name in sheet_rule_keys(g) for g in VARIANTS))


def _check_names(names: object, teams: tuple[str, ...]) -> tuple[str, ...]:
    out = []
    for team, name in zip(teams, _by_team(names, "the team names", "names", teams), strict=True):
        if name is None:
            name = team
        if not isinstance(name, str):
            raise SheetError(f"a team name is text, not {name!r}", "names")
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME or not name.isprintable():
            raise SheetError(f"a team name has 1 to {MAX_NAME} printable characters, not {name!r}", "names")
        out.append(name)
    folded = [n.casefold() for n in out]
    for i, n in enumerate(folded):
        if n in folded[:i]:
            what = "two teams" if len(out) == 2 else "players"
            raise SheetError(f"the {what} need different names, not {out[i]!r} twice", "names")
    return tuple(out)


def _check_start(start: object, rules: Rules) -> tuple[int, ...]:
    score = []
    for points in _by_team(start, "the starting score", "start", rules.team_names):
        points = 0 if points is None else points
        if not _whole(points) or not 0 <= points <= MAX_START:
            raise SheetError(f"a starting score is a whole number from 0 to {MAX_START}, not {points!r}", "start")
        score.append(points)
    if rules.deals is None and max(score) >= rules.target:
        shown = "-".join(map(str, score))
        raise SheetError(f"the starting score {shown} is already at the line of {rules.target}", "start-over")
    return tuple(score)


def _variant(data: Mapping[str, Any]) -> str:
    spec = OPTION_SPECS["variant"]
    variant = data.get("variant", spec.default)
    problem = spec.problem(variant)
    if problem is not None:
        raise SheetError(problem, "rules")
    return str(variant)


def _sheet_rules(data: Mapping[str, Any]) -> Rules:
    variant = _variant(data)
    keys = sheet_rule_keys(variant)
    for key in data:
        if key in SHEET_RULES and key not in keys:
            raise SheetError(
                f"rule option {key!r} is not one of a {variant} score sheet; its options are: {', '.join(keys)}",
                "rules",
            )
    try:
        return Rules.from_dict({k: data[k] for k in keys if k in data})
    except RulesError as e:
        raise SheetError(str(e), "rules") from None


class Sheet:
    """A match kept by hand: the rules, the names, a starting score and the deals entered.

    ``scores[i]`` is the running total after entry ``i``; ``results[i]`` its ``DealResult``. Every
    score is a tuple with one value per side (or per player at three and two hands), in the order
    of ``rules.team_names``.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        names: Sequence[str] | Mapping[str, str] | None = None,
        start: Sequence[int] | Mapping[str, int] | None = None,
        entries: Iterable[AnyEntry] = (),
    ) -> None:
        self.rules = rules or Rules()
        self.teams = self.rules.team_names
        self.names = _check_names(self.teams if names is None else names, self.teams)
        self.start = _check_start((0,) * len(self.teams) if start is None else start, self.rules)
        self.entries: list[AnyEntry] = []
        self.results: list[DealResult] = []
        self.scores: list[tuple[int, ...]] = []
        for entry in entries:
            self.add(entry)

    @property
    def variant(self) -> str:
        return self.rules.variant

    @property
    def score(self) -> tuple[int, ...]:
        return self.scores[-1] if self.scores else self.start

    @property
    def pending(self) -> int:
        """Points an equal deal (litige) left waiting for the winner of the next deal."""
        return self.results[-1].pending if self.results else 0

    @property
    def _end(self) -> tuple[bool, int | None]:
        return match_winner(self.rules, self.score, len(self.entries))

    @property
    def over(self) -> bool:
        return self._end[0]

    @property
    def winner(self) -> int | None:
        """The side (or player) that won the match; None while it goes on, or for a tie."""
        return self._end[1]

    @property
    def entry_type(self) -> EntryType:
        """The entry of this sheet's game: ``Entry``, ``ContractEntry`` or ``ThreeEntry``."""
        return entry_type_of(self.variant)

    def entry_from_dict(self, data: object) -> AnyEntry:
        """An entry of this sheet's game from JSON, its sides or players named by ``rules.team_names``."""
        return self.entry_type.from_dict(data, self.teams)

    def add(self, entry: AnyEntry) -> DealResult:
        """Score one deal and add it to the running total."""
        over, winner = self._end
        if over:
            ending = "a tie" if winner is None else f"{self.names[winner]} won"
            shown = " to ".join(map(str, sorted(self.score, reverse=True)))
            raise MatchOverError(f"no entry after the match is over: {ending} {shown}")
        if len(self.entries) >= MAX_ENTRIES:
            raise SheetError(f"a sheet holds at most {MAX_ENTRIES} deals", "full")
        kind = self.entry_type
        if not isinstance(entry, kind):
            raise EntryError(f"a deal of a {self.variant} sheet is a {kind.__name__}, not a {type(entry).__name__}")
        if any(entry.declarations):
            if not self.rules.game.has_declarations:
                hands = WORDS[self.rules.players]
                raise EntryError(f"nothing is declared at {hands} hands: only belote counts", "sans")
            if not self.rules.declarations:
                raise EntryError(
                    "this match is played without declarations (sans annonces): only belote counts", "sans"
                )
        if isinstance(entry, ContractEntry):
            entry.check_rules(self.rules)
        result = entry.score(self.rules, self.pending)
        self.entries.append(entry)
        self.results.append(result)
        self.scores.append(tuple(s + p for s, p in zip(self.score, result.points, strict=True)))
        return result

    def undo(self) -> AnyEntry:
        """Remove the last entry; the totals and any points waiting are as they were before it.

        Each entry's result depends only on the entries before it, so dropping the last one leaves
        exactly what scoring the others afresh would give.
        """
        if not self.entries:
            raise NothingToUndo("nothing to undo: no deal has been entered")
        self.results.pop()
        self.scores.pop()
        return self.entries.pop()

    def rename(self, names: Sequence[str] | Mapping[str, str]) -> None:
        self.names = _check_names(names, self.teams)

    # ------------------------------------------------------------------ the store and the API
    def rules_dict(self) -> dict[str, Any]:
        return {k: getattr(self.rules, k) for k in sheet_rule_keys(self.variant)}

    def to_dict(self) -> dict[str, Any]:
        """What the store keeps: the inputs only; results are scored again on loading."""
        return {
            "format": FORMAT,
            "rules": self.rules_dict(),
            "names": list(self.names),
            "start": list(self.start),
            "entries": [e.to_dict(self.teams) for e in self.entries],
        }

    @classmethod
    def from_dict(cls, data: object) -> Sheet:
        d = _check_keys(data, ("format", "rules", "names", "start", "entries"), "a score sheet")
        if d.get("format") != FORMAT:
            raise SheetError(f"not a score sheet of format {FORMAT}: {d.get('format')!r}", "format")
        raw = d.get("rules", {})
        keys = sheet_rule_keys(_variant(raw)) if isinstance(raw, Mapping) else ()
        rules = _sheet_rules(_check_keys(raw, keys, "the rules of a score sheet"))
        entries = d.get("entries", [])
        if not isinstance(entries, list):
            raise SheetError("the entries of a score sheet are a list", "format")
        sheet = cls(rules, d.get("names"), d.get("start"))
        for e in entries:
            sheet.add(sheet.entry_from_dict(e))
        return sheet

    @classmethod
    def new(cls, settings: object) -> Sheet:
        """A sheet from what the host chose at launch.

        ``settings`` may give the game (``variant``: classic, coinche, three-handed, two-handed),
        ``target`` or ``deals``, ``names`` and ``start`` (by side or player, as ``{"NS": .., "EW":
        ..}`` or a list), and the rule options of that game's sheet (``sheet_rule_keys``): ``litige``,
        ``rounding``, ``round_five``, ``belote_counts``, ``declarations`` (false for sans annonces),
        at three hands ``direction``, in Coinche ``coinche_made``, ``coinche_failed``, ``surcoinche``,
        ``coinche_max_bid``, ``no_trump_all_trump`` and ``generale``.

        >>> Sheet.new({"target": 1000, "names": ["Alice & Cara", "Ben & Dev"]}).rules.target
        1000
        >>> Sheet.new({"variant": "three-handed", "names": ["Ann", "Bob", "Cy"]}).teams
        ('N', 'E', 'S')
        """
        d = _check_keys(settings, (*SHEET_RULES, "names", "start"), "the settings of a new sheet")
        return cls(_sheet_rules(d), d.get("names") or None, d.get("start") or None)

    def entry_json(self, i: int) -> dict[str, Any]:
        """Entry ``i`` with its result and the running total after it, for a front end."""
        entry, result, score = self.entries[i], self.results[i], self.scores[i]
        teams = self.teams
        out: dict[str, Any] = {"n": i + 1, **entry.to_dict(teams)}
        if isinstance(entry, Entry):
            out["cards"] = dict(zip(teams, entry.card_points, strict=True))
            out["takers_cards"] = entry.cards
        elif isinstance(entry, ContractEntry):
            out["cards"] = dict(zip(teams, entry.card_points, strict=True))
            out["bidder_cards"] = entry.cards
            out["contract"] = entry.name
            out["multiplier"] = entry.multiplier(self.rules)
        out.update(
            {
                "outcome": result.outcome,
                "points": dict(zip(teams, result.points, strict=True)),
                "pending": result.pending,
                "score": dict(zip(teams, score, strict=True)),
            }
        )
        if isinstance(entry, ThreeEntry) and result.capot is not None:
            out["capot_by"] = teams[result.capot]
        return out

    def to_json(self) -> dict[str, Any]:
        """The whole sheet for a front end: each entry with its result and the running total."""
        teams = self.teams

        def by_team(values: Sequence[int]) -> dict[str, int]:
            return dict(zip(teams, values, strict=True))

        over, winner = self._end
        return {
            "variant": self.variant,
            "teams": list(teams),
            "names": dict(zip(teams, self.names, strict=True)),
            "rules": self.rules_dict(),
            "start": by_team(self.start),
            "entries": [self.entry_json(i) for i in range(len(self.entries))],
            "score": by_team(self.score),
            "pending": self.pending,
            "deals": len(self.entries),
            "over": over,
            "winner": None if winner is None else teams[winner],
            "next_dealer": self.next_dealer(),
        }

    def next_dealer(self) -> str | None:
        """Where an entry says who dealt (three hands), the player after the last entry's dealer (a
        front end's first guess)."""
        if not self.entry_type.says_dealer:
            return None
        last = next((e for e in reversed(self.entries) if isinstance(e, ThreeEntry)), None)
        if last is None:
            return self.teams[0]
        return self.teams[self.rules.game.order(last.dealer, self.rules.step)[0]]
