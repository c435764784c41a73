"""Players at scale: the leaderboards, a profile and a rating update over a store of 100,000 players
and 1,000,000 finished matches, in SQLite (a temporary file) or in Redis.

The fill writes the rows (SQLite: ``executemany``, one transaction per batch, into the tables
``SQLitePlayers`` makes; its secondary indexes are dropped first and made again at the end by its own
schema) or the keys (Redis: pipelines, exactly the keys ``RedisPlayers`` reads: its module docstring)
directly, as ``finish_match`` would have left them. The data: players with a name of a list of 160
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
(``finish_match``). Printed: p50 / p99 / max in ms against the target p99 <= 50 ms, and with
``--runs`` the median of each figure over the runs (the fill is done once).

``--store redis`` starts a redis-server without persistence on a free port in a temporary folder;
``--redis URL`` uses that one instead, whose database must be empty (it is emptied again at the end).

    python bench/players.py [--players 100000] [--matches 1000000] [--store sqlite|redis] [--redis URL]
                            [--requests 300] [--updates 300] [--runs 1] [--seed 1]
"""

from __future__ import annotations

import argparse
import base64
import bisect
import contextlib
import hashlib
import json
import math
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
from typing import Any

import redis
from starlette.applications import Starlette
from starlette.testclient import TestClient

from belote.game import SEATS, Match
from belote.rules import Rules
from belote.server import ratings
from belote.server.app import create_app
from belote.server.player_routes import week_start
from belote.server.player_stats import COUNTERS
from belote.server.player_store import HISTORY, PLAYERS_SCHEMA, SQLitePlayers
from belote.server.players import Players
from belote.server.redis_players import WEEK, week_of
from belote.server.room import Meta, Seat, check_settings, folded_name, new_match
from belote.server.store import SQLiteStore
from belote.server.tables import ServerConfig

#: The games and their share of the matches.
GAMES = {"classic": 0.60, "coinche": 0.30, "three-handed": 0.07, "two-handed": 0.03}
WEEKS = 52
BATCH = 20_000  # matches a transaction (SQLite) or a pipeline (Redis)
TARGET_MS = 50.0  # p99 of each figure
WARMUP = 5  # unmeasured requests of each route first
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
    cum: list[float]  # cumulative weights: how often each plays
    games: list[Game]
    start: float  # the first Monday of the 52 weeks
    end: float  # the Monday after the current week
    #: player * len(games) + game -> [mu, sigma, matches, shown, updated, won, deals]
    state: dict[int, list[Any]]

    def played(self, p: int) -> int:
        g = len(self.games)
        return sum(self.state[k][2] for k in range(p * g, p * g + g) if k in self.state)


@dataclass
class Finished:
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
    cum, total = [], 0.0
    for w in weights:
        total += w
        cum.append(total)
    games = []
    for name in GAMES:
        rules = Rules(variant=name)
        games.append(Game(name, rules.players, [rules.team(s) for s in range(rules.players)], rules.teams))
    skill = [rng.gauss(25.0, 4.0) for _ in range(n)]
    return World(ids, names, folded, tags, created, digests, skill, cum, games, start, end, {})


def draw(world: World, rng: random.Random, k: int) -> list[int]:
    """``k`` different players, each as often as its weight."""
    population = range(len(world.ids))
    out: list[int] = []
    while len(out) < k:
        for p in rng.choices(population, cum_weights=world.cum, k=k):
            if p not in out:
                out.append(p)
                if len(out) == k:
                    break
    return out


def matches(world: World, n: int, rng: random.Random) -> Iterator[list[Finished]]:
    """``n`` rated matches in the order they finished, in batches, moving ``world.state`` as they go."""
    shares, total = [], 0.0
    for share in GAMES.values():
        total += share
        shares.append(total)
    step = (world.end - world.start) / n
    state, g_count = world.state, len(world.games)
    batch: list[Finished] = []
    for i in range(n):
        gi = min(bisect.bisect(shares, rng.random() * total), g_count - 1)
        game = world.games[gi]
        people = draw(world, rng, game.seats)
        at = world.start + (i + rng.random()) * step
        table = new_id(rng)
        match_id = f"{table}:{rng.randrange(3)}"
        # The result: from the sides' hidden skills.
        level = [0.0] * game.sides
        for s, p in enumerate(people):
            level[game.team[s]] += world.skill[p]
        if game.sides == 2:
            winner = 0 if rng.random() < 1 / (1 + math.exp((level[1] - level[0]) / 6)) else 1
            scores = [rng.randint(240, 990), rng.randint(240, 990)]
            scores[winner] = rng.randint(1000, 1290)
        else:
            noisy = [lv + rng.gauss(0, 5) for lv in level]
            winner = noisy.index(max(noisy))
            scores = [rng.randint(300, 990) for _ in range(game.sides)]
            scores[winner] = rng.randint(1000, 1200)
        ranks = ratings.ranks_of(scores, winner)
        deals = rng.randint(6, 14)
        # The ratings: an Elo-like step on mu, sigma shrinking towards a floor (not OpenSkill: fast).
        held = []
        mu_side = [0.0] * game.sides
        per_side = [0] * game.sides
        for s, p in enumerate(people):
            key = p * g_count + gi
            st = state.get(key)
            if st is None:
                st = state[key] = [ratings.MU, ratings.SIGMA, 0, ratings.shown(ratings.Rating()), 0.0, 0, 0]
            held.append(st)
            mu_side[game.team[s]] += st[0]
            per_side[game.team[s]] += 1
        mu_side = [m / c for m, c in zip(mu_side, per_side, strict=True)]
        sides: list[list[dict[str, Any]]] = [[] for _ in range(game.sides)]
        changes: dict[str, dict[str, int]] = {}
        people_out = []
        for s, (p, st) in enumerate(zip(people, held, strict=True)):
            t = game.team[s]
            actual = expected = 0.0
            for u in range(game.sides):
                if u != t:
                    actual += 1.0 if ranks[t] < ranks[u] else 0.5 if ranks[t] == ranks[u] else 0.0
                    expected += 1 / (1 + math.exp((mu_side[u] - mu_side[t]) / 4))
            before = st[3]
            st[0] += (3.0 * st[1] / ratings.SIGMA + 0.3) * (actual - expected)
            st[1] = max(1.2, st[1] * 0.93)
            st[2] += 1
            st[3] = ratings.shown(ratings.Rating(st[0], st[1]))
            st[4] = at
            st[5] += int(t == winner)
            st[6] += deals
            pid = world.ids[p]
            sides[t].append({"seat": SEATS[s], "name": world.names[p], "player": pid, "bot": None})
            changes[pid] = {"before": before, "after": st[3]}
            people_out.append((p, st[3] - before, st[3]))
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
        batch.append(Finished(match_id, game.name, at, json.dumps(summary), people_out))
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def counters(game: str, n: int, won: int, deals: int, rng: random.Random) -> dict[str, int]:
    """Statistics counters of ``n`` matches (``won`` of them) of ``deals`` deals, as plausible as cheap."""
    taken = round(deals * rng.uniform(0.18, 0.32))
    made = round(taken * rng.uniform(0.6, 0.9))
    defended = round((deals - taken) * (0.5 if game in ("classic", "coinche") else 0.9))
    coinches = round(defended * rng.uniform(0.05, 0.15)) if game == "coinche" else 0
    c = dict.fromkeys(COUNTERS, 0)
    c |= {
        "matches": n,
        "won": won,
        "deals": deals,
        "deals_won": round(deals * (0.35 + 0.3 * won / n)),
        "taken": taken,
        "made": made,
        "taker_points": made * rng.randint(90, 130) + (taken - made) * rng.randint(0, 40),
        "defended": defended,
        "defender_points": defended * rng.randint(25, 60),
        "coinches": coinches,
        "coinches_won": coinches // 2,
        "capots": round(deals * rng.uniform(0.0, 0.04)),
    }
    return c


# --------------------------------------------------------------------------- SQLite
def fill_sqlite(path: Path, world: World, n: int, rng: random.Random) -> dict[str, float]:
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
    for batch in matches(world, n, rng):
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
                json.dumps(counters(world.games[k % g_count].name, st[2], st[5], st[6], rng), sort_keys=True),
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
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


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


def fill_redis(url: str, world: World, n: int, rng: random.Random) -> dict[str, float]:
    """The keys ``RedisPlayers`` reads, written with pipelines; the seconds of each part."""
    r = redis.Redis.from_url(url)
    took: dict[str, float] = {}
    ids, g_count = world.ids, len(world.games)
    pipe: Any = r.pipeline(transaction=False)
    started = time.perf_counter()
    handles: dict[str, dict[str, str]] = {}
    for i, pid in enumerate(ids):
        created = repr(float(world.created[i]))
        pipe.hset(
            k("p", pid),
            mapping={"name": world.names[i], "folded": world.folded[i], "tag": world.tags[i], "created": created},
        )
        pipe.set(k("secret", world.digests[i]), pid)
        pipe.sadd(k("p", pid, "secrets"), world.digests[i])
        handles.setdefault(world.folded[i], {})[str(world.tags[i])] = pid
        if i % 5000 == 4999:
            pipe.execute()
    for fold, tags in handles.items():
        pipe.hset(k("h", fold), mapping=tags)
    pipe.execute()
    took["players"] = time.perf_counter() - started

    started = time.perf_counter()
    own: list[list[tuple[str, float]]] = [[] for _ in ids]  # each player's matches
    history: dict[int, deque[tuple[str, float]]] = {}  # player-game -> the last HISTORY entries
    weeks: dict[tuple[str, int], dict[int, list[int]]] = {}  # (game, monday) -> player -> [won, matches]
    player_weeks: list[set[str]] = [set() for _ in ids]
    for batch in matches(world, n, rng):
        pipe.mset({k("match", m.id): m.data for m in batch})
        for m in batch:
            pipe.sadd(k("seated", m.id), *(ids[p] for p, _, _ in m.people))
            week = week_of(m.at)
            gi = list(GAMES).index(m.game)
            board = weeks.setdefault((m.game, week), {})
            for p, gained, after in m.people:
                own[p].append((m.id, m.at))
                key = p * g_count + gi
                kept = history.get(key)
                if kept is None:
                    kept = history[key] = deque(maxlen=HISTORY)
                kept.append((json.dumps([after, m.id]), m.at))
                row = board.get(p)
                if row is None:
                    board[p] = [gained, 1]
                else:
                    row[0] += gained
                    row[1] += 1
                player_weeks[p].add(f"{week}:{m.game}")
        pipe.execute()
    took["matches"] = time.perf_counter() - started

    started = time.perf_counter()
    boards: dict[str, dict[str, int]] = {g.name: {} for g in world.games}
    for i, pid in enumerate(ids):
        if own[i]:
            pipe.zadd(k("p", pid, "matches"), dict(own[i]))
            pipe.sadd(k("p", pid, "weeks"), *player_weeks[i])
        held, games = {}, []
        for gi, game in enumerate(world.games):
            key = i * g_count + gi
            st = world.state.get(key)
            if st is None:
                continue
            games.append(game.name)
            held[game.name] = json.dumps(
                {"mu": float(st[0]), "sigma": float(st[1]), "matches": st[2], "rating": st[3], "updated": float(st[4])}
            )
            boards[game.name][pid] = st[3]
            pipe.zadd(k("p", pid, "history", game.name), dict(history[key]))
            pipe.hset(k("p", pid, "stats", game.name), mapping=counters(game.name, st[2], st[5], st[6], rng))
        if held:
            pipe.hset(k("p", pid, "ratings"), mapping=held)
            pipe.sadd(k("p", pid, "stats"), *games)
        if i % 2000 == 1999:
            pipe.execute()
    pipe.execute()
    for game, board in boards.items():
        items = list(board.items())
        for j in range(0, len(items), 5000):
            pipe.zadd(k("board", game), dict(items[j : j + 5000]))
        pipe.execute()
    for (game, week), rows in weeks.items():
        items = [(ids[p], row) for p, row in rows.items()]
        for j in range(0, len(items), 5000):
            chunk = items[j : j + 5000]
            pipe.zadd(k("week", game, week), {pid: row[0] for pid, row in chunk})
            pipe.hset(k("weekn", game, week), mapping={pid: row[1] for pid, row in chunk})
        pipe.zadd(k("weeks", game), {str(week): week})
        pipe.execute()
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
    figures: dict[str, float] = {}
    with TestClient(make_app()) as client:
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

        timed = TimedStore(client.app.state.players.store)  # type: ignore[attr-defined]
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
            totals.append(client.portal.call(finish, new_id(rng), meta, match))  # type: ignore[union-attr]
            reads.append(timed.read)
            writes.append(timed.write)
            # ratings.rate alone, on the same inputs as Players.finish gave it.
            teams = [[ratings.Player(world.ids[people[s]]) for s in (0, 2)]]
            teams.append([ratings.Player(world.ids[people[s]]) for s in (1, 3)])
            before = {}
            for pid, held in timed.held.items():
                r = held.get("classic")
                before[pid] = ratings.Rating() if r is None else ratings.Rating(float(r["mu"]), float(r["sigma"]))
            ranks = ratings.ranks_of(list(match.score), match.winner)
            started = time.perf_counter()
            ratings.rate(teams, ranks, before, settings["strength"])
            rates.append(time.perf_counter() - started)
        figures |= spread("update", totals) | spread("reads", reads) | spread("rate", rates) | spread("write", writes)
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
    args = parser.parse_args()
    store = args.store or ("redis" if args.redis else "sqlite")
    if args.redis and store != "redis":
        parser.error("--redis URL is a Redis store")
    if args.players < 4 or args.matches < 1:
        parser.error("at least 4 players and one match")
    rng = random.Random(args.seed)
    played = finished_matches(min(args.updates, 50), args.seed)
    world = make_world(args.players, rng, time.time())
    config = ServerConfig(think_workers=0)  # no bot thinks here
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="belote-players-")))
        started = time.perf_counter()
        if store == "sqlite":
            path = folder / "players.sqlite3"
            took = fill_sqlite(path, world, args.matches, rng)
            where = f"SQLite {path} ({path.stat().st_size / 1e9:.2f} GB)"

            def make_app() -> Starlette:
                return create_app(db_path=path, config=config)
        else:
            if args.redis:
                url = args.redis
                if redis.Redis.from_url(url).dbsize():
                    raise SystemExit(f"{url} is not empty: give an empty database (it is emptied at the end)")
                stack.callback(lambda: redis.Redis.from_url(url).flushdb())
            else:
                url, _ = stack.enter_context(redis_server(folder))
            took = fill_redis(url, world, args.matches, rng)
            memory = redis.Redis.from_url(url).info("memory")["used_memory"]
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
            f"{WEEKS} weeks to {time.strftime('%Y-%m-%d', time.gmtime(world.end))}",
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
            print(f"run {i + 1} (target p99 <= {TARGET_MS:g} ms):\n{report(figures, args)}", flush=True)
        if args.runs > 1:
            median = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
            print(f"median of {args.runs} runs (target p99 <= {TARGET_MS:g} ms):\n{report(median, args)}")


if __name__ == "__main__":
    main()
