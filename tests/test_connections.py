"""Connections against one hostile stranger (server/connections.py, server/hosts.py, server/logs.py).

A real ``belote serve`` and real sockets: one address holds at most its connections, and another
still connects; a request too slow to arrive is answered 408 and closed; the server raises its limit
of open files and never fails to accept for want of one; a client that leaves mid-body, sends what
is not HTTP, a binary or non-UTF-8 websocket message, or names another host leaves no traceback in
the log and one line at most; the ``Host`` is checked. The loopback network is all this machine's:
the stranger and the other clients connect from 127.0.0.3, 127.0.0.2... Then the protocol's
deadlines on a clock the test moves.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import select
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode

from belote.server import connections
from belote.server.connections import Connections, plan
from netplay import Server, run
from test_operations import parse_metrics, sample

STRANGER, OTHER = "127.0.0.3", "127.0.0.2"
SLOW_HEAD = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "  # a header line that never ends
POST_HEAD = b"POST /api/sheets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"


@contextlib.contextmanager
def serving(tmp_path: Path, *args: str, files: tuple[int, int] | None = None) -> Iterator[Server]:
    server = Server(tmp_path / "c.sqlite3", tmp_path / "serve.log", *args, files=files)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def opened(port: int, source: str, data: bytes = b"") -> socket.socket:
    """A connection to the server from ``source``, ``data`` sent."""
    sock = socket.socket()
    sock.settimeout(30)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    sock.sendall(data)
    return sock


def until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (raises TimeoutError if it does not)."""
    out = b""
    while chunk := sock.recv(4096):
        out += chunk
    return out


def refusal(answer: bytes) -> tuple[int, dict[str, Any]]:
    """The status and the JSON body of an HTTP answer."""
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def readable(sock: socket.socket) -> bool:
    return bool(select.select([sock], [], [], 0)[0])


def get(port: int, path: str, source: str = OTHER, host: str = "127.0.0.1") -> tuple[int, bytes]:
    """A request from ``source`` on a connection of its own: its status and body."""
    with opened(port, source, f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()) as s:
        answer = until_closed(s)
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def metrics(port: int) -> Any:
    status, body = get(port, "/metrics")
    assert status == 200
    return parse_metrics(body.decode())


def waited(port: int, done: Callable[[Any], bool]) -> Any:
    """The server's metrics once ``done`` holds of them (it counts what happened on its side of the sockets)."""
    deadline = time.monotonic() + 60
    while not done(series := metrics(port)):
        assert time.monotonic() < deadline, "the server never counted it"
    return series


# ----------------------------------------------------------------- how many connections
def upgraded(port: int, source: str) -> socket.socket:
    """A websocket from ``source``, open (its handshake answered)."""
    key = base64.b64encode(os.urandom(16)).decode()
    head = (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    sock = opened(port, source, head.encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def test_one_address_holds_at_most_its_connections_and_another_still_connects(tmp_path: Path) -> None:
    with serving(tmp_path, "--connections-per-address", "4") as server:
        slow = [opened(server.port, STRANGER, SLOW_HEAD) for _ in range(2)]
        sockets = [upgraded(server.port, STRANGER) for _ in range(2)]  # websockets count as much
        try:
            with opened(server.port, STRANGER, SLOW_HEAD) as fifth:
                status, body = refusal(until_closed(fifth))  # at once: its headers are not even waited for
            assert (status, body["code"], body["args"]) == (429, "too_many_connections", {"max": 4})
            assert not any(readable(s) for s in slow)  # held, unanswered
            assert get(server.port, "/api/health") == (200, b'{"ok":true,"tables":0,"queue":0}')
            series = metrics(server.port)
            assert sample(series, "belote_refusals_total", code="too_many_connections") == 1
            assert sample(series, "belote_connections") == 5  # the four, and the one asking
            assert sample(series, "belote_connections_limit", of="per_address") == 4
            for s in sockets:
                s.close()
            waited(server.port, lambda series: sample(series, "belote_connections") == 3)
            assert get(server.port, "/api/health", source=STRANGER)[0] == 200  # the websockets' room is free
        finally:
            for s in slow + sockets:
                s.close()


def test_a_request_too_slow_to_arrive_is_answered_408_and_closed(tmp_path: Path) -> None:
    with serving(tmp_path, "--header-timeout", "0.5", "--body-timeout", "0.5") as server:
        port = server.port
        body = POST_HEAD + b'Content-Length: 50\r\n\r\n{"na'
        with (
            opened(port, STRANGER) as idle,  # opens and says nothing
            opened(port, STRANGER, SLOW_HEAD) as headers,
            opened(port, STRANGER, body) as half_body,
            opened(port, STRANGER, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") as kept,
        ):
            assert kept.recv(4096).startswith(b"HTTP/1.1 200")  # answered, and kept open for the next
            kept.sendall(SLOW_HEAD)  # whose headers never end
            answers = [refusal(until_closed(s)) for s in (idle, headers, half_body, kept)]
            assert get(port, "/api/health")[0] == 200  # a client who sends its request is answered throughout
        parts = ["headers", "headers", "body", "headers"]
        assert answers == [(408, {**timeout(part), "code": "request_timeout"}) for part in parts]
        assert sample(metrics(port), "belote_refusals_total", code="request_timeout") == 4


def timeout(part: str) -> dict[str, Any]:
    return {
        "error": f"the request's {part} took longer than 0.5 seconds to arrive",
        "args": {"part": part, "seconds": 0.5},
    }


def test_the_server_raises_its_file_limit_and_accept_never_runs_out(tmp_path: Path) -> None:
    """Started with 128 open files under a hard limit of 256 (as systems start a server with 1,024 under
    far more), it takes 256, and holds at most what leaves it room: 200 slow connections from four
    addresses (50 each, under their limit) find 112 held and 88 refused at once, and no accept fails."""
    cap = plan(256).total
    assert cap == 112
    with serving(tmp_path, "--header-timeout", "600", files=(128, 256)) as server:
        assert server.proc is not None
        limits = Path(f"/proc/{server.proc.pid}/limits").read_text()
        assert [line.split()[3:5] for line in limits.splitlines() if line.startswith("Max open files")] == [
            ["256", "256"]
        ]
        slow = [opened(server.port, f"127.0.0.{4 + i // 50}", SLOW_HEAD) for i in range(200)]
        try:
            refused: list[tuple[int, dict[str, Any]] | None] = []  # None: closed without a word
            waiting = list(slow)
            deadline = time.monotonic() + 60
            while len(refused) < 200 - cap:
                assert time.monotonic() < deadline, f"{len(refused)} refused"
                ready, _, _ = select.select(waiting, [], [], 1.0)
                for s in ready:
                    try:
                        refused.append(refusal(until_closed(s)))
                    except ConnectionResetError:  # more refused at once than the server answers
                        refused.append(None)
                    waiting.remove(s)
            assert not any(readable(s) for s in waiting)  # held
            answered = [answer for answer in refused if answer is not None]
            assert answered and all(answer == (503, server_full(cap)) for answer in answered), answered
        finally:
            for s in slow:
                s.close()
        while (status := get(server.port, "/api/health")[0]) != 200:  # once the server has seen them close
            assert status == 503
        log = server.log_path.read_text()
        assert "Too many open files" not in log and "Traceback" not in log


def server_full(cap: int) -> dict[str, Any]:
    return {
        "error": f"the server holds as many connections as it can ({cap}): try again shortly",
        "code": "server_full",
        "args": {"max": cap},
    }


# ----------------------------------------------------------------- the log against hostile clients
def ws_url(port: int, host: str = "127.0.0.1") -> str:
    return f"ws://{host}:{port}/ws"


def ws_socket(port: int) -> socket.socket:
    sock = socket.socket()
    sock.bind((STRANGER, 0))
    sock.connect(("127.0.0.1", port))
    return sock


async def closed_by(port: int, frames: list[Frame]) -> tuple[int | None, str | None]:
    """The close code and reason of a websocket that sent ``frames``."""
    async with connect(ws_url(port), sock=ws_socket(port)) as ws:
        for frame in frames:
            ws.protocol.send_frame(frame)
        ws.send_data()
        with contextlib.suppress(ConnectionClosed):
            while True:
                await ws.recv()
        assert ws.protocol.close_rcvd is not None
        return ws.protocol.close_rcvd.code, ws.protocol.close_rcvd.reason


async def answered(port: int, frames: list[Frame]) -> dict[str, Any]:
    async with connect(ws_url(port), sock=ws_socket(port)) as ws:
        for frame in frames:
            ws.protocol.send_frame(frame)
        ws.send_data()
        got: dict[str, Any] = json.loads(await ws.recv())
        return got


def test_hostile_clients_leave_one_line_each_and_no_traceback(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        port = server.port
        head = POST_HEAD + b"Content-Length: 100\r\n\r\n"
        for _ in range(200):  # the body cut short
            opened(port, STRANGER, head + b'{"names": ["A').close()
        for _ in range(100):
            with opened(port, STRANGER, b"GARBAGE\x00 / HTTP/9\r\n\r\n") as s:
                assert until_closed(s).startswith(b"HTTP/1.1 400")
        evil = b"GET /api/health HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
        for _ in range(30):
            with opened(port, STRANGER, evil) as s:
                assert refusal(until_closed(s))[1]["code"] == "bad_host"

        async def sockets() -> list[Any]:
            binary = [await closed_by(port, [Frame(Opcode.BINARY, b"\x01\x02")]) for _ in range(30)]
            not_utf8 = [await closed_by(port, [Frame(Opcode.TEXT, b'{"type": "\xff"}')]) for _ in range(30)]
            # UTF-8 cut between two frames is text all the same: answered as any message that is not an object
            split = await answered(port, [Frame(Opcode.TEXT, b'"\xc3', fin=False), Frame(Opcode.CONT, b'\xa9"')])
            return [set(binary), set(not_utf8), split["code"]]

        binary, not_utf8, split = run(sockets())
        assert binary == {(1003, "this server takes text messages only: JSON")}
        assert not_utf8 == {(1007, "a text message that is not UTF-8")}
        assert split == "bad_message"
        series = waited(port, lambda s: sample(s, "belote_broken_requests_total", why="left_mid_body") == 200)
        assert sample(series, "belote_broken_requests_total", why="not_http") == 100
        assert [sample(series, "belote_refusals_total", code=c) for c in ("not_text", "bad_text", "bad_host")] == [
            30,
            30,
            30,
        ]
        assert not [labels for (name, labels) in series if name == "belote_errors_total"]  # none is the server's
    log = server.log_path.read_text()
    assert "Traceback" not in log
    # Five kinds of line, each said once (and its count a minute later, were the test that slow).
    for words in ("left in the middle", "Invalid HTTP request", "text messages only", "not UTF-8", "another name"):
        assert 1 <= log.count(words) <= 2, (words, log)
    assert len(log) < 4000, log


# ----------------------------------------------------------------- the Host
def test_a_request_for_another_name_is_refused(tmp_path: Path) -> None:
    """A page on evil.example, a name that resolves to this server, sends that Host and its own Origin."""
    with serving(tmp_path, "--host-name", "belote.example") as server:
        port = server.port
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/solo",
            data=b"{}",
            headers={
                "Host": f"evil.example:{port}",
                "Origin": f"http://evil.example:{port}",
                "Content-Type": "application/json",
            },
            method="POST",
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 400
        assert json.loads(refused.value.read()) == {
            "error": f"this server does not answer to the name evil.example:{port}: see belote serve --host-name",
            "code": "bad_host",
            "args": {"host": f"evil.example:{port}"},
        }

        async def socket_of_evil() -> tuple[dict[str, Any], int | None]:
            async with connect(ws_url(port, "evil.example"), sock=ws_socket(port)) as ws:
                error = json.loads(await ws.recv())
                with contextlib.suppress(ConnectionClosed):
                    await ws.recv()
                return error, ws.close_code

        error, code = run(socket_of_evil())
        assert (error["type"], error["code"], code) == ("error", "bad_host", 1008)
        for host in ("127.0.0.1", f"localhost:{port}", "[::1]", "belote.example", "Belote.Example.:443"):
            assert get(port, "/api/health", host=host)[0] == 200, host
        series = metrics(port)
        assert sample(series, "belote_refusals_total", code="bad_host") == 2
        assert sum(v for (name, _), v in series.items() if name == "belote_tables") == 0  # no table was made


# ----------------------------------------------------------------- the deadlines, on a clock the test moves
class Timers:
    """The event loop's ``call_later``, kept for the test to fire: the rest is the running loop's."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pending: list[tuple[float, Any, tuple[Any, ...], asyncio.Handle]] = []

    def call_later(self, delay: float, callback: Any, *args: Any) -> asyncio.Handle:
        handle = asyncio.Handle(lambda: None, (), self.loop)
        self.pending.append((delay, callback, args, handle))
        return handle

    def deadlines(self) -> list[tuple[float, str]]:
        """The deadlines set and not cancelled: their seconds and what they wait for (ours), or the keep-alive."""
        return [(d, args[0] if args else cb.__name__) for d, cb, args, h in self.pending if not h.cancelled()]

    def fire(self) -> None:
        for _, callback, args, handle in self.pending:
            if not handle.cancelled():
                handle.cancel()
                callback(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.loop, name)


class Transport(asyncio.Transport):
    def __init__(self, peer: str) -> None:
        super().__init__()
        self.peer = peer
        self.written = b""
        self.closing = False
        self.protocol: Any = None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": (self.peer, 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += bytes(data)

    def close(self) -> None:
        self.closing = True

    def is_closing(self) -> bool:
        return self.closing

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.protocol = protocol

    def get_protocol(self) -> Any:
        return self.protocol


async def app(scope: Any, receive: Any, send: Any) -> None:
    """Reads the whole body, then answers."""
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


def test_a_request_has_its_headers_deadline_from_its_first_byte_and_its_body_deadline_from_its_headers() -> None:
    async def scenario() -> list[Any]:
        guard = Connections(per_address=2)
        http, _ = connections.protocols(guard)
        timers = Timers(asyncio.get_running_loop())
        config = Config(app, log_config=None)
        config.load()
        protocol = http(config=config, server_state=ServerState(), app_state={}, _loop=timers)  # type: ignore[arg-type]
        transport = Transport("203.0.113.9")
        transport.protocol = protocol
        seen: list[Any] = []
        protocol.connection_made(transport)
        seen.append(timers.deadlines())  # the first request's headers: from the connection's opening
        protocol.data_received(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab")
        seen.append(timers.deadlines())  # its body, from its headers
        protocol.data_received(b"cd")
        await asyncio.sleep(0)  # the app answers
        await asyncio.sleep(0)
        seen.append((transport.written.split(b"\r\n")[0], timers.deadlines()))  # kept alive, no deadline of ours
        protocol.data_received(b"GET / HTTP/1.1\r\n")  # the next request's first byte
        seen.append([d for d in timers.deadlines() if d[1] == "headers"])
        transport.written = b""
        timers.fire()
        seen.append((transport.written.split(b"\r\n")[0], transport.closing))
        seen.append(dict(guard.by_address))
        protocol.connection_lost(None)
        seen.append(dict(guard.by_address))
        return seen

    seen = run(scenario())
    assert seen == [
        [(10.0, "headers")],
        [(30.0, "body")],
        (b"HTTP/1.1 200 OK", [(5, "timeout_keep_alive_handler")]),
        [(10.0, "headers")],
        (b"HTTP/1.1 408 Request Timeout", True),
        {"203.0.113.9": 1},
        {},
    ]
