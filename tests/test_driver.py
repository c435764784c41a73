"""A table's driver and its store: against a real ``redis-server``, killed while a bot decides, then
started again (empty, as a Redis without persistence comes back); and stopped while a command lost
its cancel.

The bot's play meets the outage: the table says so in one line when it begins (no traceback, no
"bot failed" each round), tries again each second with the decision it made, and the bot plays as
soon as Redis answers; the table is written back whole and its stored log replays."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis

import belote.bots
from belote.game import Action, PlayerView
from belote.server import room
from belote.server.hub import local_hub
from belote.server.manager import TableManager
from belote.server.redis_hub import RedisLink, redis_hub
from belote.server.room import Act, BotPlay, Message, check_settings
from belote.server.store import SQLiteStore
from belote.server.tables import Client, ServerConfig
from netplay import RedisProcess, redis_replayed, run


class GateBot:
    """Waits in its decision until the test opens the gate (the bots think in threads here)."""

    name = "gate"

    def __init__(self, inside: threading.Event, gate: threading.Event, decided: list[PlayerView]) -> None:
        self.inside, self.gate, self.decided = inside, gate, decided

    def act(self, view: PlayerView) -> Action:
        self.decided.append(view)
        self.inside.set()
        self.gate.wait(120)  # bounded: a test that went wrong fails instead of hanging
        return view.legal[0]


async def _until(test: Callable[[], bool], what: str) -> None:
    """Waits until ``test`` holds, looking every 10 ms (bounded: Redis's retries take seconds)."""
    for _ in range(6000):
        if test():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never came: {what}")


def test_a_bots_play_during_a_redis_outage_is_said_once_and_made_when_redis_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    inside, gate, decided = threading.Event(), threading.Event(), list[PlayerView]()
    monkeypatch.setitem(belote.bots._REGISTRY, "gate", lambda **_: GateBot(inside, gate, decided))
    monkeypatch.setitem(room.STRENGTHS, "easy", ("gate", {}))
    caplog.set_level(logging.INFO, logger="belote.tables")
    store = RedisProcess(tmp_path)
    store.start()

    async def main() -> tuple[str, int, int, int]:
        hub = redis_hub(RedisLink.connect(store.url), watch_epoch=False)  # the bot's play itself finds the loss
        manager = TableManager(hub, ServerConfig(pace=0.0, turn_timer=600))
        table, _, seat = await manager.create_solo(check_settings({"strength": "easy", "deals": 1}))

        async def send(msg: Any) -> None:
            pass

        table.clients.append(Client(seat, send))  # the person is there: the solo table's bots play
        match = table.match
        assert match is not None
        if match.to_move == seat:
            await table.mutate(Act(seat, match.legal_actions()[0]))
        table.wake()
        await asyncio.to_thread(inside.wait, 60)  # a bot is deciding
        tries: list[BotPlay] = []
        mutate = table.driver.mutate

        async def counted(message: Message, expected: int | None) -> Any:
            if isinstance(message, BotPlay):
                tries.append(message)
            return await mutate(message, expected)

        table.driver.mutate = counted
        before = table.n_actions
        store.kill()
        gate.set()
        await _until(lambda: len(tries) >= 3, "three tries of the bot's play while Redis is down")
        assert table.n_actions == before
        assert len(decided) == 1  # each try plays the decision made before the outage: none is made again
        store.start()  # back, and empty
        await _until(lambda: table.n_actions > before, "the bot's play once Redis is back")
        played = table.n_actions
        await _until(lambda: sum(r.module == "driver" for r in caplog.records) == 2, "the line saying it is back")
        await _until(lambda: table.next_job() is None, "the person's turn (the bots played up to it)")
        await manager.close()
        await hub.close()
        return table.id, before, played, len({(m.seat, m.action) for m in tries[:3]})

    try:
        table_id, before, played, decisions = run(main())
        stored = redis_replayed(redis.Redis.from_url(store.url), table_id)
    finally:
        store.kill()
    assert played > before and stored.action_count >= played  # written back whole: it replays
    assert decisions == 1  # the three tries while Redis was down were of one play
    driver = [(r.levelname, r.getMessage()) for r in caplog.records if r.module == "driver"]
    assert len(driver) == 2 and driver[0][0] == "WARNING"
    assert driver[0][1].startswith("the table waits for the store, out of reach: Error 111 connecting to")
    assert driver[1] == ("INFO", "the store answers again: the table goes on")
    tables = [r for r in caplog.records if r.name == "belote.tables"]
    assert not [r for r in tables if r.exc_info or r.levelno >= logging.ERROR]  # no traceback, no "bot failed"


def test_a_driver_stops_even_when_a_redis_command_swallows_its_cancel(tmp_path: Path) -> None:
    """redis-py 8.2 can lose a task's cancel in the middle of a command (the task goes on, "cancelling"):
    a driver stopped there (the server stops, or its lease went to another process) went on playing
    its bots, and ``stop`` waited for ever."""

    async def main() -> tuple[int, int, bool]:
        store = SQLiteStore(tmp_path / "stop.sqlite3")
        manager = TableManager(local_hub(store), ServerConfig(pace=0.0, turn_timer=600))
        table, _, seat = await manager.create_solo(check_settings({"strength": "easy"}))
        entered, release = asyncio.Event(), asyncio.Event()
        mutate = table.driver.mutate

        async def swallowing(message: Message, expected: int | None) -> Any:
            if isinstance(message, BotPlay) and not entered.is_set():
                entered.set()
                with contextlib.suppress(asyncio.CancelledError):  # as the Redis command does
                    await release.wait()
            return await mutate(message, expected)

        async def send(msg: Any) -> None:
            pass

        table.driver.mutate = swallowing
        table.clients.append(Client(seat, send))
        match = table.match
        assert match is not None
        if match.to_move == seat:
            await table.mutate(Act(seat, match.legal_actions()[0]))
        table.wake()
        await entered.wait()
        before = table.n_actions
        await asyncio.wait_for(table.stop(), 60)  # a bound, for a driver that never stops
        after = table.n_actions
        await asyncio.sleep(0)
        driving = table.driving
        await manager.close()
        store.close()
        return before, after, driving

    before, after, driving = run(main())
    assert after == before + 1 and not driving  # the play under way was made, and no other
