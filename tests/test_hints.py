"""Hints at a solo table: the room's rules and count, the hint made from one seat's view alone, and
the ``hint`` message over the websocket (refusals, one at a time, the count kept across a reconnect)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.bots.heuristic import HeuristicBot
from belote.bots.search import SearchBot
from belote.cards import CARDS
from belote.game import PLAY, SEATS, Deal, PlayerView, Refusal, action_str
from belote.hints import hint
from belote.server.room import (
    DEFAULT_SETTINGS,
    Hint,
    Hinted,
    Meta,
    NewGame,
    Room,
    Seat,
    Write,
    bot_seat,
    check_settings,
    new_match,
    reduce,
)
from belote.server.thinking import NOBODY, Thinker

QUICK = check_settings({"deals": 2, "strength": "easy", "speed": "fast", "hints": True})


def solo_room(seed: int, **settings: Any) -> Room:
    seats = {2: Seat("me", "Me"), 0: bot_seat("Léa", "easy"), 1: bot_seat("Hugo", "easy"), 3: bot_seat("Paul", "easy")}
    meta = Meta("solo", seed, {**QUICK, **settings}, seats)
    return Room(meta, new_match(meta.settings, seed))


def at_my_turn(room: Room, seat: int = 2) -> Room:
    """The room with the bots' actions played (the first legal each) until ``seat`` is to move."""
    assert room.match is not None
    while room.match.to_move != seat:
        room.match.apply(room.match.legal_actions()[0])
    return room


def code_of(room: Room, seat: int) -> str:
    before = room.meta.to_json()
    with pytest.raises(Refusal) as caught:
        reduce(room, Hint(seat))
    assert room.meta.to_json() == before
    return caught.value.code


# ----------------------------------------------------------------- the room
def test_the_room_gives_hints_only_to_the_person_of_a_solo_table_with_hints_on_at_their_turn() -> None:
    room = solo_room(4)
    assert room.match is not None and room.match.to_move != 2  # West bids first: seed 4 deals from South
    assert code_of(room, 2) == "not_your_turn"
    assert code_of(room, 0) == "no_such_seat"  # a bot's seat asks nothing
    assert code_of(solo_room(4, hints=False), 2) == "hints_off"
    private = solo_room(4)
    private.meta.kind = "private"
    assert code_of(at_my_turn(private), 2) == "hints_solo_only"
    room = at_my_turn(room)
    room, events = reduce(room, Hint(2))
    room, _ = reduce(room, Hint(2))
    assert room.meta.hints == {2: 2}
    assert events == [Write(room.n_actions, (), True, False), Hinted(2)]  # only the meta is written: the count
    assert Meta.from_json(room.meta.to_json()).hints == {2: 2}  # as the store keeps it
    room, _ = reduce(room, NewGame(2, dict(room.meta.settings), 9))
    assert room.meta.hints == {}  # counted per match


def test_hints_are_a_table_setting_off_by_default() -> None:
    assert DEFAULT_SETTINGS["hints"] is False
    with pytest.raises(Refusal) as caught:
        check_settings({"hints": "yes"})
    assert caught.value.code == "bad_setting" and caught.value.details["option"] == "hints"


# ----------------------------------------------------------------- the hint, from the view
def play_position(seed: int) -> Deal:
    """A classic deal bid and played by heuristic bots until South has a choice of cards after the first trick."""
    deal = Deal.from_seed(seed, dealer=1)
    bots = [HeuristicBot(s) for s in range(4)]
    while not (deal.phase == PLAY and deal.to_move == 2 and len(deal.plays) >= 4 and len(deal.legal_actions()) > 1):
        deal.apply(bots[deal.to_move].act(deal.view(deal.to_move)))
    return deal


def other_hidden_hands(deal: Deal) -> Deal:
    """The same deal, bids and cards, with an unplayed card of East swapped with one of West's in the
    deck (the first pair with which the same cards are still legal): South's view is the same, the
    hidden hands are not."""
    played = {int(c) for c in deal.plays}
    for east in (c for c in deal.hand(1) if int(c) not in played):
        for west in (c for c in deal.hand(3) if int(c) not in played):
            deck = [west if c == east else east if c == west else c for c in deal.deck]
            other = Deal(deal.rules, deal.dealer, deck)
            try:
                for action in (*deal.bids, *deal.plays):
                    other.apply(action)
            except Refusal:
                continue
            assert other.hand(1) != deal.hand(1)
            return other
    raise AssertionError("no swap keeps the play legal")


def test_the_hint_is_made_from_the_view_alone() -> None:
    deal = play_position(5)
    other = other_hidden_hands(deal)
    view = deal.view(2)
    assert other.view(2) == view
    bot = SearchBot(11, think=0.5)
    first, second = hint(view, bot), hint(other.view(2), bot)
    assert first == second
    legal = {str(CARDS[c]) for c in view.legal}
    assert first["phase"] == "play" and first["action"] in legal
    assert first["worlds"] > 0 and 1 <= len(first["best"]) <= 3
    assert {b["action"] for b in first["best"]} <= legal
    points = [b["points"] for b in first["best"]]
    assert points == sorted(points, reverse=True)


def test_a_bidding_hint_is_the_bots_bid() -> None:
    deal = Deal.from_seed(3)
    view = deal.view(deal.to_move)
    bot = SearchBot(1, think=0.5)
    assert hint(view, bot) == {"phase": "bidding", "action": action_str(bot.act(view)), "best": [], "worlds": 0}


def test_the_heuristic_bot_gives_a_hint_without_values() -> None:
    view = play_position(5).view(2)
    answer = hint(view, HeuristicBot(0))
    assert answer["best"] == [] and answer["action"] == str(CARDS[HeuristicBot(0).act(view)])


# ----------------------------------------------------------------- over the websocket
@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Hints wait for the test to open the gate (a second one asked meanwhile is refused); the views
    the hints were made from are kept in ``gate.views``."""
    opened = threading.Event()
    views: list[PlayerView] = []
    real = Thinker.hint

    async def gated(self: Thinker, bot: Any, view: PlayerView, owner: str = NOBODY) -> dict[str, Any]:
        views.append(view)
        await asyncio.to_thread(opened.wait, 30)
        return await real(self, bot, view, owner)

    monkeypatch.setattr(Thinker, "hint", gated)
    opened.views = views  # type: ignore[attr-defined]
    yield opened
    opened.set()


pytestmark = pytest.mark.app_config(pace=0.0, think_workers=0, turn_timer=600)


def until(ws: Any, kind: str, test: Any = lambda m: True) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind and test(msg):
            return msg


def my_turn(msg: dict[str, Any]) -> bool:
    return msg["view"] is not None and msg["view"]["to_move"] == msg["seat"]


def test_a_hint_over_the_websocket_is_counted_and_the_count_survives_a_reconnect(
    client: TestClient, gate: threading.Event
) -> None:
    t = client.post("/api/solo", json={**{k: QUICK[k] for k in ("deals", "strength", "speed")}, "hints": True}).json()
    join = {"type": "join", "table": t["table"], "token": t["token"]}
    with client.websocket_connect("/ws") as ws:
        ws.send_json(join)
        state = until(ws, "state", my_turn)
        assert state["hints"] == {} and state["settings"]["hints"] is True
        ws.send_json({"type": "hint"})
        counted = until(ws, "state", lambda m: m["hints"] == {"S": 1})
        ws.send_json({"type": "hint"})
        busy = until(ws, "error")
        assert busy["code"] == "hint_busy"
        gate.set()
        answer = until(ws, "hint")
    view = counted["view"]
    assert answer["seat"] == "S" and answer["phase"] == view["phase"] and answer["action"] in view["legal"]
    assert {b["action"] for b in answer["best"]} <= set(view["legal"])
    views = gate.views  # type: ignore[attr-defined]
    assert len(views) == 1 and views[0].to_json() == view  # made from the very view the seat was sent
    with client.websocket_connect("/ws") as ws:  # a reload: the count is the table's
        ws.send_json(join)
        assert until(ws, "state")["hints"] == {"S": 1}


def test_a_hint_is_one_at_a_time_per_seat_however_many_sockets_ask(client: TestClient, gate: threading.Event) -> None:
    """A person with two sockets on their seat (32 were 32 hints at once) gets one hint at a time."""
    t = client.post("/api/solo", json={**{k: QUICK[k] for k in ("deals", "strength", "speed")}, "hints": True}).json()
    join = {"type": "join", "table": t["table"], "token": t["token"]}
    with client.websocket_connect("/ws") as one, client.websocket_connect("/ws") as two:
        for ws in (one, two):
            ws.send_json(join)
            until(ws, "state", my_turn)
        one.send_json({"type": "hint"})
        until(two, "state", lambda m: m["hints"] == {"S": 1})
        two.send_json({"type": "hint"})
        busy = until(two, "error")
        assert (busy["code"], busy["args"]) == ("hint_busy", {})
        gate.set()
        assert until(one, "hint")["seat"] == "S"
        two.send_json({"type": "hint"})  # the first answered: the seat may ask again, from either socket
        until(two, "state", lambda m: m["hints"] == {"S": 2})
        assert until(two, "hint")["seat"] == "S"
    assert len(gate.views) == 2  # type: ignore[attr-defined]


@pytest.mark.app_config(pace=0.0, think_workers=0, turn_timer=600, hint_rate=(2, 60.0))
def test_hints_are_limited_per_address_and_the_refusals_counted(client: TestClient) -> None:
    tables = [
        client.post("/api/solo", json={**{k: QUICK[k] for k in ("deals", "strength", "speed")}, "hints": True}).json()
        for _ in range(2)
    ]
    answers, refused = [], []
    for t in tables:  # two tables of one address: two seats, one count
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
            until(ws, "state", my_turn)
            for _ in range(2):
                ws.send_json({"type": "hint"})
                answer = until(ws, "hint") if len(answers) < 2 else until(ws, "error")
                (answers if answer["type"] == "hint" else refused).append(answer)
    assert len(answers) == 2
    assert [(r["code"], r["args"]) for r in refused] == [("slow_down", {"count": 2, "seconds": 60})] * 2
    assert refused[0]["message"] == "slow down: at most 2 hints in 60 seconds"
    assert 'belote_refusals_total{code="slow_down"} 2' in client.get("/metrics").text


def test_with_hints_off_the_hint_is_refused_and_the_table_goes_on(client: TestClient) -> None:
    t = client.post("/api/solo", json={"strength": "easy", "speed": "fast", "deals": 1}).json()
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
        state = until(ws, "state", my_turn)
        ws.send_json({"type": "hint"})
        refused = until(ws, "error")
        assert refused["code"] == "hints_off" and refused["args"] == {}
        ws.send_json({"type": "act", "action": state["view"]["legal"][0]})
        after = until(ws, "state", lambda m: m["last"] > state["last"])
        mine = [e for _, e in after["events"] if e.get("seat") == "S" and e["type"] in ("bid", "card")]
        assert after["hints"] == {} and mine  # South's action was taken


def test_the_seats_are_named_in_the_hint_count() -> None:
    room = at_my_turn(solo_room(4))
    room, _ = reduce(room, Hint(2))
    assert room.meta.to_json()["hints"] == {SEATS[2]: 1}


# ----------------------------------------------------------------- in the bot workers
def test_a_hint_in_a_worker_is_the_hint_here_and_a_dead_worker_costs_none(tmp_path: Path) -> None:
    """``Thinker.hint`` in a process: the same answer as here; a worker that dies is replaced and the
    hint tried again; when no worker survives, the heuristic bot's card answers."""
    from netplay import run
    from test_thinking import DyingBot

    view = play_position(5).view(2)
    bot = SearchBot(11, think=0.5)
    marker = tmp_path / "died-once"
    thinker = Thinker(1)

    async def ask() -> list[dict[str, Any]]:
        try:
            return [
                await thinker.hint(bot, view),
                await thinker.hint(DyingBot(str(marker)), view),
                await thinker.hint(DyingBot(), view),
            ]
        finally:
            await thinker.close()

    there, retried, fallback = run(ask())
    assert there == hint(view, bot)
    assert marker.exists() and retried["action"] == str(CARDS[view.legal[-1]])
    assert fallback == hint(view, HeuristicBot())
