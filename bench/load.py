"""Load of one ``belote serve`` process: N private tables of four scripted websocket players.

The benchmark starts a server (``python -m belote.cli serve`` on a fresh SQLite file, turn timer
600 s so no bot ever stands in), then for each table: ``POST /api/tables`` (the host, at South),
three ``POST /api/tables/{id}/sit``, four websockets to ``/ws`` that ``join``; once every table
is seated (a client process seats 8 at a time: the ramp-up, printed as "setup"), each host sends
``start``, and the window opens after ``--warmup`` seconds of play. Every player reads each
``state``: when ``view.to_move`` is its seat it plays a random legal action, when the table waits
for ``continue`` it sends one, and the host starts a new match (``new_game``) when one ends, so
every table plays all the time.

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

    python bench/load.py [--tables 500] [--seconds 30] [--mode paced|peak] [--runs 3]
                         [--procs 2] [--warmup 5] [--jitter 0.5] [--port 8765] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing as mp
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

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


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


@contextlib.contextmanager
def server(port: int) -> Iterator[subprocess.Popen[bytes]]:
    """A ``belote serve`` process on a fresh store, up and answering /api/health."""
    with tempfile.TemporaryDirectory(prefix="belote-load-") as tmp, open(Path(tmp) / "server.log", "wb") as log:
        cmd = [sys.executable, "-m", "belote.cli", "serve", "--port", str(port)]
        cmd += ["--db", str(Path(tmp) / "load.sqlite3"), "--turn-timer", "600"]
        cmd += ["--tables-per-minute", "0", "--sockets-per-address", "0"]  # every client is 127.0.0.1
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log)
        try:
            deadline = time.monotonic() + 30
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"the server stopped: {(Path(tmp) / 'server.log').read_text()[-2000:]}")
                try:
                    if get_json(port, "/api/health").get("ok"):
                        break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not answer /api/health within 30 s")
                time.sleep(0.1)
            yield proc
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            errors = [line for line in (Path(tmp) / "server.log").read_text().splitlines() if "ERROR" in line]
            if errors:
                print(f"server log: {len(errors)} errors, the first: {errors[0]}", file=sys.stderr)


# --------------------------------------------------------------------------- the players
async def post(port: int, path: str, body: dict[str, Any]) -> Any:
    """POST a JSON body (one connection per request); the JSON answer, or an error naming the status."""
    reader, writer = await asyncio.open_connection(HOST, port)
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


@dataclass(frozen=True)
class Plan:
    """What every client process is told: where the server is, the pace, the websocket options."""

    port: int
    interval: float  # mean seconds between two actions of a table (0: flat out)
    jitter: float  # each wait is interval * uniform(1 - jitter, 1 + jitter)
    compression: str | None  # "deflate" or None


class Player:
    """One person at a table: a websocket, read by its own task."""

    def __init__(self, table: BenchTable, seat: str, ws: ClientConnection) -> None:
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


async def set_up(number: int, plan: Plan, stats: Stats) -> BenchTable:
    """A private table with four people seated, joined and started."""
    port = plan.port
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
        ws = await connect(
            f"ws://{HOST}:{plan.port}/ws", compression=plan.compression, ping_interval=None, max_size=2**20
        )
        await ws.send(json.dumps({"type": "join", "table": table_id, "token": tokens[seat], "since": -1}))
        while json.loads(await ws.recv()).get("type") != "state":
            pass
        table.players[seat] = Player(table, seat, ws)
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
    tables: list[BenchTable] = []
    tasks: list[asyncio.Task[None]] = []
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one(number: int) -> None:
        async with gate:
            try:
                tables.append(await set_up(number, plan, stats))
            except Exception as e:
                stats.failed.append(f"{type(e).__name__}: {e}")

    await asyncio.gather(*(one(n) for n in numbers))
    for table in tables:  # every table seated before any plays: in peak mode, play would starve the seating
        tasks.extend(asyncio.create_task(p.read()) for p in table.players.values())
        tasks.append(asyncio.create_task(table.drive()))
        await table.players["S"].send({"type": "start"})
        stats.tables += 1
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


def run_once(args: argparse.Namespace) -> dict[str, Any]:
    """Start a server, seat the tables, measure a window of ``args.seconds``; the run's figures."""
    plan = Plan(
        port=args.port,
        interval=1.0 / args.rate if args.mode == "paced" else 0.0,
        jitter=args.jitter,
        compression=None if args.no_deflate else "deflate",
    )
    ctx = mp.get_context("spawn")
    speed = machine_speed()
    with server(args.port) as proc:
        time.sleep(0.5)
        rss_before = proc_status(proc.pid, "VmRSS")
        queue: Queue[Any] = ctx.Queue()
        stop = ctx.Event()
        shares = [list(range(i, args.tables, args.procs)) for i in range(args.procs)]
        workers = [ctx.Process(target=client_process, args=(share, plan, queue, stop)) for share in shares if share]
        setup_start = time.monotonic()
        for w in workers:
            w.start()
        try:
            for _ in workers:
                kind, _pid = queue.get(timeout=120 + args.tables)
                assert kind == "ready"
            setup = time.monotonic() - setup_start
            time.sleep(args.warmup)
            pids = [proc.pid] + [w.pid for w in workers if w.pid is not None]
            t0 = time.monotonic()
            cpu0 = [cpu_seconds(pid) for pid in pids]
            busy0 = machine_busy()
            rss_peak = 0
            while time.monotonic() < t0 + args.seconds:
                time.sleep(min(1.0, max(0.0, t0 + args.seconds - time.monotonic())))
                rss_peak = max(rss_peak, proc_status(proc.pid, "VmRSS"))
            t1 = time.monotonic()
            cpu1 = [cpu_seconds(pid) for pid in pids]
            busy1 = machine_busy()
            rss_full = proc_status(proc.pid, "VmRSS")
            held_by_server = get_json(args.port, "/api/health")["tables"]
            time.sleep(GRACE)
        finally:
            stop.set()
        results = [queue.get(timeout=60)[1] for _ in workers]
        for w in workers:
            w.join(30)
    window = t1 - t0
    sent = [t for r in results for t in r["sent"] if t0 <= t < t1]
    latency = [lat for r in results for sent_at, lat in r["latency"] if t0 <= sent_at < t1]
    tail = t1 - min(5.0, window)
    closed = {n for r in results for n in r["closed"]}
    held = sum(1 for r in results for n, at in r["last_act"].items() if at >= tail and int(n) not in closed)
    lag = [late for r in results for at, late in r["lag"] if t0 <= at < t1]
    server_cpu = (cpu1[0] - cpu0[0]) / window
    client_cpu = sum(b - a for a, b in zip(cpu0[1:], cpu1[1:], strict=True)) / window
    errors = [e for r in results for e in r["errors"]]
    failed = [e for r in results for e in r["failed"]]
    states = sum(r["states"] for r in results)
    return {
        "mode": args.mode,
        "tables": args.tables,
        "started": sum(r["tables"] for r in results),
        "held": held,
        "server_tables": held_by_server,
        "actions_per_s": len(sent) / window,
        "p50_ms": percentile(latency, 50) * 1000,
        "p99_ms": percentile(latency, 99) * 1000,
        "max_ms": max(latency, default=float("nan")) * 1000,
        "unanswered": len(sent) - len(latency),
        "client_lag_p99_ms": percentile(lag, 99) * 1000,
        "client_lag_max_ms": max(lag, default=float("nan")) * 1000,
        "continues_per_s": sum(1 for r in results for t in r["continues"] if t0 <= t < t1) / window,
        "matches": sum(r["matches"] for r in results),
        "rss_before_kb": rss_before,
        "rss_full_kb": rss_full,
        "rss_peak_kb": max(rss_peak, rss_full),
        "kb_per_table": (rss_full - rss_before) / args.tables,
        "server_cpu": server_cpu,
        "client_cpu": client_cpu,
        "other_cpu": (busy1 - busy0) / window - server_cpu - client_cpu,
        "server_ms_per_action": server_cpu / max(len(sent), 1) * window * 1000,
        "state_bytes": sum(r["state_bytes"] for r in results) / max(states, 1),
        "machine_ms": speed,
        "setup_s": setup,
        "errors": len(errors),
        "first_error": errors[0] if errors else (failed[0] if failed else None),
        "failed": len(failed),
        "closed": len(closed),
    }


# --------------------------------------------------------------------------- the report
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
        text += f"; setup {r['setup_s']:.1f} s"
    problems = [f"{r[k]} {k}" for k in ("unanswered", "errors", "failed", "closed") if r.get(k)]
    if problems:
        text += f"\n  ! {', '.join(problems)}" + (f"; first: {r['first_error']}" if r.get("first_error") else "")
    return text


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
)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--tables", type=int, default=500, help="tables of four players (default 500)")
    p.add_argument("--seconds", type=float, default=30.0, help="the measured window (default 30)")
    p.add_argument(
        "--warmup", type=float, default=5.0, help="seconds of play between the last table started and the window"
    )
    p.add_argument(
        "--mode", choices=("paced", "peak"), default="paced", help="one action a second per table, or flat out"
    )
    p.add_argument("--rate", type=float, default=1.0, help="paced mode: actions a second per table (default 1)")
    p.add_argument(
        "--jitter",
        type=float,
        default=0.5,
        help="paced mode: each wait is uniform in (1 +- jitter) / rate (default 0.5)",
    )
    p.add_argument("--runs", type=int, default=1, help="runs, each with a new server; prints their median")
    p.add_argument("--procs", type=int, default=2, help="client processes (default 2)")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--no-deflate", action="store_true", help="no permessage-deflate (browsers ask for it)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args()
    raise_fd_limit()
    pace = f"{args.rate:g} action/s per table" if args.mode == "paced" else "flat out"
    if not args.json:
        print(
            f"belote serve: {args.tables} tables, {args.mode} ({pace}), {args.seconds:g} s window after "
            f"{args.warmup:g} s of play, {args.procs} client processes, {os.cpu_count()} cores",
            flush=True,
        )
    runs = []
    for i in range(args.runs):
        r = run_once(args)
        runs.append(r)
        if not args.json:
            print(f"run {i + 1}: {report(r)}", flush=True)
    median = {k: statistics.median(r[k] for r in runs) for k in MEDIAN_KEYS}
    median |= {"mode": args.mode, "tables": args.tables}
    if args.json:
        print(
            json.dumps(
                {"mode": args.mode, "tables": args.tables, "seconds": args.seconds, "runs": runs, "median": median}
            )
        )
    elif args.runs > 1:
        print(f"median of {args.runs} runs: {report(median)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
