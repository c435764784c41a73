"""Operations of one ``belote serve``: a start on a large store, and a soak of table creation.

- ``restore``: writes ``--tables`` solo tables (each ``--actions`` actions into its first deals,
  then the person's turn, or with ``--at bot`` a bot's, of ``--strength``) into a fresh SQLite
  file, starts ``python -m belote.cli serve --pace 0`` on it and prints how long it took to answer
  ``/api/health``, its memory then, and how long a new player waited: ``POST /api/solo``, a
  websocket ``join``, the first state, and the first state where it is their turn (the bots before
  them played); then the first state of one of the stored tables (loaded and replayed on demand).
  With ``--src DIR`` the server runs the package found in DIR (another checkout's ``src``), for a
  before-and-after.
- ``sweep``: writes ``--tables`` solo tables into a fresh file and times the sweep that expires
  them all (``SQLiteStore.expire``: batches of 500 under the store's lock, then the incremental
  vacuum), with the longest time one batch held the lock and the file's size before and after.
- ``soak``: starts a server whose solo tables expire after ``--expire`` seconds (sweeps every
  ``--sweep`` seconds), creates ``--rate`` solo tables a second for ``--seconds`` seconds (one in
  ten joined by a person who plays a few actions and leaves), and every ``--every`` seconds
  prints the tables in the store, the file's size (with its write-ahead log), the server's
  memory and the tables it holds (``/metrics``): flat once the first tables expire.

    python bench/ops.py restore [--tables 100000] [--actions 12] [--at person|bot] [--strength easy] [--src DIR]
    python bench/ops.py sweep [--tables 100000] [--actions 12]
    python bench/ops.py soak [--seconds 180] [--rate 40] [--expire 30] [--sweep 5] [--every 15]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from belote.game import action_str
from belote.server.room import DEFAULT_SETTINGS, Meta, Seat, bot_seat, new_match
from belote.server.store import SQLiteStore


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def server(
    db: Path,
    port: int,
    *args: str,
    src: str | None = None,
    log: Path | None = None,
    files: int | None = None,
    hard: int | None = None,
) -> Iterator[subprocess.Popen[bytes]]:
    """``belote serve`` on ``port``: its log written to ``log`` (else dropped); ``files``: the limit of
    open files it starts with, as a system that starts processes with 1,024 would, under ``hard`` (by
    default this process's hard limit, which the server may raise its own to)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if src:
        env["PYTHONPATH"] = src
    cmd = [sys.executable, "-m", "belote.cli", "serve", "--port", str(port), "--db", str(db), *args]

    def limit_files() -> None:
        if files is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (files, hard or resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    out = log.open("wb") if log is not None else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=out, env=env, preexec_fn=limit_files)
    if not isinstance(out, int):
        out.close()  # the server has its own copy
    try:
        yield proc
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def wait_up(port: int, proc: subprocess.Popen[bytes], timeout: float = 600.0) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if proc.poll() is not None:
            raise RuntimeError("belote serve exited")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=60):
                return time.perf_counter() - start
        except OSError:
            time.sleep(0.01)
    raise RuntimeError("belote serve did not start")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


async def first_state(port: int, table: str, token: str, acts: int = 0) -> tuple[float, float]:
    """Seconds from the join to the first state, and to the person's turn; then ``acts`` actions of the
    person, and leave."""

    async def state(turn: bool) -> dict[str, Any]:
        while True:
            msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 600))
            if msg["type"] == "state" and (not turn or msg["view"]["legal"] or msg["waiting"] == "continue"):
                return msg

    async with connect(f"ws://127.0.0.1:{port}/ws", max_size=2**22) as ws:
        start = time.perf_counter()
        await ws.send(json.dumps({"type": "join", "table": table, "token": token}))
        msg = await state(False)
        took = time.perf_counter() - start
        if not msg["view"]["legal"] and msg["waiting"] != "continue":
            msg = await state(True)
        turn = time.perf_counter() - start
        while acts > 0:
            if msg["waiting"] == "continue":
                await ws.send(json.dumps({"type": "continue"}))
            else:
                await ws.send(json.dumps({"type": "act", "action": random.choice(msg["view"]["legal"])}))
                acts -= 1
            if acts:
                msg = await state(True)
        return took, turn


def stored_table(actions: int, seed: int, at: str, strength: str) -> tuple[dict[str, Any], list[str]]:
    """A solo table of the person at South and three bots of ``strength``, played for ``actions`` and
    on to the turn of the person (``at``: person) or of a bot (bot)."""
    settings = {**DEFAULT_SETTINGS, "strength": strength}
    seats = {2: Seat("token", "Me")}
    seats.update({s: bot_seat(name, strength) for s, name in ((0, "Léa"), (1, "Hugo"), (3, "Paul"))})
    meta = Meta("solo", seed, settings, seats, version=1)
    match = new_match(settings, seed)
    rng = random.Random(seed)
    while match.action_count < actions or (match.to_move == 2) != (at == "person"):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    return meta.to_json(), [action_str(a) for a in match.actions_from(0)]


def restore(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="belote-restore-"))
    db = folder / "restore.sqlite3"
    store = SQLiteStore(db)
    meta, actions = stored_table(args.actions, 7, args.at, args.strength)
    start = time.perf_counter()
    for i in range(args.tables):
        store.commit(f"stored{i}", meta, True, 0, actions, False)
    store.close()
    print(f"wrote {args.tables} tables of {len(actions)} actions in {time.perf_counter() - start:.1f} s "
          f"({db.stat().st_size / 2**20:.0f} MB)")  # fmt: skip
    port = free_port()
    with server(db, port, "--pace", "0", src=args.src) as proc:
        up = wait_up(port, proc)
        memory = rss_mb(proc.pid)
        start = time.perf_counter()
        new = post(port, "/api/solo", {"strength": args.strength})
        created = time.perf_counter() - start
        joined, turn = asyncio.run(first_state(port, new["table"], new["token"]))
        old, _ = asyncio.run(first_state(port, f"stored{args.tables // 2}", "token"))
        print(
            f"server up in {up:.2f} s, {memory:.0f} MB; a new solo table in {created * 1000:.0f} ms, its first "
            f"state in {joined * 1000:.0f} ms, the person's turn in {turn * 1000:.0f} ms; "
            f"a stored table's first state in {old * 1000:.0f} ms"
        )
    db.unlink()


def sweep(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="belote-sweep-"))
    db = folder / "sweep.sqlite3"
    store = SQLiteStore(db, clock=lambda: 1000.0)
    meta, actions = stored_table(args.actions, 7, "person", "easy")
    for i in range(args.tables):
        store.commit(f"stored{i}", meta, True, 0, actions, False)
    before = store.size()
    held: list[float] = []
    lock = store._lock

    class Timed:
        """The store's lock, timing how long each holder keeps it."""

        def __enter__(self) -> None:
            lock.acquire()
            self.start = time.perf_counter()

        def __exit__(self, *exc: object) -> None:
            held.append(time.perf_counter() - self.start)
            lock.release()

    store._lock = Timed()  # type: ignore[assignment]
    start = time.perf_counter()
    gone = store.expire({"solo": 2000.0})
    took = time.perf_counter() - start
    after = store.size()
    store.close()
    print(
        f"expired {len(gone.get('solo', []))} tables in {took:.2f} s; the lock held at most {max(held) * 1000:.0f} ms "
        f"at a time; file {before['bytes'] / 2**20:.1f} MB -> {after['bytes'] / 2**20:.2f} MB"
    )
    for path in folder.iterdir():
        path.unlink()


def soak(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="belote-soak-"))
    db = folder / "soak.sqlite3"
    port = free_port()
    options = ["--expire-solo-after", str(args.expire), "--sweep-every", str(args.sweep), "--tables-per-minute", "0"]
    with server(db, port, *options, "--pace", "0") as proc:
        wait_up(port, proc)
        print(f"{'s':>5} {'created':>8} {'stored':>7} {'file MB':>8} {'RSS MB':>7} {'held':>5}")
        start = time.perf_counter()
        created = 0
        next_print = 0.0
        while (elapsed := time.perf_counter() - start) < args.seconds:
            table = post(port, "/api/solo", {"strength": "easy"})
            created += 1
            if created % 10 == 0:
                asyncio.run(first_state(port, table["table"], table["token"], acts=3))
            if elapsed >= next_print:
                next_print += args.every
                wal = db.with_name(db.name + "-wal")
                size = db.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
                with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as ro:
                    (stored,) = ro.execute("SELECT COUNT(*) FROM tables").fetchone()
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=60) as r:
                    text = r.read().decode()
                held = sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith("belote_tables{"))
                print(
                    f"{elapsed:5.0f} {created:8d} {stored:7d} {size / 2**20:8.2f} {rss_mb(proc.pid):7.1f} {held:5.0f}"
                )
            time.sleep(max(0.0, created / args.rate - (time.perf_counter() - start)))
    for path in folder.iterdir():
        path.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("restore", help="start a server on a store of many tables")
    p.add_argument("--tables", type=int, default=100_000)
    p.add_argument("--actions", type=int, default=12, help="actions of each stored table (at least)")
    p.add_argument("--at", choices=("person", "bot"), default="person", help="whose turn the stored tables are at")
    p.add_argument("--strength", choices=("easy", "normal", "strong"), default="easy", help="the bots' strength")
    p.add_argument("--src", default=None, help="run the server from this source folder (another checkout)")
    p.set_defaults(func=restore)
    p = sub.add_parser("sweep", help="time the sweep of a large store")
    p.add_argument("--tables", type=int, default=100_000)
    p.add_argument("--actions", type=int, default=12, help="actions of each stored table (at least)")
    p.set_defaults(func=sweep)
    p = sub.add_parser("soak", help="create tables for a while and watch the store and the memory")
    p.add_argument("--seconds", type=float, default=180.0)
    p.add_argument("--rate", type=float, default=40.0, help="solo tables created a second")
    p.add_argument("--expire", type=float, default=30.0, help="seconds a solo table stays unused")
    p.add_argument("--sweep", type=float, default=5.0, help="seconds between sweeps")
    p.add_argument("--every", type=float, default=15.0, help="seconds between two lines")
    p.set_defaults(func=soak)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
