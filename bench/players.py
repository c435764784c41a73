"""Players at scale: the leaderboards, a profile and a rating update over a store of 100,000 players
and 1,000,000 finished matches, in SQLite (a temporary file) or in Redis.

The fill writes the rows (SQLite: ``executemany``, one transaction per batch, into the tables
``SQLitePlayers`` makes; its secondary indexes are dropped first and made again at the end by its own
schema) or the keys (Redis: pipelines of commands packed here, exactly the keys ``RedisPlayers``
reads: its module docstring) directly, as ``finish_match`` would have left them, while a child
process makes the matches. The data: players with a name of a list of 160
and a unique tag; four games (classic 60% of the matches, Coinche 30%, three-handed 7%, two-handed
3%), each match of two sides of two (three singles at three hands, two at two hands) drawn from the
players, the active ones more often than the others (weights of a log-normal law: a few play
hundreds of matches, a few none), about 39 matches a player on average; every match rated (between
people), the result drawn from hidden skills, the match JSON shaped as ``Players.finish`` makes it.
The ratings move by a cheap Elo-like step on mu with a shrinking sigma (OpenSkill itself would take
an hour for 4 million updates; the figures measured only read them), shown as ``ratings.shown``;
statistics counters are derived from each player's matches and results. The matches are spread over
the 52 weeks that end with the current one, whole: the weekly board reads a full week's matches
(1/52 of them) whatever the day of the run, as on a Sunday night.

Then, through the real app (starlette's TestClient over ``create_app``, gzip as a browser asks), for
each run: ``--requests`` of each of GET /api/leaderboard/classic (all time), GET
/api/leaderboard/classic?period=week and GET /api/players/{id} of players drawn uniformly (the
average of their matches is printed), after a few unmeasured ones; then ``--updates`` rating updates:
``Players.finish`` of a rated classic match of four filled players (a real finished match of one
deal, a real Meta), timed whole in the app's event loop, with its parts: the four ratings read from
the store, ``ratings.rate`` (OpenSkill, timed alone on the same inputs) and the store's write
(``finish_match``; in SQLite it includes the write-ahead log's checkpoints, which fall in the commit
of every few writes). The four are drawn as the matches' players are (the active ones more often).
Printed: the fill's time, then p50 / p99 / max in ms against the target p99 <= 50 ms and the load
average (another program busy during a run spoils its figures), and with ``--runs`` the median of
each figure over the runs (the fill is done once).

``--store redis`` starts a redis-server without persistence on a free port in a temporary folder;
``--redis URL`` uses that one instead, whose database must be empty (it is emptied again at the end).
``--db PATH`` fills that new SQLite file and keeps it, to look at its queries afterwards.

    python bench/players.py [--players 100000] [--matches 1000000] [--store sqlite|redis] [--redis URL]
                            [--requests 300] [--updates 300] [--runs 1] [--seed 1] [--db PATH]
"""

from __future__ import annotations

import argparse
import base64
import bisect
import contextlib
import hashlib
import json
import math
import multiprocessing as mp
import os
import queue
import random
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import redis
from starlette.applications import Starlette
from starlette.testclient import TestClient

from belote.game import SEATS, Match
from belote.rules import Rules
from belote.server import ratings
from belote.server.app import create_app
from belote.server.player_routes import week_start
from belote.server.player_stats import COUNTERS
from belote.server.player_store import HISTORY, PLAYERS_SCHEMA, SUM_WEEKS, WEEK, SQLitePlayers, week_of
from belote.server.players import Players
from belote.server.room import Meta, Seat, check_settings, folded_name, new_match
from belote.server.store import SQLiteStore
from belote.server.tables import ServerConfig
from ops import free_port

#: The games and their share of the matches.
GAMES = {"classic": 0.60, "coinche": 0.30, "three-handed": 0.07, "two-handed": 0.03}
WEEKS = 52
BATCH = 20_000  # matches a transaction (SQLite) or a pipeline (Redis)
TARGET_MS = 50.0  # p99 of each figure
WARMUP = 5  # unmeasured requests of each route first
TICKETS = 10  # draw tickets a player on average
PIPELINE = 10_000  # Redis commands sent before their replies are read
PIPELINE_BYTES = 4_000_000  # or as many bytes of them
#: ``RedisLink``'s default key prefix, which ``create_app(redis_url=...)`` uses.
PREFIX = "belote:"
_NAMES = (
    "Léa Emma Chloé Manon Camille Inès Jade Louise Zoé Lina Alice Lucie Sarah Juliette Léna Eva Anna Rose Mila "
    "Ambre Clara Romane Agathe Margaux Julia Mathilde Océane Élise Maëlys Capucine Jeanne Adèle Nina Lou Iris "
    "Apolline Charlotte Victoire Gabrielle Héloïse Lola Noémie Pauline Marie Claire Sophie Anaïs Cécile Aurélie "
    "Hélène Margot Élodie Morgane Justine Solène Maïwenn Yasmine Amina Salomé Bérénice Gaëlle Laure Estelle "
    "Fanny Colette Odette Simone Thérèse Gabriel Léo Raphaël Louis Arthur Jules Adam Maël Lucas Hugo Noah Liam "
    "Sacha Gabin Nathan Ethan Paul Tom Mathis Théo Victor Martin Timéo Axel Nolan Aaron Enzo Mohamed Baptiste "
    "Antoine Clément Maxime Alexandre Thomas Nicolas Julien Pierre François Jérôme Stéphane Frédéric Benoît "
    "Cédric Rémi Loïc Gaël Yann Erwan Killian Quentin Romain Florian Damien Sébastien Olivier Christophe "
    "Philippe Michel Jean André Bernard Gérard René Marcel Lucien Émile Gaston Fernand Raymond Jacques Yves "
    "Hervé Patrice Thierry Bruno Didier Pascal Joël Régis Serge Gilles Alain Denis Franck Lionel Mickaël "
    "Anthony Kevin Dylan Bastien Corentin Valentin"
)
NAMES = tuple(_NAMES.split())


# --------------------------------------------------------------------------- figures
def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile ``q`` (0 to 100) of the values; nan when there are none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def spread(name: str, seconds: list[float]) -> dict[str, float]:
    """``{name}_p50``, ``_p99``, ``_max`` in ms."""
    ms = [s * 1000 for s in seconds]
    return {f"{name}_p50": percentile(ms, 50), f"{name}_p99": percentile(ms, 99), f"{name}_max": max(ms)}


# --------------------------------------------------------------------------- the data
def new_id(rng: random.Random) -> str:
    """An id shaped as ``belote.ids.new_id``'s (22 URL-safe characters, none a leading ``-``), drawn from ``rng``."""
    text = base64.urlsafe_b64encode(rng.randbytes(16)).rstrip(b"=").decode()
    return "A" + text[1:] if text.startswith("-") else text


@dataclass
class Game:
    name: str
    seats: int
    team: list[int]  # each seat's side
    sides: int


@dataclass
class World:
    """The players, and what the matches did to them: the state of each (player, game) with matches."""

    ids: list[str]
    names: list[str]
    folded: list[str]
    tags: list[int]
    created: list[float]
    digests: list[str]
    skill: list[float]
    tickets: list[int]  # each player as many times as its weight: how often it plays
    games: list[Game]
    start: float  # the first Monday of the 52 weeks
    end: float  # the Monday after the current week
    #: player * len(games) + game -> [mu, sigma, matches, shown, updated, won, deals]
    state: dict[int, list[Any]]

    def played(self, p: int) -> int:
        g = len(self.games)
        return sum(self.state[k][2] for k in range(p * g, p * g + g) if k in self.state)


class Finished(NamedTuple):
    """A filled match as the stores keep it."""

    id: str
    game: str
    at: float
    data: str  # the JSON of ``Players.finish``'s summary
    people: list[tuple[int, int, int]]  # (player, rating won, rating after)


def make_world(n: int, rng: random.Random, now: float) -> World:
    end = week_start(now) + WEEK
    start = end - WEEKS * WEEK
    ids, names, folded, tags, created, digests = [], [], [], [], [], []
    taken: dict[str, set[int]] = {}
    for _ in range(n):
        name = rng.choice(NAMES)
        fold = folded_name(name)
        used = taken.setdefault(fold, set())
        if len(used) >= 9000:
            raise SystemExit(f"too many players for {len(NAMES)} names of 9,000 tags each")
        tag = rng.randrange(1000, 10000)
        while tag in used:
            tag = rng.randrange(1000, 10000)
        used.add(tag)
        ids.append(new_id(rng))
        names.append(name)
        folded.append(fold)
        tags.append(tag)
        created.append(start - rng.uniform(0, 30 * 86400))
        digests.append(hashlib.sha256(new_id(rng).encode()).hexdigest())
    weights = [rng.lognormvariate(0.0, 0.8) for _ in range(n)]
    scale = TICKETS * n / sum(weights)
    tickets = [p for p, w in enumerate(weights) for _ in range(round(w * scale))]
    games = []
    for name in GAMES:
        rules = Rules(variant=name)
        games.append(Game(name, rules.players, [rules.team(s) for s in range(rules.players)], rules.teams))
    skill = [rng.gauss(25.0, 4.0) for _ in range(n)]
    return World(ids, names, folded, tags, created, digests, skill, tickets, games, start, end, {})


def draw(world: World, rng: random.Random, k: int) -> list[int]:
    """``k`` different players, each as often as its weight."""
    tickets, count = world.tickets, len(world.tickets)
    out: list[int] = []
    while len(out) < k:
        p = tickets[int(rng.random() * count)]
        if p not in out:
            out.append(p)
    return out


def shown(mu: float, sigma: float) -> int:
    """``ratings.shown(ratings.Rating(mu, sigma))``, without making the Rating.

    >>> shown(30.0, 2.5) == ratings.shown(ratings.Rating(30.0, 2.5))
    True
    """
    return round(1000 + 40 * (mu - 3 * sigma))


def matches(world: World, n: int, rng: random.Random) -> Iterator[list[Finished]]:
    """``n`` rated matches in the order they finished, in batches, moving ``world.state`` as they go."""
    shares, total = [], 0.0
    for share in GAMES.values():
        total += share
        shares.append(total)
    step = (world.end - world.start) / n
    state, g_count, ids, names, skill = world.state, len(world.games), world.ids, world.names, world.skill
    start_shown = shown(ratings.MU, ratings.SIGMA)
    dumps, exp, rnd, randint = json.dumps, math.exp, rng.random, rng.randint
    batch: list[Finished] = []
    for i in range(n):
        gi = min(bisect.bisect(shares, rnd() * total), g_count - 1)
        game = world.games[gi]
        team, n_sides = game.team, game.sides
        people = draw(world, rng, game.seats)
        at = world.start + (i + rnd()) * step
        table = new_id(rng)
        match_id = f"{table}:{int(rnd() * 3)}"
        # The result: from the sides' hidden skills.
        level = [0.0] * n_sides
        for s, p in enumerate(people):
            level[team[s]] += skill[p]
        if n_sides == 2:
            winner = 0 if rnd() < 1 / (1 + exp((level[1] - level[0]) / 6)) else 1
            scores = [randint(240, 990), randint(240, 990)]
            scores[winner] = randint(1000, 1290)
        else:
            noisy = [lv + rng.gauss(0, 5) for lv in level]
            winner = noisy.index(max(noisy))
            scores = [randint(300, 990) for _ in range(n_sides)]
            scores[winner] = randint(1000, 1200)
        ranks = ratings.ranks_of(scores, winner)
        deals = randint(6, 14)
        # The ratings: an Elo-like step on mu, sigma shrinking towards a floor (not OpenSkill: fast).
        held = []
        mu_side = [0.0] * n_sides
        for s, p in enumerate(people):
            key = p * g_count + gi
            st = state.get(key)
            if st is None:
                st = state[key] = [ratings.MU, ratings.SIGMA, 0, start_shown, 0.0, 0, 0]
            held.append(st)
            mu_side[team[s]] += st[0]
        if n_sides == 2 and game.seats == 4:
            mu_side = [mu_side[0] / 2, mu_side[1] / 2]
        sides: list[list[dict[str, Any]]] = [[] for _ in range(n_sides)]
        changes: dict[str, dict[str, int]] = {}
        people_out = []
        for s, p in enumerate(people):
            st = held[s]
            t = team[s]
            actual = expected = 0.0
            for u in range(n_sides):
                if u != t:
                    actual += 1.0 if ranks[t] < ranks[u] else 0.5 if ranks[t] == ranks[u] else 0.0
                    expected += 1 / (1 + exp((mu_side[u] - mu_side[t]) / 4))
            before = st[3]
            st[0] += (3.0 * st[1] / ratings.SIGMA + 0.3) * (actual - expected)
            st[1] = max(1.2, st[1] * 0.93)
            st[2] += 1
            after = st[3] = shown(st[0], st[1])
            st[4] = at
            st[5] += t == winner
            st[6] += deals
            pid = ids[p]
            sides[t].append({"seat": SEATS[s], "name": names[p], "player": pid, "bot": None})
            changes[pid] = {"before": before, "after": after}
            people_out.append((p, after - before, after))
        summary = {
            "id": match_id,
            "game": game.name,
            "table": table,
            "finished": at,
            "rated": True,
            "score": scores,
            "winner": winner,
            "sides": sides,
            "changes": changes,
        }
        batch.append(Finished(match_id, game.name, at, dumps(summary), people_out))
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _generate(world: World, n: int, seed: int, out: Any) -> None:
    for batch in matches(world, n, random.Random(seed)):
        out.put(batch)
    out.put(world.state)


def generated(world: World, n: int, seed: int) -> Iterator[list[Finished]]:
    """``matches`` made in a child process while this one writes them (two cores: the fill takes about
    the longer of the two, not their sum); ``world.state`` is the child's at the end."""
    context = mp.get_context("fork")
    out = context.Queue(maxsize=4)
    child = context.Process(target=_generate, args=(world, n, seed, out), daemon=True)
    child.start()
    try:
        while True:
            try:
                item = out.get(timeout=1.0)
            except queue.Empty:
                if not child.is_alive():
                    raise RuntimeError(f"the process making the matches ended ({child.exitcode})") from None
                continue
            if isinstance(item, dict):
                world.state = item
                return
            yield item
    finally:
        if child.is_alive():
            child.kill()
        child.join()


def counters(game: str, key: int, st: list[Any]) -> dict[str, int]:
    """Statistics counters of a player's matches of a game (``world.state[key]``), as plausible as
    cheap; the same for a key in either store."""
    n, won, deals = st[2], st[5], st[6]
    u = (key * 2654435761 % 4294967296) / 4294967296  # a fraction that looks random, drawn from the key
    taken = round(deals * (0.18 + 0.14 * u))
    made = round(taken * (0.9 - 0.3 * u))
    defended = round((deals - taken) * (0.5 if game in ("classic", "coinche") else 0.9))
    coinches = round(defended * (0.05 + 0.1 * u)) if game == "coinche" else 0
    c = dict.fromkeys(COUNTERS, 0)
    c |= {
        "matches": n,
        "won": won,
        "deals": deals,
        "deals_won": round(deals * (0.35 + 0.3 * won / n)),
        "taken": taken,
        "made": made,
        "taker_points": made * (90 + round(40 * u)) + (taken - made) * round(40 * u),
        "defended": defended,
        "defender_points": defended * (60 - round(35 * u)),
        "coinches": coinches,
        "coinches_won": coinches // 2,
        "capots": round(deals * 0.04 * u),
    }
    return c


# --------------------------------------------------------------------------- SQLite
def fill_sqlite(path: Path, world: World, n: int, seed: int) -> dict[str, float]:
    """The players' tables of a new SQLite file, filled; the seconds of each part."""
    store = SQLiteStore(path)
    SQLitePlayers(store)  # the file's tables, as the server makes them
    store.close()
    took: dict[str, float] = {}
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    db.execute("PRAGMA cache_size=-1000000")  # 1 GB: the fill's connection only
    indexes = re.findall(r"CREATE INDEX IF NOT EXISTS (\w+)", PLAYERS_SCHEMA)
    for name in indexes:  # made again at the end, by the schema itself: faster than kept up row by row
        db.execute(f"DROP INDEX {name}")
    started = time.perf_counter()
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO players (id, name, folded, tag, password, created) VALUES (?, ?, ?, ?, NULL, ?)",
        zip(world.ids, world.names, world.folded, world.tags, world.created, strict=True),
    )
    db.executemany(
        "INSERT INTO player_secrets (digest, player) VALUES (?, ?)", zip(world.digests, world.ids, strict=True)
    )
    db.execute("COMMIT")
    took["players"] = time.perf_counter() - started
    started = time.perf_counter()
    ids = world.ids
    for batch in generated(world, n, seed):
        db.execute("BEGIN")
        db.executemany("INSERT INTO matches (id, data) VALUES (?, ?)", ((m.id, m.data) for m in batch))
        db.executemany(
            "INSERT INTO match_players (player, match, game, at, gained) VALUES (?, ?, ?, ?, ?)",
            ((ids[p], m.id, m.game, m.at, gained) for m in batch for p, gained, _ in m.people),
        )
        db.executemany(
            "INSERT INTO rating_history (player, game, at, rating) VALUES (?, ?, ?, ?)",
            ((ids[p], m.game, m.at, after) for m in batch for p, _, after in m.people),
        )
        db.execute("COMMIT")
    db.create_function("week_of", 1, week_of, deterministic=True)
    db.execute(SUM_WEEKS)  # the weekly totals, as each match's finish adds to them
    took["matches"] = time.perf_counter() - started
    started = time.perf_counter()
    g_count = len(world.games)
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO ratings (player, game, mu, sigma, matches, rating, updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            (ids[k // g_count], world.games[k % g_count].name, st[0], st[1], st[2], st[3], st[4])
            for k, st in world.state.items()
        ),
    )
    db.executemany(
        "INSERT INTO player_stats (player, game, data) VALUES (?, ?, ?)",
        (
            (
                ids[k // g_count],
                world.games[k % g_count].name,
                json.dumps(counters(world.games[k % g_count].name, k, st), sort_keys=True),
            )
            for k, st in world.state.items()
        ),
    )
    db.execute("COMMIT")
    took["ratings"] = time.perf_counter() - started
    started = time.perf_counter()
    db.executescript(PLAYERS_SCHEMA)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    took["indexes"] = time.perf_counter() - started
    return took


# --------------------------------------------------------------------------- Redis
@contextlib.contextmanager
def redis_server(folder: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A redis-server without persistence on a free port (as tests/netplay.py's ``RedisProcess``)."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("no redis-server: install Debian's package redis-server")
    port = free_port()
    args = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(folder)]
    proc = subprocess.Popen([binary, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", proc
    finally:
        proc.kill()
        proc.wait(timeout=10)


def k(*parts: str | int) -> str:
    return PREFIX + ":".join(str(p) for p in parts)


class Sender:
    """Redis commands in pipelines of ``PIPELINE`` down one connection of redis-py, every reply read
    (an error reply raises). The commands are packed here: redis-py's packing of tens of millions of
    arguments would be most of the fill's time."""

    def __init__(self, r: redis.Redis) -> None:
        self.pool = r.connection_pool
        self.conn: Any = self.pool.get_connection()
        self.out: list[bytes] = []
        self.size = 0

    def __call__(self, *args: str | int | float) -> None:
        # str of a float is its repr, as RedisPlayers writes scores and times.
        data = [str(arg).encode() for arg in args]
        command = b"*%d\r\n%s" % (len(data), b"".join([b"$%d\r\n%s\r\n" % (len(d), d) for d in data]))
        self.out.append(command)
        self.size += len(command)
        if len(self.out) >= PIPELINE or self.size >= PIPELINE_BYTES:
            self.flush()

    def flush(self) -> None:
        if not self.out:
            return
        self.conn.send_packed_command([b"".join(self.out)])
        for _ in self.out:
            self.conn.read_response()
        self.out = []
        self.size = 0

    def close(self) -> None:
        self.flush()
        self.pool.release(self.conn)


def flat(pairs: Any) -> list[Any]:
    return [x for pair in pairs for x in pair]


def fill_redis(url: str, world: World, n: int, seed: int) -> dict[str, float]:
    """The keys ``RedisPlayers`` reads, written with pipelines; the seconds of each part."""
    r = redis.Redis.from_url(url, socket_timeout=600)  # a pipeline of big commands may keep Redis busy for seconds
    send = Sender(r)
    took: dict[str, float] = {}
    ids, g_count = world.ids, len(world.games)
    started = time.perf_counter()
    handles: dict[str, list[str]] = {}
    for i, pid in enumerate(ids):
        created = repr(float(world.created[i]))
        key = k("p", pid)
        send("HSET", key, "name", world.names[i], "folded", world.folded[i], "tag", world.tags[i], "created", created)
        send("SET", k("secret", world.digests[i]), pid)
        send("SADD", k("p", pid, "secrets"), world.digests[i])
        handles.setdefault(world.folded[i], []).extend((str(world.tags[i]), pid))
    for fold, tags in handles.items():
        send("HSET", k("h", fold), *tags)
    send.flush()
    took["players"] = time.perf_counter() - started

    started = time.perf_counter()
    game_index = {g.name: i for i, g in enumerate(world.games)}
    own: list[list[Any]] = [[] for _ in ids]  # each player's matches: at, id, at, id...
    history: dict[int, deque[tuple[float, str]]] = {}  # player-game -> the last HISTORY (at, entry)
    weeks: dict[tuple[str, int], dict[int, list[int]]] = {}  # (game, monday) -> player -> [won, matches]
    player_weeks: list[set[str]] = [set() for _ in ids]
    for batch in generated(world, n, seed):
        send("MSET", *flat((k("match", m.id), m.data) for m in batch))
        for m in batch:
            send("SADD", k("seated", m.id), *(ids[p] for p, _, _ in m.people))
            week = week_of(m.at)
            gi = game_index[m.game]
            board = weeks.setdefault((m.game, week), {})
            entry = f"{week}:{m.game}"
            for p, gained, after in m.people:
                own[p] += (m.at, m.id)
                key = p * g_count + gi
                kept = history.get(key)
                if kept is None:
                    kept = history[key] = deque(maxlen=HISTORY)
                kept.append((m.at, f'[{after}, "{m.id}"]'))  # json.dumps([rating, match id])
                row = board.get(p)
                if row is None:
                    board[p] = [gained, 1]
                else:
                    row[0] += gained
                    row[1] += 1
                player_weeks[p].add(entry)
        send.flush()
    took["matches"] = time.perf_counter() - started

    started = time.perf_counter()
    boards: dict[str, list[Any]] = {g.name: [] for g in world.games}
    for i, pid in enumerate(ids):
        if own[i]:
            send("ZADD", k("p", pid, "matches"), *own[i])
            send("SADD", k("p", pid, "weeks"), *player_weeks[i])
        held, games = [], []
        for gi, game in enumerate(world.games):
            key = i * g_count + gi
            st = world.state.get(key)
            if st is None:
                continue
            games.append(game.name)
            rating = {
                "mu": float(st[0]),
                "sigma": float(st[1]),
                "matches": st[2],
                "rating": st[3],
                "updated": float(st[4]),
            }
            held += (game.name, json.dumps(rating))
            boards[game.name] += (st[3], pid)
            send("ZADD", k("p", pid, "history", game.name), *flat(history[key]))
            send("HSET", k("p", pid, "stats", game.name), *flat(counters(game.name, key, st).items()))
        if held:
            send("HSET", k("p", pid, "ratings"), *held)
            send("SADD", k("p", pid, "stats"), *games)
    for game, board in boards.items():
        for j in range(0, len(board), 10_000):
            send("ZADD", k("board", game), *board[j : j + 10_000])
    for (game, week), rows in weeks.items():
        items = [(ids[p], row) for p, row in rows.items()]
        for j in range(0, len(items), 5000):
            chunk = items[j : j + 5000]
            send("ZADD", k("week", game, week), *flat((row[0], pid) for pid, row in chunk))
            send("HSET", k("weekn", game, week), *flat((pid, row[1]) for pid, row in chunk))
        send("ZADD", k("weeks", game), week, week)
    send.close()
    took["ratings"] = time.perf_counter() - started
    r.close()
    return took


# --------------------------------------------------------------------------- the measure
class TimedStore:
    """A player store that times its ratings reads and its ``finish_match`` (the rest goes through)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.read = 0.0
        self.write = 0.0
        self.held: dict[str, dict[str, Any]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def ratings(self, player_id: str) -> dict[str, dict[str, Any]]:
        started = time.perf_counter()
        held: dict[str, dict[str, Any]] = await self.store.ratings(player_id)
        self.read += time.perf_counter() - started
        self.held[player_id] = held
        return held

    async def finish_match(self, *args: Any) -> bool:
        started = time.perf_counter()
        done: bool = await self.store.finish_match(*args)
        self.write += time.perf_counter() - started
        return done


def finished_matches(count: int, seed: int) -> list[Match]:
    """Real finished classic matches of one deal (the settings of a rated private table)."""
    settings = check_settings({"variant": "classic", "deals": 1, "rated": True})
    out = []
    for i in range(count):
        rng = random.Random(seed * 1000 + i)
        match = new_match(settings, seed * 1000 + i)
        while not match.over:
            match.apply(rng.choice(match.legal_actions()))
        out.append(match)
    return out


def measure(
    make_app: Callable[[], Starlette], world: World, played: list[Match], args: argparse.Namespace, rng: random.Random
) -> dict[str, float]:
    """One run's figures (ms)."""
    figures: dict[str, float] = {"load_start": os.getloadavg()[0]}
    app = make_app()
    with TestClient(app) as client:
        asked = [rng.randrange(len(world.ids)) for _ in range(args.requests + WARMUP)]
        routes = {
            "board_all": ["/api/leaderboard/classic"] * (args.requests + WARMUP),
            "board_week": ["/api/leaderboard/classic?period=week"] * (args.requests + WARMUP),
            "profile": [f"/api/players/{world.ids[p]}" for p in asked],
        }
        for name, paths in routes.items():
            times = []
            for i, path in enumerate(paths):
                started = time.perf_counter()
                response = client.get(path)
                took = time.perf_counter() - started
                if response.status_code != 200:
                    raise RuntimeError(f"{path}: {response.status_code} {response.text[:200]}")
                if i >= WARMUP:
                    times.append(took)
            figures |= spread(name, times)
            if name != "profile":
                figures[f"{name}_rows"] = len(response.json()["rows"])
        figures["profile_matches"] = statistics.mean(world.played(p) for p in asked[WARMUP:])

        timed = TimedStore(app.state.players.store)  # the app's store (Redis: made as the app started)
        portal = client.portal
        assert portal is not None
        players = Players(timed)
        settings = check_settings({"variant": "classic", "deals": 1, "rated": True})
        totals, reads, rates, writes = [], [], [], []

        async def finish(table_id: str, meta: Meta, match: Match) -> float:
            started = time.perf_counter()
            kept = await players.finish(table_id, meta, match)
            took = time.perf_counter() - started
            if kept is None or not kept["rated"]:
                raise RuntimeError("the match was not kept rated")
            return took

        for i in range(args.updates):
            match = played[i % len(played)]
            people = draw(world, rng, 4)
            seats = {
                s: Seat(new_id(rng), world.names[p], player=world.ids[p]) for s, p in enumerate(people)
            }  # N, E, S, W
            meta = Meta(kind="online", seed=i, settings=settings, seats=seats)
            timed.read = timed.write = 0.0
            timed.held = {}
            totals.append(portal.call(finish, new_id(rng), meta, match))  # in the app's event loop
            reads.append(timed.read)
            writes.append(timed.write)
            # ratings.rate alone, on the same inputs as Players.finish gave it.
            teams = [[world.ids[people[s]] for s in (0, 2)]]
            teams.append([world.ids[people[s]] for s in (1, 3)])
            before = {}
            for pid, held in timed.held.items():
                r = held.get("classic")
                before[pid] = ratings.Rating() if r is None else ratings.Rating(float(r["mu"]), float(r["sigma"]))
            ranks = ratings.ranks_of(list(match.score), match.winner)
            started = time.perf_counter()
            ratings.rate(teams, ranks, before, settings["strength"])
            rates.append(time.perf_counter() - started)
        figures |= spread("update", totals) | spread("reads", reads) | spread("rate", rates) | spread("write", writes)
    figures["load_end"] = os.getloadavg()[0]
    return figures


ROUTES = (
    ("board_all", "GET /api/leaderboard/classic"),
    ("board_week", "GET /api/leaderboard/classic?period=week"),
    ("profile", "GET /api/players/{id}"),
    ("update", "rating update: Players.finish, 4 people, classic"),
)
PARTS = (
    ("reads", "store reads (4 ratings)"),
    ("rate", "ratings.rate (timed alone)"),
    ("write", "store write (finish_match)"),
)


def report(f: dict[str, float], args: argparse.Namespace) -> str:
    lines = []
    for key, label in ROUTES:
        p99 = f[f"{key}_p99"]
        verdict = "ok" if p99 <= TARGET_MS else f"OVER the {TARGET_MS:g} ms target"
        count = args.updates if key == "update" else args.requests
        line = (
            f"  {label:48} {count:4}  p50 {f[f'{key}_p50']:7.2f} ms  p99 {p99:7.2f} ms  "
            f"max {f[f'{key}_max']:7.2f} ms  {verdict}"
        )
        if key in ("board_all", "board_week"):
            line += f"  ({f[f'{key}_rows']:.0f} rows)"
        if key == "profile":
            line += f"  (players with {f['profile_matches']:.1f} matches on average)"
        lines.append(line)
    for key, label in PARTS:
        lines.append(
            f"    of which {label:38}  p50 {f[f'{key}_p50']:7.2f} ms  p99 {f[f'{key}_p99']:7.2f} ms  "
            f"max {f[f'{key}_max']:7.2f} ms"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument(
        "--store", choices=("sqlite", "redis"), default=None, help="default sqlite (redis with --redis)"
    )
    parser.add_argument("--redis", metavar="URL", help="an empty Redis database to fill, instead of a new redis-server")
    parser.add_argument("--requests", type=int, default=300, help="measured requests of each route, each run")
    parser.add_argument("--updates", type=int, default=300, help="measured rating updates, each run")
    parser.add_argument("--runs", type=int, default=1, help="measures (not fills): prints their median")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--db", type=Path, help="SQLite: the file to fill (new), kept afterwards (default: a temporary one)"
    )
    args = parser.parse_args()
    store = args.store or ("redis" if args.redis else "sqlite")
    if args.redis and store != "redis":
        parser.error("--redis URL is a Redis store")
    if args.players < 4 or args.matches < 1:
        parser.error("at least 4 players and one match")
    if args.db is not None and (store != "sqlite" or args.db.exists()):
        parser.error("--db is a new SQLite file")
    rng = random.Random(args.seed)
    played = finished_matches(min(args.updates, 50), args.seed)
    world = make_world(args.players, rng, time.time())
    config = ServerConfig(think_workers=0)  # no bot thinks here
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="belote-players-")))
        started = time.perf_counter()
        if store == "sqlite":
            path = args.db or folder / "players.sqlite3"
            took = fill_sqlite(path, world, args.matches, args.seed + 1)
            where = f"SQLite {path} ({path.stat().st_size / 1e9:.2f} GB)"

            def make_app() -> Starlette:
                return create_app(db_path=path, config=config)
        else:
            url = args.redis or stack.enter_context(redis_server(folder))[0]
            client = stack.enter_context(redis.Redis.from_url(url, socket_timeout=600))
            if args.redis:
                if client.dbsize():
                    raise SystemExit(f"{url} is not empty: give an empty database (it is emptied at the end)")
                stack.callback(client.flushdb)
            took = fill_redis(url, world, args.matches, args.seed + 1)
            memory = client.info("memory")["used_memory"]
            where = f"Redis {url} (used_memory {memory / 1e9:.2f} GB)"

            def make_app() -> Starlette:
                return create_app(db_path=folder / "app.sqlite3", redis_url=url, config=config)

        filled = time.perf_counter() - started
        mean = (
            args.matches
            * sum(share * g.seats for share, g in zip(GAMES.values(), world.games, strict=True))
            / args.players
        )
        print(
            f"{where}: {args.players:,} players, {args.matches:,} rated matches "
            f"({', '.join(f'{g} {s:.0%}' for g, s in GAMES.items())}; {mean:.1f} a player on average) over the "
            f"{WEEKS} weeks before Monday {time.strftime('%Y-%m-%d', time.gmtime(world.end))} (this week whole); "
            f"{os.cpu_count()} cores",
            flush=True,
        )
        print(
            f"filled in {filled:.1f} s: players {took['players']:.1f} s, matches {took['matches']:.1f} s, "
            f"ratings and statistics {took['ratings']:.1f} s"
            + (f", indexes {took['indexes']:.1f} s" if "indexes" in took else ""),
            flush=True,
        )
        runs = []
        for i in range(args.runs):
            figures = measure(make_app, world, played, args, rng)
            runs.append(figures)
            print(
                f"run {i + 1} (target p99 <= {TARGET_MS:g} ms; load average {figures['load_start']:.2f} -> "
                f"{figures['load_end']:.2f}):\n{report(figures, args)}",
                flush=True,
            )
        if args.runs > 1:
            median = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
            print(
                f"median of {args.runs} runs (target p99 <= {TARGET_MS:g} ms; load average {median['load_start']:.2f} "
                f"-> {median['load_end']:.2f}):\n{report(median, args)}"
            )


if __name__ == "__main__":
    main()
