"""Tables shared by any number of server processes through Redis: state, locks, pub/sub, leases.

Keys (all under one prefix, ``belote:`` by default):

- ``t:{id}:meta`` the table's meta (JSON), ``t:{id}:actions`` its actions (a list), ``t:{id}:chat``
  its last chat lines (the three kept a week after the match ends), ``t:{id}:lock`` the lock a
  change is made under, ``t:{id}:lease`` the process driving it (bots, turn timer), which expires
  a few seconds after that process dies;
- ``open`` the private lobbies open to all (a sorted set of when each was listed);
- ``active`` the set of tables whose match goes on; ``used`` when each table was last used (a sorted
  set of unix seconds: an action, a change, a socket open on it at a sweep), which ``expire`` reads;
- ``queue`` the matchmaking queue (entry -> JSON: name, variant, seating, process, joined),
  ``queue:alive:{entry}`` one key per waiting player, renewed by its process, so the players of a
  dead process leave the queue by themselves;
- ``epoch`` a random value set by the first process to find it missing: a process that sees it change
  knows Redis lost its data (restarted empty) and writes back the tables it holds;
- ``sheet:{id}`` a score sheet (JSON), changed under WATCH so that two processes never lose an entry,
  with a TTL renewed by each change (``belote serve --expire-sheets-after``);
- channels ``note:t:{id}`` (a table changed, a chat line) and ``note:p:{process}`` (to one process).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import WatchError

from belote.server import tasks
from belote.server.hub import CHAT_KEEP, OUTAGE, Hub, Listener, Note, StoreLost
from belote.server.store import stored_kind

log = logging.getLogger("belote.redis")

#: A command that meets a closed connection (Redis restarted) tries again for about 2 s before
#: giving up: a restart costs no action, and a longer outage is refused soon enough to be said.
RETRY: dict[str, Any] = {"retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 6), "retry_on_error": list(OUTAGE)}

LEASE_MS = 3000
ALIVE_MS = 10000
LOCK_SECONDS = 5.0
FINISHED_SECONDS = 7 * 24 * 3600
#: The open tables listed (the latest first), and how long a lobby stays listed without a change.
OPEN_LISTED = 100
OPEN_SECONDS = 24 * 3600
#: How long a probe note may take to come back through a new subscription before another is sent.
PROBE_SECONDS = 0.5

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


# KEYS: meta, actions, chat, the active set; ARGV: id, start, reset (0, 1, or 2 for a write-back),
# meta ('' for none), active, seconds a finished table is kept, then the actions. A change that does
# not follow the stored log (its meta gone, or not exactly ``start`` actions stored) writes nothing
# and answers 0.
_COMMIT = """
local meta, actions, chat, active = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, start, reset, newmeta = ARGV[1], tonumber(ARGV[2]), ARGV[3] ~= '0', ARGV[4]
if ARGV[3] == '2' and redis.call('EXISTS', meta) == 1 then
  -- a write-back replaces only a log that is a beginning of its own (a replica behind it wrote
  -- back first), never another history
  local stored = redis.call('LRANGE', actions, 0, -1)
  if #stored > #ARGV - 6 then
    return 0
  end
  for i = 1, #stored do
    if stored[i] ~= ARGV[6 + i] then
      return 0
    end
  end
  -- the same log: the stored meta is written over only by a later one (a process whose replica
  -- was behind on the meta, an ack or a seat, would otherwise undo a change made meanwhile)
  if #stored == #ARGV - 6 then
    local had = cjson.decode(redis.call('GET', meta))['version'] or 0
    if had >= (cjson.decode(newmeta)['version'] or 0) then
      return 0
    end
  end
elseif (newmeta == '' and redis.call('EXISTS', meta) == 0)
    or (not reset and redis.call('LLEN', actions) ~= start) then
  return 0
end
if newmeta ~= '' then
  redis.call('SET', meta, newmeta)
  if ARGV[5] == '1' then
    redis.call('SADD', active, id)
    redis.call('PERSIST', meta)
    redis.call('PERSIST', actions)
    redis.call('PERSIST', chat)
  else
    redis.call('SREM', active, id)
    redis.call('EXPIRE', meta, ARGV[6])
    redis.call('EXPIRE', actions, ARGV[6])
    redis.call('EXPIRE', chat, ARGV[6])
  end
end
if reset then
  redis.call('DEL', actions)
end
for i = 7, #ARGV, 1000 do
  redis.call('RPUSH', actions, unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
if newmeta ~= '' and ARGV[5] ~= '1' then
  redis.call('EXPIRE', actions, ARGV[6])
end
return 1
"""


class RedisLink:
    """One connection to Redis and the prefix of every key: what the four parts of a Redis hub share."""

    def __init__(self, client: aioredis.Redis, prefix: str = "belote:", url: str | None = None) -> None:
        self.r = client
        self.prefix = prefix
        #: Where Redis is (``connect``'s), for what another process must reach it by (a ranking).
        self.url = url

    @classmethod
    def connect(cls, url: str, prefix: str = "belote:") -> RedisLink:
        """A link to ``url``. Redis may be out of reach for now: nothing is asked of it yet."""
        return cls(aioredis.Redis.from_url(url, decode_responses=True, **RETRY), prefix, url)

    def k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def close(self) -> None:
        await self.r.aclose()


class RedisTables:
    """The tables in Redis: every change through one script that writes only onto the log it follows."""

    def __init__(self, link: RedisLink) -> None:
        self.r, self._k = link.r, link.k
        self.clock: Callable[[], float] = time.time  # unix seconds: when a table is used (tests set their own)
        self.keep_finished = FINISHED_SECONDS  # a finished table's keys expire by themselves after this
        self._commit = self.r.register_script(_COMMIT)

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
        """Write a change, only onto the log it follows: ``StoreLost`` when the stored log does not hold
        exactly ``start`` actions or the meta is gone (Redis restarted empty), and nothing is written."""
        keys = [self._k("t", table_id, part) for part in ("meta", "actions", "chat")] + [self._k("active")]
        args: list[str | int] = [table_id, start, int(reset), "" if meta is None else json.dumps(meta), int(active)]
        if not await self._commit(keys=keys, args=[*args, self.keep_finished, *actions]):
            raise StoreLost(table_id)
        if meta is not None or actions or reset:
            await self.r.zadd(self._k("used"), {table_id: self.clock()})

    async def write_back(self, table_id: str, meta: dict[str, Any], active: bool, actions: list[str]) -> bool:
        """Write a table whole when the store lost it, holds only a beginning of its log, or the same
        log with an earlier meta (its ``version``); False, writing nothing, when the store holds
        another history or the same one as far on (another process wrote meanwhile)."""
        keys = [self._k("t", table_id, part) for part in ("meta", "actions", "chat")] + [self._k("active")]
        args: list[str | int] = [table_id, 0, 2, json.dumps(meta), int(active), self.keep_finished]
        if not await self._commit(keys=keys, args=[*args, *actions]):
            return False
        await self.r.zadd(self._k("used"), {table_id: self.clock()})
        return True

    async def active_ids(self) -> list[str]:
        return sorted(str(i) for i in await self.r.smembers(self._k("active")))

    async def list_open(self, table_id: str, listed: bool) -> None:
        if listed:
            await self.r.zadd(self._k("open"), {table_id: self.clock()})
        else:
            await self.r.zrem(self._k("open"), table_id)

    async def open_ids(self) -> list[str]:
        # A lobby left open a day ago is nobody's any more: forgotten.
        await self.r.zremrangebyscore(self._k("open"), "-inf", self.clock() - OPEN_SECONDS)
        return [str(i) for i in await self.r.zrevrange(self._k("open"), 0, OPEN_LISTED - 1)]

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
                kind = stored_kind(json.loads(raw)) if raw is not None else None
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

    async def add_chat(self, table_id: str, line: dict[str, Any]) -> None:
        key = self._k("t", table_id, "chat")
        async with self.r.pipeline(transaction=True) as pipe:
            pipe.rpush(key, json.dumps(line))
            pipe.ltrim(key, -CHAT_KEEP, -1)
            await pipe.execute()

    async def recent_chat(self, table_id: str) -> list[dict[str, Any]]:
        return [json.loads(x) for x in await self.r.lrange(self._k("t", table_id, "chat"), 0, -1)]


class RedisLeases:
    """A table's lock (a Redis lock) and its lease (a key naming the driving process, expiring a few
    seconds after that process stops renewing it)."""

    def __init__(self, link: RedisLink, process: str) -> None:
        self.r, self._k = link.r, link.k
        self.process = process
        self._lease = self.r.register_script(_LEASE)

    @contextlib.asynccontextmanager
    async def lock(self, table_id: str) -> AsyncIterator[None]:
        # A lock gone at release (Redis restarted, or it expired) does not undo the change made
        # under it: the commit script already checked that the change follows the stored log.
        lock = self.r.lock(
            self._k("t", table_id, "lock"),
            timeout=LOCK_SECONDS,
            sleep=0.002,
            blocking_timeout=10,
            raise_on_release_error=False,
        )
        async with lock:
            yield

    async def hold(self, table_id: str) -> bool:
        return bool(await self._lease(keys=[self._k("t", table_id, "lease")], args=[self.process, LEASE_MS]))


class RedisQueue:
    """The matchmaking queue in Redis: one hash of entries, and one key per waiting player that its
    process renews, so the players of a dead process leave the queue by themselves."""

    def __init__(self, link: RedisLink) -> None:
        self.r, self._k = link.r, link.k

    @contextlib.asynccontextmanager
    async def lock(self) -> AsyncIterator[None]:
        async with self.r.lock(self._k("queue", "lock"), timeout=LOCK_SECONDS, sleep=0.005, blocking_timeout=10):
            yield

    async def add(self, entry: str, data: dict[str, Any]) -> None:
        async with self.r.pipeline(transaction=True) as pipe:
            pipe.hset(self._k("queue"), entry, json.dumps(data))
            pipe.set(self._k("queue", "alive", entry), 1, px=ALIVE_MS)
            await pipe.execute()

    async def remove(self, entries: list[str]) -> None:
        if not entries:
            return
        async with self.r.pipeline(transaction=True) as pipe:
            pipe.hdel(self._k("queue"), *entries)
            pipe.delete(*(self._k("queue", "alive", e) for e in entries))
            await pipe.execute()

    async def entries(self) -> dict[str, dict[str, Any]]:
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

    async def touch(self, entries: list[str]) -> None:
        async with self.r.pipeline(transaction=False) as pipe:
            for e in entries:
                pipe.set(self._k("queue", "alive", e), 1, px=ALIVE_MS)
            await pipe.execute()


class RedisBus:
    """Notes between processes through Redis pub/sub, and the watch of the store's generation (a
    ``store_lost`` note to this process when Redis lost its data)."""

    def __init__(self, link: RedisLink) -> None:
        self.r, self._k = link.r, link.k
        self.process = secrets.token_hex(4)
        self._listeners: list[Listener] = []
        self._pubsub: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self.epoch: str | None = None  # the store's generation as this process last saw it
        self.down = False  # whether Redis was out of reach at the last look (said once in the log)
        self._pending: set[asyncio.Task[None]] = set()
        self._probes: dict[str, asyncio.Event] = {}  # probe notes awaited back (see _heard_back)

    def start(self, watch_epoch: bool = True) -> None:
        """Read the notes (subscribing once Redis answers) and, unless told not to, watch the epoch."""
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read(), name="redis notes")]
        if watch_epoch:
            self._tasks.append(loop.create_task(self._watch(), name="epoch"))

    async def _subscribe(self) -> None:
        pubsub: Any = self.r.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.psubscribe(self._k("note", "t", "*"))
            await pubsub.subscribe(self._k("note", "p", self.process))
        except BaseException:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            raise
        self._pubsub = pubsub
        pubsub.connection.register_connect_callback(self._reconnected)

    def _reconnected(self, connection: Any) -> None:
        """The notes' connection came back (Redis restarted, or the network): the notes published
        while it was away are lost, so every table held here catches up with the store, once a note
        of its own has come back through the new subscription (from then on none is lost)."""
        log.info("the notes' connection to Redis is back: the tables held here catch up")
        self._tell_later("", {"kind": "resync"}, self._heard_back)

    async def _heard_back(self) -> None:
        """Until a probe sent to this process comes back through the subscription."""
        probe = secrets.token_hex(4)
        back = self._probes[probe] = asyncio.Event()
        try:
            while not back.is_set():
                with contextlib.suppress(Exception):
                    note = json.dumps({"kind": "probe", "id": probe})
                    await self.r.publish(self._k("note", "p", self.process), note)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(PROBE_SECONDS):
                        await back.wait()
        finally:
            del self._probes[probe]

    def _tell_later(self, table_id: str, note: Note, first: Callable[[], Awaitable[None]]) -> None:
        async def tell() -> None:
            await first()
            await self._tell(table_id, note)

        task = asyncio.get_running_loop().create_task(tell())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _read(self) -> None:
        table_channel = self._k("note", "t", "")
        while True:
            try:
                if self._pubsub is None:
                    await self._subscribe()
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self._out_of_reach(e)
                await asyncio.sleep(0.5)
                continue
            self.down = False
            if message is None or message.get("type") not in ("message", "pmessage"):
                continue
            channel: str = message["channel"]
            table_id = channel[len(table_channel) :] if channel.startswith(table_channel) else ""
            try:
                note = json.loads(message["data"])
            except (TypeError, json.JSONDecodeError):
                continue
            if isinstance(note, dict) and note.get("kind") == "probe":  # ours, back: see _heard_back
                back = self._probes.get(str(note.get("id")))
                if back is not None:
                    back.set()
                continue
            await self._tell(table_id, note)

    async def _tell(self, table_id: str, note: Note) -> None:
        for listener in self._listeners:
            try:
                await listener(table_id, note)
            except Exception:
                log.exception("a note for %s could not be handled", table_id[:6])

    async def check_epoch(self) -> bool:
        """Whether Redis lost its data since this process last looked (True once per loss).

        The first process to find the ``epoch`` key missing sets a new one; every process that saw
        another value before (or none at all, for the one that set it after a loss) learns that the
        store restarted empty, and writes back the tables it holds (a ``store_lost`` note).
        """
        key = self._k("epoch")
        await self.r.set(key, secrets.token_hex(8), nx=True)
        raw = await self.r.get(key)
        current = None if raw is None else str(raw)
        before, self.epoch = self.epoch, current
        return before is not None and current != before

    async def _watch(self, every: float = 1.0) -> None:
        while True:
            try:
                if await self.check_epoch():
                    log.warning("Redis lost its data (restarted empty?): the tables held here are written back")
                    await self._tell("", {"kind": "store_lost"})
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self._out_of_reach(e)
            await asyncio.sleep(every)

    def _out_of_reach(self, e: Exception) -> None:
        """Say it once when Redis goes out of reach, not every half second while it stays so."""
        if not self.down:
            self.down = True
            log.warning("Redis is out of reach (%s): play resumes when it answers", e)

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def publish(self, table_id: str, note: Note) -> None:
        await self.r.publish(self._k("note", "t", table_id), json.dumps(note))

    async def tell(self, process: str, note: Note) -> None:
        await self.r.publish(self._k("note", "p", process), json.dumps(note))

    async def close(self) -> None:
        for task in [*self._tasks, *self._pending]:
            await tasks.stop(task)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()


def redis_hub(link: RedisLink, keep_finished: int = FINISHED_SECONDS, watch_epoch: bool = True) -> Hub:
    """The hub of one of several processes sharing their tables through ``link``'s Redis. The process
    starts even while Redis is out of reach (its page loads and says that play resumes shortly) and
    subscribes once Redis answers. A finished table's keys expire after ``keep_finished`` seconds.
    ``watch_epoch`` False leaves the finding of a lost store to the changes themselves (a test of that path)."""
    bus = RedisBus(link)
    bus.start(watch_epoch)
    tables = RedisTables(link)
    tables.keep_finished = keep_finished
    return Hub(
        tables,
        bus,
        RedisLeases(link, bus.process),
        RedisQueue(link),
        shared=True,
        closers=[bus.close, link.close],
    )


class RedisSheets:
    """The score sheets in Redis (``SheetStore``), for every process of a server alike. Each sheet's key
    expires ``ttl`` seconds after it was created or last changed (None: never), so no sweep is needed."""

    def __init__(self, client: aioredis.Redis, prefix: str = "belote:", ttl: float | None = None) -> None:
        self.r = client
        self.prefix = prefix
        self.ttl = None if ttl is None or ttl <= 0 else max(1, round(ttl))

    def _k(self, sheet_id: str) -> str:
        return f"{self.prefix}sheet:{sheet_id}"

    async def create_sheet(self, sheet_id: str, data: dict[str, Any]) -> None:
        await self.r.set(self._k(sheet_id), json.dumps(data), ex=self.ttl)

    async def load_sheet(self, sheet_id: str) -> dict[str, Any] | None:
        raw = await self.r.get(self._k(sheet_id))
        return None if raw is None else dict(json.loads(raw))

    async def change_sheet(
        self, sheet_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any] | None:
        """Optimistic: read under WATCH, write in MULTI; a sheet another request changed meanwhile is
        read again and ``change`` runs again on it (it raises to refuse, and nothing is written)."""
        key = self._k(sheet_id)
        pipeline: Any = self.r.pipeline(transaction=True)
        async with pipeline as pipe:
            while True:
                try:
                    await pipe.watch(key)
                    raw = await pipe.get(key)
                    if raw is None:
                        return None
                    data = change(dict(json.loads(raw)))
                    pipe.multi()
                    pipe.set(key, json.dumps(data), ex=self.ttl)
                    await pipe.execute()
                    return data
                except WatchError:
                    continue

    async def expire(self, before: float) -> int:
        """Nothing to sweep: each sheet's key expires by itself (its TTL, renewed by each change)."""
        return 0
