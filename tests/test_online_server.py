"""Online play through the ASGI test client: private tables, the queue, spectators, chat, the turn timer."""

from __future__ import annotations

import contextlib
import random
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.server import matchmaking
from belote.server.hub import local_hub
from belote.server.manager import TableManager
from belote.server.matchmaking import QUEUE_GAP, Matchmaker
from belote.server.room import BOT_NAMES, bot_names, online_seats, same_name
from belote.server.store import SQLiteStore
from belote.server.tables import ServerConfig, Table
from belote.variants import VARIANTS
from netplay import error, receive, run, stored_table, until

EASY = {"strength": "easy", "speed": "fast"}
Sockets = dict[str, Any]
States = dict[str, dict[str, Any]]


pytestmark = pytest.mark.app_config(pace=0.0)


def create(client: TestClient, name: str = "Alice", **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"name": name, **body})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def sit(client: TestClient, table: dict[str, Any], name: str, seat: str | None = None) -> dict[str, Any]:
    r = client.post(f"/api/tables/{table['table']}/sit", json={"invite": table["invite"], "name": name, "seat": seat})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def join(ws: Any, table: str, token: str, since: int = -1) -> dict[str, Any]:
    ws.send_json({"type": "join", "table": table, "token": token, "since": since})
    return receive(ws)


def test_a_private_table_is_created_with_unguessable_codes(client: TestClient) -> None:
    t = create(client, settings={"target": 1000})
    assert t["seat"] == "S"
    for key in ("table", "token", "invite", "watch"):
        assert len(t[key]) >= 22  # 16 random bytes, URL-safe: 128 bits
    assert len({t["table"], t["token"], t["invite"], t["watch"]}) == 4


@pytest.mark.parametrize(
    ("name", "word"),
    [("", "1 to 24"), ("   ", "1 to 24"), ("x" * 25, "1 to 24"), ("a\x00b", "control"), (12, "1 to 24")],
)
def test_names_are_1_to_24_characters(client: TestClient, name: Any, word: str) -> None:
    r = client.post("/api/tables", json={"name": name})
    assert r.status_code == 400 and word in r.json()["error"]


def test_names_keep_their_text(client: TestClient) -> None:
    t = create(client, name="  <b>Zoé</b>  &co ")
    with client.websocket_connect("/ws") as ws:
        state = join(ws, t["table"], t["token"])
    assert state["players"]["S"]["name"] == "<b>Zoé</b> &co"  # escaping is the page's job: text stays text


def test_seats_are_taken_through_the_invitation(client: TestClient) -> None:
    t = create(client)
    wrong = client.post(f"/api/tables/{t['table']}/sit", json={"invite": t["watch"], "name": "Eve"})
    assert wrong.status_code == 404 and "invitation" in wrong.json()["error"]
    nowhere = client.post("/api/tables/nope/sit", json={"invite": t["invite"], "name": "Eve"})
    assert nowhere.status_code == 404
    taken = client.post(f"/api/tables/{t['table']}/sit", json={"invite": t["invite"], "name": "Bob", "seat": "S"})
    assert taken.status_code == 409 and "taken" in taken.json()["error"]
    seats = [sit(client, t, "Bob", "N")["seat"], sit(client, t, "Carl")["seat"], sit(client, t, "Dan")["seat"]]
    assert seats[0] == "N" and sorted(seats[1:]) == ["E", "W"]
    full = client.post(f"/api/tables/{t['table']}/sit", json={"invite": t["invite"], "name": "Eve"})
    assert full.status_code == 409 and "full" in full.json()["error"]
    assert full.json()["watch"] == t["watch"]  # the invited may still watch


def test_a_guest_leaves_the_lobby_and_the_seat_is_free_again(client: TestClient) -> None:
    t = create(client)
    bob = sit(client, t, "Bob", "N")
    with client.websocket_connect("/ws") as host, client.websocket_connect("/ws") as guest:
        join(host, t["table"], t["token"])
        join(guest, t["table"], bob["token"])
        host.send_json({"type": "leave"})
        assert "host stays" in error(host)
        guest.send_json({"type": "leave"})
        assert receive(guest, "left")["table"] == t["table"]
        assert "N" not in until(host, lambda m: "N" not in m["players"])["players"]
        guest.send_json({"type": "join", "table": t["table"], "token": bob["token"]})
        assert "not yours" in error(guest)
    assert sit(client, t, "Carl", "N")["seat"] == "N"


def test_the_lobby_host_sets_the_rules_and_starts(client: TestClient) -> None:
    t = create(client, settings=EASY)
    bob = sit(client, t, "Bob", "E")
    with client.websocket_connect("/ws") as host, client.websocket_connect("/ws") as guest:
        state = join(host, t["table"], t["token"])
        assert state["status"] == "lobby" and state["view"] is None and state["host"] == "S"
        assert state["invite"] == t["invite"] and state["watch"] == t["watch"]
        assert set(state["players"]) == {"S", "E"}
        join(guest, t["table"], bob["token"])
        guest.send_json({"type": "settings", "settings": {"target": 501}})
        assert "host" in error(guest)
        guest.send_json({"type": "start"})
        assert "host" in error(guest)
        guest.send_json({"type": "seat", "seat": "S"})
        assert "taken" in error(guest)
        guest.send_json({"type": "seat", "seat": "N"})  # partners sit opposite: Bob moves to be Alice's partner
        moved = until(guest, lambda m: m["seat"] == "N")
        assert moved["players"]["N"]["name"] == "Bob" and "E" not in moved["players"]
        assert state["settings"]["target"] == 1000  # the product's match, until the host says otherwise
        host.send_json({"type": "settings", "settings": {**EASY, "target": 501, "turn_timer": 45}})
        until(host, lambda m: m["settings"]["target"] == 501)
        host.send_json({"type": "start"})
        started = until(host, lambda m: m["status"] == "playing")
        assert started["settings"]["turn_timer"] == 45 and started["view"]["rules"]["target"] == 501
        players = started["players"]
        assert players["E"]["bot"] and players["W"]["bot"] and not players["N"]["bot"] and not players["S"]["bot"]
        assert len(started["view"]["hand"]) == 5
        host.send_json({"type": "start"})
        assert "already started" in error(host)
        guest.send_json({"type": "seat", "seat": "E"})
        assert "lobby" in error(guest)
    late = client.post(f"/api/tables/{t['table']}/sit", json={"invite": t["invite"], "name": "Late"})
    assert late.status_code == 409 and "started" in late.json()["error"]


def four_people(client: TestClient, **settings: Any) -> tuple[dict[str, Any], dict[str, str]]:
    t = create(client, settings={**EASY, "turn_timer": 600, **settings})
    tokens = {"S": t["token"]}
    for name, seat in (("Nina", "N"), ("Emil", "E"), ("Wes", "W")):
        tokens[seat] = sit(client, t, name, seat)["token"]
    return t, tokens


def test_a_spectator_sees_no_hand_and_cannot_act_but_talks(client: TestClient) -> None:
    t, tokens = four_people(client)
    with client.websocket_connect("/ws") as host, client.websocket_connect("/ws") as eye:
        join(host, t["table"], tokens["S"])
        host.send_json({"type": "start"})
        until(host, lambda m: m["status"] == "playing")
        eye.send_json({"type": "join", "table": t["table"], "watch": t["watch"], "since": -1})
        seen = receive(eye)
        assert seen["seat"] is None and seen["view"]["hand"] == [] and seen["view"]["legal"] == []
        assert seen["invite"] is None and seen["watch"] is None  # a spectator cannot hand out the links
        for msg in ({"type": "act", "action": "pass"}, {"type": "hint"}, {"type": "start"}):
            eye.send_json(msg)
            assert "spectator" in error(eye)
        eye.send_json({"type": "chat", "text": "hi"})  # but writes in the chat, marked as a spectator
        assert receive(host, "chat") | {"at": 0} == {
            "type": "chat", "seat": None, "name": None, "text": "hi", "reaction": None, "at": 0, "spectator": True
        }  # fmt: skip
        eye.send_json({"type": "join", "table": t["table"], "watch": t["invite"]})
        assert "no such table" in error(eye)


def test_out_of_turn_illegal_malformed_and_oversized_are_refused(client: TestClient) -> None:
    t, tokens = four_people(client)
    with started(client, t, tokens) as (ws, states):
        mover = states["S"]["view"]["to_move"]
        other = next(s for s in ws if s != mover)
        before = states[other]["view"]
        ws[other].send_json({"type": "act", "action": "pass"})
        refused = receive(ws[other], "error")
        assert "turn" in refused["message"]
        assert (refused["code"], refused["args"]) == ("not_your_turn", {"seat": mover, "phase": "bidding"})
        ws[mover].send_json({"type": "act", "action": "AS"})
        refused = receive(ws[mover], "error")
        assert "bid" in refused["message"] or "card" in refused["message"]
        assert (refused["code"], refused["args"]) == ("bidding_not_over", {"card": "AS", "auction": "turned"})
        ws[mover].send_text("{not json")
        assert "not JSON" in error(ws[mover])
        ws[mover].send_json({"type": "act", "action": "x" * 5000})
        assert "too long" in error(ws[mover])
        ws[mover].send_json({"type": "act", "action": ["JH"]})
        assert "an action is" in error(ws[mover])
        ws[mover].send_json({"type": "teleport"})
        assert "unknown message type" in error(ws[mover])
        ws[other].send_json({"type": "join", "table": t["table"], "token": tokens[other], "since": -1})
        assert receive(ws[other])["view"] == before  # nothing changed


def test_chat_lines_reach_the_table_rate_limited(client: TestClient) -> None:
    t, tokens = four_people(client)
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        join(a, t["table"], tokens["S"])
        join(b, t["table"], tokens["N"])
        a.send_json({"type": "chat", "text": "  <i>bien   joué</i> "})
        line = receive(b, "chat")
        assert line["seat"] == "S" and line["name"] == "Alice" and line["text"] == "<i>bien joué</i>"
        a.send_json({"type": "react", "reaction": "bravo"})
        react = receive(b, "chat")
        assert react["reaction"] == "bravo" and react["text"] is None
        a.send_json({"type": "react", "reaction": "boo"})
        assert "reactions are" in error(a)
        a.send_json({"type": "chat", "text": "x" * 201})
        assert "200" in error(a)
        a.send_json({"type": "chat", "text": "  "})
        assert "chat line" in error(a)
        for i in range(3):
            a.send_json({"type": "chat", "text": f"line {i}"})
        a.send_json({"type": "chat", "text": "one too many"})
        assert "slow down" in error(a)
    with client.websocket_connect("/ws") as c:  # the history comes with the join
        c.send_json({"type": "join", "table": t["table"], "token": tokens["E"], "since": -1})
        old = [receive(c, "chat") for _ in range(5)]
        assert all(m["old"] for m in old) and old[0]["text"] == "<i>bien joué</i>" and old[-1]["text"] == "line 2"


def test_every_table_starts_from_the_products_match_to_1000(client: TestClient) -> None:
    """One match at every table of the site: first to 1,000 (the rules, the CLI and the sheet keep 501)."""
    target = next(o for o in client.get("/api/games").json()["options"] if o["name"] == "target")
    assert (target["default"], target["table_default"]) == (501, 1000)
    private = create(client)
    r = client.post("/api/solo", json={})
    assert r.status_code == 200, r.text
    solo = r.json()
    with client.websocket_connect("/ws") as ws:
        assert join(ws, private["table"], private["token"])["settings"]["target"] == 1000
        state = join(ws, solo["table"], solo["token"])
        assert state["settings"]["target"] == state["view"]["rules"]["target"] == 1000


def test_the_queue_seats_four_players_together(client: TestClient) -> None:
    sockets = [client.websocket_connect("/ws") for _ in range(4)]
    ws = [cm.__enter__() for cm in sockets]
    try:
        for i, w in enumerate(ws[:3]):
            w.send_json({"type": "queue", "name": f"P{i}"})
            assert receive(w, "queue")["waiting"] == i + 1
        assert client.get("/api/health").json()["queue"] == 3
        ws[3].send_json({"type": "queue", "name": "P3"})
        matched = [receive(w, "matched") for w in ws]
        assert len({m["table"] for m in matched}) == 1
        assert sorted(m["seat"] for m in matched) == ["E", "N", "S", "W"]
        for w, m in zip(ws, matched, strict=True):
            state = join(w, m["table"], m["token"])
            assert state["kind"] == "online" and state["seat"] == m["seat"] and len(state["view"]["hand"]) == 5
            assert state["view"]["rules"]["target"] == 1000  # the same match as at a solo or private table
            assert not any(p["bot"] for p in state["players"].values())
        assert client.get("/api/health").json()["queue"] == 0
        ws[0].send_json({"type": "new_game"})
        refused = receive(ws[0], "error")
        assert "Play online" in refused["message"] and (refused["code"], refused["args"]) == ("online_one_match", {})
    finally:
        for cm in sockets:
            cm.__exit__(None, None, None)


def test_one_queued_player_gets_three_bots_after_the_wait(app_client: Callable[..., TestClient]) -> None:
    with app_client(pace=0.0, queue_wait=0.5) as client, client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "queue", "name": "Solo"})
        first = receive(ws, "queue")
        assert first["waiting"] == 1 and first["wait"] == 0.5
        started = time.monotonic()
        matched = receive(ws, "matched")
        assert time.monotonic() - started < 5
        state = join(ws, matched["table"], matched["token"])
        bots = [s for s, p in state["players"].items() if p["bot"]]
        assert len(bots) == 3 and matched["seat"] not in bots
        assert state["players"][matched["seat"]]["name"] == "Solo"


def test_a_server_of_short_online_matches_seats_the_queue_at_tables_of_that_many_deals(
    app_client: Callable[..., TestClient],
) -> None:
    with app_client(pace=0.0, queue_wait=0.0, queue_deals=1) as client, client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "queue", "name": "Solo", "variant": "three-handed"})
        matched = receive(ws, "matched")
        state = join(ws, matched["table"], matched["token"])
        assert (state["settings"]["variant"], state["settings"]["deals"]) == ("three-handed", 1)
        assert state["kind"] == "online"


def test_leaving_the_queue(client: TestClient) -> None:
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        a.send_json({"type": "queue", "name": "A"})
        receive(a, "queue")
        b.send_json({"type": "queue", "name": "B"})
        assert receive(b, "queue")["waiting"] == 2
        a.send_json({"type": "leave_queue"})
        assert receive(b, "queue")["waiting"] == 1
    assert client.get("/api/health").json()["queue"] == 0  # closing the socket leaves the queue


def by_game(classic: int = 0, coinche: int = 0, three: int = 0, two: int = 0) -> dict[str, int]:
    return {"classic": classic, "coinche": coinche, "three-handed": three, "two-handed": two}


class Clock:
    """Stands for the module ``time`` in ``belote.server.matchmaking``: the test sets the hour."""

    def __init__(self) -> None:
        self.now = 1000.0

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now


def test_waiting_players_hear_the_counts_and_the_time_left_at_a_modest_rate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr(matchmaking, "time", clock)
    heard: dict[str, list[dict[str, Any]]] = {"A": [], "B": [], "C": []}

    def to(who: str) -> Any:
        async def send(msg: Any) -> None:
            heard[who].append(msg)

        return send

    def queue(
        variant: str, waiting: int, counts: dict[str, int], left_ms: int, seating: str = "partners", expected: int = 0
    ) -> Any:
        # Nobody was seated yet: a player expects the bots' time less what they waited (``expected``:
        # the longest waiting's time left, unless given).
        players = VARIANTS[variant].players
        return {"type": "queue", "variant": variant, "players": players, "waiting": waiting, "wait": 20.0,
                "left_ms": left_ms, "expected_ms": expected or left_ms, "waiting_by_game": counts,
                "seating": seating}  # fmt: skip

    async def scenario() -> None:
        store = SQLiteStore(tmp_path / "queue.sqlite3")
        hub = local_hub(store)
        manager = TableManager(hub, ServerConfig(pace=0.0))
        mm = Matchmaker(hub, manager, wait=20.0, gap=1.0, every=5.0)

        async def at(t: float) -> None:  # a round of the matchmaker's loop at t seconds
            clock.now = 1000.0 + t
            await mm.announce(await mm.match_now())

        await mm.join("Ana", to("A"), "classic")  # t = 0: Ana hears at once
        await at(0.5)
        clock.now = 1000.6
        b = await mm.join("Ben", to("B"), "coinche", "any")
        await at(0.9)  # Ana heard of the queue 0.9 s ago: the news waits
        await at(1.0)
        await at(1.5)  # nothing new
        await at(6.0)  # five seconds without news: everybody hears the time left
        clock.now = 1006.1
        await mm.join("Cy", to("C"), "coinche")
        clock.now = 1006.2
        await mm.leave(b)
        await at(7.0)  # Ana sees the same counts (one in, one out of coinche); Cy heard 0.9 s ago
        await at(7.1)  # Cy's bots come later: Ben, who waited longest, left
        await at(20.0)  # Ana has waited 20 s: seated with three bots
        await manager.close()
        store.close()

    run(scenario())  # in a thread of its own: the browser tests keep an event loop in this one
    assert heard["A"][:-1] == [
        queue("classic", 1, by_game(classic=1), 20000),
        queue("classic", 1, by_game(classic=1, coinche=1), 19000),
        queue("classic", 1, by_game(classic=1, coinche=1), 14000),
    ]
    assert heard["A"][-1]["type"] == "matched"
    assert heard["B"] == [
        queue("coinche", 1, by_game(classic=1, coinche=1), 20000, "any"),
        queue("coinche", 1, by_game(classic=1, coinche=1), 14600, "any"),
    ]
    assert heard["C"] == [
        queue("coinche", 2, by_game(classic=1, coinche=2), 14500, expected=20000),  # Cy has just come
        queue("coinche", 1, by_game(classic=1, coinche=1), 19000),
        queue("coinche", 1, by_game(coinche=1), 6100),
    ]


def test_the_queue_counts_the_people_waiting_for_each_game(client: TestClient) -> None:
    with contextlib.ExitStack() as stack:
        a, b, c = (stack.enter_context(client.websocket_connect("/ws")) for _ in range(3))
        a.send_json({"type": "queue", "name": "Ana"})
        first = receive(a, "queue")
        assert first["waiting_by_game"] == by_game(classic=1) and 19000 < first["left_ms"] <= 20000
        b.send_json({"type": "queue", "name": "Ben", "variant": "coinche"})
        b_came = time.monotonic()
        receive(b, "queue")
        c.send_json({"type": "queue", "name": "Cy", "variant": "coinche"})
        c_came = time.monotonic()
        own = receive(c, "queue")
        assert own["waiting"] == 2 and own["waiting_by_game"] == by_game(classic=1, coinche=2)
        assert 20000 - (time.monotonic() - b_came) * 1000 - 50 <= own["left_ms"] <= 20000  # Ben came first
        news = receive(a, "queue")  # within a second: the others came
        while news["waiting_by_game"] != by_game(classic=1, coinche=2):
            news = receive(a, "queue")
        assert news["waiting"] == 1 and news["variant"] == "classic"
        b.send_json({"type": "leave_queue"})
        left = receive(c, "queue")
        assert left["waiting"] == 1 and left["waiting_by_game"] == by_game(classic=1, coinche=1)
        # The bots' time counts from Cy's coming now, and Cy heard last at least a second ago.
        assert 20000 - (time.monotonic() - c_came) * 1000 - 50 <= left["left_ms"] <= 19000 + 50
        assert client.get("/api/health").json()["queue"] == 2


# Three sockets stand for fifteen people coming and going within a second: past the rates of one person.
@pytest.mark.app_config(pace=0.0, message_rates=0.0)
def test_people_coming_and_going_do_not_flood_the_waiting(client: TestClient) -> None:
    with contextlib.ExitStack() as stack:
        a, *others = (stack.enter_context(client.websocket_connect("/ws")) for _ in range(4))
        a.send_json({"type": "queue", "name": "Ana"})
        receive(a, "queue")
        since = time.monotonic()
        for i in range(5):  # thirty changes to the counts
            for w, variant in zip(others, ("coinche", "three-handed", "coinche"), strict=True):
                w.send_json({"type": "queue", "name": f"P{i}", "variant": variant})
                w.send_json({"type": "leave_queue"})
        for w in others:  # every socket's messages read by the server
            w.send_json({"type": "teleport"})
            error(w)
        others[0].send_json({"type": "queue", "name": "Two", "variant": "two-handed"})
        updates = [receive(a, "queue")]
        while updates[-1]["waiting_by_game"] != by_game(classic=1, two=1):
            updates.append(receive(a, "queue"))
        assert len(updates) <= 2 + (time.monotonic() - since) / QUEUE_GAP


@contextlib.contextmanager
def started(client: TestClient, t: dict[str, Any], tokens: dict[str, str]) -> Iterator[tuple[Sockets, States]]:
    """The people of ``tokens`` at the table, each on a socket of their own, and the match started."""
    with contextlib.ExitStack() as stack:
        ws = {s: stack.enter_context(client.websocket_connect("/ws")) for s in tokens}
        for s in ws:
            join(ws[s], t["table"], tokens[s])
        ws["S"].send_json({"type": "start"})
        yield ws, {s: until(ws[s], lambda m: m["status"] == "playing") for s in ws}


def play_until(ws: dict[str, Any], states: dict[str, dict[str, Any]], done: Any, limit: int = 2000) -> None:
    """Every person takes when asked, plays their first legal card and reads each score, until ``done(states)``."""
    for _ in range(limit):
        if done(states):
            return
        view = next(iter(states.values()))["view"]
        mover = view["to_move"]
        waiting = [s for s, m in states.items() if m["waiting"] == "continue"]
        if waiting:
            seat = waiting[0]
            ws[seat].send_json({"type": "continue"})
        elif mover in ws:
            legal = [a for a in states[mover]["view"]["legal"] if a != "pass"] or ["pass"]
            ws[mover].send_json({"type": "act", "action": legal[0]})
        for s in ws:
            states[s] = receive(ws[s])
    raise AssertionError("the table never reached the awaited point")


def test_the_next_deal_waits_for_everybody_to_read_the_score(client: TestClient) -> None:
    t, tokens = four_people(client)
    with started(client, t, tokens) as (ws, states):

        def deal_over(st: dict[str, dict[str, Any]]) -> bool:
            return all(m["waiting"] == "continue" for m in st.values())

        play_until(ws, states, deal_over)
        assert states["S"]["view"]["deal_number"] == 2 and states["S"]["view"]["bids"] == []
        first = states["S"]["view"]["to_move"]  # the next deal's first bidder
        last = "W" if first != "W" else "N"  # who reads the score last
        for i, s in enumerate(x for x in "SNEW" if x != last):
            ws[s].send_json({"type": "continue"})
            states = {x: receive(ws[x]) for x in ws}
            assert states[s]["waiting"] == "others"
            assert states[last]["waiting"] == "continue", f"the next deal waits for {last}"
            assert all(st["timer"] and st["timer"]["seat"] is None for st in states.values()), i
        # The first bidder has read the score, but may not bid before the last reader has.
        ws[first].send_json({"type": "act", "action": "pass"})
        refused = receive(ws[first], "error")
        assert refused["message"] == f"the next deal starts when everybody has read the score: waiting for {last}"
        assert refused["code"] == "waiting_for_others" and refused["args"] == {"seats": [last]}
        ws[last].send_json({"type": "continue"})
        states = {x: receive(ws[x]) for x in ws}
        assert all(st["waiting"] is None for st in states.values())
        ws[first].send_json({"type": "act", "action": "pass"})
        states = {x: receive(ws[x]) for x in ws}
        assert states["S"]["view"]["bids"] == [[first, "pass"]]


def test_an_absent_player_gets_a_stand_in_bot_and_takes_the_seat_back(client: TestClient) -> None:
    t, tokens = four_people(client, turn_timer=5)
    with started(client, t, tokens) as (ws, states):
        mover = states["S"]["view"]["to_move"]
        timer = states["S"]["timer"]
        assert timer["seat"] == mover and timer["seconds"] == 5 and 0 < timer["left_ms"] <= 5000
        since = time.monotonic()
        watcher = next(s for s in ws if s != mover)
        marked = until(ws[watcher], lambda m: m["players"][mover]["standin"])
        assert 4.0 < time.monotonic() - since < 8.0
        # The bot plays for the absent player at once, and keeps playing their turns...
        until(ws[watcher], lambda m: len(m["view"]["bids"]) >= 1)
        assert marked["players"][mover]["name"] != ""
        # ...until the player is back.
        ws[mover].send_json({"type": "back"})
        back = until(ws[mover], lambda m: not m["players"][mover]["standin"])
        assert back["seat"] == mover


def test_a_person_back_hears_first_that_they_are_back(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A person whose page closed opens it again: the first state their socket hears shows them back,
    even when the table tells everybody a change while their join is under way (as a catch-up with
    another process's change does, in Redis mode: ``test_multiprocess``'s coming back saw it)."""
    t, tokens = four_people(client)
    others = {s: tokens[s] for s in "SEW"}
    with started(client, t, others) as (ws, _):
        with client.websocket_connect("/ws") as north:
            join(north, t["table"], tokens["N"])
        until(ws["S"], lambda m: "away" in m["players"]["N"])  # the page closed: North is shown gone
        told = Table.presence

        async def telling(self: Table, gone: int | None = None) -> None:
            await told(self, gone)
            await self.broadcast()  # a change told to the table's sockets while the join is under way

        monkeypatch.setattr(Table, "presence", telling)
        with client.websocket_connect("/ws") as north:
            first = join(north, t["table"], tokens["N"])
            assert "away" not in first["players"]["N"] and first["players"]["N"]["standin"] is False
        until(ws["S"], lambda m: "away" not in m["players"]["N"])  # and the others are told they are back


def test_reconnecting_gets_what_was_missed(client: TestClient) -> None:
    t, tokens = four_people(client, target=3000)
    with started(client, t, tokens) as (ws, states):
        play_until(ws, states, lambda st: len(st["S"]["view"]["trick"]) == 2)
        last = states["N"]["last"]
        with client.websocket_connect("/ws") as again:
            state = join(again, t["table"], tokens["N"], since=last - 3)
            assert [n for n, _ in state["events"]] == [last - 2, last - 1, last]
            assert state["view"] == states["N"]["view"] and not state["gap"]
        # A fresh page gets every event; a client far behind gets the view and the current deal only.
        play_until(ws, states, lambda st: st["N"]["last"] > 300)
        with client.websocket_connect("/ws") as again:
            fresh = join(again, t["table"], tokens["N"], since=-1)
            assert fresh["events"][0][0] == 0 and not fresh["gap"]
            assert fresh["events"][-1][0] == states["N"]["last"]
        with client.websocket_connect("/ws") as again:
            gap = join(again, t["table"], tokens["N"], since=5)
            assert gap["gap"] and [n for n, _ in gap["events"]] == list(range(states["N"]["last"] + 1))
            assert gap["view"] == states["N"]["view"]


def test_every_table_comes_back_after_a_restart(app_client: Callable[..., TestClient]) -> None:
    with app_client(pace=0.0) as client:
        t, tokens = four_people(client)
        lobby = create(client, "Host")
        with started(client, t, tokens) as (ws, states):
            play_until(ws, states, lambda st: len(st["S"]["view"]["tricks"]) == 3)
            ws["E"].send_json({"type": "chat", "text": "see you"})
    with app_client(pace=0.0) as client:
        for s, token in tokens.items():
            with client.websocket_connect("/ws") as w:
                w.send_json({"type": "join", "table": t["table"], "token": token, "since": -1})
                assert receive(w, "chat")["text"] == "see you"
                state = receive(w)
                assert state["view"] == states[s]["view"]
                # The players as they were, and the others (no socket open) gone from the table.
                players = state["players"]
                kept = {x: {k: v for k, v in p.items() if k != "away"} for x, p in players.items()}
                assert kept == states[s]["players"]
                assert sorted(x for x, p in players.items() if "away" in p) == sorted(x for x in tokens if x != s)
        with client.websocket_connect("/ws") as w:
            state = join(w, lobby["table"], lobby["token"])
            assert state["status"] == "lobby" and state["players"]["S"]["name"] == "Host"


def test_a_flood_of_messages_is_refused_and_the_table_goes_on(client: TestClient) -> None:
    t, tokens = four_people(client)
    with client.websocket_connect("/ws") as ws:
        before = join(ws, t["table"], tokens["N"])
        for _ in range(100):
            ws.send_json({"type": "chat", "text": ""})
        answers = [receive(ws, "error") for _ in range(100)]
        refusals = [a["message"] for a in answers]
        assert any("too many refused messages" in r for r in refusals)
        assert 60 <= sum("chat line" in r for r in refusals) < 100
        floods = [a for a in answers if a["code"] == "flooding"]
        assert floods and all(a["args"] == {"count": 60, "seconds": 1} for a in floods)
        assert {a["code"] for a in answers} == {"flooding", "bad_chat"}
        time.sleep(1.1)  # a second later, messages are read again
        ws.send_json({"type": "join", "table": t["table"], "token": tokens["N"], "since": -1})
        assert receive(ws)["players"] == before["players"]


# ---------------------------------------------------------------------- the bots' names
def bots_of(state: dict[str, Any]) -> dict[str, str]:
    """The seats the bots play and their names."""
    return {s: p["name"] for s, p in state["players"].items() if p["bot"]}


def plain(name: str) -> str:
    """A name without its accents, in capitals: ``LEA`` for Léa."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).upper()


def test_bot_names_are_drawn_from_the_seed_all_different_none_like_a_persons() -> None:
    for seed in range(100):
        names = bot_names(seed, 3, [])
        assert names == bot_names(seed, 3, []) and len(set(names)) == 3 and set(names) <= set(BOT_NAMES)
    assert len({tuple(bot_names(seed, 3, [])) for seed in range(100)}) > 50  # the seed chooses
    left = ["Jade", "Théo", "Gabriel"]
    taken = [plain(n) for n in BOT_NAMES if n not in left]  # "LEA" is taken for Léa, "CHLOE" for Chloé
    for seed in range(20):
        assert sorted(bot_names(seed, 3, taken)) == sorted(left)
    assert same_name("théo", "THEO") and not same_name("Louis", "Louise") and not same_name("Léa", "Léo")


def test_the_bots_of_a_solo_table_have_first_names_and_keep_them_in_a_new_match(client: TestClient, db: Path) -> None:
    solo = client.post("/api/solo", json=EASY).json()
    with client.websocket_connect("/ws") as ws:
        state = join(ws, solo["table"], solo["token"])
        seed = stored_table(db, solo["table"])[0]["seed"]
        assert bots_of(state) == dict(zip("NEW", bot_names(seed, 3, ["You"]), strict=True))
        assert state["players"]["S"] == {"name": "You", "bot": False, "standin": False}
        ws.send_json({"type": "new_game"})  # the same game: the same bots
        again = until(ws, lambda m: bool(m["events"]) and m["events"][0][0] == 0)  # the new match's history
        assert bots_of(again) == bots_of(state)
        ws.send_json({"type": "new_game", "settings": {**EASY, "variant": "three-handed"}})
        three = until(ws, lambda m: m["settings"]["variant"] == "three-handed")
        seed = stored_table(db, solo["table"])[0]["seed"]
        assert bots_of(three) == dict(zip("NE", bot_names(seed, 2, ["You"]), strict=True))


def test_the_bots_of_a_private_table_are_never_named_like_a_person(client: TestClient, db: Path) -> None:
    t = create(client, settings=EASY)
    seed = stored_table(db, t["table"])[0]["seed"]
    drawn = random.Random(seed).sample(BOT_NAMES, len(BOT_NAMES))
    guest = sit(client, t, plain(drawn[0]), "N")  # a person named like the first bot the seed draws
    with client.websocket_connect("/ws") as host, client.websocket_connect("/ws") as other:
        join(host, t["table"], t["token"])
        join(other, t["table"], guest["token"])
        host.send_json({"type": "start"})
        started = until(host, lambda m: m["status"] == "playing")
    assert bots_of(started) == {"E": drawn[1], "W": drawn[2]}
    assert started["players"]["N"] == {"name": plain(drawn[0]), "bot": False, "standin": False}


# ---------------------------------------------------------------------- who sits where
N, E, S, W = 0, 1, 2, 3


@pytest.mark.parametrize(
    ("seatings", "seats"),
    [
        (["partners"], [S]),
        (["partners", "partners"], [S, N]),  # two people and two bots: partners
        (["partners", "partners", "partners"], [S, N, E]),  # two partners and one against them
        (["partners", "partners", "partners", "partners"], [S, N, E, W]),  # first and second, third and fourth
    ],
)
def test_people_queued_together_sit_as_partners(seatings: list[str], seats: list[int]) -> None:
    for seed in range(20):
        assert online_seats(seatings, 4, True, seed) == seats


def test_a_person_who_sits_anywhere_takes_a_seat_the_seed_draws() -> None:
    seen: set[tuple[int, ...]] = set()
    for seed in range(200):
        places = online_seats(["any", "partners", "any", "partners"], 4, True, seed)
        assert places[1] == S and places[3] == N and {places[0], places[2]} == {E, W}
        assert places == online_seats(["any", "partners", "any", "partners"], 4, True, seed)
        two = online_seats(["partners", "any"], 4, True, seed)
        assert two[0] == S and two[1] in (N, E, W)
        seen.add(tuple(two))
    assert seen == {(S, N), (S, E), (S, W)}  # the one who sits anywhere is a partner or an opponent


@pytest.mark.parametrize(("players", "people"), [(3, 1), (3, 2), (3, 3), (2, 1), (2, 2)])
def test_without_partners_everybody_sits_where_the_seed_draws(players: int, people: int) -> None:
    firsts: set[int] = set()
    for seed in range(200):
        for seating in ("partners", "any"):
            places = online_seats([seating] * people, players, False, seed)
            assert len(set(places)) == people and set(places) <= set(range(players))
            assert places == online_seats(["any"] * people, players, False, seed)  # no partners: no preference
        firsts.add(places[0])
    assert firsts == set(range(players))


def queue_together(
    client: TestClient, variant: str, people: list[tuple[str, str | None]]
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each person queues for ``variant`` in turn (``seating`` when not None), the next once the one
    before is in the queue; each one's ``matched`` message and first state, in queue order."""
    with contextlib.ExitStack() as stack:
        ws = [stack.enter_context(client.websocket_connect("/ws")) for _ in people]
        for i, (w, (name, seating)) in enumerate(zip(ws, people, strict=True)):
            msg = {"type": "queue", "name": name, "variant": variant}
            if seating is not None:
                msg["seating"] = seating
            w.send_json(msg)
            if i + 1 < VARIANTS[variant].players:  # the one who fills a table is seated at once
                assert receive(w, "queue")["waiting"] == i + 1
        matched = [receive(w, "matched") for w in ws]
        return [(m, join(w, m["table"], m["token"])) for w, m in zip(ws, matched, strict=True)]


@pytest.mark.parametrize(
    ("variant", "people", "seats"),
    [
        ("classic", [("Ana", None), ("Ben", None)], "SN"),
        ("coinche", [("Ana", None), ("Ben", "partners")], "SN"),
        ("classic", [("Ana", None), ("Ben", None), ("Cy", None)], "SNE"),
        ("coinche", [("Ana", None), ("Ben", None), ("Cy", None), ("Dee", None)], "SNEW"),
        ("classic", [("Ana", "any"), ("Ben", None), ("Cy", None)], ""),
        ("three-handed", [("Ana", None), ("Ben", None)], ""),
        ("three-handed", [("Ana", None), ("Ben", "any"), ("Cy", None)], ""),
        ("two-handed", [("Ana", None), ("Ben", None)], ""),
    ],
)
def test_the_queue_seats_people_as_they_asked(
    app_client: Callable[..., TestClient], db: Path, variant: str, people: list[tuple[str, str | None]], seats: str
) -> None:
    with app_client(pace=0.0, queue_wait=1.0) as client:
        seated = queue_together(client, variant, people)
    table = seated[0][0]["table"]
    meta = stored_table(db, table)[0]
    game = VARIANTS[variant]
    seatings = [seating or "partners" for _, seating in people]
    expected = "".join("NESW"[s] for s in online_seats(seatings, game.players, game.partners, meta["seed"]))
    assert "".join(m["seat"] for m, _ in seated) == expected
    if seats:
        assert expected == seats
    names = [name for name, _ in people]
    for (matched, state), name in zip(seated, names, strict=True):
        assert matched["table"] == table and state["seat"] == matched["seat"] and state["kind"] == "online"
        assert state["players"][matched["seat"]] == {"name": name, "bot": False, "standin": False}
    state = seated[0][1]
    free = [s for s in game.seats if s not in expected]
    assert bots_of(state) == dict(zip(free, bot_names(meta["seed"], len(free), names), strict=True))
    assert len(state["players"]) == game.players


def test_a_seating_other_than_partners_or_any_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "queue", "name": "Ana", "seating": "opposite"})
        assert error(ws) == "seating is one of partners, any, not 'opposite'"
    assert client.get("/api/health").json()["queue"] == 0
