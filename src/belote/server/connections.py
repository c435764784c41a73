"""The server's connections, before any request reaches the app: how many one client address may hold
open, how long a request may take to arrive, and how many the process takes in all.

uvicorn reads a request's headers (and its body, as the app asks for it) before the app hears of the
request, so a client that sends them a byte at a time, or never finishes, holds a socket and its file
descriptor out of the app's sight: 1,024 such connections from one address used up the process's
descriptors (``Too many open files`` at ``accept``) and nobody else could connect. These limits
therefore live in uvicorn's protocol, the object that reads each connection: ``protocols`` gives
subclasses of its h11 protocol (every connection starts there) and of its websockets protocol (a
connection that upgrades goes on there), which ``Connections`` counts and times.

- **Per address.** One client address holds at most ``per_address`` connections at once, HTTP and
  websockets alike; past it a new one is answered ``429`` (``too_many_connections``) and closed at
  once. A reverse proxy the server trusts (``belote serve --forwarded-allow-ips``) is not limited:
  all its clients come from its address, and it limits each of them itself (deploy/nginx.conf).
  The count is this process's: what it guards is this process's descriptors.
- **In all.** The process holds at most ``total`` connections; past it a new one is answered ``503``
  (``server_full``) and closed at once. By default ``total`` leaves room under the process's limit
  of open files for its own files and for the connections the kernel hands over in one go
  (``plan``), so that ``accept`` never fails. (uvicorn's own ``limit_concurrency`` would not do: it
  answers 503 only to a request whose headers have arrived, and accepts every connection.)
- **In time.** A request's headers arrive within ``header_timeout`` seconds of its first byte (of
  the connection's opening, for the first request), its body within ``body_timeout`` seconds of
  its headers; else ``408`` (``request_timeout``) and the connection is closed. Between two
  requests uvicorn's keep-alive timeout (5 s) closes an idle connection.
- **Text only.** A websocket's text message that is not UTF-8 closes it with 1007 and a reason (a
  binary message is the app's to refuse, with 1003: ``belote.server.app.Connection``).

Every line these write names the client (``belote.server.logs.ClientLog``), so the log folds a
client's repeated lines; none has a traceback.

>>> plan(1024)
Plan(files=1024, backlog=128, total=640)
>>> plan(65536)
Plan(files=65536, backlog=2048, total=57280)
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import os
from collections.abc import Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, ClassVar, Literal

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from belote.actions import Refusal
from belote.server import logs
from belote.server.limits import TooMany
from belote.server.metrics import Gauge, Metrics
from belote.server.wire import BadRequest, http_body

log = logging.getLogger("belote.connections")

#: Seconds for a request's headers to arrive, from its first byte; for its body, from its headers.
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0
#: Connections one client address may hold open at once: a browser opens up to 6 for its requests,
#: and a person's tabs a websocket each (at most ``--sockets-per-address``, 32).
PER_ADDRESS = 64
#: Seconds a refused connection waits for its client's first bytes before its answer and its close.
TURN_AWAY = 1.0

Part = Literal["headers", "body"]


# ----------------------------------------------------------------- file descriptors
@dataclass(frozen=True)
class Plan:
    """How many connections a process can hold with ``files`` descriptors: ``backlog``, the connections
    the kernel may hand over in one go before the server has seen any of them (the listening socket's
    backlog, which asyncio also accepts at most at once), and as many refused connections that wait
    for their answer; ``total``, the connections held at most, with room left besides for the
    server's own files (its store, Redis, the bots' workers, the log)."""

    files: int
    backlog: int
    total: int


def plan(files: int) -> Plan:
    """The connections a limit of ``files`` open files leaves room for (``Plan``)."""
    backlog = max(16, min(2048, files // 8))
    own = 64 + files // 16
    # The backlog's room twice: the connections handed over at once, and as many refused ones waiting
    # for their answer (``HTTPProtocol.turn_away``).
    return Plan(files, backlog, max(1, files - 2 * backlog - own))


def raise_file_limit() -> tuple[int, int]:
    """Raise this process's limit of open files to its hard limit, where the system allows:
    (the limit before, the limit now). A server's connections are each a descriptor, and many
    systems start a process with 1,024 under a hard limit far above it."""
    try:
        import resource
    except ImportError:  # not on this system (Windows): its own limits hold
        return 0, 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # An unlimited hard limit is not a number the kernel takes: ask for a large one instead.
    wanted = [hard] if hard != resource.RLIM_INFINITY else [1 << 20, 65536]
    for files in wanted:
        if files <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, hard))
        except (ValueError, OSError):
            continue
        return soft, files
    return soft, soft


def open_files() -> int | None:
    """The descriptors this process has open (None where the system does not say)."""
    try:
        return len(os.listdir("/proc/self/fd")) - 1  # the listing's own
    except OSError:
        return None


# ----------------------------------------------------------------- who may connect
class Proxies:
    """The reverse proxies the server trusts (``--forwarded-allow-ips``): addresses, networks, or ``*``.

    >>> p = Proxies("127.0.0.1, 10.0.0.0/8")
    >>> "127.0.0.1" in p, "10.2.3.4" in p, "192.0.2.1" in p, "192.0.2.1" in Proxies("*"), "::1" in Proxies(None)
    (True, True, False, True, False)
    """

    def __init__(self, spec: str | None) -> None:
        items = [item.strip() for item in (spec or "").split(",") if item.strip()]
        self.everyone = "*" in items
        self.literals: set[str] = set()
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for item in items:
            try:
                self.networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                self.literals.add(item)  # a name uvicorn would take as it is (a unix socket's)

    def __contains__(self, address: object) -> bool:
        if self.everyone or address in self.literals:
            return True
        try:
            ip = ipaddress.ip_address(str(address))
        except ValueError:
            return False
        return any(ip in network for network in self.networks)


def too_many_connections(limit: int) -> TooMany:
    return TooMany(f"too many connections from one address: at most {limit} at once", "too_many_connections", max=limit)


def server_full(limit: int) -> BadRequest:
    return BadRequest(
        f"the server holds as many connections as it can ({limit}): try again shortly", "server_full", 503, max=limit
    )


def request_timeout(part: Part, seconds: float) -> BadRequest:
    return BadRequest(
        f"the request's {part} took longer than {seconds:g} seconds to arrive",
        "request_timeout",
        408,
        part=part,
        seconds=seconds,
    )


def answer(e: Refusal) -> bytes:
    """A whole HTTP answer to a refusal, written before (or instead of) any request's own: its status,
    and the body every refusal has (docs/protocol.md), on a connection that closes.

    >>> answer(too_many_connections(2)).decode().splitlines()[0]
    'HTTP/1.1 429 Too Many Requests'
    """
    status = getattr(e, "status", 400)
    body = json.dumps(http_body(e)).encode()
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n"
    )
    if status in (429, 503):
        head += "retry-after: 2\r\n"
    return head.encode() + b"\r\n" + body


class Connections:
    """The connections of one server process: how many each client address holds, the limits, and
    what is counted in ``/metrics``. Each is counted from its opening to its end, whether it stays
    HTTP or becomes a websocket (both protocols hold the same transport)."""

    def __init__(
        self,
        per_address: int = PER_ADDRESS,
        total: int = 0,
        proxies: Proxies | None = None,
        header_timeout: float = HEADER_TIMEOUT,
        body_timeout: float = BODY_TIMEOUT,
        metrics: Metrics | None = None,
        turn_away_at_once: int = 64,
    ) -> None:
        self.per_address = per_address  # 0: no limit
        self.total = total  # 0: no limit
        self.proxies = proxies or Proxies(None)
        self.header_timeout = header_timeout  # 0: none
        self.body_timeout = body_timeout
        self.metrics = metrics or Metrics()
        self.open: dict[object, str] = {}  # each open connection's transport: its client's address
        self.by_address: dict[str, int] = {}
        #: Refused connections waiting for their answer (``HTTPProtocol.turn_away``), and how many may
        #: (past them, a refused connection is closed at once, unanswered: each holds a descriptor).
        self.turning_away = 0
        self.turn_away_at_once = turn_away_at_once

    def admit(self, transport: object, address: str) -> Refusal | None:
        """Count a new connection of ``address``, or the refusal that closes it."""
        if self.total > 0 and len(self.open) >= self.total:
            return server_full(self.total)
        held = self.by_address.get(address, 0)
        if self.per_address > 0 and held >= self.per_address and address not in self.proxies:
            return too_many_connections(self.per_address)
        self.open[transport] = address
        self.by_address[address] = held + 1
        return None

    def release(self, transport: object) -> None:
        """The connection has ended (nothing to do for one never counted, or already released)."""
        address = self.open.pop(transport, None)
        if address is not None:
            held = self.by_address[address] - 1
            if held:
                self.by_address[address] = held
            else:
                del self.by_address[address]

    def refused(self, e: Refusal, address: str) -> None:
        """Counted in ``/metrics`` by its code, and one line of the log (folded per address)."""
        self.metrics.refusals.inc(code=e.code)
        log.info("a connection is closed: %s", e, extra={"client": address, "kind": e.code})

    def gauges(self) -> Iterable[Gauge]:
        """``belote_connections`` and the limits, and the process's descriptors (``process_open_fds``,
        ``process_max_fds``: the names Prometheus' own clients give them)."""
        yield Gauge(
            "belote_connections", "Connections open on this process, HTTP and websockets.", [({}, len(self.open))]
        )
        yield Gauge(
            "belote_connections_limit",
            "The most connections this process holds at once, in all (all) and from one client address "
            "(per_address); 0: no limit.",
            [({"of": "all"}, self.total), ({"of": "per_address"}, self.per_address)],
        )
        files = open_files()
        if files is not None:
            yield Gauge("process_open_fds", "File descriptors this process has open.", [({}, files)])
            try:
                import resource

                limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
            except ImportError:  # pragma: no cover (not on this system)
                return
            yield Gauge("process_max_fds", "The most file descriptors this process may open.", [({}, limit)])


# ----------------------------------------------------------------- uvicorn's protocols
class HTTPProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, counted and timed by ``guard`` (a subclass per server: ``protocols``)."""

    guard: ClassVar[Connections]
    refused = False  # past a limit: answered and closed at once
    refusal: Refusal | None = None  # the answer it waits to be given (``turn_away``)
    timed_out = False  # closed: a request too slow to arrive
    address = ""
    deadline: asyncio.TimerHandle | None = None
    waiting_for: Part | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.address = self.client[0] if self.client else ""
        self.logger = logs.ClientLog(self.logger, self.address)  # type: ignore[assignment]
        refusal = self.guard.admit(transport, self.address)
        if refusal is not None:
            self.refused = True
            self.guard.refused(refusal, self.address)
            if self.guard.turning_away >= self.guard.turn_away_at_once:
                transport.close()  # no room to answer them all: closed without a word
                return
            self.guard.turning_away += 1
            self.refusal = refusal
            self.deadline = self.loop.call_later(TURN_AWAY, self.turn_away)
            return
        self.wait_for("headers")

    def turn_away(self) -> None:
        """Answer the refusal and close: once the client's first bytes are read (a connection closed with
        bytes unread is reset, and the client loses the answer), or after ``TURN_AWAY`` seconds of
        silence."""
        if self.refusal is not None:
            self.transport.write(answer(self.refusal))
            self.transport.close()
            self.stop_turning_away()

    def stop_turning_away(self) -> None:
        if self.refusal is not None:
            self.refusal = None
            self.guard.turning_away -= 1
            self.stop_waiting()

    def data_received(self, data: bytes) -> None:
        if self.refused:
            self.turn_away()
            return
        if self.deadline is None and self.conn.their_state is h11.IDLE:
            self.wait_for("headers")  # the first bytes of the next request on a kept connection
        super().data_received(data)
        self.follow()

    def follow(self) -> None:
        """Move the deadline on as the request arrives: its headers, then its body, then none (the app
        answers in its own time)."""
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            if self.deadline is None and self.conn.trailing_data[0]:
                self.wait_for("headers")  # a request begun behind the last one
        elif state is h11.SEND_BODY:
            if self.waiting_for != "body":
                self.wait_for("body")
        else:
            self.stop_waiting()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self.follow()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self.stop_waiting()  # the websockets protocol reads from now on; the same transport stays counted
        super().handle_websocket_upgrade(event)

    def send_400_response(self, msg: str) -> None:
        self.guard.metrics.broken_requests.inc(why="not_http")
        super().send_400_response(msg)

    def connection_lost(self, exc: Exception | None) -> None:
        if not (self.refused or self.timed_out) and self.conn.their_state is h11.SEND_BODY:
            self.guard.metrics.broken_requests.inc(why="left_mid_body")
            method, path = self.scope["method"], self.scope["path"]
            log.info(
                "the client left in the middle of a request's body: %s %s",
                method,
                path[:100],
                extra={"client": self.address},
            )
        self.stop_turning_away()
        self.stop_waiting()
        self.guard.release(self.transport)
        super().connection_lost(exc)

    def wait_for(self, part: Part) -> None:
        self.stop_waiting()
        seconds = self.guard.header_timeout if part == "headers" else self.guard.body_timeout
        if seconds > 0:
            self.waiting_for = part
            self.deadline = self.loop.call_later(seconds, self.too_slow, part, seconds)

    def stop_waiting(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
        self.deadline = self.waiting_for = None

    def too_slow(self, part: Part, seconds: float) -> None:
        """The request's ``part`` has not arrived in time: answer 408 (unless the app has begun its own
        answer) and close."""
        self.deadline = self.waiting_for = None
        if self.transport.is_closing():
            return
        self.timed_out = True
        refusal = request_timeout(part, seconds)
        self.guard.refused(refusal, self.address)
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
            self.transport.write(answer(refusal))
        self.transport.close()


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets protocol, which a connection counted by ``HTTPProtocol`` becomes when it
    upgrades: released when it ends; a text message that is not UTF-8 closes it (1007)."""

    guard: ClassVar[Connections]
    address = ""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.address = self.client[0] if self.client else ""
        self.logger = logs.ClientLog(self.logger, self.address)  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.guard.release(self.transport)

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent and not utf8(self.frames):
            self.frames = []
            refusal = Refusal("a text message that is not UTF-8", "bad_text")
            self.guard.refused(refusal, self.address)
            self.conn.send_close(1007, str(refusal))
            self.handle_parser_exception()  # sends the close, and tells the app the socket is gone
            return
        super().send_receive_event_to_app()


def utf8(frames: list[bytes]) -> bool:
    """Whether a message's frames are UTF-8 text (the message, not each frame: a character may be cut
    between two)."""
    data = frames[0] if len(frames) == 1 else b"".join(frames)
    if data.isascii():
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def protocols(guard: Connections) -> tuple[type[HTTPProtocol], type[WebSocketProtocol]]:
    """The two protocol classes of a server whose connections ``guard`` counts (uvicorn makes one
    object of them per connection, given only its config)."""

    class HTTP(HTTPProtocol):
        pass

    class WebSocket(WebSocketProtocol):
        pass

    HTTP.guard = WebSocket.guard = guard
    return HTTP, WebSocket


class Server(uvicorn.Server):
    """uvicorn's server, which also says every few seconds how many lines the log held back."""

    async def on_tick(self, counter: int) -> bool:
        if counter % 50 == 0:  # a tick is 0.1 s
            logs.flush_folded()
        return await super().on_tick(counter)


def server(app: Any, guard: Connections, backlog: int, **options: Any) -> Server:
    """A uvicorn server of ``app`` whose connections ``guard`` counts; ``options`` are uvicorn's."""
    http, ws = protocols(guard)
    guard.metrics.sources.append(guard.gauges)
    return Server(uvicorn.Config(app, http=http, ws=ws, backlog=backlog, **options))
