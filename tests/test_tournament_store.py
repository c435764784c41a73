"""The tournaments' two stores give the same answers, method by method: SQLite (``SQLiteTournaments``,
one process) and Redis (``RedisTournaments``, any number of processes), each test run on both, Redis a
real ``redis-server``.

- a tournament is created once (also by two processes at once), listed by kind, game and opening
  time; the bots' results of a board are kept once; an entrant's table of a board is the first one;
- a result is kept once (also by two processes at once) and counted in its line; a board's lines come
  best score first (a tie by their key), each with its first names by time (a tie by entrant);
  ``scores`` gives every result once, also when it takes several batches;
- a ranking is read in pages and by entrant, and is replaced by one made from as many results or
  more, never by one made from fewer;
- a player's results are those of the tournaments that opened in a window, by time;
- a forgotten player leaves nothing that names their id, in any key or value of Redis or any row of
  the SQLite file, while their results keep their scores (and the lines their counts) under one
  neutral entrant.
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from belote.server import redis_tournaments, tournament_store
from belote.server.player_store import NEUTRAL_NAME
from belote.server.redis_hub import RedisLink
from belote.server.redis_tournaments import RedisTournaments
from belote.server.store import SQLiteStore
from belote.server.tournament_store import LINE_NAMES, RankJob, SQLiteTournaments, TournamentStore, rankings_path
from netplay import redis_server, run

Scenario = Callable[[TournamentStore, TournamentStore], Coroutine[Any, Any, None]]

#: What a store refuses for a tournament that is not there.
MISSING = (KeyError, sqlite3.IntegrityError)
#: Monday 1 December 2025, 00:00 UTC.
D = 1764547200.0
DAY = 86400.0
INF = float("inf")


class Play:
    """Runs a scenario on one store and a twin of it (another process's: another SQLite connection to
    the same file, another Redis connection)."""

    def __init__(self, run_on: Callable[[Scenario], None]) -> None:
        self.run_on = run_on

    def __call__(self, scenario: Callable[[TournamentStore], Coroutine[Any, Any, None]]) -> None:
        async def one(store: TournamentStore, _twin: TournamentStore) -> None:
            await scenario(store)

        self.run_on(one)

    def two(self, scenario: Scenario) -> None:
        self.run_on(scenario)


@pytest.fixture(params=["sqlite", "redis"])
def play(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Play]:
    if request.param == "sqlite":
        files = [SQLiteStore(tmp_path / "s.sqlite3"), SQLiteStore(tmp_path / "s.sqlite3")]
        stores = [SQLiteTournaments(f) for f in files]
        yield Play(lambda scenario: run(scenario(stores[0], stores[1])))
        for f in files:
            f.close()
        return
    with redis_server(tmp_path) as url:

        def on_redis(scenario: Scenario) -> None:
            async def main() -> None:
                links = [RedisLink.connect(url), RedisLink.connect(url)]
                try:
                    await scenario(RedisTournaments(links[0]), RedisTournaments(links[1]))
                finally:
                    for link in links:
                        await link.close()

            run(main())

        yield Play(on_redis)


def tournament(
    tid: str, opens: float = D, kind: str = "daily", game: str = "classic", host: str | None = None
) -> dict[str, Any]:
    return {
        "id": tid,
        "kind": kind,
        "name": f"Tournament {tid}",
        "game": game,
        "settings": {"target": 1000, "announces": True},
        "boards": 4,
        "opens": opens,
        "closes": opens + DAY,
        "created": opens - 60.0,
        "host": host,
        "invite": None if kind == "daily" else f"invite-{tid}",
        "seed": 987654321,
    }


#: What was made at a board (the line's key, then its score and its facts).
MADE: dict[str, dict[str, Any]] = {
    key: {"line": key, "score": score, "points": points, "contract": contract, "taker": taker, "outcome": outcome}
    for key, score, points, contract, taker, outcome in (
        ("H:0:made:122-40", 82.0, [122, 40], "H", 0, "made"),
        ("S:0:made:100-62", 38.0, [100, 62], "S", 0, "made"),
        ("S:1:made:62-100", -38.0, [62, 100], "S", 1, "made"),
        ("C:1:made:62-100", -38.0, [62, 100], "C", 1, "made"),
        ("D:0:down:0-162", -162.0, [0, 162], "D", 0, "down"),
    )
}
A, B, S1, C1, DOWN = MADE
TABLES = itertools.count(1)


def line(key: str) -> dict[str, Any]:
    """A line as the server passes it with a result (the store counts its ``n``)."""
    return {**MADE[key], "n": 1}


def result(t: str, board: int, entrant: str, key: str, at: float, name: str, player: str | None) -> dict[str, Any]:
    made = MADE[key]
    return {
        "tournament": t,
        "board": board,
        "entrant": entrant,
        "name": name,
        "player": player,
        "score": made["score"],
        "line": key,
        "at": at,
        "table": f"tab{next(TABLES)}",
        "points": made["points"],
        "contract": made["contract"],
        "taker": made["taker"],
        "outcome": made["outcome"],
    }


async def add(store: TournamentStore, r: dict[str, Any]) -> dict[str, Any]:
    assert await store.add_result(r, line(r["line"]))
    return r


def entry(seat: int = 0, started: float = D) -> dict[str, Any]:
    return {"table": f"tab{next(TABLES)}", "token": f"tok{next(TABLES)}", "seat": seat, "started": started}


async def every_score(store: TournamentStore, t: str) -> list[tuple[str, str, str | None, int, float]]:
    return [s async for s in store.scores(t)]


async def leftovers(store: TournamentStore, text: str) -> list[str]:
    """Every key or value of Redis, every row of the SQLite file, that holds ``text``."""
    found = []
    if isinstance(store, RedisTournaments):
        r = store.r
        async for key in r.scan_iter(count=1000):
            kind = await r.type(key)
            value: Any = kind
            if kind == "string":
                value = await r.get(key)
            elif kind == "hash":
                value = await r.hgetall(key)
            elif kind == "set":
                value = sorted(await r.smembers(key))
            elif kind == "zset":
                value = await r.zrange(key, 0, -1, withscores=True)
            elif kind == "list":
                value = await r.lrange(key, 0, -1)
            if text in key or text in repr(value):
                found.append(f"{key} = {value!r}")
        return found
    assert isinstance(store, SQLiteTournaments)
    for path in (store.store.path, rankings_path(store.store.path)):  # the tables' file and the rankings'
        db = sqlite3.connect(path)
        try:
            tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            for table in tables:
                for row in db.execute(f'SELECT * FROM "{table}"'):
                    if text in repr(row):
                        found.append(f"{path.name} {table}: {row!r}")
        finally:
            db.close()
    return found


# ----------------------------------------------------------------- tournaments


def test_a_tournament_is_created_once(play: Play) -> None:
    async def scenario(s: TournamentStore, twin: TournamentStore) -> None:
        t1 = tournament("t1", D, kind="private", host="host-id")
        assert await s.create(t1)
        assert await s.tournament("t1") == t1 == await twin.tournament("t1")
        # The id taken: nothing changes, neither the record nor where it is listed.
        assert not await s.create({**t1, "name": "Other", "kind": "daily", "game": "coinche", "opens": D + DAY})
        assert not await twin.create(tournament("t1", D + 5))
        assert await s.tournament("t1") == t1
        assert await s.tournaments("private", None, 0.0, INF) == [t1]
        assert await s.tournaments("daily", None, 0.0, INF) == []
        assert await s.tournaments("daily", "coinche", 0.0, INF) == []
        assert await s.tournament("t2") is None

        # Two processes create one tournament at once: one of them does.
        t2 = tournament("t2", D + 10)
        done = await asyncio.gather(s.create(t2), twin.create({**t2, "name": "Twin's"}))
        assert sorted(done) == [False, True]
        kept = await s.tournament("t2")
        assert kept in (t2, {**t2, "name": "Twin's"})
        assert await s.tournaments("daily", "classic", 0.0, INF) == [kept]

    play.two(scenario)


def test_tournaments_by_kind_game_and_opening_time(play: Play) -> None:
    async def scenario(s: TournamentStore) -> None:
        made = [
            tournament("d3", D + 2 * DAY),
            tournament("d1", D),
            tournament("d2b", D + DAY),
            tournament("d2a", D + DAY),  # the same time: by id
            tournament("c1", D + DAY, game="coinche"),
            tournament("p1", D + DAY, kind="private", host="someone"),
            tournament("d0", D - 1.0),
        ]
        for t in made:
            assert await s.create(t)
        by_id = {t["id"]: t for t in made}

        async def ids(kind: str, game: str | None, since: float, until: float) -> list[str]:
            found = await s.tournaments(kind, game, since, until)
            assert found == [by_id[t["id"]] for t in found]
            return [t["id"] for t in found]

        assert await ids("daily", None, D, D + 3 * DAY) == ["d1", "c1", "d2a", "d2b", "d3"]
        assert await ids("daily", "classic", D, D + 3 * DAY) == ["d1", "d2a", "d2b", "d3"]
        assert await ids("daily", "coinche", D, D + 3 * DAY) == ["c1"]
        assert await ids("daily", "classic", D, D + 2 * DAY) == ["d1", "d2a", "d2b"]  # until: excluded
        assert await ids("daily", "classic", D + DAY, D + DAY + 1) == ["d2a", "d2b"]  # since: included
        assert await ids("daily", None, D + 0.5, D + DAY) == []
        assert await ids("daily", None, -INF, INF) == ["d0", "d1", "c1", "d2a", "d2b", "d3"]
        assert await ids("private", None, D, D + 3 * DAY) == ["p1"]
        assert await ids("private", "coinche", D, D + 3 * DAY) == []
        assert await ids("club", None, -INF, INF) == []

    play(scenario)


def test_the_bots_results_of_a_board_are_kept_once(play: Play) -> None:
    async def scenario(s: TournamentStore) -> None:
        assert await s.create(tournament("t"))
        first = [{"bot": "normal", "draw": 0, "score": 38.0}, {"bot": "strong", "draw": 0, "score": -38.0}]
        await s.set_bots("t", 0, first)
        await s.set_bots("t", 0, [{"bot": "easy", "draw": 0, "score": 82.0}])
        assert await s.bots("t", 0) == first
        assert await s.bots("t", 1) is None
        await s.set_bots("t", 1, [])
        assert await s.bots("t", 1) == []
        assert await s.bots("nowhere", 0) is None
        with pytest.raises(MISSING):
            await s.set_bots("nowhere", 0, first)
        assert await s.bots("nowhere", 0) is None

    play(scenario)


def test_an_entrant_keeps_its_first_table(play: Play) -> None:
    async def scenario(s: TournamentStore, twin: TournamentStore) -> None:
        assert await s.create(tournament("t"))
        first, second = entry(0), entry(2)
        assert await s.add_entry("t", 0, "ann", first) == first
        assert await s.add_entry("t", 0, "ann", second) == first
        assert await twin.add_entry("t", 0, "ann", second) == first
        assert await s.entry("t", 0, "ann") == first
        assert await s.entry("t", 1, "ann") is None
        assert await s.entry("t", 0, "bea") is None
        assert await s.add_entry("t", 1, "ann", second) == second

        # Two processes give one entrant a table at once: both answer the one kept.
        a, b = entry(1), entry(3)
        got = await asyncio.gather(s.add_entry("t", 2, "bea", a), twin.add_entry("t", 2, "bea", b))
        assert got[0] == got[1] == await s.entry("t", 2, "bea") and got[0] in (a, b)

        with pytest.raises(MISSING):
            await s.add_entry("nowhere", 0, "ann", first)
        assert await s.entry("nowhere", 0, "ann") is None

    play.two(scenario)


def test_ids_that_look_like_keys_are_kept_apart(play: Play) -> None:
    """A tournament's id is part of Redis's keys: one holding ``:`` or ``%`` reads as nothing else."""

    async def scenario(s: TournamentStore) -> None:
        ids = ["t", "t:r:ann", "t%3Ar%3Aann", "t:bots", "t:scores"]
        for i, tid in enumerate(ids):
            assert await s.create(tournament(tid, D + i))
            await s.set_bots(tid, 0, [{"score": float(i)}])
            await add(s, result(tid, 0, "ann", A, D + i, f"Ann {i}", None))
        for i, tid in enumerate(ids):
            assert await s.tournament(tid) == tournament(tid, D + i)
            assert await s.bots(tid, 0) == [{"score": float(i)}]
            assert [r["name"] for r in (await s.entrant_results(tid, "ann")).values()] == [f"Ann {i}"]
            assert await every_score(s, tid) == [("ann", f"Ann {i}", None, 0, 82.0)]
            assert (await s.lines(tid, 0))[0]["names"] == [f"Ann {i}"]
        assert [t["id"] for t in await s.tournaments("daily", "classic", -INF, INF)] == ids
        assert await s.entrant_results("t", "r:ann") == {}

    play(scenario)


# ----------------------------------------------------------------- results and lines


def test_a_result_is_kept_once_and_counted_in_its_line(play: Play) -> None:
    async def scenario(s: TournamentStore, twin: TournamentStore) -> None:
        assert await s.create(tournament("t"))
        assert await s.create(tournament("u", D + DAY))
        # Board 0: five people make A, added out of time order; ann and bea at the same time.
        dan = await add(s, result("t", 0, "dan", A, D + 30, "Dan", "dan-id"))
        bea = await add(s, result("t", 0, "bea", A, D + 20, "Bea", None))
        ann = await add(s, result("t", 0, "ann", A, D + 20, "Ann", "ann-id"))
        await add(s, result("t", 0, "cid", A, D + 40, "Cid", None))
        eve = await add(s, result("t", 0, "eve", A, D + 10, "Eve", "eve-id"))
        # Two lines of one score, S1 first: listed by key, C1 first.
        await add(s, result("t", 0, "fay", S1, D + 50, "Fay", None))
        await add(s, result("t", 0, "gus", C1, D + 60, "Gus", None))
        await add(s, result("t", 0, "hal", DOWN, D + 70, "Hal", None))
        await add(s, result("t", 0, "ian", B, D + 80, "Ian", None))
        await add(s, result("t", 0, "joy", S1, D + 45, "Joy", None))
        ann2 = await add(s, result("t", 2, "ann", DOWN, D + 90, "Ann", "ann-id"))
        await add(s, result("u", 0, "ann", DOWN, D + DAY + 5, "Ann", "ann-id"))

        # The same entrant and board again: refused, nothing counted, the first result kept.
        assert not await s.add_result(result("t", 0, "ann", B, D + 99, "Ann", "ann-id"), line(B))
        assert not await twin.add_result(result("t", 0, "eve", A, D + 10, "Eve", "eve-id"), line(A))
        assert await s.result("t", 0, "ann") == ann == await twin.result("t", 0, "ann")
        assert await s.result("t", 0, "eve") == eve and await s.result("t", 0, "dan") == dan
        assert await s.result("t", 1, "ann") is None and await s.result("t", 0, "zed") is None
        assert await s.entrant_results("t", "ann") == {0: ann, 2: ann2}
        assert await s.entrant_results("t", "bea") == {0: bea}
        assert await s.entrant_results("t", "zed") == {}
        assert await s.count("t") == 11 and await s.count("u") == 1 and await s.count("nowhere") == 0

        def listed(key: str, n: int, names: list[str]) -> dict[str, Any]:
            return {**MADE[key], "n": n, "names": names}

        assert LINE_NAMES == 3
        board0 = [
            listed(A, 5, ["Eve", "Ann", "Bea"]),  # by time, a tie by entrant; three of them
            listed(B, 1, ["Ian"]),
            listed(C1, 1, ["Gus"]),  # -38 both: by key
            listed(S1, 2, ["Joy", "Fay"]),
            listed(DOWN, 1, ["Hal"]),
        ]
        assert await s.lines("t", 0) == board0 == await twin.lines("t", 0)
        assert await s.lines("t", 2) == [listed(DOWN, 1, ["Ann"])]
        assert await s.lines("t", 1) == [] and await s.lines("nowhere", 0) == []
        assert await s.lines("u", 0) == [listed(DOWN, 1, ["Ann"])]
        # The same counts by score alone (C1 and S1 both score -38): what the matchpoints read.
        by_score: dict[float, int] = {}
        for held in board0:
            by_score[float(held["score"])] = by_score.get(float(held["score"]), 0) + held["n"]
        assert await s.distribution("t", 0) == by_score == await twin.distribution("t", 0)
        assert len(by_score) == 4 and by_score[-38.0] == 3
        assert await s.distribution("t", 1) == {} and await s.distribution("nowhere", 0) == {}

        # Two processes keep one result at once: one of them does, and it is counted once.
        late = result("t", 1, "kim", B, D + 100, "Kim", None)
        done = await asyncio.gather(s.add_result(late, line(B)), twin.add_result(dict(late), line(B)))
        assert sorted(done) == [False, True]
        assert await s.lines("t", 1) == [listed(B, 1, ["Kim"])] and await s.count("t") == 12

        # A result of a tournament that is not there is not kept.
        assert not await s.add_result(result("nowhere", 0, "ann", A, D, "Ann", "ann-id"), line(A))
        assert await s.result("nowhere", 0, "ann") is None and await s.lines("nowhere", 0) == []
        assert await s.count("nowhere") == 0

    play.two(scenario)


def test_scores_give_every_result_once(play: Play, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redis_tournaments, "BATCH", 64)  # results read at a time: several batches here
    monkeypatch.setattr(tournament_store, "SCAN_BATCH", 64)

    async def scenario(s: TournamentStore) -> None:
        assert await s.create(tournament("t"))
        assert await s.create(tournament("u"))
        keys = list(MADE)
        expected = []
        n = 0
        for board in range(4):
            for i in range(150):
                key = keys[(i + board) % len(keys)]
                player = f"p{i}" if i % 3 else None
                r = result("t", board, f"e{i}", key, D + n, f"Name {i}", player)
                assert await s.add_result(r, line(key))
                expected.append((f"e{i}", f"Name {i}", player, board, MADE[key]["score"]))
                n += 1
        await add(s, result("u", 0, "e1", A, D, "Other", None))
        found = await every_score(s, "t")
        assert len(found) == len(expected) == 600 == await s.count("t")
        assert sorted(found, key=repr) == sorted(expected, key=repr)
        assert all(isinstance(score, float) and isinstance(board, int) for *_, board, score in found)
        assert await every_score(s, "u") == [("e1", "Other", None, 0, 82.0)]
        assert await every_score(s, "nowhere") == []
        # The lines count every result.
        counted = [[x["n"] for x in await s.lines("t", b)] for b in range(4)]
        assert counted == [[30] * 5] * 4

    play(scenario)


# ----------------------------------------------------------------- rankings


NO_BOTS: tuple[tuple[float, ...], ...] = ((), (), (), ())


async def rank(
    store: TournamentStore, tid: str, bots: tuple[tuple[float, ...], ...] = NO_BOTS, at: float = 1000.0
) -> int:
    """The tournament's ranking made as the server makes it (here in a thread): the results counted."""
    fn, _ = store.ranker()
    return await asyncio.to_thread(fn, RankJob(tid, len(bots), bots, at))


def test_a_ranking_scores_each_board_against_its_field_and_is_read_in_pages(play: Play) -> None:
    """Worked by hand. Board 1 (bots 0 and 100 fill the field): Ann and Dan made 82, Bob 38, Cat -38.
    Ann's 82 beats 38, -38 and 0 and ties Dan's 82 of five: 3.5 / 5 = 70%, 82 - (38 - 38 + 82 + 0 +
    100) / 5 = +45.6; Bob's 38 beats -38 and 0: 40%, 38 - 226 / 5 = -7.2; Cat's -38: 0%, -38 - 302 / 5
    = -98.4. Board 2 (a bot's 38): Ann -162: 0%, -162 - (82 + 38 + 38) / 3 = -214.67; Bob 82: 100%,
    82 - (-162 + 38 + 38) / 3 = +110.67; Eve 38 beats -162 and ties the bot: 50%, 38 - (-162 + 82 +
    38) / 3 = +52. Those who played both boards first: Bob (40 + 100) / 2 = 70%, +51.73; Ann (70 +
    0) / 2 = 35%, -84.53; then Dan 70%, Eve 50%, Cat 0%."""

    async def scenario(s: TournamentStore, twin: TournamentStore) -> None:
        assert await s.create(tournament("t"))
        assert await s.ranking("t", 0, 10) is None and await s.rank_of("t", "ann") is None
        for board, entrant, key, name in (
            (0, "ann", A, "Ann"),
            (0, "bob", B, "Bob"),
            (0, "cat", S1, "Cat"),
            (0, "dan", A, "Dan"),
            (1, "ann", DOWN, "Ann"),
            (1, "bob", A, "Bob B."),  # a new name: the last board's is the ranking's
            (1, "eve", B, "Eve"),
        ):
            await add(s, result("t", board, entrant, key, D + board, name, f"{entrant}-id"))
        bots = ((0.0, 100.0), (38.0,), (), ())
        assert await rank(s, "t", bots, at=1000.0) == 7
        rows = [
            {
                "rank": 1,
                "entrant": "bob",
                "name": "Bob B.",
                "player": "bob-id",
                "played": 2,
                "percent": 70.0,
                "difference": 51.73,
            },
            {
                "rank": 2,
                "entrant": "ann",
                "name": "Ann",
                "player": "ann-id",
                "played": 2,
                "percent": 35.0,
                "difference": -84.53,
            },
            {
                "rank": 3,
                "entrant": "dan",
                "name": "Dan",
                "player": "dan-id",
                "played": 1,
                "percent": 70.0,
                "difference": 45.6,
            },
            {
                "rank": 4,
                "entrant": "eve",
                "name": "Eve",
                "player": "eve-id",
                "played": 1,
                "percent": 50.0,
                "difference": 52.0,
            },
            {
                "rank": 5,
                "entrant": "cat",
                "name": "Cat",
                "player": "cat-id",
                "played": 1,
                "percent": 0.0,
                "difference": -98.4,
            },
        ]
        head = {"results": 7, "at": 1000.0, "total": 5}
        assert await s.ranking("t", 0, 2) == {**head, "rows": rows[:2]}
        assert await s.ranking("t", 2, 2) == {**head, "rows": rows[2:4]}
        assert await twin.ranking("t", 4, 10) == {**head, "rows": rows[4:]}
        assert await s.ranking("t", 5, 3) == {**head, "rows": []}
        assert await s.ranking("t", 2, 0) == {**head, "rows": []}
        assert await twin.rank_of("t", "eve") == rows[3] and await s.rank_of("t", "bob") == rows[0]
        assert await s.rank_of("t", "zed") is None and await s.rank_of("u", "ann") is None

        # Cat plays board 2 too: -38 of four results and the bot's 38 (each compared with four): Ann
        # -162: 0%, -162 - 120 / 4 = -192; Bob 82: 100%, 82 + 124 / 4 = +113; Eve 38 beats -162 and
        # -38 and ties the bot: 62.5%, 38 + 80 / 4 = +58; Cat -38 beats -162: 25%, -38 + 4 / 4 = -37.
        # Cat has played both boards now: she comes before those of one board.
        await add(s, result("t", 1, "cat", S1, D + 9, "Cat", "cat-id"))
        assert await rank(twin, "t", bots, at=2000.0) == 8
        page = await s.ranking("t", 0, 10)
        assert page is not None and (page["results"], page["at"], page["total"]) == (8, 2000.0, 5)
        assert [(r["rank"], r["entrant"], r["played"], r["percent"], r["difference"]) for r in page["rows"]] == [
            (1, "bob", 2, 70.0, 52.9),
            (2, "ann", 2, 35.0, -73.2),
            (3, "cat", 2, 12.5, -67.7),
            (4, "dan", 1, 70.0, 45.6),
            (5, "eve", 1, 62.5, 58.0),
        ]
        assert await s.rank_of("t", "cat") == {**rows[4], "rank": 3, "played": 2, "percent": 12.5, "difference": -67.7}

    play.two(scenario)


def test_a_ranking_is_the_same_in_sql_as_in_python_and_replaced_by_one_of_more_results(
    play: Play, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_tournaments, "BATCH", 64)  # several batches of results and of rows

    async def scenario(s: TournamentStore, twin: TournamentStore) -> None:
        assert await s.create(tournament("t"))
        keys = list(MADE)
        n = 0
        for i in range(300):  # some play every board, some fewer; the same scores often: many ties
            for board in range(4 - i % 3):
                key = keys[(i * 7 + board * 3 + i // 5) % len(keys)]
                await add(s, result("t", board, f"e{i:03d}", key, D + n, f"Name {i % 40}", None))
                n += 1
        bots = ((0.0, 38.0, 82.0), (-38.0,), (), (100.0, -162.0, 38.0, 38.0))
        assert await rank(s, "t", bots) == n
        expected = tournament_store.ranking_rows(4, await every_score(s, "t"), bots)
        assert len(expected) == 300
        page = await twin.ranking("t", 0, 1000)
        assert page is not None and page["results"] == n and page["total"] == 300
        assert page["rows"] == [{**row, "rank": i} for i, row in enumerate(expected, 1)]

        # Two rankings at once while results come: the one kept is made from every result.
        more = [result("t", 0, f"new{i}", A, D + n + i, f"New {i}", None) for i in range(5)]
        await asyncio.gather(
            rank(s, "t", bots, at=3000.0), *(add(twin, r) for r in more), rank(twin, "t", bots, at=3001.0)
        )
        await rank(s, "t", bots, at=3002.0)
        page = await s.ranking("t", 0, 0)
        assert page is not None and page["results"] == n + 5 == await s.count("t") and page["total"] == 305

    play.two(scenario)


# ----------------------------------------------------------------- players


def test_a_players_results_by_the_opening_time_of_their_tournaments(play: Play) -> None:
    async def scenario(s: TournamentStore) -> None:
        for t in (tournament("t1", D), tournament("t2", D + DAY), tournament("t3", D + 2 * DAY, kind="private")):
            assert await s.create(t)
        late = await add(s, result("t1", 0, "ann", A, D + DAY + 500, "Ann", "ann-id"))  # after t2 opened
        early = await add(s, result("t1", 1, "ann", B, D + 50, "Ann", "ann-id"))
        middle = await add(s, result("t1", 2, "ann", C1, D + 80, "Ann", "ann-id"))
        second = await add(s, result("t2", 0, "ann", DOWN, D + DAY + 10, "Ann", "ann-id"))
        third = await add(s, result("t3", 0, "ann", S1, D + 2 * DAY + 5, "Ann", "ann-id"))
        bea = await add(s, result("t1", 0, "bea", A, D + 60, "Bea", "bea-id"))
        await add(s, result("t1", 1, "guest", A, D + 70, "Guest", None))

        assert await s.player_results("ann-id", D, D + DAY) == [early, middle, late]  # by when t1 opened
        assert await s.player_results("ann-id", D, D + 2 * DAY + 1) == [early, middle, second, late, third]
        assert await s.player_results("ann-id", D + DAY, D + 2 * DAY) == [second]  # until: excluded
        assert await s.player_results("ann-id", D + 2 * DAY, INF) == [third]
        assert await s.player_results("ann-id", D + 1, D + DAY) == []
        assert await s.player_results("bea-id", -INF, INF) == [bea]
        assert await s.player_results("nobody", -INF, INF) == []

    play(scenario)


ALICE, BOB, CARA = "Alice_q9Z-id", "Bob_k3D-id", "Cara_w7P-id"


def test_a_forgotten_player_leaves_nothing_that_names_them(play: Play) -> None:
    async def scenario(s: TournamentStore) -> None:
        t1, t2 = tournament("t1", D), tournament("t2", D + DAY, kind="private", host=ALICE)
        t3 = tournament("t3", D + 2 * DAY, kind="private", host=BOB)
        for made in (t1, t2, t3):
            assert await s.create(made)
        # Alice's entrant is her id; a guest (no player) and two others play too.
        for board in (0, 1, 2):  # board 2: a table, no result
            await s.add_entry("t1", board, ALICE, entry(board))
        await s.add_entry("t2", 0, ALICE, entry())
        bob_entry = await s.add_entry("t1", 0, BOB, entry())
        mine = [
            await add(s, result("t1", 0, ALICE, A, D + 10, "Alice", ALICE)),
            await add(s, result("t1", 1, ALICE, B, D + 20, "Alice", ALICE)),
            await add(s, result("t2", 0, ALICE, A, D + DAY + 5, "Alice", ALICE)),
        ]
        others = [
            await add(s, result("t1", 0, BOB, A, D + 30, "Bob", BOB)),
            await add(s, result("t1", 0, "guest:tok1", A, D + 5, "Zoe", None)),
            await add(s, result("t1", 0, CARA, C1, D + 40, "Cara", CARA)),
            await add(s, result("t1", 1, BOB, B, D + 50, "Bob", BOB)),
        ]
        # Board 1: three 82s and Cara's -38 (each 82 beats one and ties two of three: 66.67%, +40); board
        # 2: Alice's 38 and Bob's (50%, 0). Alice and Bob tie (58.33%, +20): by name.
        assert await rank(s, "t1") == 6 and await rank(s, "t2") == 1
        ranking1 = [
            {"rank": i, "entrant": e, "name": n, "player": p, "played": k, "percent": pc, "difference": d}
            for i, (e, n, p, k, pc, d) in enumerate(
                (
                    (ALICE, "Alice", ALICE, 2, 58.33, 20.0),
                    (BOB, "Bob", BOB, 2, 58.33, 20.0),
                    ("guest:tok1", "Zoe", None, 1, 66.67, 40.0),
                    (CARA, "Cara", CARA, 1, 0.0, -120.0),
                ),
                1,
            )
        ]
        assert await s.ranking("t1", 0, 10) == {"results": 6, "at": 1000.0, "total": 4, "rows": ranking1}
        lines_before = {(t, b): await s.lines(t, b) for t, b in (("t1", 0), ("t1", 1), ("t2", 0))}
        assert lines_before[("t1", 0)][0]["names"] == ["Zoe", "Alice", "Bob"]
        scores_before = {t: sorted(await every_score(s, t), key=repr) for t in ("t1", "t2")}
        assert await leftovers(s, ALICE)  # the search finds what there is

        await s.forget_player(ALICE, NEUTRAL_NAME)
        assert await leftovers(s, ALICE) == []

        # Her results stand, with their scores, under one neutral entrant of no player.
        found = {t: await every_score(s, t) for t in ("t1", "t2")}
        gone = {e for t in found for e, *_ in found[t] if e.startswith("gone:")}
        assert len(gone) == 1
        (anon,) = gone
        for t in ("t1", "t2"):
            again = [
                (anon, NEUTRAL_NAME, None, b, score) if e == ALICE else (e, n, p, b, score)
                for e, n, p, b, score in scores_before[t]
            ]
            assert sorted(found[t], key=repr) == sorted(again, key=repr)
        assert await s.count("t1") == 6 and await s.count("t2") == 1
        kept = [{**r, "name": NEUTRAL_NAME, "player": None, "entrant": anon} for r in mine]
        assert await s.entrant_results("t1", anon) == {0: kept[0], 1: kept[1]}
        assert await s.entrant_results("t2", anon) == {0: kept[2]}
        assert await s.result("t1", 0, anon) == kept[0] and await s.result("t1", 0, ALICE) is None
        assert await s.entrant_results("t1", ALICE) == {} and await s.entrant_results("t2", ALICE) == {}
        for r in others:
            assert await s.result("t1", r["board"], r["entrant"]) == r

        # The lines count the same, her name neutral in its place (by time).
        for (t, b), before in lines_before.items():
            assert await s.lines(t, b) == [
                {**x, "names": [NEUTRAL_NAME if n == "Alice" else n for n in x["names"]]} for x in before
            ]
        assert (await s.lines("t1", 0))[0] == {**MADE[A], "n": 3, "names": ["Zoe", NEUTRAL_NAME, "Bob"]}

        # The rankings keep her row, neutral; her tables are gone, the others' are not.
        neutral_row = {**ranking1[0], "entrant": anon, "name": NEUTRAL_NAME, "player": None}
        assert await s.rank_of("t1", anon) == neutral_row and await s.rank_of("t1", ALICE) is None
        assert await s.ranking("t1", 0, 10) == {
            "results": 6,
            "at": 1000.0,
            "total": 4,
            "rows": [neutral_row, *ranking1[1:]],
        }
        assert await s.rank_of("t2", anon) == {
            "rank": 1,
            "entrant": anon,
            "name": NEUTRAL_NAME,
            "player": None,
            "played": 1,
            "percent": 0.0,  # nobody else played: no field, no points
            "difference": 0.0,
        }
        for board in (0, 1, 2):
            assert await s.entry("t1", board, ALICE) is None
        assert await s.entry("t2", 0, ALICE) is None and await s.entry("t1", 0, anon) is None
        assert await s.entry("t1", 0, BOB) == bob_entry
        assert await s.player_results(ALICE, -INF, INF) == []
        assert await s.player_results(BOB, -INF, INF) == [others[0], others[3]]

        # The tournament she hosts has no host; the others' tournaments are as they were.
        assert await s.tournament("t2") == {**t2, "host": None}
        assert await s.tournament("t1") == t1 and await s.tournament("t3") == t3
        assert [t["id"] for t in await s.tournaments("private", None, -INF, INF)] == ["t2", "t3"]

        # Once more, or a player who never played: nothing changes.
        await s.forget_player(ALICE, NEUTRAL_NAME)
        await s.forget_player("nobody", NEUTRAL_NAME)
        assert sorted(await every_score(s, "t1"), key=repr) == sorted(found["t1"], key=repr)
        assert await s.rank_of("t1", anon) == neutral_row

    play(scenario)


def test_a_player_forgotten_while_a_ranking_is_made_is_not_named_in_it(
    play: Play, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ranking has read the results (Alice's among them) when Alice is deleted: the ranking kept
    does not name her. SQLite: her rows are renamed in the rankings once the ranking is written (the
    deletion waits for it); Redis: the ranking is not kept, and is made again from the results renamed."""

    async def scenario(s: TournamentStore) -> None:
        assert await s.create(tournament("t"))
        await add(s, result("t", 0, ALICE, A, D + 1, "Alice", ALICE))
        await add(s, result("t", 0, BOB, B, D + 2, "Bob", BOB))
        loop = asyncio.get_running_loop()
        forgotten: list[Any] = []
        where = tournament_store if isinstance(s, SQLiteTournaments) else redis_tournaments
        patched = "board_points" if isinstance(s, SQLiteTournaments) else "ranking_rows"
        real = getattr(where, patched)

        def forget_meanwhile(*args: Any) -> Any:
            if not forgotten:  # the results are read: Alice is deleted now, before the ranking is kept
                forgotten.append(asyncio.run_coroutine_threadsafe(s.forget_player(ALICE, NEUTRAL_NAME), loop))
                deadline = time.monotonic() + 30
                while not _results_renamed(s):  # her results are renamed (and, in Redis, all of it)
                    assert time.monotonic() < deadline, "the deletion did not come"
                    time.sleep(0.01)
            return real(*args)

        monkeypatch.setattr(where, patched, forget_meanwhile)
        assert await rank(s, "t") == 2
        await asyncio.wrap_future(forgotten[0])
        assert await leftovers(s, ALICE) == []
        page = await s.ranking("t", 0, 10)
        assert page is not None and [(r["name"], r["player"]) for r in page["rows"]] == [
            (NEUTRAL_NAME, None),
            ("Bob", BOB),
        ]

    def _results_renamed(s: TournamentStore) -> bool:
        if isinstance(s, SQLiteTournaments):
            db = sqlite3.connect(s.store.path)
            try:
                return db.execute("SELECT count(*) FROM tournament_results WHERE player = ?", (ALICE,)).fetchone() == (
                    0,
                )
            finally:
                db.close()
        assert isinstance(s, RedisTournaments) and s.url is not None
        import redis

        r = redis.Redis.from_url(s.url)
        try:
            return r.get(s._k("tn", "forgotten")) is not None
        finally:
            r.close()

    play(scenario)
