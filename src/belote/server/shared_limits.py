"""The per-address limits of ``belote.server.limits`` counted in Redis, for a server of several processes.

Behind a load balancer a client's requests and sockets land on any process: counted in each process
alone, the limits would grow with the processes. In Redis mode they are counted once for all:

- what is created (tables by any route, score sheets), the hints and the messages of each kind:
  ``limit:{name}:{key}`` (``new`` and ``hints`` by address; a message's by person and by address),
  a sorted set of the events in the window (Redis's own clock, so that the processes' clocks need
  not agree), trimmed and checked in one script, which counts an event in every window it is given
  or, if one is full, in none;
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
from collections.abc import Sequence
from typing import Any

from belote.server import tasks
from belote.server.hub import OUTAGE
from belote.server.limits import Check, Rate

log = logging.getLogger("belote.limits")

ALIVE_MS = 10_000  # a process's mark of life; renewed three times as often

# KEYS: the windows; ARGV: the event's member (unique), then each window's milliseconds and count.
# Answers 0 when the event was counted in every window, else the number (from 1) of the first full one.
_ALLOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - tonumber(ARGV[2 * i]))
  if redis.call('ZCARD', key) >= tonumber(ARGV[2 * i + 1]) then
    return i
  end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[1])
  redis.call('PEXPIRE', key, ARGV[2 * i])
end
return 0
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
    """Creations, messages and open websockets per address, counted in Redis for every process of the server."""

    def __init__(
        self,
        client: Any,
        prefix: str,
        process: str,
        new: tuple[int, float],
        sockets: int,
        hints: tuple[int, float] = (0, 60.0),
    ) -> None:
        self.r = client
        self.prefix = prefix
        self.process = process
        self.new = Rate(*new)
        self.hints = Rate(*hints)
        self.sockets = sockets
        self._allow = client.register_script(_ALLOW)
        self._open = client.register_script(_OPEN)
        self._close = client.register_script(_CLOSE)
        self._task: asyncio.Task[None] | None = None

    def _k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def allow(self, checks: Sequence[Check]) -> Rate | None:
        """Count one event in every window of ``checks`` if each has room (None), in one script; else
        nothing is counted, and the answer is the rate of the first full one (``limits.Rates``)."""
        counted = [(name, rate, key) for name, rate, key in checks if rate.count > 0]
        if not counted:
            return None
        keys = [self._k("limit", name, key) for name, _, key in counted]
        args: list[str | int] = [secrets.token_hex(8)]
        for _, rate, _ in counted:
            args += [round(rate.seconds * 1000), rate.count]
        full = int(await self._allow(keys=keys, args=args))
        return None if full == 0 else counted[full - 1][1]

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
        await tasks.stop(self._task)
        with contextlib.suppress(Exception):
            await self.r.delete(self._k("alive", self.process))
