"""The table of client messages (belote.server.messages): each message parsed once into its dataclass,
refused with the rule it breaks, and described by the schema the package keeps."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from starlette.testclient import TestClient

from belote import schemas
from belote.cards import parse_card
from belote.game import Refusal
from belote.server import messages
from belote.server.app import create_app
from belote.server.messages import CLIENT_MESSAGES, Hello, Join, LeaveQueue, Queue, parse
from belote.server.room import (
    Act,
    Back,
    Configure,
    Hint,
    Leave,
    Move,
    NewGame,
    React,
    Resume,
    Say,
    SeatBot,
    Start,
)
from belote.server.tables import ServerConfig
from belote.server.wire import wire_fields
from netplay import receive

#: One message of each type as a page sends it, and what it is parsed into from seat South (2).
#: Values the server gives (a token, a seed, the time) are checked apart.
EXAMPLES: dict[str, tuple[dict[str, Any], Any]] = {
    "join": ({"table": "t1", "token": "s", "since": 4}, Join("t1", "s", None, 4, None)),
    "queue": ({"name": " Léa  B ", "variant": "coinche"}, Queue("Léa B", "coinche", "partners", None)),
    "leave_queue": ({}, LeaveQueue()),
    "hello": ({"player": "p" * 22}, Hello("p" * 22)),
    "seat": ({"seat": "W"}, Move(2, 3)),
    "settings": ({"settings": {"target": 1000}}, Configure(2, {"target": 1000})),
    "start": ({}, Start(2)),
    "leave": ({}, Leave(2)),
    "back": ({}, Back(2)),
    "chat": ({"text": "bien joué"}, Say(2, "bien joué", 0)),
    "react": ({"reaction": "bravo"}, React(2, "bravo", 0)),
    "act": ({"action": "10h"}, Act(2, parse_card("TH"))),
    "continue": ({}, Resume(2)),
    "new_game": ({}, NewGame(2, None, 0)),
    "bot_seat": ({"name": "Robo"}, SeatBot(2, "", "Robo", None)),
    "hint": ({}, Hint(2)),
}
GIVEN = {"at": 0, "seed": 0, "token": ""}  # fields the server gives, blanked for the comparison


def blanked(message: Any) -> Any:
    given = {name: GIVEN[name] for name, source in wire_fields(type(message)) if source in ("now", "seed", "token")}
    return replace(message, **given)


def test_every_message_type_is_an_example_here() -> None:
    assert [cls.wire for cls in CLIENT_MESSAGES] == list(EXAMPLES)


@pytest.mark.parametrize("wire", list(EXAMPLES))
def test_a_message_is_parsed_into_its_dataclass(wire: str) -> None:
    data, expected = EXAMPLES[wire]
    message = parse({"type": wire, **data}, joined=True, seat=2)
    assert type(message).wire == wire  # type: ignore[attr-defined]
    assert blanked(message) == expected


def test_a_spectator_joins_under_a_name_and_writes_in_the_chat() -> None:
    watching = parse({"type": "join", "table": "t1", "watch": "w", "name": "  Zoé  "}, joined=False, seat=None)
    assert watching == Join("t1", None, "w", -1, "Zoé")
    said = parse({"type": "chat", "text": "allez"}, joined=True, seat=None)
    reacted = parse({"type": "react", "reaction": "oops"}, joined=True, seat=None)
    assert isinstance(said, Say) and said.seat is None and isinstance(reacted, React) and reacted.seat is None


def test_what_the_server_gives_is_given_by_the_server() -> None:
    a = parse({"type": "bot_seat", "name": "Robo", "token": "mine"}, joined=True, seat=2)
    b = parse({"type": "bot_seat", "name": "Robo"}, joined=True, seat=2)
    assert isinstance(a, SeatBot) and isinstance(b, SeatBot)
    assert a.token != "mine" and len(a.token) >= 20 and a.token != b.token  # a key of that name is ignored
    game = parse({"type": "new_game", "seed": 7}, joined=True, seat=2)
    assert isinstance(game, NewGame) and 0 <= game.seed < 2**31
    said = parse({"type": "chat", "text": "x", "at": 1}, joined=True, seat=1)
    assert isinstance(said, Say) and said.at > 1_700_000_000_000 and said.seat == 1


@pytest.mark.parametrize(
    ("data", "joined", "seat", "code"),
    [
        ({"type": "dance"}, True, 2, "unknown_type"),
        ({"type": "act", "action": "JH"}, False, None, "not_joined"),
        ({"type": "act", "action": "JH"}, True, None, "read_only"),
        ({"type": "hint"}, True, None, "read_only"),
        ({"type": "act", "action": 7}, True, 2, "not_an_action"),
        ({"type": "act"}, True, 2, "not_an_action"),
        ({"type": "act", "action": "x" * 13}, True, 2, "not_an_action"),
        ({"type": "seat", "seat": "Z"}, True, 2, "bad_seat"),
        ({"type": "seat"}, True, 2, "bad_seat"),
        ({"type": "bot_seat", "name": "Robo", "seat": 3}, True, 2, "bad_seat"),
        ({"type": "bot_seat", "name": ""}, True, 2, "bad_name"),
        ({"type": "queue", "name": "Léa", "variant": "bridge"}, False, None, "bad_setting"),
        ({"type": "queue", "name": "Léa", "variant": None}, False, None, "bad_setting"),
        ({"type": "queue"}, False, None, "bad_name"),
        ({"type": "queue", "name": "Léa", "seating": "alone"}, False, None, "bad_seating"),
        ({"type": "queue", "name": "Léa", "seating": ["any"]}, False, None, "bad_seating"),
    ],
)
def test_a_message_is_refused_with_the_rule_it_breaks(
    data: dict[str, Any], joined: bool, seat: int | None, code: str
) -> None:
    with pytest.raises(Refusal) as refused:
        parse(data, joined=joined, seat=seat)
    assert refused.value.code == code


def test_a_seating_refused_says_what_it_takes() -> None:
    with pytest.raises(Refusal) as refused:
        parse({"type": "queue", "name": "Léa", "seating": "alone"}, joined=False, seat=None)
    assert refused.value.to_json() == {
        "message": "seating is one of partners, any, not 'alone'",
        "code": "bad_seating",
        "args": {"seating": "alone", "choices": ["partners", "any"]},
    }


def test_join_takes_what_it_can_read_and_looks_up_nothing_else() -> None:
    odd = {"type": "join", "table": "x" * 64, "token": 5, "watch": "w", "since": True, "name": "x" * 25}
    assert parse(odd, joined=False, seat=None) == Join(None, None, "w", -1, None)
    assert parse({"type": "join", "table": "t", "since": -2}, joined=True, seat=None) == Join("t", None, None, -1, None)


def test_the_kept_schema_is_the_tables_and_every_example_passes_it() -> None:
    kept = schemas.load("client-message")
    made = messages.schema()
    assert kept["properties"]["type"]["enum"] == made["properties"]["type"]["enum"] == list(messages.BY_WIRE)
    for name, definition in made["$defs"].items():
        assert {k: v for k, v in kept["$defs"][name].items() if k != "$comment"} == definition
    registry = Registry().with_resource("common.json", Resource.from_contents(schemas.load("common")))
    validator = Draft202012Validator(schemas.load("client-message"), registry=registry)
    for wire, (data, _) in EXAMPLES.items():
        validator.validate({"type": wire, **data})


def test_a_page_that_comes_back_to_a_table_loaded_from_the_store_gets_only_what_it_missed(tmp_path: Path) -> None:
    """After a restart the table is replayed from the store: a page that saw events up to n is sent
    the events after n, not the whole history again."""
    db = tmp_path / "again.sqlite3"
    config = ServerConfig(pace=0.0, think_workers=0)
    with TestClient(create_app(db_path=db, config=config)) as client:
        data = client.post("/api/solo", json={"strength": "easy"}).json()
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": data["table"], "token": data["token"], "since": -1})
            state = receive(ws)
            while state["view"]["to_move"] != data["seat"]:
                state = receive(ws)
            ws.send_json({"type": "act", "action": state["view"]["legal"][0]})
            seen = receive(ws)["last"]
    again_app = create_app(db_path=db, config=config)  # a new process on the same file
    with TestClient(again_app) as client, client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": data["table"], "token": data["token"], "since": seen})
        again = receive(ws)
    assert again["gap"] is False and again["last"] >= seen
    assert all(n > seen for n, _ in again["events"])
