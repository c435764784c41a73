"""Bots against bots on duplicate deals, with a confidence interval on the difference.

Duplicate play takes the luck of the cards out of a comparison. Match ``j`` (seed
``base_seed * 100003 + j``, first dealer ``j % 4``) is played at two tables: at table 1 team A
sits N/S and team B E/W; at table 2 they swap. A match derives each deal's deck from its seed and
the deal's number, so deal ``k`` of match ``j`` is the same deck with the same dealer at both
tables: the two form a *pair*, and the pair's difference
``((A - B at table 1) + (A - B at table 2)) / 2`` is what each team made of the same cards. A pair
exists only while both tables' matches last; the deals of the longer match past the end of the
shorter are counted as unpaired and left out of the difference.

Every seat has its own bot, seeded from the match seed and the seat (never from the team), so two
copies of one deterministic bot play both tables alike and differ by exactly zero.

Thrown-in deals (four passes twice) are deals like any other here: they use up a deck and take
part in the pairs (the other table may have played that deck).

>>> r = run_arena("random", "random", deals=10, seed=3, jobs=1)
>>> r.mean, r.deals_won[0] == r.deals_won[1], r.table_deals[0] >= 10
(0.0, True, True)
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Generator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from belote.bots.base import Bot, bot_names, make_bot
from belote.game import SEATS, Match
from belote.rules import Rules, find_rules

#: Matches are seeded ``base_seed * SEED_STRIDE + j``: a prime, so runs of different seeds do not share matches.
SEED_STRIDE = 100003
#: A match that has not ended after this many deals (say, bots that always pass) is an error.
MAX_DEALS_PER_MATCH = 1000
#: Deals per match (at each table) assumed before any match has finished, to plan parallel work.
_PRIOR_DEALS_PER_MATCH = 6.0


class ArenaError(ValueError):
    """An arena that cannot be run: a bot that does not exist or refuses its options, a match without end."""


class UnknownBot(ArenaError):
    pass


@dataclass(frozen=True)
class Team:
    """A bot by name and the options given to its constructor (``Team("search", {"think": 4.0})``)."""

    bot: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """``search`` or ``search think=4.0``."""
        return " ".join([self.bot, *(f"{k}={v}" for k, v in sorted(self.options.items()))])

    def make(self, seed: int) -> Bot:
        return make_bot(self.bot, seed=seed, **self.options)

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "options": dict(self.options)}


def as_team(team: Team | str) -> Team:
    return Team(team) if isinstance(team, str) else team


def match_seed(base_seed: int, j: int) -> int:
    return base_seed * SEED_STRIDE + j


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the match of seed ``seed``: the same at both tables."""
    return seed * 4 + seat


# ----------------------------------------------------------------------------- one table
@dataclass(frozen=True)
class DealSummary:
    """What the arena keeps of one deal."""

    dealer: int
    deck: tuple[int, ...]
    points: tuple[int, int]  # by side: 0 = N/S, 1 = E/W
    winner: int | None  # the side that won the deal; None for a litige or a deal thrown in
    outcome: str


@dataclass(frozen=True)
class TableResult:
    """One match at one table. ``table`` 1 has team A at N/S, table 2 has team A at E/W."""

    match: int
    table: int
    seed: int
    deals: tuple[DealSummary, ...]
    winner: int | None  # side
    #: decision times in seconds, by side, then (bids, cards)
    times: tuple[tuple[tuple[float, ...], tuple[float, ...]], tuple[tuple[float, ...], tuple[float, ...]]]


def play_match(
    rules: Rules,
    seed: int,
    first_dealer: int,
    ns: Team,
    ew: Team,
    times: list[tuple[list[float], list[float]]] | None = None,
) -> Match:
    """One match to its end, N/S played by ``ns`` and E/W by ``ew``, one bot per seat.

    ``times``, if given, receives each side's decision times in seconds: ``times[side] = (bids, cards)``.
    """
    match = Match(rules, seed, first_dealer)
    bots = [(ns if seat % 2 == 0 else ew).make(bot_seed(seed, seat)) for seat in range(rules.players)]
    clock = time.perf_counter
    while not match.over:
        if len(match.deals) > MAX_DEALS_PER_MATCH:
            raise ArenaError(f"the match of seed {seed} has not ended after {MAX_DEALS_PER_MATCH} deals")
        seat = match.to_move
        assert seat is not None
        view = match.view(seat)
        try:
            start = clock()
            action = bots[seat].act(view)
            elapsed = clock() - start
            match.apply(action, seat=seat)
        except Exception as e:
            # Which bot, where: the traceback may come back from a worker process.
            team = ns if seat % 2 == 0 else ew
            e.add_note(f"arena: bot {team.label} at {SEATS[seat]}, match seed {seed}, deal {len(match.deals)}")
            raise
        if times is not None:
            times[seat % 2][0 if view.phase == "bidding" else 1].append(elapsed)
    return match


def table_teams(team_a: Team, team_b: Team, table: int) -> tuple[Team, Team]:
    """(N/S, E/W) at ``table``: A at N/S at table 1, at E/W at table 2."""
    return (team_a, team_b) if table == 1 else (team_b, team_a)


def play_table(team_a: Team, team_b: Team, rules: Rules, base_seed: int, j: int, table: int) -> TableResult:
    """Match ``j`` of the run of ``base_seed`` at ``table`` (1 or 2)."""
    seed = match_seed(base_seed, j)
    ns, ew = table_teams(team_a, team_b, table)
    times: list[tuple[list[float], list[float]]] = [([], []), ([], [])]
    match = play_match(rules, seed, j % rules.players, ns, ew, times)
    deals = []
    for deal in match.deals:
        r = deal.result
        assert r is not None
        deals.append(DealSummary(deal.dealer, tuple(deal.deck), r.points, r.winner, r.outcome))
    (b0, c0), (b1, c1) = times
    return TableResult(j, table, seed, tuple(deals), match.winner, ((tuple(b0), tuple(c0)), (tuple(b1), tuple(c1))))


def _play_task(args: tuple[Team, Team, Rules, int, int, int]) -> TableResult:
    return play_table(*args)


# ----------------------------------------------------------------------------- figures
@dataclass(frozen=True)
class TimeStats:
    """Decision times of one bot, in seconds."""

    count: int
    median: float
    p95: float
    max: float

    @classmethod
    def of(cls, times: Sequence[float]) -> TimeStats:
        if not times:
            return cls(0, 0.0, 0.0, 0.0)
        s = sorted(times)
        return cls(len(s), statistics.median(s), s[max(0, math.ceil(0.95 * len(s)) - 1)], s[-1])

    def to_json(self) -> dict[str, Any]:
        ms = 1000.0
        return {
            "count": self.count,
            "median_ms": round(self.median * ms, 4),
            "p95_ms": round(self.p95 * ms, 4),
            "max_ms": round(self.max * ms, 4),
        }


@dataclass(frozen=True)
class BotTimes:
    bids: TimeStats
    cards: TimeStats
    all: TimeStats

    @classmethod
    def of(cls, bids: Sequence[float], cards: Sequence[float]) -> BotTimes:
        return cls(TimeStats.of(bids), TimeStats.of(cards), TimeStats.of([*bids, *cards]))

    def to_json(self) -> dict[str, Any]:
        return {"bids": self.bids.to_json(), "cards": self.cards.to_json(), "all": self.all.to_json()}


@dataclass(frozen=True)
class ArenaResult:
    """The figures of a duplicate run. Pairs are (A, B) in every tuple below.

    Everything but the decision times is a function of the bots, the seed, the rules and
    ``deals``: two runs compare equal whatever their number of jobs (``times`` is left out of ``==``).
    """

    team_a: Team
    team_b: Team
    rules: Rules
    seed: int
    deals_requested: int
    matches: int  # played at each table
    table_deals: tuple[int, int]  # deals played at table 1 and at table 2
    thrown_in: int  # deals thrown in, both tables
    pairs: int
    unpaired: int  # deals of one table without the same deal at the other
    mean: float  # A's points minus B's per deal, over the pairs
    sd: float  # of the paired differences
    ci95: tuple[float, float]
    deals_won: tuple[int, int, int]  # A, B, tied (each table's deals counted: a litige or throw-in is a tie)
    matches_won: tuple[int, int, int]  # A, B, tied (each table's match counted)
    points_per_deal: tuple[float, float]  # over every deal each team played, both tables
    times: tuple[BotTimes, BotTimes] = field(compare=False)

    def to_json(self) -> dict[str, Any]:
        def ab(pair: tuple[Any, ...]) -> dict[str, Any]:
            return dict(zip(("A", "B", "tied"), pair, strict=False))

        return {
            "team_a": self.team_a.to_json(),
            "team_b": self.team_b.to_json(),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "deals_requested": self.deals_requested,
            "matches": self.matches,
            "deals": {"table1": self.table_deals[0], "table2": self.table_deals[1]},
            "thrown_in": self.thrown_in,
            "pairs": self.pairs,
            "unpaired": self.unpaired,
            "difference": {"mean": self.mean, "sd": self.sd, "ci95": list(self.ci95)},
            "deals_won": ab(self.deals_won),
            "matches_won": ab(self.matches_won),
            "points_per_deal": ab(self.points_per_deal),
            "decision_time": {"A": self.times[0].to_json(), "B": self.times[1].to_json()},
        }

    def summary(self, a: str | None = None, b: str | None = None) -> str:
        """``heuristic vs random: +35.2 points/deal (95% CI 31.0 .. 39.4) over 1000 pairs``."""
        lo, hi = self.ci95
        return (
            f"{a or self.team_a.label} vs {b or self.team_b.label}: {self.mean:+.1f} points/deal "
            f"(95% CI {lo:.1f} .. {hi:.1f}) over {self.pairs} pairs"
        )

    def report(self) -> str:
        """The figures for people."""
        a, b = self.team_a.label, self.team_b.label
        rules = ", ".join(f"{k}={v}" for k, v in self.rules.changes().items()) or "classic"
        lo, hi = self.ci95
        lines = [
            f"A = {a}: N/S at table 1, E/W at table 2",
            f"B = {b}: E/W at table 1, N/S at table 2",
            f"rules: {rules}; seed {self.seed}",
            f"matches: {self.matches} at each table; deals: {self.table_deals[0]} at table 1, "
            f"{self.table_deals[1]} at table 2 ({self.thrown_in} thrown in)",
            f"A - B: {self.mean:+.1f} points/deal (95% CI {lo:.1f} .. {hi:.1f}, sd {self.sd:.1f}) "
            f"over {self.pairs} pairs ({self.unpaired} deals unpaired)",
            f"points per deal: A {self.points_per_deal[0]:.1f}, B {self.points_per_deal[1]:.1f}",
            f"deals won: A {self.deals_won[0]}, B {self.deals_won[1]}, tied {self.deals_won[2]}",
            f"matches won: A {self.matches_won[0]}, B {self.matches_won[1]}, tied {self.matches_won[2]}",
            "decision time (ms)      count    median       p95       max",
        ]
        for team, label, times in (("A", a, self.times[0]), ("B", b, self.times[1])):
            for kind, t in (("bids", times.bids), ("cards", times.cards)):
                lines.append(
                    f"  {team} {kind:<5} {label[:12]:<12} {t.count:>7} {t.median * 1e3:>9.3f} "
                    f"{t.p95 * 1e3:>9.3f} {t.max * 1e3:>9.3f}"
                )
        return "\n".join(lines)


class _Tally:
    """The figures, added match by match in the order of ``j`` (so any number of jobs gives the same)."""

    def __init__(self) -> None:
        self.matches = 0
        self.table_deals = [0, 0]
        self.thrown_in = 0
        self.diffs2: list[int] = []  # twice each pair's difference: whole numbers, summed exactly
        self.unpaired = 0
        self.deals_won = [0, 0, 0]
        self.matches_won = [0, 0, 0]
        self.points = [0, 0]
        self.times: list[tuple[list[float], list[float]]] = [([], []), ([], [])]

    def add(self, t1: TableResult, t2: TableResult) -> None:
        self.matches += 1
        for t in (t1, t2):
            a_side = 0 if t.table == 1 else 1  # the side team A sits
            self.table_deals[t.table - 1] += len(t.deals)
            for d in t.deals:
                self.thrown_in += d.outcome == "thrown-in"
                self.deals_won[2 if d.winner is None else 0 if d.winner == a_side else 1] += 1
                self.points[0] += d.points[a_side]
                self.points[1] += d.points[1 - a_side]
            self.matches_won[2 if t.winner is None else 0 if t.winner == a_side else 1] += 1
            for side in (0, 1):
                team = 0 if side == a_side else 1
                self.times[team][0].extend(t.times[side][0])
                self.times[team][1].extend(t.times[side][1])
        for d1, d2 in zip(t1.deals, t2.deals, strict=False):
            if d1.deck != d2.deck or d1.dealer != d2.dealer:  # pragma: no cover - Match derives decks from the seed
                raise ArenaError(f"match {t1.match}: the two tables did not get the same deck")
            self.diffs2.append((d1.points[0] - d1.points[1]) + (d2.points[1] - d2.points[0]))
        self.unpaired += abs(len(t1.deals) - len(t2.deals))

    def done(self, deals: int) -> bool:
        """Enough duplicate pairs: ``deals`` deals played at both tables with the same deck."""
        return len(self.diffs2) >= deals

    def result(self, team_a: Team, team_b: Team, rules: Rules, seed: int, deals: int) -> ArenaResult:
        n = len(self.diffs2)
        mean = sum(self.diffs2) / (2 * n) if n else 0.0
        sd = statistics.stdev(d / 2 for d in self.diffs2) if n >= 2 else 0.0
        half = 1.96 * sd / math.sqrt(n) if n else 0.0
        total = sum(self.table_deals)
        return ArenaResult(
            team_a=team_a,
            team_b=team_b,
            rules=rules,
            seed=seed,
            deals_requested=deals,
            matches=self.matches,
            table_deals=(self.table_deals[0], self.table_deals[1]),
            thrown_in=self.thrown_in,
            pairs=n,
            unpaired=self.unpaired,
            mean=mean,
            sd=sd,
            ci95=(mean - half, mean + half),
            deals_won=(self.deals_won[0], self.deals_won[1], self.deals_won[2]),
            matches_won=(self.matches_won[0], self.matches_won[1], self.matches_won[2]),
            points_per_deal=(self.points[0] / total if total else 0.0, self.points[1] / total if total else 0.0),
            times=(BotTimes.of(*self.times[0]), BotTimes.of(*self.times[1])),
        )


# ----------------------------------------------------------------------------- running
_Tables = Generator[tuple[TableResult, TableResult], None, None]


def check_team(team: Team) -> None:
    """Raise ``UnknownBot`` or ``ArenaError`` now rather than in a worker process."""
    names = bot_names()
    if team.bot not in names:
        raise UnknownBot(f"no bot named {team.bot!r}; the bots are: {', '.join(names)}")
    try:
        team.make(0)
    except TypeError as e:
        raise ArenaError(f"bot {team.bot!r} does not take the options {dict(team.options)!r}: {e}") from None


def _tables_inline(team_a: Team, team_b: Team, rules: Rules, seed: int) -> _Tables:
    j = 0
    while True:
        yield (play_table(team_a, team_b, rules, seed, j, 1), play_table(team_a, team_b, rules, seed, j, 2))
        j += 1


def _tables_parallel(team_a: Team, team_b: Team, rules: Rules, seed: int, deals: int, jobs: int) -> _Tables:
    """The matches in the order of ``j``, played ``jobs`` tables at a time.

    Work is planned from the deals a match has lasted so far so that few tables are played past the
    point where the run stops; whatever is played past it is thrown away, so the result is the same.
    """
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        running: dict[Future[TableResult], tuple[int, int]] = {}
        done: dict[tuple[int, int], TableResult] = {}
        next_task = 0  # task i is match i // 2 at table i % 2 + 1
        next_match = 0  # the next match to hand over
        finished_deals = finished_tables = 0
        try:
            while True:
                while (next_match, 1) in done and (next_match, 2) in done:
                    yield done.pop((next_match, 1)), done.pop((next_match, 2))
                    next_match += 1
                per_table = finished_deals / finished_tables if finished_tables else _PRIOR_DEALS_PER_MATCH
                while len(running) < jobs and (not running or next_task / 2 * per_table < deals):
                    j, table = divmod(next_task, 2)
                    future = pool.submit(_play_task, (team_a, team_b, rules, seed, j, table + 1))
                    running[future] = (j, table + 1)
                    next_task += 1
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    key = running.pop(future)
                    result = future.result()
                    done[key] = result
                    finished_deals += len(result.deals)
                    finished_tables += 1
        finally:
            for future in running:
                future.cancel()


def run_arena(
    team_a: Team | str,
    team_b: Team | str,
    deals: int = 1000,
    seed: int = 1,
    rules: Rules | str | None = None,
    jobs: int | None = None,
) -> ArenaResult:
    """Play duplicate matches until each table has had at least ``deals`` deals; the figures.

    ``rules``: a ``Rules`` or the name of a preset (default: classic). ``jobs``: processes to run
    tables in (default: every core; 1 runs here, in this process). The figures do not depend on it.
    """
    a, b = as_team(team_a), as_team(team_b)
    if deals < 1:
        raise ArenaError(f"deals must be at least 1, not {deals}")
    r = find_rules(rules) if isinstance(rules, str) else rules or Rules()
    jobs = jobs if jobs is not None else os.cpu_count() or 1
    if jobs < 1:
        raise ArenaError(f"jobs must be at least 1, not {jobs}")
    check_team(a)
    check_team(b)
    tally = _Tally()
    tables = _tables_inline(a, b, r, seed) if jobs == 1 else _tables_parallel(a, b, r, seed, deals, jobs)
    try:
        for t1, t2 in tables:
            tally.add(t1, t2)
            if tally.done(deals):
                break
    finally:
        tables.close()  # the pool, if any, is shut down here
    return tally.result(a, b, r, seed, deals)


__all__ = [
    "ArenaError",
    "ArenaResult",
    "BotTimes",
    "DealSummary",
    "TableResult",
    "Team",
    "TimeStats",
    "UnknownBot",
    "match_seed",
    "play_match",
    "play_table",
    "run_arena",
    "table_teams",
]
