"""Where tables and score sheets live between restarts: one SQLite file by default.

A table is stored as what it was created with (seed, rules, seats, settings) and its list of
actions, appended as they happen; loading replays them through the engine. A table is *active*
while its match goes on (or its lobby waits): those are brought back when the server starts, the
others when somebody opens them. A score sheet is one JSON document rewritten on each entry.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    meta TEXT NOT NULL,
    created REAL NOT NULL DEFAULT (julianday('now')),
    active INTEGER NOT NULL DEFAULT 1
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


def default_path() -> Path:
    """``$BELOTE_DB``, or ``belote.sqlite3`` in the user's data folder."""
    env = os.environ.get("BELOTE_DB")
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "belote" / "belote.sqlite3"


class SQLiteStore:
    """The embedded store. Safe to use from several threads of one process."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        if "active" not in columns:  # a store written before tables had the flag
            self._db.execute("ALTER TABLE tables ADD COLUMN active INTEGER NOT NULL DEFAULT 1")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ----------------------------------------------------------------- tables
    def commit(
        self, table_id: str, meta: dict[str, Any] | None, active: bool, start: int, actions: list[str], reset: bool
    ) -> None:
        """One change of a table in one transaction: its meta (if given), its actions from number ``start``."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                if meta is not None:
                    self._db.execute(
                        "INSERT INTO tables (id, meta, active) VALUES (?, ?, ?) "
                        "ON CONFLICT(id) DO UPDATE SET meta = excluded.meta, active = excluded.active",
                        (table_id, json.dumps(meta), int(active)),
                    )
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
            return [i for (i,) in self._db.execute(query)]

    def add_chat(self, table_id: str, line: dict[str, Any], keep: int) -> None:
        with self._lock:
            self._db.execute("INSERT INTO chat (table_id, line) VALUES (?, ?)", (table_id, json.dumps(line)))
            self._db.execute(
                "DELETE FROM chat WHERE table_id = ? AND n NOT IN "
                "(SELECT n FROM chat WHERE table_id = ? ORDER BY n DESC LIMIT ?)",
                (table_id, table_id, keep),
            )

    def recent_chat(self, table_id: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT line FROM chat WHERE table_id = ? ORDER BY n", (table_id,)).fetchall()
        return [json.loads(line) for (line,) in rows]

    def delete_table(self, table_id: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    # ----------------------------------------------------------------- score sheets
    def save_sheet(self, sheet_id: str, data: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO sheets (id, data) VALUES (?, ?) "
                "ON CONFLICT(id) DO UPDATE SET data = excluded.data, updated = julianday('now')",
                (sheet_id, json.dumps(data)),
            )

    def load_sheet(self, sheet_id: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT data FROM sheets WHERE id = ?", (sheet_id,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def change_sheet(self, sheet_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any] | None:
        """Load, change and save a sheet in one write transaction (no other writer of the file comes
        between); None when there is no such sheet. ``change`` raises to refuse, and nothing is saved."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                row = self._db.execute("SELECT data FROM sheets WHERE id = ?", (sheet_id,)).fetchone()
                if row is None:
                    self._db.execute("ROLLBACK")
                    return None
                data = change(dict(json.loads(row[0])))
                self._db.execute(
                    "UPDATE sheets SET data = ?, updated = julianday('now') WHERE id = ?", (json.dumps(data), sheet_id)
                )
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        return data

    def sheet_ids(self) -> list[str]:
        with self._lock:
            return [i for (i,) in self._db.execute("SELECT id FROM sheets ORDER BY updated DESC")]


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
