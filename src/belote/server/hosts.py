"""The ``Host`` a request names, checked against the server's own names (against DNS rebinding).

A page of any site can make its own name resolve to this server's address (127.0.0.1, for a server
meant for this machine only) and then talk to it as to its own site: the browser sends the page's
``Origin`` and a ``Host`` of the same name, so the Origin check (``wire.origin_allowed``) passes. A
request or websocket whose ``Host`` is none of the server's names is refused with the code
``bad_host``: HTTP 400, or a websocket closed with 1008, counted in ``/metrics``.

The server's names: each ``belote serve --host-name``, ``localhost``, the name it listens on, and any
IP address (a page names the address it comes from: no rebinding makes it name another). A server
that listens on every address (0.0.0.0, ::) without ``--host-name`` takes any ``Host``: it cannot
know its names. A request with no ``Host`` (HTTP/1.0) is a program's, never a browser's: it passes.

>>> local = HostNames.listening_on("127.0.0.1", [])
>>> [local.allows(h) for h in ("127.0.0.1:8000", "localhost", "[::1]:8000", "evil.example:8000", None)]
[True, True, True, False, True]
>>> HostNames.listening_on("0.0.0.0", []).allows("evil.example")
True
>>> public = HostNames.listening_on("0.0.0.0", ["belote.example"])
>>> public.allows("Belote.Example.:443"), public.allows("evil.example")
(True, False)
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from belote.server.metrics import Metrics
from belote.server.wire import BadRequest, http_body

log = logging.getLogger("belote.hosts")

#: Addresses that mean every address of the machine: a server listening there has no name of its own.
EVERY_ADDRESS = ("", "0.0.0.0", "::", "[::]")


def host_name(host: str) -> str:
    """The name of a ``Host`` value, without its port, in lower case, without a final dot.

    >>> host_name("[::1]:8000"), host_name("Belote.Example.:443"), host_name("127.0.0.1")
    ('::1', 'belote.example', '127.0.0.1')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0].rstrip(".") if ":" in host else host.rstrip(".")


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class HostNames:
    """The names a request's ``Host`` may give; ``any``: every name."""

    names: frozenset[str]
    any: bool = False

    @classmethod
    def listening_on(cls, listen: str, given: Iterable[str]) -> HostNames:
        """The names of a server listening on the address ``listen`` (``--host``), with ``given``."""
        names = {host_name(name) for name in given}
        if not names and listen.strip() in EVERY_ADDRESS:
            return cls(frozenset(), any=True)
        own = listen.strip().lower().strip("[]").rstrip(".")  # an address, or a name to listen on
        return cls(frozenset({"localhost", own, *names}))

    def allows(self, host: str | None) -> bool:
        if self.any or host is None:
            return True
        name = host_name(host)
        return name in self.names or is_address(name)

    def __str__(self) -> str:
        return "any name" if self.any else ", ".join(sorted(self.names)) + " and IP addresses"


def bad_host(host: str) -> BadRequest:
    return BadRequest(
        f"this server does not answer to the name {host}: see belote serve --host-name", "bad_host", 400, host=host
    )


class HostCheck:
    """An ASGI middleware: requests and websockets whose ``Host`` is none of ``names`` are refused."""

    def __init__(self, app: ASGIApp, names: HostNames, metrics: Metrics) -> None:
        self.app = app
        self.names = names
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)
            if not self.names.allows(host):
                assert host is not None
                await self.refuse(scope, receive, send, host[:100])
                return
        await self.app(scope, receive, send)

    async def refuse(self, scope: Scope, receive: Receive, send: Send, host: str) -> None:
        e = bad_host(host)
        self.metrics.refusals.inc(code=e.code)
        client = scope["client"][0] if scope.get("client") else ""
        log.info("a request for another name is refused: Host %s", host, extra={"client": client})
        if scope["type"] == "http":
            await JSONResponse(http_body(e), status_code=e.status)(scope, receive, send)
            return
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": json.dumps({"type": "error", **e.to_json()})})
        await send({"type": "websocket.close", "code": 1008, "reason": "this server does not answer to that name"})
