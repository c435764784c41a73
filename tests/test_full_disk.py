"""A full disk under the SQLite store: every route that writes answers 503 ``store_full``, the log
says so once (and once when the disk has room again), a server starts on it and serves what is
stored, and writes succeed again when room comes back.

The disk is a fake one under the store's file (``Disk``): while it is full, every statement that
would write fails with SQLite's own code of a full disk (SQLITE_FULL, "database or disk is full").
SQLite itself says which statements write (``PRAGMA query_only``), as a real full disk fails every
write transaction of a file in WAL mode (its log cannot grow) and lets reads through. One test
checks the same with SQLite's ``max_page_count``, where SQLite raises SQLITE_FULL itself.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.server.store import SQLiteStore, StoreFull
from netplay import receive, until

FAST = {"strength": "easy", "speed": "fast"}
DEAL = {"takers": "NS", "cards": 100, "declarations": {}, "belote": None, "capot": None}

pytestmark = pytest.mark.app_config(pace=0.0)


class Disk:
    """The disk under the SQLite files a test opens: ``full`` or not, as the test says."""

    def __init__(self) -> None:
        self.full = False

    def connection(self) -> type[sqlite3.Connection]:
        """A connection class whose statements meet this disk: refused as SQLite refuses on a full one."""
        disk = self

        class OnDisk(sqlite3.Connection):
            def _meet(self, run: Callable[..., Any], *args: Any) -> Any:
                sqlite3.Connection.execute(self, f"PRAGMA query_only = {int(disk.full)}")
                try:
                    return run(self, *args)
                except sqlite3.OperationalError as e:
                    if getattr(e, "sqlite_errorname", "") != "SQLITE_READONLY":
                        raise
                    full = sqlite3.OperationalError("database or disk is full")
                    full.sqlite_errorcode, full.sqlite_errorname = 13, "SQLITE_FULL"  # type: ignore[attr-defined]
                    raise full from None

            def execute(self, *args: Any) -> Any:  # type: ignore[override]
                return self._meet(sqlite3.Connection.execute, *args)

            def executemany(self, *args: Any) -> Any:  # type: ignore[override]
                return self._meet(sqlite3.Connection.executemany, *args)

            def executescript(self, *args: Any) -> Any:  # type: ignore[override]
                return self._meet(sqlite3.Connection.executescript, *args)

        return OnDisk


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> Iterator[Disk]:
    """Every SQLite file the test opens from now on lies on one ``Disk``, empty to begin with (a test
    names it before the app's fixture)."""
    disk = Disk()
    connect = sqlite3.connect

    def on_disk(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        return connect(*args, factory=disk.connection(), **kwargs)

    monkeypatch.setattr(sqlite3, "connect", on_disk)
    yield disk


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info]


def said(caplog: pytest.LogCaptureFixture, words: str) -> int:
    return sum(words in r.getMessage() for r in caplog.records)


def metric(client: TestClient, line: str) -> float:
    for row in client.get("/metrics").text.splitlines():
        if row.startswith(line + " "):
            return float(row.split()[-1])
    return 0.0


def assert_full(r: Any) -> None:
    assert r.status_code == 503, r.text
    assert (r.json()["code"], r.json()["args"]) == ("store_full", {}), r.text
    assert r.headers["retry-after"] == "30"


def writes(client: TestClient, private: dict[str, Any], sheet: str) -> dict[str, Any]:
    """Every HTTP route that writes to the store, each asked once."""
    sit = {"invite": private["invite"], "name": "Bob", "seat": "N"}
    return {
        "solo": client.post("/api/solo", json=FAST),
        "private": client.post("/api/tables", json={"name": "Ann"}),
        "sit": client.post(f"/api/tables/{private['table']}/sit", json=sit),
        "sheet": client.post("/api/sheets", json={"target": 501}),
        "deal": client.post(f"/api/sheets/{sheet}/deals", json=DEAL),
        "names": client.post(f"/api/sheets/{sheet}/names", json={"names": {"NS": "Us", "EW": "Them"}}),
        "undo": client.post(f"/api/sheets/{sheet}/undo", json={}),
    }


def test_every_route_that_writes_answers_503_while_the_disk_is_full_and_the_log_says_it_once(
    disk: Disk, client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    solo = client.post("/api/solo", json=FAST).json()
    private = client.post("/api/tables", json={"name": "Ann"}).json()
    sheet = client.post("/api/sheets", json={"target": 501}).json()["id"]
    assert client.post(f"/api/sheets/{sheet}/deals", json=DEAL).status_code == 200
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": solo["table"], "token": solo["token"]})
        state = until(ws, lambda m: m["view"]["to_move"] == "S")
        disk.full = True
        for route, r in writes(client, private, sheet).items():
            assert r.status_code == 503, (route, r.text)
            assert_full(r)
        ws.send_json({"type": "act", "action": state["view"]["legal"][0]})
        assert (receive(ws, "error")["code"]) == "store_full"
        ws.send_json({"type": "chat", "text": "hello"})
        assert (receive(ws, "error")["code"]) == "store_full"
        assert client.get(f"/api/sheets/{sheet}").json()["entries"][0]["cards"] == {"NS": 100, "EW": 62}  # it reads
        assert metric(client, 'belote_refusals_total{code="store_full"}') == 9
        assert metric(client, "belote_store_full") == 1
        assert metric(client, 'belote_errors_total{where="http"}') == 0
        assert tracebacks(caplog) == []
        assert said(caplog, "is full") == 1

        disk.full = False
        ws.send_json({"type": "act", "action": state["view"]["legal"][0]})
        until(ws, lambda m: m["last"] > state["last"])
    done = writes(client, private, sheet)
    assert [r.status_code for r in done.values()] == [200, 200, 200, 201, 200, 200, 200], done
    assert metric(client, "belote_store_full") == 0
    assert said(caplog, "is full") == 1 and said(caplog, "has room again") == 1
    assert tracebacks(caplog) == []


def test_a_server_starts_on_a_full_disk_and_serves_what_is_stored(
    app_client: Callable[..., TestClient], disk: Disk, caplog: pytest.LogCaptureFixture
) -> None:
    with app_client(pace=0.0) as before:
        solo = before.post("/api/solo", json=FAST).json()
        sheet = before.post("/api/sheets", json={"target": 501}).json()["id"]
        with before.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": solo["table"], "token": solo["token"]})
            until(ws, lambda m: m["view"]["to_move"] == "S")
    caplog.set_level(logging.INFO)
    disk.full = True
    with app_client(pace=0.0) as client:
        assert client.get("/").status_code == 200
        assert [g["name"] for g in client.get("/api/games").json()["games"]][:1] == ["classic"]
        assert client.get(f"/api/sheets/{sheet}").status_code == 200
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": solo["table"], "token": solo["token"]})
            state = receive(ws)
            assert state["table"] == solo["table"] and state["view"]["to_move"] == "S"
        assert_full(client.post("/api/solo", json=FAST))
        assert tracebacks(caplog) == [] and said(caplog, "is full") == 1
        disk.full = False
        assert client.post("/api/solo", json=FAST).status_code == 200
        assert said(caplog, "has room again") == 1


def test_a_new_file_on_a_full_disk_reads_as_empty_and_is_made_when_there_is_room(tmp_path: Path, disk: Disk) -> None:
    disk.full = True
    store = SQLiteStore(tmp_path / "new.sqlite3")
    assert store.load_table("t") is None and store.load_sheet("s") is None and store.table_ids() == []
    with pytest.raises(StoreFull):
        store.save_sheet("s", {"a": 1})
    disk.full = False
    store.save_sheet("s", {"a": 1})
    assert store.load_sheet("s") == {"a": 1}
    store.close()


def test_a_migration_on_a_full_disk_waits_for_room(tmp_path: Path, disk: Disk) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)  # a file written before tables had a kind, a use and the active flag
    old.executescript(
        "CREATE TABLE tables (id TEXT PRIMARY KEY, meta TEXT NOT NULL, created REAL NOT NULL);"
        "CREATE TABLE actions (table_id TEXT NOT NULL, n INTEGER NOT NULL, action TEXT NOT NULL,"
        " PRIMARY KEY (table_id, n));"
        "CREATE TABLE sheets (id TEXT PRIMARY KEY, data TEXT NOT NULL, updated REAL NOT NULL DEFAULT 0);"
        "INSERT INTO tables VALUES ('t', '{\"a\": 1}', 2460000.5); INSERT INTO actions VALUES ('t', 0, 'JH');"
    )
    old.commit()
    old.close()
    disk.full = True
    store = SQLiteStore(path)
    assert store.load_table("t") == ({"a": 1}, ["JH"])
    with pytest.raises(StoreFull):
        store.commit("t", None, True, 1, ["9H"], False)
    disk.full = False
    store.commit("t", None, True, 1, ["9H"], False)
    assert store.load_table("t") == ({"a": 1}, ["JH", "9H"])
    assert store.table_ids(active_only=True) == ["t"]
    store.close()


def test_sqlites_own_full_answer_is_store_full_and_room_lets_writes_through(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SQLiteStore(tmp_path / "capped.sqlite3")
    store.save_sheet("small", {"a": 1})
    (pages,) = store._db.execute("PRAGMA page_count").fetchone()
    store._db.execute(f"PRAGMA max_page_count = {pages}")  # the file may not grow: SQLite answers SQLITE_FULL
    big = {"text": "x" * 100_000}
    for _ in range(2):
        with pytest.raises(StoreFull):
            store.save_sheet("big", big)
    assert store.load_sheet("small") == {"a": 1} and store.load_sheet("big") is None
    assert store.full and said(caplog, "is full") == 1
    store._db.execute(f"PRAGMA max_page_count = {pages + 100}")
    store.save_sheet("big", big)
    assert json.dumps(store.load_sheet("big")) == json.dumps(big)
    assert not store.full and said(caplog, "has room again") == 1
    store.close()


def test_players_matched_while_the_disk_is_full_wait_in_the_queue_until_it_has_room(
    disk: Disk, client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob:
        disk.full = True
        for ws, name in ((ann, "Ann"), (bob, "Bob")):
            ws.send_json({"type": "queue", "name": name, "variant": "two-handed"})
            assert receive(ws, "queue")["variant"] == "two-handed"
        until_queued = receive(ann, "queue")  # told again within the round: both still wait
        assert until_queued["waiting"] == 2
        assert tracebacks(caplog) == [] and said(caplog, "is full") == 1
        disk.full = False
        tables = {receive(ws, "matched")["table"] for ws in (ann, bob)}
    assert len(tables) == 1
    assert tracebacks(caplog) == [] and said(caplog, "has room again") == 1
