"""Every game at the server: Coinche, three-handed and two-handed tables, online, private and solo.

Whole deals are played over real websockets (``netplay``) against a server in a thread; afterwards
the truth is rebuilt from the store alone (the table's seed and action log, replayed by a fresh
engine) and checked against what each seat was sent: the scores, and that no message to a seat
ever names a card hidden from it (at three hands the eight cards out of play, at two hands the
cards lying face down and the other player's hand), as ``test_leak`` does for the classic game.
The queue and the refusals go through the ASGI test client.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from websockets.asyncio.client import connect

from belote.cards import CARDS, cards_of
from belote.game import SEATS, Match, parse_action
from belote.server.app import create_app
from belote.server.room import new_match
from belote.server.tables import ServerConfig
from netplay import (
    Player,
    Server,
    State,
    cards_in,
    error,
    match_over,
    post,
    private_table,
    receive,
    redis_server,
    run,
    serve_in_thread,
    stored_match,
    until,
)

QUICK = {"strength": "easy", "speed": "fast", "turn_timer": 600}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app served by uvicorn in a thread; its address and its SQLite file."""
    db = tmp_path_factory.mktemp("variants") / "belote.sqlite3"
    app = create_app(db_path=db, config=ServerConfig(pace=0.0, turn_timer=600))
    with serve_in_thread(app) as base:
        yield base, db


def ws_url(base: str) -> str:
    return base.replace("http", "ws") + "/ws"


# ----------------------------------------------------------------- the truth, from the store
def replay(db: Path, table_id: str) -> tuple[dict[str, Any], Match, list[str]]:
    meta, match, actions = stored_match(db, table_id)
    assert isinstance(match, Match)
    return meta, match, actions


Moment = tuple[int, int, int]  # deal index, bids made, cards played


class Truth:
    """Each moment of a table's match, replayed from the store: every seat's hand and table, and
    which cards are public (the turned card, the cards played, declarations shown, cards face up)."""

    def __init__(self, db: Path, table_id: str) -> None:
        meta, final, actions = replay(db, table_id)
        assert final.over
        match = new_match(meta["settings"], int(meta["seed"]))
        self.players = match.rules.players
        self.seats = SEATS[: self.players]
        self.hands: dict[Moment, dict[str, list[str]]] = {}
        self.tables: dict[Moment, dict[str, Any] | None] = {}
        self.face_up: dict[Moment, set[str]] = {}
        self.plays: dict[int, list[str]] = {}
        self.turned: dict[int, str | None] = {}
        self.shown: dict[int, set[str]] = {}
        self.out_of_play: dict[int, set[str]] = {}  # three hands: the eight cards nobody is dealt
        self._note(match, 0)
        for a in actions:
            d = len(match.deals) - 1
            match.apply(parse_action(a))
            self._note(match, d)
            if len(match.deals) - 1 != d:
                self._note(match, len(match.deals) - 1)

    def _note(self, match: Match, d: int) -> None:
        deal = match.deals[d]
        self.plays[d] = [str(CARDS[c]) for c in deal.plays]
        self.turned[d] = None if deal.turned is None else str(deal.turned)
        side = deal.scoring_declarations_side() if deal.plays else None
        self.shown[d] = {str(c) for s, decl in deal.announced() if deal.camps[s] == side for c in cards_of(decl.cards)}
        moment = (d, len(deal.bids), len(deal.plays))
        self.hands[moment] = {SEATS[s]: sorted(str(c) for c in deal.hand(s)) for s in range(self.players)}
        piles = deal.table()
        self.tables[moment] = (
            {SEATS[s]: [[None if up is None else str(up), down] for up, down in p] for s, p in enumerate(piles)}
            if piles
            else None
        )
        self.face_up[moment] = {str(up) for p in piles for up, _ in p if up is not None}
        if deal.start_hands and self.players == 3:
            dealt = 0
            for h in deal.start_hands:
                dealt |= h
            self.out_of_play[d] = {str(c) for c in CARDS if not dealt >> int(c) & 1}

    def public(self, moment: Moment) -> set[str]:
        d, _, plays = moment
        cards = {*self.plays[d][:plays], *self.face_up[moment]}
        if self.turned[d] is not None:
            cards.add(self.turned[d])  # type: ignore[arg-type]
        return cards | self.shown[d] if plays >= self.players else cards


def check(truth: Truth, seat: str, messages: list[dict[str, Any]]) -> int:
    """Scan one client's messages against the truth; returns how many cards were looked at."""
    seen = 0
    d = bids = plays = -1
    for msg in messages:
        if msg["type"] != "state":
            assert not cards_in(msg), f"cards in a {msg['type']} message to {seat}"
            continue
        for _, event in msg["events"]:
            if event["type"] == "deal":
                d, bids, plays = event["number"] - 1, 0, 0
            elif event["type"] == "bid":
                bids += 1
            elif event["type"] == "card":
                assert event["card"] == truth.plays[d][plays], f"a card event to {seat} is not the card played"
                plays += 1
                seen += 1
                continue
            public = truth.public((d, bids, plays))
            for card in cards_in(event):
                seen += 1
                assert card in public, f"{card} in a {event['type']} event to {seat}: hidden"
                assert card not in truth.out_of_play.get(d, ()), f"{card}, out of play, sent to {seat}"
        view = msg["view"]
        if view is None:
            continue
        moment = (view["deal_number"] - 1, len(view["bids"]), truth.players * len(view["tricks"]) + len(view["trick"]))
        own = truth.hands[moment][seat] if seat != "spectator" else []
        assert sorted(view["hand"]) == own, f"{seat}'s hand is wrong"
        assert view.get("table") == truth.tables[moment], f"the table sent to {seat} is wrong"
        own_table = {up for up, _ in (view.get("table") or {}).get(seat, []) if up is not None}
        assert set(cards_in(view["legal"])) <= set(view["hand"]) | own_table
        public = truth.public(moment)
        for card in cards_in(view, skip=("hand", "legal")):
            seen += 1
            assert card in public, f"{card} in the view sent to {seat} is hidden from it"
        seen += len(view["hand"])
        assert not set(cards_in(view)) & truth.out_of_play.get(moment[0], set()), f"a card out of play sent to {seat}"
    return seen


def all_events(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events a client was sent, in order (each is sent once)."""
    return [e for m in messages if m["type"] == "state" for _, e in m["events"]]


def check_table(db: Path, table_id: str, received: dict[str, list[dict[str, Any]]]) -> Truth:
    truth = Truth(db, table_id)
    cards = sum(check(truth, seat, msgs) for seat, msgs in received.items())
    assert cards > 50 * len(received)  # the scan looked at real traffic
    return truth


# ----------------------------------------------------------------- players
class Bidder(Player):
    """A scripted player: the auction's bids in order (``plan[k]`` is the k-th bid, whoever makes
    it; pass after the plan), then random legal cards."""

    def __init__(self, *args: Any, plan: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.plan = plan

    def choose(self, state: State) -> str | None:
        move = super().choose(state)
        view = state["view"]
        if move in (None, "continue") or view["phase"] != "bidding":
            return move
        k = len(view["bids"])
        return self.plan[k] if k < len(self.plan) else "pass"


async def play_out(players: dict[str, Player], spectator: Player | None = None) -> dict[str, list[dict[str, Any]]]:
    """Everybody plays to the end of the match; the messages each received, by seat."""
    everyone = [*players.values(), *([spectator] if spectator else [])]
    await asyncio.gather(*(p.play(match_over, timeout=60) for p in everyone))
    for p in everyone:
        await p.close()
        assert not p.errors, p.errors
    received = {s: p.messages for s, p in players.items()}
    if spectator is not None:
        received["spectator"] = spectator.messages
    return received


# ----------------------------------------------------------------- whole games over websockets
def test_a_coinche_deal_with_a_coinche_and_a_surcoinche_scores_the_same_for_everybody(
    server: tuple[str, Path],
) -> None:
    base, db = server
    t, tokens = private_table(base, 4, {**QUICK, "variant": "coinche", "deals": 1})
    plan = ["80H", "coinche", "surcoinche"]
    url = ws_url(base)

    async def game() -> tuple[dict[str, list[dict[str, Any]]], dict[str, State]]:
        players = {
            s: Bidder(url, t["table"], token=tok, seed=i, plan=plan) for i, (s, tok) in enumerate(tokens.items())
        }
        spectator = Player(url, t["table"], watch=t["watch"])
        for p in players.values():
            await p.connect()
        await spectator.connect()
        await players[t["seat"]].send({"type": "start"})
        received = await play_out(players, spectator)
        return received, {s: p.messages[-1] for s, p in players.items()}

    received, last = run(game())
    _, match, _ = replay(db, t["table"])
    deal = match.deals[0]
    assert [str(b) for b in deal.bids] == plan
    assert deal.contract is not None and deal.contract.multiplier == 4  # surcoinche: x4 by default
    score = dict(zip(("NS", "EW"), match.score, strict=True))
    bidder = SEATS[deal.contract.bidder]
    for seat, state in last.items():
        view = state["view"]
        assert view["match_over"] and view["score"] == score, seat
        assert view["contract"] == {"bidder": bidder, "level": "80", "mode": "H", "multiplier": 4}
        assert view["result"] == deal.result.to_json(sheet=True)  # type: ignore[union-attr]
        assert view["trump"] == "H" and view["turned"] is None
        events = all_events(received[seat])
        assert [e["bid"] for e in events if e["type"] == "bid"] == plan
        trump = next(e for e in events if e["type"] == "trump")
        assert trump["contract"]["multiplier"] == 4 and trump["taker"] == bidder
    check_table(db, t["table"], received)


def test_a_three_handed_table_of_two_people_and_a_bot_hides_the_cards_out_of_play(server: tuple[str, Path]) -> None:
    base, db = server
    t, tokens = private_table(base, 2, {**QUICK, "variant": "three-handed", "deals": 2})
    assert set(tokens) == {"S", "N"}
    url = ws_url(base)

    async def game() -> dict[str, list[dict[str, Any]]]:
        players = {s: Player(url, t["table"], token=tok, seed=7 + i) for i, (s, tok) in enumerate(tokens.items())}
        spectator = Player(url, t["table"], watch=t["watch"])
        for p in players.values():
            await p.connect()
        await spectator.connect()
        await players["S"].send({"type": "start"})
        return await play_out(players, spectator)

    received = run(game())
    final = received["S"][-1]
    assert set(final["players"]) == {"N", "E", "S"} and final["players"]["E"]["bot"]
    _, match, _ = replay(db, t["table"])
    assert final["view"]["score"] == dict(zip("NES", match.score, strict=True))
    assert len(final["view"]["score"]) == 3 and final["view"]["rules"]["variant"] == "three-handed"
    truth = check_table(db, t["table"], received)
    assert truth.out_of_play and all(len(out) == 8 for out in truth.out_of_play.values())


def test_a_two_handed_solo_table_is_played_to_the_end_without_showing_a_face_down_card(
    server: tuple[str, Path],
) -> None:
    base, db = server
    solo = post(base, "/api/solo", {**QUICK, "variant": "two-handed", "deals": 1})
    assert solo["seat"] == "N"  # South does not exist at two hands
    url = ws_url(base)

    async def game() -> dict[str, list[dict[str, Any]]]:
        me = Player(url, solo["table"], token=solo["token"], seed=3)
        spectator = Player(url, solo["table"], watch=solo["watch"])
        first = await me.connect()
        assert first["seat"] == "N" and set(first["players"]) == {"N", "E"} and first["players"]["E"]["bot"]
        await spectator.connect()
        return await play_out({"N": me}, spectator)

    received = run(game())
    states = [m for m in received["N"] if m["type"] == "state" and m["view"]["phase"] == "play"]
    assert states and all(len(m["view"]["table"]["E"]) == 5 for m in states[:1])
    events = all_events(received["N"])
    assert any(e["type"] == "turned-up" for e in events)
    assert sum(e["type"] == "trick" for e in events) == 16
    _, match, _ = replay(db, solo["table"])
    assert received["N"][-1]["view"]["score"] == dict(zip("NE", match.score, strict=True))
    check_table(db, solo["table"], received)


# ----------------------------------------------------------------- the queue


def join(ws: Any, table: str, token: str) -> dict[str, Any]:
    ws.send_json({"type": "join", "table": table, "token": token, "since": -1})
    return receive(ws)


def test_the_queue_seats_players_of_the_same_game_together_and_bots_after_the_wait(
    app_client: Callable[..., TestClient],
) -> None:
    with (
        app_client(pace=0.0, turn_timer=600, queue_wait=0.8) as client,
        client.websocket_connect("/ws") as a,
        client.websocket_connect("/ws") as b,
        client.websocket_connect("/ws") as c,
    ):
        a.send_json({"type": "queue", "name": "Ana", "variant": "coinche"})
        first = receive(a, "queue")
        assert first["variant"] == "coinche" and first["players"] == 4 and first["waiting"] == 1
        c.send_json({"type": "queue", "name": "Cleo"})  # the classic game, by default
        waiting = receive(c, "queue")
        assert waiting["variant"] == "classic" and waiting["waiting"] == 1
        b.send_json({"type": "queue", "name": "Ben", "variant": "coinche"})
        assert receive(b, "queue")["waiting"] == 2
        started = time.monotonic()
        ma, mb, mc = receive(a, "matched"), receive(b, "matched"), receive(c, "matched")
        assert time.monotonic() - started < 5
        assert ma["table"] == mb["table"] != mc["table"]
        state = join(a, ma["table"], ma["token"])
        assert state["kind"] == "online" and state["settings"]["variant"] == "coinche"
        assert state["view"]["rules"]["variant"] == "coinche" and len(state["view"]["hand"]) == 8
        assert sorted(s for s, p in state["players"].items() if not p["bot"]) == sorted([ma["seat"], mb["seat"]])
        assert len(state["players"]) == 4
        classic = join(c, mc["table"], mc["token"])
        assert classic["settings"]["variant"] == "classic" and sum(p["bot"] for p in classic["players"].values()) == 3


def test_two_players_of_the_two_handed_game_are_seated_at_once(app_client: Callable[..., TestClient]) -> None:
    with (
        app_client(pace=0.0, turn_timer=600, queue_wait=600) as client,
        client.websocket_connect("/ws") as a,
        client.websocket_connect("/ws") as b,
    ):
        a.send_json({"type": "queue", "name": "Ana", "variant": "two-handed"})
        assert receive(a, "queue")["players"] == 2
        b.send_json({"type": "queue", "name": "Ben", "variant": "two-handed"})
        ma, mb = receive(a, "matched"), receive(b, "matched")
        assert ma["table"] == mb["table"] and {ma["seat"], mb["seat"]} == {"N", "E"}
        state = join(b, mb["table"], mb["token"])
        assert set(state["players"]) == {"N", "E"} and not any(p["bot"] for p in state["players"].values())
        a.send_json({"type": "queue", "name": "Ana", "variant": "belote-a-cinq"})
        refused = error(a)
        assert "variant" in refused and "two-handed" in refused


def test_the_queue_of_one_game_is_shared_by_processes_on_redis(tmp_path: Path) -> None:
    with redis_server(tmp_path) as url:
        args = ("--pace", "0", "--turn-timer", "600", "--queue-wait", "600", "--redis", url)
        servers = [Server(tmp_path / f"{n}.sqlite3", tmp_path / f"{n}.log", *args) for n in "ab"]
        for s in servers:
            s.start()
        try:

            async def queue() -> list[dict[str, Any]]:
                sockets = [await connect(s.ws_url) for s in servers]
                classic = await connect(servers[0].ws_url)
                await classic.send(json.dumps({"type": "queue", "name": "Cleo"}))
                for i, ws in enumerate(sockets):
                    await ws.send(json.dumps({"type": "queue", "name": f"Q{i}", "variant": "two-handed"}))
                matched = []
                for ws in sockets:
                    while (msg := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "matched":
                        pass
                    matched.append(msg)
                    await ws.close()
                await classic.close()
                return matched

            matched = run(queue())
        finally:
            for s in servers:
                s.stop()
    assert matched[0]["table"] == matched[1]["table"]
    assert sorted(m["seat"] for m in matched) == ["E", "N"]


# ----------------------------------------------------------------- refusals
def test_settings_name_the_rule_option_they_break(app_client: Callable[..., TestClient]) -> None:
    with app_client(pace=0.0, turn_timer=600) as client:
        for bad, words in (
            ({"variant": "belote-a-cinq"}, ("variant", "coinche", "two-handed")),
            ({"variant": "coinche", "surcoinche": 8}, ("surcoinche", "3, 4")),
            ({"coinche_max_bid": 170}, ("coinche_max_bid",)),
            ({"coinche_made": "always"}, ("coinche_made",)),
            ({"coinche_failed": "160"}, ("coinche_failed",)),
            ({"round_five": "sideways"}, ("round_five",)),
            ({"generale": "yes"}, ("generale",)),
            ({"belote_counts": 1}, ("belote_counts",)),
            ({"no_trump_all_trump": None}, ("no_trump_all_trump",)),
        ):
            r = client.post("/api/solo", json=bad)
            assert r.status_code == 400 and all(w in r.json()["error"] for w in words), (bad, r.json())
            assert r.json()["code"] == "bad_setting" and r.json()["args"]["option"] == words[0], (bad, r.json())
        # An option a game does not use is kept and ignored by the engine: declarations at two hands.
        r = client.post("/api/solo", json={**QUICK, "variant": "two-handed", "declarations": True, "surcoinche": 3})
        assert r.status_code == 200 and r.json()["seat"] == "N"
        r = client.post("/api/tables", json={"name": "Ann", "seat": "W", "settings": {"variant": "three-handed"}})
        assert r.status_code == 400 and "there is no W" in r.json()["error"]
        assert (r.json()["code"], r.json()["args"]) == ("no_such_seat", {"seat": "W", "seats": ["N", "E", "S"]})


def four_people(client: TestClient, settings: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """A private table in its lobby, four people seated; the host's answer and the seat tokens."""
    host = client.post("/api/tables", json={"name": "Ann", "settings": settings}).json()
    tokens = {host["seat"]: host["token"]}
    for name in ("Bob", "Cid", "Dee"):
        sat = client.post(f"/api/tables/{host['table']}/sit", json={"invite": host["invite"], "name": name}).json()
        tokens[sat["seat"]] = sat["token"]
    return host, tokens


def test_bids_of_another_game_and_a_defenders_surcoinche_are_refused(app_client: Callable[..., TestClient]) -> None:
    with app_client(pace=0.0, turn_timer=600) as client:
        host, tokens = four_people(client, {**QUICK, "variant": "coinche"})
        with (
            client.websocket_connect("/ws") as n,
            client.websocket_connect("/ws") as e,
            client.websocket_connect("/ws") as s,
            client.websocket_connect("/ws") as w,
        ):
            ws = {"N": n, "E": e, "S": s, "W": w}
            for seat, sock in ws.items():
                join(sock, host["table"], tokens[seat])
            s.send_json({"type": "start"})
            states = {seat: until(sock, lambda m: m["status"] == "playing") for seat, sock in ws.items()}
            first = states["S"]["view"]["to_move"]
            order = [SEATS[(SEATS.index(first) + i) % 4] for i in range(4)]  # the bidder, a defender, a partner...

            def say(seat: str, action: str) -> str:
                ws[seat].send_json({"type": "act", "action": action})
                msg = ws[seat].receive_json()
                while msg["type"] == "state":
                    msg = ws[seat].receive_json()
                return str(msg["message"])

            assert "Coinche" in say(order[0], "take")  # no card is turned: contracts are bid
            assert "no contract to coinche" in say(order[0], "coinche")
            assert "surcoinche answers a coinche" in say(order[0], "surcoinche")
            assert "80 to 160" in say(order[0], "170S")
            assert "générale" in say(order[0], "generaleS")
            ws[order[0]].send_json({"type": "act", "action": "90NT"})
            for sock in ws.values():
                until(sock, lambda m: len(m["view"]["bids"]) == 1)
            assert "higher than 90NT" in say(order[1], "80S")
            assert "a contract such as 110H" in say(order[1], "x" * 13)
            ws[order[1]].send_json({"type": "act", "action": "pass"})
            for sock in ws.values():
                until(sock, lambda m: len(m["view"]["bids"]) == 2)
            assert "not your own side's" in say(order[2], "coinche")
            ws[order[2]].send_json({"type": "act", "action": "pass"})
            for sock in ws.values():
                until(sock, lambda m: len(m["view"]["bids"]) == 3)
            ws[order[3]].send_json({"type": "act", "action": "coinche"})
            coinched = {seat: until(sock, lambda m: len(m["view"]["bids"]) == 4) for seat, sock in ws.items()}
            assert coinched["S"]["view"]["contract"]["multiplier"] == 2
            assert coinched["S"]["view"]["to_move"] == order[0]
            # A defender may not surcoinche: the turn is the bidding side's.
            refused = say(order[1], "surcoinche")
            assert f"it is {order[0]}'s turn" in refused
            assert say(order[0], "coinche").startswith("90NT is already coinched")
        classic, tokens = four_people(client, QUICK)
        with client.websocket_connect("/ws") as h, client.websocket_connect("/ws") as me:
            join(h, classic["table"], tokens["S"])
            h.send_json({"type": "start"})
            mover = until(h, lambda m: m["status"] == "playing")["view"]["to_move"]
            join(me, classic["table"], tokens[mover])
            me.send_json({"type": "act", "action": "110H"})
            assert error(me) == "110H is a Coinche bid: take, pass or name a suit"


def test_a_game_of_fewer_seats_moves_the_people_beyond_them_or_is_refused_when_too_many_sit(
    app_client: Callable[..., TestClient],
) -> None:
    with app_client(pace=0.0, turn_timer=600) as client:
        host = client.post("/api/tables", json={"name": "Ann", "settings": QUICK}).json()
        assert host["seat"] == "S"
        guest = client.post(
            f"/api/tables/{host['table']}/sit", json={"invite": host["invite"], "name": "Bob", "seat": "W"}
        )
        assert guest.status_code == 200
        with client.websocket_connect("/ws") as h, client.websocket_connect("/ws") as g:
            join(h, host["table"], host["token"])
            join(g, host["table"], guest.json()["token"])
            # Three hands: no W, Bob moves to the first free seat of S, N, E; his page is told.
            h.send_json({"type": "settings", "settings": {"variant": "three-handed"}})
            moved = until(g, lambda m: m["settings"]["variant"] == "three-handed")
            assert (
                moved["seat"] == "N" and moved["players"]["N"]["name"] == "Bob" and set(moved["players"]) == {"S", "N"}
            )
            g.send_json({"type": "seat", "seat": "W"})
            assert error(g) == "this game has 3 seats, N, E and S: there is no W"
            # Two hands: the host leaves South for East, and stays the host.
            h.send_json({"type": "settings", "settings": {"variant": "two-handed"}})
            two = until(h, lambda m: m["settings"]["variant"] == "two-handed")
            assert two["seat"] == "E" and two["host"] == "E" and set(two["players"]) == {"N", "E"}
            full = client.post(f"/api/tables/{host['table']}/sit", json={"invite": host["invite"], "name": "Cy"})
            assert full.status_code == 409 and full.json()["error"] == "the table is full: 2 people sit there"
            assert (full.json()["code"], full.json()["args"]) == ("table_full", {"players": 2})
            h.send_json({"type": "settings", "settings": {"variant": "three-handed", "deals": 1}})
            until(h, lambda m: m["settings"]["variant"] == "three-handed")
            assert (
                client.post(f"/api/tables/{host['table']}/sit", json={"invite": host["invite"], "name": "Cy"}).json()[
                    "seat"
                ]
                == "S"
            )
            h.send_json({"type": "settings", "settings": {"variant": "two-handed"}})
            assert error(h) == "two-handed has 2 seats, N and E: 3 people sit here, 1 must leave first"
            h.send_json({"type": "start"})
            started = until(h, lambda m: m["status"] == "playing")
            assert set(started["players"]) == {"N", "E", "S"} and len(started["view"]["hand"]) == 5
            assert not any(p["bot"] for p in started["players"].values())


def test_a_new_match_of_another_game_at_a_private_table(app_client: Callable[..., TestClient]) -> None:
    with app_client(pace=0.0, turn_timer=600) as client:
        host = client.post("/api/tables", json={"name": "Ann", "settings": {**QUICK, "deals": 1}}).json()
        with client.websocket_connect("/ws") as h:
            join(h, host["table"], host["token"])
            h.send_json({"type": "start"})
            state = until(h, lambda m: m["status"] == "playing")
            h.send_json({"type": "new_game", "settings": {**QUICK, "variant": "two-handed"}})
            assert "not over" in error(h)
            state = join(h, host["table"], host["token"])  # the states passed while waiting for the error
            while not state["view"]["match_over"]:
                if state["waiting"] == "continue":
                    h.send_json({"type": "continue"})
                elif state["view"]["legal"]:
                    h.send_json({"type": "act", "action": state["view"]["legal"][-1]})
                msg = h.receive_json()
                while msg["type"] not in ("state", "error"):
                    msg = h.receive_json()
                # A move made on a state the table had already left is refused, and no state
                # follows while the table waits for this seat: ask for the table again.
                state = msg if msg["type"] == "state" else join(h, host["table"], host["token"])
            h.send_json({"type": "new_game", "settings": {**QUICK, "variant": "two-handed"}})
            two = until(h, lambda m: m["settings"]["variant"] == "two-handed")
            assert two["seat"] == two["host"] == "N" and set(two["players"]) == {"N", "E"}
            assert two["players"]["E"]["bot"] and two["view"]["rules"]["variant"] == "two-handed"
            assert two["events"][0][0] == 0 and two["view"]["score"] == {"N": 0, "E": 0}


def test_a_solo_table_changes_game_and_the_person_follows_their_seat(app_client: Callable[..., TestClient]) -> None:
    with app_client(pace=0.0, turn_timer=600) as client:
        solo = client.post("/api/solo", json=QUICK).json()
        assert solo["seat"] == "S"
        with client.websocket_connect("/ws") as me:
            assert join(me, solo["table"], solo["token"])["seat"] == "S"
            me.send_json({"type": "new_game", "settings": {**QUICK, "variant": "two-handed"}})
            two = until(me, lambda m: m["settings"]["variant"] == "two-handed")
            assert two["seat"] == "N" and set(two["players"]) == {"N", "E"} and two["view"]["seat"] == "N"
            assert two["players"]["E"]["bot"] and not two["players"]["N"]["bot"]
            me.send_json({"type": "new_game", "settings": {**QUICK, "variant": "coinche"}})
            four = until(me, lambda m: m["settings"]["variant"] == "coinche")
            assert four["seat"] == "S" and len(four["players"]) == 4 and len(four["view"]["hand"]) == 8


def test_an_invitation_says_the_game_and_its_free_seats(app_client: Callable[..., TestClient]) -> None:
    with app_client(pace=0.0, turn_timer=600) as client:
        host = client.post("/api/tables", json={"name": "Ann", "settings": {**QUICK, "variant": "three-handed"}}).json()
        url = f"/api/tables/{host['table']}"
        seen = client.get(url, params={"invite": host["invite"]}).json()
        assert seen["variant"] == "three-handed" and seen["seats"] == ["N", "E", "S"] and seen["status"] == "lobby"
        assert seen["people"] == {host["seat"]: "Ann"} and host["seat"] not in seen["free"] and len(seen["free"]) == 2
        assert client.get(url, params={"invite": "wrong"}).status_code == 404
        assert client.get(url).status_code == 404
        assert client.get("/api/tables/nope", params={"invite": host["invite"]}).status_code == 404
