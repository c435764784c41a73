"""A hostile client against one ``belote serve``, while four people play: what it costs them.

One stranger, from one address of its own (127.0.0.66: every address of 127.0.0.0/8 reaches the
loopback, so each party of the benchmark has its own and the limits per address apply as they
would on the internet), does at once, for ``--seconds``:

- **slow connections**: ``--slow`` HTTP connections that send their request a byte every few
  seconds and never finish it (reopened when the server closes one);
- **bodies cut short**: requests that announce a body and close halfway through it;
- **creations**: ``POST /api/solo``, ``POST /api/tables`` and ``POST /api/sheets`` as fast as
  answers come, and two sockets that queue for the two-handed game again each time they are seated;
- **every message type**: ``--sockets`` websockets, seated at tables of the stranger's own (a solo
  table, a private table's lobby), that send every client message of the protocol in turn
  (``continue``, seat moves, settings, chat, reactions, hints, cards that are not legal, new games...)
  and frames no client sends: text that is not JSON, nested too deep, binary frames, text that
  is not UTF-8.

Meanwhile four people (127.0.0.10 to 127.0.0.13) sit at a private table and play a card a second
each turn, as bench/load.py's paced players do. Printed for each run, and their medians with
``--runs``: the people's latency (from an ``act`` leaving to the last of the four receiving its
state) p50, p99 and max, and the actions they played; the server's open descriptors (the most
seen, and at the end); the growth of its log and of its store (the SQLite file's pages in use,
as a reader sees them: not its write-ahead log, which fills to its checkpoint size in the first
minute whatever is kept), in bytes a minute; the refusals by code (``/metrics``), and the answers the
stranger got (HTTP statuses, websocket close codes).

The goals (docs/operations.md): the people's p99 <= 100 ms, the descriptors bounded, the log
and the store growing by a bounded amount per client whatever it sends.

    python bench/hostile.py [--seconds 60] [--runs 3] [--slow 1024] [--sockets 32] [--redis] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import re
import sqlite3
import statistics
import sys
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from belote.cli import build_parser
from load import HOST, BenchTable, Plan, Player, Stats, free_port, percentile, post, raise_fd_limit, servers

STRANGER = "127.0.0.66"
PEOPLE = tuple(f"127.0.0.{10 + i}" for i in range(4))
SEATS = ("S", "N", "E", "W")
SAMPLE_EVERY = 1.0


def serve_defaults() -> list[str]:
    """``belote serve``'s own limits per address, which bench/load.py's servers turn off."""
    args = build_parser().parse_args(["serve"])
    return [
        *("--tables-per-minute", str(args.tables_per_minute), "--sockets-per-address", str(args.sockets_per_address)),
        *("--connections-per-address", str(args.connections_per_address)),
    ]


# --------------------------------------------------------------------------- HTTP, by hand
async def request(port: int, method: str, path: str, body: bytes = b"", origin: bool = True) -> int:
    """One request from the stranger's address on a connection of its own; the status (0: none came)."""
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(STRANGER, 0))
    try:
        head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: application/json\r\n"
        if origin:
            head += f"Origin: http://{HOST}:{port}\r\n"
        head += f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        writer.write(head.encode() + body)
        line = await asyncio.wait_for(reader.readline(), 30)
        parts = line.split()
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def ws_as(port: int, address: str) -> ClientConnection:
    return await connect(
        f"ws://{HOST}:{port}/ws",
        origin=f"http://{HOST}:{port}",  # type: ignore[arg-type]
        local_addr=(address, 0),
        ping_interval=None,
        max_size=2**20,
        open_timeout=30,
    )


# --------------------------------------------------------------------------- the stranger
@dataclass
class Tally:
    """What the stranger did and what it was answered."""

    http: Counter[str] = field(default_factory=Counter)  # "POST /api/solo 429" -> count
    closes: Counter[str] = field(default_factory=Counter)  # websocket close codes, and refused handshakes
    sent: Counter[str] = field(default_factory=Counter)  # websocket messages sent, by kind
    slow_closed: int = 0  # slow connections the server closed
    cut: int = 0  # requests whose body was cut short


async def slow_connection(port: int, tally: Tally, stop: asyncio.Event) -> None:
    """A request sent a byte every few seconds, never finished; opened again when the server closes it."""
    text = f"POST /api/sheets HTTP/1.1\r\nHost: {HOST}:{port}\r\nX-Padding: " + "a" * 4000
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(HOST, port, local_addr=(STRANGER, 0))
        except OSError:
            await asyncio.sleep(1.0)
            continue
        try:
            for ch in text:
                writer.write(ch.encode())
                await writer.drain()
                try:  # a byte every 3 to 4 seconds, unless the server answers (or closes) meanwhile
                    await asyncio.wait_for(reader.read(1), 3.0 + random.random())
                    break
                except TimeoutError:
                    pass
                if stop.is_set():
                    break
            tally.slow_closed += 1
        except (OSError, ConnectionError):
            tally.slow_closed += 1
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


async def cut_bodies(port: int, tally: Tally, stop: asyncio.Event) -> None:
    """Requests announcing a body of 4,000 bytes, closed after 100."""
    while not stop.is_set():
        try:
            _, writer = await asyncio.open_connection(HOST, port, local_addr=(STRANGER, 0))
            head = (
                f"POST /api/sheets HTTP/1.1\r\nHost: {HOST}:{port}\r\nOrigin: http://{HOST}:{port}\r\n"
                "Content-Type: application/json\r\nContent-Length: 4000\r\n\r\n"
            )
            writer.write(head.encode() + b"{" + b" " * 99)
            await writer.drain()
            writer.transport.abort()
            tally.cut += 1
        except OSError:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.002)


async def create(port: int, tally: Tally, stop: asyncio.Event) -> None:
    """New tables and sheets, one after the other, each answer awaited."""
    bodies = [
        ("/api/solo", b"{}"),
        ("/api/tables", json.dumps({"name": "Stranger"}).encode()),
        ("/api/sheets", b"{}"),
    ]
    n = 0
    while not stop.is_set():
        path, body = bodies[n % len(bodies)]
        n += 1
        try:
            status = await request(port, "POST", path, body)
        except (TimeoutError, OSError):
            status = 0
        tally.http[f"POST {path} {status}"] += 1


def junk(kind: str) -> list[dict[str, Any]]:
    """The messages of one round of a flood of ``kind``: each client message with values a page
    sends, and some it never would."""
    return {
        "continue": [{"type": "continue"}],
        "seat": [{"type": "seat", "to": s} for s in ("N", "E", "W", "S")],
        "settings": [{"type": "settings", "settings": {"variant": v}} for v in ("classic", "coinche")],
        "chat": [{"type": "chat", "text": "hello"}, {"type": "chat", "text": "x" * 300}],
        "react": [{"type": "react", "reaction": "nice_trick"}, {"type": "react", "reaction": "nope"}],
        "hint": [{"type": "hint"}],
        "act": [{"type": "act", "action": a} for a in ("pass", "AH", "take", "zz")],
        "new_game": [{"type": "new_game"}],
        "start": [{"type": "start"}],
        "back": [{"type": "back"}],
        "bot_seat": [{"type": "bot_seat", "to": "E"}],
        "join": [{"type": "join", "table": "nope", "token": "nope"}],
        "unknown": [{"type": "fly"}, {"kind": "act"}, [1, 2]],  # type: ignore[list-item]
    }[kind]


FLOOD_KINDS = ("continue", "seat", "settings", "chat", "react", "hint", "act", "new_game", "start", "back", "bot_seat")


async def flood_socket(port: int, n: int, seat: dict[str, Any] | None, tally: Tally, stop: asyncio.Event) -> None:
    """One websocket seated at ``seat`` (its table and token), sending every kind of message as
    fast as it may, with frames no page sends among them; opened again when the server closes it."""
    rng = random.Random(n)
    while not stop.is_set():
        try:
            ws = await ws_as(port, STRANGER)
        except InvalidStatus as e:
            tally.closes[f"handshake {e.response.status_code}"] += 1
            await asyncio.sleep(0.5)
            continue
        except (TimeoutError, OSError):
            tally.closes["connect failed"] += 1
            await asyncio.sleep(0.5)
            continue
        reader = asyncio.ensure_future(drain(ws))
        try:
            if seat is not None:
                await ws.send(json.dumps({"type": "join", "since": -1, **seat}))
            while not stop.is_set():
                kind = rng.choice((*FLOOD_KINDS, "join", "unknown", "text", "deep", "binary", "utf8"))
                if kind == "text":
                    await ws.send("{not json")
                elif kind == "deep":
                    await ws.send("[" * 50 + "]" * 50)
                elif kind == "binary":
                    await ws.send(b"\x00\x01binary")
                elif kind == "utf8":
                    await ws.send(b'{"type": "chat", "text": "\xff\xfe"}', text=True)
                else:
                    for msg in junk(kind):
                        await ws.send(json.dumps(msg))
                tally.sent[kind] += 1
                await asyncio.sleep(0)
        except ConnectionClosed as e:
            code = e.rcvd.code if e.rcvd is not None else 1006
            tally.closes[str(code)] += 1
        finally:
            reader.cancel()
            with contextlib.suppress(Exception):
                await ws.close()


async def drain(ws: ClientConnection) -> None:
    """Reads what the server sends, so that the stranger is not dropped for not reading."""
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            pass


async def queue_again(port: int, tally: Tally, stop: asyncio.Event) -> None:
    """Two sockets that queue for the two-handed game, and again as soon as they are seated."""

    async def one(name: str) -> None:
        while not stop.is_set():
            try:
                ws = await ws_as(port, STRANGER)
            except (TimeoutError, InvalidStatus, OSError):
                tally.closes["queue connect failed"] += 1
                await asyncio.sleep(0.5)
                continue
            try:
                await ws.send(json.dumps({"type": "queue", "name": name, "variant": "two-handed"}))
                async for text in ws:
                    msg = json.loads(text)
                    if msg.get("type") == "seated" or msg.get("type") == "error":
                        tally.sent[f"queue {msg.get('type')} {msg.get('code', '')}".strip()] += 1
                        await ws.send(json.dumps({"type": "queue", "name": name, "variant": "two-handed"}))
            except ConnectionClosed as e:
                tally.closes[str(e.rcvd.code if e.rcvd is not None else 1006)] += 1
            finally:
                with contextlib.suppress(Exception):
                    await ws.close()

    await asyncio.gather(one("Ana"), one("Bob"))


async def stranger_main(port: int, slow: int, sockets: int, out: Any, ready: Event, done: Event) -> None:
    raise_fd_limit()
    tally = Tally()
    stop = asyncio.Event()
    seats: list[dict[str, Any] | None] = []
    try:  # tables of its own to flood from a seat: one solo table, one private lobby
        solo = await post(port, "/api/solo", {}, STRANGER)
        seats.append({"table": solo["table"], "token": solo["token"]})
        private = await post(port, "/api/tables", {"name": "Stranger"}, STRANGER)
        seats.append({"table": private["table"], "token": private["token"]})
    except (RuntimeError, OSError) as e:
        print(f"the stranger could not open its own tables: {e}", file=sys.stderr)
    ready.set()
    tasks = [asyncio.ensure_future(slow_connection(port, tally, stop)) for _ in range(slow)]
    tasks += [asyncio.ensure_future(cut_bodies(port, tally, stop)) for _ in range(4)]
    tasks += [asyncio.ensure_future(create(port, tally, stop)) for _ in range(2)]
    tasks += [
        asyncio.ensure_future(flood_socket(port, n, seats[n % len(seats)] if seats else None, tally, stop))
        for n in range(sockets)
    ]
    tasks.append(asyncio.ensure_future(queue_again(port, tally, stop)))
    while not done.is_set():  # until the people's window is over
        await asyncio.sleep(0.2)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    out.put(
        {
            "http": dict(tally.http),
            "closes": dict(tally.closes),
            "sent": dict(tally.sent),
            "slow_closed": tally.slow_closed,
            "cut": tally.cut,
        }
    )


def stranger_process(port: int, slow: int, sockets: int, out: Any, ready: Event, done: Event) -> None:
    asyncio.run(stranger_main(port, slow, sockets, out, ready, done))


# --------------------------------------------------------------------------- the four people
async def seat_people(port: int, stats: Stats) -> BenchTable:
    """A private table of four people, each from an address of their own, seated, joined, started."""
    host = PEOPLE[0]
    created = await post(port, "/api/tables", {"name": "Host", "settings": {"turn_timer": 600}}, host)
    tokens = {created["seat"]: created["token"]}
    for address in PEOPLE[1:]:
        seat = {"invite": created["invite"], "name": address}
        sat = await post(port, f"/api/tables/{created['table']}/sit", seat, address)
        tokens[sat["seat"]] = sat["token"]
    plan = Plan(ports=(port,), interval=1.0, jitter=0.5, compression=None)
    table = BenchTable(0, stats, plan)
    for seat, address in zip(SEATS, PEOPLE, strict=True):
        ws = await ws_as(port, address)
        await ws.send(json.dumps({"type": "join", "table": created["table"], "token": tokens[seat], "since": -1}))
        while json.loads(await ws.recv()).get("type") != "state":
            pass
        table.players[seat] = Player(table, seat, ws)
    return table


# --------------------------------------------------------------------------- the server, sampled
def fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def store_bytes(db: Path) -> int:
    """What the store holds: its pages in use, as a reader sees them (the file's size would count its
    free pages and the write-ahead log, which grows to its checkpoint size in the first minute and
    is then used again)."""
    if not db.exists():
        return 0
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        pragmas = ("page_count", "freelist_count", "page_size")
        pages, free, size = (con.execute(f"PRAGMA {p}").fetchone()[0] for p in pragmas)
    finally:
        con.close()
    return int((pages - free) * size)


def refusals(port: int) -> Counter[str]:
    """``belote_refusals_total`` by code, from ``/metrics`` (asked from an address of its own)."""
    with urllib.request.urlopen(f"http://{HOST}:{port}/metrics", timeout=60) as r:
        text = r.read().decode()
    found: Counter[str] = Counter()
    for m in re.finditer(r'^belote_refusals_total\{code="([^"]+)"\} (\S+)$', text, re.M):
        found[m.group(1)] = int(float(m.group(2)))
    return found


def slope_per_minute(points: list[tuple[float, int]]) -> float:
    """Least-squares slope of (seconds, bytes), in bytes a minute."""
    if len(points) < 2:
        return 0.0
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return 60 * sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else 0.0


async def play_and_sample(port: int, pid: int, db: Path, log: Path, seconds: float) -> dict[str, Any]:
    stats = Stats()
    began = time.monotonic()
    try:
        table = await seat_people(port, stats)
    except (TimeoutError, RuntimeError, OSError, InvalidStatus, ConnectionClosed) as e:
        return {"seated": f"the people could not sit down: {e!r}"[:300]}
    readers = [asyncio.ensure_future(p.read()) for p in table.players.values()]
    driver = asyncio.ensure_future(table.drive())
    await table.begin()
    start = seated = time.monotonic()
    fd_seen, logs, stores = [], [], []
    while (now := time.monotonic()) - start < seconds:
        t = now - start
        fd_seen.append(fds(pid))
        logs.append((t, log.stat().st_size if log.exists() else 0))
        stores.append((t, store_bytes(db)))
        await asyncio.sleep(SAMPLE_EVERY)
    table.stopping = True
    driver.cancel()
    for p in table.players.values():
        await p.ws.close()
    await asyncio.gather(driver, *readers, return_exceptions=True)
    lat = [s for _, s in stats.latency]
    return {
        "seating_s": seated - began,
        "actions": len(stats.sent),
        "p50_ms": 1000 * percentile(lat, 50),
        "p99_ms": 1000 * percentile(lat, 99),
        "max_ms": 1000 * max(lat, default=float("nan")),
        "closed": len(stats.closed),
        "errors": Counter(stats.errors).most_common(3),
        "fds_max": max(fd_seen, default=0),
        "fds_end": fd_seen[-1] if fd_seen else 0,
        "log_bytes_per_min": slope_per_minute(logs),
        "log_bytes": logs[-1][1] if logs else 0,
        "store_bytes_per_min": slope_per_minute(stores),
    }


def run_once(args: argparse.Namespace) -> dict[str, Any]:
    raise_fd_limit()
    port = args.port or free_port()
    extra = [*serve_defaults(), "--turn-timer", "30"]
    with servers(port, redis=args.redis, extra=extra) as srv:
        pid = srv.procs[0].pid
        log = srv.db.with_name(f"server-{port}.log")
        before = refusals(port)
        ctx = mp.get_context("spawn")
        out, ready, done = ctx.Queue(), ctx.Event(), ctx.Event()
        stranger = ctx.Process(target=stranger_process, args=(port, args.slow, args.sockets, out, ready, done))
        stranger.start()
        ready.wait(60)
        time.sleep(2)  # the flood under way before the people sit down
        try:
            played = asyncio.run(play_and_sample(port, pid, srv.db, log, args.seconds))
        finally:
            done.set()
        tally = out.get(timeout=120)
        stranger.join(30)
        refused = refusals(port) - before
        text = log.read_text(errors="replace")
        played.update(
            refusals=dict(refused.most_common()),
            stranger=tally,
            tracebacks=text.count("Traceback"),
            http_5xx={k: v for k, v in tally["http"].items() if k.split()[-1].startswith("5")},
        )
        return played


def report(r: dict[str, Any]) -> str:
    people = (
        [r["seated"]]
        if "seated" in r
        else [
            f"people: seated in {r['seating_s']:.1f} s, {r['actions']} actions, "
            f"latency p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, "
            f"max {r['max_ms']:.1f} ms, sockets lost {r['closed']}, errors {r['errors']}",
            f"server: descriptors max {r['fds_max']}, at the end {r['fds_end']}; "
            f"log {r['log_bytes_per_min'] / 1024:.1f} kB/min ({r['log_bytes']} bytes, {r['tracebacks']} tracebacks); "
            f"store {r['store_bytes_per_min'] / 1024:.1f} kB/min",
        ]
    )
    return "\n".join(
        [
            *people,
            f"refusals: {r['refusals']}",
            f"stranger's HTTP answers: {r['stranger']['http']}",
            f"stranger's sockets closed: {r['stranger']['closes']}; slow connections ended "
            f"{r['stranger']['slow_closed']}, bodies cut {r['stranger']['cut']}",
        ]
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=60.0, help="how long the people play under the flood")
    p.add_argument("--runs", type=int, default=1, help="runs, with the medians of their figures")
    p.add_argument("--slow", type=int, default=1024, help="slow connections the stranger holds")
    p.add_argument("--sockets", type=int, default=32, help="websockets the stranger floods from")
    p.add_argument("--redis", action="store_true", help="the server's tables in a fresh redis-server")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    results = []
    for n in range(args.runs):
        r = run_once(args)
        results.append(r)
        print(json.dumps(r) if args.json else f"run {n + 1}:\n{report(r)}", flush=True)
    if args.runs > 1:
        keys = ("seating_s", "p50_ms", "p99_ms", "max_ms", "fds_max", "log_bytes_per_min", "store_bytes_per_min")
        seated = [r for r in results if "seated" not in r]
        medians = {k: statistics.median(r[k] for r in seated) for k in keys} if seated else {}
        print("medians: " + ", ".join(f"{k} {v:.1f}" for k, v in medians.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
