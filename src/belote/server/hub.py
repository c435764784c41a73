"""Where the tables of a server live and how its processes hear of changes: one interface, two homes.

A table changes under its lock: the process that changes it reads what is new (``snapshot``),
checks the change with the engine, writes it (``commit``), then tells the other processes
(``publish``). The process that holds a table's *lease* drives it (bots, turn timer).

- ``LocalHub``: one process. The SQLite store keeps the tables; the lock, the notes and the lease
  are trivial because nobody else changes a table.
- ``belote.server.redis_hub.RedisHub``: any number of processes sharing tables through Redis
  (state, locks, pub/sub, leases that another process takes over when the holder dies).

The matchmaking queue has the same two homes (``entries``, ``queue_add``...), so four players
connected to different processes and waiting for the same game are seated together.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
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
    nothing was written; the table is written back whole (``Hub.write_back``)."""


class Hub(Protocol):
    """What a table manager needs from the place its tables live."""

    process: str  # this process's name, random
    shared: bool  # whether other processes change the same tables

    def lock(self, table_id: str) -> contextlib.AbstractAsyncContextManager[None]: ...

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

    async def publish(self, table_id: str, note: Note) -> None: ...

    def listen(self, listener: Listener) -> None: ...

    async def hold_lease(self, table_id: str) -> bool: ...

    async def add_chat(self, table_id: str, line: dict[str, Any]) -> None: ...

    async def recent_chat(self, table_id: str) -> list[dict[str, Any]]: ...

    # the matchmaking queue: entry id -> {"name", "variant" (the game waited for), "seating" (partners | any),
    # "process", "joined" (unix seconds)}
    def queue_lock(self) -> contextlib.AbstractAsyncContextManager[None]: ...

    async def queue_add(self, entry: str, data: dict[str, Any]) -> None: ...

    async def queue_remove(self, entries: list[str]) -> None: ...

    async def queue_entries(self) -> dict[str, dict[str, Any]]: ...

    async def queue_touch(self, entries: list[str]) -> None: ...

    async def tell_process(self, process: str, note: Note) -> None: ...

    async def close(self) -> None: ...


class LocalHub:
    """One process, the SQLite store: nobody else changes a table, so locks and notes are trivial."""

    shared = False

    def __init__(self, store: SQLiteStore) -> None:
        self.store = store
        self.process = secrets.token_hex(4)
        self._listeners: list[Listener] = []
        self._queue: dict[str, dict[str, Any]] = {}

    @contextlib.asynccontextmanager
    async def lock(self, table_id: str) -> AsyncIterator[None]:
        yield  # a change is checked and written without yielding to the event loop

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

    async def publish(self, table_id: str, note: Note) -> None:
        for listener in self._listeners:
            await listener(table_id, note)

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def hold_lease(self, table_id: str) -> bool:
        return True

    async def add_chat(self, table_id: str, line: dict[str, Any]) -> None:
        self.store.add_chat(table_id, line, CHAT_KEEP)

    async def recent_chat(self, table_id: str) -> list[dict[str, Any]]:
        return self.store.recent_chat(table_id)

    @contextlib.asynccontextmanager
    async def queue_lock(self) -> AsyncIterator[None]:
        yield

    async def queue_add(self, entry: str, data: dict[str, Any]) -> None:
        self._queue[entry] = data

    async def queue_remove(self, entries: list[str]) -> None:
        for e in entries:
            self._queue.pop(e, None)

    async def queue_entries(self) -> dict[str, dict[str, Any]]:
        return dict(self._queue)

    async def queue_touch(self, entries: list[str]) -> None:
        pass

    async def tell_process(self, process: str, note: Note) -> None:
        await self.publish("", note)

    async def close(self) -> None:
        pass
