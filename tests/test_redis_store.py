"""Nothing of a ``--redis`` server lives only in one process, and a Redis that restarts empty or is
out of reach for a while corrupts nothing: against a real ``redis-server``.

- the score sheets are in Redis: two apps on one Redis see one sheet, and a change that another
  process made meanwhile is read again, never lost;
- a change that does not follow the stored log (Redis came back empty) writes nothing, and the table
  is written back whole: killed and restarted empty mid-game, the tables play on (on one process, and
  on two with people on both) and their stored logs replay to what the players saw;
- a replica that catches up with what another process wrote tells its clients and wakes its driver,
  whichever catch-up finds it (a lease taken over, a write-back, a change refused after its sync);
  and when a process's notes come back, who sits where is told again;
- while Redis is down the page loads, and what needs Redis is refused with ``store_unreachable``.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio as aioredis
from starlette.testclient import TestClient
from websockets.asyncio.client import connect

from belote.game import Refusal, action_str, parse_action
from belote.server.app import create_app
from belote.server.hub import StoreLost
from belote.server.manager import TableManager
from belote.server.matchmaking import Matchmaker
from belote.server.redis_hub import RedisBus, RedisLink, RedisSheets, RedisTables, redis_hub
from belote.server.room import Act, Start, check_settings
from belote.server.store import SQLiteStore
from belote.server.tables import Client, ServerConfig, Table
from netplay import (
    Player,
    RedisProcess,
    Server,
    State,
    events_seen,
    match_over,
    post,
    private_table,
    redis_replayed,
    redis_server,
    run,
)

QUICK = {"strength": "easy", "turn_timer": 600, "deals": 2}


# ----------------------------------------------------------------- score sheets


def test_two_apps_on_one_redis_keep_one_score_sheet(tmp_path: Path) -> None:
    with redis_server(tmp_path) as url:
        a = create_app(db_path=tmp_path / "a.sqlite3", redis_url=url)
        b = create_app(db_path=tmp_path / "b.sqlite3", redis_url=url)
        with TestClient(a) as on_a, TestClient(b) as on_b:
            made = on_a.post("/api/sheets", json={"names": ["Alice & Cara", "Ben & Dev"], "target": 1000})
            assert made.status_code == 201, made.text
            sheet_id = made.json()["id"]
            first = on_b.post(f"/api/sheets/{sheet_id}/deals", json={"takers": "NS", "cards": 108, "belote": "NS"})
            assert first.status_code == 200 and first.json()["score"] == {"NS": 128, "EW": 54}
            second = on_a.post(f"/api/sheets/{sheet_id}/deals", json={"takers": "EW", "cards": 74, "seen": 1})
            assert second.status_code == 200 and second.json()["score"] == {"NS": 290, "EW": 54}
            stale = on_b.post(f"/api/sheets/{sheet_id}/undo", json={"seen": 1})
            assert stale.status_code == 409 and stale.json()["code"] == "stale"
            seen_by_b = on_b.get(f"/api/sheets/{sheet_id}").json()
            assert seen_by_b["score"] == {"NS": 290, "EW": 54} and len(seen_by_b["entries"]) == 2
            assert seen_by_b["names"] == {"NS": "Alice & Cara", "EW": "Ben & Dev"}
        # No process's own file holds it.
        for name in ("a.sqlite3", "b.sqlite3"):
            store = SQLiteStore(tmp_path / name)
            assert store.sheet_ids() == []
            store.close()


def test_a_sheet_changed_meanwhile_by_another_process_is_read_again(tmp_path: Path) -> None:
    with redis_server(tmp_path) as url:
        other = redis.Redis.from_url(url, decode_responses=True)
        runs: list[list[str]] = []

        def add(name: str) -> Any:
            def change(data: dict[str, Any]) -> dict[str, Any]:
                runs.append(list(data["entries"]))
                if len(runs) == 1:  # another process writes between this one's read and its write
                    other.set("belote:sheet:s1", json.dumps({"entries": [*data["entries"], "theirs"]}))
                return {"entries": [*data["entries"], name]}

            return change

        async def main() -> dict[str, Any] | None:
            client = aioredis.Redis.from_url(url, decode_responses=True)
            sheets = RedisSheets(client)
            await sheets.create_sheet("s1", {"entries": []})
            done = await sheets.change_sheet("s1", add("mine"))
            assert await sheets.change_sheet("nope", add("x")) is None
            await client.aclose()
            return done

        done = run(main())
        assert runs == [[], ["theirs"]]  # read again after the other write, never written over it
        assert done == {"entries": ["theirs", "mine"]}
        assert json.loads(other.get("belote:sheet:s1") or "") == {"entries": ["theirs", "mine"]}
        other.close()


# ----------------------------------------------------------------- Redis restarted empty


def test_a_change_that_does_not_follow_the_stored_log_writes_nothing(tmp_path: Path) -> None:
    with redis_server(tmp_path) as url:
        r = redis.Redis.from_url(url, decode_responses=True)

        async def main() -> list[str]:
            link = RedisLink.connect(url)
            hub, bus = RedisTables(link), RedisBus(link)
            said: list[str] = []
            assert not await bus.check_epoch()  # the first look: nothing lost
            await hub.commit("t1", {"game": 0}, True, 0, [], False)
            await hub.commit("t1", None, True, 0, ["pass", "pass"], False)
            await hub.commit("t1", None, True, 2, ["take"], False)
            with pytest.raises(StoreLost):  # another process wrote action 3 meanwhile: not 2 stored
                await hub.commit("t1", None, True, 2, ["pass"], False)
            said.append(",".join(r.lrange("belote:t:t1:actions", 0, -1)))
            r.flushall()  # as a Redis restarted without persistence
            assert await bus.check_epoch() and not await bus.check_epoch()  # told once
            for meta in (None, {"game": 0, "version": 2}):
                with pytest.raises(StoreLost):
                    await hub.commit("t1", meta, True, 3, ["pass"], False)
            said.append(",".join(sorted(r.keys("belote:t:*"))))
            assert await hub.write_back("t1", {"game": 0}, True, ["pass", "pass", "take"])  # the store lost it
            assert await hub.write_back("t1", {"game": 0}, True, ["pass", "pass", "take", "pass"])  # a replica ahead
            assert not await hub.write_back("t1", {"game": 0}, True, ["pass", "take"])  # another history
            assert not await hub.write_back("t1", {"game": 0}, True, ["pass", "pass", "take"])  # one behind
            said.append(",".join(r.lrange("belote:t:t1:actions", 0, -1)))
            # The same log: only a later meta is written (a replica behind on an ack must not undo it).
            log = ["pass", "pass", "take", "pass"]
            assert await hub.write_back("t1", {"game": 0, "version": 5, "acks": [0, 1]}, True, log)
            assert not await hub.write_back("t1", {"game": 0, "version": 4, "acks": [0]}, True, log)
            assert not await hub.write_back("t1", {"game": 0, "version": 5, "acks": [1]}, True, log)
            said.append(r.get("belote:t:t1:meta") or "")
            await link.close()
            return said

        assert run(main()) == [
            "pass,pass,take",
            "",
            "pass,pass,take,pass",
            json.dumps({"game": 0, "version": 5, "acks": [0, 1]}),
        ]
        assert r.smembers("belote:active") == {"t1"}
        r.close()


def test_a_table_whose_change_finds_the_store_empty_writes_itself_back_whole(tmp_path: Path) -> None:
    with redis_server(tmp_path) as url:
        r = redis.Redis.from_url(url, decode_responses=True)

        async def main() -> tuple[str, list[str], list[str]]:
            hub = redis_hub(RedisLink.connect(url), watch_epoch=False)  # the change itself must find the loss
            manager = TableManager(hub, ServerConfig(turn_timer=600))
            settings = check_settings({"deals": 2}, manager.defaults())
            table, _ = await manager.create_private("Host", 2, settings)
            for name in ("Nina", "Emil", "Wes"):
                await manager.sit(table.id, table.meta.invite, name, None)
            await table.mutate(Start(2))
            for _ in range(6):
                match = table.match
                assert match is not None and match.to_move is not None
                await table.mutate(Act(match.to_move, match.legal_actions()[-1]))
            r.flushall()  # as a Redis restarted without persistence
            for _ in range(3):
                match = table.match
                assert match is not None and match.to_move is not None
                await table.mutate(Act(match.to_move, match.legal_actions()[-1]))
            assert table.match is not None
            played = [action_str(a) for a in table.match.actions]
            await manager.close()
            await hub.close()
            return table.id, played, list(r.lrange(f"belote:t:{table.id}:actions", 0, -1))

        table_id, played, stored = run(main())
        assert len(played) == 9 and stored == played  # the whole log, from its first action
        assert [action_str(a) for a in redis_replayed(redis.Redis.from_url(url), table_id).actions] == played
        assert r.sismember("belote:active", table_id)
        r.close()


def first_legal(table: Table) -> str:
    """The first legal action of whoever is to move, as text: any will do, the game is seeded."""
    assert table.match is not None
    return action_str(table.match.legal_actions()[0])


def test_a_replica_that_catches_up_tells_its_clients_and_wakes_its_driver(tmp_path: Path) -> None:
    # Two people (South on A, North on B) and two bots. Neither process reads its notes here, as when
    # they were lost while Redis was away: each catch-up below is the only one to see what the other
    # process wrote, so it must tell the clients of its process and wake its driver, or the table
    # stalls (the later note of that change finds nothing new). Each of the three fails without it.
    with redis_server(tmp_path) as url:
        r = redis.Redis.from_url(url, decode_responses=True)

        async def main() -> list[tuple[str, int, int]]:
            hubs = [redis_hub(RedisLink.connect(url)) for _ in range(2)]
            for hub in hubs:
                assert isinstance(hub.bus, RedisBus)
                for task in hub.bus._tasks:
                    task.cancel()
            a, b = (TableManager(hub, ServerConfig(pace=0.0, turn_timer=600)) for hub in hubs)
            heard = {"A": asyncio.Queue[dict[str, Any]](), "B": asyncio.Queue[dict[str, Any]]()}

            def client(seat: int, where: str) -> Client:
                async def send(msg: Any) -> None:
                    heard[where].put_nowait(json.loads(msg) if isinstance(msg, str) else msg)

                return Client(seat, send)

            async def a_person_to_move(where: str) -> dict[str, Any]:
                """The first state ``where`` hears in which a person is to move (the bots moved up to it)."""
                while True:
                    state = await asyncio.wait_for(heard[where].get(), 30)
                    if state["view"] is not None and state["view"]["to_move"] in ("S", "N"):
                        return state

            settings = check_settings({"deals": 2, "strength": "easy"}, a.defaults())
            on_a, _ = await a.create_private("Host", 2, settings)
            await a.sit(on_a.id, on_a.meta.invite, "Nina", "N")
            on_a.meta.seed = 5  # a game that always goes the same way (start writes the meta whole)
            on_a.clients.append(client(2, "A"))
            await on_a.mutate(Start(2))
            await a_person_to_move("A")
            on_b = await b.get(on_a.id)
            assert on_b is not None and not on_b.driving  # A holds the lease
            on_b.clients.append(client(0, "B"))
            seen: list[tuple[str, int, int]] = []

            # B takes the lease over (A's has gone) after a person's action and the bots' answers on A.
            assert on_a.match is not None and on_a.match.to_move is not None
            await on_a.mutate(Act(on_a.match.to_move, parse_action(first_legal(on_a))))
            on_a_now = await a_person_to_move("A")
            await on_a.stop()
            r.delete(f"belote:t:{on_a.id}:lease")
            await b.hold_leases()
            assert on_b.driving
            on_b_now = await asyncio.wait_for(heard["B"].get(), 30)
            seen.append((on_b_now["view"]["to_move"], on_b_now["last"], on_a_now["last"]))

            # A person's action on A, then one on B that the sync under B's lock finds stale: refused.
            assert on_b.match is not None and on_b.match.to_move is not None
            person, action = on_b.match.to_move, first_legal(on_b)
            await on_a.mutate(Act(person, parse_action(action)))
            with pytest.raises(Refusal):
                await on_b.mutate(Act(person, parse_action(action)))
            on_b_now = await a_person_to_move("B")  # told, and B's driver woke: its bots answered
            seen.append((on_b_now["view"]["to_move"], on_b_now["last"], len(on_b.match.events()) - 1))

            # Redis restarts empty after a person's action on A: A writes the table back, B catches up.
            await on_a.sync()
            assert on_a.match is not None and on_a.match.to_move is not None
            await on_a.mutate(Act(on_a.match.to_move, parse_action(first_legal(on_a))))
            r.flushall()
            for manager in (a, b):
                await manager._on_note("", {"kind": "store_lost"})
            on_b_now = await a_person_to_move("B")  # B's driver woke: its bots answered
            seen.append((on_b_now["view"]["to_move"], on_b_now["last"], len(on_b.match.events()) - 1))
            for manager in (a, b):
                await manager.close()
            for hub in hubs:
                await hub.close()
            return seen

        assert run(main()) == [("S", 4, 4), ("N", 6, 6), ("S", 10, 10)]
        r.close()


def test_who_is_at_a_table_is_told_again_when_the_notes_come_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A solo table driven by A, its person's socket on B. A takes the table over while B hears no
    # notes (its connection to Redis away): A's question "who is there" is lost, and the bots wait for
    # a person A never heard of, until B's notes come back and B says again where its sockets are.
    monkeypatch.setattr("belote.server.manager.secrets.randbelow", lambda n: 6)  # the same game each time, West first
    with redis_server(tmp_path) as url:

        async def main() -> list[tuple[str, int, int]]:
            hubs = [redis_hub(RedisLink.connect(url)) for _ in range(2)]
            assert isinstance(hubs[1].bus, RedisBus)
            for task in hubs[1].bus._tasks:  # B reads no notes
                task.cancel()
            a, b = (TableManager(hub, ServerConfig(pace=0.0, turn_timer=600)) for hub in hubs)
            watched: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

            async def watch(msg: Any) -> None:
                watched.put_nowait(json.loads(msg) if isinstance(msg, str) else msg)

            async def the_persons_turn() -> tuple[str, int, int]:
                """The first state A's spectator hears in which the person is to move, and A's last event."""
                while True:
                    state = await asyncio.wait_for(watched.get(), 30)
                    if state["view"]["to_move"] == "S":
                        assert on_a.match is not None
                        return state["view"]["to_move"], state["last"], len(on_a.match.events()) - 1

            async def quiet(msg: Any) -> None:
                pass

            on_a, token, seat = await a.create_solo(check_settings({"deals": 2, "strength": "easy"}, a.defaults()))
            on_a.clients.append(Client(None, watch))  # a spectator on A: not a person
            on_b = await b.get(on_a.id)
            assert on_b is not None and seat == 2
            on_b.clients.append(Client(seat, quiet, token=token))
            await on_b.presence()  # heard by A: its bots play up to the person's turn
            seen = [await the_persons_turn()]
            await on_a.stop()
            await on_a.take_over()  # its question is lost: B hears no notes
            await on_b.mutate(Act(seat, parse_action(first_legal(on_b))))
            await b._on_note("", {"kind": "resync"})  # B's notes are back
            seen.append(await the_persons_turn())  # A heard of B's person again: its bots answered
            for manager in (a, b):
                await manager.close()
            for hub in hubs:
                await hub.close()
            return seen

        assert run(main()) == [("S", 4, 4), ("S", 8, 8)]


@pytest.mark.parametrize("processes", [1, 2])
def test_tables_play_on_when_redis_restarts_empty_mid_game(tmp_path: Path, processes: int) -> None:
    store = RedisProcess(tmp_path)
    store.start()
    args = ("--pace", "0", "--turn-timer", "600", "--redis", store.url)
    servers = [Server(tmp_path / f"{name}.sqlite3", tmp_path / f"{name}.log", *args) for name in "ab"[:processes]]
    for server in servers:
        server.start()
    a, b = servers[0], servers[-1]
    try:
        # Four people (made on A); two people and two bots (made on B); one person and three bots
        # (made on A, the person on B). With two processes every table has people (or its driver)
        # on both, and after the restart either process may take each table's lease.
        four, four_tokens = private_table(a.base, 4, QUICK)
        two, two_tokens = private_table(b.base, 2, QUICK)
        solo = post(a.base, "/api/solo", {"strength": "easy", "deals": 2})
        urls = [server.ws_url for server in servers]

        def tricks_done(n: int) -> Any:
            def done(state: State) -> bool:
                view = state["view"]
                return view is not None and (len(view["tricks"]) >= n or view["match_over"])

            return done

        async def play() -> tuple[list[Player], list[State]]:
            players = [
                Player(urls[i % processes], four["table"], token=tok, seed=i)
                for i, tok in enumerate(four_tokens.values())
            ]
            players += [
                Player(urls[i % processes], two["table"], token=tok, seed=9 + i)
                for i, tok in enumerate(two_tokens.values())
            ]
            for p in players:
                await p.connect()
            await players[0].send({"type": "start"})
            await players[4].send({"type": "start"})
            players.append(Player(b.ws_url, solo["table"], token=solo["token"], seed=7))
            await asyncio.gather(*(p.play(tricks_done(3)) for p in players))
            store.kill()
            store.start()  # empty: no persistence
            ends = await asyncio.gather(*(p.play(match_over) for p in players))
            for p in players:
                await p.close()
            return players, list(ends)

        players, ends = run(play())
        r = redis.Redis.from_url(store.url)
        for table_id in (four["table"], two["table"], solo["table"]):
            match = redis_replayed(r, table_id)  # the stored log replays from its first action
            assert match.over
            at_table = [p for p in players if p.table == table_id]
            for p in at_table:
                assert not p.errors, p.errors
                seen = events_seen(p)
                assert sorted(seen) == list(range(len(seen)))  # no number missing
                assert [[n, e] for n, e in match.events()] == [[n, seen[n]] for n in sorted(seen)]
            final = [s for s, p in zip(ends, players, strict=True) if p.table == table_id]
            score = dict(zip(final[0]["view"]["score"], match.score, strict=True))
            assert all(s["view"]["score"] == score for s in final)
        r.close()
    finally:
        for server in servers:
            server.stop()
        store.kill()


def test_the_players_waiting_in_the_queue_are_put_back_when_redis_restarts_empty(tmp_path: Path) -> None:
    """Ana waits on one process for a two-handed game; Redis loses everything; Ben then queues on the
    other process for the same game: they are seated together, Ana with the time she joined."""
    with redis_server(tmp_path) as url:
        r = redis.Redis.from_url(url, decode_responses=True)

        async def main() -> tuple[list[Any], list[Any], list[float]]:
            heard: dict[str, list[Any]] = {"Ana": [], "Ben": []}
            matched = {name: asyncio.Event() for name in heard}

            def to(name: str) -> Any:
                async def send(msg: Any) -> None:
                    heard[name].append(msg)
                    if msg["type"] == "matched":
                        matched[name].set()

                return send

            hubs = [redis_hub(RedisLink.connect(url)) for _ in range(2)]
            for hub in hubs:
                assert isinstance(hub.bus, RedisBus)
                await hub.bus.check_epoch()  # each process has seen the store's generation
            managers = [TableManager(hub, ServerConfig(pace=0.0)) for hub in hubs]
            makers = [Matchmaker(hub, m, wait=600.0) for hub, m in zip(hubs, managers, strict=True)]
            lost = asyncio.Event()

            async def heard_loss(table_id: str, note: dict[str, Any]) -> None:
                if note.get("kind") == "store_lost":  # after the matchmaker's own listener
                    lost.set()

            hubs[0].bus.listen(heard_loss)
            await makers[0].join("Ana", to("Ana"), "two-handed")
            joined = [d["joined"] for d in (await hubs[0].queue.entries()).values()]
            r.flushall()  # as a Redis restarted without persistence
            async with asyncio.timeout(60):  # a failure's bound: the epoch is read every second
                await lost.wait()
                again = [d["joined"] for d in (await hubs[1].queue.entries()).values()]
                await makers[1].join("Ben", to("Ben"), "two-handed")
                await matched["Ana"].wait()
                await matched["Ben"].wait()
            for manager, hub in zip(managers, hubs, strict=True):
                await manager.close()
                await hub.close()
            return heard["Ana"], heard["Ben"], joined + again

        ana, ben, joined = run(main())
        assert [m["type"] for m in ana] == ["queue", "matched"] and [m["type"] for m in ben] == ["matched"]
        assert ana[-1]["table"] == ben[-1]["table"] and {ana[-1]["seat"], ben[-1]["seat"]} == {"N", "E"}
        assert len(joined) == 2 and joined[0] == joined[1]  # back in the queue as she joined
        r.close()


# ----------------------------------------------------------------- Redis out of reach


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def _post(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_the_page_loads_while_redis_is_down_and_a_join_is_refused_with_its_code(tmp_path: Path) -> None:
    store = RedisProcess(tmp_path)
    store.start()
    running = Server(tmp_path / "a.sqlite3", tmp_path / "a.log", "--redis", store.url)
    running.start()
    later = Server(tmp_path / "b.sqlite3", tmp_path / "b.log", "--redis", store.url)
    try:
        table, tokens = private_table(running.base, 1, QUICK)
        store.kill()

        async def join(url: str) -> dict[str, Any]:
            async with connect(url) as ws:
                await ws.send(json.dumps({"type": "join", "table": table["table"], "token": tokens["S"]}))
                msg: dict[str, Any] = json.loads(await ws.recv())
                return msg

        async def needing_redis(server: Server) -> tuple[tuple[int, dict[str, Any]], tuple[int, dict[str, Any]], Any]:
            """A sheet, a table and a join, sent at once: each one waits for Redis as long as its commands
            try again (about 2 s) before it is refused, and the three wait the same two seconds."""
            return await asyncio.gather(
                asyncio.to_thread(_post, server.base + "/api/sheets", {"target": 1000}),
                asyncio.to_thread(_post, server.base + "/api/tables", {"name": "Ana"}),
                join(server.ws_url),
            )

        def check(server: Server) -> None:
            status, page = _get(server.base + "/")
            assert status == 200 and b'<script type="module"' in page
            assert _get(server.base + "/static/app.js")[0] == 200
            assert _get(server.base + "/api/games")[0] == 200
            assert _get(server.base + "/scores")[0] == 200
            (status, sheet), (made, refused), joined = run(needing_redis(server))
            assert status == 503 and sheet["code"] == "store_unreachable"
            assert made == 503 and refused["code"] == "store_unreachable"
            assert refused["error"] == "the game store is out of reach for a moment: play resumes shortly"
            assert joined["code"] == "store_unreachable"

        # A process started while Redis is down starts all the same: it waits for Redis a while as it
        # starts, and the running one is checked meanwhile.
        with ThreadPoolExecutor(1) as starter:
            started = starter.submit(later.start, ready="/")
            check(running)
            started.result()
        check(later)
        store.start()
        status, made = _post(later.base + "/api/tables", {"name": "Ana"})  # Redis is back: served again
        assert status == 200 and made["seat"] == "S"
    finally:
        running.stop()
        later.stop()
        store.kill()
