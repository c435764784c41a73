"""Limits per client, not per connection: how much one address may have the store keep, and how often
a client may send each message.

A stranger who opens ten sockets, or sends ten requests at once, is one client: the limits count
by the address the request came from (behind a reverse proxy, the one it forwards, see
``belote serve --forwarded-allow-ips``), and a person by their seat's token, whatever their sockets.
``Window`` counts events in a sliding window; the refusals say how many in how long, so a program
can wait and try again.

- **What is created**, whatever the route (a solo, private or queue's table, a score sheet, and
  the identities to come): one window per address, ``Rate`` ``new`` (``belote serve
  --tables-per-minute``), counted by ``count_new``;
- **hints**: one window per address, ``Rate`` ``hints`` (``belote serve --hints-per-minute``),
  each about a second of a bot worker's time;
- **messages**: ``Rates.allow`` counts one event in several windows at once (a person's and their
  address's) or in none; ``belote.server.messages.RATES`` says each message's.

``LocalLimits`` counts in one process, ``belote.server.shared_limits.SharedLimits`` in Redis for all
the processes of a server; both answer the same methods.

>>> w = Window(2, 10.0)
>>> [w.allow("a", now=t) for t in (0.0, 1.0, 2.0, 10.5)], w.allow("b", now=2.0)
([True, True, False, True], True)
>>> all(Window(0, 1.0).allow("a", now=0.0) for _ in range(100))
True

A window holds the keys heard from within about two of its lengths, however many came before:

>>> w = Window(5, 10.0)
>>> all(w.allow(f"10.0.0.{i}", now=i / 100) for i in range(200))
True
>>> w.allow("10.0.1.1", now=25.0), len(w)
(True, 1)
"""

from __future__ import annotations

import logging
import math
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from starlette.requests import HTTPConnection

from belote.actions import Refusal
from belote.server.hub import OUTAGE

log = logging.getLogger("belote.limits")


@dataclass(frozen=True)
class Rate:
    """At most ``count`` events in any ``seconds`` (a count of 0: no limit).

    >>> Rate(5, 10.0).scaled(2), Rate(5, 10.0).scaled(0.1), Rate(5, 10.0).scaled(0)
    (Rate(count=10, seconds=10.0), Rate(count=1, seconds=10.0), Rate(count=0, seconds=10.0))
    """

    count: int
    seconds: float

    def scaled(self, factor: float) -> Rate:
        """The rate with ``factor`` times the events (at least one; 0: no limit)."""
        return Rate(0 if factor <= 0 or self.count <= 0 else max(1, math.ceil(self.count * factor)), self.seconds)


@dataclass(frozen=True)
class MessageRate:
    """How many messages of one kind a client may send in ``seconds``: ``person`` from one person
    (their seat's token, however many sockets they hold; a socket at no seat counts alone) and
    ``address`` from one address (a family or a club behind one router). Messages of one ``name``
    share their windows; ``why`` is what people do, which the rate leaves room for; ``kept``: counted
    by the table on the chat lines it keeps, not as the message arrives.

    >>> MessageRate("act", 60, 240, "").rates(0.5)
    (Rate(count=30, seconds=10.0), Rate(count=120, seconds=10.0))
    """

    name: str
    person: int
    address: int
    why: str
    seconds: float = 10.0
    kept: bool = False

    def rates(self, scale: float = 1.0) -> tuple[Rate, Rate]:
        """The person's rate and the address's, times ``scale`` (``belote serve --message-rates``; 0: none)."""
        return Rate(self.person, self.seconds).scaled(scale), Rate(self.address, self.seconds).scaled(scale)


#: One event to count: the window's name (what is counted), its rate, and whose it is (an address, a person).
Check = tuple[str, Rate, str]


class Window:
    """At most ``count`` events per key in any ``seconds`` (a count of 0: no limit)."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count, self.seconds = count, seconds
        self._events: dict[str, deque[float]] = {}
        self._swept = -float("inf")  # when the quiet keys were last forgotten

    def __len__(self) -> int:
        """The keys held."""
        return len(self._events)

    def allow(self, key: str, now: float | None = None) -> bool:
        """Count an event of ``key`` if the window has room; False (and nothing counted) when full."""
        now = time.monotonic() if now is None else now
        if self.full(key, now):
            return False
        self.add(key, now)
        return True

    def full(self, key: str, now: float) -> bool:
        """Whether ``key`` has had ``count`` events in the ``seconds`` before ``now``."""
        if self.count <= 0:
            return False
        events = self._events.get(key)
        if events is None:
            return False
        while events and events[0] <= now - self.seconds:
            events.popleft()
        return len(events) >= self.count

    def add(self, key: str, now: float) -> None:
        """Count an event of ``key`` at ``now``."""
        if self.count <= 0:
            return
        self._events.setdefault(key, deque()).append(now)
        # Once a window (and whenever the keys pile up), forget the quiet ones: a day's stream of
        # addresses that each came once would otherwise stay until MAX_KEYS times four.
        if now - self._swept >= self.seconds or len(self._events) > 4 * MAX_KEYS:
            self._forget(now)
            self._swept = now

    def _forget(self, now: float) -> None:
        """Drop the keys with no event in the window, so that a crowd of addresses costs nothing lasting."""
        for key in [k for k, e in self._events.items() if not e or e[-1] <= now - self.seconds]:
            del self._events[key]


#: Keys a window holds before it forgets the quiet ones.
MAX_KEYS = 10_000


class Rates(Protocol):
    """Sliding windows by name, in one process or in Redis for all."""

    async def allow(self, checks: Sequence[Check]) -> Rate | None:
        """Count one event in every window of ``checks`` if each has room: None. Else nothing is
        counted, and the answer is the rate of the first window that is full."""
        ...


class LocalRates:
    """The windows of one process (``Rates``), made as they are first named.

    >>> import asyncio
    >>> rates, chat = LocalRates(), Rate(2, 10.0)
    >>> asyncio.run(rates.allow([("chat", chat, "S"), ("chat:address", Rate(3, 10.0), "1.2.3.4")])) is None
    True
    >>> asyncio.run(rates.allow([("chat", chat, "S"), ("chat:address", Rate(3, 10.0), "1.2.3.4")])) is None
    True
    >>> asyncio.run(rates.allow([("chat", chat, "S"), ("chat:address", Rate(3, 10.0), "1.2.3.4")]))
    Rate(count=2, seconds=10.0)
    >>> asyncio.run(rates.allow([("chat", chat, "N"), ("chat:address", Rate(3, 10.0), "1.2.3.4")])) is None
    True
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._windows: dict[tuple[str, Rate], Window] = {}

    def _window(self, name: str, rate: Rate) -> Window:
        window = self._windows.get((name, rate))
        if window is None:
            window = self._windows[(name, rate)] = Window(rate.count, rate.seconds)
        return window

    async def allow(self, checks: Sequence[Check]) -> Rate | None:
        now = self.clock()
        counted = [(self._window(name, rate), key, rate) for name, rate, key in checks if rate.count > 0]
        for window, key, rate in counted:
            if window.full(key, now):
                return rate
        for window, key, _ in counted:
            window.add(key, now)
        return None


class AddressLimits(Rates, Protocol):
    """What a client address may do, in one process (``LocalLimits``) or in all (``SharedLimits``)."""

    new: Rate  # what one address may have the store keep: tables by any route, score sheets
    hints: Rate  # hints one address may ask for (``belote serve --hints-per-minute``)
    sockets: int  # websockets open at once from one address (0: no limit)

    async def open_socket(self, address: str) -> bool: ...

    async def close_socket(self, address: str) -> None: ...

    def start(self) -> None: ...

    async def close(self) -> None: ...


class LocalLimits(LocalRates):
    """Creations, messages and open websockets per address for a server of one process
    (``SharedLimits`` counts them in Redis for several): the same methods, so the server asks either
    the same way."""

    def __init__(
        self,
        new: tuple[int, float],
        sockets: int,
        open_sockets: dict[str, int],
        hints: tuple[int, float] = (0, 60.0),
    ) -> None:
        super().__init__()
        self.new = Rate(*new)
        self.hints = Rate(*hints)
        self.sockets = sockets
        self._open = open_sockets  # the server's own count of its websockets by address

    async def open_socket(self, address: str) -> bool:
        """Whether ``address`` may open one more websocket (the server counts it once open)."""
        return self.sockets <= 0 or self._open.get(address, 0) < self.sockets

    async def close_socket(self, address: str) -> None:
        """Nothing to do: the server's count of its websockets is the count."""

    def start(self) -> None:
        """Nothing to keep alive in one process."""

    async def close(self) -> None:
        """Nothing to release."""


class TooMany(Refusal):
    """A client past a limit: HTTP 429."""

    status = 429


def too_many_tables(rate: Rate) -> TooMany:
    """The refusal of a new table (by a route or the queue): the code the table page and programs read."""
    return TooMany(
        f"too many new tables from one address: at most {rate.count} in {rate.seconds:.0f} seconds",
        "too_many_tables",
        count=rate.count,
        seconds=round(rate.seconds),
    )


def too_many_created(rate: Rate) -> TooMany:
    """The refusal of anything else new that the store would keep (a score sheet), counted in the same window."""
    return TooMany(
        f"too many new tables and score sheets from one address: at most {rate.count} in {rate.seconds:.0f} seconds",
        "too_many_created",
        count=rate.count,
        seconds=round(rate.seconds),
    )


def too_many_sockets(limit: int) -> TooMany:
    return TooMany(f"too many connections from one address: at most {limit}", "too_many_sockets", max=limit)


def slow_down(rate: Rate, what: str = "messages") -> TooMany:
    """The refusal of a message sent faster than its rate (``belote.server.messages.RATES``, the chat's,
    a hint's).

    >>> slow_down(Rate(20, 60.0), "hints").to_json()
    {'message': 'slow down: at most 20 hints in 60 seconds', 'code': 'slow_down', 'args': {'count': 20, 'seconds': 60}}
    """
    return TooMany(
        f"slow down: at most {rate.count} {what} in {rate.seconds:.0f} seconds",
        "slow_down",
        count=rate.count,
        seconds=round(rate.seconds),
    )


def address(conn: HTTPConnection) -> str:
    """The client's address (behind a proxy, the one it forwards: ``belote serve --forwarded-allow-ips``)."""
    return conn.client.host if conn.client is not None else ""


async def counted(limits: Rates, checks: Sequence[Check], what: str) -> Rate | None:
    """``limits.allow(checks)``, but Redis out of reach or failing lets the client through: the
    limits guard against abuse, and must not lock everybody out while Redis restarts. An outage is
    met and said by what the client asked for next (a 503, ``store_unreachable``); any other failure
    is logged, naming ``what`` was not counted."""
    try:
        return await limits.allow(checks)
    except OUTAGE:
        return None
    except Exception:
        log.exception("%s could not be counted in Redis", what)
        return None


async def count_new(limits: AddressLimits, address: str, refusal: Callable[[Rate], TooMany] = too_many_created) -> None:
    """Count one new thing ``address`` has the store keep: a table by any route (``POST /api/solo``,
    ``POST /api/tables``, a place in the queue, which makes at most one table), a score sheet, and
    what is added later (an identity). One window for all of them, ``limits.new`` (``belote serve
    --tables-per-minute``), in every process in Redis mode; raises ``refusal(limits.new)`` past it.
    Redis out of reach lets the client through (logged): the limits guard against abuse, and must
    not lock everybody out while Redis restarts (``counted``)."""
    refused = await counted(limits, [("new", limits.new, address)], "what a client creates")
    if refused is not None:
        raise refusal(refused)
