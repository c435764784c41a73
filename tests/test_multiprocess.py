"""``belote serve`` as real processes: killed (SIGKILL) and restarted on its SQLite file, and two
processes sharing tables through a real ``redis-server``, one of them killed mid-deal.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.asyncio.client import connect

from netplay import Player, Server, State, match_over, post, private_table, redis_replayed, redis_server, run

QUICK = {"strength": "easy", "turn_timer": 600, "deals": 2}


def tricks_done(n: int) -> Any:
    def done(state: State) -> bool:
        view = state["view"]
        return view is not None and (len(view["tricks"]) >= n or view["match_over"])

    return done


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A real redis-server on a free port, empty, thrown away after the test."""
    with redis_server(tmp_path) as url:
        yield url


async def seat_all(url: str, table: dict[str, Any], tokens: dict[str, str], urls: dict[str, str]) -> dict[str, Player]:
    players = {
        s: Player(urls.get(s, url), table["table"], token=tok, seed=i) for i, (s, tok) in enumerate(tokens.items())
    }
    for p in players.values():
        await p.connect()
    await players["S"].send({"type": "start"})
    return players


def test_every_table_continues_after_a_sigkill_and_a_restart(tmp_path: Path) -> None:
    server = Server(tmp_path / "belote.sqlite3", tmp_path / "serve.log", "--pace", "0", "--turn-timer", "600")
    server.start()
    try:
        four, four_tokens = private_table(server.base, 4, QUICK)
        two, two_tokens = private_table(server.base, 2, QUICK)
        lobby, _ = private_table(server.base, 1, QUICK)
        solo = post(server.base, "/api/solo", {"strength": "easy", "deals": 1})

        async def before() -> tuple[dict[str, Player], dict[str, Player], State]:
            a = await seat_all(server.ws_url, four, four_tokens, {})
            b = await seat_all(server.ws_url, two, two_tokens, {})
            await asyncio.gather(*(p.play(tricks_done(3)) for p in a.values()))
            watcher = Player(server.ws_url, two["table"], watch=two["watch"])
            seen = await watcher.connect()
            await watcher.close()
            return a, b, seen

        four_players, two_players, _ = run(before())
        views_before = {s: p.state["view"] for s, p in four_players.items() if p.state}
        server.kill()  # mid-deal: the four-player table is in its first deal's fourth trick
        server.start()

        async def after() -> None:
            for p in [*four_players.values(), *two_players.values()]:
                p.ws, p.state = None, None
                state = await p.connect()
                if p.table == four["table"]:
                    assert state["view"] == views_before[state["seat"]], "the table is not where it was"
            await asyncio.gather(*(p.play(match_over) for p in [*four_players.values(), *two_players.values()]))
            me = Player(server.ws_url, solo["table"], token=solo["token"])
            await me.connect()
            await me.play(match_over)
            host = Player(server.ws_url, lobby["table"], token=lobby["token"])
            state = await host.connect()
            assert state["status"] == "lobby"
            for p in [*four_players.values(), *two_players.values(), me, host]:
                await p.close()
                assert not p.errors

        run(after())
    finally:
        server.stop()


def test_two_processes_share_tables_through_redis_and_survive_one_killed(tmp_path: Path, redis_url: str) -> None:
    args = ("--pace", "0", "--turn-timer", "600", "--queue-wait", "600", "--redis", redis_url)
    a = Server(tmp_path / "a.sqlite3", tmp_path / "a.log", *args)
    b = Server(tmp_path / "b.sqlite3", tmp_path / "b.log", *args)
    r = redis.Redis.from_url(redis_url)
    try:
        a.start()
        b.start()
        # Four people at one table, two on each process; a table of two people and two bots made on A.
        four, four_tokens = private_table(a.base, 4, QUICK)
        two, two_tokens = private_table(a.base, 2, QUICK)
        on_b = {"E": b.ws_url, "W": b.ws_url}
        urls = [a.ws_url, b.ws_url]

        async def play() -> list[State]:
            p4 = await seat_all(a.ws_url, four, four_tokens, on_b)
            p2 = await seat_all(a.ws_url, two, two_tokens, {"N": b.ws_url})
            await asyncio.gather(*(p.play(tricks_done(2)) for p in [*p4.values(), *p2.values()]))
            a.kill()  # mid-deal; A drove the bots of the second table
            ends = await asyncio.gather(
                *(p.play_reconnecting(match_over, urls[1:]) for p in [*p4.values(), *p2.values()])
            )
            for p in [*p4.values(), *p2.values()]:
                await p.close()
                assert not p.errors, p.errors
            return list(ends)

        ends = run(play())
        assert all(match_over(s) for s in ends)
        for table in (four, two):
            match = redis_replayed(r, table["table"])
            assert match.over, "the match in Redis is not over"
            final = [s for s in ends if s["table"] == table["table"]]
            score = {"NS": match.score[0], "EW": match.score[1]}
            assert all(s["view"]["score"] == score for s in final)
            assert not r.sismember("belote:active", table["table"])  # no process drives it any more
            assert 0 < r.ttl(f"belote:t:{table['table']}:meta") <= 7 * 24 * 3600  # kept a week

        # The queue is one queue: two players wait on each process and are seated together.
        a.start()

        async def queue() -> list[dict[str, Any]]:
            sockets = [await connect(url) for url in (a.ws_url, a.ws_url, b.ws_url, b.ws_url)]
            for i, ws in enumerate(sockets):
                await ws.send(json.dumps({"type": "queue", "name": f"Q{i}"}))
            matched = []
            for ws in sockets:
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] == "matched":
                        matched.append(msg)
                        break
                await ws.close()
            return matched

        matched = run(queue())
        assert len({m["table"] for m in matched}) == 1
        assert sorted(m["seat"] for m in matched) == ["E", "N", "S", "W"]
    finally:
        a.stop()
        b.stop()
        r.close()


def test_the_queue_counts_and_seats_the_players_of_every_process(tmp_path: Path, redis_url: str) -> None:
    args = ("--pace", "0", "--turn-timer", "600", "--queue-wait", "4", "--redis", redis_url)
    a = Server(tmp_path / "a.sqlite3", tmp_path / "a.log", *args)
    b = Server(tmp_path / "b.sqlite3", tmp_path / "b.log", *args)
    games = {"classic": 0, "coinche": 0, "three-handed": 0, "two-handed": 0}

    async def queue() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        ana, ben, cy = [await connect(url) for url in (a.ws_url, b.ws_url, b.ws_url)]

        async def next_of(ws: Any, kind: str) -> dict[str, Any]:
            while True:
                msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg["type"] == kind:
                    return msg

        heard = []
        for ws, name, variant in ((ana, "Ana", "classic"), (ben, "Ben", "coinche"), (cy, "Cy", "classic")):
            await ws.send(json.dumps({"type": "queue", "name": name, "variant": variant}))
            heard.append(await next_of(ws, "queue"))  # each in the queue before the next comes
        news = await next_of(ana, "queue")  # Ana, on A, hears of Ben and Cy, on B
        while news["waiting_by_game"] != {**games, "classic": 2, "coinche": 1}:
            news = await next_of(ana, "queue")
        heard.append(news)
        matched = [await next_of(ws, "matched") for ws in (ana, ben, cy)]  # the wait is over: bots come
        for ws in (ana, ben, cy):
            await ws.close()
        return heard, matched

    try:
        a.start()
        b.start()
        (ana, ben, cy, ana_later), matched = run(queue())
    finally:
        a.stop()
        b.stop()
    assert ana["waiting_by_game"] == {**games, "classic": 1} and ana["waiting"] == 1
    assert ben["waiting_by_game"] == {**games, "classic": 1, "coinche": 1} and ben["waiting"] == 1
    assert cy["waiting_by_game"] == {**games, "classic": 2, "coinche": 1} and cy["waiting"] == 2
    # The bots come for Ana and Cy four seconds after Ana came, whichever process tells them.
    assert 0 < cy["left_ms"] <= ana["left_ms"] <= 4000 and ana_later["left_ms"] <= cy["left_ms"]
    assert ana_later["waiting"] == 2 and ana_later["variant"] == "classic"
    # Ana and Cy at one table, partners; Ben alone with three bots at another.
    assert matched[0]["table"] == matched[2]["table"] != matched[1]["table"]
    assert [m["seat"] for m in matched] == ["S", "S", "N"]


async def first_state(player: Player, test: Any, timeout: float = 20.0) -> State:
    """The first state ``player`` receives that passes ``test``."""
    async with asyncio.timeout(timeout):
        while True:
            state = await player.next_state()
            if test(state):
                return state


def gone(seat: str) -> Any:
    return lambda state: "away" in state["players"][seat]


def nobody_away(state: State) -> bool:
    return not any("away" in player for player in state["players"].values())


@pytest.mark.parametrize("processes", [1, 2], ids=["sqlite", "redis-two-processes"])
def test_a_player_who_leaves_is_shown_gone_within_two_seconds_then_the_bot_then_back(
    tmp_path: Path, processes: int, request: pytest.FixtureRequest
) -> None:
    """A player closes their page mid-deal: everybody at the table, spectators included, whichever
    process their socket is on, is shown within two seconds that they are gone and in how long a bot
    stands in; then that a bot plays for them; they come back through another process and are shown back."""
    timer = 5
    args: tuple[str, ...] = ("--pace", "0", "--turn-timer", str(timer))
    if processes == 2:
        args += ("--redis", request.getfixturevalue("redis_url"))
    servers = [Server(tmp_path / f"{i}.sqlite3", tmp_path / f"{i}.log", *args) for i in range(processes)]
    for server in servers:
        server.start()
    first, last = servers[0], servers[-1]
    try:
        table, tokens = private_table(first.base, 4, {"strength": "easy", "turn_timer": timer, "deals": 10})

        async def scenario() -> None:
            # S and N on the first process, E and W and a spectator on the last (two processes in Redis mode).
            people = await seat_all(first.ws_url, table, tokens, {"E": last.ws_url, "W": last.ws_url})
            spectators = [Player(s.ws_url, table["table"], watch=table["watch"]) for s in servers]
            for p in spectators:
                await p.connect()
            for p in [*people.values(), *spectators]:
                assert p.state is not None
                if p.state["status"] != "playing":
                    await first_state(p, lambda s: s["status"] == "playing")
            # A seat whose socket opened after the driver's grace (two processes: on the other one,
            # which it heard of later) may first be shown gone, then back as soon as it is heard of.
            for p in [*people.values(), *spectators]:
                assert p.state is not None
                if not nobody_away(p.state):
                    await first_state(p, nobody_away)
            order = people["S"].state["view"]["order"]  # nobody acts: each turn lasts the turn timer
            leaver = max("E", "W", key=order.index)  # two turns at least before theirs
            watchers = [*(p for s, p in people.items() if s != leaver), *spectators]

            left = time.monotonic()
            await people[leaver].close()  # the page is closed: its socket closes
            shown = [await first_state(p, gone(leaver)) for p in watchers]
            assert time.monotonic() - left < 2.0, f"{leaver}'s absence took more than two seconds to be shown"
            for state in shown:
                assert state["view"]["to_move"] != leaver
                away = state["players"][leaver]["away"]
                assert (timer - 2) * 1000 < away["standin_ms"] <= timer * 1000, away
                assert state["players"][leaver]["standin"] is False

            # When the absence has lasted the turn timer, a bot plays for them, still shown gone.
            stood = [await first_state(p, lambda s: s["players"][leaver]["standin"]) for p in watchers]
            assert all(s["players"][leaver]["away"] == {"standin_ms": None} for s in stood)

            # They come back, through the first process: shown back to everybody, no bot for them.
            people[leaver].url, people[leaver].state = first.ws_url, None
            mine = await people[leaver].connect()
            assert "away" not in mine["players"][leaver] and mine["players"][leaver]["standin"] is False
            for p in watchers:
                back = await first_state(p, lambda s: "away" not in s["players"][leaver])
                assert back["players"][leaver]["standin"] is False
            for p in [*people.values(), *spectators]:
                await p.close()
                assert not p.errors, p.errors

        run(scenario())
    finally:
        for server in servers:
            server.stop()
