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
- a line: ``{"line", "score", "n", "points", "contract", "taker", "outcome"}``;
- a ranking's row: ``{"rank", "entrant", "name", "player", "played", "percent", "difference"}``.

**The ranking** is made by the store itself from every result (``ranker``: a function of a
``RankJob``), off the event loop: in a bots' worker process when the server has them, else in a
thread. A field of 100,000 entrants is 800,000 results to read and 100,000 rows to write; made in the
server's own process it would hold the interpreter's lock for seconds, and every request would wait
on it (a traveller took 5 s during one). In SQLite the rankings live in a file of their own beside the
tables' (``rankings_path``, ``tournaments.rankings.sqlite3`` beside ``tournaments.sqlite3``): they are
remade from the results whenever needed, and their writing holds no write of the tables' file.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import secrets
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

from belote.server.store import SQLiteStore
from belote.tournament import Distribution, Standing, ranked

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

    def close(self) -> None:
        """What the store holds of its own goes (the server stops)."""
        ...

    def ranker(self) -> tuple[Callable[[RankJob], int], bool]:
        """The function that makes a tournament's ranking from every result it has and keeps it
        (unless one made from more results is kept already), returning the results it counted; and
        whether it may run in another process (a module's function, picklable) or only in a thread
        of this one."""
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
-- What a ranking reads of every result, in the order it groups them: the index alone answers it.
CREATE INDEX IF NOT EXISTS tournament_results_ranking
    ON tournament_results (tournament, entrant, board, score, name, player);
CREATE TABLE IF NOT EXISTS tournament_lines (
    tournament TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    board INTEGER NOT NULL,
    line TEXT NOT NULL,
    score REAL NOT NULL,
    n INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (tournament, board, line)
);
DROP TABLE IF EXISTS tournament_ranks;
DROP TABLE IF EXISTS tournament_rankings;
"""


@dataclass(frozen=True)
class RankJob:
    """A ranking to make: of the tournament ``tournament`` of ``boards`` boards, each board's bots'
    scores in their order (the fill-in field: ``tournament.field_of``), made at ``at``. A board whose
    bots' results are not worked out yet (None) is left out, its results not counted: the next
    ranking counts them."""

    tournament: str
    boards: int
    bots: tuple[tuple[float, ...] | None, ...]
    at: float


def board_points(
    counts: Sequence[Mapping[float, int]], bots: Sequence[Sequence[float] | None]
) -> dict[tuple[int, float], tuple[float, float]]:
    """The matchpoints (%) and the difference of each score of each board, from the board's results
    counted by score and its bots' scores: (board, score) -> (percent, difference). A few hundred
    entries whatever the field: a result's are those of its score.

    >>> board_points([{0.0: 1, 10.0: 2, 20.0: 1}], [[]])[(0, 10.0)]
    (50.0, 0.0)
    """
    out: dict[tuple[int, float], tuple[float, float]] = {}
    for board, counted in enumerate(counts):
        field = bots[board]
        if field is None:
            continue
        dist = Distribution(counted)
        for score in dist.counts:
            out[(board, score)] = (
                dist.matchpoints(score, list(field)) or 0.0,
                dist.difference(score, list(field)) or 0.0,
            )
    return out


def ranking_rows(
    boards: int, scores: Sequence[tuple[str, str, str | None, int, float]], bots: Sequence[Sequence[float] | None]
) -> list[dict[str, Any]]:
    """A ranking's rows in order (without ranks) from every result (entrant, name, player, board,
    score) and each board's bots' scores: what ``ranker`` keeps, worked out in Python (the Redis
    store's ranker, and the tests' reference for the SQLite one's SQL). An entrant's name and player
    are those of the result of their last board."""
    counts: list[dict[float, int]] = [{} for _ in range(boards)]
    scores = [s for s in scores if 0 <= s[3] < boards and bots[s[3]] is not None]
    for *_, board, score in scores:
        counts[board][score] = counts[board].get(score, 0) + 1
    points = board_points(counts, bots)
    lines: dict[str, Standing] = {}
    last: dict[str, int] = {}
    for entrant, name, player, board, score in scores:
        line = lines.get(entrant)
        if line is None:
            line = lines[entrant] = Standing(entrant, name, player)
        if board > last.get(entrant, -1):
            line.name, line.player, last[entrant] = name, player, board
        line.percents[board], line.differences[board] = points[(board, score)]
    return [
        {
            "entrant": s.entrant,
            "name": s.name,
            "player": s.player,
            "played": s.played,
            "percent": round(s.percent, 2),
            "difference": round(s.difference, 2),
        }
        for s in ranked(lines.values(), boards)
    ]


def _row(row: tuple[Any, ...]) -> dict[str, Any]:
    rank, entrant, name, player, played, percent, difference = row
    return {
        "entrant": entrant,
        "name": name,
        "player": player,
        "played": int(played),
        "percent": float(percent),
        "difference": float(difference),
        "rank": int(rank),
    }


def rankings_path(path: Path) -> Path:
    """The file of a SQLite store's rankings, beside the tables' file.

    >>> rankings_path(Path("/var/belote/tournaments.sqlite3")).name
    'tournaments.rankings.sqlite3'
    """
    return path.with_name(f"{path.stem}.rankings{path.suffix}")


RANKINGS_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament_rankings (
    tournament TEXT PRIMARY KEY,
    results INTEGER NOT NULL,
    at REAL NOT NULL,
    total INTEGER NOT NULL,
    gen INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_ranks (
    tournament TEXT NOT NULL,
    gen INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    entrant TEXT NOT NULL,
    name TEXT NOT NULL,
    player TEXT,
    played INTEGER NOT NULL,
    percent REAL NOT NULL,
    difference REAL NOT NULL,
    PRIMARY KEY (tournament, gen, rank)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tournament_ranks_by_entrant ON tournament_ranks (tournament, gen, entrant);
"""
#: The memory a ranking's writer may keep its pages in (kilobytes).
RANKING_CACHE_KB = 131_072
_RANK_COLUMNS = "rank, entrant, name, player, played, percent, difference"
#: A ranking's entrants, from every result joined to its board's and score's points: the same order
#: as ``tournament.ranked`` (played, mean percentage, mean difference, name, entrant); an entrant's
#: name and player those of their last board (the bare columns of ``max(board)``). The aliases are
#: not the columns' names: in an expression of ORDER BY a column's name would be read first.
_RANKING_SQL = """
SELECT entrant, name, player, max(r.board), count(*) AS boards,
       sum(p.percent) / count(*) AS mean_percent, sum(p.difference) / count(*) AS mean_difference
FROM tournament_results r JOIN temp.rank_points p ON p.board = r.board AND p.score = r.score
WHERE r.tournament = ? AND r.board < ?
GROUP BY r.entrant
ORDER BY boards DESC, round(mean_percent, 9) DESC, round(mean_difference, 9) DESC, name, entrant
"""


def rank_into(source: sqlite3.Connection, target: sqlite3.Connection, job: RankJob) -> int:
    """``job``'s ranking from the results read on ``source``, kept on ``target`` (the same connection
    for a store in memory), each in a transaction the caller holds: the results counted."""
    counts: list[dict[float, int]] = [{} for _ in range(job.boards)]
    results = 0
    for board, score, n in source.execute(
        "SELECT board, score, sum(n) FROM tournament_lines WHERE tournament = ? GROUP BY board, score",
        (job.tournament,),
    ):
        if 0 <= board < job.boards and job.bots[board] is not None:
            counts[board][float(score)] = int(n)
            results += int(n)
    kept = target.execute(
        "SELECT results, gen FROM tournament_rankings WHERE tournament = ?", (job.tournament,)
    ).fetchone()
    if kept is not None and kept[0] > results:  # made from more results (by another process)
        return int(kept[0])
    source.execute(
        "CREATE TEMP TABLE IF NOT EXISTS rank_points "
        "(board INTEGER, score REAL, percent REAL, difference REAL, PRIMARY KEY (board, score))"
    )
    source.execute("DELETE FROM temp.rank_points")
    source.executemany(
        "INSERT INTO temp.rank_points VALUES (?, ?, ?, ?)",
        ((b, s, pc, d) for (b, s), (pc, d) in board_points(counts, job.bots).items()),
    )
    rows = source.execute(_RANKING_SQL, (job.tournament, job.boards)).fetchall()
    gen = secrets.randbits(62)
    target.executemany(
        f"INSERT INTO tournament_ranks (tournament, gen, {_RANK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (job.tournament, gen, i, entrant, name, player, played, round(percent, 2), round(difference, 2))
            for i, (entrant, name, player, _, played, percent, difference) in enumerate(rows, 1)
        ),
    )
    target.execute(
        "INSERT INTO tournament_rankings (tournament, results, at, total, gen) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (tournament) DO UPDATE SET results = excluded.results, at = excluded.at, "
        "total = excluded.total, gen = excluded.gen",
        (job.tournament, results, job.at, len(rows), gen),
    )
    if kept is not None:
        target.execute("DELETE FROM tournament_ranks WHERE tournament = ? AND gen = ?", (job.tournament, kept[1]))
    return results


def rank_sqlite(paths: tuple[str, str], job: RankJob) -> int:
    """``job``'s ranking from the tables' file ``paths[0]`` (read only) into the rankings' file
    ``paths[1]``, in any process. The rankings' write lock is taken before the results are read: a
    player's deletion (``forget_player``), which renames them in the rankings after the results,
    either waits for this ranking and renames in it too, or comes first and this ranking reads the
    results renamed."""
    source = sqlite3.connect(f"file:{quote(paths[0])}?mode=ro", uri=True, timeout=60, isolation_level=None)
    target = sqlite3.connect(paths[1], timeout=60, isolation_level=None)
    try:
        source.execute("PRAGMA temp_store=MEMORY")  # the points, and the sort of the entrants
        # A ranking's rows go in a few large b-trees: in memory until the commit (128 MB at most);
        # the file is remade from the results, a power cut may lose its last ranking, not corrupt it.
        target.execute(f"PRAGMA cache_size=-{RANKING_CACHE_KB}")
        target.execute("PRAGMA synchronous=NORMAL")
        target.execute("BEGIN IMMEDIATE")
        source.execute("BEGIN")
        try:
            done = rank_into(source, target, job)
        except BaseException:
            target.execute("ROLLBACK")
            raise
        target.execute("COMMIT")
        source.execute("COMMIT")
        return done
    finally:
        source.close()
        target.close()


_RESULT_KEYS = ("tournament", "board", "entrant", "name", "player", "score", "line", "at")


class SQLiteTournaments:
    """The tournaments in the SQLite file of the tables."""

    def __init__(self, store: SQLiteStore) -> None:
        self.store = store
        store.prepare(SCHEMA)
        self._ranks_lock = threading.Lock()
        self._ranks: sqlite3.Connection | None = None
        self._ranks_path: Path | None = None
        if str(store.path) == ":memory:":  # the rankings in the same memory
            store.prepare(RANKINGS_SCHEMA)
            return
        self._ranks_path = rankings_path(store.path)
        db = sqlite3.connect(self._ranks_path, check_same_thread=False, isolation_level=None, timeout=60)
        db.execute("PRAGMA journal_mode=WAL")  # read while a ranking is written
        db.executescript(RANKINGS_SCHEMA)
        self._ranks = db

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

    def ranker(self) -> tuple[Callable[[RankJob], int], bool]:
        if self._ranks_path is None:  # a store in memory: its own connection, in a thread
            return self._rank_here, False
        return functools.partial(rank_sqlite, (str(self.store.path), str(self._ranks_path))), True

    def _rank_here(self, job: RankJob) -> int:
        with self.store.transaction() as db:
            return rank_into(db, db, job)

    @contextlib.contextmanager
    def _reading_ranks(self) -> Iterator[sqlite3.Connection]:
        if self._ranks is None:
            with self.store.reading() as db:
                yield db
            return
        with self._ranks_lock:
            self._ranks.execute("BEGIN")  # the head and the rows of one generation
            try:
                yield self._ranks
            finally:
                self._ranks.execute("COMMIT")

    async def ranking(self, tournament_id: str, offset: int, limit: int) -> dict[str, Any] | None:
        with self._reading_ranks() as db:
            head = db.execute(
                "SELECT results, at, total, gen FROM tournament_rankings WHERE tournament = ?", (tournament_id,)
            ).fetchone()
            if head is None:
                return None
            rows = db.execute(
                f"SELECT {_RANK_COLUMNS} FROM tournament_ranks WHERE tournament = ? AND gen = ? "
                "AND rank > ? AND rank <= ? ORDER BY rank",
                (tournament_id, head[3], offset, offset + limit),
            ).fetchall()
        return {"results": int(head[0]), "at": float(head[1]), "total": int(head[2]), "rows": [_row(r) for r in rows]}

    async def rank_of(self, tournament_id: str, entrant: str) -> dict[str, Any] | None:
        with self._reading_ranks() as db:  # the head's generation, then the row by its index
            head = db.execute("SELECT gen FROM tournament_rankings WHERE tournament = ?", (tournament_id,)).fetchone()
            row = (
                None
                if head is None
                else db.execute(
                    f"SELECT {_RANK_COLUMNS} FROM tournament_ranks INDEXED BY tournament_ranks_by_entrant "
                    "WHERE tournament = ? AND gen = ? AND entrant = ?",
                    (tournament_id, head[0], entrant),
                ).fetchone()
            )
        return None if row is None else _row(row)

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
            db.execute("DELETE FROM tournament_entries WHERE entrant = ?", (player,))
            db.execute(  # the private tournaments they host have no host any more
                "UPDATE tournaments SET data = json_set(data, '$.host', json('null')) "
                "WHERE json_extract(data, '$.host') = ?",
                (player,),
            )
        # Then in the rankings (after the results: see ``rank_sqlite``), in a thread: a ranking being
        # written holds their file for a second or two.
        ranked = sorted({(str(t), str(e)) for t, _, e, _ in rows})
        await asyncio.to_thread(self._forget_ranks, ranked, gone, name)

    def _forget_ranks(self, ranked: list[tuple[str, str]], gone: str, name: str) -> None:
        rename = "UPDATE tournament_ranks SET entrant = ?, name = ?, player = NULL WHERE tournament = ? AND entrant = ?"
        if self._ranks_path is None:
            with self.store.transaction() as db:
                db.executemany(rename, ((gone, name, t, e) for t, e in ranked))
            return
        db = sqlite3.connect(self._ranks_path, timeout=60, isolation_level=None)
        try:
            db.execute("BEGIN IMMEDIATE")
            db.executemany(rename, ((gone, name, t, e) for t, e in ranked))
            db.execute("COMMIT")
        finally:
            db.close()

    def close(self) -> None:
        """The rankings' connection goes (the tables' is the store's)."""
        if self._ranks is not None:
            with self._ranks_lock:
                self._ranks.close()
                self._ranks = None
