"""Where the tournaments live (docs/tournaments.md): their definitions, the bots' results of their
boards, each entrant's tables and results, each board's results counted by line, and the last
ranking made.

Two homes behind one interface (``TournamentStore``), like the players' (``player_store``): the SQLite
file of the tables (``SQLiteTournaments``) and Redis (``belote.server.redis_tournaments``). Both are
held to the same behaviour by tests/test_tournament_store.py. Every method is a coroutine.

Records are plain dicts, the same in both stores:

- a tournament: ``{"id", "kind" (daily | private), "name", "game", "settings", "boards", "opens",
  "closes", "created", "host", "invite", "seed"}`` (``seed`` and ``invite`` never leave the server but
  in the invitation's link, to its host);
- an entry: ``{"table", "token", "seat", "started"}``: the table an entrant plays a board at;
- a result: ``{"tournament", "board", "entrant", "name", "player", "score", "line", "at", "table",
  "points", "contract", "taker", "outcome"}``; ``line`` is the key of what was made (contract, taker,
  outcome and points), whose results the traveller counts together;
- a line: ``{"line", "score", "n", "points", "contract", "taker", "outcome"}``.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sqlite3
from collections.abc import AsyncIterator
from typing import Any, Protocol

from belote.server.store import SQLiteStore

#: Names of a line's people shown in the traveller (the first to make it).
LINE_NAMES = 3
#: Results ``scores`` reads from the SQLite file at a time.
SCAN_BATCH = 5000


class TournamentStore(Protocol):
    async def create(self, tournament: dict[str, Any]) -> bool:
        """Keep a new tournament; False (keeping nothing) when its id is taken."""
        ...

    async def tournament(self, tournament_id: str) -> dict[str, Any] | None: ...

    async def tournaments(self, kind: str, game: str | None, since: float, until: float) -> list[dict[str, Any]]:
        """The tournaments of a kind (and game) that open in ``[since, until)``, by opening time."""
        ...

    async def set_bots(self, tournament_id: str, board: int, results: list[dict[str, Any]]) -> None:
        """The bots' results of a board (once made: later calls change nothing)."""
        ...

    async def bots(self, tournament_id: str, board: int) -> list[dict[str, Any]] | None: ...

    async def entry(self, tournament_id: str, board: int, entrant: str) -> dict[str, Any] | None: ...

    async def add_entry(self, tournament_id: str, board: int, entrant: str, entry: dict[str, Any]) -> dict[str, Any]:
        """The entrant's table of a board: ``entry`` when it had none, else the one it had."""
        ...

    async def add_result(self, result: dict[str, Any], line: dict[str, Any]) -> bool:
        """Keep an entrant's result of a board (once: False when it had one) and count it in its line."""
        ...

    async def result(self, tournament_id: str, board: int, entrant: str) -> dict[str, Any] | None: ...

    async def entrant_results(self, tournament_id: str, entrant: str) -> dict[int, dict[str, Any]]:
        """The entrant's results, by board."""
        ...

    async def lines(self, tournament_id: str, board: int) -> list[dict[str, Any]]:
        """A board's lines, best score first, each with ``names``: its first ``LINE_NAMES`` people."""
        ...

    async def distribution(self, tournament_id: str, board: int) -> dict[float, int]:
        """A board's results counted by score (its lines' counts, without their names)."""
        ...

    def scores(self, tournament_id: str) -> AsyncIterator[tuple[str, str, str | None, int, float]]:
        """Every result of the tournament: (entrant, name, player, board, score)."""
        ...

    async def count(self, tournament_id: str) -> int:
        """The results kept of the tournament."""
        ...

    async def save_ranking(self, tournament_id: str, results: int, at: float, rows: list[dict[str, Any]]) -> None:
        """The ranking made at ``at`` from ``results`` results: its rows in order, each a dict with
        ``entrant`` (kept unless one made from more results is kept already)."""
        ...

    async def ranking(self, tournament_id: str, offset: int, limit: int) -> dict[str, Any] | None:
        """Rows ``offset`` to ``offset + limit`` of the last ranking made: ``{"results", "at", "total",
        "rows"}`` (each row with its ``rank``, from 1); None before the first."""
        ...

    async def rank_of(self, tournament_id: str, entrant: str) -> dict[str, Any] | None:
        """The entrant's row of the last ranking made (with its ``rank``), or None."""
        ...

    async def player_results(self, player: str, since: float, until: float) -> list[dict[str, Any]]:
        """A player's results in the tournaments that opened in ``[since, until)``."""
        ...

    async def forget_player(self, player: str, name: str) -> None:
        """A deleted identity: its results keep their scores (the others' matchpoints stand) under
        ``name`` and a neutral entrant (one for all of them), with no player, in the lines' names and
        the rankings' rows too; its tables go, and the tournaments it hosts have no host."""
        ...


SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    game TEXT NOT NULL,
    opens REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tournaments_by_kind ON tournaments (kind, opens);
CREATE TABLE IF NOT EXISTS tournament_bots (
    tournament TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    board INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (tournament, board)
);
CREATE TABLE IF NOT EXISTS tournament_entries (
    tournament TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    board INTEGER NOT NULL,
    entrant TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (tournament, board, entrant)
);
CREATE TABLE IF NOT EXISTS tournament_results (
    tournament TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    board INTEGER NOT NULL,
    entrant TEXT NOT NULL,
    name TEXT NOT NULL,
    player TEXT,
    score REAL NOT NULL,
    line TEXT NOT NULL,
    at REAL NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (tournament, entrant, board)
);
CREATE INDEX IF NOT EXISTS tournament_results_by_line ON tournament_results (tournament, board, line, at);
CREATE INDEX IF NOT EXISTS tournament_results_by_player ON tournament_results (player, at);
CREATE TABLE IF NOT EXISTS tournament_lines (
    tournament TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    board INTEGER NOT NULL,
    line TEXT NOT NULL,
    score REAL NOT NULL,
    n INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (tournament, board, line)
);
CREATE TABLE IF NOT EXISTS tournament_rankings (
    tournament TEXT PRIMARY KEY REFERENCES tournaments(id) ON DELETE CASCADE,
    results INTEGER NOT NULL,
    at REAL NOT NULL,
    total INTEGER NOT NULL,
    gen INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_ranks (
    tournament TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    gen INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    entrant TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (tournament, gen, rank)
);
CREATE INDEX IF NOT EXISTS tournament_ranks_by_entrant ON tournament_ranks (tournament, gen, entrant);
"""

_RESULT_KEYS = ("tournament", "board", "entrant", "name", "player", "score", "line", "at")
#: Rows written or read in one go (one transaction, one hold of the store's lock): a ranking of
#: 100,000 entrants is written in twenty short writes, never one that holds every request up.
CHUNK = SCAN_BATCH


class SQLiteTournaments:
    """The tournaments in the SQLite file of the tables."""

    def __init__(self, store: SQLiteStore) -> None:
        self.store = store
        store.prepare(SCHEMA)

    def _one(self, sql: str, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
        with self.store.reading() as db:
            row: tuple[Any, ...] | None = db.execute(sql, args).fetchone()
            return row

    def _all(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self.store.reading() as db:
            return list(db.execute(sql, args).fetchall())

    async def create(self, tournament: dict[str, Any]) -> bool:
        with self.store.transaction() as db:
            try:
                db.execute(
                    "INSERT INTO tournaments (id, kind, game, opens, data) VALUES (?, ?, ?, ?, ?)",
                    (
                        tournament["id"],
                        tournament["kind"],
                        tournament["game"],
                        tournament["opens"],
                        json.dumps(tournament),
                    ),
                )
            except sqlite3.IntegrityError:
                return False
        return True

    async def tournament(self, tournament_id: str) -> dict[str, Any] | None:
        row = self._one("SELECT data FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else dict(json.loads(row[0]))

    async def tournaments(self, kind: str, game: str | None, since: float, until: float) -> list[dict[str, Any]]:
        sql = "SELECT data FROM tournaments WHERE kind = ? AND opens >= ? AND opens < ?"
        args: tuple[Any, ...] = (kind, since, until)
        if game is not None:
            sql += " AND game = ?"
            args = (*args, game)
        return [json.loads(d) for (d,) in self._all(sql + " ORDER BY opens, id", args)]

    async def set_bots(self, tournament_id: str, board: int, results: list[dict[str, Any]]) -> None:
        with self.store.transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO tournament_bots (tournament, board, data) VALUES (?, ?, ?)",
                (tournament_id, board, json.dumps(results)),
            )

    async def bots(self, tournament_id: str, board: int) -> list[dict[str, Any]] | None:
        row = self._one("SELECT data FROM tournament_bots WHERE tournament = ? AND board = ?", (tournament_id, board))
        return None if row is None else list(json.loads(row[0]))

    async def entry(self, tournament_id: str, board: int, entrant: str) -> dict[str, Any] | None:
        row = self._one(
            "SELECT data FROM tournament_entries WHERE tournament = ? AND board = ? AND entrant = ?",
            (tournament_id, board, entrant),
        )
        return None if row is None else dict(json.loads(row[0]))

    async def add_entry(self, tournament_id: str, board: int, entrant: str, entry: dict[str, Any]) -> dict[str, Any]:
        with self.store.transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO tournament_entries (tournament, board, entrant, data) VALUES (?, ?, ?, ?)",
                (tournament_id, board, entrant, json.dumps(entry)),
            )
            row = db.execute(
                "SELECT data FROM tournament_entries WHERE tournament = ? AND board = ? AND entrant = ?",
                (tournament_id, board, entrant),
            ).fetchone()
        return dict(json.loads(row[0]))

    async def add_result(self, result: dict[str, Any], line: dict[str, Any]) -> bool:
        t, b = result["tournament"], result["board"]
        with self.store.transaction() as db:
            try:
                db.execute(
                    "INSERT INTO tournament_results (tournament, board, entrant, name, player, score, line, at, data) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*(result[k] for k in _RESULT_KEYS), json.dumps(result)),
                )
            except sqlite3.IntegrityError:
                return False
            db.execute(
                "INSERT INTO tournament_lines (tournament, board, line, score, n, data) VALUES (?, ?, ?, ?, 1, ?) "
                "ON CONFLICT (tournament, board, line) DO UPDATE SET n = n + 1",
                (t, b, line["line"], line["score"], json.dumps(line)),
            )
        return True

    async def result(self, tournament_id: str, board: int, entrant: str) -> dict[str, Any] | None:
        row = self._one(
            "SELECT data FROM tournament_results WHERE tournament = ? AND entrant = ? AND board = ?",
            (tournament_id, entrant, board),
        )
        return None if row is None else dict(json.loads(row[0]))

    async def entrant_results(self, tournament_id: str, entrant: str) -> dict[int, dict[str, Any]]:
        rows = self._all(
            "SELECT board, data FROM tournament_results WHERE tournament = ? AND entrant = ?", (tournament_id, entrant)
        )
        return {int(b): json.loads(d) for b, d in rows}

    async def lines(self, tournament_id: str, board: int) -> list[dict[str, Any]]:
        out = []
        with self.store.reading() as db:  # the counts and the names of one moment
            rows = db.execute(
                "SELECT line, n, data FROM tournament_lines WHERE tournament = ? AND board = ? "
                "ORDER BY score DESC, line",
                (tournament_id, board),
            ).fetchall()
            for line, n, data in rows:
                names = db.execute(
                    "SELECT name FROM tournament_results WHERE tournament = ? AND board = ? AND line = ? "
                    "ORDER BY at, entrant LIMIT ?",
                    (tournament_id, board, line, LINE_NAMES),
                ).fetchall()
                out.append({**json.loads(data), "n": int(n), "names": [name for (name,) in names]})
        return out

    async def distribution(self, tournament_id: str, board: int) -> dict[float, int]:
        rows = self._all(
            "SELECT score, sum(n) FROM tournament_lines WHERE tournament = ? AND board = ? GROUP BY score",
            (tournament_id, board),
        )
        return {float(score): int(n) for score, n in rows}

    async def scores(self, tournament_id: str) -> AsyncIterator[tuple[str, str, str | None, int, float]]:
        # In batches by the primary key, the lock and the event loop let go between two: a field of
        # 100,000 entrants is not read in one go that would hold every other request of the file.
        after: tuple[str, int] = ("", -1)
        while True:
            rows = self._all(
                "SELECT entrant, name, player, board, score FROM tournament_results "
                "WHERE tournament = ? AND (entrant, board) > (?, ?) ORDER BY entrant, board LIMIT ?",
                (tournament_id, *after, SCAN_BATCH),
            )
            for entrant, name, player, board, score in rows:
                yield str(entrant), str(name), player, int(board), float(score)
            if len(rows) < SCAN_BATCH:
                return
            after = (rows[-1][0], rows[-1][3])
            await asyncio.sleep(0)

    async def count(self, tournament_id: str) -> int:
        # The lines count every result: a few hundred rows to add, never the results themselves.
        row = self._one("SELECT coalesce(sum(n), 0) FROM tournament_lines WHERE tournament = ?", (tournament_id,))
        return int(row[0]) if row else 0

    async def save_ranking(self, tournament_id: str, results: int, at: float, rows: list[dict[str, Any]]) -> None:
        """Written as a new generation, a chunk at a time, then made the current one in one step; the
        generation it replaces (or this one, when one of more results came meanwhile) is then removed a
        chunk at a time. A reader sees one ranking or the other. Each writer has a generation of its
        own (drawn at random): two rankings written at once never write into one, and neither removes
        the other's while it is written."""
        head = self._one("SELECT results FROM tournament_rankings WHERE tournament = ?", (tournament_id,))
        if head is not None and head[0] > results:
            return
        gen = secrets.randbits(62)
        for start in range(0, len(rows), CHUNK):
            with self.store.transaction() as db:
                db.executemany(
                    "INSERT INTO tournament_ranks (tournament, gen, rank, entrant, data) VALUES (?, ?, ?, ?, ?)",
                    (
                        (tournament_id, gen, i + 1, row["entrant"], json.dumps({**row, "rank": i + 1}))
                        for i, row in enumerate(rows[start : start + CHUNK], start)
                    ),
                )
            await asyncio.sleep(0)
        with self.store.transaction() as db:
            kept = db.execute(
                "SELECT results, gen FROM tournament_rankings WHERE tournament = ?", (tournament_id,)
            ).fetchone()
            if kept is not None and kept[0] > results:  # a ranking of more results came meanwhile
                old: int | None = gen
            else:
                db.execute(
                    "INSERT INTO tournament_rankings (tournament, results, at, total, gen) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (tournament) DO UPDATE SET results = excluded.results, at = excluded.at, "
                    "total = excluded.total, gen = excluded.gen",
                    (tournament_id, results, at, len(rows), gen),
                )
                old = None if kept is None else int(kept[1])
        while old is not None:  # the generation that is not kept goes, a chunk at a time
            with self.store.transaction() as db:
                done = db.execute(
                    "DELETE FROM tournament_ranks WHERE rowid IN (SELECT rowid FROM tournament_ranks "
                    "WHERE tournament = ? AND gen = ? LIMIT ?)",
                    (tournament_id, old, CHUNK),
                ).rowcount
            if done < CHUNK:
                break
            await asyncio.sleep(0)

    async def ranking(self, tournament_id: str, offset: int, limit: int) -> dict[str, Any] | None:
        with self.store.reading() as db:  # the head and the rows of one generation
            head = db.execute(
                "SELECT results, at, total, gen FROM tournament_rankings WHERE tournament = ?", (tournament_id,)
            ).fetchone()
            if head is None:
                return None
            rows = db.execute(
                "SELECT data FROM tournament_ranks WHERE tournament = ? AND gen = ? AND rank > ? AND rank <= ? "
                "ORDER BY rank",
                (tournament_id, head[3], offset, offset + limit),
            ).fetchall()
        return {
            "results": int(head[0]),
            "at": float(head[1]),
            "total": int(head[2]),
            "rows": [json.loads(d) for (d,) in rows],
        }

    async def rank_of(self, tournament_id: str, entrant: str) -> dict[str, Any] | None:
        row = self._one(
            "SELECT r.data FROM tournament_ranks r JOIN tournament_rankings h ON h.tournament = r.tournament "
            "AND h.gen = r.gen WHERE r.tournament = ? AND r.entrant = ?",
            (tournament_id, entrant),
        )
        return None if row is None else dict(json.loads(row[0]))

    async def player_results(self, player: str, since: float, until: float) -> list[dict[str, Any]]:
        rows = self._all(
            "SELECT r.data FROM tournament_results r JOIN tournaments t ON t.id = r.tournament "
            "WHERE r.player = ? AND t.opens >= ? AND t.opens < ? ORDER BY r.at",
            (player, since, until),
        )
        return [json.loads(d) for (d,) in rows]

    async def forget_player(self, player: str, name: str) -> None:
        with self.store.transaction() as db:
            rows = db.execute(
                "SELECT tournament, board, entrant, data FROM tournament_results WHERE player = ?", (player,)
            ).fetchall()
            gone = f"gone:{secrets.token_hex(8)}"  # one entrant still, named by nothing of theirs
            for tournament, board, entrant, data in rows:
                kept = {**json.loads(data), "name": name, "player": None, "entrant": gone}
                db.execute(
                    "UPDATE tournament_results SET name = ?, player = NULL, entrant = ?, data = ? "
                    "WHERE tournament = ? AND board = ? AND entrant = ?",
                    (name, kept["entrant"], json.dumps(kept), tournament, board, entrant),
                )
                db.execute(
                    "UPDATE tournament_ranks SET entrant = ?, data = json_set(data, '$.entrant', ?, '$.name', ?, "
                    "'$.player', json('null')) WHERE tournament = ? AND entrant = ?",
                    (gone, gone, name, tournament, entrant),
                )
            db.execute("DELETE FROM tournament_entries WHERE entrant = ?", (player,))
            db.execute(  # the private tournaments they host have no host any more
                "UPDATE tournaments SET data = json_set(data, '$.host', json('null')) "
                "WHERE json_extract(data, '$.host') = ?",
                (player,),
            )
