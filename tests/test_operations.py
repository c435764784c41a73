"""Running a server: ``GET /metrics``, log records that name their table, tables loaded on demand,
a solo table's bots waiting for their person, and tables that expire (with a clock the test moves)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.game import parse_action
from belote.server.app import create_app
from belote.server.hub import local_hub
from belote.server.logs import JsonFormatter, TableField
from belote.server.manager import TableManager
from belote.server.metrics import Metrics
from belote.server.redis_hub import RedisLink, RedisTables
from belote.server.room import DEFAULT_SETTINGS, Act, Meta, Seat, bot_seat
from belote.server.store import Checkpointer, SQLiteStore
from belote.server.tables import Client, ServerConfig, Table
from netplay import Player, State, free_port, post, redis_server, run, serve_in_thread

FAST = {"strength": "easy", "speed": "fast"}
DAY = 24 * 3600.0

Series = dict[tuple[str, frozenset[tuple[str, str]]], float]
LINE = re.compile(r"^([a-z_]+)(?:\{(.*)\})? (\S+)$")


def parse_metrics(text: str) -> Series:
    """Prometheus' text format: every sample by its name and labels; the HELP and TYPE of each name checked."""
    out: Series = {}
    typed: set[str] = set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            typed.add(line.split()[2])
            continue
        if line.startswith("#") or not line:
            continue
        m = LINE.match(line)
        assert m, f"not a sample: {line!r}"
        name, labels, value = m.groups()
        pairs = frozenset(re.findall(r'([a-z_]+)="([^"]*)"', labels or ""))
        assert re.sub(r"_(bucket|sum|count)$", "", name) in typed or name in typed, name
        out[(name, pairs)] = float(value)
    return out


def sample(series: Series, name: str, **labels: str) -> float:
    return series.get((name, frozenset(labels.items())), 0.0)


def with_name(series: Series, name: str) -> dict[frozenset[tuple[str, str]], float]:
    return {labels: v for (n, labels), v in series.items() if n == name}


def receive(ws: Any, kind: str = "state") -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg


def my_turn(ws: Any) -> dict[str, Any]:
    """The next state where the person must act or read the score: the bots of a solo table then wait."""
    while True:
        state = receive(ws)
        if state["view"]["legal"] or state["waiting"] == "continue":
            return state


pytestmark = pytest.mark.app_config(pace=0.0)


# ----------------------------------------------------------------- /metrics
def test_metrics_count_a_scripted_game(client: TestClient, db: Path) -> None:
    first = parse_metrics(client.get("/metrics").text)
    assert client.get("/metrics").headers["content-type"].startswith("text/plain; version=0.0.4")
    assert with_name(first, "belote_refusals_total") == {}
    assert sample(first, "belote_tables", state="playing", kind="solo") == 0
    assert sample(first, "belote_action_seconds_count") == 0

    table = client.post("/api/solo", json=FAST).json()
    assert client.post("/api/solo", json={"strength": "godlike"}).status_code == 400
    acts = 0
    with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as waiting:
        ws.send_json({"type": "join", "table": table["table"], "token": "not the token"})
        assert receive(ws, "error")["code"] == "no_such_table"
        ws.send_json({"type": "join", "table": table["table"], "token": table["token"]})
        state = my_turn(ws)
        ws.send_json({"type": "act", "action": "ZZ"})
        assert receive(ws, "error")["code"] == "not_an_action"
        while acts < 6:
            if state["waiting"] == "continue":
                ws.send_json({"type": "continue"})
            else:
                ws.send_json({"type": "act", "action": state["view"]["legal"][0]})
                acts += 1
            state = my_turn(ws)
        waiting.send_json({"type": "queue", "name": "Ana", "variant": "coinche"})
        receive(waiting, "queue")
        during = parse_metrics(client.get("/metrics").text)
    stored = SQLiteStore(db).load_table(table["table"])
    assert stored is not None
    played = len(stored[1])

    # A refusal counts under its own code and no other.
    assert with_name(during, "belote_refusals_total") == {
        frozenset({("code", "no_such_table")}): 1,
        frozenset({("code", "not_an_action")}): 1,
        frozenset({("code", "bad_setting")}): 1,
    }
    assert sample(during, "belote_tables", state="playing", kind="solo") == 1
    assert sample(during, "belote_tables", state="lobby", kind="private") == 0
    assert sample(during, "belote_websockets") == 2
    assert sample(during, "belote_queue_waiting", game="coinche") == 1
    assert sample(during, "belote_queue_waiting", game="classic") == 0
    # Every action at the table counted; the person's answered ones timed; the bots' decisions timed.
    assert sample(during, "belote_actions_total", kind="solo") == played
    assert sample(during, "belote_action_seconds_count") == acts
    assert sample(during, "belote_action_seconds_bucket", le="+Inf") == acts
    assert sample(during, "belote_bot_decision_seconds_count") == played - acts
    assert with_name(during, "belote_errors_total") == {}
    after = parse_metrics(client.get("/metrics").text)
    assert sample(after, "belote_websockets") == 0


def test_a_server_error_is_counted_and_logged_with_its_table(client: TestClient, monkeypatch: Any) -> None:
    table = client.post("/api/solo", json=FAST).json()
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(TableField())
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("belote")
    logger.addHandler(handler)

    async def broken(table_id: str, line: dict[str, Any]) -> None:
        raise RuntimeError("the store is gone")

    try:
        manager: TableManager = client.app.state.tables  # type: ignore[attr-defined]
        monkeypatch.setattr(manager.hub.store, "add_chat", broken)
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": table["table"], "token": table["token"]})
            receive(ws)
            ws.send_json({"type": "chat", "text": "hello"})
            assert receive(ws, "error")["code"] == "server_error"
    finally:
        logger.removeHandler(handler)
    series = parse_metrics(client.get("/metrics").text)
    assert with_name(series, "belote_errors_total") == {frozenset({("where", "socket")}): 1}
    assert sample(series, "belote_refusals_total", code="server_error") == 1
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    (failed,) = [line for line in lines if line["message"] == "a 'chat' message failed"]
    assert failed["table"] == table["table"] and failed["level"] == "ERROR" and failed["logger"] == "belote.server"
    assert "the store is gone" in failed["exception"]


# ----------------------------------------------------------------- logs
def test_serve_log_format_json_writes_one_object_a_line(tmp_path: Path) -> None:
    port = free_port()
    cmd = [sys.executable, "-m", "belote.cli", "serve", "--port", str(port), "--db", str(tmp_path / "j.sqlite3")]
    proc = subprocess.Popen([*cmd, "--log-format", "json"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "belote serve did not start"
                time.sleep(0.05)
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/solo",
            data=json.dumps(FAST).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            table = json.loads(r.read())["table"]
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    lines = [json.loads(line) for line in err.decode().splitlines()]  # every line is one JSON object
    assert all(set(line) >= {"time", "level", "logger", "message", "table"} for line in lines)
    assert {"level": "INFO", "logger": "belote.tables", "message": "solo table opened", "table": table} in [
        {k: line[k] for k in ("level", "logger", "message", "table")} for line in lines
    ]
    assert lines[0]["table"] is None and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", lines[0]["time"])


# ----------------------------------------------------------------- tables on demand
def test_stored_tables_load_on_demand_not_at_start(app_client: Callable[..., TestClient], db: Path) -> None:
    with app_client(pace=0.0) as c:
        first = c.post("/api/solo", json=FAST).json()
    store = SQLiteStore(db)
    meta, actions = store.load_table(first["table"]) or ({}, [])
    for i in range(5000):
        store.commit(f"stored{i}", meta, True, 0, actions, False)
    store.close()
    with app_client(pace=0.0) as c:
        manager: TableManager = c.app.state.tables  # type: ignore[attr-defined]
        assert manager.tables == {}  # nothing loaded, no bot thinking
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": "stored4321", "token": first["token"]})
            state = my_turn(ws)
            assert state["table"] == "stored4321" and state["seat"] == "S"
            assert list(manager.tables) == ["stored4321"]
            ws.send_json({"type": "join", "table": "stored99999", "token": first["token"]})
            assert receive(ws, "error")["code"] == "no_such_table"


# ----------------------------------------------------------------- a solo table's person away
class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def solo_meta(seed: int) -> Meta:
    """A solo table whose first bid is a bot's: the dealer is North (seed 0), East speaks first."""
    settings = {**DEFAULT_SETTINGS, **FAST}
    seats = {2: Seat("me", "Me"), 0: bot_seat("Léa", "easy"), 1: bot_seat("Hugo", "easy"), 3: bot_seat("Paul", "easy")}
    return Meta("solo", seed, settings, seats)


def test_a_solo_tables_bots_wait_while_its_person_is_away(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = SQLiteStore(tmp_path / "away.sqlite3")
        hub = local_hub(store)
        table = Table("T", solo_meta(0), hub, ServerConfig(pace=0.0))
        assert table.match is not None and table.match.to_move == 1
        assert table.next_job() is None  # East's turn, but nobody to play with: nothing to do
        states: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def send(msg: Any) -> None:
            states.put_nowait(json.loads(msg) if isinstance(msg, str) else msg)

        await hub.store.commit("T", table.meta.to_json(), True, 0, [], False)
        table.start()
        me = Client(2, send, token="me")
        table.clients.append(me)
        await table.presence()
        job = table.next_job()
        assert job is not None and (job.kind, job.seat) == ("bot", 1)
        while True:  # the bots play up to the person's turn
            state = await asyncio.wait_for(states.get(), 30)
            if state["view"]["legal"]:
                break
        table.clients.remove(me)
        await table.presence()
        await table.mutate(
            Act(2, parse_action(state["view"]["legal"][0]))
        )  # a last action before going (a page closing)
        assert table.match.to_move != 2 and table.next_job() is None  # a bot's turn: it waits
        played = table.match.action_count
        table.clients.append(me)
        await table.presence()  # back: the game goes on
        while True:
            state = await asyncio.wait_for(states.get(), 30)
            if state["view"]["legal"] or state["waiting"] == "continue":
                break
        assert table.match.action_count > played
        await table.stop()
        store.close()

    run(scenario())


def test_after_a_restart_the_people_who_do_not_come_back_are_shown_gone(tmp_path: Path) -> None:
    """A server killed mid-deal told nobody that its sockets closed: the table loaded again hears who
    comes back for a moment, then tells the room who did not (and the page shows them gone)."""

    async def scenario() -> None:
        store = SQLiteStore(tmp_path / "restart.sqlite3")
        settings = {**DEFAULT_SETTINGS, **FAST, "turn_timer": 600}
        people = {s: Seat(f"t{s}", name) for s, name in enumerate(["Nina", "Emil", "Hana", "Wes"])}
        meta = Meta("private", 7, settings, people, status="playing", host=2)
        store.commit("P", meta.to_json(), True, 0, [], False)  # as the killed server left it: nobody gone
        manager = TableManager(local_hub(store), ServerConfig(pace=0.0, turn_timer=600))
        table = await manager.get("P")
        assert table is not None and table.driving
        states: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def send(msg: Any) -> None:
            states.put_nowait(json.loads(msg) if isinstance(msg, str) else msg)

        table.clients.append(Client(2, send, token="t2"))  # Hana's page reconnects; nobody else's does
        await table.presence()
        while True:
            state = await asyncio.wait_for(states.get(), 30)
            gone = {seat: p["away"] for seat, p in state["players"].items() if "away" in p}
            if len(gone) == 3:
                break
        assert sorted(gone) == ["E", "N", "W"]
        assert all(590_000 < away["standin_ms"] <= 600_000 for away in gone.values()), gone
        assert sorted(store.load_table("P")[0]["away"]) == ["E", "N", "W"]  # type: ignore[index]
        await manager.close()
        store.close()

    run(scenario())


# ----------------------------------------------------------------- expiry
def test_unused_tables_expire_from_memory_and_the_store(tmp_path: Path) -> None:
    clock = Clock()

    async def scenario() -> None:
        store = SQLiteStore(tmp_path / "expire.sqlite3", clock=clock)
        config = ServerConfig(pace=0.0, expire_after=7 * DAY, expire_solo_after=DAY, forget_after=60.0)
        manager = TableManager(local_hub(store), config, Metrics(), clock=clock)
        solo, _, _ = await manager.create_solo({**DEFAULT_SETTINGS, **FAST})
        watched, _, _ = await manager.create_solo({**DEFAULT_SETTINGS, **FAST})
        private, _ = await manager.create_private("Host", 2, {**DEFAULT_SETTINGS, **FAST})

        async def quiet(_: Any) -> None:
            pass

        watched.clients.append(Client(None, quiet))  # a spectator's socket keeps it
        clock.now += 59
        assert await manager.forget_idle() == []
        clock.now += 2  # a minute unused: out of memory, still in the store
        assert sorted(await manager.forget_idle()) == sorted([solo.id, private.id])
        assert sorted(manager.tables) == [watched.id]
        assert await manager.get(solo.id) is not None  # loads again on demand

        clock.now += DAY - 61
        assert await manager.sweep() == {}  # a day to the second: not yet
        clock.now += 1
        assert await manager.sweep() == {"solo": [solo.id]}
        assert store.load_table(solo.id) is None and solo.id not in manager.tables
        assert store.load_table(watched.id) is not None and watched.id in manager.tables

        clock.now += 6 * DAY
        assert await manager.sweep() == {"private": [private.id]}
        assert store.load_table(private.id) is None and await manager.get(private.id) is None
        watched.clients.clear()
        clock.now += DAY + 1  # the spectator left over a day ago; the last sweep marked the table used
        assert await manager.sweep() == {"solo": [watched.id]}
        assert manager.metrics.expired.value(kind="solo") == 2 and manager.metrics.expired.value(kind="private") == 1
        await manager.close()
        store.close()

    run(scenario())


def test_the_store_file_gives_expired_pages_back(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "soak.sqlite3"
    store = SQLiteStore(path, clock=clock)
    assert sqlite3.connect(path).execute("PRAGMA auto_vacuum").fetchone() == (2,)  # incremental
    meta = solo_meta(1).to_json()
    actions = ["pass", "pass", "pass", "take", *["7S"] * 60]
    sizes = []
    for day in range(6):  # a soak: 300 tables a day, each kept a day
        for i in range(300):
            store.commit(f"d{day}t{i}", meta, True, 0, actions, False)
            store.add_chat(f"d{day}t{i}", {"text": "x" * 100}, 50)
        clock.now += DAY
        store.expire({"solo": clock.now - DAY})
        sizes.append(store.size())
    assert all(s["free"] == 0 for s in sizes)  # every freed page given back to the disk
    # Flat: a day's tables and their actions take ~265 pages; the file holds two days' at most while
    # it sweeps, and gives the older day's back (without the sweep it would grow by 265 pages a day).
    assert all(s["pages"] <= 1.1 * sizes[0]["pages"] for s in sizes)
    assert store.table_ids() == [f"d5t{i}" for i in range(300)]
    store.close()


def test_the_write_ahead_log_is_folded_into_the_file_off_the_writes(tmp_path: Path) -> None:
    """No write folds the log (SQLite would, in the commit past 1,000 pages: a write of 25-170 ms);
    the store's checkpointer does, from its own connection, once writes have come."""
    path = tmp_path / "wal.sqlite3"
    store = SQLiteStore(path)
    assert store.checkpointer is not None
    with store.reading() as db:
        assert db.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    meta = solo_meta(1).to_json()
    for i in range(400):  # ~1,200 pages of log: past the point where SQLite would fold it in a commit
        store.commit(f"t{i}", meta, True, 0, ["pass"] * 50, False)
    with store.checkpointer.done:
        assert store.checkpointer.done.wait_for(lambda: store.checkpointer.folded == store.checkpointer.writes, 30)
    # Everything the log held is in the file: a passive checkpoint of another connection has no frame left.
    busy, frames, folded = sqlite3.connect(path).execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert (busy, frames) == (0, folded)
    store.close()
    assert not store.checkpointer._thread.is_alive()


def test_the_checkpointer_does_not_make_a_removed_file_anew(tmp_path: Path) -> None:
    """A file removed after writes (its folder deleted while the checkpointer still had a fold to do)
    stays removed: the checkpointer opens the file only if it is there."""
    path = tmp_path / "gone.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.close()
    checkpointer = Checkpointer(path, after=0.05)
    path.unlink()
    checkpointer.written()
    deadline = time.monotonic() + 10
    while checkpointer._wake.is_set():  # taken: the fold is tried 0.05 s later
        assert time.monotonic() < deadline
        time.sleep(0.01)
    checkpointer.stop()
    assert not path.exists() and checkpointer.folded == 0


def test_redis_tables_expire_by_the_same_sweep(tmp_path: Path) -> None:
    clock = Clock()

    async def scenario(url: str) -> None:
        link = RedisLink.connect(url)
        hub = RedisTables(link)
        hub.clock = clock
        meta = solo_meta(2).to_json()
        await hub.commit("S1", meta, True, 0, ["pass"], False)
        await hub.commit("P1", {**meta, "kind": "private"}, True, 0, [], False)
        await hub.add_chat("P1", {"text": "hi"})
        clock.now += DAY + 1
        await hub.touch(["S2"])  # a table it does not know stays unknown
        assert await hub.expire({"solo": clock.now - DAY, "private": clock.now - 7 * DAY}) == {"solo": ["S1"]}
        assert await hub.load("S1") is None and await hub.active_ids() == ["P1"]
        clock.now += 6 * DAY
        await hub.touch(["P1"])  # a socket is open on it
        assert await hub.expire({"solo": clock.now - DAY, "private": clock.now - 7 * DAY}) == {}
        clock.now += 7 * DAY + 1
        assert await hub.expire({"solo": clock.now - DAY, "private": clock.now - 7 * DAY}) == {"private": ["P1"]}
        assert await hub.r.keys("*") == []  # nothing of a table is left
        await link.close()

    with redis_server(tmp_path) as url:
        run(scenario(url))


def test_a_solo_table_driven_by_one_process_plays_for_a_person_on_another(tmp_path: Path) -> None:
    """Through Redis the process that drives a solo table hears that its person's socket is open
    elsewhere (a ``presence`` note), so its bots play."""

    def tricks(n: int) -> Any:
        return lambda s: s["view"] is not None and len(s["view"]["tricks"]) >= n

    with redis_server(tmp_path) as url:
        config = ServerConfig(pace=0.0)
        app_a = create_app(db_path=tmp_path / "a.sqlite3", config=config, redis_url=url)
        app_b = create_app(db_path=tmp_path / "b.sqlite3", config=config, redis_url=url)
        with serve_in_thread(app_a) as a, serve_in_thread(app_b) as b:
            table = post(a, "/api/solo", {**FAST, "deals": 1})
            driver: TableManager = app_a.state.tables
            assert driver.tables[table["table"]].driving  # A made it and drives it; nobody is there

            async def scenario() -> State:
                me = Player(b.replace("http", "ws") + "/ws", table["table"], token=table["token"])
                await me.connect()
                state = await me.play(tricks(2), timeout=60)
                await me.close()
                return state

            state = run(scenario())
            assert not app_b.state.tables.tables[table["table"]].driving  # B only relays the person's moves
            assert state["view"]["tricks"]


def test_what_a_tables_driver_logs_names_the_table(tmp_path: Path) -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(TableField())
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("belote")
    logger.addHandler(handler)

    class Broken:
        def act(self, view: Any) -> int:
            raise RuntimeError("the bot is broken")

    async def scenario() -> None:
        store = SQLiteStore(tmp_path / "log.sqlite3")
        hub = local_hub(store)
        table = Table("T1", solo_meta(0), hub, ServerConfig(pace=0.0))
        table.driver._bot = lambda seat: Broken()  # type: ignore[assignment,method-assign,return-value]
        await hub.store.commit("T1", table.meta.to_json(), True, 0, [], False)
        states: asyncio.Queue[str] = asyncio.Queue()

        async def send(msg: Any) -> None:
            states.put_nowait(msg)

        table.clients.append(Client(2, send, token="me"))
        table.start()
        await asyncio.wait_for(states.get(), 30)  # East's first legal action, played for the broken bot
        await table.stop()
        store.close()

    try:
        run(scenario())
    finally:
        logger.removeHandler(handler)
    # (the servers of other tests, stopping in their threads, may log meanwhile: only this table's lines)
    lines = [line for line in map(json.loads, out.getvalue().splitlines()) if line["logger"] == "belote.tables"]
    assert [line["message"] for line in lines] == ["bot at E failed; playing its first legal action"]
    assert lines[0]["table"] == "T1" and "the bot is broken" in lines[0]["exception"]


def test_a_request_that_fails_is_counted(tmp_path: Path, monkeypatch: Any) -> None:
    app = create_app(db_path=tmp_path / "http.sqlite3", config=ServerConfig(pace=0.0))
    with TestClient(app, raise_server_exceptions=False) as client:

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("the disk is gone")

        monkeypatch.setattr(app.state.tables, "create_solo", broken)
        assert client.post("/api/solo", json=FAST).status_code == 500
        series = parse_metrics(client.get("/metrics").text)
    assert with_name(series, "belote_errors_total") == {frozenset({("where", "http")}): 1}
