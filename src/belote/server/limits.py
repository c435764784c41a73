"""Limits per client, not per connection: how often one address may create tables or talk.

A stranger who opens ten sockets, or sends ten requests at once, is one client: the limits count
by the address the request came from (behind a reverse proxy, the one it forwards, see
``belote serve --forwarded-allow-ips``). ``Window`` counts events in a sliding window; the
refusals say how many in how long, so a program can wait and try again.

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

import time
from collections import deque

from belote.actions import Refusal


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
        if self.count <= 0:
            return True
        now = time.monotonic() if now is None else now
        events = self._events.setdefault(key, deque())
        while events and events[0] <= now - self.seconds:
            events.popleft()
        if len(events) >= self.count:
            return False
        events.append(now)
        # Once a window (and whenever the keys pile up), forget the quiet ones: a day's stream of
        # addresses that each came once would otherwise stay until MAX_KEYS times four.
        if now - self._swept >= self.seconds or len(self._events) > 4 * MAX_KEYS:
            self._forget(now)
            self._swept = now
        return True

    def _forget(self, now: float) -> None:
        """Drop the keys with no event in the window, so that a crowd of addresses costs nothing lasting."""
        for key in [k for k, e in self._events.items() if not e or e[-1] <= now - self.seconds]:
            del self._events[key]


#: Keys a window holds before it forgets the quiet ones.
MAX_KEYS = 10_000


class LocalLimits:
    """New tables and open websockets per address for a server of one process (``SharedLimits`` counts
    them in Redis for several): the same methods, so the server asks either the same way."""

    def __init__(self, table_rate: tuple[int, float], sockets: int, open_sockets: dict[str, int]) -> None:
        self.window = Window(*table_rate)
        self.sockets = sockets
        self._open = open_sockets  # the server's own count of its websockets by address

    async def allow_table(self, address: str) -> bool:
        return self.window.allow(address)

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


def too_many_tables(window: Window) -> TooMany:
    return TooMany(
        f"too many new tables from one address: at most {window.count} in {window.seconds:.0f} seconds",
        "too_many_tables",
        count=window.count,
        seconds=round(window.seconds),
    )


def too_many_sockets(limit: int) -> TooMany:
    return TooMany(f"too many connections from one address: at most {limit}", "too_many_sockets", max=limit)
