"""Where tables and score sheets live between restarts: one SQLite file by default.

A table is stored as what it was created with (seed, rules, seats, settings) and its list of
actions, appended as they happen; loading replays them through the engine. A table is *active*
while its match goes on (or its lobby waits). Tables are loaded when somebody opens them, never all
at start. Each table keeps its kind and when it was last *used* (an action, a change, or a socket
open on it at a sweep): ``expire`` removes those unused for longer than their kind may stay, and the
file gives the pages they held back to the disk (``auto_vacuum = INCREMENTAL`` on a new file, and
``incremental_vacuum`` after each sweep). A score sheet is one JSON document rewritten on each entry;
it keeps when it was last changed, and ``expire_sheets`` removes those unchanged for too long.

A full disk refuses what would be written (``StoreFull``: HTTP 503, a websocket's ``store_full``)
and loses nothing stored; the store says so once in the log when the disk fills and once when it
has room again. The store opens on a full disk too: the start writes nothing that is already so, and
what it cannot write yet (a new file's tables, a column added) waits for the next write.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

from belote.actions import Refusal

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    meta TEXT NOT NULL,
    created REAL NOT NULL DEFAULT (julianday('now')),
    active INTEGER NOT NULL DEFAULT 1,
    kind TEXT,
    used REAL
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    line TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_by_table ON chat (table_id, n);
CREATE TABLE IF NOT EXISTS sheets (
    id TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    updated REAL NOT NULL DEFAULT (julianday('now'))
);
"""
#: Made after the columns a file written before them lacks are added.
INDEXES = """
CREATE INDEX IF NOT EXISTS tables_by_use ON tables (used);
CREATE INDEX IF NOT EXISTS sheets_by_update ON sheets (updated);
"""
#: Tables deleted per statement by a sweep: the store's lock is not held for long at a time.
SWEEP_BATCH = 200
#: Free pages given back to the disk at a time, under the store's lock (4 kB each: 8 MB).
VACUUM_PAGES = 2_000
#: SQLite's primary result code of a write that found no room: the disk is full (or the file is at
#: its ``max_page_count``).
SQLITE_FULL = 13
#: Seconds a client is told to wait before trying a write again on a full disk (``Retry-After``).
FULL_RETRY = 30
#: Seconds the checkpointer gathers writes before it folds the write-ahead log into the file.
CHECKPOINT_AFTER = 1.0
log = logging.getLogger("belote.store")


class Checkpointer:
    """Folds the write-ahead log into the file from a thread and a connection of its own, a second
    after writes, so that no write waits for it: left to itself SQLite does it in the commit that
    fills the log past 1,000 pages, and that one write then takes 25-170 ms (bench/players.py). A
    passive checkpoint waits for no reader or writer. ``writes`` counts the writes, ``folded`` how many
    of them the last checkpoint had in the file (all of them once ``folded == written``)."""

    def __init__(self, path: Path, after: float = CHECKPOINT_AFTER) -> None:
        self.path, self.after = path, after
        self.writes = 0
        self.folded = 0
        self.done = threading.Condition()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="belote-checkpoint", daemon=True)
        self._thread.start()

    def written(self) -> None:
        """A write committed (called under the store's lock)."""
        self.writes += 1
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join()

    def _run(self) -> None:
        db: sqlite3.Connection | None = None
        try:
            while True:
                self._wake.wait()
                if self._stop.wait(self.after):  # the writes of the next second go in the same fold
                    return
                self._wake.clear()
                upto = self.writes
                try:
                    # mode=rw: a file removed meanwhile (its store closed, its folder deleted) is not made anew
                    db = db or sqlite3.connect(
                        f"file:{quote(str(self.path))}?mode=rw", uri=True, check_same_thread=False, isolation_level=None
                    )
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as e:  # a full disk: the log keeps the writes; folded at the next try
                    log.debug("checkpoint of %s: %s", self.path, e)
                    continue
                with self.done:
                    self.folded = upto
                    self.done.notify_all()
        finally:
            if db is not None:
                db.close()


class StoreFull(Refusal):
    """The store's disk is full: nothing was written and nothing stored is lost; what is stored
    reads as before. An HTTP route answers 503 with ``Retry-After``.

    >>> e = store_full()
    >>> e.code, e.status, e.retry_after
    ('store_full', 503, 30)
    """

    status = 503
    retry_after = FULL_RETRY


def store_full() -> StoreFull:
    return StoreFull("the server's disk is full: nothing new can be saved for now, and nothing is lost", "store_full")


def disk_full(e: BaseException) -> bool:
    """Whether SQLite refused for want of room (any extended code of ``SQLITE_FULL``)."""
    return isinstance(e, sqlite3.Error) and getattr(e, "sqlite_errorcode", 0) & 0xFF == SQLITE_FULL


def _no_shared_memory(e: BaseException) -> bool:
    """Whether SQLite could not make the write-ahead log's shared-memory index (a full disk at open)."""
    return isinstance(e, sqlite3.Error) and str(getattr(e, "sqlite_errorname", "")).startswith("SQLITE_IOERR_SHM")


def stored_kind(meta: dict[str, Any]) -> str:
    """The kind a table expires as: its own (solo, private, online), or ``abandoned`` for a table the
    queue formed that none of its people came to (``room.Meta.abandoned``); written before tables
    had a kind, private.

    >>> stored_kind({"kind": "online"}), stored_kind({"kind": "online", "abandoned": True}), stored_kind({})
    ('online', 'abandoned', 'private')
    """
    return "abandoned" if meta.get("abandoned") else str(meta.get("kind") or "private")


def julian(unix: float) -> float:
    """A time in unix seconds as SQLite's ``julianday`` counts it (a sheet's ``updated``).

    >>> julian(0.0), julian(86400.0)
    (2440587.5, 2440588.5)
    """
    return unix / 86400.0 + 2440587.5


def default_path() -> Path:
    """``$BELOTE_DB``, or ``belote.sqlite3`` in the user's data folder."""
    env = os.environ.get("BELOTE_DB")
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "belote" / "belote.sqlite3"


class SQLiteStore:
    """The embedded store. Safe to use from several threads of one process."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.clock = clock  # unix seconds: when a table is used (tests set their own)
        self._lock = threading.Lock()
        self.full = False  # the last write found the disk full (said once in the log, shown in /metrics)
        self._ready = False  # the start's writes are done (on a full disk they wait for the next write)
        self._schemas: list[str] = []  # the tables of the file's other stores (``prepare``)
        self.checkpointer: Checkpointer | None = None  # None: SQLite folds the log in the writes
        self._db = self._connect()
        try:
            self._prepare()
        except sqlite3.Error as e:
            if not disk_full(e):
                raise
            self._filled()

    def _connect(self) -> sqlite3.Connection:
        """The connection, and what it reads with (nothing here is written to the file). On a full disk
        where the write-ahead log's shared-memory index cannot be made, nothing could be read: the
        file is then opened in exclusive locking mode (the index in this process's memory), and no
        other process may open it until the server restarts."""
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as e:
            if not _no_shared_memory(e):
                raise
            db.close()
            log.warning("the disk of %s is full: the store is opened for this process alone", self.path)
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA locking_mode=EXCLUSIVE")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            return db  # SQLite folds the log itself: no other connection can open the file
        db.execute("PRAGMA wal_autocheckpoint=0")
        self.checkpointer = Checkpointer(self.path)
        return db

    def _prepare(self) -> None:
        """The file's settings, tables and columns, each written only when it is not so already (a start
        that wrote them again could not start on a full disk)."""
        (vacuum,) = self._db.execute("PRAGMA auto_vacuum").fetchone()
        if vacuum != 2:
            # Set before the first table is made, or it takes a full VACUUM (docs/operations.md): on a
            # new file, pages freed by expired tables can then be given back to the disk.
            self._db.execute("PRAGMA auto_vacuum=INCREMENTAL")
        (journal,) = self._db.execute("PRAGMA journal_mode").fetchone()
        if journal != "wal":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        if "active" not in columns:  # a store written before tables had the flag
            self._db.execute("ALTER TABLE tables ADD COLUMN active INTEGER NOT NULL DEFAULT 1")
        if "used" not in columns:  # written before tables expired: last used when created
            self._db.execute("BEGIN")
            try:
                self._db.execute("ALTER TABLE tables ADD COLUMN kind TEXT")
                self._db.execute("ALTER TABLE tables ADD COLUMN used REAL")
                self._db.execute("UPDATE tables SET used = (created - 2440587.5) * 86400.0")
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        self._db.executescript(INDEXES)
        for schema in self._schemas:
            self._db.executescript(schema)
        self._ready = True

    def _tables(self) -> bool:
        """Whether the file has its tables (a new file on a full disk has none yet: it reads as empty)."""
        found = self._ready or self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'sheets'").fetchone()
        return found is not None

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """A write, under the lock: the start's writes first if they waited; a full disk raises
        ``StoreFull``. The log says once that the disk is full, and once that it has room again."""
        changes = self._db.total_changes
        try:
            if not self._ready:
                self._prepare()
            yield
        except sqlite3.Error as e:
            if not disk_full(e):
                raise
            self._filled()
            raise store_full() from None
        if self._db.total_changes > changes:  # a write that wrote: a read or no-op proves nothing
            if self.checkpointer is not None:
                self.checkpointer.written()
            if self.full:
                self.full = False
                log.warning("the disk of %s has room again: the store writes", self.path)

    def _filled(self) -> None:
        if not self.full:
            self.full = True
            log.warning(
                "the disk of %s is full: nothing new is saved (requests answer 503 store_full) until it has room",
                self.path,
            )

    def close(self) -> None:
        if self.checkpointer is not None:
            self.checkpointer.stop()
        with self._lock:
            self._db.close()

    # ----------------------------------------------------------------- for the other stores of the file
    def prepare(self, schema: str) -> None:
        """Make the tables of another store of the file (the players'), when missing; on a full disk,
        at the next write (as the file's own)."""
        with self._lock:
            self._schemas.append(schema)
            try:
                self._db.executescript(schema)
            except sqlite3.Error as e:
                if not disk_full(e):
                    raise
                self._ready = False
                self._filled()

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock, to read from."""
        with self._lock:
            yield self._db

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """The connection in one write transaction, under the lock: committed at the end, rolled back
        when anything raises (a full disk raises ``StoreFull``)."""
        with self._lock, self._writing():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    # ----------------------------------------------------------------- tables
    def commit(
        self, table_id: str, meta: dict[str, Any] | None, active: bool, start: int, actions: list[str], reset: bool
    ) -> None:
        """One change of a table in one transaction: its meta (if given), its actions from number ``start``."""
        with self._lock, self._writing():
            self._db.execute("BEGIN")
            try:
                now = self.clock()
                if meta is not None:
                    self._db.execute(
                        "INSERT INTO tables (id, meta, active, kind, used) VALUES (?, ?, ?, ?, ?) "
                        "ON CONFLICT(id) DO UPDATE SET meta = excluded.meta, active = excluded.active, "
                        "kind = excluded.kind, used = excluded.used",
                        (table_id, json.dumps(meta), int(active), stored_kind(meta), now),
                    )
                elif actions or reset:
                    self._db.execute("UPDATE tables SET used = ? WHERE id = ?", (now, table_id))
                if reset:
                    self._db.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
                self._db.executemany(
                    "INSERT INTO actions (table_id, n, action) VALUES (?, ?, ?)",
                    [(table_id, start + i, a) for i, a in enumerate(actions)],
                )
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # SQLite ends the transaction itself on some errors (a full disk)
                    self._db.execute("ROLLBACK")
                raise

    def load_table(self, table_id: str) -> tuple[dict[str, Any], list[str]] | None:
        with self._lock:
            if not self._tables():
                return None
            row = self._db.execute("SELECT meta FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            actions = [
                a for (a,) in self._db.execute("SELECT action FROM actions WHERE table_id = ? ORDER BY n", (table_id,))
            ]
        return json.loads(row[0]), actions

    def table_ids(self, active_only: bool = False) -> list[str]:
        query = "SELECT id FROM tables" + (" WHERE active = 1" if active_only else "") + " ORDER BY created"
        with self._lock:
            return [i for (i,) in self._db.execute(query)] if self._tables() else []

    def add_chat(self, table_id: str, line: dict[str, Any], keep: int) -> None:
        with self._lock, self._writing():
            self._db.execute("INSERT INTO chat (table_id, line) VALUES (?, ?)", (table_id, json.dumps(line)))
            self._db.execute(
                "DELETE FROM chat WHERE table_id = ? AND n NOT IN "
                "(SELECT n FROM chat WHERE table_id = ? ORDER BY n DESC LIMIT ?)",
                (table_id, table_id, keep),
            )

    def recent_chat(self, table_id: str) -> list[dict[str, Any]]:
        with self._lock:
            if not self._tables():
                return []
            rows = self._db.execute("SELECT line FROM chat WHERE table_id = ? ORDER BY n", (table_id,)).fetchall()
        return [json.loads(line) for (line,) in rows]

    def delete_table(self, table_id: str) -> None:
        with self._lock, self._writing():
            self._db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    def touch(self, table_ids: list[str]) -> None:
        """The tables are in use now (a socket is open on them): they do not expire."""
        now = self.clock()
        with self._lock, self._writing():
            self._db.executemany("UPDATE tables SET used = ? WHERE id = ?", [(now, i) for i in table_ids])

    def expire(self, before: dict[str, float]) -> dict[str, list[str]]:
        """Delete the tables of each kind last used before ``before[kind]`` (unix seconds; a table
        stored before tables had a kind counts as private), with their actions and chat; the ids
        deleted, by kind. Then give the pages they held back to the disk."""
        gone: dict[str, list[str]] = {}
        for kind, cutoff in before.items():
            while True:
                with self._lock, self._writing():
                    rows = [
                        i
                        for (i,) in self._db.execute(
                            "SELECT id FROM tables WHERE used < ? AND COALESCE(kind, 'private') = ? LIMIT ?",
                            (cutoff, kind, SWEEP_BATCH),
                        )
                    ]
                    if rows:
                        self._db.execute("BEGIN")
                        try:
                            self._db.executemany("DELETE FROM tables WHERE id = ?", [(i,) for i in rows])
                            self._db.execute("COMMIT")
                        except BaseException:
                            if self._db.in_transaction:
                                self._db.execute("ROLLBACK")
                            raise
                if not rows:
                    break
                gone.setdefault(kind, []).extend(rows)
        self.vacuum()
        return gone

    def vacuum(self) -> None:
        """Give every free page back to the disk (a file made with ``auto_vacuum = INCREMENTAL``), a few
        at a time so that no change waits long for the lock, and fold the write-ahead log into the file
        so that it does not grow either."""
        while True:
            with self._lock, self._writing():
                (free,) = self._db.execute("PRAGMA freelist_count").fetchone()
                (mode,) = self._db.execute("PRAGMA auto_vacuum").fetchone()
                if free == 0 or mode != 2:  # 2: incremental (a file made before it keeps its free pages for reuse)
                    break
                # executescript steps the pragma to its end (execute frees one page per step: one in all)
                self._db.executescript(f"PRAGMA incremental_vacuum({VACUUM_PAGES});")
        with self._lock, self._writing():
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    def size(self) -> dict[str, int]:
        """The file's pages: in all, free, and its bytes (with the write-ahead log)."""
        with self._lock:
            (pages,) = self._db.execute("PRAGMA page_count").fetchone()
            (free,) = self._db.execute("PRAGMA freelist_count").fetchone()
        wal = self.path.with_name(self.path.name + "-wal")
        size = self.path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
        return {"pages": int(pages), "free": int(free), "bytes": size}

    # ----------------------------------------------------------------- score sheets
    def save_sheet(self, sheet_id: str, data: dict[str, Any]) -> None:
        with self._lock, self._writing():
            self._db.execute(
                "INSERT INTO sheets (id, data, updated) VALUES (?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET data = excluded.data, updated = excluded.updated",
                (sheet_id, json.dumps(data), julian(self.clock())),
            )

    def load_sheet(self, sheet_id: str) -> dict[str, Any] | None:
        with self._lock:
            if not self._tables():
                return None
            row = self._db.execute("SELECT data FROM sheets WHERE id = ?", (sheet_id,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def change_sheet(self, sheet_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any] | None:
        """Load, change and save a sheet in one write transaction (no other writer of the file comes
        between); None when there is no such sheet. ``change`` raises to refuse, and nothing is saved."""
        with self._lock, self._writing():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                row = self._db.execute("SELECT data FROM sheets WHERE id = ?", (sheet_id,)).fetchone()
                if row is None:
                    self._db.execute("ROLLBACK")
                    return None
                data = change(dict(json.loads(row[0])))
                self._db.execute(
                    "UPDATE sheets SET data = ?, updated = ? WHERE id = ?",
                    (json.dumps(data), julian(self.clock()), sheet_id),
                )
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        return data

    def sheet_ids(self) -> list[str]:
        with self._lock:
            if not self._tables():
                return []
            return [i for (i,) in self._db.execute("SELECT id FROM sheets ORDER BY updated DESC")]

    def expire_sheets(self, before: float) -> int:
        """Delete the sheets last changed before ``before`` (unix seconds), a batch at a time; how many.
        Then give the pages they held back to the disk."""
        removed = 0
        while True:
            with self._lock, self._writing():
                if not self._tables():
                    return 0
                cursor = self._db.execute(
                    "DELETE FROM sheets WHERE id IN (SELECT id FROM sheets WHERE updated < ? LIMIT ?)",
                    (julian(before), SWEEP_BATCH),
                )
            removed += cursor.rowcount
            if cursor.rowcount < SWEEP_BATCH:
                break
        if removed:
            self.vacuum()
        return removed


class SheetStore(Protocol):
    """Where the score sheets of the web server live: one JSON document per sheet.

    ``change_sheet`` is the only way to change one, so that two requests on one sheet (two phones,
    two server processes) never both load the same entries and lose one of them: each change sees
    the one before.
    """

    async def create_sheet(self, sheet_id: str, data: dict[str, Any]) -> None: ...

    async def load_sheet(self, sheet_id: str) -> dict[str, Any] | None: ...

    async def change_sheet(
        self, sheet_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any] | None:
        """The sheet as ``change`` leaves it, saved; None when there is no such sheet."""
        ...

    async def expire(self, before: float) -> int:
        """Remove the sheets last created or changed before ``before`` (unix seconds); how many (a
        store whose sheets expire by themselves removes none here)."""
        ...


class SQLiteSheets:
    """The score sheets in the SQLite file: one process (or the terminal's ``belote sheet``)."""

    def __init__(self, store: SQLiteStore) -> None:
        self.store = store

    async def create_sheet(self, sheet_id: str, data: dict[str, Any]) -> None:
        self.store.save_sheet(sheet_id, data)

    async def load_sheet(self, sheet_id: str) -> dict[str, Any] | None:
        return self.store.load_sheet(sheet_id)

    async def change_sheet(
        self, sheet_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any] | None:
        return self.store.change_sheet(sheet_id, change)

    async def expire(self, before: float) -> int:
        # In a thread: a large sweep deletes in batches under the store's lock, and the tables play between them.
        return await asyncio.to_thread(self.store.expire_sheets, before)
