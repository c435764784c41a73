"""What the table page costs a browser: requests and bytes of a first visit (cold cache) and a second (warm).

Starts ``python -m belote.cli serve`` on a fresh SQLite file behind a small proxy of this script,
which counts every HTTP response that crosses it (headers and body, as sent: compressed when they
are), then in Debian's Chromium (Playwright) opens ``/`` in a fresh browser context (an empty cache:
a first visit) and waits until the page is ready: the home screen open, and the service worker,
where the page has one, in control. It closes the tab and opens ``/`` again in a new tab of the same
context (a second visit: the same cache and service worker). For each visit it prints the requests
that went over the network and the bytes they took, in total and by kind (the response's type),
and how many files the page asked for (those its caches answered included). The service worker's
own requests (its install) count with the visit that started them. The figures are the medians of
``--runs`` runs, each in a new context. With ``--src DIR`` the server runs the package found in DIR
(another checkout's ``src``), for a before-and-after.

    python bench/firstload.py [--runs 5] [--src DIR] [--verbose]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from ops import free_port, wait_up
from ops import server as serve

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
# Ready: the home screen is open (the page's modules ran).
READY = "document.querySelector('[data-testid=settings-dialog]')?.open === true"
# The service worker, when the page registers one, controls the page before the visit ends.
CONTROLLED = """async () => {
  if (!("serviceWorker" in navigator)) return "none";
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) return "none";
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    const changed = (resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    await new Promise(changed);
  }
  return "controlled";
}"""
KINDS = {
    "text/html": "document",
    "text/javascript": "script",
    "application/javascript": "script",
    "text/css": "stylesheet",
    "application/json": "json",
    "application/manifest+json": "manifest",
}


@contextlib.contextmanager
def server(db: Path, port: int, src: str | None) -> Iterator[str]:
    """``belote serve`` on ``port`` (bench/ops.py's), up and answering; yields its address."""
    with serve(db, port, src=src) as proc:
        wait_up(port, proc, timeout=120)
        yield f"http://127.0.0.1:{port}"


@dataclass
class Response:
    path: str
    status: int
    kind: str
    size: int  # bytes from the server: status line, headers and body as sent


@dataclass
class Proxy:
    """Passes HTTP/1.1 between the browser and the server, and notes each response that crosses."""

    upstream: int
    seen: list[Response] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    open: set[asyncio.StreamWriter] = field(default_factory=set)  # closed when the proxy stops

    def take(self) -> list[Response]:
        with self.lock:
            seen, self.seen = self.seen, []
        return seen

    async def connection(self, client: asyncio.StreamReader, to_client: asyncio.StreamWriter) -> None:
        server, to_server = await asyncio.open_connection("127.0.0.1", self.upstream)
        self.open |= {to_client, to_server}
        asked: asyncio.Queue[tuple[str, str]] = asyncio.Queue()  # (method, path) of the requests sent on
        tasks = [asyncio.ensure_future(self.requests(client, to_server, asked))]
        try:
            await self.responses(server, to_client, asked)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            for task in tasks:
                task.cancel()
            to_client.close()
            to_server.close()
            self.open -= {to_client, to_server}

    async def requests(self, client: asyncio.StreamReader, to_server: asyncio.StreamWriter, asked: Any) -> None:
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            while True:
                head = await client.readuntil(b"\r\n\r\n")
                method, path, _ = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
                length = int(_header(head, b"content-length") or 0)
                body = await client.readexactly(length)
                await asked.put((method, path))
                to_server.write(head + body)
                await to_server.drain()
                if _header(head, b"upgrade"):  # a websocket: bytes both ways from now on
                    await _pipe(client, to_server)
                    return

    async def responses(self, server: asyncio.StreamReader, to_client: asyncio.StreamWriter, asked: Any) -> None:
        while True:
            head = await server.readuntil(b"\r\n\r\n")
            method, path = await asked.get()
            status = int(head.split(b" ", 2)[1])
            kind = _header(head, b"content-type").split(";")[0].strip()
            out = [head]
            if status == 101:
                to_client.write(head)
                self.note(Response(path, status, "websocket", len(head)))
                await _pipe(server, to_client)
                return
            if method != "HEAD" and status not in (204, 304) and status >= 200:
                if _header(head, b"transfer-encoding").lower() == "chunked":
                    out.extend(await _chunks(server))
                else:
                    out.append(await server.readexactly(int(_header(head, b"content-length") or 0)))
            data = b"".join(out)
            to_client.write(data)
            await to_client.drain()
            named = "not modified" if status == 304 else KINDS.get(kind, kind.split("/")[0] or "other")
            self.note(Response(path, status, named, len(data)))

    def note(self, response: Response) -> None:
        with self.lock:
            self.seen.append(response)


def _header(head: bytes, name: bytes) -> str:
    for line in head.split(b"\r\n")[1:]:
        key, _, value = line.partition(b":")
        if key.strip().lower() == name:
            return value.strip().decode("latin-1")
    return ""


async def _chunks(reader: asyncio.StreamReader) -> list[bytes]:
    out = []
    while True:
        line = await reader.readuntil(b"\r\n")
        size = int(line.split(b";")[0], 16)
        out.append(line + await reader.readexactly(size + 2))
        if size == 0:
            return out


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    while data := await reader.read(65536):
        writer.write(data)
        await writer.drain()


@contextlib.contextmanager
def proxied(upstream: str) -> Iterator[tuple[str, Proxy]]:
    """A counting proxy in a thread of its own, in front of ``upstream``; yields its address and itself."""
    proxy = Proxy(int(upstream.rsplit(":", 1)[1]))
    loop = asyncio.new_event_loop()
    started = threading.Event()
    stop = asyncio.Event()
    port = free_port()

    async def serve() -> None:
        listening = await asyncio.start_server(proxy.connection, "127.0.0.1", port)
        started.set()
        await stop.wait()
        listening.close()
        for writer in list(proxy.open):  # each connection ends as the browser's would
            writer.close()
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        await asyncio.gather(*others, return_exceptions=True)

    thread = threading.Thread(target=lambda: loop.run_until_complete(serve()))
    thread.start()
    started.wait(30)
    try:
        yield f"http://127.0.0.1:{port}", proxy
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(30)
        loop.close()


@dataclass
class Visit:
    """What one visit cost: the responses that came over the network, and how many files the page asked for."""

    network: list[Response]
    asked: int

    def by_kind(self) -> dict[str, tuple[int, int]]:
        counts: Counter[str] = Counter()
        sizes: Counter[str] = Counter()
        for r in self.network:
            counts[r.kind] += 1
            sizes[r.kind] += r.size
        return {kind: (counts[kind], sizes[kind]) for kind in counts}


def visit(context: Any, url: str, proxy: Proxy) -> Visit:
    """One visit of ``url`` in a new tab of ``context``, counted until the page is ready and the network idle."""
    asked = [0]

    def count(request: Any) -> None:
        asked[0] += 1

    page = context.new_page()
    page.on("request", count)
    proxy.take()
    try:
        page.goto(url, wait_until="load")
        page.wait_for_function(READY, timeout=60_000)
        page.evaluate(CONTROLLED)
        page.wait_for_load_state("networkidle")
    finally:
        page.close()
    return Visit(proxy.take(), asked[0])


def kb(n: float) -> str:
    return f"{n / 1000:.1f} kB"


def report(name: str, visits: list[Visit], verbose: bool) -> None:
    requests = statistics.median(len(v.network) for v in visits)
    sizes = statistics.median(sum(r.size for r in v.network) for v in visits)
    asked = statistics.median(v.asked for v in visits)
    print(
        f"{name}: {requests:g} requests over the network, {kb(sizes)} transferred; "
        f"the page asked for {asked:g} files (medians of {len(visits)} runs)"
    )
    for kind in sorted({k for v in visits for k in v.by_kind()}):
        n = statistics.median(v.by_kind().get(kind, (0, 0))[0] for v in visits)
        b = statistics.median(v.by_kind().get(kind, (0, 0))[1] for v in visits)
        print(f"  {kind:12} {n:4g} requests {kb(b):>10}")
    if verbose:
        for r in visits[-1].network:
            print(f"    {r.kind:12} {r.status} {r.size:7d} B  {r.path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--src", help="run the server from this checkout's src (a before-and-after)")
    parser.add_argument("--verbose", action="store_true", help="list the last run's requests")
    args = parser.parse_args()
    first: list[Visit] = []
    second: list[Visit] = []
    with (
        tempfile.TemporaryDirectory() as folder,
        server(Path(folder) / "bench.sqlite3", free_port(), args.src) as upstream,
        proxied(upstream) as (base, proxy),
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(args.runs):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            first.append(visit(context, base + "/", proxy))
            second.append(visit(context, base + "/", proxy))
            context.close()
        browser.close()
    report("first visit (cold cache)", first, args.verbose)
    report("second visit (warm cache)", second, args.verbose)


if __name__ == "__main__":
    main()
