"""Soak of one ``belote serve``: M solo tables played for minutes, the server's memory and its
SQLite file sampled; with ``--create``, tables also created and abandoned at a steady rate.

Memory that creeps up under a steady load, or a store that grows for ever, shows only over time:
bench/load.py measures a minute. The server runs on a fresh SQLite file with the limits per
address off (every client is 127.0.0.1), at the bots' real pace; its options are passed through
with ``--serve-arg=OPTION`` (once per word, with ``=`` since the words begin with ``--``), for
options a benchmark need not know, such as how long a finished or abandoned table is kept.

The M tables are bench/load.py's solo tables (``--mode solo``): one scripted person joined, acting
``--person LOW,HIGH`` seconds after their turn comes, pressing continue between deals and starting
a new match when one ends, against three bots at the server's defaults (``--settings``). With
``--create`` a table is created every 1/``--rate`` seconds, solo and private in turn
(``POST /api/solo``, ``POST /api/tables``), and left: nobody joins it, so it never plays.

Every ``--every`` seconds (30) one row: the minutes since the tables were seated, the server's
memory (VmRSS of its processes), the size of the SQLite file and of its write-ahead log, the
tables the server holds (``/api/health``), the tables created so far, the deals finished since the
last row, the person's latency p99 and the bots' lateness p99 (as bench/load.py measures them)
since the last row, and the load average (``uptime``). At the end, the slope of the memory and of
the SQLite file, alone and with its log, over the last half of the run (least squares, MB per
minute): near zero when nothing leaks. SQLite writes the log into the file at a checkpoint (every
thousand pages or so) and then reuses it, so the file grows by steps and the log stays at a few
MB: over a short soak, the file with its log is the closer measure.

With ``--mix`` the rest of a real day comes too, each kind at its own steady rate, from many
addresses (``X-Forwarded-For``, which the server trusts from 127.0.0.1 here, with its limits per
address at their defaults): solo and private tables created and abandoned; visits to a new solo
table, its person asking a hint and a spectator joining and saying a line, both gone a few seconds
later; players in the queue, most leaving it within seconds, one in five until a table is made for
them; score sheets created and written; refused and malformed messages on websockets that never
join; requests for what does not exist (404); the pages. The row then adds the server's own memory
(its main process, without the bots' workers), and the slope is given for it too.

With ``--trace`` the server traces its allocations (bench/memtrace/sitecustomize.py) and writes a
snapshot at each row; at the end the allocations that grew most between the second row (warmed up)
and the last are printed by where they were made: what to look at when the memory creeps up. Then
the garbage a full collection finds in the server, by type: what waits for the collector.

    python bench/soak.py --tables 20 [--minutes 10] [--every 30] [--create [--rate 2]] [--mix] [--trace]
                         [--serve-arg=--expire-after --serve-arg=60] [--person 1,3] [--port 8775] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from load import (
    HOST,
    SETUP_CONCURRENCY,
    Plan,
    Servers,
    SoloTable,
    Stats,
    get_json,
    no_nan,
    pair,
    percentile,
    post,
    proc_status,
    raise_fd_limit,
    servers,
    set_up_solo,
    settings_object,
    tree_rss,
)


@dataclass
class Sample:
    """One row of the soak."""

    minutes: float
    rss_mb: float
    server_mb: float  # the server's main process alone (the bots' workers apart)
    db_mb: float  # the SQLite file itself
    wal_mb: float  # its write-ahead log, which SQLite empties into it now and then
    server_tables: int
    created: int
    deals: int  # finished since the previous row
    person_p99_ms: float  # since the previous row
    bot_late_p99_ms: float
    load: float  # the 1-minute load average


def file_mb(path: Path) -> float:
    return path.stat().st_size / 2**20 if path.exists() else 0.0


def slope(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of y over x; nan with fewer than two points."""
    if len(points) < 2:
        return float("nan")
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    var = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else float("nan")


async def create_tables(port: int, rate: float, created: list[int], failed: list[str]) -> None:
    """A new table every 1/rate seconds, solo and private in turn, nobody ever joining it."""
    start = time.monotonic()
    n = 0
    while True:
        delay = start + n / rate - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            if n % 2 == 0:
                await post(port, "/api/solo", {})
            else:
                await post(port, "/api/tables", {"name": "Soak"})
            created[0] += 1
        except Exception as e:  # counted and shown; the soak goes on
            failed.append(f"{type(e).__name__}: {e}")
        n += 1


# --------------------------------------------------------------------------- the rest of a day (--mix)
DEAL = {"takers": "NS", "cards": 100, "declarations": {}, "belote": None, "capot": None}
#: What a websocket that never joins sends: not JSON, no type, an unknown type, a seated message, a
#: wrong table, a field of the wrong kind, too long.
BAD_MESSAGES = (
    "not json",
    "[1, 2]",
    '{"type": "dance"}',
    '{"type": "act", "action": "JH"}',
    '{"type": "join", "table": "nope", "token": "nope"}',
    '{"type": "queue", "name": 12}',
    '{"type": "chat", "text": "' + "x" * 5000 + '"}',
)
MISSING = ("/nope", "/api/tables/{r}?invite=x", "/api/sheets/{r}", "/static/{r}.js", "/api/schemas/{r}.json")
PAGES = ("/", "/rules", "/scores", "/api/games", "/metrics", "/problems", "/review")


def address(rng: random.Random) -> str:
    """One of a crowd of client addresses."""
    return f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"


async def request(port: int, method: str, path: str, who: str, body: Any = None) -> tuple[int, Any]:
    """One HTTP request from ``who`` (through the trusted proxy's header): the status and the JSON answer."""
    reader, writer = await asyncio.open_connection(HOST, port)
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nX-Forwarded-For: {who}\r\nConnection: close\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    writer.write(head.encode() + b"\r\n" + data)
    raw = await reader.read()
    writer.close()
    status_line, _, rest = raw.partition(b"\r\n")
    payload = rest.partition(b"\r\n\r\n")[2]
    try:
        answer = json.loads(payload)
    except ValueError:
        answer = None
    return int(status_line.split()[1]), answer


async def socket_of(port: int, who: str) -> ClientConnection:
    return await connect(
        f"ws://{HOST}:{port}/ws", additional_headers={"X-Forwarded-For": who}, ping_interval=None, max_size=2**20
    )


async def until_type(ws: ClientConnection, kinds: tuple[str, ...], seconds: float) -> dict[str, Any] | None:
    """The next message of one of ``kinds`` within ``seconds``, or None."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            while True:
                msg: dict[str, Any] = json.loads(await ws.recv())
                if msg.get("type") in kinds:
                    return msg
    return None


async def visit(port: int, rng: random.Random) -> str:
    """A new solo table: its person joins and asks a hint, a spectator joins and says a line; both leave."""
    who = address(rng)
    status, table = await request(port, "POST", "/api/solo", who, {"strength": "easy"})
    if status != 200:
        return f"solo {status}"
    person, spectator = await socket_of(port, who), await socket_of(port, address(rng))
    try:
        await person.send(json.dumps({"type": "join", "table": table["table"], "token": table["token"]}))
        await until_type(person, ("state",), 10)
        watch = {"type": "join", "table": table["table"], "watch": table["watch"], "name": "Zoé"}
        await spectator.send(json.dumps(watch))
        await until_type(spectator, ("state",), 10)
        await spectator.send(json.dumps({"type": "chat", "text": "bonjour"}))
        await person.send(json.dumps({"type": "hint"}))
        answer = await until_type(person, ("hint", "error"), 10)
        await asyncio.sleep(rng.uniform(1, 4))
        return "hint" if answer is not None and answer["type"] == "hint" else "hint refused"
    finally:
        await person.close()
        await spectator.close()


async def abandoned(port: int, rng: random.Random) -> str:
    """A solo or a private table created and never opened."""
    if rng.random() < 0.5:
        return f"solo {(await request(port, 'POST', '/api/solo', address(rng), {}))[0]}"
    return f"private {(await request(port, 'POST', '/api/tables', address(rng), {'name': 'Ann'}))[0]}"


async def queued(port: int, rng: random.Random) -> str:
    """A player in the queue for two hands: most leave within seconds, one in five waits for a table."""
    ws = await socket_of(port, address(rng))
    try:
        await ws.send(json.dumps({"type": "queue", "name": "Ann", "variant": "two-handed"}))
        if rng.random() < 0.2:
            matched = await until_type(ws, ("matched",), 40)  # a table with bots, which they never open
            return "queue matched" if matched is not None else "queue not matched"
        await asyncio.sleep(rng.uniform(0.5, 3))
        await ws.send(json.dumps({"type": "leave_queue"}))
        return "queue left"
    finally:
        await ws.close()


async def refused(port: int, rng: random.Random) -> str:
    """A websocket that sends what the server refuses, never joining."""
    ws = await socket_of(port, address(rng))
    try:
        for text in rng.sample(BAD_MESSAGES, 4):
            await ws.send(text)
            await until_type(ws, ("error",), 5)
        return "refused"
    finally:
        await ws.close()


async def sheet(port: int, rng: random.Random) -> str:
    """A score sheet made, a deal written on it and read back."""
    who = address(rng)
    status, made = await request(port, "POST", "/api/sheets", who, {"target": 501})
    if status != 201:
        return f"sheet {status}"
    await request(port, "POST", f"/api/sheets/{made['id']}/deals", who, DEAL)
    return f"sheet {(await request(port, 'GET', '/api/sheets/' + made['id'], who))[0]}"


async def missing(port: int, rng: random.Random) -> str:
    path = rng.choice(MISSING).format(r=f"{rng.getrandbits(64):x}")
    return f"missing {(await request(port, 'GET', path, address(rng)))[0]}"


async def page(port: int, rng: random.Random) -> str:
    return f"page {(await request(port, 'GET', rng.choice(PAGES), address(rng)))[0]}"


#: Each kind of the day's traffic, and how many a second.
MIX: tuple[tuple[Callable[[int, random.Random], Awaitable[str]], float], ...] = (
    (visit, 0.3),
    (abandoned, 0.5),
    (queued, 0.2),
    (refused, 1.0),
    (sheet, 0.5),
    (missing, 2.0),
    (page, 1.0),
)


async def mix(port: int, seen: Counter[str], rng: random.Random) -> None:
    """The day's traffic, each kind started at its rate (Poisson), none waiting for another."""
    running: set[asyncio.Task[None]] = set()

    async def one(kind: Callable[[int, random.Random], Awaitable[str]]) -> None:
        try:
            seen[await kind(port, rng)] += 1
        except Exception as e:  # counted: the soak goes on
            seen[f"{kind.__name__} failed: {type(e).__name__}"] += 1

    async def every(kind: Callable[[int, random.Random], Awaitable[str]], rate: float) -> None:
        while True:
            await asyncio.sleep(rng.expovariate(rate))
            task = asyncio.create_task(one(kind))
            running.add(task)
            task.add_done_callback(running.discard)

    try:
        await asyncio.gather(*(every(kind, rate) for kind, rate in MIX))
    finally:
        for task in list(running):
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)


# --------------------------------------------------------------------------- where the memory went (--trace)
def snapshot(folder: Path, pid: int, n: int) -> None:
    """Ask the server for its ``n``th snapshot (bench/memtrace/sitecustomize.py) and wait for it."""
    os.kill(pid, signal.SIGUSR1)
    path = folder / f"snapshot-{n}.tracemalloc"
    deadline = time.monotonic() + 120
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.2)


def garbage(folder: Path, pid: int, n: int, top: int = 15) -> list[str]:
    """What a full collection in the server finds to be garbage (its ``n``th signal), by type."""
    os.kill(pid, signal.SIGUSR2)
    path = folder / f"garbage-{n}.json"
    deadline = time.monotonic() + 120
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    found = json.loads(path.read_text())
    kinds = list(found["by_type"].items())[:top]
    return [f"garbage left for the collector: {found['objects']} objects", *(f"{n:9d} {kind}" for kind, n in kinds)]


def growth(folder: Path, first: int, last: int, top: int = 12) -> list[str]:
    """The allocations that grew most from snapshot ``first`` to ``last``, by the place they were made."""
    old = tracemalloc.Snapshot.load(str(folder / f"snapshot-{first}.tracemalloc"))
    new = tracemalloc.Snapshot.load(str(folder / f"snapshot-{last}.tracemalloc"))
    keep = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap>")]
    lines = []
    for stat in new.filter_traces(keep).compare_to(old.filter_traces(keep), "traceback")[:top]:
        lines.append(f"{stat.size_diff / 1024:+9.1f} kB {stat.count_diff:+7d} blocks, now {stat.size / 1024:.1f} kB")
        lines += [f"      {frame.filename}:{frame.lineno}" for frame in list(stat.traceback)[-4:]]
    total = sum(s.size for s in new.statistics("filename")) - sum(s.size for s in old.statistics("filename"))
    return [f"traced memory grew {total / 2**20:+.2f} MB from row {first} to row {last}", *lines]


async def soak(args: argparse.Namespace, srv: Servers) -> tuple[list[Sample], Stats, list[str]]:
    """Seat the tables, then play (and create) for ``args.minutes``, one sample every ``args.every`` s."""
    plan = Plan(
        ports=srv.ports,
        interval=0.0,
        jitter=0.0,
        compression="deflate",
        solo=True,
        person=args.person,
        pace=args.pace,
        settings=args.settings,
    )
    stats = Stats()
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)
    tables: list[SoloTable] = []

    async def one(number: int) -> None:
        async with gate:
            try:
                tables.append(await set_up_solo(number, plan, stats))
            except Exception as e:
                stats.failed.append(f"{type(e).__name__}: {e}")

    await asyncio.gather(*(one(n) for n in range(args.tables)))
    tasks = [asyncio.create_task(t.drive()) for t in tables]
    tasks += [asyncio.create_task(p.read()) for t in tables for p in t.players.values()]
    created, create_failed = [0], list[str]()
    if args.create:
        tasks.append(asyncio.create_task(create_tables(srv.ports[0], args.rate, created, create_failed)))
    if args.mix:
        tasks.append(asyncio.create_task(mix(srv.ports[0], args.seen, random.Random(1))))
    start = time.monotonic()
    samples: list[Sample] = []
    previous = start
    rows = int(args.minutes * 60 // args.every)
    for k in range(rows + 1):
        delay = start + k * args.every - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        now = time.monotonic()
        health = await asyncio.to_thread(get_json, srv.ports[0], "/api/health")
        person = [lat for at, lat in stats.latency if previous <= at < now]
        bots = [lat for at, lat, _ in stats.bot_late if previous <= at < now]
        if args.trace is not None:
            await asyncio.to_thread(snapshot, args.trace, srv.pids[0], k)
        sample = Sample(
            minutes=(now - start) / 60,
            rss_mb=tree_rss(srv.pids) / 1024,
            server_mb=proc_status(srv.pids[0], "VmRSS") / 1024,
            db_mb=file_mb(srv.db),
            wal_mb=file_mb(Path(f"{srv.db}-wal")),
            server_tables=health["tables"],
            created=created[0],
            deals=sum(1 for t in stats.deals if previous <= t < now),
            person_p99_ms=percentile(person, 99) * 1000,
            bot_late_p99_ms=percentile(bots, 99) * 1000,
            load=os.getloadavg()[0],
        )
        samples.append(sample)
        previous = now
        if not args.json:
            print(row(sample), flush=True)
    for t in tables:
        t.stopping = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return samples, stats, create_failed


HEADER = (
    "minutes  RSS MB  server MB  SQLite MB  WAL MB  tables held  created  deals  person p99 ms  bots late p99 ms  load"
)


def row(s: Sample) -> str:
    return (
        f"{s.minutes:7.1f}  {s.rss_mb:6.1f}  {s.server_mb:9.1f}  {s.db_mb:9.2f}  {s.wal_mb:6.2f}  "
        f"{s.server_tables:11d}  {s.created:7d}  {s.deals:5d}  "
        f"{s.person_p99_ms:13.1f}  {s.bot_late_p99_ms:16.0f}  {s.load:4.2f}"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument(
        "--tables", type=int, required=True, help="solo tables played all along (half the N bench/load.py found)"
    )
    p.add_argument("--minutes", type=float, default=10.0, help="the length of the soak (default 10)")
    p.add_argument("--every", type=float, default=30.0, help="seconds between two rows (default 30)")
    p.add_argument("--create", action="store_true", help="also create and abandon tables at a steady rate")
    p.add_argument("--rate", type=float, default=2.0, help="--create: tables a second (default 2)")
    p.add_argument("--mix", action="store_true", help="the rest of a real day too, from many addresses (see above)")
    p.add_argument("--trace", action="store_true", help="trace the server's allocations and print what grew")
    p.add_argument(
        "--person",
        type=pair,
        default=(1.0, 3.0),
        metavar="LOW,HIGH",
        help="seconds the person takes to act, uniform (default 1,3)",
    )
    p.add_argument("--pace", type=float, default=1.0, help="the server's --pace (default 1, a real table)")
    p.add_argument(
        "--settings",
        type=settings_object,
        default={},
        metavar="JSON",
        help="the body of POST /api/solo (default {}: the server's defaults)",
    )
    p.add_argument(
        "--serve-arg",
        action="append",
        default=[],
        metavar="WORD",
        help="a word passed to belote serve as it is (repeat: --serve-arg=--expire-after --serve-arg=60)",
    )
    p.add_argument("--port", type=int, default=8775)
    p.add_argument("--json", action="store_true", help="print the samples and slopes as JSON")
    args = p.parse_args()
    if args.tables < 0 or args.every <= 0 or args.minutes <= 0 or args.rate <= 0:
        p.error("--tables >= 0, --every, --minutes and --rate > 0")
    raise_fd_limit()
    args.seen = Counter[str]()
    extra = list(args.serve_arg)
    if args.mix:  # the limits per address at their defaults, counting the addresses the proxy header gives
        extra = ["--tables-per-minute", "20", "--forwarded-allow-ips", HOST, *extra]
    trace = tempfile.TemporaryDirectory(prefix="belote-trace-") if args.trace else None
    args.trace = None if trace is None else Path(trace.name)
    if args.trace is not None:  # read by bench/memtrace/sitecustomize.py in the server (not its workers)
        os.environ["BELOTE_TRACEMALLOC"] = str(args.trace)
        here = Path(__file__).resolve().parent / "memtrace"
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(here), os.environ.get("PYTHONPATH")]))
    with servers(args.port, pace=args.pace, extra=extra) as srv:
        if not args.json:
            what = f", creating {args.rate:g} tables/s" if args.create else ""
            extra = f", belote serve {' '.join(args.serve_arg)}" if args.serve_arg else ""
            print(
                f"soak: {args.tables} solo tables for {args.minutes:g} min{what}{extra}, {os.cpu_count()} cores",
                flush=True,
            )
            print(HEADER, flush=True)
        samples, stats, create_failed = asyncio.run(soak(args, srv))
        if args.trace is not None:
            left = garbage(args.trace, srv.pids[0], len(samples))
    half = samples[-1].minutes / 2
    last_half = [s for s in samples if s.minutes >= half]
    rss_slope = slope([(s.minutes, s.rss_mb) for s in last_half])
    server_slope = slope([(s.minutes, s.server_mb) for s in last_half])
    db_slope = slope([(s.minutes, s.db_mb) for s in last_half])
    store_slope = slope([(s.minutes, s.db_mb + s.wal_mb) for s in last_half])
    failed = stats.failed + create_failed
    trouble = {"errors": len(stats.errors), "closed": len(set(stats.closed)), "failed": len(failed)}
    first = (stats.errors + failed)[:1]
    if args.json:
        out = {
            "tables": args.tables,
            "minutes": args.minutes,
            "create_rate": args.rate if args.create else 0,
            "serve_args": args.serve_arg,
            "samples": [asdict(s) for s in samples],
            "rss_mb_per_min": rss_slope,
            "server_mb_per_min": server_slope,
            "mix": dict(sorted(args.seen.items())),
            "db_mb_per_min": db_slope,
            "db_and_wal_mb_per_min": store_slope,
            **trouble,
            "first_error": first[0] if first else None,
        }
        print(json.dumps(no_nan(out)))
    else:
        print(
            f"slope over the last half (minutes {half:.1f} to {samples[-1].minutes:.1f}): "
            f"RSS {rss_slope:+.2f} MB/min (the server alone {server_slope:+.2f}), "
            f"SQLite file {db_slope:+.3f} MB/min, with its log {store_slope:+.3f} MB/min"
        )
        if args.mix:
            print("the day's traffic: " + ", ".join(f"{n} {what}" for what, n in sorted(args.seen.items())))
    if args.trace is not None and trace is not None:
        last = len(samples) - 1
        if last > 1:
            print("\n".join(growth(args.trace, 1, last)))
        rows = [json.loads((args.trace / f"garbage-{n}.json").read_text()) for n in range(len(samples))]
        print("garbage found by the collection at each row: " + ", ".join(str(r["objects"]) for r in rows))
        print("\n".join(left))
        found = Counter[str]()
        for r in rows:
            found.update(r["by_type"])
        print("garbage found at the rows, in all, by type: " + ", ".join(f"{n} {k}" for k, n in found.most_common(25)))
        trace.cleanup()
        if any(trouble.values()):
            print(f"! {', '.join(f'{v} {k}' for k, v in trouble.items() if v)}; first: {first[0] if first else '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
