"""Where the players live: identities, their secrets' digests, ratings, results, statistics, friends.

Two homes behind one interface (``PlayerStore``), like the tables' (``belote.server.hub``): the
SQLite file of the tables (``SQLitePlayers``, one process) and Redis (``belote.server.redis_players``,
any number of processes; the leaderboards are sorted sets there). Both are held to the same
behaviour by tests/test_player_store.py.

What is stored of a person: the identity's id (public, in the profile's address), its display name
and tag (``Léa#4821``), the SHA-256 digests of its secrets (one per device it was carried to: a
secret is 128 random bits, so a fast digest is enough; never the secret itself), the Argon2id hash
of its password if it set one, its ratings and their history, its finished matches and statistics,
its friends and the players it blocked. ``delete_player`` removes every one of them; the matches of
the other players keep the deleted player's seat with no id and a neutral name.

Every method is a coroutine: the Redis store awaits the network, the SQLite one answers at once.
Records are plain dicts, the same in both stores:

- a player: ``{"id", "name", "tag", "created", "password"}`` (``password``: the Argon2id hash or None);
- a rating: ``{"mu", "sigma", "matches", "rating", "updated"}`` (``rating``: ``ratings.shown``);
- a match: ``{"id", "game", "table", "finished", "rated", "score", "winner", "sides"}``, each side a
  list of seats ``{"seat", "name", "player", "bot"}``, and ``"changes"``: player -> ``{"before",
  "after"}`` (shown ratings) for a rated match;
- statistics: counters by name (``player_stats.COUNTERS``), summed over the player's matches.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
import sqlite3
from typing import Any, Protocol

from belote.server.store import SQLiteStore, StoreFull

log = logging.getLogger(__name__)

#: A name's tags: four digits, drawn until one is free for that name (as it reads: ``folded_name``).
TAGS = range(1000, 10000)
#: Rated matches kept in a rating's history (the chart of the profile).
HISTORY = 200
WEEK = 7 * 24 * 3600
#: Monday 5 January 1970, 00:00 UTC: the weeks are counted from it.
MONDAY = 4 * 24 * 3600


class PlayerStore(Protocol):
    async def add_player(self, player_id: str, name: str, folded: str, secret: str, now: float) -> int:
        """A new identity called ``name`` (``folded``: as it reads) with one secret's digest; its tag."""
        ...

    async def player(self, player_id: str) -> dict[str, Any] | None: ...

    async def by_secret(self, secret: str) -> dict[str, Any] | None:
        """The player holding the secret of this digest."""
        ...

    async def by_handle(self, folded: str, tag: int) -> dict[str, Any] | None: ...

    async def rename(self, player_id: str, name: str, folded: str) -> int:
        """The player's new name and the tag it now has (its old one when still free for the name)."""
        ...

    async def set_password(self, player_id: str, hashed: str | None) -> None: ...

    async def add_secret(self, player_id: str, secret: str) -> None:
        """Another device's secret (its digest) for the player."""
        ...

    async def add_transfer(self, code: str, player_id: str, expires: float) -> None:
        """A one-time transfer code's digest, valid until ``expires`` (unix seconds)."""
        ...

    async def take_transfer(self, code: str, now: float) -> str | None:
        """The player of a transfer code's digest, which is used up; None when unknown or expired."""
        ...

    async def delete_player(self, player_id: str) -> None:
        """Everything of the player: identity, secrets, ratings, history, statistics, friends, blocks;
        in the matches of others, their seat keeps no id and a neutral name."""
        ...

    async def ratings(self, player_id: str) -> dict[str, dict[str, Any]]:
        """The player's rating in each game they have one in."""
        ...

    async def finish_match(
        self,
        match: dict[str, Any],
        ratings: dict[str, dict[str, Any]],
        stats: dict[str, dict[str, int]],
        at: float,
        records: str = "",
    ) -> bool:
        """Keep a finished match (once: False when its id is already kept), the new ``ratings`` of its
        people (player -> rating, for a rated match), what the match adds to their ``stats``, and
        its deals' ``records`` (JSON lines), kept as long as the match."""
        ...

    async def match(self, match_id: str) -> dict[str, Any] | None:
        """A kept match, or None."""
        ...

    async def match_records(self, match_id: str) -> str | None:
        """The records of a kept match's deals (JSON lines), or None."""
        ...

    async def recent(self, player_id: str, limit: int) -> list[dict[str, Any]]:
        """The player's last matches, the latest first."""
        ...

    async def history(self, player_id: str, game: str) -> list[dict[str, Any]]:
        """The player's rating after each rated match of ``game`` (``{"at", "rating"}``), oldest first;
        the last ``HISTORY``."""
        ...

    async def stats(self, player_id: str) -> dict[str, dict[str, int]]:
        """The player's statistics counters, by game."""
        ...

    async def add_stats(self, player_id: str, game: str, counters: dict[str, int]) -> None: ...

    async def add_analysis(self, player_id: str, game: str, deal: str, counters: dict[str, int]) -> bool:
        """Add the counters of an analysed deal (``deal``: its key) to the player's, once a deal:
        False, adding nothing, when that deal was added before (or the player is gone)."""
        ...

    async def leaderboard(self, game: str, since: float | None, limit: int) -> list[dict[str, Any]]:
        """The best of ``game``: all time (``since`` None) by rating; since a time, by the rating won
        since then. Rows ``{"player", "name", "tag", "rating", "matches", "gained"?}``, best first."""
        ...

    async def add_friend(self, player_id: str, other: str) -> None: ...

    async def remove_friend(self, player_id: str, other: str) -> None: ...

    async def friends(self, player_id: str) -> dict[str, list[str]]:
        """``{"friends": both added each other, "asked": added by the player only, "asking": those who
        added the player, not added back}``, each a list of ids."""
        ...

    async def block(self, player_id: str, other: str) -> None: ...

    async def unblock(self, player_id: str, other: str) -> None: ...

    async def blocked(self, player_id: str) -> list[str]: ...


PLAYERS_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    folded TEXT NOT NULL,
    tag INTEGER NOT NULL,
    password TEXT,
    created REAL NOT NULL,
    UNIQUE (folded, tag)
);
CREATE TABLE IF NOT EXISTS player_secrets (
    digest TEXT PRIMARY KEY,
    player TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS player_secrets_by_player ON player_secrets (player);
CREATE TABLE IF NOT EXISTS transfers (
    digest TEXT PRIMARY KEY,
    player TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    player TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    matches INTEGER NOT NULL,
    rating INTEGER NOT NULL,
    updated REAL NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE INDEX IF NOT EXISTS ratings_by_game ON ratings (game, rating DESC);
CREATE TABLE IF NOT EXISTS rating_history (
    player TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    at REAL NOT NULL,
    rating INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS rating_history_by_player ON rating_history (player, game, at);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS match_records (
    match TEXT PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS match_players (
    player TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    match TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    at REAL NOT NULL,
    gained INTEGER,
    PRIMARY KEY (player, at, match)
);
CREATE INDEX IF NOT EXISTS match_players_by_game ON match_players (game, at);
CREATE INDEX IF NOT EXISTS match_players_by_match ON match_players (match);
CREATE TABLE IF NOT EXISTS week_gains (
    game TEXT NOT NULL,
    week INTEGER NOT NULL,
    player TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    gained INTEGER NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (game, week, player)
);
CREATE INDEX IF NOT EXISTS week_gains_by_gain ON week_gains (game, week, gained DESC);
CREATE INDEX IF NOT EXISTS week_gains_by_player ON week_gains (player);
CREATE TABLE IF NOT EXISTS player_stats (
    player TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE TABLE IF NOT EXISTS player_analysed (
    player TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    deal TEXT NOT NULL,
    PRIMARY KEY (player, deal)
);
CREATE TABLE IF NOT EXISTS friends (
    player TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    other TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    PRIMARY KEY (player, other)
);
CREATE INDEX IF NOT EXISTS friends_by_other ON friends (other);
CREATE TABLE IF NOT EXISTS blocks (
    player TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    other TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    PRIMARY KEY (player, other)
);
"""

#: The weekly totals of a file's rated matches (``week_gains``), summed from its matches once.
SUM_WEEKS = (
    "INSERT INTO week_gains (game, week, player, gained, n) "
    "SELECT game, week_of(at), player, sum(gained), count(*) FROM match_players "
    "WHERE gained IS NOT NULL GROUP BY game, week_of(at), player"
)

#: The name a deleted player's seat keeps in the matches of others.
NEUTRAL_NAME = "Player"


def week_of(at: float) -> int:
    """The Monday 00:00 UTC (unix seconds) that begins the week of ``at``.

    >>> week_of(1764892800.0), week_of(1764547200.0), week_of(1764547199.5)  # Fri 5, Mon 1 December 2025
    (1764547200, 1764547200, 1763942400)
    """
    start = math.floor((at - MONDAY) / WEEK) * WEEK + MONDAY
    if start > at:
        start -= WEEK
    elif start + WEEK <= at:
        start += WEEK
    return int(start)


def free_tag(taken: set[int]) -> int:
    """A tag not in ``taken``, drawn at random (a name of 9,000 players has no tag left: ValueError)."""
    if len(taken) >= len(TAGS):
        raise ValueError("no tag is left for that name")
    while True:
        tag = TAGS[secrets.randbelow(len(TAGS))]
        if tag not in taken:
            return tag


def neutral(match: dict[str, Any], player_id: str) -> dict[str, Any]:
    """``match`` with the seats of ``player_id`` made anonymous and its rating change removed."""
    for side in match["sides"]:
        for seat in side:
            if seat.get("player") == player_id:
                seat["player"], seat["name"] = None, NEUTRAL_NAME
    match.get("changes", {}).pop(player_id, None)
    return match


def _player(row: tuple[Any, ...] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    pid, name, tag, password, created = row
    return {"id": pid, "name": name, "tag": tag, "password": password, "created": created}


_PLAYER = "SELECT p.id, p.name, p.tag, p.password, p.created FROM players p"


class SQLitePlayers:
    """The players in the SQLite file of the tables."""

    def __init__(self, store: SQLiteStore) -> None:
        self.store = store
        store.prepare(PLAYERS_SCHEMA)
        self._sum_weeks()

    def _sum_weeks(self) -> None:
        """Fill the weekly totals of a file written before it kept them, from its rated matches (once:
        a file that has any, or no rated match, writes nothing)."""
        if self._one("SELECT 1 FROM week_gains LIMIT 1", ()) or not self._one(
            "SELECT 1 FROM match_players WHERE gained IS NOT NULL LIMIT 1", ()
        ):
            return
        try:
            with self.store.transaction() as db:
                db.create_function("week_of", 1, week_of, deterministic=True)
                db.execute(SUM_WEEKS)
        except StoreFull:  # counted from the next rated match on; the log says the disk is full
            log.warning("the weekly leaderboards of %s could not be summed: the disk is full", self.store.path)

    def _one(self, sql: str, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
        with self.store.reading() as db:
            row: tuple[Any, ...] | None = db.execute(sql, args).fetchone()
            return row

    def _all(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self.store.reading() as db:
            return list(db.execute(sql, args).fetchall())

    async def add_player(self, player_id: str, name: str, folded: str, secret: str, now: float) -> int:
        with self.store.transaction() as db:
            taken = {t for (t,) in db.execute("SELECT tag FROM players WHERE folded = ?", (folded,))}
            tag = free_tag(taken)
            db.execute(
                "INSERT INTO players (id, name, folded, tag, created) VALUES (?, ?, ?, ?, ?)",
                (player_id, name, folded, tag, now),
            )
            db.execute("INSERT INTO player_secrets (digest, player) VALUES (?, ?)", (secret, player_id))
        return tag

    async def player(self, player_id: str) -> dict[str, Any] | None:
        return _player(self._one(_PLAYER + " WHERE p.id = ?", (player_id,)))

    async def by_secret(self, secret: str) -> dict[str, Any] | None:
        sql = _PLAYER + " JOIN player_secrets s ON s.player = p.id WHERE s.digest = ?"
        return _player(self._one(sql, (secret,)))

    async def by_handle(self, folded: str, tag: int) -> dict[str, Any] | None:
        return _player(self._one(_PLAYER + " WHERE p.folded = ? AND p.tag = ?", (folded, tag)))

    async def rename(self, player_id: str, name: str, folded: str) -> int:
        with self.store.transaction() as db:
            row = db.execute("SELECT folded, tag FROM players WHERE id = ?", (player_id,)).fetchone()
            if row is None:
                raise KeyError(player_id)
            old_folded, tag = row
            if old_folded != folded:
                taken = {t for (t,) in db.execute("SELECT tag FROM players WHERE folded = ?", (folded,))}
                if tag in taken:
                    tag = free_tag(taken)
            db.execute("UPDATE players SET name = ?, folded = ?, tag = ? WHERE id = ?", (name, folded, tag, player_id))
        return int(tag)

    async def set_password(self, player_id: str, hashed: str | None) -> None:
        with self.store.transaction() as db:
            db.execute("UPDATE players SET password = ? WHERE id = ?", (hashed, player_id))

    async def add_secret(self, player_id: str, secret: str) -> None:
        with self.store.transaction() as db:
            db.execute("INSERT INTO player_secrets (digest, player) VALUES (?, ?)", (secret, player_id))

    async def add_transfer(self, code: str, player_id: str, expires: float) -> None:
        with self.store.transaction() as db:
            db.execute("DELETE FROM transfers WHERE player = ?", (player_id,))  # one code at a time
            db.execute("INSERT INTO transfers (digest, player, expires) VALUES (?, ?, ?)", (code, player_id, expires))

    async def take_transfer(self, code: str, now: float) -> str | None:
        with self.store.transaction() as db:
            row = db.execute("SELECT player, expires FROM transfers WHERE digest = ?", (code,)).fetchone()
            db.execute("DELETE FROM transfers WHERE digest = ? OR expires < ?", (code, now))
        if row is None or row[1] < now:
            return None
        return str(row[0])

    async def delete_player(self, player_id: str) -> None:
        with self.store.transaction() as db:
            ids = [m for (m,) in db.execute("SELECT match FROM match_players WHERE player = ?", (player_id,))]
            for match_id in ids:
                row = db.execute("SELECT data FROM matches WHERE id = ?", (match_id,)).fetchone()
                others = db.execute(
                    "SELECT count(*) FROM match_players WHERE match = ? AND player != ?", (match_id, player_id)
                ).fetchone()[0]
                if row is None:
                    continue
                if others:
                    data = neutral(json.loads(row[0]), player_id)
                    db.execute("UPDATE matches SET data = ? WHERE id = ?", (json.dumps(data), match_id))
                else:  # nobody else keeps it
                    db.execute("DELETE FROM matches WHERE id = ?", (match_id,))
            db.execute("DELETE FROM players WHERE id = ?", (player_id,))  # the rest cascades

    async def ratings(self, player_id: str) -> dict[str, dict[str, Any]]:
        rows = self._all("SELECT game, mu, sigma, matches, rating, updated FROM ratings WHERE player = ?", (player_id,))
        return {
            game: {"mu": mu, "sigma": sigma, "matches": n, "rating": rating, "updated": updated}
            for game, mu, sigma, n, rating, updated in rows
        }

    async def finish_match(
        self,
        match: dict[str, Any],
        ratings: dict[str, dict[str, Any]],
        stats: dict[str, dict[str, int]],
        at: float,
        records: str = "",
    ) -> bool:
        people = {seat["player"] for side in match["sides"] for seat in side if seat.get("player")}
        with self.store.transaction() as db:
            try:
                db.execute("INSERT INTO matches (id, data) VALUES (?, ?)", (match["id"], json.dumps(match)))
            except sqlite3.IntegrityError:
                return False
            if records:
                db.execute("INSERT INTO match_records (match, data) VALUES (?, ?)", (match["id"], records))
            known = {p for p in people if db.execute("SELECT 1 FROM players WHERE id = ?", (p,)).fetchone()}
            changes = match.get("changes", {})
            for p in sorted(known):
                change = changes.get(p)
                gained = None if change is None else change["after"] - change["before"]
                db.execute(
                    "INSERT INTO match_players (player, match, game, at, gained) VALUES (?, ?, ?, ?, ?)",
                    (p, match["id"], match["game"], at, gained),
                )
                if gained is not None:
                    db.execute(
                        "INSERT INTO week_gains (game, week, player, gained, n) VALUES (?, ?, ?, ?, 1) "
                        "ON CONFLICT (game, week, player) DO UPDATE SET gained = gained + excluded.gained, n = n + 1",
                        (match["game"], week_of(at), p, gained),
                    )
                if p in ratings:
                    r = ratings[p]
                    db.execute(
                        "INSERT INTO ratings (player, game, mu, sigma, matches, rating, updated) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player, game) DO UPDATE SET mu = excluded.mu, "
                        "sigma = excluded.sigma, matches = excluded.matches, rating = excluded.rating, "
                        "updated = excluded.updated",
                        (p, match["game"], r["mu"], r["sigma"], r["matches"], r["rating"], at),
                    )
                    db.execute(
                        "INSERT INTO rating_history (player, game, at, rating) VALUES (?, ?, ?, ?)",
                        (p, match["game"], at, r["rating"]),
                    )
                if p in stats:
                    self._add_stats(db, p, match["game"], stats[p])
        return True

    @staticmethod
    def _add_stats(db: sqlite3.Connection, player_id: str, game: str, counters: dict[str, int]) -> None:
        row = db.execute("SELECT data FROM player_stats WHERE player = ? AND game = ?", (player_id, game)).fetchone()
        data: dict[str, int] = {} if row is None else json.loads(row[0])
        for k, v in counters.items():
            data[k] = data.get(k, 0) + v
        db.execute(
            "INSERT INTO player_stats (player, game, data) VALUES (?, ?, ?) "
            "ON CONFLICT (player, game) DO UPDATE SET data = excluded.data",
            (player_id, game, json.dumps(data, sort_keys=True)),
        )

    async def add_stats(self, player_id: str, game: str, counters: dict[str, int]) -> None:
        with self.store.transaction() as db:
            if db.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)).fetchone():
                self._add_stats(db, player_id, game, counters)

    async def add_analysis(self, player_id: str, game: str, deal: str, counters: dict[str, int]) -> bool:
        with self.store.transaction() as db:
            if not db.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)).fetchone():
                return False
            added = db.execute(
                "INSERT OR IGNORE INTO player_analysed (player, deal) VALUES (?, ?)", (player_id, deal)
            ).rowcount
            if added:
                self._add_stats(db, player_id, game, counters)
        return bool(added)

    async def match(self, match_id: str) -> dict[str, Any] | None:
        row = self._one("SELECT data FROM matches WHERE id = ?", (match_id,))
        return None if row is None else dict(json.loads(row[0]))

    async def match_records(self, match_id: str) -> str | None:
        row = self._one("SELECT data FROM match_records WHERE match = ?", (match_id,))
        return None if row is None else str(row[0])

    async def recent(self, player_id: str, limit: int) -> list[dict[str, Any]]:
        rows = self._all(
            "SELECT m.data FROM match_players mp JOIN matches m ON m.id = mp.match "
            "WHERE mp.player = ? ORDER BY mp.at DESC LIMIT ?",
            (player_id, limit),
        )
        return [json.loads(data) for (data,) in rows]

    async def history(self, player_id: str, game: str) -> list[dict[str, Any]]:
        rows = self._all(
            "SELECT at, rating FROM rating_history WHERE player = ? AND game = ? ORDER BY at DESC LIMIT ?",
            (player_id, game, HISTORY),
        )
        return [{"at": at, "rating": rating} for at, rating in reversed(rows)]

    async def stats(self, player_id: str) -> dict[str, dict[str, int]]:
        rows = self._all("SELECT game, data FROM player_stats WHERE player = ?", (player_id,))
        return {game: json.loads(data) for game, data in rows}

    async def leaderboard(self, game: str, since: float | None, limit: int) -> list[dict[str, Any]]:
        if since is None:
            rows = self._all(
                "SELECT p.id, p.name, p.tag, r.rating, r.matches FROM ratings r JOIN players p ON p.id = r.player "
                "WHERE r.game = ? ORDER BY r.rating DESC, p.id LIMIT ?",
                (game, limit),
            )
            return [{"player": i, "name": n, "tag": t, "rating": r, "matches": m} for i, n, t, r, m in rows]
        first = self._one("SELECT min(week), max(week) FROM week_gains WHERE game = ? AND week >= ?", (game, since))
        if first is None or first[0] is None:
            return []
        if first[0] == first[1]:  # one week (the route's): read from the top of its index, down to the last tie
            cut = self._one(
                "SELECT gained FROM week_gains WHERE game = ? AND week = ? ORDER BY gained DESC LIMIT 1 OFFSET ?",
                (game, first[0], limit - 1),
            )
            weeks = "SELECT player, n, gained FROM week_gains WHERE game = ? AND week = ? AND gained >= ?"
            args: tuple[Any, ...] = (game, first[0], -math.inf if cut is None else cut[0])
        else:
            weeks = (
                "SELECT player, sum(n) AS n, sum(gained) AS gained FROM week_gains "
                "WHERE game = ? AND week >= ? GROUP BY player"
            )
            args = (game, since)
        rows = self._all(
            f"SELECT w.player, p.name, p.tag, r.rating, w.n, w.gained FROM ({weeks}) w "
            "JOIN players p ON p.id = w.player JOIN ratings r ON r.player = w.player AND r.game = ? "
            "ORDER BY w.gained DESC, r.rating DESC, p.id LIMIT ?",
            (*args, game, limit),
        )
        return [{"player": i, "name": n, "tag": t, "rating": r, "matches": m, "gained": g} for i, n, t, r, m, g in rows]

    async def add_friend(self, player_id: str, other: str) -> None:
        with self.store.transaction() as db:
            db.execute("INSERT OR IGNORE INTO friends (player, other) VALUES (?, ?)", (player_id, other))

    async def remove_friend(self, player_id: str, other: str) -> None:
        with self.store.transaction() as db:
            db.execute(
                "DELETE FROM friends WHERE (player = ? AND other = ?) OR (player = ? AND other = ?)",
                (player_id, other, other, player_id),
            )

    async def friends(self, player_id: str) -> dict[str, list[str]]:
        added = {o for (o,) in self._all("SELECT other FROM friends WHERE player = ?", (player_id,))}
        adding = {p for (p,) in self._all("SELECT player FROM friends WHERE other = ?", (player_id,))}
        return {
            "friends": sorted(added & adding),
            "asked": sorted(added - adding),
            "asking": sorted(adding - added),
        }

    async def block(self, player_id: str, other: str) -> None:
        with self.store.transaction() as db:
            db.execute("INSERT OR IGNORE INTO blocks (player, other) VALUES (?, ?)", (player_id, other))
            db.execute(
                "DELETE FROM friends WHERE (player = ? AND other = ?) OR (player = ? AND other = ?)",
                (player_id, other, other, player_id),
            )

    async def unblock(self, player_id: str, other: str) -> None:
        with self.store.transaction() as db:
            db.execute("DELETE FROM blocks WHERE player = ? AND other = ?", (player_id, other))

    async def blocked(self, player_id: str) -> list[str]:
        return sorted(o for (o,) in self._all("SELECT other FROM blocks WHERE player = ?", (player_id,)))
