"""One address floods what the server keeps and what it tells every seat, against one ``belote serve``.

Each way for ``--seconds`` seconds, as fast as the server takes it, from 127.0.0.1:

- ``queue``: two sockets queueing for two hands, again each time they are matched: the tables made;
- ``sheets``: ``POST /api/sheets`` in a loop: the sheets made, the answers refused;
- ``continue``: a person of a private table whose deal just ended sends ``continue`` without pause;
- ``seat``: a guest in a lobby moves between two free seats without pause.

For each it prints the messages or requests sent, the refusals by code, and what the store gained:
tables, sheets, or writes of the table (its meta's version, bumped by each), and the SQLite file's
growth. With ``--src DIR`` the server runs another checkout's package (a before-and-after; the
server of this checkout is started with ``--tables-per-minute 20``, its default, either way).

    python bench/flood.py [--seconds 10] [--src DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sqlite3
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from belote.game import SEATS, action_str
from belote.server.room import Meta, Room, Seat, check_settings, new_match
from belote.server.store import SQLiteStore
from ops import free_port, server, wait_up

FAST = {"strength": "easy", "speed": "fast", "turn_timer": 600}


def deal_over(db: Path) -> dict[str, str]:
    """A private table ``flood`` of four people whose first deal just ended, written into ``db``."""
    settings = check_settings(FAST)
    tokens = {SEATS[s]: f"flood-token-{s}" for s in range(4)}
    room = Room(Meta("private", 5, settings, {s: Seat(tokens[SEATS[s]], SEATS[s]) for s in range(4)}, host=2), None)
    match = room.match = new_match(settings, 5)
    while not room.deal_just_ended():
        match.apply(match.legal_actions()[0])
    store = SQLiteStore(db)
    store.commit("flood", room.meta.to_json(), True, 0, [action_str(a) for a in match.actions], False)
    store.close()
    return tokens


def lobby(port: int) -> tuple[str, str]:
    table = post(port, "/api/tables", {"name": "Host", "settings": FAST})
    guest = post(port, f"/api/tables/{table['table']}/sit", {"invite": table["invite"], "name": "Gus"})
    return table["table"], guest["token"]


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


def stored(db: Path, query: str, *args: Any) -> Any:
    with sqlite3.connect(db) as c:
        return c.execute(query, args).fetchone()[0]


def version(db: Path, table: str) -> int:
    return int(json.loads(stored(db, "SELECT meta FROM tables WHERE id = ?", table))["version"])


def file_bytes(db: Path) -> int:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


async def spam(ws: ClientConnection, messages: list[dict[str, Any]], seconds: float) -> tuple[int, Counter[str]]:
    """Send ``messages`` in turn for ``seconds`` (about 500 a second, as fast as the finding's 576),
    reading every answer meanwhile; how many were sent, and the refusals by code (those answered
    before a marker's own refusal). A socket the server closes is counted under ``closed``."""
    refused: Counter[str] = Counter()
    done = asyncio.Event()

    async def read() -> None:
        try:
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "error":
                    if msg["args"].get("type") == "flood-marker":
                        return
                    refused[msg["code"]] += 1
        except ConnectionClosed as e:
            refused[f"closed {e.rcvd.code if e.rcvd else ''}".strip()] += 1
        finally:
            done.set()

    reader = asyncio.create_task(read())
    sent, end = 0, time.monotonic() + seconds
    with contextlib.suppress(ConnectionClosed):
        while time.monotonic() < end and not done.is_set():
            await ws.send(json.dumps(messages[sent % len(messages)]))
            sent += 1
            if sent % 10 == 0:
                await asyncio.sleep(0.02)  # about 500 a second, and time to read: a client far behind is dropped
        await asyncio.sleep(1.5)  # past a second of refusals the server reads nothing (``flooding``): wait it out
        await ws.send(json.dumps({"type": "flood-marker"}))
    await asyncio.wait_for(done.wait(), 120)
    reader.cancel()
    return sent, refused


async def join(ws: ClientConnection, table: str, token: str) -> None:
    await ws.send(json.dumps({"type": "join", "table": table, "token": token}))
    while json.loads(await ws.recv())["type"] != "state":
        pass


async def queue(port: int, seconds: float) -> tuple[int, int, Counter[str]]:
    url = f"ws://127.0.0.1:{port}/ws"
    tables: set[str] = set()
    refused: Counter[str] = Counter()
    sent = 0
    async with connect(url) as one, connect(url) as two:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for ws in (one, two):
                await ws.send(json.dumps({"type": "queue", "name": "Flood", "variant": "two-handed"}))
                sent += 1
            for ws in (one, two):
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    if msg["type"] == "matched":
                        tables.add(msg["table"])
                        break
                    if msg["type"] == "error":
                        refused[msg["code"]] += 1
                        break
            if refused:  # a refused place waits for nothing: queue again
                await asyncio.sleep(0)
    return sent, len(tables), refused


def sheets(port: int, seconds: float) -> tuple[int, Counter[str]]:
    refused: Counter[str] = Counter()
    sent, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        sent += 1
        try:
            post(port, "/api/sheets", {})
        except urllib.error.HTTPError as e:
            refused[json.loads(e.read())["code"]] += 1
    return sent, refused


def line(name: str, sent: int, refused: Counter[str], gained: str) -> None:
    codes = ", ".join(f"{code} {n}" for code, n in refused.most_common()) or "none"
    print(f"{name:>9}: {sent:>6} sent; refused: {codes}; {gained}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--src", default=None, help="another checkout's src to run the server from")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="belote-flood-"))
    db = folder / "flood.sqlite3"
    tokens = deal_over(db)
    port = free_port()
    with server(db, port, "--tables-per-minute", "20", src=args.src) as proc:
        wait_up(port, proc)

        seats = lobby(port)  # before the address has created all it may
        others = {"continue": [tokens[s] for s in "NEW"]}

        async def flood() -> None:
            sent, made, refused = await queue(port, args.seconds)
            line("queue", sent, refused, f"{made} tables made")
            before_sheets = stored(db, "SELECT COUNT(*) FROM sheets")
            sent, refused = sheets(port, args.seconds)
            made = stored(db, "SELECT COUNT(*) FROM sheets") - before_sheets
            line("sheets", sent, refused, f"{made} sheets made")
            for name, table, token, messages in (
                ("continue", "flood", tokens["S"], [{"type": "continue"}]),
                ("seat", *seats, [{"type": "seat", "seat": "E"}, {"type": "seat", "seat": "W"}]),
            ):
                async with contextlib.AsyncExitStack() as stack:
                    ws = await stack.enter_async_context(connect(f"ws://127.0.0.1:{port}/ws", max_size=2**22))
                    await join(ws, table, token)
                    for other in others.get(name, []):  # the other people there: nobody is marked gone
                        await join(await stack.enter_async_context(connect(f"ws://127.0.0.1:{port}/ws")), table, other)
                    first, size = version(db, table), file_bytes(db)
                    sent, refused = await spam(ws, messages, args.seconds)
                    grown = (file_bytes(db) - size) / 1024
                    line(name, sent, refused, f"{version(db, table) - first} store writes, file {grown:+.0f} kB")

        asyncio.run(flood())


if __name__ == "__main__":
    main()
