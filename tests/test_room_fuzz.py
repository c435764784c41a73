"""The room protocol under random sequences of messages, in every game: a hypothesis state machine.

One private table per example, all its seats taken by people (so nothing moves but what the test
sends, and each step's effects can be awaited exactly): joins with good and bad tokens, sits,
seat moves, settings, starts, legal and arbitrary actions, continues, chats, leaves, reconnects,
closed sockets, and malformed texts, from random sockets. After every step each socket is read up
to a barrier (a message the server refuses, which it answers after everything the step caused; a
socket's close is told to its table before the close returns, so the barriers read after it come
after what it caused too), and:

- no reply is an internal error and nothing is logged at ERROR;
- a refused message changes nothing: the stored table and its log are as before, and no other
  socket hears of it;
- the close of a seat's last socket shows that seat gone to every other socket, with the time
  until a bot stands in while a match goes on; any other close changes nothing; a seat is shown
  gone exactly when the table has it gone, and never while a socket of it is open;
- the stored log, replayed by a fresh engine, is the live table's match, action for action;
- every seat's latest view is the replayed engine's view of that seat (its own hand, nothing
  more), a spectator's the public view, and no card outside the seat's hand appears in it unless
  the public view shows it.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from starlette.testclient import TestClient

from belote.game import SEATS, Match, parse_action
from belote.server import app as app_module
from belote.server import assets
from belote.server import manager as manager_module
from belote.server.app import create_app
from belote.server.room import new_match
from belote.server.store import SQLiteStore
from belote.server.tables import ServerConfig
from netplay import cards_in

GAMES = ("classic", "coinche", "three-handed", "two-handed")
BARRIER = '{"type": "barrier"}'  # unknown: refused, after everything sent before it
MAX_SOCKETS = 6
JUNK: list[Any] = [
    None,
    0,
    -1,
    1.5,
    "",
    "x",
    "N",
    "JH",
    "10S",
    "pass",
    "take",
    "\ud83d",
    "\x00",
    [],
    ["AS"],
    {},
    {"a": 1},
]
#: The page's files, read and compressed once for the apps of every example (an app's start builds
#: them, and the room protocol never asks for them): an ``Assets`` reads them again if they change.
ASSETS = assets.Assets()
RAW = ["", "{", "[]", "null", '"act"', '{"type": 1}', "[" * 50 + "]" * 50, '{"type": "act", "action": NaN}', "\udc00"]


def settings_of(game: str) -> dict[str, Any]:
    return {"variant": game, "turn_timer": 600, "deals": 1, "strength": "easy"}


class Draws:
    """The server's draws of seeds, made repeatable: hypothesis replays each sequence it shrinks, and a
    table's deal decides which steps follow (a match that ends, a seat to move). Secrets stay secret."""

    rng = random.Random(0)
    token_urlsafe = staticmethod(secrets.token_urlsafe)

    @classmethod
    def randbelow(cls, n: int) -> int:
        return cls.rng.randrange(n)


class Socket:
    """One websocket at the table, with what it was last shown."""

    def __init__(self, client: TestClient) -> None:
        self.context = client.websocket_connect("/ws")
        self.ws = self.context.__enter__()
        self.seat: str | None = None
        self.joined = False
        self.spectator = False
        self.state: dict[str, Any] | None = None
        self.token: str | None = None
        self.gave_up: str | None = None  # the token of a seat this socket left

    def close(self) -> None:
        self.context.__exit__(None, None, None)

    def drain(self) -> list[dict[str, Any]]:
        """Everything received up to the barrier's refusal."""
        self.ws.send_text(BARRIER)
        out: list[dict[str, Any]] = []
        while True:
            msg: dict[str, Any] = self.ws.receive_json()
            if (
                msg.get("type") == "error"
                and msg.get("code") == "unknown_type"
                and msg["args"].get("type") == "barrier"
            ):
                return out
            out.append(msg)
            if msg.get("type") == "state":
                self.state = msg
                self.seat = msg["seat"]
            elif msg.get("type") == "left":  # the seat was given up: this socket is at no table now
                self.state, self.seat, self.joined = None, None, False
                self.gave_up, self.token = self.token, None


class Room(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        Draws.rng.seed(0)
        self.folder = tempfile.TemporaryDirectory(prefix="belote-fuzz-")
        self.db = Path(self.folder.name) / "fuzz.sqlite3"
        # A session of hundreds of messages in a second from one address: past the rates made for people.
        # The bots think in threads: an app per example, whose pool of worker processes would cost
        # more to start than its bots think (the workers have tests of their own, test_thinking).
        config = ServerConfig(pace=0.0, turn_timer=600, message_rates=0.0, think_workers=0)
        app = create_app(db_path=self.db, config=config)
        app.state.assets = ASSETS
        self.client = TestClient(app)
        self.client.__enter__()
        # The file as the store has it, read through a connection of the test's own, opened once: each
        # read is a transaction of its own, which sees every write the app committed before it.
        self.reader = SQLiteStore(self.db)
        self.sockets: list[Socket] = []
        self.tokens: list[str] = []
        self.table: dict[str, Any] = {}
        self._replay: tuple[tuple[str, str, str], list[str], Match] | None = None

    def teardown(self) -> None:
        for s in self.sockets:
            s.close()
        self.client.__exit__(None, None, None)
        # The app leaves its store open when it stops, whose checkpointer would open the file again a
        # second after the last write, maybe while the folder is being removed: closed first.
        self.client.app.state.store.close()  # type: ignore[attr-defined]
        self.reader.close()
        self.folder.cleanup()

    # ------------------------------------------------------------- helpers
    def stored(self) -> tuple[dict[str, Any], list[str]]:
        """The table's meta and actions as the store holds them."""
        loaded = self.reader.load_table(self.table["table"])
        assert loaded is not None, f"no table {self.table['table']} in {self.db}"
        return loaded

    def replayed(self) -> Match:
        """The stored log replayed by a fresh engine. The engine of the last call goes on from where it
        stopped when the log only grew since, with the same table, seed and settings (a fresh engine
        fed the same actions in the same order either way); any other change replays from the start."""
        meta, actions = self.stored()
        key = (self.table["table"], str(meta["seed"]), json.dumps(meta["settings"], sort_keys=True))
        if self._replay is not None and self._replay[0] == key and actions[: len(self._replay[1])] == self._replay[1]:
            match = self._replay[2]
            done = len(self._replay[1])
        else:
            match, done = new_match(meta["settings"], int(meta["seed"])), 0
        for a in actions[done:]:
            match.apply(parse_action(a))
        self._replay = (key, actions, match)
        return match

    def live(self) -> Any:
        return self.client.app.state.tables.tables[self.table["table"]]  # type: ignore[attr-defined]

    def step(self, sock: Socket, text: str) -> list[dict[str, Any]]:
        """Send ``text`` on ``sock``; every socket read to its barrier. A refusal must change nothing."""
        before = self.stored()
        sock.ws.send_text(text)
        replies = sock.drain()
        others = [m for s in self.sockets if s is not sock for m in s.drain()]
        if sock.gave_up is not None:  # a seat left in the lobby: its token opens nothing any more
            self.tokens.remove(sock.gave_up)
            sock.gave_up = None
        errors = [m for m in replies if m.get("type") == "error"]
        for m in [*replies, *others]:
            assert m.get("code") != "server_error", m
        if errors:
            assert self.stored() == before, f"refused ({errors[0]['code']}) but the table changed"
            assert not [m for m in others if m["type"] == "state"], "a refused message reached the others"
        return replies

    def seated(self) -> list[Socket]:
        return [s for s in self.sockets if s.joined and s.seat is not None]

    def full(self) -> bool:
        state = next((s.state for s in self.sockets if s.state is not None), None)
        if state is None:
            return False
        players = state["players"]
        count = {"two-handed": 2, "three-handed": 3}.get(state["settings"]["variant"], 4)
        return len(players) == count and not any(p["bot"] for p in players.values())

    # ------------------------------------------------------------- rules
    game = "classic"

    @initialize()
    def create(self) -> None:
        r = self.client.post("/api/tables", json={"name": "Host", "settings": settings_of(self.game)})
        assert r.status_code == 200, r.text
        self.table = r.json()
        self.tokens = [self.table["token"]]

    @precondition(lambda self: len(self.sockets) < MAX_SOCKETS)
    @rule(which=st.integers(0, 9))
    def connect(self, which: int) -> None:
        if which < 6:
            sock = self.join(token=self.tokens[which % len(self.tokens)])
        elif which < 8:
            sock = self.join(watch=self.table["watch"])
        else:
            sock = self.join(token="not-a-token" if which == 8 else self.table["invite"])
        assert (sock is not None) == (which < 8)

    @precondition(lambda self: self.live().match is None)
    @rule()
    def everyone_sits_and_the_host_starts(self) -> None:
        """The way most tables go: the guests take the free seats and the host starts."""
        host = self._socket_of(self.table["token"])
        if host is None:
            raise AssertionError("the host's token opens nothing: a host cannot leave")
        while not self.full():
            self.sit("Guest", invite=True)
            if len(self.tokens) > 4:
                return  # the table is full of people yet not of this game's seats: a state the test did not foresee
        replies = self.step(host, '{"type": "start"}')
        assert [m["type"] for m in replies] == ["state"], replies

    def _socket_of(self, token: str) -> Socket | None:
        """A socket joined with ``token``, opened when there is none; None if the token opens nothing."""
        sock = next((s for s in self.sockets if s.token == token and s.joined), None)
        if sock is None and token in self.tokens:
            sock = self.join(token=token)
        return sock

    def join(self, **join: str) -> Socket | None:
        sock = Socket(self.client)
        self.sockets.append(sock)
        replies = self.step(sock, json.dumps({"type": "join", "table": self.table["table"], **join}))
        sock.joined = any(m["type"] == "state" for m in replies)
        if not sock.joined:
            return None
        sock.spectator = "watch" in join
        sock.token = join.get("token")
        return sock

    @precondition(lambda self: bool(self.sockets))
    @rule(i=st.integers(0, MAX_SOCKETS - 1))
    def disconnect(self, i: int) -> None:
        sock = self.sockets.pop(i % len(self.sockets))
        seat = sock.seat if sock.joined else None
        last = seat is not None and not any(s.joined and s.seat == seat for s in self.sockets)
        sock.close()
        for other in self.sockets:
            heard = other.drain()
            if not (last and other.joined):
                assert heard == [], f"a socket closed, {seat}'s last: {last}; yet {other.seat} heard {heard}"
                continue
            assert [m["type"] for m in heard] == ["state"], heard
            state = heard[0]
            away = state["players"][seat].get("away")
            assert away is not None, f"{seat}'s last socket closed, yet {other.seat} is not shown them gone"
            view = state["view"]
            if view is None or view["match_over"]:
                assert away == {"standin_ms": None}, away  # nothing is played: no bot is coming
            else:
                assert 0 < away["standin_ms"] <= 600_000, away  # the turn timer, or what is left of a turn

    @rule(name=st.sampled_from(["Nina", "Emil", "Wes", "", "\u202e", "N" * 40]), invite=st.booleans())
    def sit_down(self, name: str, invite: bool) -> None:
        self.sit(name, invite)

    def sit(self, name: str, invite: bool) -> None:
        before = self.stored()
        code = self.table["invite"] if invite else "wrong"
        r = self.client.post(f"/api/tables/{self.table['table']}/sit", json={"invite": code, "name": name})
        assert r.status_code < 500, r.text
        if r.status_code == 200:
            self.tokens.append(r.json()["token"])
        else:
            assert self.stored() == before
            assert "watch" not in r.json() or invite, "a spectator code without the invitation"
        for s in self.sockets:
            s.drain()

    @precondition(lambda self: self.live().match is not None)
    @rule(k=st.integers(0, 40), times=st.integers(1, 60))
    def act_legal(self, k: int, times: int) -> None:
        """The seats to move play legal actions (or continue between deals), ``times`` in a row."""
        for n in range(times):
            self.one_legal_action(k + n)

    def one_legal_action(self, k: int) -> None:
        sock = next((s for s in self.seated() if s.state and self._may_move(s)), None)
        if sock is None:  # the seat to move has no socket open: its person comes back
            for token in list(self.tokens):
                self._socket_of(token)
            sock = next((s for s in self.seated() if s.state and self._may_move(s)), None)
        if sock is None:
            return
        assert sock.state is not None
        if sock.state["waiting"] == "continue":
            replies = self.step(sock, '{"type": "continue"}')
        else:
            legal = sock.state["view"]["legal"]
            replies = self.step(sock, json.dumps({"type": "act", "action": legal[k % len(legal)]}))
        assert not [m for m in replies if m["type"] == "error"], replies

    @staticmethod
    def _may_move(sock: Socket) -> bool:
        state = sock.state
        assert state is not None
        view = state["view"]
        if view is None or view["match_over"]:
            return False
        return state["waiting"] == "continue" or (
            state["waiting"] is None and view["to_move"] == state["seat"] and bool(view["legal"])
        )

    @precondition(lambda self: bool(self.sockets))
    @rule(i=st.integers(0, MAX_SOCKETS - 1), action=st.sampled_from(JUNK))
    def act_anything(self, i: int, action: Any) -> None:
        self.step(self.sockets[i % len(self.sockets)], json.dumps({"type": "act", "action": action}))

    @precondition(lambda self: bool(self.sockets))
    @rule(
        i=st.integers(0, MAX_SOCKETS - 1),
        kind=st.sampled_from(["continue", "back", "leave", "react", "new_game", "start", "seat", "settings"]),
        value=st.sampled_from([*JUNK, "S", "E", "W", {"variant": "coinche"}, {"variant": "two-handed"}]),
    )
    def message(self, i: int, kind: str, value: Any) -> None:
        sock = self.sockets[i % len(self.sockets)]
        if kind == "start" and not self.full():
            return  # bots would take the free seats: this table stays all people, so that nothing moves alone
        field = {"seat": "seat", "settings": "settings", "react": "reaction", "new_game": "settings"}.get(kind, "x")
        self.step(sock, json.dumps({"type": kind, field: value}))

    @precondition(lambda self: bool(self.sockets))
    @rule(
        i=st.integers(0, MAX_SOCKETS - 1),
        text=st.sampled_from(["bonjour", "\ud83d", "\x1b[2J", "\u202eevil", "x" * 600]),
    )
    def chat(self, i: int, text: str) -> None:
        self.step(self.sockets[i % len(self.sockets)], json.dumps({"type": "chat", "text": text}))

    @precondition(lambda self: bool(self.sockets))
    @rule(i=st.integers(0, MAX_SOCKETS - 1), raw=st.sampled_from(RAW))
    def malformed(self, i: int, raw: str) -> None:
        replies = self.step(self.sockets[i % len(self.sockets)], raw)
        assert [m["type"] for m in replies] == ["error"], replies

    # ------------------------------------------------------------- invariants
    @invariant()
    def the_log_replays_to_the_live_table(self) -> None:
        if not self.table:
            return
        meta, actions = self.stored()
        table = self.live()
        if table.match is None:
            assert actions == [] and meta["status"] == "lobby"
            return
        replayed = self.replayed()

        assert [str(a) for a in table.match.actions] == actions
        seats = [*range(replayed.rules.players), None]
        assert replayed.view_json(seats) == table.match.view_json(seats)

    @invariant()
    def the_store_holds_the_live_table_and_a_game_has_all_its_seats(self) -> None:
        if not self.table:
            return
        meta, _ = self.stored()
        table = self.live()
        assert meta == json.loads(json.dumps(table.meta.to_json()))
        if meta["status"] != "lobby":
            assert len(table.meta.seats) == table.meta.players, "a seat of a game under way is empty"

    @invariant()
    def a_seat_is_shown_gone_when_the_table_has_it_gone_and_never_with_a_socket_open(self) -> None:
        if not self.table:
            return
        gone = {SEATS[s] for s in self.live().meta.away}
        assert not gone & {s.seat for s in self.sockets if s.joined}, "a seat with a socket open is gone"
        for sock in self.sockets:
            if sock.state is not None:
                shown = {seat for seat, player in sock.state["players"].items() if "away" in player}
                assert shown == gone, f"{sock.seat} is shown {sorted(shown)} gone, the table has {sorted(gone)}"

    @invariant()
    def every_view_is_its_seats_own(self) -> None:
        if not self.table or self.live().match is None:
            return
        replayed = self.replayed()
        public = replayed.view_json([None])[None]
        public_cards = set(cards_in(public))
        for sock in self.sockets:
            if sock.state is None or sock.state["view"] is None:
                continue
            view = sock.state["view"]
            seat = None if sock.seat is None else SEATS.index(sock.seat)
            assert view == replayed.view_json([seat])[seat], f"{sock.seat}'s view is not the engine's"
            hidden = set(cards_in(view, skip=("hand", "legal"))) - public_cards - set(view["hand"])
            assert not hidden, f"{sorted(hidden)} shown to {sock.seat} though hidden"
            assert all(parse_action(a) is not None for a in view["legal"])


@pytest.mark.parametrize("game", GAMES)
def test_random_sessions(game: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(app_module, "FLOOD", (10**9, 1.0))  # every barrier is a refusal
    monkeypatch.setattr(manager_module, "secrets", Draws)
    monkeypatch.setattr(Room, "game", game)
    with caplog.at_level(logging.WARNING):
        run_state_machine_as_test(
            Room,
            settings=settings(
                max_examples=10,
                stateful_step_count=60,
                deadline=None,
                derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            ),
        )
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
