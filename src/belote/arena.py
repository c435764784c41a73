"""Bots against bots on duplicate deals, with a confidence interval on the difference.

Duplicate play takes the luck of the cards out of a comparison. Match ``j`` (seed
``base_seed * 100003 + j``, first dealer ``j % players``) is played at several tables with the same
decks: a match derives each deal's deck from its seed and the deal's number, so deal ``k`` of match
``j`` is the same deck with the same dealer at every table. The tables seat the two bots so that
each sits in every seat and every role (``seatings``):

- four hands: two tables; at table 1 team A sits N/S and team B E/W, at table 2 they swap;
- two hands: two tables; A at N and B at E, then swapped;
- three hands (each for themselves, the taker against the other two): six tables; A alone at N, E
  or S against two copies of B, then B alone at each seat against two copies of A.

Deal ``k`` of match ``j`` played at every table is a *group* (a pair at four and two hands). Each
score a deal gives (a side's, or a player's at two and three hands) belongs to the bot in that
seat: a group's figure for a bot is its mean score per seat-deal over the group's tables, and the
difference A - B is the mean of the groups' differences, with a 95% interval from their spread
(as are each bot's own mean and interval). At four hands this is the classic pair difference
``((A - B at table 1) + (A - B at table 2)) / 2``. A group exists only while every table's match
lasts; the deals of a longer match past the end of the shortest are counted as unpaired and left
out of the difference.

Every seat has its own bot, seeded from the match seed and the seat (never from the team), so two
copies of one deterministic bot play every table alike and differ by exactly zero.

Thrown-in deals (four passes twice) are deals like any other here: they use up a deck and take
part in the groups (another table may have played that deck).

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

from belote.bot_protocol import ATTEMPTS, ExecBot, ProgramError, finished_view
from belote.bots import EXEC, Bot, bot_names, make_bot
from belote.game import SEATS, IllegalAction, Match
from belote.rules import Rules, find_rules
from belote.variants import DEFAULT_GAME

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
A, B = 0, 1


def seatings(players: int) -> tuple[tuple[int, ...], ...]:
    """For each table of a match, which team (``A`` 0 or ``B`` 1) sits at each seat.

    With an even number of players the teams take alternate seats and swap at the second table.
    With an odd number one team would hold more seats: A sits alone at each seat in turn against
    copies of B, then the other way round.
    """
    if players % 2:
        alone = [tuple(A if s == r else B for s in range(players)) for r in range(players)]
        return (*alone, *(tuple(1 - t for t in table) for table in alone))
    base = tuple(s % 2 for s in range(players))
    return (base, tuple(1 - t for t in base))


def score_owners(rules: Rules, seating: Sequence[int]) -> tuple[int, ...]:
    """The team each score of a deal belongs to at a table: a side's (four hands), a player's otherwise."""
    return tuple(seating[i] for i in range(rules.teams))


@dataclass(frozen=True)
class DealSummary:
    """What the arena keeps of one deal."""

    dealer: int
    deck: tuple[int, ...]
    points: tuple[int, ...]  # by score: the sides N/S and E/W, or each player at two and three hands
    winner: int | None  # the score that won the deal; None for a litige, a deal thrown in, a shared dedans
    outcome: str


@dataclass(frozen=True)
class TableResult:
    """One match at one table; ``seats`` gives the team (A 0, B 1) at each seat."""

    match: int
    table: int
    seed: int
    deals: tuple[DealSummary, ...]
    winner: int | None  # score index
    #: decision times in seconds, by team (A, B), then (bids, cards)
    times: tuple[tuple[tuple[float, ...], tuple[float, ...]], tuple[tuple[float, ...], tuple[float, ...]]]
    seats: tuple[int, ...] = (A, B, A, B)


def play_match(
    rules: Rules,
    seed: int,
    first_dealer: int,
    ns: Team,
    ew: Team,
    times: list[tuple[list[float], list[float]]] | None = None,
) -> Match:
    """One match to its end, N/S played by ``ns`` and E/W by ``ew``, one bot per seat (at two hands
    N is ``ns`` and E ``ew``; at three, N and S are ``ns``).

    ``times``, if given, receives each side's decision times in seconds: ``times[side] = (bids, cards)``.
    """
    return play_seated(rules, seed, first_dealer, [(ns, ew)[s % 2] for s in range(rules.players)], times)


def play_seated(
    rules: Rules,
    seed: int,
    first_dealer: int,
    teams: Sequence[Team],
    times: list[tuple[list[float], list[float]]] | None = None,
    groups: Sequence[int] | None = None,
) -> Match:
    """One match to its end with ``teams[seat]`` playing each seat.

    ``times``, if given, receives decision times in seconds by group: ``times[groups[seat]] = (bids,
    cards)`` (by default the group of a seat is ``seat % 2``).
    """
    match = Match(rules, seed, first_dealer)
    groups = groups if groups is not None else [s % 2 for s in range(rules.players)]
    bots: list[Bot] = []
    try:
        bots.extend(teams[seat].make(bot_seed(seed, seat)) for seat in range(rules.players))
        _play(match, bots, teams, times, groups)
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:
                close()
    return match


def _play(
    match: Match,
    bots: Sequence[Bot],
    teams: Sequence[Team],
    times: list[tuple[list[float], list[float]]] | None,
    groups: Sequence[int],
) -> None:
    """The match played to its end by ``bots``.

    A bot may listen (an outside program, ``belote.bot_protocol.ExecBot``): ``refused(error)`` is
    told why an answer was refused, and is asked again (``ATTEMPTS`` times at most);
    ``deal_over(view)`` gets its view of each finished deal, ``match_over(match)`` the end.
    """
    clock = time.perf_counter
    while not match.over:
        if len(match.deals) > MAX_DEALS_PER_MATCH:
            raise ArenaError(f"the match of seed {match.seed} has not ended after {MAX_DEALS_PER_MATCH} deals")
        seat = match.to_move
        assert seat is not None
        view = match.view(seat)
        deals = len(match.deals)
        bot = bots[seat]
        try:
            for attempt in range(1, ATTEMPTS + 1):
                try:
                    start = clock()
                    action = bot.act(view)  # a program's words that name no action are refused here
                    elapsed = clock() - start
                    match.apply(action, seat=seat)
                    break
                except IllegalAction as e:
                    refused = getattr(bot, "refused", None)
                    if refused is None:
                        raise
                    if attempt == ATTEMPTS:
                        raise ArenaError(f"{ATTEMPTS} answers in a row refused, the last: {e}") from e
                    refused(e)
        except Exception as e:
            # Which bot, where: the traceback may come back from a worker process.
            e.add_note(
                f"arena: bot {teams[seat].label} at {SEATS[seat]}, match seed {match.seed}, deal {len(match.deals)}"
            )
            raise
        if times is not None:
            times[groups[seat]][0 if view.phase == "bidding" else 1].append(elapsed)
        if len(match.deals) != deals or match.over:
            for s, b in enumerate(bots):
                deal_over = getattr(b, "deal_over", None)
                if deal_over is not None:
                    deal_over(finished_view(match, deals - 1, s))
    for b in bots:
        match_over = getattr(b, "match_over", None)
        if match_over is not None:
            match_over(match)


def table_teams(team_a: Team, team_b: Team, table: int) -> tuple[Team, Team]:
    """(N/S, E/W) at ``table`` of four hands: A at N/S at table 1, at E/W at table 2."""
    return (team_a, team_b) if table == 1 else (team_b, team_a)


def play_table(team_a: Team, team_b: Team, rules: Rules, base_seed: int, j: int, table: int) -> TableResult:
    """Match ``j`` of the run of ``base_seed`` at ``table`` (1 .. number of ``seatings``)."""
    seed = match_seed(base_seed, j)
    seating = seatings(rules.players)[table - 1]
    teams = [(team_a, team_b)[t] for t in seating]
    times: list[tuple[list[float], list[float]]] = [([], []), ([], [])]
    match = play_seated(rules, seed, j % rules.players, teams, times, seating)
    deals = []
    for deal in match.deals:
        r = deal.result
        assert r is not None
        deals.append(DealSummary(deal.dealer, tuple(deal.deck), tuple(r.points), r.winner, r.outcome))
    (b0, c0), (b1, c1) = times
    return TableResult(
        j, table, seed, tuple(deals), match.winner, ((tuple(b0), tuple(c0)), (tuple(b1), tuple(c1))), seating
    )


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
    table_deals: tuple[int, ...]  # deals played at each table
    thrown_in: int  # deals thrown in, every table
    pairs: int  # groups: the same deal played at every table (pairs at four and two hands)
    unpaired: int  # deals of a table without the same deal at every other
    mean: float  # A's points minus B's per deal (per seat-deal at three hands), over the groups
    sd: float  # of the groups' differences
    ci95: tuple[float, float]
    deals_won: tuple[int, int, int]  # A, B, tied (each table's deals counted: a litige or throw-in is a tie)
    matches_won: tuple[int, int, int]  # A, B, tied (each table's match counted)
    points_per_deal: tuple[float, float]  # over every deal each team played, every table
    times: tuple[BotTimes, BotTimes] = field(compare=False)
    #: each bot's mean score per deal (per seat-deal at three hands) over the groups, and its 95% interval
    means: tuple[float, float] = (0.0, 0.0)
    means_ci95: tuple[tuple[float, float], tuple[float, float]] = ((0.0, 0.0), (0.0, 0.0))

    @property
    def tables(self) -> int:
        return len(self.table_deals)

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
            "deals": {f"table{i + 1}": n for i, n in enumerate(self.table_deals)},
            "thrown_in": self.thrown_in,
            "pairs": self.pairs,
            "unpaired": self.unpaired,
            "difference": {"mean": self.mean, "sd": self.sd, "ci95": list(self.ci95)},
            "score_per_deal": {
                "A": {"mean": self.means[0], "ci95": list(self.means_ci95[0])},
                "B": {"mean": self.means[1], "ci95": list(self.means_ci95[1])},
            },
            "deals_won": ab(self.deals_won),
            "matches_won": ab(self.matches_won),
            "points_per_deal": ab(self.points_per_deal),
            "decision_time": {"A": self.times[0].to_json(), "B": self.times[1].to_json()},
        }

    def summary(self, a: str | None = None, b: str | None = None) -> str:
        """``heuristic vs random: +35.2 points/deal (95% CI 31.0 .. 39.4) over 1000 pairs``."""
        lo, hi = self.ci95
        groups = "pairs" if self.tables == 2 else "groups"
        return (
            f"{a or self.team_a.label} vs {b or self.team_b.label}: {self.mean:+.1f} points/deal "
            f"(95% CI {lo:.1f} .. {hi:.1f}) over {self.pairs} {groups}"
        )

    def report(self) -> str:
        """The figures for people."""
        a, b = self.team_a.label, self.team_b.label
        rules = ", ".join(f"{k}={v}" for k, v in self.rules.changes().items()) or DEFAULT_GAME
        lo, hi = self.ci95
        tables = seatings(self.rules.players)
        if len(tables) == 2:
            seats = [
                f"{name} = {label}: "
                + ", ".join(
                    f"{'/'.join(SEATS[s] for s, t in enumerate(table) if t == team)} at table {i + 1}"
                    for i, table in enumerate(tables)
                )
                for team, name, label in ((A, "A", a), (B, "B", b))
            ]
        else:
            n = len(tables) // 2
            where = ", ".join(self.rules.game.seats)
            seats = [
                f"A = {a}: alone at {where} at tables 1-{n}, with a copy at tables {n + 1}-{2 * n}",
                f"B = {b}: alone at {where} at tables {n + 1}-{2 * n}, with a copy at tables 1-{n}",
            ]
        per = "points/deal" if len(tables) == 2 else "points per seat and deal"
        deals = ", ".join(f"{n} at table {i + 1}" for i, n in enumerate(self.table_deals))
        groups = "pairs" if self.tables == 2 else "groups of the same deal at the six tables"
        (alo, ahi), (blo, bhi) = self.means_ci95
        lines = [
            *seats,
            f"rules: {rules}; seed {self.seed}",
            f"matches: {self.matches} at each table; deals: {deals} ({self.thrown_in} thrown in)",
            f"A - B: {self.mean:+.1f} {per} (95% CI {lo:.1f} .. {hi:.1f}, sd {self.sd:.1f}) "
            f"over {self.pairs} {groups} ({self.unpaired} deals unpaired)",
            f"score per deal: A {self.means[0]:.1f} (95% CI {alo:.1f} .. {ahi:.1f}), "
            f"B {self.means[1]:.1f} (95% CI {blo:.1f} .. {bhi:.1f})",
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


def _interval(values: Sequence[float]) -> tuple[float, float, tuple[float, float]]:
    """Mean, standard deviation and 95% interval of the mean."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    sd = statistics.stdev(values) if n >= 2 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    return mean, sd, (mean - half, mean + half)


class _Tally:
    """The figures, added match by match in the order of ``j`` (so any number of jobs gives the same)."""

    def __init__(self, tables: int) -> None:
        self.matches = 0
        self.table_deals = [0] * tables
        self.thrown_in = 0
        #: for each group: A's and B's points summed over the tables, and the seat-deals of each
        self.groups: list[tuple[int, int, int]] = []
        self.unpaired = 0
        self.deals_won = [0, 0, 0]
        self.matches_won = [0, 0, 0]
        self.points = [0, 0]
        self.units = [0, 0]
        self.times: list[tuple[list[float], list[float]]] = [([], []), ([], [])]

    def add(self, rules: Rules, tables: Sequence[TableResult]) -> None:
        self.matches += 1
        for t in tables:
            owners = score_owners(rules, t.seats)
            self.table_deals[t.table - 1] += len(t.deals)
            for d in t.deals:
                self.thrown_in += d.outcome == "thrown-in"
                self.deals_won[2 if d.winner is None else owners[d.winner]] += 1
                for i, p in enumerate(d.points):
                    self.points[owners[i]] += p
                    self.units[owners[i]] += 1
            self.matches_won[2 if t.winner is None else owners[t.winner]] += 1
            for team in (A, B):
                self.times[team][0].extend(t.times[team][0])
                self.times[team][1].extend(t.times[team][1])
        first = tables[0].deals
        for k in range(min(len(t.deals) for t in tables)):
            totals = [0, 0]
            units = 0
            for t in tables:
                d = t.deals[k]
                if d.deck != first[k].deck or d.dealer != first[k].dealer:  # pragma: no cover - from the seed
                    raise ArenaError(f"match {t.match}: the tables did not get the same deck")
                for i, p in enumerate(d.points):
                    totals[score_owners(rules, t.seats)[i]] += p
                units += sum(1 for o in score_owners(rules, t.seats) if o == A)
            self.groups.append((totals[A], totals[B], units))
        shortest = min(len(t.deals) for t in tables)
        self.unpaired += sum(len(t.deals) - shortest for t in tables)

    def done(self, deals: int) -> bool:
        """Enough duplicate groups: ``deals`` deals played at every table with the same deck."""
        return len(self.groups) >= deals

    def result(self, team_a: Team, team_b: Team, rules: Rules, seed: int, deals: int) -> ArenaResult:
        n = len(self.groups)
        # A's and B's seat-deals are equal in every group: the difference is (A - B) / units, exactly.
        mean = sum(a - b for a, b, _ in self.groups) / sum(u for _, _, u in self.groups) if n else 0.0
        _, sd, _ = _interval([(a - b) / u for a, b, u in self.groups])
        half = 1.96 * sd / math.sqrt(n) if n else 0.0
        ci95 = (mean - half, mean + half)
        mean_a, _, ci_a = _interval([a / u for a, _, u in self.groups])
        mean_b, _, ci_b = _interval([b / u for _, b, u in self.groups])
        return ArenaResult(
            team_a=team_a,
            team_b=team_b,
            rules=rules,
            seed=seed,
            deals_requested=deals,
            matches=self.matches,
            table_deals=tuple(self.table_deals),
            thrown_in=self.thrown_in,
            pairs=n,
            unpaired=self.unpaired,
            mean=mean,
            sd=sd,
            ci95=ci95,
            deals_won=(self.deals_won[0], self.deals_won[1], self.deals_won[2]),
            matches_won=(self.matches_won[0], self.matches_won[1], self.matches_won[2]),
            points_per_deal=(
                self.points[0] / self.units[0] if self.units[0] else 0.0,
                self.points[1] / self.units[1] if self.units[1] else 0.0,
            ),
            times=(BotTimes.of(*self.times[0]), BotTimes.of(*self.times[1])),
            means=(mean_a, mean_b),
            means_ci95=(ci_a, ci_b),
        )


# ----------------------------------------------------------------------------- running
_Tables = Generator[tuple[TableResult, ...], None, None]


def check_team(team: Team) -> None:
    """Raise ``UnknownBot`` or ``ArenaError`` now rather than in a worker process."""
    names = bot_names()
    if team.bot.startswith(EXEC):
        # The program is started and greeted here: one that cannot be is said before any table.
        try:
            ExecBot(team.bot[len(EXEC) :], **team.options).greet()
        except ProgramError as e:
            raise ArenaError(f"bot {team.bot!r}: {e}") from None
        except TypeError as e:
            raise ArenaError(f"bot {team.bot!r} does not take the options {dict(team.options)!r}: {e}") from None
        return
    if team.bot not in names:
        raise UnknownBot(f"no bot named {team.bot!r}; the bots are: {', '.join(names)}")
    try:
        team.make(0)
    except TypeError as e:
        raise ArenaError(f"bot {team.bot!r} does not take the options {dict(team.options)!r}: {e}") from None


def _tables_inline(team_a: Team, team_b: Team, rules: Rules, seed: int) -> _Tables:
    j = 0
    tables = len(seatings(rules.players))
    while True:
        yield tuple(play_table(team_a, team_b, rules, seed, j, t + 1) for t in range(tables))
        j += 1


def _tables_parallel(team_a: Team, team_b: Team, rules: Rules, seed: int, deals: int, jobs: int) -> _Tables:
    """The matches in the order of ``j``, played ``jobs`` tables at a time.

    Work is planned from the deals a match has lasted so far so that few tables are played past the
    point where the run stops; whatever is played past it is thrown away, so the result is the same.
    """
    tables = len(seatings(rules.players))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        running: dict[Future[TableResult], tuple[int, int]] = {}
        done: dict[tuple[int, int], TableResult] = {}
        next_task = 0  # task i is match i // tables at table i % tables + 1
        next_match = 0  # the next match to hand over
        finished_deals = finished_tables = 0
        try:
            while True:
                while all((next_match, t + 1) in done for t in range(tables)):
                    yield tuple(done.pop((next_match, t + 1)) for t in range(tables))
                    next_match += 1
                per_table = finished_deals / finished_tables if finished_tables else _PRIOR_DEALS_PER_MATCH
                while len(running) < jobs and (not running or next_task / tables * per_table < deals):
                    j, table = divmod(next_task, tables)
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
    tally = _Tally(len(seatings(r.players)))
    tables = _tables_inline(a, b, r, seed) if jobs == 1 else _tables_parallel(a, b, r, seed, deals, jobs)
    try:
        for group in tables:
            tally.add(r, group)
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
    "play_seated",
    "play_table",
    "run_arena",
    "seatings",
    "table_teams",
]
