"""How long a new player's bots take while one stranger keeps the bot workers busy.

Starts ``python -m belote.cli serve`` (behind ``--forwarded-allow-ips 127.0.0.1``, so that each
scripted client is an address of its own by ``X-Forwarded-For``), opens a solo table for a person
at 10.0.0.2 (normal bots, normal speed) and times its bots' rounds: from the person's bid or card
(or reading of a deal's score) to their next turn, a round still under way when the budget runs out
counted as long as it lasted. First with the server quiet, then while a stranger at 10.0.0.1 floods
it:

- ``tables``: two sockets queue for two-handed Play online, again each time they are matched, until
  ``--tables`` tables are made; nobody joins them, and after the turn timer (``--turn-timer``) a
  search bot stands in for each absent seat, so every table's bots think at once;
- ``hints``: ``--sockets`` sockets on the stranger's own solo tables (hints on: ``--tables`` of them,
  the sockets shared out between their seats) ask for a hint each, again as soon as it is answered
  (or a moment after it is refused), for the whole measure. ``--hints-per-minute`` is given to the
  server (0: no limit, to see the workers' fair queue alone at work).

Each run prints the quiet and the flooded median round time, the rounds timed, and what the flood
did; after ``--runs`` runs, the medians of the runs. With ``--src DIR`` the server runs the package
found in DIR (another checkout's ``src``), for a before-and-after.

    python bench/fairness.py tables [--tables 300] [--turn-timer 10] [--rounds 12] [--budget 150] [--runs 3] [--src DIR]
    python bench/fairness.py hints [--sockets 32] [--tables 1] [--hints-per-minute N] [--rounds 12] [--budget 150]
                                   [--runs 3] [--src DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from ops import free_port, post, wait_up
from ops import server as serve

STRANGER, PERSON = "10.0.0.1", "10.0.0.2"


@contextlib.asynccontextmanager
async def socket(port: int, address: str) -> AsyncIterator[ClientConnection]:
    """A websocket to the server from ``address`` (as the proxy in front of it would say)."""
    headers = {"X-Forwarded-For": address}
    async with connect(f"ws://127.0.0.1:{port}/ws", additional_headers=headers, max_size=2**22) as ws:
        yield ws


async def message(ws: ClientConnection, kinds: tuple[str, ...], timeout: float) -> dict[str, Any]:
    """The next message of one of ``kinds`` (others skipped), within ``timeout`` seconds."""
    deadline = time.perf_counter() + timeout
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), max(0.0, deadline - time.perf_counter())))
        if msg["type"] in kinds:
            return msg


def my_turn(state: dict[str, Any]) -> bool:
    return state["view"] is not None and bool(state["view"]["legal"])


async def rounds(port: int, table: dict[str, Any], count: int, budget: float) -> tuple[float | None, list[float]]:
    """Seconds from the join to the person's first turn, and each round of its bots (at most ``count``,
    within ``budget`` seconds): from the person's bid or card (or their reading of a deal's score) to
    their next turn. A round still under way when the budget runs out counts as long as it had
    lasted (at least that: the median is then a lower bound)."""
    async with socket(port, PERSON) as ws:
        start = time.perf_counter()
        await ws.send(json.dumps({"type": "join", "table": table["table"], "token": table["token"]}))
        timed: list[float] = []
        first: float | None = None
        try:
            state = await next_turn(ws, budget)
        except TimeoutError:
            return None, []
        first = time.perf_counter() - start
        while len(timed) < count:
            acted = time.perf_counter()
            if state["waiting"] == "continue":
                await ws.send(json.dumps({"type": "continue"}))
            else:
                await ws.send(json.dumps({"type": "act", "action": random.choice(state["view"]["legal"])}))
            try:
                state = await next_turn(ws, budget - (acted - start))
            except TimeoutError:
                timed.append(time.perf_counter() - acted)  # the budget is spent: this round lasted at least this
                break
            timed.append(time.perf_counter() - acted)
        return first, timed


async def next_turn(ws: ClientConnection, timeout: float) -> dict[str, Any]:
    """The next state where the person is to act (a card or bid, or the reading of a deal's score)."""
    deadline = time.perf_counter() + timeout
    while True:
        state = await message(ws, ("state",), deadline - time.perf_counter())
        if my_turn(state) or state["waiting"] == "continue":
            return state


async def queue_flood(port: int, tables: int) -> int:
    """Two sockets of the stranger queue for two-handed, again each time they are matched: the
    tables made."""
    made = 0
    async with socket(port, STRANGER) as a, socket(port, STRANGER) as b:
        join = json.dumps({"type": "queue", "name": "Flood", "variant": "two-handed"})
        while made < tables:
            await a.send(join)
            await b.send(join)
            matched = [await message(ws, ("matched", "error"), 30) for ws in (a, b)]
            refused = [m["code"] for m in matched if m["type"] == "error"]
            if refused:
                print(f"  the queue refused: {refused}")
                break
            made += 1
    return made


async def hint_flood(port: int, sockets: int, tables: int, stop: asyncio.Event, seen: Counter[str]) -> None:
    """The stranger's ``tables`` solo tables with hints on, and ``sockets`` sockets on their seats
    asking for hints until ``stop``; ``seen`` counts the answers and the refusals by code."""
    made = [post(port, "/api/solo", {"hints": True}) for _ in range(tables)]
    joins = [json.dumps({"type": "join", "table": t["table"], "token": t["token"]}) for t in made]

    async def ask(ws: ClientConnection, join: str) -> None:
        await ws.send(join)
        state = await message(ws, ("state",), 60)
        while not my_turn(state):
            state = await message(ws, ("state",), 60)
        while not stop.is_set():
            await ws.send(json.dumps({"type": "hint"}))
            answer = await message(ws, ("hint", "error"), 600)
            seen[answer["type"] if answer["type"] == "hint" else answer["code"]] += 1
            if answer["type"] == "error":
                await asyncio.sleep(0.25)

    async with contextlib.AsyncExitStack() as stack:
        opened = [await stack.enter_async_context(socket(port, STRANGER)) for _ in range(sockets)]
        tasks = [asyncio.ensure_future(ask(ws, joins[i % tables])) for i, ws in enumerate(opened)]
        await stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s" if values else "-"


def said(rounds: list[float], first: float | None) -> str:
    """A measure's rounds in words: their median, the longest, how many, and the first turn."""
    if not rounds:
        return f"no round in the budget (first turn {'never' if first is None else f'{first:.1f} s'})"
    return (
        f"round {median(rounds)} (longest {max(rounds):.1f} s, {len(rounds)} rounds; "
        f"first turn {'never' if first is None else f'{first:.1f} s'})"
    )


async def one_run(args: argparse.Namespace, port: int) -> tuple[float | None, float | None]:
    quiet_first, quiet = await rounds(port, post(port, "/api/solo", {}), args.rounds, args.budget)
    if args.command == "tables":
        made = await queue_flood(port, args.tables)
        await asyncio.sleep(args.turn_timer + 5)  # the stand-ins come after the turn timer (and the presence grace)
        first, flooded = await rounds(port, post(port, "/api/solo", {}), args.rounds, args.budget)
        what = f"{made} tables of stand-in bots"
    else:
        stop, seen = asyncio.Event(), Counter[str]()
        flood = asyncio.ensure_future(hint_flood(port, args.sockets, args.tables, stop, seen))
        while not seen:  # the stranger's hints are under way
            await asyncio.sleep(0.1)
        began = time.perf_counter()
        first, flooded = await rounds(port, post(port, "/api/solo", {}), args.rounds, args.budget)
        took = time.perf_counter() - began
        stop.set()
        await flood
        answered = seen.pop("hint", 0)
        what = (
            f"{answered} hints of {args.tables} table(s) answered in {took:.0f} s ({answered / took * 60:.0f} a "
            f"minute), refused {dict(seen)}"
        )
    print(f"  quiet: {said(quiet, quiet_first)}\n  flooded by {what}: {said(flooded, first)}")
    return (statistics.median(quiet) if quiet else None), (statistics.median(flooded) if flooded else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help in (("tables", "abandoned queue tables of stand-in bots"), ("hints", "hints from many sockets")):
        p = sub.add_parser(name, help=help)
        p.add_argument("--rounds", type=int, default=12, help="bots' rounds timed at each measure")
        p.add_argument("--budget", type=float, default=150.0, help="seconds a measure may last")
        p.add_argument("--runs", type=int, default=3)
        p.add_argument("--src", default=None, help="run the server from this source folder (another checkout)")
    sub.choices["tables"].add_argument("--tables", type=int, default=300)
    sub.choices["tables"].add_argument("--turn-timer", type=int, default=10)
    sub.choices["hints"].add_argument("--sockets", type=int, default=32)
    sub.choices["hints"].add_argument("--tables", type=int, default=1, help="the stranger's solo tables")
    sub.choices["hints"].add_argument("--hints-per-minute", type=int, default=None, help="the server's limit")
    args = parser.parse_args()
    quiet: list[float] = []
    flooded: list[float] = []
    for run in range(args.runs):
        folder = Path(tempfile.mkdtemp(prefix="belote-fairness-"))
        port = free_port()
        options = ["--forwarded-allow-ips", "127.0.0.1", "--tables-per-minute", "0"]
        if args.command == "tables":
            options += ["--turn-timer", str(args.turn_timer)]
        elif args.hints_per_minute is not None:
            options += ["--hints-per-minute", str(args.hints_per_minute)]
        with serve(folder / "fairness.sqlite3", port, *options, src=args.src) as proc:
            wait_up(port, proc)
            print(f"run {run + 1}:")
            q, f = asyncio.run(one_run(args, port))
        quiet += [q] if q is not None else []
        flooded += [f] if f is not None else []
        for path in folder.iterdir():
            path.unlink()
    print(f"medians of {args.runs} runs: quiet round {median(quiet)}, flooded round {median(flooded)}")


if __name__ == "__main__":
    main()
