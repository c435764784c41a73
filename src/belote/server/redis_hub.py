"""Tables shared by any number of server processes through Redis: state, locks, pub/sub, leases.

Keys (all under one prefix, ``belote:`` by default):

- ``t:{id}:meta`` the table's meta (JSON), ``t:{id}:actions`` its actions (a list), ``t:{id}:chat``
  its last chat lines (the three kept a week after the match ends), ``t:{id}:lock`` the lock a
  change is made under, ``t:{id}:lease`` the process driving it (bots, turn timer), which expires
  a few seconds after that process dies;
- ``active`` the set of tables whose match goes on; ``used`` when each table was last used (a sorted
  set of unix seconds: an action, a change, a socket open on it at a sweep), which ``expire`` reads;
- ``queue`` the matchmaking queue (entry -> JSON: name, variant, seating, process, joined),
  ``queue:alive:{entry}`` one key per waiting player, renewed by its process, so the players of a
  dead process leave the queue by themselves;
- channels ``note:t:{id}`` (a table changed, a chat line) and ``note:p:{process}`` (to one process).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import redis.asyncio as aioredis

from belote.server.hub import CHAT_KEEP, Listener, Note

log = logging.getLogger("belote.redis")

LEASE_MS = 3000
ALIVE_MS = 10000
LOCK_SECONDS = 5.0
FINISHED_SECONDS = 7 * 24 * 3600

_LEASE = """
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""


class RedisHub:
    shared = True

    def __init__(self, client: aioredis.Redis, prefix: str = "belote:") -> None:
        self.r = client
        self.prefix = prefix
        self.process = secrets.token_hex(4)
        self._listeners: list[Listener] = []
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._lease = self.r.register_script(_LEASE)
        self.clock: Callable[[], float] = time.time  # unix seconds: when a table is used (tests set their own)
        self.keep_finished = FINISHED_SECONDS  # a finished table's keys expire by themselves after this

    @classmethod
    async def connect(cls, url: str, prefix: str = "belote:") -> RedisHub:
        client = aioredis.Redis.from_url(url, decode_responses=True)
        await client.ping()
        hub = cls(client, prefix)
        await hub._subscribe()
        return hub

    def _k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def _subscribe(self) -> None:
        self._pubsub = self.r.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.psubscribe(self._k("note", "t", "*"))
        await self._pubsub.subscribe(self._k("note", "p", self.process))
        self._reader = asyncio.get_running_loop().create_task(self._read(), name="redis notes")

    async def _read(self) -> None:
        table_channel = self._k("note", "t", "")
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("reading notes from Redis failed")
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") not in ("message", "pmessage"):
                continue
            channel: str = message["channel"]
            table_id = channel[len(table_channel) :] if channel.startswith(table_channel) else ""
            try:
                note = json.loads(message["data"])
            except (TypeError, json.JSONDecodeError):
                continue
            for listener in self._listeners:
                try:
                    await listener(table_id, note)
                except Exception:
                    log.exception("a note for %s could not be handled", table_id[:6])

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    # ----------------------------------------------------------------- tables
    @contextlib.asynccontextmanager
    async def lock(self, table_id: str) -> AsyncIterator[None]:
        async with self.r.lock(self._k("t", table_id, "lock"), timeout=LOCK_SECONDS, sleep=0.002, blocking_timeout=10):
            yield

    async def load(self, table_id: str) -> tuple[dict[str, Any], list[str]] | None:
        async with self.r.pipeline(transaction=True) as pipe:
            pipe.get(self._k("t", table_id, "meta"))
            pipe.lrange(self._k("t", table_id, "actions"), 0, -1)
            meta, actions = await pipe.execute()
        return None if meta is None else (json.loads(meta), list(actions))

    async def snapshot(self, table_id: str, game: int, start: int) -> tuple[dict[str, Any], list[str], bool] | None:
        async with self.r.pipeline(transaction=True) as pipe:
            pipe.get(self._k("t", table_id, "meta"))
            pipe.lrange(self._k("t", table_id, "actions"), start, -1)
            raw, actions = await pipe.execute()
        if raw is None:
            return None
        meta = json.loads(raw)
        if meta.get("game", 0) == game:
            return meta, list(actions), False
        loaded = await self.load(table_id)
        if loaded is None:
            return None
        return loaded[0], loaded[1], True

    async def commit(
        self, table_id: str, meta: dict[str, Any] | None, active: bool, start: int, actions: list[str], reset: bool
    ) -> None:
        async with self.r.pipeline(transaction=True) as pipe:
            if meta is not None:
                pipe.set(self._k("t", table_id, "meta"), json.dumps(meta))
                keys = [self._k("t", table_id, part) for part in ("meta", "actions", "chat")]
                if active:
                    pipe.sadd(self._k("active"), table_id)
                    for key in keys:
                        pipe.persist(key)
                else:  # a finished table stays a week for those who open its link again
                    pipe.srem(self._k("active"), table_id)
                    for key in keys:
                        pipe.expire(key, self.keep_finished)
            if meta is not None or actions or reset:
                pipe.zadd(self._k("used"), {table_id: self.clock()})
            if reset:
                pipe.delete(self._k("t", table_id, "actions"))
            if actions:
                pipe.rpush(self._k("t", table_id, "actions"), *actions)
            await pipe.execute()

    async def active_ids(self) -> list[str]:
        return sorted(str(i) for i in await self.r.smembers(self._k("active")))

    async def touch(self, table_ids: list[str]) -> None:
        if table_ids:
            now = self.clock()
            await self.r.zadd(self._k("used"), dict.fromkeys(table_ids, now), xx=True)

    async def expire(self, before: dict[str, float]) -> dict[str, list[str]]:
        """The same sweep as the SQLite store's: the tables last used before their kind's cutoff go."""
        if not before:
            return {}
        ids = [str(i) for i in await self.r.zrangebyscore(self._k("used"), "-inf", f"({max(before.values())}")]
        gone: dict[str, list[str]] = {}
        for start in range(0, len(ids), 500):
            batch = ids[start : start + 500]
            async with self.r.pipeline(transaction=False) as pipe:
                for table_id in batch:
                    pipe.get(self._k("t", table_id, "meta"))
                    pipe.zscore(self._k("used"), table_id)
                found = await pipe.execute()
            for i, table_id in enumerate(batch):
                raw, used = found[2 * i], found[2 * i + 1]
                kind = str(json.loads(raw).get("kind", "private")) if raw is not None else None
                if used is None or (kind is not None and float(used) >= before.get(kind, float(used))):
                    continue  # used again meanwhile, or a kind that is not swept (a table whose meta is gone is)
                async with self.r.pipeline(transaction=True) as pipe:
                    pipe.delete(*(self._k("t", table_id, part) for part in ("meta", "actions", "chat")))
                    pipe.srem(self._k("active"), table_id)
                    pipe.zrem(self._k("used"), table_id)
                    await pipe.execute()
                if kind is not None:
                    gone.setdefault(kind, []).append(table_id)
        return gone

    async def publish(self, table_id: str, note: Note) -> None:
        await self.r.publish(self._k("note", "t", table_id), json.dumps(note))

    async def hold_lease(self, table_id: str) -> bool:
        return bool(await self._lease(keys=[self._k("t", table_id, "lease")], args=[self.process, LEASE_MS]))

    async def add_chat(self, table_id: str, line: dict[str, Any]) -> None:
        key = self._k("t", table_id, "chat")
        async with self.r.pipeline(transaction=True) as pipe:
            pipe.rpush(key, json.dumps(line))
            pipe.ltrim(key, -CHAT_KEEP, -1)
            await pipe.execute()

    async def recent_chat(self, table_id: str) -> list[dict[str, Any]]:
        return [json.loads(x) for x in await self.r.lrange(self._k("t", table_id, "chat"), 0, -1)]

    # ----------------------------------------------------------------- the queue
    @contextlib.asynccontextmanager
    async def queue_lock(self) -> AsyncIterator[None]:
        async with self.r.lock(self._k("queue", "lock"), timeout=LOCK_SECONDS, sleep=0.005, blocking_timeout=10):
            yield

    async def queue_add(self, entry: str, data: dict[str, Any]) -> None:
        async with self.r.pipeline(transaction=True) as pipe:
            pipe.hset(self._k("queue"), entry, json.dumps(data))
            pipe.set(self._k("queue", "alive", entry), 1, px=ALIVE_MS)
            await pipe.execute()

    async def queue_remove(self, entries: list[str]) -> None:
        if not entries:
            return
        async with self.r.pipeline(transaction=True) as pipe:
            pipe.hdel(self._k("queue"), *entries)
            pipe.delete(*(self._k("queue", "alive", e) for e in entries))
            await pipe.execute()

    async def queue_entries(self) -> dict[str, dict[str, Any]]:
        raw = {str(k): str(v) for k, v in (await self.r.hgetall(self._k("queue"))).items()}
        if not raw:
            return {}
        entries = list(raw)
        async with self.r.pipeline(transaction=False) as pipe:
            for e in entries:
                pipe.exists(self._k("queue", "alive", e))
            alive = await pipe.execute()
        dead = [e for e, ok in zip(entries, alive, strict=True) if not ok]
        if dead:  # players of a process that died
            await self.r.hdel(self._k("queue"), *dead)
        return {e: json.loads(raw[e]) for e, ok in zip(entries, alive, strict=True) if ok}

    async def queue_touch(self, entries: list[str]) -> None:
        async with self.r.pipeline(transaction=False) as pipe:
            for e in entries:
                pipe.set(self._k("queue", "alive", e), 1, px=ALIVE_MS)
            await pipe.execute()

    async def tell_process(self, process: str, note: Note) -> None:
        await self.r.publish(self._k("note", "p", process), json.dumps(note))

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        await self.r.aclose()
