"""The players' two stores give the same answers, method by method: SQLite (``SQLitePlayers``, one
process) and Redis (``RedisPlayers``, any number of processes), each test run on both, Redis a real
``redis-server``.

- a tag is drawn unique per name as it reads (``Léa`` and ``LEA`` differ), kept by a rename while it
  is free for the new name; a secret, a device's secret, a password, a transfer code (used once,
  refused expired, one at a time, the expired ones swept by any use);
- a finished match is kept once, also when two processes finish it at once; the ratings, their
  history (the last ``HISTORY``), the recent matches and the statistics it leaves, for identities
  only; the leaderboards of all time (ties by id) and of the week (won since a Monday);
- friends (asked, asking, both), blocks (which end a friendship);
- a deleted player leaves nothing that names its id, in any key or row of either store, and the
  matches of the others keep its seat as ``Player`` without an id.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from belote.server import player_store
from belote.server.player_store import HISTORY, NEUTRAL_NAME, PlayerStore, SQLitePlayers
from belote.server.redis_hub import RedisLink
from belote.server.redis_players import RedisPlayers
from belote.server.store import SQLiteStore
from netplay import redis_server, run

Scenario = Callable[[PlayerStore, PlayerStore], Coroutine[Any, Any, None]]

#: What a store refuses for a missing player, and for a secret or id already held.
MISSING = (KeyError, sqlite3.IntegrityError)
TAKEN = (ValueError, sqlite3.IntegrityError)
#: Monday 1 December 2025, 00:00 UTC.
MONDAY = 1764547200.0
DAY = 86400.0


class Play:
    """Runs a scenario on one store and a twin of it (another process's: another SQLite connection to
    the same file, another Redis connection)."""

    def __init__(self, run_on: Callable[[Scenario], None]) -> None:
        self.run_on = run_on

    def __call__(self, scenario: Callable[[PlayerStore], Coroutine[Any, Any, None]]) -> None:
        async def one(store: PlayerStore, _twin: PlayerStore) -> None:
            await scenario(store)

        self.run_on(one)

    def two(self, scenario: Scenario) -> None:
        self.run_on(scenario)


@pytest.fixture(params=["sqlite", "redis"])
def play(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Play]:
    if request.param == "sqlite":
        files = [SQLiteStore(tmp_path / "s.sqlite3"), SQLiteStore(tmp_path / "s.sqlite3")]
        stores = [SQLitePlayers(f) for f in files]
        yield Play(lambda scenario: run(scenario(stores[0], stores[1])))
        for f in files:
            f.close()
        return
    with redis_server(tmp_path) as url:

        def on_redis(scenario: Scenario) -> None:
            async def main() -> None:
                links = [RedisLink.connect(url), RedisLink.connect(url)]
                try:
                    await scenario(RedisPlayers(links[0]), RedisPlayers(links[1]))
                finally:
                    for link in links:
                        await link.close()

            run(main())

        yield Play(on_redis)


class Draws:
    """``secrets`` for player_store: ``randbelow`` answers the draws a test lines up, in order."""

    def __init__(self) -> None:
        self.queue: list[int] = []

    def randbelow(self, n: int) -> int:
        assert self.queue, "a tag was drawn that the test did not expect"
        return self.queue.pop(0)


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> Draws:
    fake = Draws()
    monkeypatch.setattr(player_store, "secrets", fake)
    return fake


NAMES = {"a": "Ann", "b": "Bea", "c": "Cid", "d": "Dan", "e": "Eve"}


def finished(
    match_id: str,
    at: float,
    teams: list[list[str | None]],
    moves: dict[str, tuple[int, int]] | None = None,
    game: str = "classic",
) -> dict[str, Any]:
    """A finished match of ``teams`` (player ids; None a bot), rated when ``moves`` gives each
    person's rating before and after."""
    sides: list[list[dict[str, Any]]] = []
    n = 0
    for team in teams:
        side = []
        for p in team:
            name = NAMES.get(p, p) if p else f"Bot {n}"
            side.append({"seat": "NESW"[n % 4], "name": name, "player": p, "bot": None if p else "easy"})
            n += 1
        sides.append(side)
    match: dict[str, Any] = {
        "id": match_id,
        "game": game,
        "table": match_id.split(":")[0],
        "finished": at,
        "rated": moves is not None,
        "score": [1001, 720],
        "winner": 0,
        "sides": sides,
    }
    if moves is not None:
        match["changes"] = {p: {"before": b, "after": a} for p, (b, a) in moves.items()}
    return match


def held(rating: int, matches: int) -> dict[str, Any]:
    """A rating as ``Players.finish`` passes it (the store adds when: ``updated``)."""
    return {"mu": 25.0 + (rating - 1000) / 40, "sigma": 5.0, "matches": matches, "rating": rating}


async def finish(
    store: PlayerStore,
    match_id: str,
    at: float,
    teams: list[list[str | None]],
    moves: dict[str, tuple[int, int]] | None = None,
    counts: dict[str, int] | None = None,
    stats: dict[str, dict[str, int]] | None = None,
    game: str = "classic",
    records: str = "",
) -> dict[str, Any]:
    match = finished(match_id, at, teams, moves, game)
    new = {p: held(a, (counts or {}).get(p, 1)) for p, (_, a) in (moves or {}).items()}
    assert await store.finish_match(match, new, stats or {}, at, records)
    return match


async def people(store: PlayerStore, *ids: str) -> dict[str, int]:
    """Players named after ``NAMES``; their tags."""
    return {p: await store.add_player(p, NAMES.get(p, p), NAMES.get(p, p).lower(), f"secret-{p}", 100.0) for p in ids}


async def leftovers(store: PlayerStore, text: str) -> list[str]:
    """Every key or value of Redis, every row of the SQLite file, that holds ``text``."""
    found = []
    if isinstance(store, RedisPlayers):
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
    assert isinstance(store, SQLitePlayers)
    with store.store.reading() as db:
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            for row in db.execute(f'SELECT * FROM "{table}"'):
                if text in repr(row):
                    found.append(f"{table}: {row!r}")
    return found


# ----------------------------------------------------------------- identities


def test_a_tag_is_unique_for_a_name_as_it_reads(play: Play, draws: Draws) -> None:
    async def scenario(s: PlayerStore) -> None:
        draws.queue = [0]
        assert await s.add_player("lea1", "Léa", "lea", "d1", 100.0) == 1000
        draws.queue = [0, 0, 7]  # 1000 is taken for "lea": drawn again
        assert await s.add_player("lea2", "LEA", "lea", "d2", 101.0) == 1007
        draws.queue = [0]  # another name may have the same tag
        assert await s.add_player("max", "Max", "max", "d3", 102.0) == 1000
        assert draws.queue == []

        lea = {"id": "lea1", "name": "Léa", "tag": 1000, "password": None, "created": 100.0}
        assert await s.player("lea1") == lea
        assert await s.by_handle("lea", 1000) == lea
        assert await s.by_secret("d1") == lea
        other = {"id": "lea2", "name": "LEA", "tag": 1007, "password": None, "created": 101.0}
        assert await s.by_handle("lea", 1007) == other == await s.by_secret("d2")
        assert (await s.by_handle("max", 1000) or {})["id"] == "max"
        assert await s.by_handle("lea", 1001) is None
        assert await s.by_handle("Léa", 1000) is None  # by the name as it reads
        assert await s.by_secret("d4") is None
        assert await s.player("nobody") is None

        # An id or a secret already held: refused, and nothing is written.
        draws.queue = [1]
        with pytest.raises(TAKEN):
            await s.add_player("lea1", "Other", "other", "d9", 103.0)
        draws.queue = [2]
        with pytest.raises(TAKEN):
            await s.add_player("zed", "Zed", "zed", "d1", 104.0)
        assert draws.queue == []
        assert await s.by_secret("d9") is None and await s.by_handle("other", 1001) is None
        assert await s.player("zed") is None and await s.by_handle("zed", 1002) is None
        assert await s.player("lea1") == lea and (await s.by_secret("d1") or {})["id"] == "lea1"

    play(scenario)


def test_many_players_of_one_name_have_different_tags(play: Play) -> None:
    async def scenario(s: PlayerStore) -> None:
        names = ["Léa", "LEA", "lea", "Lea", "LÉA", "léa"] * 10
        tags = [await s.add_player(f"p{i}", name, "lea", f"d{i}", 100.0 + i) for i, name in enumerate(names)]
        assert len(set(tags)) == len(names) and all(1000 <= t <= 9999 for t in tags)
        for i, tag in enumerate(tags):
            assert (await s.by_handle("lea", tag) or {})["id"] == f"p{i}"

    play(scenario)


def test_a_rename_keeps_the_tag_when_it_is_free(play: Play, draws: Draws) -> None:
    async def scenario(s: PlayerStore) -> None:
        draws.queue = [0, 0, 5]
        assert await s.add_player("a", "Léa", "lea", "da", 100.0) == 1000
        assert await s.add_player("b", "Bob", "bob", "db", 100.0) == 1000
        assert await s.add_player("c", "Max", "max", "dc", 100.0) == 1005

        assert await s.rename("a", "Lea", "lea") == 1000  # the same name as it reads
        assert await s.player("a") == {"id": "a", "name": "Lea", "tag": 1000, "password": None, "created": 100.0}
        draws.queue = [0, 3]  # 1000 is Léa's
        assert await s.rename("b", "LÉA", "lea") == 1003
        assert (await s.player("b") or {})["name"] == "LÉA" and (await s.by_handle("lea", 1003) or {})["id"] == "b"
        assert await s.by_handle("bob", 1000) is None
        assert await s.rename("c", "Bob", "bob") == 1005  # free: kept, nothing drawn
        assert (await s.by_handle("bob", 1005) or {})["id"] == "c" and await s.by_handle("max", 1005) is None
        assert await s.rename("b", "Bob", "bob") == 1003  # 1003 is free for "bob"
        assert (await s.by_handle("bob", 1003) or {})["id"] == "b" and await s.by_handle("lea", 1003) is None
        assert (await s.by_handle("lea", 1000) or {})["id"] == "a"
        assert draws.queue == []
        with pytest.raises(KeyError):
            await s.rename("ghost", "Ghost", "ghost")
        assert await s.by_handle("ghost", 1000) is None

    play(scenario)


def test_a_password_and_the_secrets_of_two_devices(play: Play) -> None:
    async def scenario(s: PlayerStore) -> None:
        await people(s, "a", "b")
        await s.set_password("a", "$argon2id$v=19$hash")
        assert (await s.player("a") or {})["password"] == "$argon2id$v=19$hash"
        assert (await s.by_secret("secret-a") or {})["password"] == "$argon2id$v=19$hash"
        await s.set_password("a", None)
        assert (await s.player("a") or {})["password"] is None
        await s.set_password("ghost", "h")  # nobody: nothing
        assert await s.player("ghost") is None

        await s.add_secret("a", "phone")
        assert (await s.by_secret("phone") or {})["id"] == "a"
        assert (await s.by_secret("secret-a") or {})["id"] == "a"  # the first device still
        with pytest.raises(MISSING):
            await s.add_secret("ghost", "ghost-phone")
        assert await s.by_secret("ghost-phone") is None
        with pytest.raises(TAKEN):
            await s.add_secret("b", "phone")
        assert (await s.by_secret("phone") or {})["id"] == "a"

    play(scenario)


def test_a_transfer_code_is_used_once_and_refused_expired(play: Play) -> None:
    async def scenario(s: PlayerStore) -> None:
        await people(s, "a", "b")
        await s.add_transfer("c1", "a", 2000.0)
        assert await s.take_transfer("c1", 1500.0) == "a"
        assert await s.take_transfer("c1", 1500.0) is None  # used

        await s.add_transfer("c2", "a", 2000.0)
        await s.add_transfer("c3", "a", 2100.0)  # one code at a time
        assert await s.take_transfer("c2", 1500.0) is None
        assert await s.take_transfer("c3", 2100.0) == "a"  # its last instant

        await s.add_transfer("c4", "a", 1000.0)
        assert await s.take_transfer("c4", 1000.5) is None  # expired
        assert await s.take_transfer("c4", 900.0) is None  # and used up

        await s.add_transfer("c5", "b", 1000.0)
        await s.add_transfer("c6", "a", 3000.0)
        assert await s.take_transfer("unknown", 1200.0) is None  # sweeps the expired codes
        assert await s.take_transfer("c5", 900.0) is None
        assert await s.take_transfer("c6", 1300.0) == "a"

        with pytest.raises(MISSING):
            await s.add_transfer("c7", "ghost", 3000.0)
        assert await s.take_transfer("c7", 0.0) is None

    play(scenario)


# ----------------------------------------------------------------- matches, ratings, statistics


def test_a_match_is_kept_once(play: Play) -> None:
    async def scenario(s: PlayerStore, twin: PlayerStore) -> None:
        await people(s, "a", "b")
        moves = {"a": (1000, 1040), "b": (1000, 960)}
        m1 = finished("t1:0", 1000.0, [["a", None], ["b", None]], moves)
        stats = {"a": {"deals": 3, "won": 1}, "b": {"deals": 3, "won": 0}}
        assert await s.finish_match(m1, {"a": held(1040, 1), "b": held(960, 1)}, stats, 1000.0)
        assert not await s.finish_match(m1, {"a": held(1500, 9), "b": held(500, 9)}, stats, 1001.0)
        assert await s.ratings("a") == {"classic": {**held(1040, 1), "updated": 1000.0}}
        assert await s.stats("a") == {"classic": {"deals": 3, "won": 1}}
        assert await s.recent("a", 10) == [m1] and await s.history("a", "classic") == [{"at": 1000.0, "rating": 1040}]

        # Two processes finish one match at once: one of them keeps it.
        m2 = finished("t2:0", 2000.0, [["a", None], ["b", None]])
        done = await asyncio.gather(
            s.finish_match(m2, {}, {"a": {"deals": 2}}, 2000.0), twin.finish_match(m2, {}, {"a": {"deals": 2}}, 2000.0)
        )
        assert sorted(done) == [False, True]
        assert await s.recent("a", 10) == [m2, m1] == await twin.recent("a", 10)
        assert await s.stats("a") == {"classic": {"deals": 5, "won": 1}}

        # An id that is nobody's is kept nothing for, now or once it is somebody's.
        m3 = finished("t3:0", 3000.0, [["a", None], ["ghost", None]], {"a": (1040, 1050), "ghost": (1000, 990)})
        assert await s.finish_match(
            m3, {"a": held(1050, 2), "ghost": held(990, 1)}, {"ghost": {"deals": 1}, "a": {"deals": 1}}, 3000.0
        )
        await s.add_player("ghost", "Ghost", "ghost", "dg", 3100.0)
        assert await s.ratings("ghost") == {} and await s.stats("ghost") == {}
        assert await s.recent("ghost", 10) == [] and await s.history("ghost", "classic") == []
        assert (await s.ratings("a"))["classic"]["rating"] == 1050
        assert await s.leaderboard("classic", None, 10) == [
            {"player": "a", "name": "Ann", "tag": (await s.player("a") or {})["tag"], "rating": 1050, "matches": 2},
            {"player": "b", "name": "Bea", "tag": (await s.player("b") or {})["tag"], "rating": 960, "matches": 1},
        ]

    play.two(scenario)


def test_ratings_history_recent_matches_and_statistics(play: Play) -> None:
    async def scenario(s: PlayerStore) -> None:
        await people(s, "a", "b")
        teams: list[list[str | None]] = [["a", None], ["b", None]]
        m1 = await finish(s, "t1:0", 1000.0, teams, {"a": (1000, 1040), "b": (1000, 960)}, stats={"a": {"deals": 3}})
        m2 = await finish(
            s, "t2:0", 2000.0, teams, {"a": (1040, 1010), "b": (960, 990)}, {"a": 2, "b": 2}, {"a": {"won": 1}}
        )
        mc = await finish(
            s, "t3:0", 2500.0, [["a"], ["b"], [None]], stats={"a": {"deals": 4, "won": 0}}, game="three"
        )  # not rated
        m3 = await finish(
            s,
            "t4:0",
            3000.0,
            teams,
            {"a": (1010, 1080), "b": (990, 920)},
            {"a": 3, "b": 3},
            {"a": {"deals": 2, "won": 1}, "b": {"deals": 2}},
        )

        assert await s.ratings("a") == {"classic": {**held(1080, 3), "updated": 3000.0}}
        assert await s.ratings("b") == {"classic": {**held(920, 3), "updated": 3000.0}}
        assert await s.history("a", "classic") == [
            {"at": 1000.0, "rating": 1040},
            {"at": 2000.0, "rating": 1010},
            {"at": 3000.0, "rating": 1080},
        ]
        assert await s.history("a", "three") == [] and await s.history("nobody", "classic") == []
        assert await s.recent("a", 2) == [m3, mc]
        assert await s.recent("a", 10) == [m3, mc, m2, m1]
        assert await s.recent("b", 10) == [m3, mc, m2, m1]
        assert await s.recent("a", 0) == [] and await s.recent("nobody", 5) == []
        assert await s.stats("a") == {"classic": {"deals": 5, "won": 2}, "three": {"deals": 4, "won": 0}}
        assert await s.stats("b") == {"classic": {"deals": 2}}

        await s.add_stats("a", "three", {"won": 1, "capot": 1})
        await s.add_stats("a", "two", {})  # a game with nothing counted yet
        await s.add_stats("ghost", "classic", {"deals": 1})  # nobody: nothing
        assert await s.stats("a") == {
            "classic": {"deals": 5, "won": 2},
            "three": {"capot": 1, "deals": 4, "won": 1},
            "two": {},
        }
        assert await s.stats("ghost") == {} and await s.ratings("ghost") == {}

    play(scenario)


def test_the_history_keeps_the_last_ratings(play: Play) -> None:
    async def scenario(s: PlayerStore) -> None:
        await people(s, "a", "b")
        for i in range(HISTORY + 5):
            moves = {"a": (1000 + i - 1, 1000 + i), "b": (1000 - i + 1, 1000 - i)}
            await finish(s, f"t{i}:0", 10000.0 + i, [["a"], ["b"]], moves, {"a": i + 1, "b": i + 1})
        history = await s.history("a", "classic")
        assert len(history) == HISTORY
        assert history[0] == {"at": 10005.0, "rating": 1005}
        assert history[-1] == {"at": 10000.0 + HISTORY + 4, "rating": 1000 + HISTORY + 4}
        assert [m["id"] for m in await s.recent("b", 3)] == [f"t{HISTORY + 4 - i}:0" for i in range(3)]
        assert await s.ratings("b") == {
            "classic": {**held(1000 - HISTORY - 4, HISTORY + 5), "updated": history[-1]["at"]}
        }

    play(scenario)


def test_leaderboards_of_all_time_and_of_the_week(play: Play) -> None:
    async def scenario(s: PlayerStore) -> None:
        tags = await people(s, "a", "b", "c", "d", "e")
        # Last week.
        await finish(s, "l1:0", MONDAY - 3600, [["a"], ["b"]], {"a": (1000, 1100), "b": (1000, 950)})
        await finish(s, "l2:0", MONDAY - 7200, [["d"], ["e"]], {"d": (1000, 1100), "e": (1000, 900)})
        # This week (from its first instant).
        await finish(s, "w1:0", MONDAY, [["a"], ["c"]], {"a": (1100, 1150), "c": (1000, 1100)}, {"a": 2})
        await finish(s, "w2:0", MONDAY + DAY, [["b"], ["d"]], {"b": (950, 1050), "d": (1100, 1150)}, {"b": 2, "d": 2})
        await finish(s, "w3:0", MONDAY + 2 * DAY, [["e"], ["c"]])  # not rated
        await finish(s, "w4:0", MONDAY + 3 * DAY, [["e"], ["c"]], {"e": (1000, 1300)}, game="coinche")

        def row(p: str, rating: int, matches: int, gained: int | None = None) -> dict[str, Any]:
            out: dict[str, Any] = {"player": p, "name": NAMES[p], "tag": tags[p], "rating": rating, "matches": matches}
            return out if gained is None else {**out, "gained": gained}

        # All time: by rating, a tie by id.
        everyone = [row("a", 1150, 2), row("d", 1150, 2), row("c", 1100, 1), row("b", 1050, 2), row("e", 900, 1)]
        assert await s.leaderboard("classic", None, 50) == everyone
        for limit in (1, 2, 3):
            assert await s.leaderboard("classic", None, limit) == everyone[:limit]
        assert await s.leaderboard("coinche", None, 50) == [row("e", 1300, 1)]
        assert await s.leaderboard("two", None, 50) == []

        # This week: by the rating won, then by rating, then by id; only rated matches count.
        week = [row("c", 1100, 1, 100), row("b", 1050, 1, 100), row("a", 1150, 1, 50), row("d", 1150, 1, 50)]
        assert await s.leaderboard("classic", MONDAY, 50) == week
        for limit in (1, 2, 3):
            assert await s.leaderboard("classic", MONDAY, limit) == week[:limit]
        assert await s.leaderboard("coinche", MONDAY, 50) == [row("e", 1300, 1, 300)]
        assert await s.leaderboard("classic", MONDAY + 7 * DAY, 50) == []
        # Since last week: both weeks.
        two_weeks = [
            row("a", 1150, 2, 150),
            row("d", 1150, 2, 150),
            row("c", 1100, 1, 100),
            row("b", 1050, 2, 50),
            row("e", 900, 1, -100),
        ]
        assert await s.leaderboard("classic", MONDAY - 7 * DAY, 50) == two_weeks
        assert await s.leaderboard("classic", MONDAY - 7 * DAY, 1) == two_weeks[:1]

    play(scenario)


def test_a_file_written_before_the_weekly_totals_sums_them_when_opened(tmp_path: Path) -> None:
    """A file whose rated matches were kept before ``week_gains`` existed (emptied here): opening it
    sums them once, and the weekly board is the one the matches give."""
    path = tmp_path / "old.sqlite3"

    async def write() -> dict[str, int]:
        file = SQLiteStore(path)
        s = SQLitePlayers(file)
        tags = await people(s, "a", "b", "c")
        await finish(s, "l1:0", MONDAY - 3600, [["a"], ["b"]], {"a": (1000, 1100), "b": (1000, 950)})
        await finish(s, "w1:0", MONDAY + DAY, [["a"], ["c"]], {"a": (1100, 1130), "c": (1000, 1080)})
        await finish(s, "w2:0", MONDAY + 2 * DAY, [["a"], ["b"]], {"a": (1130, 1150), "b": (950, 940)})
        with file.transaction() as db:
            db.execute("DELETE FROM week_gains")
        file.close()
        return tags

    async def read() -> list[dict[str, Any]]:
        file = SQLiteStore(path)
        try:
            s = SQLitePlayers(file)
            with file.reading() as db:
                # a and b last week; a, b and c this one
                assert db.execute("SELECT count(*) FROM week_gains").fetchone() == (5,)
            return await s.leaderboard("classic", MONDAY, 50)
        finally:
            file.close()

    tags = run(write())
    rows = run(read())
    assert [(r["player"], r["gained"], r["matches"]) for r in rows] == [("c", 80, 1), ("a", 50, 2), ("b", -10, 1)]
    assert [r["tag"] for r in rows] == [tags["c"], tags["a"], tags["b"]]


# ----------------------------------------------------------------- friends and blocks


def test_friends_and_blocks(play: Play) -> None:
    async def scenario(s: PlayerStore) -> None:
        await people(s, "a", "b", "c")
        none: dict[str, list[str]] = {"friends": [], "asked": [], "asking": []}
        await s.add_friend("a", "b")
        await s.add_friend("a", "b")
        assert await s.friends("a") == {**none, "asked": ["b"]}
        assert await s.friends("b") == {**none, "asking": ["a"]}
        await s.add_friend("b", "a")
        assert await s.friends("a") == {**none, "friends": ["b"]}
        assert await s.friends("b") == {**none, "friends": ["a"]}
        await s.add_friend("c", "a")
        assert await s.friends("a") == {"friends": ["b"], "asked": [], "asking": ["c"]}
        await s.remove_friend("b", "a")  # both ways
        assert await s.friends("a") == {**none, "asking": ["c"]}
        assert await s.friends("b") == none

        await s.add_friend("a", "b")
        await s.add_friend("b", "a")
        await s.block("a", "b")  # ends the friendship, both ways
        await s.block("a", "b")
        assert await s.friends("a") == {**none, "asking": ["c"]} and await s.friends("b") == none
        assert await s.blocked("a") == ["b"] and await s.blocked("b") == []
        await s.block("a", "c")
        assert await s.friends("a") == none and await s.friends("c") == none
        assert await s.blocked("a") == ["b", "c"]
        await s.unblock("a", "b")
        await s.unblock("a", "ghost")
        assert await s.blocked("a") == ["c"]

        with pytest.raises(MISSING):
            await s.add_friend("a", "ghost")
        with pytest.raises(MISSING):
            await s.block("a", "ghost")
        await s.remove_friend("a", "ghost")
        assert await s.friends("a") == none and await s.blocked("a") == ["c"]
        assert await s.friends("ghost") == none and await s.blocked("ghost") == []

    play(scenario)


# ----------------------------------------------------------------- deletion

ALICE, BOB, CARA, DAN, EVE = "Alice_q9Z-id", "Bob_k3D-id", "Cara_w7P-id", "Dan_x2M-id", "Eve_j5T-id"


def anonymous(match: dict[str, Any], *gone: str) -> dict[str, Any]:
    """``match`` as the others keep it once the players ``gone`` are deleted, written out."""
    sides = [
        [{**seat, "name": NEUTRAL_NAME, "player": None} if seat["player"] in gone else seat for seat in side]
        for side in match["sides"]
    ]
    out = {**match, "sides": sides}
    if "changes" in match:
        out["changes"] = {p: c for p, c in match["changes"].items() if p not in gone}
    return out


def test_an_analysed_deal_adds_to_the_statistics_once(play: Play) -> None:
    async def scenario(s: PlayerStore) -> None:
        await s.add_player(ALICE, "Alice", "alice", "secret-a", 100.0)
        cost = {"analysed_cards": 8, "dd_cost_tenths": 35}
        assert await s.add_analysis(ALICE, "classic", "deal-1:S", cost)
        assert not await s.add_analysis(ALICE, "classic", "deal-1:S", cost)  # the same deal again
        assert await s.add_analysis(ALICE, "classic", "deal-2:S", {"analysed_cards": 7, "dd_cost_tenths": 0})
        assert await s.stats(ALICE) == {"classic": {"analysed_cards": 15, "dd_cost_tenths": 35}}
        assert not await s.add_analysis("nobody", "classic", "deal-1:S", cost)
        assert await s.stats("nobody") == {}

    play(scenario)


def test_a_deleted_player_leaves_nothing_that_names_them(play: Play) -> None:
    async def scenario(s: PlayerStore) -> None:
        for p, name in ((ALICE, "Alice"), (BOB, "Bob"), (CARA, "Cara"), (DAN, "Dan"), (EVE, "Eve")):
            NAMES[p] = name
            await s.add_player(p, name, name.lower(), f"secret-{p}", 100.0)
        tag = (await s.player(ALICE) or {})["tag"]
        await s.add_secret(ALICE, "phone")
        await s.set_password(ALICE, "$argon2id$hash")
        await s.add_transfer("code", ALICE, MONDAY + 7 * DAY)
        m1 = await finish(
            s,
            "t1:0",
            MONDAY + 10,
            [[ALICE, None], [BOB, None]],
            {ALICE: (1000, 1060), BOB: (1000, 940)},
            stats={ALICE: {"deals": 3}, BOB: {"deals": 3}},
            records='{"deal": 1}\n',
        )
        m2 = await finish(
            s, "t2:0", MONDAY + 20, [[ALICE, None], [None, None]], stats={ALICE: {"deals": 2}}, records='{"deal": 2}\n'
        )  # hers alone
        assert await s.match("t2:0") == m2 and await s.match_records("t2:0") == '{"deal": 2}\n'
        m3 = await finish(s, "t3:0", MONDAY + 30, [[BOB], [CARA]], {BOB: (940, 990), CARA: (1000, 950)}, {BOB: 2})
        m4 = await finish(
            s, "t4:0", MONDAY + 40, [[ALICE], [CARA]], {ALICE: (1000, 1030), CARA: (1000, 970)}, game="coinche"
        )
        await s.add_stats(ALICE, "two", {"deals": 1})
        assert await s.add_analysis(ALICE, "classic", "deal-1:S", {"analysed_cards": 8, "dd_cost_tenths": 35})
        await s.add_friend(ALICE, BOB)
        await s.add_friend(BOB, ALICE)
        await s.add_friend(CARA, ALICE)
        await s.add_friend(ALICE, DAN)
        await s.block(ALICE, EVE)
        await s.block(EVE, ALICE)
        assert await leftovers(s, ALICE)  # the search finds what there is

        await s.delete_player(ALICE)
        assert await leftovers(s, ALICE) == []
        assert await s.player(ALICE) is None and await s.by_handle("alice", tag) is None
        assert await s.by_secret(f"secret-{ALICE}") is None and await s.by_secret("phone") is None
        assert await s.take_transfer("code", MONDAY) is None
        assert await s.ratings(ALICE) == {} and await s.stats(ALICE) == {} and await s.recent(ALICE, 10) == []
        assert await s.history(ALICE, "classic") == [] and await s.friends(ALICE) == {
            "friends": [],
            "asked": [],
            "asking": [],
        }

        # The others keep their matches, with a seat of nobody.
        kept = anonymous(m1, ALICE)
        assert kept["sides"][0][0] == {"seat": "N", "name": "Player", "player": None, "bot": None}
        assert kept["changes"] == {BOB: {"before": 1000, "after": 940}}
        assert await s.recent(BOB, 10) == [m3, kept]
        assert await s.match("t1:0") == kept and await s.match_records("t1:0") == '{"deal": 1}\n'
        assert await s.match("t2:0") is None and await s.match_records("t2:0") is None  # nobody else kept it
        assert await s.match_records("t3:0") is None  # kept without records
        assert await s.recent(CARA, 10) == [anonymous(m4, ALICE), m3]
        assert [r["player"] for r in await s.leaderboard("classic", None, 10)] == [BOB, CARA]
        assert [r["player"] for r in await s.leaderboard("classic", MONDAY, 10)] == [BOB, CARA]
        assert [r["player"] for r in await s.leaderboard("coinche", None, 10)] == [CARA]
        assert await s.leaderboard("coinche", MONDAY, 10) == [
            {
                "player": CARA,
                "name": "Cara",
                "tag": (await s.player(CARA) or {})["tag"],
                "rating": 970,
                "matches": 1,
                "gained": -30,
            }
        ]
        nobody: dict[str, list[str]] = {"friends": [], "asked": [], "asking": []}
        for p in (BOB, CARA, DAN, EVE):
            assert await s.friends(p) == nobody and await s.blocked(p) == []
        await s.delete_player(ALICE)  # once more: nothing
        await s.delete_player("nobody")
        assert await s.recent(BOB, 10) == [m3, kept]

    play(scenario)


def test_players_deleted_at_once_leave_the_others_match_whole(play: Play) -> None:
    async def scenario(s: PlayerStore, twin: PlayerStore) -> None:
        for p, name in ((BOB, "Bob"), (CARA, "Cara"), (DAN, "Dan")):
            NAMES[p] = name
            await s.add_player(p, name, name.lower(), f"secret-{p}", 100.0)
        m1 = await finish(s, "t1:0", 1000.0, [[BOB, DAN], [CARA, None]], {BOB: (1000, 1010), CARA: (1000, 990)})
        m2 = await finish(s, "t2:0", 2000.0, [[BOB], [CARA]], {BOB: (1010, 1020), CARA: (990, 980)})
        await s.add_friend(BOB, CARA)
        await s.add_friend(CARA, BOB)
        await asyncio.gather(s.delete_player(BOB), twin.delete_player(CARA))
        assert await leftovers(s, BOB) == [] and await leftovers(s, CARA) == []
        assert await s.recent(DAN, 10) == [anonymous(m1, BOB, CARA)]
        assert await leftovers(s, m2["id"]) == []  # nobody keeps it: gone

    play.two(scenario)
