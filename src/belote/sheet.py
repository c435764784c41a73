"""The score sheet: deals played with real cards, entered by hand and scored by the engine.

A sheet holds the rules of the match (its line or number of deals, the litige option, rounding),
the names of the two sides, an optional starting score, and one entry per deal: who took, the
takers' card points (the defenders have the rest of 162), the declarations that count, belote and
capot. Each entry is scored by ``belote.scoring.score_deal``, the same function the table uses, so
the sheet and the engine can never disagree on a deal.

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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from belote.rules import Rules, RulesError
from belote.scoring import DEAL_POINTS, SIDES, DealResult, match_winner, score_deal

FORMAT = "belote-sheet/1"
#: Far more deals than any match plays; it only bounds what one stored sheet can grow to.
MAX_ENTRIES = 1000
#: More than any side can declare in one deal (four jacks and four nines in one hand is 350).
MAX_DECLARATIONS = 1000
MAX_START = 100_000
MAX_NAME = 40
TRICKS = 8
#: The rule options a score sheet reads; the others (direction, undertrump...) only matter at a table.
SHEET_RULES = ("target", "deals", "litige", "rounding", "declarations")


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


def side_index(value: object, what: str) -> int:
    """``"NS"`` or 0 is side 0, ``"EW"`` or 1 is side 1.

    >>> side_index("ew", "the takers")
    1
    """
    if isinstance(value, str) and value.upper() in SIDES:
        return SIDES.index(value.upper())
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return value
    raise EntryError(f"{what} must be NS or EW, not {value!r}", "side")


def _optional_side(value: object, what: str) -> int | None:
    return None if value is None or value == "" else side_index(value, what)


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _pair(value: object, what: str, code: str) -> tuple[object, object]:
    """Two values by side, from ``{"NS": a, "EW": b}`` or ``[a, b]``."""
    if isinstance(value, Mapping):
        unknown = set(value) - set(SIDES)
        if unknown:
            raise SheetError(f"{what} are given by side, NS and EW, not {sorted(map(str, unknown))}", code)
        return value.get("NS"), value.get("EW")
    if isinstance(value, list | tuple) and len(value) == 2:
        return value[0], value[1]
    raise SheetError(f"{what} are two values, one for NS and one for EW", code)


def _check_keys(data: object, allowed: Sequence[str], what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise SheetError(f"{what} must be a JSON object", "format")
    unknown = [k for k in data if k not in allowed]
    if unknown:
        raise SheetError(f"unknown field {unknown[0]!r} in {what}; the fields are: {', '.join(allowed)}", "format")
    return data


@dataclass(frozen=True, slots=True)
class Entry:
    """One deal as the table counted it. Sides are 0 (NS) and 1 (EW).

    ``cards`` is the takers' card points, last trick included; the defenders have the rest of 162.
    ``declarations`` is the points of the declarations that count, by side: only the side holding
    the best declaration scores, so at most one of the two is not 0. ``belote`` and ``capot`` are the
    side that had them, or None. A capot gives its side every card point: 162 to 0.
    """

    takers: int
    cards: int
    declarations: tuple[int, int] = (0, 0)
    belote: int | None = None
    capot: int | None = None

    def __post_init__(self) -> None:
        if not _whole(self.takers) or self.takers not in (0, 1):
            raise EntryError(f"the takers must be NS or EW (side 0 or 1), not {self.takers!r}", "side")
        if not _whole(self.cards) or not 0 <= self.cards <= DEAL_POINTS:
            raise EntryError(f"card points must be 0 to {DEAL_POINTS}, not {self.cards!r}", "cards")
        for side, points in zip(SIDES, self.declarations, strict=True):
            if not _whole(points) or not 0 <= points <= MAX_DECLARATIONS:
                raise EntryError(
                    f"declarations must be 0 to {MAX_DECLARATIONS} points, not {points!r} for {side}", "declarations"
                )
            if points % 10:
                raise EntryError(
                    f"declarations are multiples of 10 (tierce 20, quarte 50, quinte 100...), not {points} for {side}",
                    "declarations",
                )
        if self.declarations[0] and self.declarations[1]:
            raise EntryError(
                "only the side with the best declaration scores its declarations: "
                f"NS {self.declarations[0]} and EW {self.declarations[1]} cannot both count",
                "declarations-both",
            )
        for name in ("belote", "capot"):
            value = getattr(self, name)
            if value is not None and (not _whole(value) or value not in (0, 1)):
                raise EntryError(f"{name} goes to NS or EW (side 0 or 1) or nobody, not {value!r}", "side")
        if self.capot is not None and self.cards != self.capot_cards:
            raise EntryError(
                f"a capot by {SIDES[self.capot]} gives them every card point: the takers' card points are "
                f"{self.capot_cards}, not {self.cards}",
                "capot-cards",
            )

    @property
    def capot_cards(self) -> int:
        """The takers' card points that a capot implies (only meaningful with one)."""
        return DEAL_POINTS if self.capot == self.takers else 0

    @property
    def card_points(self) -> tuple[int, int]:
        """Card points by side: the defenders have the rest of 162."""
        other = DEAL_POINTS - self.cards
        return (self.cards, other) if self.takers == 0 else (other, self.cards)

    @property
    def tricks(self) -> tuple[int, int]:
        """Tricks by side, as ``score_deal`` reads them.

        ``score_deal`` sees a capot only in a side with no trick. Without one, each side took at
        least one trick, and how many more changes nothing in the score.
        """
        if self.capot is None:
            return (TRICKS // 2, TRICKS // 2)
        return (TRICKS, 0) if self.capot == 0 else (0, TRICKS)

    @property
    def belote_points(self) -> tuple[int, int]:
        if self.belote is None:
            return (0, 0)
        return (20, 0) if self.belote == 0 else (0, 20)

    def to_dict(self) -> dict[str, Any]:
        return {
            "takers": SIDES[self.takers],
            "cards": self.cards,
            "declarations": dict(zip(SIDES, self.declarations, strict=True)),
            "belote": None if self.belote is None else SIDES[self.belote],
            "capot": None if self.capot is None else SIDES[self.capot],
        }

    @classmethod
    def from_dict(cls, data: object) -> Entry:
        """An entry from JSON: sides as ``"NS"`` / ``"EW"``; ``cards`` may be left out with a capot.

        >>> Entry.from_dict({"takers": "EW", "capot": "EW"})
        Entry(takers=1, cards=162, declarations=(0, 0), belote=None, capot=1)
        """
        d = _check_keys(data, ("takers", "cards", "declarations", "belote", "capot"), "a deal")
        if d.get("takers") is None:
            raise EntryError("say who took: NS or EW", "takers-missing")
        takers = side_index(d["takers"], "the takers")
        capot = _optional_side(d.get("capot"), "capot")
        cards = d.get("cards")
        if cards is None or cards == "":
            if capot is None:
                raise EntryError("the takers' card points are missing", "cards-missing")
            cards = DEAL_POINTS if capot == takers else 0
        declarations = d.get("declarations")
        ns, ew = (0, 0) if declarations is None else _pair(declarations, "declarations", "declarations")
        # JSON may hold anything here; __post_init__ checks each value and names what is wrong.
        return cls(
            takers=takers,
            cards=cards,
            declarations=(0 if ns is None else ns, 0 if ew is None else ew),  # type: ignore[arg-type]
            belote=_optional_side(d.get("belote"), "belote"),
            capot=capot,
        )


def _check_names(names: object) -> tuple[str, str]:
    first, second = _pair(names, "the team names", "names")
    out = []
    for side, name in zip(SIDES, (first, second), strict=True):
        if name is None:
            name = side
        if not isinstance(name, str):
            raise SheetError(f"a team name is text, not {name!r}", "names")
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME or not name.isprintable():
            raise SheetError(f"a team name has 1 to {MAX_NAME} printable characters, not {name!r}", "names")
        out.append(name)
    if out[0].casefold() == out[1].casefold():
        raise SheetError(f"the two teams need different names, not {out[0]!r} twice", "names")
    return out[0], out[1]


def _check_start(start: object, rules: Rules) -> tuple[int, int]:
    score = []
    for points in _pair(start, "the starting score", "start"):
        points = 0 if points is None else points
        if not _whole(points) or not 0 <= points <= MAX_START:
            raise SheetError(f"a starting score is a whole number from 0 to {MAX_START}, not {points!r}", "start")
        score.append(points)
    ns, ew = score
    if rules.deals is None and max(ns, ew) >= rules.target:
        raise SheetError(f"the starting score {ns}-{ew} is already at the line of {rules.target}", "start-over")
    return ns, ew


def _sheet_rules(data: Mapping[str, Any]) -> Rules:
    try:
        return Rules.from_dict({k: data[k] for k in SHEET_RULES if k in data})
    except RulesError as e:
        raise SheetError(str(e), "rules") from None


class Sheet:
    """A match kept by hand: the rules, the two names, a starting score and the deals entered.

    ``scores[i]`` is the running total after entry ``i``; ``results[i]`` its ``DealResult``.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        names: Sequence[str] = SIDES,
        start: tuple[int, int] = (0, 0),
        entries: Iterable[Entry] = (),
    ) -> None:
        self.rules = rules or Rules()
        self.names = _check_names(names)
        self.start = _check_start(start, self.rules)
        self.entries: list[Entry] = []
        self.results: list[DealResult] = []
        self.scores: list[tuple[int, int]] = []
        for entry in entries:
            self.add(entry)

    @property
    def score(self) -> tuple[int, int]:
        return self.scores[-1] if self.scores else self.start

    @property
    def pending(self) -> int:
        """Points an 81-81 deal left waiting for the winner of the next deal."""
        return self.results[-1].pending if self.results else 0

    @property
    def _end(self) -> tuple[bool, int | None]:
        return match_winner(self.rules, self.score, len(self.entries))

    @property
    def over(self) -> bool:
        return self._end[0]

    @property
    def winner(self) -> int | None:
        """The side that won the match; None while it goes on, or for a tie."""
        return self._end[1]

    def add(self, entry: Entry) -> DealResult:
        """Score one deal and add it to the running total."""
        over, winner = self._end
        if over:
            ns, ew = self.score
            ending = "a tie" if winner is None else f"{self.names[winner]} won"
            raise MatchOverError(f"no entry after the match is over: {ending} {max(ns, ew)} to {min(ns, ew)}")
        if len(self.entries) >= MAX_ENTRIES:
            raise SheetError(f"a sheet holds at most {MAX_ENTRIES} deals", "full")
        if not self.rules.declarations and any(entry.declarations):
            raise EntryError("this match is played without declarations (sans annonces): only belote counts", "sans")
        result = score_deal(
            self.rules,
            entry.takers,
            entry.card_points,
            entry.tricks,
            entry.declarations,
            entry.belote_points,
            self.pending,
        )
        ns, ew = self.score
        self.entries.append(entry)
        self.results.append(result)
        self.scores.append((ns + result.points[0], ew + result.points[1]))
        return result

    def undo(self) -> Entry:
        """Remove the last entry; the totals and any points waiting are as they were before it.

        Each entry's result depends only on the entries before it, so dropping the last one leaves
        exactly what scoring the others afresh would give.
        """
        if not self.entries:
            raise NothingToUndo("nothing to undo: no deal has been entered")
        self.results.pop()
        self.scores.pop()
        return self.entries.pop()

    def rename(self, names: Sequence[str]) -> None:
        self.names = _check_names(names)

    # ------------------------------------------------------------------ the store and the API
    def to_dict(self) -> dict[str, Any]:
        """What the store keeps: the inputs only; results are scored again on loading."""
        return {
            "format": FORMAT,
            "rules": {k: getattr(self.rules, k) for k in SHEET_RULES},
            "names": list(self.names),
            "start": list(self.start),
            "entries": [e.to_dict() for e in self.entries],
        }

    @classmethod
    def from_dict(cls, data: object) -> Sheet:
        d = _check_keys(data, ("format", "rules", "names", "start", "entries"), "a score sheet")
        if d.get("format") != FORMAT:
            raise SheetError(f"not a score sheet of format {FORMAT}: {d.get('format')!r}", "format")
        rules = _check_keys(d.get("rules", {}), SHEET_RULES, "the rules of a score sheet")
        entries = d.get("entries", [])
        if not isinstance(entries, list):
            raise SheetError("the entries of a score sheet are a list", "format")
        return cls(
            _sheet_rules(rules),
            d.get("names", SIDES),
            d.get("start", (0, 0)),
            [Entry.from_dict(e) for e in entries],
        )

    @classmethod
    def new(cls, settings: object) -> Sheet:
        """A sheet from what the host chose at launch.

        ``settings`` may give ``target`` or ``deals``, ``names`` and ``start`` (each by side, as
        ``{"NS": .., "EW": ..}`` or a pair), and the rule options ``litige``, ``rounding`` and
        ``declarations`` (false for sans annonces).

        >>> Sheet.new({"target": 1000, "names": ["Alice & Cara", "Ben & Dev"]}).rules.target
        1000
        """
        d = _check_keys(settings, (*SHEET_RULES, "names", "start"), "the settings of a new sheet")
        return cls(_sheet_rules(d), d.get("names") or SIDES, d.get("start") or (0, 0))

    def to_json(self) -> dict[str, Any]:
        """The whole sheet for a front end: each entry with its result and the running total."""

        def by_side(pair: Sequence[int]) -> dict[str, int]:
            return dict(zip(SIDES, pair, strict=True))

        over, winner = self._end
        return {
            "names": dict(zip(SIDES, self.names, strict=True)),
            "rules": {k: getattr(self.rules, k) for k in SHEET_RULES},
            "start": by_side(self.start),
            "entries": [
                {
                    "n": i + 1,
                    **entry.to_dict(),
                    "cards": by_side(entry.card_points),
                    "takers_cards": entry.cards,
                    "outcome": result.outcome,
                    "points": by_side(result.points),
                    "pending": result.pending,
                    "score": by_side(score),
                }
                for i, (entry, result, score) in enumerate(zip(self.entries, self.results, self.scores, strict=True))
            ],
            "score": by_side(self.score),
            "pending": self.pending,
            "deals": len(self.entries),
            "over": over,
            "winner": None if winner is None else SIDES[winner],
        }
