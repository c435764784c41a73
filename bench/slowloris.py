"""One address holds slow connections to ``belote serve`` while another asks it for its health.

The stranger, at 127.0.0.1, keeps ``--connections`` connections open, each sending a request's
headers a byte a second and never finishing them (slowloris); a connection the server closes is
opened again a second later. Meanwhile another client, at 127.0.0.2 (the whole loopback network is
this machine's), asks ``GET /api/health`` five times a second, each on a new connection. Printed for
each run: the stranger's connections the server held at most, the server's open file descriptors at
most, the other client's answers out of its tries and their median and p99, the lines of the server's
log that say "Too many open files" and "Traceback", and its size; then the medians of the runs.

    python bench/slowloris.py [--connections 1024] [--seconds 30] [--runs 3] [--files 1024] [--hard N] [--src DIR]

``--files``: the limit of open files the server starts with (many systems start a process with 1,024
under a far higher hard limit, which a server may raise itself to); ``--hard``: its hard limit (by
default this process's), e.g. 1024 for a server that cannot raise it. ``--src DIR`` runs the package
found in DIR (another checkout's ``src``), for a before-and-after; ``--serve-args`` passes more
options to ``belote serve``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import resource
import shlex
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

from ops import free_port, server, wait_up

STRANGER, OTHER = "127.0.0.1", "127.0.0.2"


@dataclass
class Run:
    held: int = 0  # the stranger's connections open now that the server did not close within a second
    most_held: int = 0
    opened: int = 0  # the stranger's connections, opened in all
    refused: int = 0  # connects that failed
    most_files: int = 0
    tries: int = 0
    answers: list[float] = field(default_factory=list)  # seconds, of the other client's answered requests


async def stranger(port: int, run: Run, until: float) -> None:
    """One slow connection after another: a header line that never ends, a byte a second."""
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection(STRANGER, port, local_addr=(STRANGER, 0))
        except OSError:
            run.refused += 1
            await asyncio.sleep(1.0)
            continue
        run.opened += 1
        held = False  # once it has stayed open a second
        try:
            writer.write(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            while time.monotonic() < until:
                try:
                    if not await asyncio.wait_for(reader.read(4096), 1.0):
                        break  # the server closed it
                except TimeoutError:
                    if not held:
                        held = True
                        run.held += 1
                    writer.write(b"x")
                    await writer.drain()
        except OSError:
            pass
        finally:
            run.held -= held
            writer.close()
        await asyncio.sleep(1.0)


def others(port: int, seconds: float, out: Connection) -> None:
    """``other`` in a process of its own (the stranger's loop is busy), its figures sent on ``out``."""
    run = Run()
    asyncio.run(other(port, run, time.monotonic() + seconds))
    out.send((run.tries, run.answers))


async def other(port: int, run: Run, until: float) -> None:
    """``GET /api/health`` five times a second from another address; an answer within 5 s counts."""
    while time.monotonic() < until:
        run.tries += 1
        start = time.perf_counter()
        try:
            async with asyncio.timeout(5.0):
                reader, writer = await asyncio.open_connection(STRANGER, port, local_addr=(OTHER, 0))
                writer.write(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                answer = await reader.read()
                writer.close()
            if answer.startswith(b"HTTP/1.1 200"):
                run.answers.append(time.perf_counter() - start)
        except (OSError, TimeoutError):
            pass
        await asyncio.sleep(max(0.0, 0.2 - (time.perf_counter() - start)))


async def watch(pid: int, run: Run, until: float) -> None:
    while time.monotonic() < until:
        run.most_held = max(run.most_held, run.held)
        with contextlib.suppress(OSError):  # the server has exited
            run.most_files = max(run.most_files, len(os.listdir(f"/proc/{pid}/fd")))
        await asyncio.sleep(0.25)


async def attack(port: int, pid: int, connections: int, seconds: float) -> Run:
    run = Run()
    until = time.monotonic() + seconds
    tasks = [stranger(port, run, until) for _ in range(connections)]
    await asyncio.gather(*tasks, watch(pid, run, until))
    return run


def p99(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.99))] if values else float("nan")


def one_run(args: argparse.Namespace) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="belote-slowloris-"))
    db, log = folder / "s.sqlite3", folder / "serve.log"
    port = free_port()
    more = shlex.split(args.serve_args)
    with server(db, port, *more, src=args.src, log=log, files=args.files, hard=args.hard) as proc:
        wait_up(port, proc)
        theirs, ours = multiprocessing.get_context("fork").Pipe(duplex=False)
        asking = multiprocessing.get_context("fork").Process(target=others, args=(port, args.seconds, ours))
        asking.start()
        run = asyncio.run(attack(port, proc.pid, args.connections, args.seconds))
        run.tries, run.answers = theirs.recv()
        asking.join()
    text = log.read_text(errors="replace")
    figures = {
        "held": run.most_held,
        "opened": run.opened,
        "fds": run.most_files,
        "answered": len(run.answers),
        "tries": run.tries,
        "p50_ms": statistics.median(run.answers) * 1000 if run.answers else float("nan"),
        "p99_ms": p99(run.answers) * 1000,
        "emfile": text.count("Too many open files"),
        "tracebacks": text.count("Traceback"),
        "log_kb": log.stat().st_size / 1024,
    }
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, default=1024, help="the stranger's slow connections")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the stranger keeps them")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--files", type=int, default=1024, help="the server's limit of open files at start")
    parser.add_argument(
        "--hard", type=int, default=None, help="its hard limit (default: this process's, which it may raise to)"
    )
    parser.add_argument("--src", default=None, help="run the server from this source folder (another checkout)")
    parser.add_argument("--serve-args", default="", help="more options for belote serve")
    args = parser.parse_args()
    # This process holds the stranger's connections and the other client's.
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(4096, 2 * args.connections + 256)), hard))
    runs = []
    print(
        f"{'run':>3} {'held':>5} {'opened':>7} {'fds':>5} {'answered':>12} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'EMFILE':>6} {'tracebacks':>10} {'log kB':>7}"
    )
    for i in range(args.runs):
        f = one_run(args)
        runs.append(f)
        answered = f"{f['answered']:.0f}/{f['tries']:.0f}"
        print(
            f"{i + 1:>3} {f['held']:5.0f} {f['opened']:7.0f} {f['fds']:5.0f} "
            f"{answered:>12} {f['p50_ms']:7.1f} {f['p99_ms']:7.1f} "
            f"{f['emfile']:6.0f} {f['tracebacks']:10.0f} {f['log_kb']:7.1f}"
        )
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    print(
        f"median: the stranger held {med['held']:.0f} connections (of {med['opened']:.0f} opened), the server "
        f"{med['fds']:.0f} descriptors at most; the other address answered {med['answered']:.0f} of "
        f"{med['tries']:.0f} (p50 {med['p50_ms']:.1f} ms, p99 {med['p99_ms']:.1f} ms); "
        f"{med['emfile']:.0f} 'Too many open files', {med['tracebacks']:.0f} tracebacks, log {med['log_kb']:.1f} kB"
    )


if __name__ == "__main__":
    main()
