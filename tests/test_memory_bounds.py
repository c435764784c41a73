"""What a server holds for its clients stays within a bound however long it runs: each structure that
bench/soak.py ``--mix --trace`` found growing under a day's traffic, filled far past its bound with a
clock the test controls.
"""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.server import app as app_module
from belote.server.limits import Window
from netplay import receive

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
