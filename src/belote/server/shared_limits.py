"""The per-address limits of ``belote.server.limits`` counted in Redis, for a server of several processes.

Behind a load balancer a client's requests and sockets land on any process: counted in each process
alone, the limits would grow with the processes. In Redis mode they are counted once for all:

- new tables: ``limit:tables:{address}``, a sorted set of the creations in the window (Redis's own
  clock, so that the processes' clocks need not agree), trimmed and checked in one script;
- hints: ``limit:hints:{address}``, the same;
- open websockets: ``limit:sockets:{address}``, a hash of each process's count for that address. A
  process keeps ``alive:{process}`` while it runs; the counts of a process whose key expired (it
  died with its sockets) are dropped when next counted.

When Redis does not answer, a client is let through (and the failure logged): the limits guard
against abuse, and must not lock everybody out while Redis restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

from belote.server.hub import OUTAGE
from belote.server.limits import Window

log = logging.getLogger("belote.limits")

ALIVE_MS = 10_000  # a process's mark of life; renewed three times as often

_TABLE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 1
"""

_OPEN = """
local total = 0
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local process, n = fields[i], tonumber(fields[i + 1])
  if process ~= ARGV[1] and redis.call('EXISTS', ARGV[3] .. process) == 0 then
    redis.call('HDEL', KEYS[1], process)
  else
    total = total + n
  end
end
local limit = tonumber(ARGV[2])
if limit > 0 and total >= limit then
  return 0
end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], 86400000)
return 1
"""

_CLOSE = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 1
"""


class SharedLimits:
    """New tables and open websockets per address, counted in Redis for every process of the server."""

    def __init__(
        self,
        client: Any,
        prefix: str,
        process: str,
        table_rate: tuple[int, float],
        sockets: int,
        hint_rate: tuple[int, float] = (0, 60.0),
    ) -> None:
        self.r = client
        self.prefix = prefix
        self.process = process
        self.window = Window(*table_rate)  # its count and seconds, for the refusal's words
        self.sockets = sockets
        self.hints = Window(*hint_rate)
        self._table = client.register_script(_TABLE)
        self._open = client.register_script(_OPEN)
        self._close = client.register_script(_CLOSE)
        self._task: asyncio.Task[None] | None = None

    def _k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def allow_table(self, address: str) -> bool:
        """Count a new table of ``address`` if the window has room; False (nothing counted) when full."""
        return await self._count(self.window, "tables", address)

    async def allow_hint(self, address: str) -> bool:
        """Count a hint of ``address`` if its window has room (``--hints-per-minute``)."""
        return await self._count(self.hints, "hints", address)

    async def _count(self, window: Window, what: str, address: str) -> bool:
        """Count an event of ``address`` in ``limit:{what}:{address}`` if ``window`` has room."""
        if window.count <= 0:
            return True
        args = [round(window.seconds * 1000), window.count, secrets.token_hex(8)]
        return bool(await self._table(keys=[self._k("limit", what, address)], args=args))

    async def open_socket(self, address: str) -> bool:
        """Count a websocket of ``address`` if it has fewer than the limit open in all the processes."""
        if self.sockets <= 0:
            return True  # no limit: nothing to count
        args = [self.process, self.sockets, self._k("alive", "")]
        return bool(await self._open(keys=[self._k("limit", "sockets", address)], args=args))

    async def close_socket(self, address: str) -> None:
        if self.sockets <= 0:
            return
        await self._close(keys=[self._k("limit", "sockets", address)], args=[self.process])

    async def alive(self) -> None:
        """Mark this process alive (its sockets count) for ``ALIVE_MS``."""
        await self.r.set(self._k("alive", self.process), 1, px=ALIVE_MS)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._live(), name="limits alive")

    async def _live(self) -> None:
        down = False  # an outage is said once, when it begins, not every round
        while True:
            try:
                await self.alive()
                down = False
            except OUTAGE as e:
                if not down:
                    log.warning("the limits' mark of this process waits for Redis: %s", e)
                down = True
            except Exception:
                log.exception("could not renew this process's mark in Redis")
            await asyncio.sleep(ALIVE_MS / 3000)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(Exception):
            await self.r.delete(self._k("alive", self.process))
