"""Hostile input at every door: any JSON shape, depth, type or text gets a clean refusal with a code.

Every websocket message type with every one of its fields set to each value of a hostile list, every
option of the settings likewise, raw texts that are not JSON or too deep, and every HTTP route that
takes a body: no reply is an internal error (``server_error``, HTTP 500) and nothing reaches the log
with a traceback. After the run each table still answers its seats as before.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from belote.rules import OPTIONS
from belote.server import app as app_module
from belote.server.room import TABLE_SETTINGS
from netplay import receive

HOSTILE: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    10**30,
    -(10**30),
    "",
    " ",
    "x",
    "N",
    "é",
    "Ωmega",
    "\ud83d",  # a lone surrogate: not text
    "\udc00x",
    "\x00",
    "\x1b[31m",
    "\u202eevil",
    "N" * 600,
    [],
    ["N"],
    [[[]]],
    {},
    {"a": 1},
    {"__proto__": {}},
]
FIELDS: dict[str, tuple[str, ...]] = {
    "join": ("table", "token", "watch", "since"),
    "queue": ("name", "variant", "seating"),
    "leave_queue": ("x",),
    "act": ("action",),
    "continue": ("x",),
    "back": ("x",),
    "chat": ("text",),
    "react": ("reaction",),
    "seat": ("seat",),
    "bot_seat": ("seat", "name"),
    "settings": ("settings",),
    "start": ("x",),
    "new_game": ("settings",),
    "hint": ("x",),
    "nope": ("x",),
}
SETTING_NAMES = [spec.name for spec in OPTIONS] + [spec.name for spec in TABLE_SETTINGS]
RAW = [
    "",
    " ",
    "null",
    "1",
    '"join"',
    "[]",
    "{",
    '{"type": }',
    "[" * 2000 + "]" * 2000,
    '{"a":' * 1000 + "1" + "}" * 1000,
    '{"type": "chat", "text": "\\ud83d"}',
    '{"type": "chat", "text": "a\\u0000b"}',
    '{"type": "act", "action": NaN}',
    '{"type": "act", "action": Infinity}',
    '{"type": "join", "since": ' + "9" * 4000 + "}",
    '{"type": 1}',
    '{"type": ["join"]}',
    '{"type": "join", "type": "act"}',
    "\ud83d",
]


def dumps(msg: Any) -> str:
    return json.dumps(msg)  # a lone surrogate goes out as its \\u escape, as a hostile client may send it


class Tracebacks(logging.Handler):
    """Every record of the server's loggers that holds an exception."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.seen: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.seen.append(record)


@pytest.fixture
def tracebacks() -> Iterator[Tracebacks]:
    handler = Tracebacks()
    logger = logging.getLogger("belote")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


@pytest.fixture
def client(app_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(app_module, "FLOOD", (10**9, 1.0))  # every message read: this test sends hundreds
    with app_client(pace=0.0) as c:
        yield c


def checked(ws: Any, sent: str) -> list[dict[str, Any]]:
    """What the server answered to ``sent``: every message up to the answer to a marker sent after it."""
    ws.send_text(sent)
    ws.send_text('{"type": "marker-of-the-test"}')
    got: list[dict[str, Any]] = []
    while True:
        msg = ws.receive_json()
        if msg.get("type") == "error" and msg.get("args", {}).get("type") == "marker-of-the-test":
            return got
        got.append(msg)


def assert_clean(answers: list[dict[str, Any]], sent: str) -> None:
    for msg in answers:
        if msg.get("type") == "error":
            assert msg.get("code") not in (None, "server_error"), (sent[:200], msg)
            assert isinstance(msg.get("message"), str) and msg["message"], (sent[:200], msg)
            assert isinstance(msg.get("args"), dict), (sent[:200], msg)


def messages() -> Iterator[str]:
    for kind, fields in FIELDS.items():
        for field in fields:
            for value in HOSTILE:
                yield dumps({"type": kind, field: value})
    for kind in ("settings", "new_game"):
        for name in SETTING_NAMES:
            for value in HOSTILE:
                yield dumps({"type": kind, "settings": {name: value}})
    yield from RAW


def test_every_hostile_message_is_refused_cleanly_by_a_seat_in_the_lobby(
    client: TestClient, tracebacks: Tracebacks
) -> None:
    table = client.post("/api/tables", json={"name": "Host"}).json()
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": table["table"], "token": table["token"]})
        receive(ws)
        for sent in messages():
            if '"type": "start"' in sent or '"type": "leave"' in sent:
                continue  # the host's own ways out of the lobby
            assert_clean(checked(ws, sent), sent)
        ws.send_json({"type": "join", "table": table["table"], "token": table["token"]})
        after = receive(ws)
    # Nothing started the match (a new_game in the lobby is refused) and the host is alone at the table.
    assert after["status"] == "lobby"
    assert [p["name"] for p in after["players"].values()] == ["Host"]
    assert not tracebacks.seen, [r.getMessage() for r in tracebacks.seen][:5]


def test_every_hostile_message_is_refused_cleanly_at_a_solo_table(client: TestClient, tracebacks: Tracebacks) -> None:
    solo = client.post("/api/solo", json={"strength": "easy", "speed": "fast"}).json()
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": solo["table"], "token": solo["token"]})
        receive(ws)
        for sent in messages():
            assert_clean(checked(ws, sent), sent)
    assert not tracebacks.seen, [r.getMessage() for r in tracebacks.seen][:5]


def test_every_hostile_message_is_refused_cleanly_before_a_join(client: TestClient, tracebacks: Tracebacks) -> None:
    with client.websocket_connect("/ws") as ws:
        for sent in messages():
            assert_clean(checked(ws, sent), sent)
    assert not tracebacks.seen, [r.getMessage() for r in tracebacks.seen][:5]


def bodies() -> Iterator[Any]:
    yield from HOSTILE
    for field in ("name", "seat", "settings", "invite"):
        for value in HOSTILE:
            yield {"name": "Ann", field: value}
    for name in SETTING_NAMES:
        for value in HOSTILE:
            yield {"name": "Ann", "settings": {name: value}}
            yield {name: value}


async def answered_cleanly(http: httpx2.AsyncClient, route: str, body: str) -> None:
    r = await http.post(
        route, content=body.encode("utf-8", "surrogatepass"), headers={"content-type": "application/json"}
    )
    assert r.status_code < 500, (route, body[:100], r.text)
    if r.status_code >= 400:
        data = r.json()
        assert isinstance(data.get("code"), str) and isinstance(data.get("error"), str), (route, body[:100], data)


def test_every_http_route_refuses_hostile_bodies_cleanly(client: TestClient, tracebacks: Tracebacks) -> None:
    table = client.post("/api/tables", json={"name": "Host"}).json()
    sheet = client.post("/api/sheets", json={}).json()["id"]
    routes = ["/api/solo", "/api/tables", f"/api/tables/{table['table']}/sit", "/api/sheets"]
    routes += [f"/api/sheets/{sheet}/{what}" for what in ("deals", "undo", "names")]

    async def post_them_all() -> None:
        """Each body to each route, one request after the other, through the app's ASGI interface as the
        test client calls it (its address, its headers) but from within the app's own event loop: the
        test client hands each request from this thread to that loop and back, and those hand-overs
        took most of the time of these ten thousand requests."""
        transport = httpx2.ASGITransport(app=client.app, client=("testclient", 50000))
        async with httpx2.AsyncClient(
            transport=transport, base_url=client.base_url, headers=client.headers, follow_redirects=True
        ) as http:
            for route in routes:
                for body in bodies():
                    await answered_cleanly(http, route, dumps(body))
                for raw in RAW:
                    await answered_cleanly(http, route, raw)

    assert client.portal is not None  # the app is open (``with``): its loop runs
    client.portal.call(post_them_all)
    for invite in HOSTILE:
        if isinstance(invite, str) and not any("\ud800" <= c <= "\udfff" for c in invite):  # a URL holds no surrogate
            r = client.get(f"/api/tables/{table['table']}", params={"invite": invite})
            assert r.status_code == 404, (invite, r.text)
    assert not tracebacks.seen, [r.getMessage() for r in tracebacks.seen][:5]
