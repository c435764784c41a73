"""The ASGI app: the table page, the HTTP routes and websocket protocol of docs/protocol.md, the score sheet."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from belote import schemas
from belote.game import SEATS, IllegalAction, Refusal
from belote.record import dumps as record_dumps
from belote.record import match_records
from belote.rules import OPTIONS
from belote.server import assets, messages, player_routes, tournament_routes
from belote.server.hub import OUTAGE, Hub, local_hub
from belote.server.limits import (
    LocalLimits,
    address,
    count_new,
    counted,
    slow_down,
    too_many_sockets,
    too_many_tables,
)
from belote.server.logs import about
from belote.server.manager import TableManager
from belote.server.matchmaking import Matchmaker, waiting_by_game
from belote.server.messages import Hello, Join, LeaveQueue, Queue
from belote.server.metrics import Gauge, Metrics
from belote.server.player_store import SQLitePlayers
from belote.server.players import Players, queued_as
from belote.server.presence import Presence
from belote.server.problems import routes as problem_routes
from belote.server.review import Analyses
from belote.server.review import routes as review_routes
from belote.server.room import (
    REACTIONS,
    RULE_SETTINGS,
    TABLE_RULE_DEFAULTS,
    TABLE_SETTINGS,
    Act,
    Back,
    Hint,
    Left,
    Message,
    check_name,
    check_settings,
    parse_seat,
    person_seat,
    rules_of,
)
from belote.server.rules_page import rules_page
from belote.server.shared_limits import SharedLimits
from belote.server.sheets import routes as sheet_routes
from belote.server.store import SQLiteSheets, SQLiteStore, StoreFull, default_path
from belote.server.tables import Client, ServerConfig, Table, dumps
from belote.server.thinking import Thinker
from belote.server.tournament_store import SQLiteTournaments, TournamentStore
from belote.server.tournaments import Tournaments
from belote.server.wire import (
    BadRequest,
    ClientMessage,
    foreign_origin,
    http_body,
    origin_allowed,
    parse_json,
    read_body,
    refused,
    same_secret,
)
from belote.sheet import LIMITS as SHEET_LIMITS
from belote.sheet import sheet_rule_keys
from belote.variants import VARIANTS

Limits = LocalLimits | SharedLimits  # the limits per client address: one process's, or every process's
#: Messages waiting for a client's socket: a client further behind is dropped (it reconnects and
#: catches up from its last event); and the longest wait for one message to go out.
OUTBOX = 256
SEND_TIMEOUT = 10.0
FLOOD = (60, 1.0)  # after 60 refused messages in a second, the next are not even read
# The collector's last threshold, raised from 10 while the server runs: with many tables busy the
# default promotes every pending await (its coroutine, future and timer), and what a table keeps
# until its next action (the current deal's events), to the older generations, and so runs a full
# collection every 10 to 20 s, a pause of 150 to 250 ms for every table at 500 tables
# (bench/load.py). Full collections are made rare by the last threshold, not the first: a first
# threshold of 100,000 did it too, but let the cycles every connection leaves (uvicorn's protocol
# and transport) and every table let go of wait for 100,000 allocations, and the server grew by
# 6 MB a minute under a day's mixed traffic (bench/soak.py --mix; 1 MB a minute at this setting,
# levelling off), and its young collections paused it up to 107 ms. At 500 tables for a run of
# bench/load.py (with its setup): no full collection (one of 140-239 ms before), the longest pause
# 38-83 ms.
GC_THRESHOLD = (700, 10, 1000)
log = logging.getLogger("belote.server")


async def index(request: Request) -> Response:
    return assets.page(request, "index.html")


async def scores_page(request: Request) -> Response:
    return assets.page(request, "scores.html")


async def health(request: Request) -> Response:
    manager: TableManager = request.app.state.tables
    queue = await manager.hub.queue.entries()
    return JSONResponse({"ok": True, "tables": len(manager.tables), "queue": len(queue)})


TABLE_STATES = ("lobby", "playing", "finished")
TABLE_KINDS = ("solo", "private", "online")


def table_state(table: Table) -> str:
    if table.meta.status == "lobby":
        return "lobby"
    return "playing" if table.active else "finished"


async def metrics(request: Request) -> Response:
    """``GET /metrics``: what this process holds and has counted, in Prometheus' text format (docs/operations.md)."""
    manager: TableManager = request.app.state.tables
    held = {(state, kind): 0 for state in TABLE_STATES for kind in TABLE_KINDS}
    for table in list(manager.tables.values()):
        key = (table_state(table), table.meta.kind)
        held[key] = held.get(key, 0) + 1
    sockets: dict[str, int] = request.app.state.sockets
    waiting = waiting_by_game(await manager.hub.queue.entries())
    gauges = [
        Gauge(
            "belote_tables",
            "Tables held in this process's memory, by state and kind (the others wait in the store).",
            [({"state": state, "kind": kind}, n) for (state, kind), n in held.items()],
        ),
        Gauge("belote_websockets", "Websockets open on this process.", [({}, sum(sockets.values()))]),
        Gauge(
            "belote_store_full",
            "1 while the SQLite file's disk is full: what would be written is refused (store_full, HTTP 503).",
            [({}, int(request.app.state.store.full))],
        ),
        Gauge(
            "belote_queue_waiting",
            "Players waiting in the Play online queue, by game (every process's, in a shared hub).",
            [({"game": game}, n) for game, n in waiting.items()],
        ),
    ]
    text = request.app.state.metrics.render(gauges)
    return Response(text, media_type="text/plain; version=0.0.4; charset=utf-8")


async def games(request: Request) -> Response:
    """``GET /api/games``: every game and every option, from which the pages build their forms.

    Each game's facts (``Variant.describe``) with the options it reads and those its score sheet
    holds, in the order forms show them; each rule option's spec (``belote.rules.OPTIONS``), with
    ``table``: whether a table's host chooses it; the settings of a table that are not rules; the
    bounds of a score sheet's entries (``belote.sheet.LIMITS``), which its page checks before sending;
    the quick reactions a table takes (``room.REACTIONS``), which the table page offers.
    """
    manager: TableManager = request.app.state.tables
    defaults = manager.defaults()
    return JSONResponse(
        {
            "games": [
                {
                    **game.describe(),
                    "options": [spec.name for spec in OPTIONS if spec.read_by(name)],
                    "sheet_options": list(sheet_rule_keys(name)),
                }
                for name, game in VARIANTS.items()
            ],
            "options": [
                {
                    **spec.to_json(),
                    "table": spec.name in RULE_SETTINGS,
                    **({"table_default": defaults[spec.name]} if spec.name in TABLE_RULE_DEFAULTS else {}),
                }
                for spec in OPTIONS
            ],
            "table_settings": [{**spec.to_json(), "default": defaults[spec.name]} for spec in TABLE_SETTINGS],
            "sheet_limits": SHEET_LIMITS,
            "reactions": list(REACTIONS),
        }
    )


async def schema(request: Request) -> Response:
    """``GET /api/schemas/{name}.json``: a JSON Schema of the record or the protocol, as the package keeps it
    (docs/schemas.md); their shared definitions resolve next to it, at ``common.json``."""
    name = request.path_params["name"]
    if name not in schemas.NAMES:
        return PlainTextResponse(f"no schema {name!r}: the schemas are {', '.join(schemas.NAMES)}", status_code=404)
    return Response(schemas.text(name), media_type="application/schema+json")


async def openapi(request: Request) -> Response:
    """``GET /api/openapi.json``: the OpenAPI 3.1 document of these routes, self-contained."""
    return JSONResponse(schemas.openapi())


async def _json_body(request: Request) -> Any:
    """The request's JSON body ({} when empty); raises BadRequest (or Refusal) with the reason."""
    body = await read_body(request)
    return parse_json(body) if body.strip() else {}


async def _json_object(request: Request, what: str) -> dict[str, Any]:
    """The request's JSON body, which must be an object (``what`` says which)."""
    data = await _json_body(request)
    if not isinstance(data, dict):
        raise BadRequest(what, "bad_request")
    return data


NO_SUCH_TABLE = "no such table, or the invitation is wrong"


def unreachable() -> Refusal:
    """The refusal of anything that needs Redis while it is out of reach: the page keeps its seat,
    says so and tries again (docs/protocol.md)."""
    return Refusal("the game store is out of reach for a moment: play resumes shortly", "store_unreachable")


async def full_response(request: Request, exc: Exception) -> Response:
    """HTTP 503 ``store_full`` with ``Retry-After`` for a route that would write while the store's disk
    is full: a refusal like any other, counted in ``/metrics``; the store said it once in the log."""
    assert isinstance(exc, StoreFull)
    return refused(request, exc)


async def outage_response(request: Request, exc: Exception) -> Response:
    """HTTP 503 for a route that needed Redis while it is out of reach (the page itself needs none)."""
    log.warning("%s %s waits for Redis: %s", request.method, request.url.path, exc)
    e = unreachable()
    return JSONResponse(http_body(e), status_code=503, headers={"Retry-After": "2"})


async def _may_open_a_table(request: Request) -> None:
    """Counts a new table of the client's address among all it creates (``limits.count_new``); raises
    TooMany past ``--tables-per-minute`` (in all the processes, in Redis mode)."""
    await count_new(request.app.state.limits, address(request), too_many_tables)


async def identity(request: Request) -> dict[str, Any] | None:
    """The identity a request to sit at a table gives (``Authorization: Bearer <player secret>``,
    docs/players.md): optional; a wrong one is refused ``no_identity``, never taken for none."""
    if "authorization" not in request.headers:
        return None
    return await player_routes.me(request)


async def create_solo(request: Request) -> Response:
    manager: TableManager = request.app.state.tables
    try:
        settings = check_settings(await _json_body(request), manager.defaults())
        player = await identity(request)
        await _may_open_a_table(request)
    except Refusal as e:
        return refused(request, e)
    if player is None:
        table, token, seat = await manager.create_solo(settings)
    else:
        table, token, seat = await manager.create_solo(settings, player["name"], player["id"])
    return JSONResponse({"table": table.id, "token": token, "seat": SEATS[seat], "watch": table.meta.watch})


async def create_private(request: Request) -> Response:
    manager: TableManager = request.app.state.tables
    try:
        data = await _json_object(request, "the request is an object with a name")
        player = await identity(request)
        name = player["name"] if player is not None else check_name(data.get("name"))
        settings = check_settings(data.get("settings"), manager.defaults())
        players = rules_of(settings).players
        seat = person_seat(players) if data.get("seat") is None else parse_seat(data.get("seat"), players)
        await _may_open_a_table(request)
    except Refusal as e:
        return refused(request, e)
    table, token = await manager.create_private(name, seat, settings, None if player is None else player["id"])
    return JSONResponse(
        {"table": table.id, "token": token, "seat": SEATS[seat], "invite": table.meta.invite, "watch": table.meta.watch}
    )


async def invitation(request: Request) -> Response:
    """``GET /api/tables/{id}?invite=CODE``: the game and the free seats, for the page to offer."""
    manager: TableManager = request.app.state.tables
    found = await manager.invitation(request.path_params["table"], request.query_params.get("invite"))
    if found is None:
        return refused(request, IllegalAction(NO_SUCH_TABLE, "no_such_table"), 404)
    return JSONResponse(found)


async def sit(request: Request) -> Response:
    manager: TableManager = request.app.state.tables
    try:
        data = await _json_object(request, "the request is an object with the invitation code and a name")
        player = await identity(request)
        name = player["name"] if player is not None else check_name(data.get("name"))
        pid = None if player is None else player["id"]
        seated = await manager.sit(request.path_params["table"], data.get("invite"), name, data.get("seat"), pid)
    except IllegalAction as e:  # (the invitation is right) the seat is taken, the table full or started: watch
        table = manager.tables.get(request.path_params["table"])
        watch = table.meta.watch if table is not None else None
        return refused(request, e, 409, watch=watch)
    except Refusal as e:
        return refused(request, e)
    if seated is None:
        return refused(request, IllegalAction(NO_SUCH_TABLE, "no_such_table"), 404)
    table, token, taken = seated
    if pid is not None:  # an invitation to this table is answered
        await request.app.state.presence.seated(pid, table.id)
    return JSONResponse({"table": table.id, "token": token, "seat": SEATS[taken]})


async def records(request: Request) -> Response:
    """``GET /api/tables/{id}/records`` with ``Authorization: Bearer <seat token or watch code>``: the
    table's finished deals as deal records, one JSON line each (``belote replay`` and ``belote
    analyse`` read the file). A seat has them at any time; a spectator once the match is over (the
    people are still playing before: nothing is told of a match under way but what the table shows).
    Never the deal in progress. A wrong secret is told the same as a wrong table."""
    manager: TableManager = request.app.state.tables
    scheme, _, secret = request.headers.get("authorization", "").partition(" ")
    table = await manager.get(request.path_params["table"])
    if table is None or scheme.lower() != "bearer" or not secret:
        return refused(request, IllegalAction(NO_SUCH_TABLE, "no_such_table"), 404)
    seated = table.seat_of_token(secret) is not None
    if not seated and not same_secret(table.meta.watch, secret):
        return refused(request, IllegalAction(NO_SUCH_TABLE, "no_such_table"), 404)
    match = table.match
    if not seated and (match is None or not match.over):
        refusal = IllegalAction("the match is not over: a spectator has its deals when it ends", "match_not_over")
        return refused(request, refusal, 403)
    lines = "".join(record_dumps(r) + "\n" for r in ([] if match is None else match_records(match)))
    name = f"belote-{table.id[:8]}-game{table.meta.game + 1}.jsonl"
    headers = {"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"}
    return Response(lines, media_type="application/x-ndjson", headers=headers)


class Connection:
    """One websocket: at most one table joined (as a seat or a spectator), or a place in the queue."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.manager: TableManager = ws.app.state.tables
        self.presence: Presence = ws.app.state.presence
        self.players: Players = ws.app.state.players
        self.metrics: Metrics = ws.app.state.metrics
        self.matchmaker: Matchmaker = ws.app.state.matchmaker
        self.table: Table | None = None
        self.client: Client | None = None
        self.entry: str | None = None
        self.address = address(ws)
        # When the last messages were refused (a flood is not read): the last FLOOD[0] tell whether
        # that many came within FLOOD[1], and a socket sending nothing but malformed text (never
        # checked for a flood) holds no more.
        self.refused: deque[float] = deque(maxlen=FLOOD[0])
        self.outbox: asyncio.Queue[str] = asyncio.Queue(OUTBOX)
        self.reader: asyncio.Task[Any] | None = None
        self.dropped = False
        self.player: str | None = None  # the identity of this socket's person (``hello``, or a seat's)

    async def send(self, msg: dict[str, Any] | str) -> None:
        """Queue a message for the socket: no table ever waits for a client's network. A client whose
        queue is full cannot keep up and is dropped; it catches up from its last event when it returns."""
        try:
            self.outbox.put_nowait(msg if isinstance(msg, str) else dumps(msg))
        except asyncio.QueueFull:
            self.drop()

    def drop(self) -> None:
        if not self.dropped:
            self.dropped = True
            log.info("a client that does not read its messages is dropped (%d waiting)", self.outbox.qsize())
            if self.reader is not None:
                self.reader.cancel()

    async def _write(self) -> None:
        """Send what is queued, in order; a send that does not finish in ``SEND_TIMEOUT`` drops the client."""
        while True:
            text = await self.outbox.get()
            try:
                await asyncio.wait_for(self.ws.send_text(text), SEND_TIMEOUT)
            except Exception:  # gone, or too slow: the reader's end cleans up
                self.drop()
                return

    def flooding(self) -> bool:
        """More refused messages in the last second than a person could send: the next are not read."""
        now = time.monotonic()
        while self.refused and self.refused[0] < now - FLOOD[1]:
            self.refused.popleft()
        return len(self.refused) >= FLOOD[0]

    async def refuse(self, e: Refusal) -> None:
        """``{"type": "error", "message": words, "code", "args"}`` (docs/protocol.md); counted towards a flood."""
        self.refused.append(time.monotonic())
        await self.send(self.error(e))

    def error(self, e: Refusal) -> dict[str, Any]:
        """The error message of a refusal, counted in ``/metrics`` by its code."""
        self.metrics.refusals.inc(code=e.code)
        return {"type": "error", **e.to_json()}

    async def run(self) -> None:
        await self.ws.accept()
        if not origin_allowed(self.ws, self.ws.app.state.origins):
            await self.ws.send_text(dumps(self.error(foreign_origin(self.ws))))
            await self.ws.close(code=1008, reason="this server takes no websocket from that page")
            return
        sockets: dict[str, int] = self.ws.app.state.sockets
        limits: Limits = self.ws.app.state.limits
        try:
            allowed = counted = await limits.open_socket(self.address)  # counted: uncounted when it ends
        except Exception:  # Redis does not answer: let the client through rather than lock everybody out
            log.exception("the socket limit could not be counted in Redis")
            allowed, counted = True, False
        if not allowed:
            await self.ws.send_text(dumps(self.error(too_many_sockets(limits.sockets))))
            await self.ws.close(code=1008, reason="too many connections from one address")
            return
        sockets[self.address] = sockets.get(self.address, 0) + 1
        self.reader = asyncio.current_task()
        writer = asyncio.get_running_loop().create_task(self._write())
        try:
            await self._read()
        except WebSocketDisconnect:
            pass
        except asyncio.CancelledError:
            if not self.dropped or self.reader is None:
                raise
            self.reader.uncancel()
        finally:
            sockets[self.address] -= 1
            if not sockets[self.address]:
                del sockets[self.address]
            writer.cancel()
            try:
                # Whatever ended the socket, a cancel included (a server shutting down, a test client
                # closing), the table and the queue hear that it is gone: its seat may have none left.
                # Not cut short: a change cancelled between the room and the store would leave them
                # apart; the store's own limits (a lock waited for 10 s, a command tried again for
                # about 2 s) bound it.
                with anyio.CancelScope(shield=True):
                    await self.leave_table()
                    if self.entry is not None:
                        await self.matchmaker.leave(self.entry)
                    if self.player is not None:
                        await self.presence.leave(self.player, id(self))
            finally:
                if counted:
                    with contextlib.suppress(Exception):
                        await limits.close_socket(self.address)
        if self.dropped:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(code=1013, reason="too far behind: reconnect"), SEND_TIMEOUT)

    async def _read(self) -> None:
        while True:
            text = await self._text()
            if text is None:
                return
            arrived = time.perf_counter()
            try:
                msg = parse_json(text)
            except Refusal as e:
                await self.refuse(e)
                continue
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                await self.refuse(Refusal('a message is an object with a "type"', "bad_message"))
                continue
            if self.flooding():
                flood = Refusal(
                    f"too many refused messages: {FLOOD[0]} a second",
                    "flooding",
                    count=FLOOD[0],
                    seconds=round(FLOOD[1]),
                )
                await self.send(self.error(flood))
                continue
            try:
                with about(None if self.table is None else self.table.id):
                    message = await self.handle(msg)
            except Refusal as e:
                await self.refuse(e)
            except Exception as e:  # the store or Redis failed: say so, keep the connection
                if isinstance(e, self.ws.app.state.outage):
                    log.warning("a %r message waits for Redis: %s", msg["type"], e)
                    await self.refuse(unreachable())
                    continue
                with about(None if self.table is None else self.table.id):
                    log.exception("a %r message failed", msg["type"])
                self.metrics.errors.inc(where="socket")
                await self.refuse(Refusal("the server could not do that just now: try again", "server_error"))
            else:
                if isinstance(message, Act):  # answered: its state is on its way to every client
                    self.metrics.action_seconds.observe(time.perf_counter() - arrived)

    async def _text(self) -> str | None:
        """The next message, which is JSON text; None once a binary message has closed the socket (1003)."""
        message = await self.ws.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
        text: str | None = message.get("text")
        if text is None:
            e = Refusal("this server takes text messages only: JSON", "not_text")
            self.metrics.refusals.inc(code=e.code)
            log.info("a websocket is closed: %s", e, extra={"client": self.address})
            await self.ws.close(code=1003, reason=str(e))
        return text

    async def leave_table(self) -> None:
        table, client = self.table, self.client
        self.table = self.client = None
        if self.player is not None:
            await self.presence.at_table(self.player, id(self), None)
        if table is not None and client is not None and client in table.clients:
            table.clients.remove(client)
            if client.seat is not None:
                await table.presence(gone=client.seat)

    async def handle(self, data: dict[str, Any]) -> ClientMessage:
        """A message of the client, parsed by the table of client messages: the socket's own (join a
        table, the queue) done here, a person's told to their table; the message, once done."""
        seat = None if self.client is None else self.client.seat
        message = messages.parse(data, self.table is not None, seat)
        await self.within_rate(message)
        match message:
            case Join():
                await self.join(message)
            case Hello(secret):
                await self.online(await self.identity(secret))
            case Queue(name, variant, seating, secret):
                player = None if secret is None else await self.identity(secret)
                # A place in the queue makes at most one table: counted as the address's new table.
                await count_new(self.ws.app.state.limits, self.address, too_many_tables)
                await self.leave_table()
                if self.entry is not None:
                    await self.matchmaker.leave(self.entry)
                rated = None if player is None else await queued_as(self.players, player, variant)
                name = name if player is None else player["name"]
                self.entry = await self.matchmaker.join(name, self.send, variant, seating, rated)
            case LeaveQueue():
                if self.entry is not None:
                    await self.matchmaker.leave(self.entry)
                    self.entry = None
            case _:
                assert self.table is not None and self.client is not None  # a seated message (messages.parse)
                table = self.table
                if isinstance(message, Hint) and not table.hint_busy(self.client.seat):
                    await self.may_hint()
                events = await table.tell(self.client, cast(Message, message))
                if any(isinstance(e, Left) for e in events):
                    await self.leave_table()
        return message

    async def identity(self, secret: str | None) -> dict[str, Any]:
        """The identity of a secret a message gives; refused ``no_identity``."""
        player = await self.players.of_secret(secret)
        if player is None:
            raise player_routes.no_identity()
        return player

    async def online(self, player: dict[str, Any]) -> None:
        """This socket's person is ``player``: online for their friends, told of their invitations."""
        if self.player is not None and self.player != player["id"]:
            await self.presence.leave(self.player, id(self))
        self.player = player["id"]
        await self.presence.arrive(player["id"], id(self), self.send)

    async def may_hint(self) -> None:
        """Counts a hint of the client's address; refused ``slow_down`` past ``--hints-per-minute`` (in
        all the processes, in Redis mode): each is a second of a bot worker's time."""
        limits: Limits = self.ws.app.state.limits
        refused = await counted(limits, [("hints", limits.hints, self.address)], "a hint")
        if refused is not None:
            raise slow_down(refused, "hints")

    async def within_rate(self, message: ClientMessage) -> None:
        """Refuses (``slow_down``) a message that its person or its address sends faster than its rate
        (``messages.RATES``, times ``belote serve --message-rates``; in every process in Redis mode).
        Counted before anything is done, so a message refused writes and tells nothing; the chat's
        lines are counted by the table, on those it keeps."""
        rate = messages.RATES[type(message)]
        if rate.kept:
            return
        person, by_address = rate.rates(self.ws.app.state.message_rates)
        checks = [
            (f"{rate.name}:person", person, self.person(message)),
            (f"{rate.name}:address", by_address, self.address),
        ]
        refused = await counted(self.ws.app.state.limits, checks, f"a {message.wire!r} message")
        if refused is not None:
            raise slow_down(refused, f"{message.wire!r} messages")

    def person(self, message: ClientMessage) -> str:
        """Whose messages a rate counts together: a seat's token (the one a ``join`` names), whatever
        the sockets it is sent from, by a digest (no secret in a key of the store); else this socket."""
        token = message.token if isinstance(message, Join) else None if self.client is None else self.client.token
        if token:
            return "seat " + hashlib.sha256(token.encode()).hexdigest()[:32]
        return f"socket {self.manager.hub.process} {id(self)}"

    async def join(self, msg: Join) -> None:
        found = await self.manager.get(msg.table) if msg.table is not None else None
        seat: int | None = None
        if found is not None and msg.token is not None:
            seat = found.seat_of_token(msg.token)
            allowed = seat is not None
        elif found is not None and msg.watch is not None:
            allowed = same_secret(found.meta.watch, msg.watch)
        else:
            allowed = False
        if found is None or not allowed:
            raise IllegalAction("no such table, or this seat is not yours: start a new game", "no_such_table")
        if self.entry is not None:
            await self.matchmaker.leave(self.entry)
            self.entry = None
        await self.leave_table()
        events = 0 if found.match is None else len(found.match.events())
        person = msg.token if seat is not None else None
        since = min(msg.since, events - 1)
        client = Client(
            seat, self.send, since, token=person, address=self.address, epoch=found.replica.epoch, welcomed=False
        )
        if seat is None:
            client.name = msg.name
        self.table, self.client = found, client
        found.clients.append(client)  # heard of here (its seat has a socket), sent no state before its own
        try:
            if seat is not None:
                await found.presence()  # a solo table's bots go on when their person is back
                player = found.meta.seats[seat].player
                if player is not None:  # online at this table for their friends
                    if self.player != player:
                        await self.online({"id": player})
                    where = {"id": found.id, "variant": found.meta.settings["variant"]}
                    await self.presence.at_table(player, id(self), where)
            for line in await self.manager.hub.store.recent_chat(found.id):
                await self.send({**line, "old": True})
            if seat is not None and found.meta.missing(seat):
                with contextlib.suppress(StoreFull):  # a full disk: the table is shown as it is stored
                    await found.mutate(Back(seat))  # tells everybody the table without the stand-in and gone marks
        except BaseException:  # refused with its reason (the store out of reach...): changes still reach it
            client.welcomed = True
            raise
        await found.send_state(client)  # the table as it is now: from here on the socket hears every change


async def play_socket(ws: WebSocket) -> None:
    await Connection(ws).run()


class CountErrors:
    """Counts the HTTP requests that failed with an exception (a 500) in ``belote_errors_total{where="http"}``.

    A client that leaves in the middle of its request's body is no error of the server's: the request
    just ends (the connection counts and logs it: ``belote.server.connections``).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except ClientDisconnect:
            return
        except Exception:
            if scope["type"] == "http":
                scope["app"].state.metrics.errors.inc(where="http")
            raise


def create_app(
    store: SQLiteStore | None = None,
    db_path: str | Path | None = None,
    config: ServerConfig | None = None,
    redis_url: str | None = None,
) -> Starlette:
    """The app, with its store (a SQLite file by default), from which each table loads when somebody opens it.

    With ``redis_url`` the tables, the queue and the score sheets live in Redis and any number of
    processes share them: nothing lives only in one process's SQLite file.
    """
    if store is None:
        store = SQLiteStore(db_path or default_path())
    config = config or ServerConfig()
    routes: list[Any] = [
        Route("/", index, name="index"),
        Route("/scores", scores_page),
        Route("/rules", rules_page),
        Route("/api/health", health),
        Route("/metrics", metrics),
        Route("/api/games", games),
        Route("/api/openapi.json", openapi),
        Route("/api/schemas/{name}.json", schema),
        Route("/api/solo", create_solo, methods=["POST"]),
        Route("/api/tables", create_private, methods=["POST"]),
        Route("/api/tables/{table}", invitation, methods=["GET"]),
        Route("/api/tables/{table}/sit", sit, methods=["POST"]),
        Route("/api/tables/{table}/records", records, methods=["GET"]),
        WebSocketRoute("/ws", play_socket),
    ]
    routes.extend(sheet_routes)
    routes.extend(player_routes.routes)  # identities, profiles, leaderboards, friends (docs/players.md)
    routes.extend(tournament_routes.routes)  # duplicate tournaments (docs/tournaments.md)
    routes.extend(review_routes)  # the review page and POST /api/analyse
    routes.extend(problem_routes)
    # The page's files, named by the build (server/assets.py), and the service worker of the table page.
    routes.append(Mount("/static", routes=[Route("/{path:path}", assets.static)], name="static"))
    routes.append(Route("/sw.js", assets.worker))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub: Hub
        if redis_url:
            from belote.server.redis_hub import RedisLink, RedisSheets, redis_hub

            link = RedisLink.connect(redis_url)
            # A finished table's keys expire by themselves after the longest expiry; the sweep takes others sooner.
            hub = redis_hub(link, keep_finished=round(max(config.expiry().values())))
            limits: Limits = SharedLimits(
                link.r, link.prefix, hub.process, config.table_rate, config.sockets_per_address, config.hint_rate
            )
            app.state.sheets = RedisSheets(link.r, link.prefix, ttl=config.expire_sheets_after)
            from belote.server.redis_players import RedisPlayers

            app.state.players = Players(RedisPlayers(link))
            from belote.server.redis_tournaments import RedisTournaments

            app.state.tournaments = tournaments_in(RedisTournaments(link))
        else:
            hub = local_hub(store)
            limits = LocalLimits(config.table_rate, config.sockets_per_address, app.state.sockets, config.hint_rate)
        limits.start()  # in Redis: marks this process alive at once, and again while Redis answers
        app.state.limits = limits
        thinker = Thinker(config.think_workers)
        await thinker.start()
        manager = TableManager(
            hub, replace(config, thinker=thinker), app.state.metrics, rates=limits, sheets=app.state.sheets
        )
        manager.players = app.state.players
        manager.tournaments = app.state.tournaments
        app.state.tournaments.manager = manager
        matchmaker = Matchmaker(hub, manager, config.queue_wait)
        app.state.tables = manager
        app.state.matchmaker = matchmaker
        app.state.store = store
        log.info("tables in %s: each one loads when somebody opens it", redis_url or store.path)
        log.info("the page's files: build %s", app.state.assets.build().hash)  # read and compressed now
        manager.run_leases()
        matchmaker.start()
        app.state.presence.start(hub.bus, hub.shared)
        gc_before = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLD)
        yield
        gc.set_threshold(*gc_before)
        await matchmaker.close()
        await app.state.tournaments.close()
        await app.state.presence.close()
        await manager.close()
        await limits.close()
        await thinker.close()
        await hub.close()

    outage = OUTAGE if redis_url else ()
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        # Every answer the client takes compressed is (the page's files are, once: server/assets.py).
        middleware=[Middleware(CountErrors), Middleware(GZipMiddleware, minimum_size=500, compresslevel=6)],
        exception_handlers={**dict.fromkeys(outage, outage_response), StoreFull: full_response},
    )
    app.state.metrics = Metrics()
    app.state.outage = outage  # what the shared store raises while out of reach
    app.state.store = store
    app.state.sheets = SQLiteSheets(store)
    app.state.players = Players(SQLitePlayers(store))  # in Redis mode, Redis's (lifespan)

    def tournaments_in(kept: TournamentStore) -> Tournaments:
        return Tournaments(kept, daily_boards=config.daily_boards, daily_strength=config.daily_bots)

    app.state.tournaments = tournaments_in(SQLiteTournaments(store))  # in Redis mode, Redis's
    app.state.presence = Presence()
    app.state.origins = config.origins
    app.state.message_rates = config.message_rates  # times each message's rate (messages.RATES)
    app.state.sockets = {}  # open websockets by address (in this process)
    app.state.analyses = Analyses()  # the deals under analysis and the last answers (review.py)
    app.state.monthly = {}  # the months' rankings of the daily tournaments, kept a minute (tournament_routes.py)
    app.state.assets = assets.Assets()  # the page's files in memory, named by their bytes
    return app
