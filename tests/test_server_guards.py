"""The server's guards, each from a probe that found it open: a finding, the test that failed before its fix.

Text that is not text, a match started from the lobby, a spectator code given without an
invitation, limits per client rather than per connection, requests and websockets from other
sites, a store that refuses a write, a request body larger than the limit, a socket that stops
reading.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.asyncio.client import connect

from belote.server.app import create_app
from belote.server.store import SQLiteStore
from belote.server.tables import ServerConfig
from netplay import post, receive, run, serve_in_thread, stored_match, until

FAST = {"strength": "easy", "speed": "fast"}


pytestmark = pytest.mark.app_config(pace=0.0)


def solo(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/solo", json=FAST)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def joined(ws: Any, table: dict[str, Any]) -> dict[str, Any]:
    ws.send_json({"type": "join", "table": table["table"], "token": table["token"]})
    return receive(ws)


def refusal(ws: Any) -> tuple[str, dict[str, Any]]:
    msg = receive(ws, "error")
    return msg["code"], msg["args"]


# ----------------------------------------------------------------- text
def test_a_lone_surrogate_in_chat_is_refused_and_the_table_answers_joins_as_before(client: TestClient) -> None:
    t = solo(client)
    with client.websocket_connect("/ws") as ws:
        joined(ws, t)
        ws.send_text('{"type": "chat", "text": "\\ud83d"}')
        assert refusal(ws) == ("bad_text", {})
        ws.send_text('{"type": "chat", "text": "\\ud83d\\ude00 fine"}')  # a pair is a character: welcome
        assert receive(ws, "chat")["text"] == "😀 fine"
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
        assert receive(ws, "chat")["text"] == "😀 fine"
        assert receive(ws)["table"] == t["table"]


@pytest.mark.parametrize("text", ["a\x00b", "red \x1b[31m", "\u202eevil", "zero\u200bwidth", "bell\x07"])
def test_chat_refuses_what_names_refuse(client: TestClient, text: str) -> None:
    t = solo(client)
    with client.websocket_connect("/ws") as ws:
        joined(ws, t)
        ws.send_json({"type": "chat", "text": text})
        assert refusal(ws) == ("chat_control_characters", {})


# ----------------------------------------------------------------- the lobby
def test_the_hosts_new_game_in_the_lobby_is_refused_and_start_deals_once(client: TestClient, db: Path) -> None:
    host = client.post("/api/tables", json={"name": "Ann", "settings": FAST}).json()
    with client.websocket_connect("/ws") as ws:
        assert joined(ws, host)["status"] == "lobby"
        ws.send_json({"type": "new_game"})
        assert refusal(ws) == ("not_started", {})
        ws.send_json({"type": "new_game", "settings": {"variant": "coinche"}})
        assert refusal(ws) == ("not_started", {})
        ws.send_json({"type": "join", "table": host["table"], "token": host["token"]})
        state = receive(ws)
        assert state["status"] == "lobby" and state["view"] is None and list(state["players"]) == ["S"]
        ws.send_json({"type": "start"})
        state = until(ws, lambda m: m.get("type") == "state" and m["status"] == "playing")
    meta, match, _actions = stored_match(db, host["table"])
    assert meta["game"] == 0 and meta["status"] == "playing" and len(match.deals) == 1


def test_the_spectator_code_is_given_only_with_a_right_invitation(client: TestClient) -> None:
    host = client.post("/api/tables", json={"name": "Ann"}).json()
    for body in (
        {"invite": "wrong", "name": "Bob", "seat": "Q"},
        {"invite": "wrong", "name": "Bob", "seat": "S"},
        {"invite": "ωρονγ", "name": "Bob"},
        {"invite": ["x"], "name": "Bob"},
        {"name": "Bob", "seat": ["S"]},
    ):
        r = client.post(f"/api/tables/{host['table']}/sit", json=body)
        assert r.status_code == 404 and "watch" not in r.json(), (body, r.text)
    s = solo(client)
    r = client.post(f"/api/tables/{s['table']}/sit", json={"invite": "x", "name": "Bob", "seat": "Q"})
    assert r.status_code == 404 and "watch" not in r.json()
    r = client.post(f"/api/tables/{host['table']}/sit", json={"invite": host["invite"], "name": "Bob", "seat": "S"})
    assert r.status_code == 409 and r.json()["code"] == "seat_taken" and r.json()["watch"] == host["watch"]
    assert client.get(f"/api/tables/{host['table']}", params={"invite": "ωρονγ"}).status_code == 404


# ----------------------------------------------------------------- limits per client
def test_the_chat_limit_counts_the_seat_not_the_socket(client: TestClient) -> None:
    t = solo(client)
    sockets = [client.websocket_connect("/ws") for _ in range(3)]
    try:
        wss = [s.__enter__() for s in sockets]
        for ws in wss:
            joined(ws, t)
        for i in range(5):
            wss[i % 3].send_json({"type": "chat", "text": f"line {i}"})
            assert receive(wss[0], "chat")["text"] == f"line {i}"  # every socket of the seat hears every line
        wss[2].send_json({"type": "chat", "text": "one too many"})
        assert refusal(wss[2]) == ("slow_down", {"count": 5, "seconds": 10})
    finally:
        for s in sockets:
            s.__exit__(None, None, None)


def test_new_tables_are_limited_per_address(app_client: Callable[..., TestClient]) -> None:
    with app_client(pace=0.0, table_rate=(3, 60.0)) as client:
        for _ in range(2):
            assert client.post("/api/solo", json=FAST).status_code == 200
        assert client.post("/api/tables", json={"name": "Ann"}).status_code == 200
        for r in (client.post("/api/solo", json=FAST), client.post("/api/tables", json={"name": "Ann"})):
            assert r.status_code == 429
            assert (r.json()["code"], r.json()["args"]) == ("too_many_tables", {"count": 3, "seconds": 60})


def test_websockets_are_limited_per_address(app_client: Callable[..., TestClient]) -> None:
    with app_client(pace=0.0, sockets_per_address=2) as client:
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
            with client.websocket_connect("/ws") as c:
                assert refusal(c) == ("too_many_sockets", {"max": 2})
                with pytest.raises(WebSocketDisconnect) as closed:
                    c.receive_json()
                assert closed.value.code == 1008
            for ws in (a, b):
                ws.send_json({"type": "nope"})
                assert refusal(ws)[0] == "unknown_type"
        with client.websocket_connect("/ws") as d:  # the two closed, a third is welcome
            d.send_json({"type": "nope"})
            assert refusal(d)[0] == "unknown_type"


# ----------------------------------------------------------------- other sites
def test_a_websocket_from_another_site_is_refused(app_client: Callable[..., TestClient]) -> None:
    with app_client(pace=0.0, origins=("https://friend.example",)) as client:
        with client.websocket_connect("/ws", headers={"origin": "https://evil.example"}) as ws:
            assert refusal(ws) == ("bad_origin", {"origin": "https://evil.example"})
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008
        for origin in ("http://testserver", "https://friend.example"):
            with client.websocket_connect("/ws", headers={"origin": origin}) as ws:
                ws.send_json({"type": "nope"})
                assert refusal(ws)[0] == "unknown_type"


def test_requests_that_create_come_from_the_servers_pages_as_json(client: TestClient) -> None:
    evil = {"origin": "https://evil.example", "content-type": "application/json"}
    for path in ("/api/solo", "/api/tables", "/api/sheets"):
        r = client.post(path, content=b'{"name": "Ann"}', headers=evil)
        assert r.status_code == 403 and r.json()["code"] in ("bad_origin", "origin"), r.text
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
            r = client.post(path, content=b'{"name": "Ann"}', headers={"content-type": kind})
            assert r.status_code == 415, (path, kind, r.text)
    own = {"origin": "http://testserver", "content-type": "application/json"}
    assert client.post("/api/solo", content=b"{}", headers=own).status_code == 200
    assert client.post("/api/solo").status_code == 200  # an empty body needs no type


# ----------------------------------------------------------------- the store
def test_an_action_the_store_refuses_is_refused_and_nobody_hears_of_it(
    client: TestClient, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = solo(client)
    with client.websocket_connect("/ws") as ws:
        state = until(joined_then(ws, t), lambda m: m.get("type") == "state" and m["view"]["to_move"] == "S")
        before = state["view"]
        action = before["legal"][0]
        real = SQLiteStore.commit

        def full(self: SQLiteStore, *args: Any) -> None:
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(SQLiteStore, "commit", full)
        ws.send_json({"type": "act", "action": action})
        assert refusal(ws) == ("not_saved", {})
        ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
        assert receive(ws)["view"] == before  # the table is as it was
        monkeypatch.setattr(SQLiteStore, "commit", real)
        ws.send_json({"type": "act", "action": action})
        until(ws, lambda m: m.get("type") == "state" and m["last"] > state["last"])
    _meta, match, actions = stored_match(db, t["table"])
    assert match.action_count == len(actions) >= 1


def joined_then(ws: Any, table: dict[str, Any]) -> Any:
    ws.send_json({"type": "join", "table": table["table"], "token": table["token"]})
    return ws


def test_sqlite_rolls_back_only_an_open_transaction(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.sqlite3")
    store.commit("t", {"a": 1}, True, 0, ["JH"], False)
    with pytest.raises(sqlite3.IntegrityError):  # the same action number twice: the insert fails, rolled back
        store.commit("t", {"a": 2}, True, 0, ["9H"], False)
    assert store.load_table("t") == ({"a": 1}, ["JH"])
    store.close()


# ----------------------------------------------------------------- over a real socket
def http_head(port: int, request: bytes, rcvbuf: int | None = None) -> socket.socket:
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(20)
    sock.connect(("127.0.0.1", port))
    sock.sendall(request)
    return sock


def test_a_request_body_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    app = create_app(db_path=tmp_path / "b.sqlite3", config=ServerConfig(pace=0.0))
    with serve_in_thread(app) as url:
        port = int(url.rsplit(":", 1)[1])
        for path in ("/api/solo", "/api/tables", "/api/sheets"):
            head = (
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                "Content-Length: 100000000\r\n\r\n{"
            )
            with http_head(port, head.encode()) as sock:  # 1 byte of the 100 MB announced is sent
                answer = sock.recv(4096).decode()
            assert answer.startswith("HTTP/1.1 413"), answer
        head = (
            "POST /api/solo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n"
        )
        with http_head(port, head.encode()) as sock:  # no length said: refused once past the limit
            chunk = b"[" * 1000
            for _ in range(6):
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            answer = sock.recv(4096).decode()
        assert answer.startswith("HTTP/1.1 413"), answer


def ws_frame(text: str) -> bytes:
    """A masked text frame, as a client sends it."""
    data = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81]) + (
        bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + len(data).to_bytes(2, "big")
    )
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_a_socket_that_stops_reading_is_dropped_and_its_table_plays_on(tmp_path: Path) -> None:
    app = create_app(db_path=tmp_path / "w.sqlite3", config=ServerConfig(pace=0.0))
    with serve_in_thread(app) as url:
        port = int(url.rsplit(":", 1)[1])
        t = post(url, "/api/solo", FAST)
        key = base64.b64encode(os.urandom(16)).decode()
        upgrade = (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        slow = http_head(port, upgrade.encode(), rcvbuf=4096)
        join = ws_frame(json.dumps({"type": "join", "table": t["table"], "watch": t["watch"]}))
        try:
            slow.settimeout(0.5)
            with contextlib.suppress(TimeoutError, ConnectionError):  # the server stops reading, or drops it
                for _ in range(5000):
                    slow.sendall(join)  # and never a byte read

            async def person() -> float:
                async with connect(url.replace("http", "ws") + "/ws") as ws:
                    await ws.send(json.dumps({"type": "join", "table": t["table"], "token": t["token"]}))
                    while True:
                        msg = json.loads(await ws.recv())
                        if msg.get("type") == "state" and msg["view"]["to_move"] == "S":
                            break
                    before = msg["last"]
                    started = time.monotonic()
                    await ws.send(json.dumps({"type": "act", "action": msg["view"]["legal"][0]}))
                    while True:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                        if msg.get("type") == "state" and msg["last"] > before:
                            return time.monotonic() - started

            assert run(person()) < 30  # answered, whatever the spectator does not read
            assert app.state.sockets == {}  # the spectator that read nothing was dropped
        finally:
            slow.close()
