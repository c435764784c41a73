"""What a server holds for its clients stays within a bound however long it runs: each structure that
bench/soak.py ``--mix --trace`` found growing under a day's traffic, filled far past its bound with a
clock the test controls.
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.server import app as app_module
from belote.server.hub import local_hub
from belote.server.limits import Window
from belote.server.manager import TableManager
from belote.server.room import DEFAULT_SETTINGS
from belote.server.store import SQLiteStore
from belote.server.tables import ServerConfig
from netplay import receive, run

FAST = {"strength": "easy", "speed": "fast"}

pytestmark = pytest.mark.app_config(pace=0.0)


def test_a_window_holds_only_the_addresses_heard_from_lately() -> None:
    """A new address a second for three hours, each creating one table: the table limit's window
    (20 in 60 s) holds the addresses of the last two minutes at most, not every one it ever saw."""
    window = Window(20, 60.0)
    held = []
    for second in range(3 * 3600):
        assert window.allow(f"10.{second // 65536}.{second // 256 % 256}.{second % 256}", now=float(second))
        held.append(len(window))
    assert max(held) <= 121 and held[-1] <= 121
    assert window.allow("10.0.0.0", now=3 * 3600.0)  # the first address, long forgotten, is welcome


def test_a_window_still_counts_an_address_that_keeps_coming() -> None:
    window = Window(3, 10.0)
    others = [window.allow(f"10.0.0.{i}", now=i * 7.0) for i in range(1, 30)]  # sweeps go by meanwhile
    counted = [window.allow("10.9.9.9", now=t) for t in (200.0, 201.0, 205.0, 209.0, 210.5)]
    assert all(others) and counted == [True, True, True, False, True]


def test_a_socket_sending_nothing_but_malformed_text_holds_a_bounded_record(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[Any] = []

    class Recorded(app_module.Connection):
        def __init__(self, ws: Any) -> None:
            super().__init__(ws)
            opened.append(self)

    monkeypatch.setattr(app_module, "Connection", Recorded)
    with client.websocket_connect("/ws") as ws:
        for _ in range(500):
            ws.send_text("not json")
            assert receive(ws, "error")["code"] == "not_json"
        assert len(opened[0].refused) == app_module.FLOOD[0]
        ws.send_json({"type": "dance"})  # a flood of refusals: this one is not even read
        assert receive(ws, "error")["code"] == "flooding"


def test_a_table_let_go_of_is_freed_at_once_not_by_the_collectors_next_full_pass(tmp_path: Path) -> None:
    """A forgotten table (and its match, and an expired one) is freed as soon as the server lets go of
    it: its driver and replica held its methods, a cycle that only a full collection freed (rare in a
    busy server), and a day of tables created and left piled up between two."""
    now = [1000.0]

    async def scenario() -> list[weakref.ref[Any]]:
        store = SQLiteStore(tmp_path / "freed.sqlite3", clock=lambda: now[0])
        manager = TableManager(local_hub(store), ServerConfig(pace=0.0, think_workers=0), clock=lambda: now[0])
        solo, _, _ = await manager.create_solo({**DEFAULT_SETTINGS, **FAST})
        private, _ = await manager.create_private("Ann", 2, {**DEFAULT_SETTINGS, **FAST})
        assert solo.match is not None
        refs = [weakref.ref(solo), weakref.ref(solo.match), weakref.ref(private)]
        del solo, private
        now[0] += 61
        assert len(await manager.forget_idle()) == 2
        store.close()
        return refs

    gc.collect()
    gc.disable()
    try:
        refs = run(scenario())
        assert [r() for r in refs] == [None, None, None]
    finally:
        gc.enable()


class Held:
    """An object in a cycle with itself, as a closed connection's protocol and transport are."""

    def __init__(self) -> None:
        self.me = self


def test_the_cycles_a_connection_leaves_are_freed_within_thousands_of_allocations_while_serving(
    client: TestClient,
) -> None:
    """While the server runs, a cycle dropped is freed by the next young collection, within a few
    thousand allocations: at a first threshold of 100,000 such cycles (one per connection, one per
    table let go of) waited for 100,000 and the server grew by megabytes a minute."""
    gc.collect()
    held = Held()
    ref = weakref.ref(held)
    del held
    made = [[] for _ in range(20_000)]
    assert ref() is None and len(made) == 20_000
