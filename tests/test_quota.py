"""One client cannot have the server keep or tell without bound: one limit per address on what it
creates (tables by any route, the queue's included, and score sheets), expiry of what nobody uses
(score sheets, tables the queue formed that nobody came to), and a rate per person and per address
on every message, counted in Redis for every process in Redis mode (docs/operations.md)."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from websockets.asyncio.client import ClientConnection, connect

from belote.game import SEATS, action_str
from belote.server.app import create_app
from belote.server.hub import local_hub
from belote.server.limits import Rate
from belote.server.manager import TableManager
from belote.server.messages import CLIENT_MESSAGES, RATES
from belote.server.metrics import Metrics
from belote.server.redis_hub import RedisLink, RedisSheets
from belote.server.room import (
    Back,
    Meta,
    Room,
    Seat,
    StandIn,
    Write,
    check_settings,
    new_match,
    reduce,
)
from belote.server.shared_limits import SharedLimits
from belote.server.store import SQLiteSheets, SQLiteStore
from belote.server.tables import ServerConfig
from netplay import Server, post, receive, redis_server, run, serve_in_thread, stored_table, until

DAY = 24 * 3600.0
FAST = {"strength": "easy", "speed": "fast"}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def refusal(e: urllib.error.HTTPError) -> tuple[int, str, dict[str, Any]]:
    body = json.loads(e.read())
    return e.code, body["code"], body["args"]


def post_refused(base: str, path: str, body: dict[str, Any]) -> tuple[int, str, dict[str, Any]]:
    try:
        post(base, path, body)
    except urllib.error.HTTPError as e:
        return refusal(e)
    raise AssertionError(f"{path} was not refused")


def metric(base: str, line: str) -> float:
    """The value of one series of ``GET /metrics`` (0 when it has none yet)."""
    with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
        text = r.read().decode()
    found = re.search("^" + re.escape(line) + r" (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


# ----------------------------------------------------------------- what one address creates
def test_the_queue_counts_in_the_one_limit_on_what_an_address_creates(tmp_path: Path) -> None:
    """Two sockets of one address queueing for two hands again and again made a table each time they
    were matched, outside the limit (300 tables in half a second): a place in the queue now counts as
    the address's new table, with the solo and private tables and the score sheets, in one window."""
    server = Server(tmp_path / "belote.sqlite3", tmp_path / "serve.log", "--tables-per-minute", "4")
    server.start()
    try:

        async def flood() -> list[dict[str, Any]]:
            answers = []
            async with connect(server.ws_url) as one, connect(server.ws_url) as two:
                for _ in range(3):
                    for ws in (one, two):
                        await ws.send(json.dumps({"type": "queue", "name": "Flood", "variant": "two-handed"}))
                    for ws in (one, two):
                        answers.append(await _matched_or_refused(ws))
            return answers

        answers = run(flood())
        assert [a["type"] for a in answers] == ["matched"] * 4 + ["error", "error"]
        assert {(a["code"], json.dumps(a["args"])) for a in answers[4:]} == {
            ("too_many_tables", '{"count": 4, "seconds": 60}')
        }
        tables = {a["table"] for a in answers[:4]}
        assert len(tables) == 2  # two tables, each of one pair
        assert all(stored_table(server.db, t)[0]["kind"] == "online" for t in tables)
        # One window: a solo table and a score sheet from the same address are refused too.
        assert post_refused(server.base, "/api/solo", FAST) == (429, "too_many_tables", {"count": 4, "seconds": 60})
        assert post_refused(server.base, "/api/sheets", {}) == (429, "too_many_created", {"count": 4, "seconds": 60})
        assert metric(server.base, 'belote_refusals_total{code="too_many_tables"}') == 3
        assert metric(server.base, 'belote_refusals_total{code="too_many_created"}') == 1
        with urllib.request.urlopen(server.base + "/api/health", timeout=10) as r:
            assert json.loads(r.read())["queue"] == 0  # nobody refused waits in the queue
    finally:
        server.stop()


async def _matched_or_refused(ws: ClientConnection) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if msg["type"] in ("matched", "error"):
            return msg


def test_score_sheets_count_in_the_limit(app_client: Callable[..., TestClient]) -> None:
    """10,569 sheets in 17 s from one address: a sheet now counts with the tables it creates."""
    with app_client(table_rate=(3, 60.0)) as client:
        made = [client.post("/api/sheets", json={}) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 201]
        r = client.post("/api/sheets", json={})
        assert r.status_code == 429
        assert (r.json()["code"], r.json()["args"]) == ("too_many_created", {"count": 3, "seconds": 60})
        r = client.post("/api/solo", json=FAST)  # the same window
        assert (r.status_code, r.json()["code"]) == (429, "too_many_tables")


def test_score_sheets_expire_when_nobody_changes_them(tmp_path: Path) -> None:
    """No sheet ever expired (the sweep removed tables only): one unchanged for 90 days goes."""
    clock = Clock()

    async def scenario() -> None:
        store = SQLiteStore(tmp_path / "sheets.sqlite3", clock=clock)
        sheets = SQLiteSheets(store)
        config = ServerConfig(pace=0.0, expire_sheets_after=90 * DAY)
        manager = TableManager(local_hub(store), config, Metrics(), clock=clock, sheets=sheets)
        await sheets.create_sheet("old", {"n": 1})
        await sheets.create_sheet("kept", {"n": 1})
        clock.now += 60 * DAY
        await sheets.change_sheet("kept", lambda data: {**data, "n": 2})
        await sheets.load_sheet("old")  # reading a sheet does not keep it
        clock.now += 30 * DAY
        await manager.sweep()
        assert set(store.sheet_ids()) == {"old", "kept"}  # 90 days to the second: not yet
        clock.now += 1
        await manager.sweep()
        assert store.sheet_ids() == ["kept"]
        clock.now += 60 * DAY
        await manager.sweep()
        assert store.sheet_ids() == []
        assert manager.metrics.expired_sheets.value() == 2
        await manager.close()
        store.close()

    run(scenario())


def test_a_sheet_in_redis_expires_unless_it_changes(tmp_path: Path) -> None:
    async def scenario(url: str) -> None:
        link = RedisLink.connect(url)
        sheets = RedisSheets(link.r, "belote:", ttl=90 * DAY)
        full = 90 * DAY * 1000
        await sheets.create_sheet("s1", {"n": 1})
        assert full - 5000 < await link.r.pttl("belote:sheet:s1") <= full
        await link.r.pexpire("belote:sheet:s1", 1000)  # as if it were 90 days old, to the second
        await sheets.change_sheet("s1", lambda data: {**data, "n": 2})
        assert full - 5000 < await link.r.pttl("belote:sheet:s1") <= full  # a change keeps it 90 days more
        assert await sheets.expire(0.0) == 0  # nothing to sweep: the key expires by itself
        await link.close()

    with redis_server(tmp_path) as url:
        run(scenario(url))


# ----------------------------------------------------------------- a table nobody came to
def online_room(turn_timer: int = 30) -> Room:
    """A table as the queue forms it: two people, two bots, none of the people come yet."""
    settings = check_settings({**FAST, "turn_timer": turn_timer})
    seats = {2: Seat("t2", "Ann"), 0: Seat("t0", "Bob")}
    seats |= {s: Seat(None, name, "heuristic") for s, name in ((1, "Léa"), (3, "Hugo"))}
    for seed in range(50):  # a deal a bot opens: its bots would think first
        room = Room(Meta("online", seed, settings, dict(seats), arrived=False), new_match(settings, seed))
        if room.match is not None and room.meta.seats[room.match.to_move or 0].bot is not None:
            return room
    raise AssertionError("no seed gives the bidding to a bot")


def test_a_table_of_the_queue_none_of_whose_people_came_is_abandoned_after_the_turn_timer() -> None:
    """No bot thinks for nobody: until a person of the table comes, its bots wait, and when the turn
    timer has passed with nobody, the table is abandoned (no match played on for nobody)."""
    room = online_room()
    assert room.next_job(0.0, False, now=0) == (30.0, "timeout", 0)  # a bot is to bid, and does not
    assert room.next_job(31.0, False, now=0) == (-1.0, "timeout", 0)
    room, events = reduce(room, StandIn(0))
    assert events == [Write(0, (), True, False)]  # the abandonment is stored: the table expires soon
    assert room.meta.abandoned and not room.active
    assert room.next_job(60.0, False, now=0) is None  # nothing more: no bot stands in, none plays
    assert room.meta.to_json()["abandoned"] is True and room.meta.standin == []
    # A person who still comes takes the table up where it was, and its bots play.
    room, _ = reduce(room, Back(2))
    assert room.active and room.meta.arrived and not room.meta.abandoned
    job = room.next_job(10.0, True, now=0)
    assert job is not None and job.kind == "bot"


def test_a_table_nobody_came_to_expires_soon(tmp_path: Path) -> None:
    clock = Clock()

    async def scenario() -> None:
        store = SQLiteStore(tmp_path / "online.sqlite3", clock=clock)
        config = ServerConfig(pace=0.0, turn_timer=600, expire_after=7 * DAY, expire_abandoned_after=600.0)
        manager = TableManager(local_hub(store), config, Metrics(), clock=clock)
        nobody, given = await manager.create_online(["Ann", "Bob"], "classic")
        came, came_given = await manager.create_online(["Cy", "Dee"], "classic")
        assert not nobody.meta.arrived and not came.meta.arrived
        await came.mutate(Back(came_given[0][1]))  # a person of it joined
        await nobody.mutate(StandIn(given[0][1]))  # what the driver sends when the turn timer is out
        assert nobody.meta.abandoned and nobody.next_job() is None and came.active
        clock.now += 600
        assert await manager.sweep() == {}
        clock.now += 1
        assert await manager.sweep() == {"abandoned": [nobody.id]}
        assert store.load_table(nobody.id) is None and store.load_table(came.id) is not None
        assert manager.metrics.expired.value(kind="abandoned") == 1
        await manager.close()
        store.close()

    run(scenario())


# ----------------------------------------------------------------- rates of messages
def test_every_client_message_has_a_rate() -> None:
    """A message without one would fail on arrival: the table of rates names every client message."""
    assert set(RATES) == set(CLIENT_MESSAGES)
    assert all(0 < rate.person <= rate.address for rate in RATES.values())


def deal_over(store: SQLiteStore, table: str) -> dict[str, str]:
    """A private table of four people whose first deal has just ended (the score waits to be read)
    in ``store``; the seat tokens by seat."""
    settings = check_settings({**FAST, "turn_timer": 600})
    tokens = {SEATS[s]: f"token-{s}" for s in range(4)}
    seats = {s: Seat(tokens[SEATS[s]], SEATS[s]) for s in range(4)}
    room = Room(Meta("private", 11, settings, seats, host=2), new_match(settings, 11))
    assert room.match is not None
    while not room.deal_just_ended():
        room.match.apply(room.match.legal_actions()[0])
    store.commit(table, room.meta.to_json(), True, 0, [action_str(a) for a in room.match.actions], False)
    return tokens


def first_error(ws: Any) -> dict[str, Any]:
    """The first error the socket gets from now on: a marker's own refusal, if nothing before it was refused."""
    ws.send_json({"type": "marker-of-the-test"})
    errors = [receive(ws, "error")]
    while errors[-1]["args"].get("type") != "marker-of-the-test":
        errors.append(receive(ws, "error"))
    return errors[0]


def test_continue_past_its_rate_is_refused_and_writes_nothing(app_client: Callable[..., TestClient], db: Path) -> None:
    """``continue`` sent 576 times a second was each stored and told to every seat: a seat's second
    ``continue`` now writes nothing, and past twenty in ten seconds it is refused ``slow_down``."""
    with app_client() as client:
        store: SQLiteStore = client.app.state.store  # type: ignore[attr-defined]
        tokens = deal_over(store, "T1")
        with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as west:
            ws.send_json({"type": "join", "table": "T1", "token": tokens["S"], "since": -1})
            assert receive(ws)["waiting"] == "continue"
            west.send_json({"type": "join", "table": "T1", "token": tokens["W"], "since": -1})
            receive(west)
            before, actions = stored_table(db, "T1")
            ws.send_json({"type": "continue"})
            assert receive(ws)["waiting"] == "others"
            read, _ = stored_table(db, "T1")
            assert read["version"] == before["version"] + 1 and read["acks"] == [2]
            ws.send_json({"type": "act", "action": "pass"})  # refused by the rules: not before the others read
            assert receive(ws, "error")["code"] == "waiting_for_others"
            for _ in range(19):
                ws.send_json({"type": "continue"})
            ws.send_json({"type": "continue"})
            refused = first_error(ws)
            assert (refused["code"], refused["args"]) == ("slow_down", {"count": 20, "seconds": 10})
            assert stored_table(db, "T1") == (read, actions)  # nothing written since the first
            ws.send_json({"type": "hint"})  # another message has its own rate
            assert receive(ws, "error")["code"] == "hints_solo_only"
            west.send_json({"type": "continue"})  # another person has their own
            assert until(west, lambda m: m["waiting"] == "others")["seat"] == "W"
        assert client.app.state.metrics.refusals.value(code="slow_down") == 1  # type: ignore[attr-defined]


def test_seat_moves_past_their_rate_are_refused_and_write_nothing(
    app_client: Callable[..., TestClient], db: Path
) -> None:
    """Lobby seat moves sent 710 times a second were each stored and told: past ten in ten seconds
    from a person, whatever their sockets, they are refused ``slow_down``."""
    with app_client() as client:
        t = client.post("/api/tables", json={"name": "Host", "settings": FAST}).json()
        guest = client.post(f"/api/tables/{t['table']}/sit", json={"invite": t["invite"], "name": "Gus"}).json()
        with client.websocket_connect("/ws") as one, client.websocket_connect("/ws") as two:
            for ws in (one, two):  # one person on two sockets
                ws.send_json({"type": "join", "table": t["table"], "token": guest["token"], "since": -1})
                receive(ws)
            for i in range(10):
                (one if i % 2 else two).send_json({"type": "seat", "seat": "EW"[i % 2]})
                assert receive(one)["seat"] == "EW"[i % 2]
            version = stored_table(db, t["table"])[0]["version"]
            two.send_json({"type": "seat", "seat": "N"})
            refused = first_error(two)
            assert (refused["code"], refused["args"]) == ("slow_down", {"count": 10, "seconds": 10})
            meta = stored_table(db, t["table"])[0]
            assert (meta["version"], sorted(meta["seats"])) == (version, ["S", "W"])


# ----------------------------------------------------------------- in Redis, for every process
def test_the_chat_limit_of_a_seat_holds_over_two_processes(tmp_path: Path) -> None:
    """One seat with a socket on each of two processes had 20 lines accepted in 12 s against the 5 in
    10 s of one seat: the chat's windows are counted in Redis."""
    config = ServerConfig(pace=0.0)
    with redis_server(tmp_path) as url:
        app_a = create_app(db_path=tmp_path / "a.sqlite3", config=config, redis_url=url)
        app_b = create_app(db_path=tmp_path / "b.sqlite3", config=config, redis_url=url)
        with serve_in_thread(app_a) as a, serve_in_thread(app_b) as b:
            table = post(a, "/api/tables", {"name": "Host", "settings": FAST})

            async def talk() -> list[str]:
                answers = []
                async with (
                    connect(a.replace("http", "ws") + "/ws") as one,
                    connect(b.replace("http", "ws") + "/ws") as two,
                ):
                    for ws in (one, two):
                        await ws.send(json.dumps({"type": "join", "table": table["table"], "token": table["token"]}))
                        await _next(ws, "state")
                    for i in range(10):
                        ws = (one, two)[i % 2]
                        await ws.send(json.dumps({"type": "chat", "text": f"line {i}"}))
                        while True:  # its own line back, or its refusal (the other's lines come too)
                            answer = await _next(ws, "chat", "error")
                            if answer["type"] == "error":
                                answers.append(answer["code"])
                                break
                            if answer["text"] == f"line {i}":
                                answers.append("chat")
                                break
                return answers

            assert run(talk()) == ["chat"] * 5 + ["slow_down"] * 5


async def _next(ws: ClientConnection, *kinds: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if msg["type"] in kinds:
            return msg


def test_an_event_is_counted_in_every_window_or_in_none(tmp_path: Path) -> None:
    async def scenario(url: str) -> None:
        link = RedisLink.connect(url)
        a, b = (SharedLimits(link.r, "belote:", p, (20, 60.0), 0) for p in ("A", "B"))
        person, address = Rate(2, 10.0), Rate(3, 10.0)

        def checks(who: str) -> list[tuple[str, Rate, str]]:
            return [("act:person", person, who), ("act:address", address, "1.2.3.4")]

        assert [await a.allow(checks("ann")), await b.allow(checks("ann"))] == [None, None]
        assert await a.allow(checks("ann")) == person  # Ann's two are spent, in both processes
        assert await b.allow(checks("bob")) is None  # her refused one did not count for the address
        assert await a.allow(checks("cy")) == address
        assert await link.r.zcard("belote:limit:act:address:1.2.3.4") == 3
        await link.close()

    with redis_server(tmp_path) as url:
        run(scenario(url))


# ----------------------------------------------------------------- people playing fast
def test_a_person_playing_as_fast_as_the_bots_let_them_is_never_refused(
    app_client: Callable[..., TestClient],
) -> None:
    """A solo match of two hands at the bots' fastest speed, its person answering every turn at once
    (quicker than any page: the page waits for each answer too): no message refused."""
    with app_client(pace=0.25) as client:  # the bots' quarter of a second at speed fast, shortened
        solo = client.post("/api/solo", json={**FAST, "variant": "two-handed", "deals": 2}).json()
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": solo["table"], "token": solo["token"], "since": -1})
            sent, answered = 0, None
            while True:
                msg = ws.receive_json()
                assert msg["type"] != "error", msg
                if msg["type"] != "state":
                    continue
                view = msg["view"]
                if view["match_over"]:
                    break
                position = (
                    view["deal_number"],
                    len(view["bids"]),
                    len(view["tricks"]),
                    len(view["trick"]),
                    msg["waiting"],
                )
                if position == answered:
                    continue
                if msg["waiting"] == "continue":
                    ws.send_json({"type": "continue"})
                elif view["legal"]:  # a card, or a bid that takes (the last: take, then a suit)
                    ws.send_json({"type": "act", "action": view["legal"][-1 if view["phase"] == "bidding" else 0]})
                else:
                    continue
                answered, sent = position, sent + 1
        assert sent > 30
        assert client.app.state.metrics.refusals.value(code="slow_down") == 0  # type: ignore[attr-defined]
