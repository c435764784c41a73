"""A daily tournament at scale: submitting a result, reading a board's traveller and the ranking with
100,000 entrants' results, and the CPU the bots spend on a tournament per player.

The fill: a daily classic tournament of ``--boards`` boards (8) whose bots' results are made up (no
bot plays during the fill); each of ``--players`` entrants (guests, each with a token of its own)
has a result on every board, drawn from the board's lines (40 made-up outcomes a board, the common
ones more often, as a real field looks: a few contracts and outcomes make most results). SQLite:
rows written with ``executemany`` straight into the tables ``SQLiteTournaments`` makes, with the
lines' counts as ``add_result`` leaves them; Redis: through ``RedisTournaments.add_result`` itself,
many at once.

Then, through the real app (starlette's TestClient over ``create_app``, the bots' worker processes
of a server, ``--workers``), for each run: the first ranking of the full field, waited for and timed;
``--submits`` results submitted (``Tournaments.finish`` of a finished board: a real deal, timed in the
app's event loop); then reads of GET .../boards/{k}/traveller and of GET .../ranking by entrants
drawn at random (their own line and row included), from the moment the ranking is remade in the
background with the new results until it is done and at least ``--requests`` of each were read: the
reads made while it was made are shown apart. Printed: p50 / p99 / max in ms against the target p99
<= 50 ms, the ranking's times, and the load average.

Last, the bots' CPU per player: ``--cpu-players`` people (the heuristic bot in their seat, a person
costs the server nothing) each play every board against the tournament's bots (``--bots``, normal by
default), timed in CPU seconds of this process (the bots think here, as in one worker), minus the
heuristic bot's own share; and the fill-in field's CPU (the bots' results of every board, made once
a tournament), which does not grow with the players.

    python bench/tournaments.py [--players 100000] [--boards 8] [--store sqlite|redis] [--requests 300]
                                [--submits 300] [--runs 1] [--cpu-players 3] [--bots normal] [--seed 1]
                                [--workers N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from belote.bots import make_bot
from belote.game import Match
from belote.server.app import create_app
from belote.server.room import STRENGTHS, Meta, Seat, person_seat, rules_of
from belote.server.store import SQLiteStore
from belote.server.tables import ServerConfig
from belote.server.tournament_store import SQLiteTournaments
from belote.server.tournaments import board_settings, bot_field, daily_id, day_start, entrant_of, outcome, play_board
from belote.tournament import board_seed
from ops import free_port

TARGET_MS = 50.0
LINES = 40
WARMUP = 10


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def spread(name: str, seconds: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in seconds]
    return {f"{name}_p50": statistics.median(ms), f"{name}_p99": percentile(ms, 0.99), f"{name}_max": max(ms)}


def token(i: int) -> str:
    return f"bench-guest-token-{i:016d}"


def made_up_lines(rng: random.Random, board: int) -> list[dict[str, Any]]:
    """``LINES`` outcomes of a board, each a line as ``outcome`` makes it, with a weight."""
    out = []
    for k in range(LINES):
        ours = rng.randrange(0, 163)
        points = [ours, 162 - ours]
        line = {
            "trump": "SHDC"[k % 4],
            "contract": None,
            "multiplier": 1,
            "taker": "NESW"[k % 4],
            "outcome": "made" if ours >= 82 else "dedans",
            "points": points,
            "side": 0,
        }
        score = float(points[0] - points[1])
        key = json.dumps([None, line["trump"], 1, line["taker"], line["outcome"], points])
        out.append({**line, "line": key, "score": score, "weight": 1.0 / (k + 1)})
    return out


def tournament(now: float, boards: int) -> dict[str, Any]:
    opens = day_start(now)
    return {
        "id": daily_id("classic", now),
        "kind": "daily",
        "name": None,
        "game": "classic",
        "settings": board_settings({"settings": {"variant": "classic", "strength": "normal"}}),
        "boards": boards,
        "opens": opens,
        "closes": opens + 86_400.0,
        "created": now,
        "host": None,
        "invite": None,
        "seed": 12345,
    }


def fake_bots(rng: random.Random, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    picked = rng.sample(lines, 8)
    return [
        {"bot": "normal", "draw": i, "score": line["score"], "line": line, "record": {}}
        for i, line in enumerate(picked)
    ]


def results(t: dict[str, Any], players: int, seed: int) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    rng = random.Random(seed)
    boards = [made_up_lines(rng, k) for k in range(t["boards"])]
    weights = [[line["weight"] for line in b] for b in boards]
    for i in range(players):
        entrant = entrant_of(None, token(i))
        assert entrant is not None
        for k, lines in enumerate(boards):
            line = rng.choices(lines, weights[k])[0]
            result = {
                "tournament": t["id"],
                "board": k,
                "entrant": entrant,
                "name": f"Guest {i}",
                "player": None,
                "score": line["score"],
                "line": line["line"],
                "at": t["opens"] + i,
                "table": f"bench{i}-{k}",
                "record": {},
                **{x: line[x] for x in ("trump", "contract", "multiplier", "taker", "outcome", "points", "side")},
            }
            yield result, {x: line[x] for x in line if x != "weight"}


def boards_lines(t: dict[str, Any], seed: int) -> list[list[dict[str, Any]]]:
    rng = random.Random(seed)
    return [made_up_lines(rng, k) for k in range(t["boards"])]


def fill_sqlite(path: Path, t: dict[str, Any], players: int, seed: int) -> None:
    store = SQLiteStore(path)
    kept = SQLiteTournaments(store)
    asyncio.run(kept.create(t))
    rng = random.Random(seed + 1)
    for k, lines in enumerate(boards_lines(t, seed)):
        asyncio.run(kept.set_bots(t["id"], k, fake_bots(rng, lines)))
    store.close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    counts: dict[tuple[int, str], list[Any]] = {}
    batch: list[tuple[Any, ...]] = []

    def flush() -> None:
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO tournament_results (tournament, board, entrant, name, player, score, line, at, data) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            batch,
        )
        db.execute("COMMIT")
        batch.clear()

    for result, line in results(t, players, seed):
        batch.append(
            (
                *(result[k] for k in ("tournament", "board", "entrant", "name", "player", "score", "line", "at")),
                json.dumps(result),
            )
        )
        held = counts.setdefault((result["board"], line["line"]), [line, 0])
        held[1] += 1
        if len(batch) >= 20_000:
            flush()
    flush()
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO tournament_lines (tournament, board, line, score, n, data) VALUES (?, ?, ?, ?, ?, ?)",
        ((t["id"], b, key, line["score"], n, json.dumps(line)) for (b, key), (line, n) in counts.items()),
    )
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


async def fill_redis(url: str, t: dict[str, Any], players: int, seed: int) -> None:
    from belote.server.redis_hub import RedisLink
    from belote.server.redis_tournaments import RedisTournaments

    link = RedisLink.connect(url)
    kept = RedisTournaments(link)
    await kept.create(t)
    rng = random.Random(seed + 1)
    for k, lines in enumerate(boards_lines(t, seed)):
        await kept.set_bots(t["id"], k, fake_bots(rng, lines))
    pending: list[Any] = []
    for result, line in results(t, players, seed):
        pending.append(kept.add_result(result, line))
        if len(pending) >= 32:
            await asyncio.gather(*pending)
            pending.clear()
    await asyncio.gather(*pending)
    await link.close()


def a_finished_board(t: dict[str, Any], k: int) -> Match:
    settings = board_settings(t)
    seed = board_seed(t["seed"], k)
    rules = rules_of(settings)
    match = Match(rules, seed=seed, first_dealer=seed % rules.players, one_deal=True)
    bots = [make_bot("heuristic", seed=seed * 7 + s) for s in range(rules.players)]
    while not match.over:
        turn = match.to_move
        assert turn is not None
        match.apply(bots[turn].act(match.view(turn)), turn)
    return match


class Finished:
    """What ``Tournaments.finish`` reads of a table."""

    def __init__(self, table_id: str, meta: Meta, match: Match) -> None:
        self.id, self.meta, self.match = table_id, meta, match


def measure(make_app: Any, t: dict[str, Any], args: argparse.Namespace, rng: random.Random) -> dict[str, float]:
    figures: dict[str, float] = {"load_start": os.getloadavg()[0]}
    with TestClient(make_app()) as client:
        service = client.app.state.tournaments  # type: ignore[attr-defined]
        portal = client.portal
        assert portal is not None
        made = portal.call(service.store.ranking, t["id"], 0, 0) is not None  # by a run before
        started = time.perf_counter()
        first = client.get(f"/api/tournaments/{t['id']}/ranking", headers={"Authorization": f"Guest {token(0)}"})
        if not made:
            figures["ranking_made_s"] = time.perf_counter() - started
        if first.status_code != 200 or first.json()["total"] < args.players:
            raise RuntimeError(f"the first ranking: {first.status_code} {first.text[:300]}")

        boards = [a_finished_board(t, k) for k in range(t["boards"])]
        seat = person_seat(4)

        async def finish(i: int) -> float:
            k = i % t["boards"]
            entrant = entrant_of(None, f"bench-submit-{args.seed}-{i}-{time.time_ns()}") or ""
            meta = Meta(
                "tournament",
                board_seed(t["seed"], k),
                t["settings"],
                {seat: Seat("x" * 32, f"New {i}")},
                board={"tournament": t["id"], "board": k, "entrant": entrant},
            )
            began = time.perf_counter()
            await service.finish(Finished(f"submit{i}", meta, boards[k]))
            return time.perf_counter() - began

        figures |= spread("submit", [portal.call(finish, i) for i in range(args.submits)])

        # The reads, from the moment the ranking is remade (the submitted results are new): those
        # made while it is made, and after, each drawn at random; at least --requests of each kind.
        service._ranked_at.clear()  # the next read starts a new ranking at once
        asked = (rng.randrange(args.players) for _ in iter(int, 1))
        times: dict[str, list[float]] = {"traveller": [], "ranking": [], "during": []}
        n = 0
        remade = False
        while (
            min(len(times["traveller"]), len(times["ranking"])) < args.requests + WARMUP
            or not remade
            or any(not task.done() for task in service._ranking.values())
        ):
            name = ("traveller", "ranking")[n % 2]
            path = (
                f"/api/tournaments/{t['id']}/boards/{n // 2 % t['boards'] + 1}/traveller"
                if name == "traveller"
                else f"/api/tournaments/{t['id']}/ranking"
            )
            running = any(not task.done() for task in service._ranking.values())
            began = time.perf_counter()
            response = client.get(path, headers={"Authorization": f"Guest {token(next(asked))}"})
            took = time.perf_counter() - began
            if response.status_code != 200:
                raise RuntimeError(f"{path}: {response.status_code} {response.text[:300]}")
            times[name].append(took)
            if running:
                times["during"].append(took)
            if name == "ranking" and response.json()["results"] >= args.players * t["boards"] + args.submits:
                remade = True
            n += 1
        for name in ("traveller", "ranking"):
            figures |= spread(name, times[name][WARMUP:])
        figures |= spread("during", times["during"] or [0.0])
        figures["during_n"] = len(times["during"])
        figures["ranking_remade_s"] = service._ranked_at[t["id"]][1]
    figures["load_end"] = os.getloadavg()[0]
    return figures


def bots_cpu(t: dict[str, Any], players: int, bots: str) -> tuple[float, float]:
    """CPU seconds the tournament's bots spend for one player's tournament (a heuristic bot in the
    person's seat, its share taken off), and for the fill-in field of the whole tournament."""
    settings = {**board_settings(t), "strength": bots}
    seat = person_seat(4)
    person = 0.0
    started = time.process_time()
    for p in range(players):
        for k in range(t["boards"]):
            seed = board_seed(t["seed"] + p, k)
            rules = rules_of(settings)
            match = Match(rules, seed=seed, first_dealer=seed % rules.players, one_deal=True)
            name, options = STRENGTHS[bots]
            table = [make_bot(name, seed=seed * 7 + s, **options) for s in range(rules.players)]
            table[seat] = make_bot("heuristic", seed=seed * 7 + seat)
            while not match.over:
                turn = match.to_move
                assert turn is not None
                began = time.process_time()
                action = table[turn].act(match.view(turn))
                if turn == seat:
                    person += time.process_time() - began
                match.apply(action, turn)
            outcome(match.deals[0], seat)
    per_player = (time.process_time() - started - person) / players
    started = time.process_time()
    fill = {**t, "settings": settings}
    for k in range(t["boards"]):
        for strength, draw in bot_field(fill):
            play_board(settings, board_seed(t["seed"], k), seat, strength, draw)
    return per_player, time.process_time() - started


ROWS = (
    ("submit", "submit a result: Tournaments.finish"),
    ("traveller", "GET .../boards/{k}/traveller"),
    ("ranking", "GET .../ranking (a page and one's row)"),
    ("during", "either, while the ranking is remade"),
)


def report(f: dict[str, float]) -> str:
    lines = []
    for key, label in ROWS:
        ok = "ok" if f[f"{key}_p99"] <= TARGET_MS else f"OVER the {TARGET_MS:g} ms target"
        lines.append(
            f"  {label:<44} p50 {f[f'{key}_p50']:7.2f} ms  p99 {f[f'{key}_p99']:7.2f} ms  "
            f"max {f[f'{key}_max']:7.2f} ms  {ok}"
        )
    lines.append(
        f"  the ranking of the whole field: first {f['ranking_made_s']:.2f} s (waited for, in the first run), remade "
        f"{f['ranking_remade_s']:.2f} s (in the background, {f['during_n']:.0f} reads meanwhile)"
    )
    return "\n".join(lines)


@contextlib.contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    import subprocess

    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
    )
    try:
        import redis

        client = redis.Redis(port=port)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--boards", type=int, default=8)
    parser.add_argument("--store", choices=("sqlite", "redis"), default="sqlite")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--submits", type=int, default=300)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--cpu-players", type=int, default=3)
    parser.add_argument("--bots", choices=tuple(STRENGTHS), default="normal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--workers", type=int, default=None, help="the bots' worker processes (default: the server's, one a core)"
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    now = time.time()
    t = tournament(now, args.boards)
    config = ServerConfig(think_workers=args.workers)
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="belote-tournaments-")))
        started = time.perf_counter()
        if args.store == "sqlite":
            path = folder / "t.sqlite3"
            fill_sqlite(path, t, args.players, args.seed)
            where = f"SQLite ({path.stat().st_size / 1e6:.0f} MB)"

            def make_app() -> Any:
                return create_app(db_path=path, config=config)
        else:
            url = stack.enter_context(redis_server(folder))
            asyncio.run(fill_redis(url, t, args.players, args.seed))
            where = "Redis"

            def make_app() -> Any:
                return create_app(db_path=folder / "app.sqlite3", redis_url=url, config=config)

        print(
            f"{where}: a daily tournament of {args.boards} boards, {args.players:,} entrants' results "
            f"({args.players * args.boards:,}), filled in {time.perf_counter() - started:.1f} s; "
            f"{os.cpu_count()} cores",
            flush=True,
        )
        runs = []
        for i in range(args.runs):
            figures = measure(make_app, t, args, rng)
            figures.setdefault("ranking_made_s", runs[0]["ranking_made_s"] if runs else 0.0)
            runs.append(figures)
            print(
                f"run {i + 1} (target p99 <= {TARGET_MS:g} ms; load average {figures['load_start']:.2f} -> "
                f"{figures['load_end']:.2f}):\n{report(figures)}",
                flush=True,
            )
        if args.runs > 1:
            median = {key: statistics.median(r.get(key, runs[0][key]) for r in runs) for key in runs[0]}
            print(f"median of {args.runs} runs:\n{report(median)}", flush=True)
    if args.cpu_players:
        per_player, fill = bots_cpu(t, args.cpu_players, args.bots)
        print(
            f"bots' CPU ({args.bots}, {args.boards} boards): {per_player:.2f} s a player's tournament "
            f"(mean of {args.cpu_players}); the fill-in field {fill:.1f} s once a tournament; "
            f"one core serves about {86_400 / per_player:,.0f} players' tournaments a day"
        )


if __name__ == "__main__":
    main()
