"""Scripted players over real websockets, and ``belote serve`` as a process, for the online tests.

``Player`` joins a table (with a seat token or a spectator code), keeps every message it receives,
and plays: a random legal action when its seat is to move, ``continue`` when the table waits for
it to read a deal's score. ``Server`` runs ``python -m belote.cli serve`` on a free port, so a test
can kill it (SIGKILL) and start it again, or run two of them on one Redis.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import uvicorn
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

State = dict[str, Any]
T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)`` in a thread of its own: the browser tests keep an event loop in this one."""
    result: list[T] = []
    errors: list[BaseException] = []

    def main() -> None:
        try:
            result.append(asyncio.run(coro))
        except BaseException as e:
            errors.append(e)

    thread = threading.Thread(target=main, name="netplay")
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return result[0]


#: The ports free_port gives a pytest-xdist worker: a range of its own (gw0 from 20000, gw1 from
#: 22000...), below the kernel's ephemeral ports. A port is free when it is picked, and taken only
#: when the server started with it binds it: were the workers to let the kernel choose, another one
#: could be given the same port in between. One process alone lets the kernel choose. Two runs of the
#: suite at once on one machine give each its own base (``BELOTE_TEST_PORT_BASE``, 20000 by default).
PORTS_PER_WORKER = 2000
PORT_BASE = int(os.environ.get("BELOTE_TEST_PORT_BASE", "20000"))
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
_worker_ports = (
    iter(range(PORT_BASE + PORTS_PER_WORKER * int(_WORKER[2:]), PORT_BASE + PORTS_PER_WORKER * (int(_WORKER[2:]) + 1)))
    if _WORKER.startswith("gw")
    else None
)


def _ephemeral() -> range:
    """The ports the kernel gives outgoing connections (Linux; elsewhere the IANA range)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return range(int(low), int(high) + 1)
    except (OSError, ValueError):
        return range(49152, 65536)


def _check_base() -> None:
    """A worker's range inside the kernel's ephemeral ports would race every outgoing connection of
    the machine for its ports (a test's server or redis-server then fails to bind now and then):
    refused at once, with the reason, rather than left to fail at random."""
    top = PORT_BASE + PORTS_PER_WORKER * (int(_WORKER[2:]) + 1)
    ephemeral = _ephemeral()
    if top > ephemeral.start and ephemeral.stop > PORT_BASE:
        raise RuntimeError(
            f"BELOTE_TEST_PORT_BASE={PORT_BASE}: worker {_WORKER}'s ports reach {top - 1}, inside the kernel's "
            f"ephemeral ports ({ephemeral.start}-{ephemeral.stop - 1}); choose a base below {ephemeral.start} "
            f"that leaves {PORTS_PER_WORKER} ports to each worker"
        )


def free_port() -> int:
    """A port no server listens on, for a server about to start (``PORTS_PER_WORKER``)."""
    if _worker_ports is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port: int = s.getsockname()[1]
            return port
    _check_base()
    for port in _worker_ports:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:  # taken by something else on the machine
                continue
            return port
    raise RuntimeError(f"worker {_WORKER} used its {PORTS_PER_WORKER} ports")


@contextmanager
def serve_in_thread(app: Any) -> Iterator[str]:
    """An ASGI app served by uvicorn in a background thread of this process; yields its address.

    The socket is bound before the thread starts: no race for a free port.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def post(base: str, path: str, body: dict[str, Any], secret: str | None = None) -> dict[str, Any]:
    """POST ``body`` as JSON (with a player's identity, ``Authorization: Bearer <secret>``, when given)."""
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["Authorization"] = f"Bearer {secret}"
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


def get(base: str, path: str, secret: str | None = None) -> dict[str, Any]:
    """GET a JSON answer (with a player's identity when given)."""
    headers = {} if secret is None else {"Authorization": f"Bearer {secret}"}
    with urllib.request.urlopen(urllib.request.Request(base + path, headers=headers), timeout=10) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


def private_table(base: str, people: int, settings: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """A private table with ``people`` people seated; their seat tokens by seat.

    The host sits where the server puts them (``t["seat"]``: S, or N at two hands), the guests in
    the free seats in the server's order (N, E, W at four).
    """
    t = post(base, "/api/tables", {"name": "Host", "settings": settings})
    tokens = {t["seat"]: t["token"]}
    for name in ["Nina", "Emil", "Wes"][: people - 1]:
        sat = post(base, f"/api/tables/{t['table']}/sit", {"invite": t["invite"], "name": name})
        tokens[sat["seat"]] = sat["token"]
    return t, tokens


class Player:
    """One websocket at one table; ``messages`` holds every message received, in order."""

    def __init__(self, url: str, table: str, token: str | None = None, watch: str | None = None, seed: int = 0) -> None:
        self.url = url
        self.table = table
        self.token = token
        self.watch = watch
        self.rng = random.Random(seed)
        self.ws: ClientConnection | None = None
        self.messages: list[dict[str, Any]] = []
        self.state: State | None = None
        self.last = -1
        self.errors: list[str] = []
        self.answered: tuple[Any, ...] | None = None  # the position last answered: never twice
        self.reconnects = 0  # how often ``play_reconnecting`` joined again after its socket closed

    async def connect(self) -> State:
        self.ws = await connect(self.url, max_size=2**22, open_timeout=10)
        join: dict[str, Any] = {"type": "join", "table": self.table, "since": self.last}
        join.update({"token": self.token} if self.token else {"watch": self.watch})
        await self.ws.send(json.dumps(join))
        return await self.next_state()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(msg))

    async def next_state(self) -> State:
        assert self.ws is not None
        while True:
            msg = json.loads(await self.ws.recv())
            self.messages.append(msg)
            if msg["type"] == "error":
                self.errors.append(msg["message"])
            if msg["type"] == "state":
                self.state = msg
                self.last = msg["last"]
                return msg

    def choose(self, state: State) -> str | None:
        """This seat's move in ``state``: a random legal action, or ``continue``; None to wait.

        Other people's messages (a score read, a chat line) bring new states of the same position:
        a position is answered once, as a person would.
        """
        view = state["view"]
        if view is None or self.token is None:
            return None
        position = (view["deal_number"], len(view["bids"]), len(view["tricks"]), len(view["trick"]), state["waiting"])
        move: str | None = None
        if state["waiting"] == "others":
            return None
        if state["waiting"] == "continue":
            move = "continue"
        elif view["to_move"] == state["seat"] and view["legal"]:
            move = self.rng.choice(view["legal"])
        if move is None or (position, move == "continue") == self.answered:
            return None
        self.answered = (position, move == "continue")
        return move

    async def play(self, done: Callable[[State], bool], timeout: float = 120.0) -> State:
        """Play until ``done(state)``; answer each state at most once."""
        state = self.state or await self.connect()
        try:
            async with asyncio.timeout(timeout):  # one deadline for the whole game, not a timer a message
                while not done(state):
                    move = self.choose(state)
                    if move == "continue":
                        await self.send({"type": "continue"})
                    elif move is not None:
                        await self.send({"type": "act", "action": move})
                    state = await self.next_state()
        except TimeoutError:
            raise TimeoutError(f"the table did not reach the end (last state: {state['view']})") from None
        return state

    async def play_reconnecting(self, done: Callable[[State], bool], urls: list[str], timeout: float = 120.0) -> State:
        """Like ``play``, but when the socket closes, join again (through the next of ``urls``) with ``since``."""
        deadline = time.monotonic() + timeout
        turn = 0
        while True:
            try:
                return await self.play(done, max(1.0, deadline - time.monotonic()))
            except (ConnectionClosed, OSError):
                # What was sent to the lost server may be lost with it: answer the position again.
                self.ws, self.state, self.answered = None, None, None
                self.reconnects += 1
                turn += 1
                self.url = urls[turn % len(urls)]
                while time.monotonic() < deadline:
                    try:
                        await self.connect()
                        break
                    except (ConnectionClosed, OSError):
                        await asyncio.sleep(0.2)


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A real ``redis-server`` on a free port, empty, stopped afterwards; yields its URL."""
    server = RedisProcess(folder)
    try:
        server.start()
        yield server.url
    finally:
        server.kill()


def match_over(state: State) -> bool:
    view = state["view"]
    return view is not None and bool(view["match_over"])


class Server:
    """``belote serve`` as a process on a free port: ``kill`` it (SIGKILL) and ``start`` it again."""

    def __init__(self, db: Path, log: Path, *args: str, files: tuple[int, int] | None = None) -> None:
        self.db = db
        self.log_path = log
        self.args = args
        self.files = files  # the process's limits of open files at start (soft, hard), as a system's may be
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 20.0, ready: str = "/api/health") -> None:
        """Start the process and wait until ``ready`` answers (``/``, the page, while Redis is down)."""
        cmd = [sys.executable, "-m", "belote.cli", "serve", "--port", str(self.port), "--db", str(self.db)]
        # Every scripted player here comes from 127.0.0.1 and plays as fast as the server answers: the limits
        # per address would count them as one client, and the rates of messages are made for people.
        cmd += ["--tables-per-minute", "0", "--sockets-per-address", "0", "--connections-per-address", "0"]
        cmd += ["--message-rates", "0", *self.args]
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                cmd,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                preexec_fn=None if self.files is None else self.limit_files,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.proc = None
                raise RuntimeError(f"belote serve exited: {self.log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.base + ready, timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        self.kill()  # not left running (with its bot workers) by a test that fails here
        raise RuntimeError(f"belote serve did not answer {ready} within {timeout:.0f} s")

    def limit_files(self) -> None:
        import resource

        assert self.files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, self.files)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
            self.proc = None


# ----------------------------------------------------------------- scanning messages for cards
CARD = re.compile(r"^(?:10|[789TJQKA])[SHDC]$")
CARD_IN_TEXT = re.compile(r"(?:10|[789TJQKA])[♠♥♦♣]")


def cards_in(value: Any, skip: tuple[str, ...] = ()) -> list[str]:
    """Every card named anywhere in a JSON value (the keys in ``skip`` left out)."""
    found: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in skip:
                found += cards_in(v)
    elif isinstance(value, list):
        for v in value:
            found += cards_in(v)
    elif isinstance(value, str):
        if CARD.match(value):
            found.append(value)
        found += CARD_IN_TEXT.findall(value)
    return found


# ----------------------------------------------------------------- a TestClient's websocket
def receive(ws: Any, kind: str = "state") -> dict[str, Any]:
    """The next message of ``kind``, those of other kinds skipped."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg


def until(ws: Any, test: Any, limit: int = 200) -> dict[str, Any]:
    """The first state message that passes ``test``."""
    for _ in range(limit):
        msg = receive(ws)
        if test(msg):
            return msg
    raise AssertionError("the awaited state never came")


def error(ws: Any) -> str:
    text: str = receive(ws, "error")["message"]
    return text


def stored_table(db: Path, table_id: str) -> tuple[dict[str, Any], list[str]]:
    """A table's meta and actions as the SQLite store at ``db`` holds them."""
    from belote.server.store import SQLiteStore

    store = SQLiteStore(db)
    try:
        loaded = store.load_table(table_id)
    finally:
        store.close()
    assert loaded is not None, f"no table {table_id} in {db}"
    meta, actions = loaded
    return meta, actions


def redis_replayed(r: Any, table_id: str) -> Any:
    """The table as Redis holds it (``r``: a redis.Redis), replayed by a fresh engine: raises if the
    stored log does not replay from its first action."""
    from belote.game import Match, parse_action
    from belote.server.room import rules_of

    meta = json.loads(r.get(f"belote:t:{table_id}:meta"))
    match = Match(rules_of(meta["settings"]), seed=meta["seed"], first_dealer=meta["seed"] % 4)
    for a in r.lrange(f"belote:t:{table_id}:actions", 0, -1):
        match.apply(parse_action(a.decode()))
    return match


def stored_match(db: Path, table_id: str) -> tuple[dict[str, Any], Any, list[str]]:
    """The table's meta, its match replayed by a fresh engine from the store, and its actions."""
    from belote.game import parse_action
    from belote.server.room import new_match

    meta, actions = stored_table(db, table_id)
    match = new_match(meta["settings"], int(meta["seed"]))
    for a in actions:
        match.apply(parse_action(a))
    return meta, match, actions


class RedisProcess:
    """A real ``redis-server`` without persistence on a port of its own, which a test can ``kill``
    (SIGKILL) and ``start`` again on the same port: it then comes back empty."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("no redis-server: install Debian's package redis-server (./scripts/test does)")
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        args += ["--dir", str(self.folder)]
        self.proc = subprocess.Popen([self.binary, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None


def events_seen(player: Player) -> dict[int, Any]:
    """Every numbered event the player received, by number; fails if one number came with two events."""
    seen: dict[int, Any] = {}
    for msg in player.messages:
        if msg["type"] != "state":
            continue
        for n, event in msg["events"]:
            assert seen.setdefault(n, event) == event, f"event {n} came twice, as two different events"
    return seen
