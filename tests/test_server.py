"""The server through the ASGI test client: every route, and the websocket protocol with bad input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote import cli
from belote.game import Match, parse_action
from belote.record import match_records
from belote.server.room import check_settings, new_match
from belote.server.store import SQLiteStore

FAST = {"strength": "easy", "speed": "fast"}


def solo(client: TestClient, **settings: Any) -> dict[str, Any]:
    r = client.post("/api/solo", json={**FAST, **settings})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def receive_state(ws: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state":
            return msg


def test_pages_and_health(client: TestClient) -> None:
    assert client.get("/api/health").json()["ok"] is True
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text.lower()
    assert client.get("/scores").status_code == 200
    assert client.get("/static/app.js").status_code == 200


def test_solo_table_settings_are_checked(client: TestClient) -> None:
    data = solo(client)
    assert data["seat"] == "S" and len(data["table"]) >= 22 and len(data["token"]) >= 22
    for bad, word in (
        ({"strength": "godlike"}, "strength"),
        ({"target": 5}, "target"),
        ({"deals": 0}, "deals"),
        ({"colour": "red"}, "unknown setting"),
        ({"direction": "up"}, "direction"),
    ):
        r = client.post("/api/solo", json=bad)
        assert r.status_code == 400 and word in r.json()["error"]
    r = client.post("/api/solo", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    r = client.post("/api/solo", content=b"{}", headers={"content-type": "text/plain"})
    assert r.status_code == 415 and r.json()["code"] == "json_only"


def test_join_and_play_through_the_socket(client: TestClient) -> None:
    data = solo(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": data["table"], "token": data["token"], "since": -1})
        state = receive_state(ws)
        assert state["seat"] == "S"
        assert state["events"][0][0] == 0
        view = state["view"]
        assert len(view["hand"]) == 5
        assert view["players"] if "players" in view else state["players"]["S"]["bot"] is False
        # Play until a card is asked of us; every state carries only our hand.
        for _ in range(400):
            view = state["view"]
            if state["waiting"] == "continue":
                ws.send_json({"type": "continue"})
            elif view["legal"]:
                ws.send_json({"type": "act", "action": view["legal"][-1]})
            if view["deal_number"] >= 2:
                break
            state = receive_state(ws)
        assert state["view"]["deal_number"] >= 2


def test_bad_messages_are_refused_and_the_table_goes_on(client: TestClient) -> None:
    data = solo(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_text("hello")
        assert ws.receive_json() == {
            "type": "error",
            "message": "the message is not JSON",
            "code": "not_json",
            "args": {},
        }
        ws.send_json({"type": "act", "action": "JH"})
        assert "join a table first" in ws.receive_json()["message"]
        ws.send_json({"type": "join", "table": data["table"], "token": "wrong", "since": -1})
        assert "not yours" in ws.receive_json()["message"]
        ws.send_json({"type": "join", "table": data["table"], "token": data["token"], "since": -1})
        state = receive_state(ws)
        before = state["view"]
        for bad, word in (
            ([1, 2, 3], '"type"'),
            ({"type": "dance"}, "unknown message type"),
            ({"type": "act", "action": 12}, "is a card"),
            ({"type": "act", "action": "ZZ"}, "not an action"),
            ({"type": "act", "action": "x" * 100}, "is a card"),
            ({"type": "new_game", "settings": {"speed": "warp"}}, "speed"),
        ):
            ws.send_json(bad)
            msg = ws.receive_json()
            while msg["type"] == "state":  # a bot may act meanwhile
                before = msg["view"]
                msg = ws.receive_json()
            assert msg["type"] == "error" and word in msg["message"], (bad, msg)
        ws.send_text(json.dumps({"type": "act", "action": "pass", "pad": "x" * 5000}))
        msg = ws.receive_json()
        while msg["type"] == "state":
            msg = ws.receive_json()
        assert "too long" in msg["message"]
        assert before["hand"]  # our hand is still there


def test_illegal_card_is_refused_with_the_rule(client: TestClient) -> None:
    data = solo(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": data["table"], "token": data["token"], "since": -1})
        state = receive_state(ws)
        refused = None
        for _ in range(600):
            view = state["view"]
            if state["waiting"] == "continue":
                ws.send_json({"type": "continue"})
            elif view["legal"]:
                illegal = [c for c in view["hand"] if c not in view["legal"]] if view["phase"] == "play" else []
                if illegal:
                    ws.send_json({"type": "act", "action": illegal[0]})
                    msg = ws.receive_json()
                    assert msg["type"] == "error"
                    refused = msg["message"]
                    break
                ws.send_json({"type": "act", "action": view["legal"][0] if view["phase"] == "play" else "take"})
            state = receive_state(ws)
        assert refused is not None and refused.startswith("you must")


def test_a_restart_brings_the_table_back_exactly(db: Path, app_client: Callable[..., TestClient]) -> None:
    with app_client() as c:
        data = solo(c)
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": data["table"], "token": data["token"], "since": -1})
            state = receive_state(ws)
            # Wait for our turn, act once, and read the state that answers it (no more: the next
            # state may never come if the next move is ours again).
            while not state["view"]["legal"]:
                state = receive_state(ws)
            ws.send_json({"type": "act", "action": state["view"]["legal"][-1]})
            state = receive_state(ws)
        stored = SQLiteStore(db).load_table(data["table"])
        assert stored is not None
    meta, actions = stored
    expected = Match.from_dict({"seed": meta["seed"], "first_dealer": "NESW"[meta["seed"] % 4], "actions": actions})
    with app_client() as c2, c2.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": data["table"], "token": data["token"], "since": -1})
        state = receive_state(ws)
        assert state["view"]["hand"] == [str(x) for x in expected.view(2).hand]
        assert len(state["events"]) >= len(expected.events()) - 2
    assert all(parse_action(a) is not None for a in actions)


def test_new_game_starts_over(client: TestClient) -> None:
    data = solo(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": data["table"], "token": data["token"], "since": -1})
        receive_state(ws)
        ws.send_json({"type": "new_game", "settings": {**FAST, "target": 1000}})
        state = receive_state(ws)
        while state["settings"]["target"] != 1000:
            state = receive_state(ws)
        assert state["view"]["rules"]["target"] == 1000
        assert state["events"][0][0] == 0


def test_a_table_stops_driving_when_stopped_as_it_is_woken(tmp_path: Path) -> None:
    """A lost lease or a shutdown stops a table's driver even when a change wakes it at that moment
    (Python 3.11's wait_for swallowed that cancel, and the stop then waited for ever)."""
    import asyncio

    from belote.server.hub import local_hub
    from belote.server.manager import TableManager
    from belote.server.room import Start, check_settings
    from belote.server.tables import ServerConfig
    from netplay import run

    async def main() -> bool:
        manager = TableManager(local_hub(SQLiteStore(tmp_path / "t.sqlite3")), ServerConfig(turn_timer=600))
        table, _ = await manager.create_private("Host", 2, check_settings({}, manager.defaults()))
        for name in ("Nina", "Emil", "Wes"):
            await manager.sit(table.id, table.meta.invite, name, None)
        await table.mutate(Start(2))
        while not table.driver._wake._waiters:  # type: ignore[attr-defined]  # the driver waits out the turn timer
            await asyncio.sleep(0)
        table.wake()
        stopping = asyncio.ensure_future(table.stop())
        done, _ = await asyncio.wait({stopping}, timeout=10)  # fails rather than hangs
        if not done:
            driver = table.driver._task
            assert driver is not None
            driver.cancel()  # a second cancel gets through, so the test ends
            await stopping
        return bool(done)

    assert run(main()) is True


def test_a_tables_finished_deals_download_as_records_that_replay(
    app_client: Callable[..., TestClient], db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The archive: a seat downloads the finished deals at any time, a spectator once the match is
    over; never the deal in progress; the lines replay (``belote replay``) to the table's match."""
    with app_client(pace=0.0, think_workers=0) as client:
        data = solo(client, deals=2)
        url = f"/api/tables/{data['table']}/records"
        bearer = {"Authorization": f"Bearer {data['token']}"}
        assert client.get(url, headers=bearer).text == ""  # nothing finished yet
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": data["table"], "token": data["token"], "since": -1})
            state = receive_state(ws)
            watch = state["watch"]
            while state["view"]["deal_number"] < 2:  # play the first deal to its end
                if state["waiting"] == "continue":
                    ws.send_json({"type": "continue"})
                elif state["view"]["legal"]:
                    ws.send_json({"type": "act", "action": state["view"]["legal"][-1]})
                state = receive_state(ws)
            watcher = {"Authorization": f"Bearer {watch}"}
            refused = client.get(url, headers=watcher)
            assert refused.status_code == 403 and refused.json()["code"] == "match_not_over"
            got = client.get(url, headers=bearer)
            assert got.status_code == 200 and got.headers["content-type"] == "application/x-ndjson"
            assert "attachment" in got.headers["content-disposition"]
            lines = got.text.splitlines()
            assert len(lines) == 1  # the deal in progress is not there
            while not state["view"]["match_over"]:
                if state["waiting"] == "continue":
                    ws.send_json({"type": "continue"})
                elif state["view"]["legal"]:
                    ws.send_json({"type": "act", "action": state["view"]["legal"][-1]})
                state = receive_state(ws)
        for wrong in ({"Authorization": "Bearer nope"}, {"Authorization": data["token"]}, {}):
            answer = client.get(url, headers=wrong)
            assert answer.status_code == 404 and answer.json()["code"] == "no_such_table"
        after = client.get(url, headers=watcher)
        assert after.status_code == 200
        records = [json.loads(line) for line in after.text.splitlines()]
        stored = SQLiteStore(db).load_table(data["table"])
    assert stored is not None
    meta, actions = stored
    match = new_match(check_settings(meta["settings"]), meta["seed"])
    for a in actions:
        match.apply(parse_action(a))
    assert records == match_records(match) and len(records) == len(match.deals) >= 2
    assert records[0] == json.loads(lines[0])
    archive = tmp_path / "archive.jsonl"
    archive.write_text(after.text)
    assert cli.main(["replay", str(archive), "--json"]) == 0
    replays = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["valid"] for r in replays] == [True] * len(records)
    assert list(replays[-1]["score_after"].values()) == match.score  # deal after deal, to the match's end
