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

    python bench/soak.py --tables 20 [--minutes 10] [--every 30] [--create [--rate 2]]
                         [--serve-arg=--expire-after --serve-arg=60] [--person 1,3] [--port 8775] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from load import (
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
        sample = Sample(
            minutes=(now - start) / 60,
            rss_mb=tree_rss(srv.pids) / 1024,
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


HEADER = "minutes  RSS MB  SQLite MB  WAL MB  tables held  created  deals  person p99 ms  bots late p99 ms  load"


def row(s: Sample) -> str:
    return (
        f"{s.minutes:7.1f}  {s.rss_mb:6.1f}  {s.db_mb:9.2f}  {s.wal_mb:6.2f}  {s.server_tables:11d}  "
        f"{s.created:7d}  {s.deals:5d}  "
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
    with servers(args.port, pace=args.pace, extra=args.serve_arg) as srv:
        if not args.json:
            what = f", creating {args.rate:g} tables/s" if args.create else ""
            extra = f", belote serve {' '.join(args.serve_arg)}" if args.serve_arg else ""
            print(
                f"soak: {args.tables} solo tables for {args.minutes:g} min{what}{extra}, {os.cpu_count()} cores",
                flush=True,
            )
            print(HEADER, flush=True)
        samples, stats, create_failed = asyncio.run(soak(args, srv))
    half = samples[-1].minutes / 2
    last_half = [s for s in samples if s.minutes >= half]
    rss_slope = slope([(s.minutes, s.rss_mb) for s in last_half])
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
            "db_mb_per_min": db_slope,
            "db_and_wal_mb_per_min": store_slope,
            **trouble,
            "first_error": first[0] if first else None,
        }
        print(json.dumps(no_nan(out)))
    else:
        print(
            f"slope over the last half (minutes {half:.1f} to {samples[-1].minutes:.1f}): "
            f"RSS {rss_slope:+.2f} MB/min, SQLite file {db_slope:+.3f} MB/min, with its log {store_slope:+.3f} MB/min"
        )
        if any(trouble.values()):
            print(f"! {', '.join(f'{v} {k}' for k, v in trouble.items() if v)}; first: {first[0] if first else '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
