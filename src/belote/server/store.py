"""Where tables and score sheets live between restarts: one SQLite file by default.

A table is stored as what it was created with (seed, rules, seats, settings) and its list of
actions, appended as they happen; loading replays them through the engine. A score sheet is one
JSON document rewritten on each entry.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    meta TEXT NOT NULL,
    created REAL NOT NULL DEFAULT (julianday('now'))
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
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

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ----------------------------------------------------------------- tables
    def save_table(self, table_id: str, meta: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO tables (id, meta) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET meta = excluded.meta",
                (table_id, json.dumps(meta)),
            )

    def reset_actions(self, table_id: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))

    def append_action(self, table_id: str, n: int, action: str) -> None:
        with self._lock:
            self._db.execute("INSERT INTO actions (table_id, n, action) VALUES (?, ?, ?)", (table_id, n, action))

    def load_table(self, table_id: str) -> tuple[dict[str, Any], list[str]] | None:
        with self._lock:
            row = self._db.execute("SELECT meta FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            actions = [
                a for (a,) in self._db.execute("SELECT action FROM actions WHERE table_id = ? ORDER BY n", (table_id,))
            ]
        return json.loads(row[0]), actions

    def table_ids(self) -> list[str]:
        with self._lock:
            return [i for (i,) in self._db.execute("SELECT id FROM tables ORDER BY created")]

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

    def sheet_ids(self) -> list[str]:
        with self._lock:
            return [i for (i,) in self._db.execute("SELECT id FROM sheets ORDER BY updated DESC")]
