"""Where the tables of a server live and how its processes hear of each other: four small interfaces, two homes.

A table changes under its lock: the process that changes it reads what is new (``TableStore.snapshot``),
checks the change with the room's rules, writes it (``TableStore.commit``), then tells the other
processes (``Bus.publish``). The process that holds a table's *lease* drives it (bots, turn timer).

- ``TableStore``: the tables (meta, actions, chat), their use and their expiry;
- ``Bus``: the notes between processes (a table changed, a chat line, a player matched);
- ``Leases``: a table's lock and which process drives it;
- ``Queue``: the matchmaking queue, so four players connected to different processes and waiting
  for the same game are seated together.

A ``Hub`` holds one of each. Two homes: ``local_hub`` (one process: the SQLite store keeps the
tables; locks, notes and leases are trivial because nobody else changes a table) and
``belote.server.redis_hub.redis_hub`` (any number of processes sharing tables through Redis).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from belote.server.store import SQLiteStore

#: What the shared store raises while it is out of reach (Redis down or restarting): a passing state
#: that the server answers with ``store_unreachable`` ("play resumes shortly") and logs in one line,
#: not an internal error.
OUTAGE: tuple[type[Exception], ...] = (RedisConnectionError, RedisTimeoutError)

Note = dict[str, Any]
Listener = Callable[[str, Note], Awaitable[None]]
CHAT_KEEP = 50


class StoreLost(Exception):
    """The store no longer holds the log a change follows (Redis restarted empty, or was flushed):
    nothing was written; the table is written back whole (``TableStore.write_back``)."""


class TableStore(Protocol):
    """Where the tables live: each one's meta (JSON), its actions (the match's log) and its last chat lines."""

    async def load(self, table_id: str) -> tuple[dict[str, Any], list[str]] | None: ...

    async def snapshot(self, table_id: str, game: int, start: int) -> tuple[dict[str, Any], list[str], bool] | None:
        """The meta and the actions from ``start`` (all of them, and True, when the game changed)."""
        ...

    async def commit(
        self, table_id: str, meta: dict[str, Any] | None, active: bool, start: int, actions: list[str], reset: bool
    ) -> None:
        """Write ``actions`` from number ``start`` (after dropping the old ones when ``reset``), and the
        meta when given. Raises ``StoreLost``, writing nothing, when the store's log does not hold
        exactly ``start`` actions (a shared store that lost its data): never a log that does not replay."""
        ...

    async def write_back(self, table_id: str, meta: dict[str, Any], active: bool, actions: list[str]) -> bool:
        """Write a table whole after the store lost it (``StoreLost``), unless the store holds a
        history that is not a beginning of ``actions``: then False, and nothing is written."""
        ...

    async def active_ids(self) -> list[str]: ...

    async def touch(self, table_ids: list[str]) -> None:
        """The tables are in use (a socket is open on them): they do not expire."""
        ...

    async def expire(self, before: dict[str, float]) -> dict[str, list[str]]:
        """Remove the tables of each kind last used before ``before[kind]`` (unix seconds); their ids, by kind."""
        ...

    async def add_chat(self, table_id: str, line: dict[str, Any]) -> None: ...

    async def recent_chat(self, table_id: str) -> list[dict[str, Any]]: ...

    async def list_open(self, table_id: str, listed: bool) -> None:
        """List the table among the open tables (a private table's lobby open to all), or not."""
        ...

    async def open_ids(self) -> list[str]:
        """The tables listed open, the latest listed first."""
        ...


class Bus(Protocol):
    """The notes between processes: to every process holding a table, or to one process."""

    process: str  # this process's name, random

    async def publish(self, table_id: str, note: Note) -> None: ...

    def listen(self, listener: Listener) -> None:
        """``listener(table_id, note)`` hears every note of every table, and those sent to this process
        (``tell``, with table id ""), this process's own included."""
        ...

    async def tell(self, process: str, note: Note) -> None: ...


class Leases(Protocol):
    """Who may change a table now (its lock) and who drives it (its lease)."""

    def lock(self, table_id: str) -> contextlib.AbstractAsyncContextManager[None]: ...

    async def hold(self, table_id: str) -> bool:
        """Take or renew the table's lease for this process; False when another process holds it."""
        ...


class Queue(Protocol):
    """The matchmaking queue: entry id -> {"name", "variant" (the game waited for), "seating" (partners |
    any), "process", "joined" (unix seconds)}."""

    def lock(self) -> contextlib.AbstractAsyncContextManager[None]: ...

    async def add(self, entry: str, data: dict[str, Any]) -> None: ...

    async def remove(self, entries: list[str]) -> None: ...

    async def entries(self) -> dict[str, dict[str, Any]]:
        """The players waiting, in every process (those of a process that died are gone)."""
        ...

    async def touch(self, entries: list[str]) -> None:
        """This process's players still wait: they stay in the queue (a process that dies stops
        touching its players, and they leave it)."""
        ...


@dataclass
class Hub:
    """A server's four interfaces to where its tables live, and whether other processes share them."""

    store: TableStore
    bus: Bus
    leases: Leases
    queue: Queue
    shared: bool  # whether other processes change the same tables
    closers: list[Callable[[], Awaitable[None]]] = field(default_factory=list)

    @property
    def process(self) -> str:
        return self.bus.process

    async def close(self) -> None:
        for close in self.closers:
            await close()


# ----------------------------------------------------------------- one process
class LocalTables:
    """The tables in the SQLite store."""

    def __init__(self, store: SQLiteStore) -> None:
        self.store = store
        # One process: the open lobbies are those it holds (a restart forgets them; their hosts'
        # pages open them again, and a change of the lobby lists it again).
        self.open: dict[str, None] = {}

    async def load(self, table_id: str) -> tuple[dict[str, Any], list[str]] | None:
        return self.store.load_table(table_id)

    async def snapshot(self, table_id: str, game: int, start: int) -> tuple[dict[str, Any], list[str], bool] | None:
        loaded = self.store.load_table(table_id)
        if loaded is None:
            return None
        meta, actions = loaded
        return (meta, actions, True) if meta.get("game", 0) != game else (meta, actions[start:], False)

    async def commit(
        self, table_id: str, meta: dict[str, Any] | None, active: bool, start: int, actions: list[str], reset: bool
    ) -> None:
        self.store.commit(table_id, meta, active, start, actions, reset)

    async def write_back(self, table_id: str, meta: dict[str, Any], active: bool, actions: list[str]) -> bool:
        self.store.commit(table_id, meta, active, 0, actions, True)  # never lost: only one process writes
        return True

    async def active_ids(self) -> list[str]:
        return self.store.table_ids(active_only=True)

    async def touch(self, table_ids: list[str]) -> None:
        self.store.touch(table_ids)

    async def expire(self, before: dict[str, float]) -> dict[str, list[str]]:
        # In a thread: a large sweep deletes in batches under the store's lock, and the tables play between them.
        return await asyncio.to_thread(self.store.expire, before)

    async def add_chat(self, table_id: str, line: dict[str, Any]) -> None:
        self.store.add_chat(table_id, line, CHAT_KEEP)

    async def recent_chat(self, table_id: str) -> list[dict[str, Any]]:
        return self.store.recent_chat(table_id)

    async def list_open(self, table_id: str, listed: bool) -> None:
        if listed:
            self.open[table_id] = None
        else:
            self.open.pop(table_id, None)

    async def open_ids(self) -> list[str]:
        return list(reversed(self.open))


class LocalBus:
    """Notes within one process: every listener hears them at once."""

    def __init__(self) -> None:
        self.process = secrets.token_hex(4)
        self._listeners: list[Listener] = []

    async def publish(self, table_id: str, note: Note) -> None:
        for listener in self._listeners:
            await listener(table_id, note)

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def tell(self, process: str, note: Note) -> None:
        await self.publish("", note)


class LocalLeases:
    """One process: it drives every table, and a change is checked and written without yielding to the loop."""

    @contextlib.asynccontextmanager
    async def lock(self, table_id: str) -> AsyncIterator[None]:
        yield

    async def hold(self, table_id: str) -> bool:
        return True


class LocalQueue:
    """The queue in memory: its players are this process's sockets, gone with it."""

    def __init__(self) -> None:
        self._entries: dict[str, dict[str, Any]] = {}

    @contextlib.asynccontextmanager
    async def lock(self) -> AsyncIterator[None]:
        yield

    async def add(self, entry: str, data: dict[str, Any]) -> None:
        self._entries[entry] = data

    async def remove(self, entries: list[str]) -> None:
        for e in entries:
            self._entries.pop(e, None)

    async def entries(self) -> dict[str, dict[str, Any]]:
        return dict(self._entries)

    async def touch(self, entries: list[str]) -> None:
        pass  # nothing expires: the players leave with their sockets


def local_hub(store: SQLiteStore) -> Hub:
    """The hub of one process on a SQLite store."""
    return Hub(LocalTables(store), LocalBus(), LocalLeases(), LocalQueue(), shared=False)
