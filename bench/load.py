"""Load of ``belote serve``: N private tables of four scripted players, or N solo tables of one
scripted person against three search bots (``--mode solo``).

Private tables (``--mode paced``, the default, or ``peak``): the benchmark starts a server
(``python -m belote.cli serve`` on a fresh SQLite file, turn timer 600 s so no bot ever stands in,
the limits per client address off since every player is 127.0.0.1), then for each table:
``POST /api/tables`` (the host, at South), three ``POST /api/tables/{id}/sit``, four websockets
to ``/ws`` that ``join``; once every table is seated (a client process seats 8 at a time: the
ramp-up, printed as "setup"), each host sends ``start``, and the window opens after ``--warmup``
seconds of play. Every player reads each ``state``: when ``view.to_move`` is its seat it plays a
random legal action, when the table waits for ``continue`` it sends one, and the host starts a
new match (``new_game``) when one ends, so every table plays all the time.

- ``--mode paced``: each table plays one action a second, the pace of brisk people: the seat to
  move waits until the table's previous action is a second old, give or take ``--jitter`` (0.5: a
  wait drawn from 0.5 to 1.5 s), and each table starts at a random offset. Without the jitter
  (``--jitter 0``) each table keeps its phase for ever, and the tables whose turn a pause of the
  server held back past its time all act in the same instant from then on, as no people would.
- ``--mode peak``: the seat to move acts as soon as it sees its turn; the server sets the pace.

An action's latency runs from the ``act`` leaving its player to the moment the last of the four
players of the table has received a state that holds the action's events (one whose ``last``
event number is beyond the one the player acted on). The players run in ``--procs`` client
processes, a table's four players in the same one, so the four arrival times share a clock; once
seated they stop collecting their own garbage, whose pauses would count as the server's.

Printed for each run, and their medians with ``--runs``: the tables held (still playing in the
window's last 5 s, no socket lost), actions/s, the p50, p99 and max latency; the server's memory
per table (VmRSS at the end of the window minus VmRSS before the first table, over N); the CPU
of the server (and its milliseconds per action), of the client processes, and of everything
else on the machine (100% is one core: another program busy during a run spoils its figures);
how late the players' own event loops woke (p99), the mean length of a state message, and a
fixed pure-Python loop's time, for the speed of a machine whose host shares its cores.

Solo mode (``--mode solo``): the product's main use. Each table is ``POST /api/solo`` (the body is
``--settings``, ``{}`` by default: search bots at normal strength, normal bot speed) and one
websocket that ``join``s as the person; the server runs at ``--pace`` 1 (the bots' pauses of a real
table). The person acts ``--person LOW,HIGH`` seconds (uniform; 1 to 3 by default, a brisk player)
after the state that gives them the turn, presses continue between deals and starts a new match
when one ends, with the same delay. ``--arrive SECONDS`` opens the tables one by one at random
moments of the first SECONDS, as people come (without it every table bids its first deal in the
same seconds, a burst no real evening has); the window opens once all have. Printed for each N
(``--tables 10,20,40``; medians with ``--runs``):

- the person's latency, p50 / p99 / max: from an ``act`` leaving to the first state whose ``last``
  event number is beyond the one it was played on;
- how late the bots act beyond their pause, p50 / p99 / max: from the state that gives a bot the
  turn to the state that holds its action, minus the pause the server waits before a bot acts
  (``SPEEDS`` of belote.server.room, times the pace: the first figure, plus the second after a
  finished trick); that is the bot's thinking plus every wait for the server's event loop;
- the bots' CPU per deal: the CPU of the server's processes and threads other than its event loop
  (the main thread), which is where the bots think whether they run in threads or in worker
  processes, per bot action in the window, times the bots' actions in a deal (the mean over the
  deals that ended in the run, warm-up included, counted from the events; a deal passed out
  counts). Not that CPU over the deals finished in the window: with every table starting at once,
  a window of 60 s may see each table's first deal end or none. And the whole server's CPU per
  deal, the same way;
- the server's CPU (every process of it and their children; 100% is one core) and that of its
  event loop thread, its memory (VmRSS of its processes), the deals and matches finished;
- the load average (``uptime``) at the start and the end of the window;
- and at the end the largest N tried that keeps the person's p99 <= 100 ms and the bots' lateness
  p99 <= 1 s.

``--procs-server K --redis`` starts a redis-server on a free port in a temporary folder and K
``belote serve --redis URL`` processes on consecutive ports from ``--port``; table number i is
created on, and its person connected to, process i mod K. ``--redis`` with K = 1 gives the figure
of one process on the same store, for comparing 1 with 2. ``--think-workers W`` gives each server W
processes for its bots' thinking (by default one per core): with one core's worth of thinking
each, one process against two compares one core with two on this machine.

    python bench/load.py [--tables 500] [--seconds 30] [--mode paced|peak] [--runs 3]
                         [--procs 2] [--warmup 5] [--jitter 0.5] [--port 8765] [--json]
    python bench/load.py --mode solo --tables 10,20,40 [--seconds 60] [--person 1,3] [--pace 1]
                         [--settings '{"variant": "coinche"}'] [--procs-server 2 --redis] [--think-workers W]
                         [--runs 3] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import multiprocessing as mp
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import IO, Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from belote.server.room import SPEEDS

HOST = "127.0.0.1"
SEATS = ("N", "E", "S", "W")
SETUP_CONCURRENCY = 8  # tables being set up at the same time, per client process
GRACE = 2.0  # seconds after the window for its last actions to arrive


# --------------------------------------------------------------------------- the server process
def proc_status(pid: int, key: str) -> int:
    """A field of /proc/PID/status in kB (VmRSS, VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (every core, from /proc/stat)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def get_json(port: int, path: str) -> Any:
    with urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=10) as r:
        return json.loads(r.read())


def machine_speed() -> float:
    """Milliseconds of a fixed pure-Python loop: this machine's speed just now (its host's load moves it)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i * i
        best = min(best, time.perf_counter() - start)
    return best * 1000


def descendants(pid: int) -> list[int]:
    """The process and every process under it (a server's worker processes, if it has any)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def tree_cpu(pids: list[int]) -> float:
    """CPU seconds of these processes, of every process under them, and of their children that ended."""
    total = 0.0
    for pid in [q for p in pids for q in descendants(p)]:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile: its time reaches its parent's cutime once it is reaped
            continue
        total += sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    return total


def loop_cpu(pids: list[int]) -> float:
    """CPU seconds of these processes' main threads: the servers' event loops."""
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def tree_rss(pids: list[int]) -> int:
    """VmRSS in kB of these processes and every process under them."""
    total = 0
    for pid in [q for p in pids for q in descendants(p)]:
        with contextlib.suppress(OSError, KeyError):
            total += proc_status(pid, "VmRSS")
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Servers:
    """The ``belote serve`` processes of a run, their store, and the redis-server behind them (if any)."""

    procs: list[subprocess.Popen[bytes]]
    ports: tuple[int, ...]
    db: Path  # the SQLite file (the score sheets only, with Redis)
    redis: subprocess.Popen[bytes] | None

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]


def start_redis(folder: Path, log: IO[bytes]) -> tuple[subprocess.Popen[bytes], str]:
    """A redis-server on a free port, without persistence, answering PING; and its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("no redis-server: install Debian's package redis-server")
    port = free_port()
    cmd = [binary, "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no", "--dir", str(folder)]
    proc = subprocess.Popen(cmd, stdout=log, stderr=log)
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection((HOST, port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return proc, f"redis://{HOST}:{port}/0"
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("redis-server did not start")
        time.sleep(0.05)


def wait_healthy(proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + 30
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"the server stopped: {log.read_text()[-2000:]}")
        try:
            if get_json(port, "/api/health").get("ok"):
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not answer /api/health within 30 s")
        time.sleep(0.1)


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextlib.contextmanager
def servers(
    port: int, count: int = 1, *, redis: bool = False, pace: float | None = None, extra: Sequence[str] = ()
) -> Iterator[Servers]:
    """``count`` ``belote serve`` processes on ports ``port``, ``port + 1``..., on a fresh store (a
    SQLite file, or a fresh redis-server with ``redis``), each up and answering /api/health.

    Every client is 127.0.0.1: the limits per address are off. ``pace`` is passed as ``--pace``,
    ``extra`` to every process as it is (options of ``belote serve`` a benchmark does not know).
    """
    if count > 1 and not redis:
        raise ValueError("several server processes share their tables through Redis: add --redis")
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="belote-load-")))
        db = tmp / "load.sqlite3"
        url, redis_proc = None, None
        if redis:
            redis_log = stack.enter_context(open(tmp / "redis.log", "wb"))
            redis_proc, url = start_redis(tmp, redis_log)
            stack.callback(stop_process, redis_proc)
        ports = tuple(range(port, port + count))
        procs: list[subprocess.Popen[bytes]] = []
        logs = [tmp / f"server-{p}.log" for p in ports]
        try:
            for p, log_path in zip(ports, logs, strict=True):
                cmd = [sys.executable, "-m", "belote.cli", "serve", "--port", str(p), "--db", str(db)]
                # Every scripted player comes from 127.0.0.1 and plays as fast as the server answers: the limits
                # per address would count them as one client, and the rates of messages are made for people.
                cmd += ["--turn-timer", "600", "--tables-per-minute", "0", "--sockets-per-address", "0"]
                cmd += ["--connections-per-address", "0", "--message-rates", "0"]
                if url is not None:
                    cmd += ["--redis", url]
                if pace is not None:
                    cmd += ["--pace", str(pace)]
                cmd += list(extra)
                with open(log_path, "wb") as log:
                    procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log))
            for proc, p, log_path in zip(procs, ports, logs, strict=True):
                wait_healthy(proc, p, log_path)
            yield Servers(procs, ports, db, redis_proc)
        finally:
            for proc in procs:
                stop_process(proc)
            for log_path in logs:
                errors = [line for line in log_path.read_text().splitlines() if "ERROR" in line]
                if errors:
                    print(f"server log: {len(errors)} errors, the first: {errors[0]}", file=sys.stderr)


# --------------------------------------------------------------------------- the players
async def post(port: int, path: str, body: dict[str, Any], address: str | None = None) -> Any:
    """POST a JSON body (one connection per request, from ``address``: another loopback address than
    127.0.0.1 is another client to the limits per address); the JSON answer, or an error naming the status."""
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=None if address is None else (address, 0))
    data = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    )
    writer.write(head.encode() + data)
    raw = await reader.read()
    writer.close()
    status_line, _, rest = raw.partition(b"\r\n")
    payload = rest.partition(b"\r\n\r\n")[2]
    status = int(status_line.split()[1])
    if status != 200:
        raise RuntimeError(f"POST {path}: {status} {payload[:200]!r}")
    return json.loads(payload)


@dataclass
class Pending:
    """An action on its way: when it left, the event number it was played on, who has seen it."""

    sent: float
    last: int
    seen: set[str] = field(default_factory=set)


@dataclass
class Stats:
    """What one client process measured; times are ``time.monotonic()``, the same in every process."""

    sent: list[float] = field(default_factory=list)  # when each action left
    latency: list[tuple[float, float]] = field(default_factory=list)  # (sent, seconds until all four had it)
    continues: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    closed: list[int] = field(default_factory=list)  # tables a websocket of which closed before the end
    matches: int = 0  # matches finished
    tables: int = 0  # tables seated and started
    failed: list[str] = field(default_factory=list)  # tables that could not be set up
    last_act: dict[int, float] = field(default_factory=dict)  # table number -> its last action
    lag: list[tuple[float, float]] = field(default_factory=list)  # (when, how late) this process's event loop woke
    states: int = 0  # state messages received
    state_bytes: int = 0  # their length in characters
    # Solo mode: (when a bot got its turn, seconds it acted beyond its pause, "bid" or "card").
    bot_late: list[tuple[float, float, str]] = field(default_factory=list)
    deals: list[float] = field(default_factory=list)  # when each deal ended
    match_ends: list[float] = field(default_factory=list)  # when each match ended
    deal_bot_actions: list[int] = field(default_factory=list)  # the bots' actions of each deal seen whole


@dataclass(frozen=True)
class Plan:
    """What every client process is told: where the server is, the pace, the websocket options."""

    ports: tuple[int, ...]  # the servers: table number i is set up on ports[i % len(ports)]
    interval: float  # mean seconds between two actions of a table (0: flat out)
    jitter: float  # each wait is interval * uniform(1 - jitter, 1 + jitter)
    compression: str | None  # "deflate" or None
    solo: bool = False  # solo tables: one person against three bots
    person: tuple[float, float] = (1.0, 3.0)  # solo: seconds the person takes to act, uniform between
    pace: float = 1.0  # solo: the server's --pace, which multiplies the bots' pauses
    settings: dict[str, Any] = field(default_factory=dict)  # solo: the body of POST /api/solo
    arrive: float = 0.0  # solo: each table opens at a random moment of the first ``arrive`` seconds

    def port_of(self, number: int) -> int:
        return self.ports[number % len(self.ports)]


class Player:
    """One person at a table: a websocket, read by its own task."""

    def __init__(self, table: BenchTable | SoloTable, seat: str, ws: ClientConnection) -> None:
        self.table = table
        self.seat = seat
        self.ws = ws
        self.continued = -1  # the event number at which this player last sent continue

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(msg))

    async def read(self) -> None:
        try:
            async for text in self.ws:
                now = time.monotonic()
                msg = json.loads(text)
                kind = msg.get("type")
                if kind == "state":
                    self.table.stats.states += 1
                    self.table.stats.state_bytes += len(text)
                    await self.table.on_state(self, msg, now)
                elif kind == "error":
                    self.table.stats.errors.append(str(msg.get("message")))
        except ConnectionClosed:
            pass
        if not self.table.stopping:
            self.table.stats.closed.append(self.table.number)


class BenchTable:
    """One table's four players and its pace: whose turn it is, the actions on their way."""

    def __init__(self, number: int, stats: Stats, plan: Plan) -> None:
        self.number = number
        self.stats = stats
        self.plan = plan
        self.players: dict[str, Player] = {}
        self.pending: list[Pending] = []
        self.turn: tuple[Player, list[str], int] | None = None  # (mover, legal actions, event number)
        self.turn_ready = asyncio.Event()
        self.acted_on = -2  # the event number the last action was played on
        self.next_at = 0.0
        self.over = False  # the host has seen the match end
        self.renewing = False  # new_game sent, the host has not seen the new match yet
        self.stopping = False
        self.rng = random.Random(number)

    async def on_state(self, player: Player, msg: dict[str, Any], now: float) -> None:
        last: int = msg["last"]
        for p in self.pending:
            if last > p.last and player.seat not in p.seen:
                p.seen.add(player.seat)
                if len(p.seen) == 4:
                    self.stats.latency.append((p.sent, now - p.sent))
        self.pending = [p for p in self.pending if len(p.seen) < 4]
        view = msg.get("view")
        if view is None:  # the lobby
            return
        if msg["waiting"] == "continue" and player.continued != last:
            player.continued = last
            self.stats.continues.append(now)
            await player.send({"type": "continue"})
        # The table waits for this seat when the turn timer names it: while it waits for every
        # continue, the view already shows the next deal's first bidder but the timer names nobody.
        timer = msg.get("timer")
        if (
            view["to_move"] == player.seat
            and view["legal"]
            and msg["waiting"] is None
            and timer is not None
            and timer["seat"] == player.seat
            and last > self.acted_on
        ):
            self.turn = (player, view["legal"], last)
            self.turn_ready.set()
        if player.seat == "S":  # the host
            if view["match_over"] and not self.renewing:
                self.over = True
            elif not view["match_over"]:
                self.renewing = False
        if self.over and not self.pending:
            self.over, self.renewing = False, True
            self.acted_on = -2
            self.stats.matches += 1
            for other in self.players.values():
                other.continued = -1
            await self.players["S"].send({"type": "new_game"})

    async def drive(self) -> None:
        """Play each turn: in paced mode a second after the table's previous action."""
        self.next_at = time.monotonic() + self.rng.uniform(0, self.plan.interval)
        while True:
            await self.turn_ready.wait()
            self.turn_ready.clear()
            if self.turn is None:
                continue
            player, legal, last = self.turn
            self.turn = None
            if last <= self.acted_on:
                continue
            delay = self.next_at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            now = time.monotonic()
            self.acted_on = last
            self.pending.append(Pending(now, last))
            self.stats.sent.append(now)
            self.stats.last_act[self.number] = now
            self.next_at = now + self.plan.interval * self.rng.uniform(1 - self.plan.jitter, 1 + self.plan.jitter)
            await player.send({"type": "act", "action": self.rng.choice(legal)})

    async def begin(self) -> None:
        """The host starts the match."""
        await self.players["S"].send({"type": "start"})


async def set_up(number: int, plan: Plan, stats: Stats) -> BenchTable:
    """A private table with four people seated, joined and started."""
    port = plan.port_of(number)
    created = await post(port, "/api/tables", {"name": f"T{number} S", "settings": {"turn_timer": 600}})
    tokens = {"S": created["token"]}
    table_id = created["table"]
    for seat in ("N", "E", "W"):
        sat = await post(
            port, f"/api/tables/{table_id}/sit", {"invite": created["invite"], "name": f"T{number} {seat}"}
        )
        tokens[sat["seat"]] = sat["token"]
    table = BenchTable(number, stats, plan)
    for seat in SEATS:
        ws = await connect(f"ws://{HOST}:{port}/ws", compression=plan.compression, ping_interval=None, max_size=2**20)
        await ws.send(json.dumps({"type": "join", "table": table_id, "token": tokens[seat], "since": -1}))
        while json.loads(await ws.recv()).get("type") != "state":
            pass
        table.players[seat] = Player(table, seat, ws)
    return table


class SoloTable:
    """One solo table as its person sees it: the person's turns and pace, the bots' turns and the
    pauses the server gives them (``SPEEDS`` times the pace), the deals and matches as they end."""

    def __init__(self, number: int, stats: Stats, plan: Plan) -> None:
        self.number = number
        self.stats = stats
        self.plan = plan
        self.players: dict[str, Player] = {}  # the person's seat only
        self.rng = random.Random(number)
        # What the person has to do next: (what it answers, when that came, the message, its event number).
        self.todo: tuple[tuple[Any, ...], float, dict[str, Any], int] | None = None
        self.todo_ready = asyncio.Event()
        self.done: tuple[Any, ...] | None = None  # the last thing the person did
        self.pending: Pending | None = None  # the person's action on its way
        self.bot_turn: tuple[float, int, float, str] | None = None  # (since, event number, pause, bid or card)
        self.game = 0  # matches begun at this table since it was set up
        self.renewing = False  # new_game sent, the new match not seen yet
        self.ended: set[int] = set()  # this match's deals seen ended
        self.last_seen = -1  # the highest event number seen in this match
        self.deal_bots = 0  # the bots' bids and cards among this deal's events
        self.whole_deal = False  # this deal's events were seen from its first
        self.stopping = False

    def pause(self, msg: dict[str, Any], view: dict[str, Any]) -> float:
        """The seconds the server waits before a bot acts here (``Table.next_job``)."""
        delay, trick_pause = (d * self.plan.pace for d in SPEEDS[msg["settings"]["speed"]])
        finished_trick = view["phase"] == "play" and not view["trick"] and bool(view["tricks"])
        return delay + (trick_pause if finished_trick else 0.0)

    def want(self, key: tuple[Any, ...], now: float, msg: dict[str, Any], last: int = -1) -> None:
        if key != self.done and (self.todo is None or self.todo[0] != key):
            self.todo = (key, now, msg, last)
            self.todo_ready.set()

    async def on_state(self, player: Player, msg: dict[str, Any], now: float) -> None:
        last: int = msg["last"]
        view = msg.get("view")
        if view is None:
            return
        if self.renewing:  # the server numbers a new match's events from 0 again
            if view["match_over"]:
                return
            self.renewing, self.pending, self.bot_turn, self.last_seen = False, None, None, -1
            self.game += 1
            self.ended.clear()
        if last > self.last_seen:  # the table moves
            self.last_seen = last
            self.stats.last_act[self.number] = now
        self.count_bots(msg)
        if self.pending is not None and last > self.pending.last:
            self.stats.latency.append((self.pending.sent, now - self.pending.sent))
            self.pending = None
        if self.bot_turn is not None and last > self.bot_turn[1]:
            since, _, pause, kind = self.bot_turn
            self.stats.bot_late.append((since, now - since - pause, kind))
            self.bot_turn = None
        waiting, over = msg["waiting"], view["match_over"]
        # While the table waits for continue, the view shows the next deal already.
        finished = view["deal_number"] if over else view["deal_number"] - 1
        if (waiting is not None or over) and finished not in self.ended:
            self.ended.add(finished)
            self.stats.deals.append(now)
            if over:
                self.stats.match_ends.append(now)
        mover = view["to_move"]
        if over:
            self.want(("new_game", self.game), now, {"type": "new_game"})
        elif waiting == "continue":
            self.want(("continue", self.game, view["deal_number"]), now, {"type": "continue"})
        elif waiting is None and mover == player.seat and view["legal"]:
            action = self.rng.choice(view["legal"])
            self.want(("act", self.game, last), now, {"type": "act", "action": action}, last)
        elif waiting is None and mover is not None and self.bot_turn is None and msg["players"][mover]["bot"]:
            kind = "bid" if view["phase"] == "bidding" else "card"
            self.bot_turn = (now, last, self.pause(msg, view), kind)

    def count_bots(self, msg: dict[str, Any]) -> None:
        """Count the bots' bids and cards of each deal from the events (the join brings a match's
        events from its first, so every deal is seen whole unless the server sent a gap)."""
        if msg["gap"]:
            self.whole_deal = False
            return
        for _, event in msg["events"]:
            kind = event["type"]
            if kind in ("deal", "match-over"):
                if self.whole_deal:
                    self.stats.deal_bot_actions.append(self.deal_bots)
                self.deal_bots, self.whole_deal = 0, kind == "deal"
            elif kind in ("bid", "card") and msg["players"][event["seat"]]["bot"]:
                self.deal_bots += 1

    async def drive(self) -> None:
        """The person: each thing to do, done ``plan.person`` seconds after it came."""
        (player,) = self.players.values()
        low, high = self.plan.person
        while True:
            await self.todo_ready.wait()
            self.todo_ready.clear()
            if self.todo is None:
                continue
            key, came, msg, last = self.todo
            delay = came + self.rng.uniform(low, high) - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if self.todo is None or self.todo[0] != key:  # something newer came meanwhile
                continue
            self.todo, self.done = None, key
            now = time.monotonic()
            if msg["type"] == "act":
                self.pending = Pending(now, last)
                self.stats.sent.append(now)
            elif msg["type"] == "new_game":
                self.renewing = True
            await player.send(msg)

    async def begin(self) -> None:
        """A solo table plays from its creation."""


async def set_up_solo(number: int, plan: Plan, stats: Stats) -> SoloTable:
    """A solo table, its person joined; the state the join brings is the person's first."""
    port = plan.port_of(number)
    created = await post(port, "/api/solo", plan.settings)
    table = SoloTable(number, stats, plan)
    ws = await connect(f"ws://{HOST}:{port}/ws", compression=plan.compression, ping_interval=None, max_size=2**20)
    await ws.send(json.dumps({"type": "join", "table": created["table"], "token": created["token"], "since": -1}))
    player = table.players[created["seat"]] = Player(table, created["seat"], ws)
    while True:
        msg = json.loads(await ws.recv())
        if msg.get("type") == "state":
            await table.on_state(player, msg, time.monotonic())
            return table


async def watch_loop(stats: Stats, every: float = 0.01) -> None:
    """How late this process's event loop wakes from a short sleep: the players' own share of the latency."""
    while True:
        start = time.monotonic()
        await asyncio.sleep(every)
        now = time.monotonic()
        stats.lag.append((now, now - start - every))


async def client_main(numbers: list[int], plan: Plan, queue: Queue[Any], stop: Event) -> Stats:
    """Seat this process's tables, start them all, report, play until told to stop."""
    stats = Stats()
    tables: list[BenchTable | SoloTable] = []
    tasks: list[asyncio.Task[None]] = []
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def play(table: BenchTable | SoloTable) -> None:
        tasks.extend(asyncio.create_task(p.read()) for p in table.players.values())
        tasks.append(asyncio.create_task(table.drive()))
        await table.begin()
        stats.tables += 1

    async def one(number: int) -> None:
        if plan.arrive > 0:  # people come one by one, not all in the same second
            await asyncio.sleep(random.Random(number).uniform(0, plan.arrive))
        async with gate:
            try:
                table = await set_up_solo(number, plan, stats) if plan.solo else await set_up(number, plan, stats)
            except Exception as e:
                stats.failed.append(f"{type(e).__name__}: {e}")
                return
        tables.append(table)
        if plan.solo:  # a person plays from the moment they sit down
            await play(table)

    await asyncio.gather(*(one(n) for n in numbers))
    if not plan.solo:  # every table seated before any plays: in peak mode, play would starve the seating
        for table in tables:
            await play(table)
    # The players' own garbage collections would pause their reading and count as the server's
    # latency: their objects are kept out of it (the messages they read hold no cycles).
    gc.collect()
    gc.freeze()
    gc.disable()
    queue.put(("ready", os.getpid()))
    tasks.append(asyncio.create_task(watch_loop(stats)))
    while not stop.is_set():
        await asyncio.sleep(0.05)
    for table in tables:
        table.stopping = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats


def client_process(numbers: list[int], plan: Plan, queue: Queue[Any], stop: Event) -> None:
    raise_fd_limit()
    stats = asyncio.run(client_main(numbers, plan, queue, stop))
    queue.put(("stats", asdict(stats)))


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# --------------------------------------------------------------------------- one run
def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile ``q`` (0 to 100) of the values; nan when there are none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


@dataclass
class Played:
    """A window of play: what the client processes measured and what the machine said of the servers."""

    results: list[dict[str, Any]]  # each client process's Stats, as a dict
    t0: float
    t1: float
    setup: float  # seconds to seat every table
    server_cpu: float  # CPU seconds in the window: the servers' processes, their children
    loop_cpu: float  # the servers' main threads
    client_cpu: float
    busy: float  # the whole machine
    rss_before: int  # kB, the servers before the first table
    rss_full: int  # at the end of the window
    rss_peak: int
    redis_rss: int  # kB, the redis-server at the end of the window (0 without)
    server_tables: int  # tables the servers hold at the end
    load: tuple[float, float]  # the 1-minute load average at the window's start and end


def play(args: argparse.Namespace, plan: Plan, tables: int, srv: Servers) -> Played:
    """Seat ``tables`` tables in ``args.procs`` client processes, let them play ``args.warmup``
    seconds, then measure a window of ``args.seconds``."""
    ctx = mp.get_context("spawn")
    time.sleep(0.5)
    rss_before = tree_rss(srv.pids)
    queue: Queue[Any] = ctx.Queue()
    stop = ctx.Event()
    shares = [list(range(i, tables, args.procs)) for i in range(args.procs)]
    workers = [ctx.Process(target=client_process, args=(share, plan, queue, stop)) for share in shares if share]
    setup_start = time.monotonic()
    for w in workers:
        w.start()
    try:
        for _ in workers:
            kind, _pid = queue.get(timeout=120 + tables)
            assert kind == "ready"
        setup = time.monotonic() - setup_start
        time.sleep(args.warmup)
        clients = [w.pid for w in workers if w.pid is not None]
        t0 = time.monotonic()
        load0 = os.getloadavg()[0]
        server0, loop0, client0 = tree_cpu(srv.pids), loop_cpu(srv.pids), tree_cpu(clients)
        busy0 = machine_busy()
        rss_peak = 0
        while time.monotonic() < t0 + args.seconds:
            time.sleep(min(1.0, max(0.0, t0 + args.seconds - time.monotonic())))
            rss_peak = max(rss_peak, tree_rss(srv.pids))
        t1 = time.monotonic()
        server1, loop1, client1 = tree_cpu(srv.pids), loop_cpu(srv.pids), tree_cpu(clients)
        busy1 = machine_busy()
        load1 = os.getloadavg()[0]
        rss_full = tree_rss(srv.pids)
        redis_rss = tree_rss([srv.redis.pid]) if srv.redis is not None else 0
        server_tables = sum(get_json(port, "/api/health")["tables"] for port in srv.ports)
        time.sleep(GRACE)
    finally:
        stop.set()
    results = [queue.get(timeout=60)[1] for _ in workers]
    for w in workers:
        w.join(30)
    return Played(
        results,
        t0,
        t1,
        setup,
        server1 - server0,
        loop1 - loop0,
        client1 - client0,
        busy1 - busy0,
        rss_before,
        rss_full,
        max(rss_peak, rss_full),
        redis_rss,
        server_tables,
        (load0, load1),
    )


def run_once(args: argparse.Namespace, tables: int) -> dict[str, Any]:
    """Start a server, seat the private tables, measure a window of ``args.seconds``; the run's figures."""
    plan = Plan(
        ports=tuple(range(args.port, args.port + args.procs_server)),
        interval=1.0 / args.rate if args.mode == "paced" else 0.0,
        jitter=args.jitter,
        compression=None if args.no_deflate else "deflate",
    )
    speed = machine_speed()
    with servers(args.port, args.procs_server, redis=args.redis) as srv:
        w = play(args, plan, tables, srv)
    results, t0, t1 = w.results, w.t0, w.t1
    window = t1 - t0
    sent = [t for r in results for t in r["sent"] if t0 <= t < t1]
    latency = [lat for r in results for sent_at, lat in r["latency"] if t0 <= sent_at < t1]
    tail = t1 - min(5.0, window)
    closed = {n for r in results for n in r["closed"]}
    held = sum(1 for r in results for n, at in r["last_act"].items() if at >= tail and int(n) not in closed)
    lag = [late for r in results for at, late in r["lag"] if t0 <= at < t1]
    server_cpu = w.server_cpu / window
    client_cpu = w.client_cpu / window
    errors = [e for r in results for e in r["errors"]]
    failed = [e for r in results for e in r["failed"]]
    states = sum(r["states"] for r in results)
    return {
        "mode": args.mode,
        "tables": tables,
        "started": sum(r["tables"] for r in results),
        "held": held,
        "server_tables": w.server_tables,
        "actions_per_s": len(sent) / window,
        "p50_ms": percentile(latency, 50) * 1000,
        "p99_ms": percentile(latency, 99) * 1000,
        "max_ms": max(latency, default=float("nan")) * 1000,
        "unanswered": len(sent) - len(latency),
        "client_lag_p99_ms": percentile(lag, 99) * 1000,
        "client_lag_max_ms": max(lag, default=float("nan")) * 1000,
        "continues_per_s": sum(1 for r in results for t in r["continues"] if t0 <= t < t1) / window,
        "matches": sum(r["matches"] for r in results),
        "rss_before_kb": w.rss_before,
        "rss_full_kb": w.rss_full,
        "rss_peak_kb": w.rss_peak,
        "kb_per_table": (w.rss_full - w.rss_before) / tables,
        "server_cpu": server_cpu,
        "client_cpu": client_cpu,
        "other_cpu": w.busy / window - server_cpu - client_cpu,
        "server_ms_per_action": server_cpu / max(len(sent), 1) * window * 1000,
        "state_bytes": sum(r["state_bytes"] for r in results) / max(states, 1),
        "machine_ms": speed,
        "setup_s": w.setup,
        "load_start": w.load[0],
        "load_end": w.load[1],
        "errors": len(errors),
        "first_error": errors[0] if errors else (failed[0] if failed else None),
        "failed": len(failed),
        "closed": len(closed),
    }


def run_solo(args: argparse.Namespace, tables: int) -> dict[str, Any]:
    """Start the servers, open the solo tables, measure a window of ``args.seconds``; the run's figures."""
    plan = Plan(
        ports=tuple(range(args.port, args.port + args.procs_server)),
        interval=0.0,
        jitter=0.0,
        compression=None if args.no_deflate else "deflate",
        solo=True,
        person=args.person,
        pace=args.pace,
        settings=args.settings,
        arrive=args.arrive,
    )
    speed = machine_speed()
    extra = [] if args.think_workers is None else ["--think-workers", str(args.think_workers)]
    with servers(args.port, args.procs_server, redis=args.redis, pace=args.pace, extra=extra) as srv:
        w = play(args, plan, tables, srv)
    return solo_figures(w, tables, speed, SOLO_TAIL)


SOLO_TAIL = 15.0  # a solo table is playing when its events moved in the window's last seconds


def solo_figures(w: Played, tables: int, speed: float, tail_s: float) -> dict[str, Any]:
    """The figures of a window of solo tables (also bench/soak.py's, window by window)."""
    results, t0, t1 = w.results, w.t0, w.t1
    window = t1 - t0

    def within(key: str) -> list[float]:
        return [t for r in results for t in r[key] if t0 <= t < t1]

    sent = within("sent")
    latency = [lat for r in results for sent_at, lat in r["latency"] if t0 <= sent_at < t1]
    late = [(lat, kind) for r in results for at, lat, kind in r["bot_late"] if t0 <= at < t1]
    bots = [lat for lat, _ in late]
    deals = len(within("deals"))
    whole = [n for r in results for n in r["deal_bot_actions"]]
    per_deal = sum(whole) / len(whole) if whole else float("nan")
    bots_cpu = w.server_cpu - w.loop_cpu
    closed = {n for r in results for n in r["closed"]}
    tail = t1 - min(tail_s, window)
    playing = sum(1 for r in results for n, at in r["last_act"].items() if at >= tail and int(n) not in closed)
    errors = [e for r in results for e in r["errors"]]
    failed = [e for r in results for e in r["failed"]]
    return {
        "mode": "solo",
        "tables": tables,
        "started": sum(r["tables"] for r in results),
        "playing": playing,
        "server_tables": w.server_tables,
        "seconds": window,
        "person_actions": len(sent),
        "p50_ms": percentile(latency, 50) * 1000,
        "p99_ms": percentile(latency, 99) * 1000,
        "max_ms": max(latency, default=float("nan")) * 1000,
        "unanswered": len(sent) - len(latency),
        "bot_actions": len(bots),
        "bot_late_p50_ms": percentile(bots, 50) * 1000,
        "bot_late_p99_ms": percentile(bots, 99) * 1000,
        "bot_late_max_ms": max(bots, default=float("nan")) * 1000,
        "bot_bid_late_p99_ms": percentile([lat for lat, kind in late if kind == "bid"], 99) * 1000,
        "bot_card_late_p99_ms": percentile([lat for lat, kind in late if kind == "card"], 99) * 1000,
        "deals": deals,
        "matches": len(within("match_ends")),
        "bot_actions_per_deal": per_deal,
        "bots_cpu_ms_per_action": bots_cpu / len(bots) * 1000 if bots else float("nan"),
        "bots_cpu_s_per_deal": bots_cpu / len(bots) * per_deal if bots else float("nan"),
        "server_cpu_s_per_deal": w.server_cpu / len(bots) * per_deal if bots else float("nan"),
        "server_cpu": w.server_cpu / window,
        "loop_cpu": w.loop_cpu / window,
        "client_cpu": w.client_cpu / window,
        "other_cpu": (w.busy - w.server_cpu - w.client_cpu) / window,
        "rss_before_kb": w.rss_before,
        "rss_full_kb": w.rss_full,
        "rss_peak_kb": w.rss_peak,
        "redis_rss_kb": w.redis_rss,
        "machine_ms": speed,
        "setup_s": w.setup,
        "load_start": w.load[0],
        "load_end": w.load[1],
        "errors": len(errors),
        "first_error": errors[0] if errors else (failed[0] if failed else None),
        "failed": len(failed),
        "closed": len(closed),
    }


# --------------------------------------------------------------------------- the report
def problems(r: dict[str, Any]) -> str:
    found = [f"{r[k]} {k}" for k in ("unanswered", "errors", "failed", "closed") if r.get(k)]
    if not found:
        return ""
    return f"\n  ! {', '.join(found)}" + (f"; first: {r['first_error']}" if r.get("first_error") else "")


def report(r: dict[str, Any]) -> str:
    """A run's figures (or their medians) in three lines."""
    text = (
        f"{r['held']:.0f}/{r['tables']} tables held, {'peak ' if r['mode'] == 'peak' else ''}"
        f"{r['actions_per_s']:.1f} actions/s, "
        f"latency p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.0f} ms\n"
        f"  memory {r['kb_per_table']:.0f} kB/table (server RSS {r['rss_before_kb'] / 1024:.0f} MB before, "
        f"{r['rss_full_kb'] / 1024:.0f} MB at full load); CPU (100% = one core): server {r['server_cpu']:.0%} "
        f"({r['server_ms_per_action']:.2f} ms/action), clients {r['client_cpu']:.0%}, others {r['other_cpu']:.0%}\n"
        f"  client loop lag p99 {r['client_lag_p99_ms']:.1f} ms; state messages {r['state_bytes']:.0f} characters "
        f"on average; machine speed {r['machine_ms']:.0f} ms/loop"
    )
    if "setup_s" in r:
        text += f"; setup {r['setup_s']:.1f} s; load average {r['load_start']:.2f} -> {r['load_end']:.2f}"
    return text + problems(r)


def report_solo(r: dict[str, Any]) -> str:
    """A solo run's figures (or their medians) in four lines."""
    text = (
        f"{r['playing']:.0f}/{r['tables']} tables playing; person: {r['person_actions']:.0f} actions, "
        f"latency p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.0f} ms\n"
        f"  bots late beyond their pause: p50 {r['bot_late_p50_ms']:.0f} ms, p99 {r['bot_late_p99_ms']:.0f} ms "
        f"(bids {r['bot_bid_late_p99_ms']:.0f}, cards {r['bot_card_late_p99_ms']:.0f}), "
        f"max {r['bot_late_max_ms']:.0f} ms over {r['bot_actions']:.0f} actions\n"
        f"  {r['deals']:.0f} deals and {r['matches']:.0f} matches finished; CPU per deal: bots "
        f"{r['bots_cpu_s_per_deal']:.2f} s, whole server {r['server_cpu_s_per_deal']:.2f} s "
        f"({r['bots_cpu_ms_per_action']:.0f} ms per bot action, {r['bot_actions_per_deal']:.1f} bot actions a deal)\n"
        f"  CPU (100% = one core): server {r['server_cpu']:.0%} (event loop {r['loop_cpu']:.0%}), clients "
        f"{r['client_cpu']:.0%}, others {r['other_cpu']:.0%}; server RSS {r['rss_before_kb'] / 1024:.0f} MB before, "
        f"{r['rss_full_kb'] / 1024:.0f} MB at the end, {r['rss_peak_kb'] / 1024:.0f} MB peak"
    )
    if r.get("redis_rss_kb"):
        text += f", redis-server {r['redis_rss_kb'] / 1024:.0f} MB"
    text += (
        f"\n  load average {r['load_start']:.2f} -> {r['load_end']:.2f}; machine speed {r['machine_ms']:.0f} ms/loop"
    )
    if "setup_s" in r:
        text += f"; setup {r['setup_s']:.1f} s"
    return text + problems(r)


MEDIAN_KEYS = (
    "held",
    "actions_per_s",
    "p50_ms",
    "p99_ms",
    "max_ms",
    "kb_per_table",
    "rss_before_kb",
    "rss_full_kb",
    "server_cpu",
    "client_cpu",
    "other_cpu",
    "client_lag_p99_ms",
    "client_lag_max_ms",
    "server_ms_per_action",
    "state_bytes",
    "machine_ms",
    "load_start",
    "load_end",
)
SOLO_MEDIAN_KEYS = (
    "playing",
    "person_actions",
    "p50_ms",
    "p99_ms",
    "max_ms",
    "bot_actions",
    "bot_late_p50_ms",
    "bot_late_p99_ms",
    "bot_late_max_ms",
    "bot_bid_late_p99_ms",
    "bot_card_late_p99_ms",
    "deals",
    "matches",
    "bot_actions_per_deal",
    "bots_cpu_ms_per_action",
    "bots_cpu_s_per_deal",
    "server_cpu_s_per_deal",
    "server_cpu",
    "loop_cpu",
    "client_cpu",
    "other_cpu",
    "rss_before_kb",
    "rss_full_kb",
    "rss_peak_kb",
    "redis_rss_kb",
    "machine_ms",
    "load_start",
    "load_end",
)
PERSON_P99_MS = 100.0  # the limits of the largest N: the person's p99 latency
BOT_LATE_P99_MS = 1000.0  # and the bots' lateness p99


def no_nan(value: Any) -> Any:
    """The value with every NaN (a figure of nothing measured) as None, which JSON can carry."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: no_nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [no_nan(v) for v in value]
    return value


def within_limits(r: dict[str, Any]) -> bool:
    return bool(r["p99_ms"] <= PERSON_P99_MS and r["bot_late_p99_ms"] <= BOT_LATE_P99_MS)


def pair(text: str) -> tuple[float, float]:
    low, _, high = text.partition(",")
    values = (float(low), float(high or low))
    if not 0 <= values[0] <= values[1]:
        raise argparse.ArgumentTypeError("LOW,HIGH with 0 <= LOW <= HIGH")
    return values


def counts(text: str) -> list[int]:
    values = [int(v) for v in text.split(",")]
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("table counts of 1 or more, separated by commas")
    return values


def settings_object(text: str) -> dict[str, Any]:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("a JSON object")
    return value


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument(
        "--tables",
        type=counts,
        default=None,
        help="tables (several N separated by commas: 10,20,40); default 500 private tables, 20 solo tables",
    )
    p.add_argument("--seconds", type=float, default=None, help="the measured window (default 30; solo 60)")
    p.add_argument(
        "--warmup", type=float, default=5.0, help="seconds of play between the last table started and the window"
    )
    p.add_argument(
        "--mode",
        choices=("paced", "peak", "solo"),
        default="paced",
        help="private tables at one action a second per table, or flat out; or solo tables against bots",
    )
    p.add_argument("--rate", type=float, default=1.0, help="paced mode: actions a second per table (default 1)")
    p.add_argument(
        "--jitter",
        type=float,
        default=0.5,
        help="paced mode: each wait is uniform in (1 +- jitter) / rate (default 0.5)",
    )
    p.add_argument(
        "--person",
        type=pair,
        default=(1.0, 3.0),
        metavar="LOW,HIGH",
        help="solo mode: seconds the person takes to act, uniform (default 1,3)",
    )
    p.add_argument("--pace", type=float, default=1.0, help="solo mode: the server's --pace (default 1, a real table)")
    p.add_argument(
        "--settings",
        type=settings_object,
        default={},
        metavar="JSON",
        help="solo mode: the body of POST /api/solo (default {}: the server's defaults)",
    )
    p.add_argument(
        "--arrive",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="solo mode: each table opens at a random moment of the first SECONDS (default 0: all at once, "
        "so that every table bids its first deal in the same seconds); the window opens once all have",
    )
    p.add_argument("--runs", type=int, default=1, help="runs, each with a new server; prints their median")
    p.add_argument("--procs", type=int, default=2, help="client processes (default 2)")
    p.add_argument("--procs-server", type=int, default=1, metavar="K", help="server processes (K > 1 needs --redis)")
    p.add_argument("--redis", action="store_true", help="the servers share a fresh redis-server")
    p.add_argument(
        "--think-workers",
        type=int,
        default=None,
        metavar="W",
        help="solo mode: each server's bots think in W worker processes (default: one per core)",
    )
    p.add_argument("--port", type=int, default=8765, help="the (first) server's port (default 8765)")
    p.add_argument("--no-deflate", action="store_true", help="no permessage-deflate (browsers ask for it)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args()
    if args.procs_server > 1 and not args.redis:
        p.error("several server processes share their tables through Redis: add --redis")
    solo = args.mode == "solo"
    sizes = args.tables or ([20] if solo else [500])
    args.seconds = args.seconds if args.seconds is not None else (60.0 if solo else 30.0)
    raise_fd_limit()
    where = f"{args.procs_server} belote serve process{'es' if args.procs_server > 1 else ''}"
    where += " on Redis" if args.redis else " on SQLite"
    if args.think_workers is not None:
        where += f", {args.think_workers} thinking worker{'s' if args.think_workers != 1 else ''} each"
    if not args.json:
        if solo:
            low, high = args.person
            what = (
                f"solo tables (one person acting in {low:g}-{high:g} s against three bots, pace {args.pace:g}, "
                f"settings {json.dumps(args.settings)})"
            )
        else:
            pace = f"{args.rate:g} action/s per table" if args.mode == "paced" else "flat out"
            what = f"private tables of four, {args.mode} ({pace})"
        print(
            f"{where}: {','.join(map(str, sizes))} {what}, {args.seconds:g} s window after {args.warmup:g} s of "
            f"play, {args.procs} client processes, {os.cpu_count()} cores",
            flush=True,
        )
    keys, show = (SOLO_MEDIAN_KEYS, report_solo) if solo else (MEDIAN_KEYS, report)
    out = []
    for n in sizes:
        runs = []
        for i in range(args.runs):
            r = run_solo(args, n) if solo else run_once(args, n)
            runs.append(r)
            if not args.json:
                print(f"N={n} run {i + 1}: {show(r)}", flush=True)
        median = {k: statistics.median(r[k] for r in runs) for k in keys}
        median |= {"mode": args.mode, "tables": n}
        out.append({"tables": n, "runs": runs, "median": median})
        if not args.json and args.runs > 1:
            print(f"N={n} median of {args.runs} runs: {show(median)}", flush=True)
    largest = None
    if solo:
        fit = [o["tables"] for o in out if within_limits(o["median"])]
        largest = max(fit, default=None)
    if args.json:
        print(
            json.dumps(
                no_nan(
                    {
                        "mode": args.mode,
                        "seconds": args.seconds,
                        "procs_server": args.procs_server,
                        "redis": args.redis,
                        "results": out,
                        "largest_within_limits": largest,
                    }
                )
            )
        )
    elif solo:
        limits = f"person p99 <= {PERSON_P99_MS:g} ms and bots late p99 <= {BOT_LATE_P99_MS / 1000:g} s"
        if largest is None:
            print(f"largest N within {limits}: none of {','.join(map(str, sizes))}")
        else:
            print(f"largest N within {limits}: {largest} (of {','.join(map(str, sizes))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
