"""Where the bots think: worker processes decide as the bot would here, a dead worker costs no table,
and a table's person is answered while a bot of another table is still thinking."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.managers import SyncManager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import belote.bots
from belote.bots import make_bot
from belote.bots.heuristic import HeuristicBot
from belote.cli import build_parser
from belote.game import Action, Match, PlayerView
from belote.rules import Rules
from belote.server import room
from belote.server.hub import local_hub
from belote.server.manager import TableManager
from belote.server.room import check_settings
from belote.server.store import SQLiteStore
from belote.server.tables import Client, ServerConfig
from belote.server.thinking import NOBODY, FairQueue, Thinker, address_owner, default_workers
from belote.variants import VARIANTS
from games import GAMES
from netplay import Server, receive, run, until


def views(game: str, seed: int, every: int) -> list[PlayerView]:
    """Every ``every``-th view of a deal of ``game`` played by heuristic bots, bids and cards."""
    rules = Rules(variant=game)
    match = Match(rules, seed)
    bot = HeuristicBot()
    out: list[PlayerView] = []
    while True:  # to the end of the first deal played out (not thrown in)
        deal, seat = match.deal, match.to_move
        assert seat is not None
        view = match.view(seat)
        if len(out) * every <= len(match.actions) and len(view.legal) > 1:
            out.append(view)
        match.apply(bot.act(view), seat=seat)
        if deal.result is not None and deal.result.outcome != "thrown-in":
            return out


@pytest.fixture(scope="module")
def thinker() -> Iterator[Thinker]:
    t = Thinker(2)
    yield t
    run(t.close())


@pytest.mark.parametrize("game", GAMES)
def test_a_worker_decides_exactly_as_the_bot_does_here(thinker: Thinker, game: str) -> None:
    """The bots keep nothing from one decision to the next: a copy in a worker gives the same action."""
    chosen = views(game, 7, every=5)
    assert any(v.phase == "bidding" for v in chosen) and any(v.phase == "play" for v in chosen)
    bots = [make_bot("search", seed=7 * 7 + s, think=0.5) for s in range(VARIANTS[game].players)]
    here = [bots[v.seat or 0].act(v) for v in chosen]

    async def there() -> list[Action]:
        return [await thinker.act(bots[v.seat or 0], v) for v in chosen]

    assert thinker.processes
    assert run(there()) == here


class DyingBot:
    """Kills the process it thinks in: every time, or only while ``marker`` does not exist (it makes it)."""

    name = "dying"

    def __init__(self, marker: str | None = None) -> None:
        self.marker = marker

    def act(self, view: PlayerView) -> Action:
        if self.marker is None or not os.path.exists(self.marker):
            if self.marker is not None:
                Path(self.marker).touch()
            os._exit(3)
        return view.legal[-1]


def test_a_dead_worker_is_replaced_and_the_decision_tried_again(tmp_path: Path) -> None:
    marker = tmp_path / "died-once"
    view = views("classic", 3, every=4)[0]
    thinker = Thinker(1)

    async def decide() -> tuple[Action, Action]:
        try:
            first = await thinker.act(DyingBot(str(marker)), view)
            later = await thinker.act(make_bot("heuristic"), view)
        finally:
            await thinker.close()
        return first, later

    first, later = run(decide())
    assert marker.exists()  # it died once, then the new pool's worker decided
    assert first == view.legal[-1]
    assert later == HeuristicBot().act(view)


def test_a_decision_no_worker_survives_is_the_heuristic_bots(tmp_path: Path) -> None:
    view = views("coinche", 4, every=3)[1]
    thinker = Thinker(1)

    async def decide() -> Action:
        try:
            return await thinker.act(DyingBot(), view)
        finally:
            await thinker.close()

    assert run(decide()) == HeuristicBot().act(view)


class GateBot:
    """Waits in its decision until the test opens the gate (a manager's event: it crosses processes)."""

    name = "gate"

    def __init__(self, inside: Any, gate: Any) -> None:
        self.inside, self.gate = inside, gate

    def act(self, view: PlayerView) -> Action:
        self.inside.set()
        self.gate.wait(120)  # bounded: a test that went wrong fails instead of hanging
        return view.legal[0]


def test_one_worker_thinking_long_does_not_hold_the_others() -> None:
    """Two workers: while one waits in a decision, the other answers another table's bot."""
    view = views("classic", 5, every=6)[2]
    thinker = Thinker(2)
    with SyncManager() as manager:
        inside, gate = manager.Event(), manager.Event()

        async def decide() -> tuple[bool, Action, Action]:
            import asyncio

            try:
                slow = asyncio.ensure_future(thinker.act(GateBot(inside, gate), view))
                await asyncio.to_thread(inside.wait, 120)
                quick = await thinker.act(make_bot("heuristic"), view)
                still_thinking = not slow.done()
                gate.set()
                return still_thinking, quick, await slow
            finally:
                await thinker.close()

        still_thinking, quick, slow = run(decide())
    assert still_thinking
    assert quick == HeuristicBot().act(view)
    assert slow == view.legal[0]


@pytest.fixture(params=[0, 2], ids=["threads", "processes"])
def gated(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, Any, Any]]:
    """Think workers (0: threads), and the gate's events: the bots of "easy" tables wait at the gate;
    those of "strong" tables are the heuristic bot."""
    workers: int = request.param
    with SyncManager() as manager:
        inside, gate = (threading.Event(), threading.Event()) if not workers else (manager.Event(), manager.Event())
        monkeypatch.setitem(belote.bots._REGISTRY, "gate", lambda **_: GateBot(inside, gate))
        monkeypatch.setitem(room.STRENGTHS, "easy", ("gate", {}))
        monkeypatch.setitem(room.STRENGTHS, "strong", ("heuristic", {}))
        yield workers, inside, gate
        gate.set()


def join(ws: Any, table: dict[str, Any]) -> dict[str, Any]:
    ws.send_json({"type": "join", "table": table["table"], "token": table["token"], "since": -1})
    state: dict[str, Any] = receive(ws)
    return state


def test_a_person_is_answered_while_a_bot_of_another_table_thinks(
    app_client: Callable[..., TestClient], gated: tuple[int, Any, Any]
) -> None:
    workers, inside, gate = gated
    with app_client(pace=0.0, think_workers=workers) as client:
        a = client.post("/api/solo", json={"strength": "easy", "speed": "fast"}).json()
        b = client.post("/api/solo", json={"strength": "strong", "speed": "fast"}).json()
        with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
            state = join(ws_a, a)
            if state["view"]["legal"]:  # the person of table A is first: then a bot of A is next
                ws_a.send_json({"type": "act", "action": state["view"]["legal"][0]})
                state = receive(ws_a)
            seen_at_a = state["last"]
            assert inside.wait(120)
            state = join(ws_b, b)
            while not state["view"]["legal"]:
                state = receive(ws_b)
            ws_b.send_json({"type": "act", "action": state["view"]["legal"][0]})
            answered = receive(ws_b)
            assert answered["last"] > state["last"]
            assert not gate.is_set()  # table A's bot was thinking all along
            gate.set()
            assert until(ws_a, lambda s: s["last"] > seen_at_a)["events"]


def test_the_app_thinks_in_processes_by_default_and_stops_them_with_itself(
    app_client: Callable[..., TestClient],
) -> None:
    with app_client() as client:
        thinker = client.app.state.tables.config.thinker  # type: ignore[attr-defined]
        assert thinker.processes and thinker.workers == default_workers()
        pids = set(thinker._pool._processes)
        assert len(pids) == thinker.workers  # started with the app, not at the first decision
    assert not thinker.processes
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # reaped: the workers are gone


def test_serve_takes_a_number_of_think_workers() -> None:
    assert build_parser().parse_args(["serve"]).think_workers is None
    assert build_parser().parse_args(["serve", "--think-workers", "0"]).think_workers == 0
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--think-workers", "-1"])


# ----------------------------------------------------------------- the fair queue
def _take_turns(
    queue: FairQueue, tasks: list[tuple[str, str]], started: list[str], gate: asyncio.Event | None = None
) -> list[asyncio.Task[None]]:
    """Tasks (owner, label) through ``queue``, each started now; each notes its label when its turn
    comes and holds its place until the loop has gone round once, the first until ``gate`` opens."""

    async def task(owner: str, label: str) -> None:
        release = await queue.turn(owner)
        started.append(label)
        if gate is not None and len(started) == 1:
            await gate.wait()
        await asyncio.sleep(0)
        release()

    return [asyncio.ensure_future(task(owner, label)) for owner, label in tasks]


async def _until(test: Callable[[], bool]) -> None:
    """Lets the loop run until ``test`` holds (a bounded number of rounds: no clock)."""
    for _ in range(1000):
        if test():
            return
        await asyncio.sleep(0)
    raise AssertionError("the queue never came to the awaited state")


def test_a_new_owner_takes_the_next_place_however_long_the_backlog_of_another() -> None:
    async def main() -> list[str]:
        queue, started, gate = FairQueue(1), [], asyncio.Event()
        tasks = _take_turns(queue, [("A", f"A{i}") for i in range(100)], started, gate)
        await _until(lambda: queue.waiting("A") == 99)  # A0 in the place, the others waiting
        tasks += _take_turns(queue, [("B", "B")], started)
        await _until(lambda: queue.waiting("B") == 1)
        assert queue.busy == 1 and started == ["A0"]
        gate.set()
        await asyncio.gather(*tasks)
        return started

    started = run(main())
    assert started[:3] == ["A0", "B", "A1"] and len(started) == 101


def test_owners_share_the_places_and_an_owner_alone_takes_them_all() -> None:
    async def main() -> tuple[list[str], int, int]:
        queue, started = FairQueue(2), []
        await asyncio.gather(
            *_take_turns(queue, [("A", f"A{i}") for i in range(4)] + [("B", "B0"), ("B", "B1")], started)
        )
        holding = [await queue.turn("C"), await queue.turn("C")]  # both places at once: nobody else waits
        busy = queue.busy
        for release in holding:
            release()
            release()  # given back once only
        return started, busy, queue.busy

    # A's first two take both places; then each owner in turn, B first (A has one running, B none).
    assert run(main()) == (["A0", "A1", "B0", "A2", "B1", "A3"], 2, 0)


def test_a_task_cancelled_while_it_waits_leaves_its_line_and_a_place_given_back_goes_on() -> None:
    async def main() -> list[str]:
        queue, started = FairQueue(1), []
        first = await queue.turn("A")
        waiting = asyncio.ensure_future(queue.turn("A"))
        after = _take_turns(queue, [("B", "B")], started)
        await _until(lambda: queue.waiting() == 2)
        waiting.cancel()  # the table moved on while its bot waited for a worker
        await _until(lambda: queue.waiting() == 1)
        assert queue.busy == 1 and not started
        first()
        await asyncio.gather(*after)
        assert queue.busy == 0 and queue.waiting() == 0
        return started

    assert run(main()) == ["B"]


def test_the_pool_holds_one_task_per_worker_and_another_owners_decision_comes_second() -> None:
    """One worker, a hundred decisions of one owner (the first held in the worker at a gate), then
    one of another owner: the other's runs second, not a hundred and first."""
    view = views("classic", 5, every=6)[2]
    thinker = Thinker(1)
    with SyncManager() as manager:
        inside, gate = manager.Event(), manager.Event()

        async def decide() -> list[str]:
            done: list[str] = []

            def ask(bot: Any, owner: str, label: str) -> asyncio.Future[Action]:
                future = asyncio.ensure_future(thinker.act(bot, view, owner))
                future.add_done_callback(lambda _: done.append(label))
                return future

            try:
                asked = [ask(GateBot(inside, gate), "A", "A0")]
                await asyncio.to_thread(inside.wait, 120)
                asked += [ask(make_bot("heuristic"), "A", f"A{i}") for i in range(1, 100)]
                asked.append(ask(make_bot("heuristic"), "B", "B"))
                await asyncio.sleep(0)
                assert (thinker.queue.busy, thinker.queue.waiting("A"), thinker.queue.waiting("B")) == (1, 99, 1)
                gate.set()
                await asyncio.gather(*asked)
            finally:
                await thinker.close()
            return done

        done = run(decide())
    assert done[:3] == ["A0", "B", "A1"] and len(done) == 101


def test_a_tables_bots_think_in_the_turn_of_the_people_they_play_for(tmp_path: Path) -> None:
    """The people at a table are its bots' owner in the fair queue: a person's address (one turn for
    all the tables and hints of an address), the table when its people are elsewhere, and one turn
    for every table nobody is at (a stranger's three hundred abandoned tables are one owner)."""

    async def send(msg: Any) -> None:
        pass

    async def main() -> tuple[list[str], str]:
        store = SQLiteStore(tmp_path / "owners.sqlite3")
        manager = TableManager(local_hub(store), ServerConfig(pace=0.0))
        table, _, seat = await manager.create_solo(check_settings({"strength": "easy"}))
        other, _, _ = await manager.create_solo(check_settings({"strength": "easy"}))
        owners = [table.bots_owner(), other.bots_owner()]
        table.clients.append(Client(None, send, address="198.51.100.7"))  # a spectator is nobody's bots
        owners.append(table.bots_owner())
        table.clients += [Client(seat, send, address="203.0.113.9"), Client(seat, send, address="192.0.2.1")]
        owners.append(table.bots_owner())
        table.clients.clear()
        table.driver.heard_presence("another process", [seat])
        owners.append(table.bots_owner())
        await manager.close()
        store.close()
        return owners, table.id

    owners, table_id = run(main())
    assert owners == [NOBODY, NOBODY, NOBODY, address_owner("192.0.2.1"), f"table {table_id}"]


# ----------------------------------------------------------------- the workers end with their server
def _children(pid: int) -> list[int]:
    """The processes ``pid`` started and that still run or wait to be reaped (Linux's /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def _running(pid: int) -> bool:
    """Whether process ``pid`` has not ended (a zombie has: only its parent's wait for it is left)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def test_the_workers_and_their_fork_server_end_when_their_server_is_killed(tmp_path: Path) -> None:
    """``kill -9`` of ``belote serve``: its fork server and every worker it had end (they waited for
    ever, three a kill, and a supervisor restarting the server piled them up)."""
    server = Server(tmp_path / "serve.sqlite3", tmp_path / "serve.log", "--think-workers", "2")
    server.start()
    try:
        assert server.proc is not None
        started = _children(server.proc.pid)  # the fork server and multiprocessing's resource tracker
        forkservers = [p for p in started if b"forkserver" in Path(f"/proc/{p}/cmdline").read_bytes()]
        assert len(forkservers) == 1
        workers = _children(forkservers[0])
        said = re.search(r"the bots think in 2 worker processes: ([\d ]+)", server.log_path.read_text())
        assert said is not None and sorted(map(int, said[1].split())) == sorted(workers) and len(workers) == 2
        server.kill()
        deadline = time.monotonic() + 30  # a bound for a loaded machine: they end within milliseconds
        while any(map(_running, started + workers)) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert [p for p in started + workers if _running(p)] == []
    finally:
        server.stop()
