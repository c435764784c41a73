"""The published schemas (``belote.schemas``, docs/schemas.md) hold what the project writes and sends.

Every vector record and replay validates against the record schemas; every view and event of engine
matches of the four games against the message schemas; every message scripted players send and
receive over real websockets of a ``belote serve`` (private tables with their lobby, solo tables,
the queue, spectators, chat, refusals), against the client and server message schemas; and
schemathesis, over the served OpenAPI document, finds no server error and no answer that breaks it.
Broken records and messages are refused by the same validators, so each check can fail; the schemas'
lists (refusal codes and their args, settings, rule options, message types) are the code's.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from openapi_spec_validator import validate as validate_openapi
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.openapi.checks import JsonSchemaError
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.transport.requests import ManagedCookiesSession
from websockets.asyncio.client import connect

from belote import schemas
from belote.actions import REFUSALS, action_str
from belote.game import SEATS
from belote.record import RULE_KEYS, to_record
from belote.rules import Rules
from belote.schemas import build
from belote.server import messages
from belote.server.room import DEFAULT_SETTINGS, REACTIONS, new_match
from belote.variants import VARIANTS
from belote.variants.classic import Classic
from netplay import Player, Server, match_over, post, run
from schemacheck import BASE, REGISTRY

VECTORS = Path(__file__).parent / "vectors"
FAST = {"strength": "easy", "speed": "fast", "deals": 1}


RS_REGISTRY = jsonschema_rs.Registry([(f"{BASE}{name}.json", schemas.load(name)) for name in schemas.NAMES])


class Schema:
    """A schema (or one of its definitions) with two validators: ``jsonschema``, the reference
    implementation in Python, and ``jsonschema-rs``, the one schemathesis checks answers with, a hundred
    times faster. The many messages of the games go through the fast one (``quick``); anything it
    refuses, and every value of the other tests, goes through both, which must agree."""

    def __init__(self, name: str, pointer: str = "") -> None:
        ref = {"$ref": f"{BASE}{name}.json{pointer}"}
        self.reference = Draft202012Validator(ref, registry=REGISTRY)
        self.fast = jsonschema_rs.Draft202012Validator(ref, registry=RS_REGISTRY)

    def problem(self, value: Any, quick: bool = False) -> str | None:
        """What is wrong with ``value`` (the most telling error, with where it is), or None."""
        fast = self.fast.is_valid(value)
        if quick and fast:
            return None
        error = best_match(self.reference.iter_errors(value))
        if fast != (error is None):
            return f"the validators disagree: jsonschema-rs says {fast}, jsonschema {error}"
        return None if error is None else f"{error.json_path}: {error.message[:300]}"


@cache
def schema(name: str, pointer: str = "") -> Schema:
    return Schema(name, pointer)


RECORD, REPLAY = schema("deal-record"), schema("deal-replay")
CLIENT, SERVER = schema("client-message"), schema("server-message")
VIEW, EVENT = schema("server-message", "#/$defs/view"), schema("server-message", "#/$defs/event")
CLIENT_TYPES = set(schemas.load("client-message")["properties"]["type"]["enum"])
SERVER_TYPES = set(schemas.load("server-message")["properties"]["type"]["enum"])


# ----------------------------------------------------------------- the schemas themselves
@pytest.mark.parametrize("name", schemas.NAMES)
def test_each_schema_is_a_2020_12_schema(name: str) -> None:
    schema = schemas.load(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    for ref in schemas.refs(schema):  # every reference resolves
        REGISTRY.resolver(f"{BASE}{name}.json").lookup(ref)


def test_the_served_openapi_document_stands_alone() -> None:
    doc = schemas.openapi()
    assert doc["openapi"] == "3.1.0"
    assert doc["jsonSchemaDialect"] == "https://json-schema.org/draft/2020-12/schema"
    resolver = Registry().with_resource("urn:openapi", Resource.from_contents(doc, DRAFT202012)).resolver("urn:openapi")
    refs = list(schemas.refs(doc))
    assert all(ref.startswith("#/components/schemas/") for ref in refs), [r for r in refs if "#/comp" not in r]
    for ref in refs:
        resolver.lookup(ref)
    for schema in doc["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)


def test_the_kept_openapi_file_stands_alone() -> None:
    """As a program reads the file in the package: alone, no address to resolve a reference against,
    by openapi-spec-validator (the reference validator of OpenAPI documents)."""
    doc = json.loads(schemas.text("openapi"))
    assert not [ref for ref in schemas.refs(doc) if not ref.startswith("#/")]
    validate_openapi(doc)
    assert doc == schemas.openapi()  # what the server serves


def test_the_routes_of_the_app_are_in_the_openapi_document() -> None:
    from starlette.routing import Route

    from belote.server.app import create_app

    documented = {(path, method.upper()) for path, item in schemas.openapi()["paths"].items() for method in item}
    served = {
        (route.path, method)
        for route in create_app(db_path=":memory:").routes
        if isinstance(route, Route)
        for method in (route.methods or ())
        if method != "HEAD"
    }
    assert documented == served


def test_the_lists_in_the_schemas_are_the_codes() -> None:
    common = schemas.load("common")["$defs"]
    assert common["refusalCode"]["enum"] == list(REFUSALS)
    args = common["refusalArgs"]["properties"]
    assert {code: sorted(a["required"]) for code, a in args.items()} == {c: sorted(n) for c, n in REFUSALS.items()}
    assert all(sorted(a["properties"]) == sorted(a["required"]) for a in args.values())
    assert sorted(common["settings"]["properties"]) == sorted(DEFAULT_SETTINGS)
    assert sorted(common["rules"]["properties"]) == sorted(Rules().to_dict())
    assert sorted(common["ruleOptions"]["properties"]) == sorted(Rules().to_dict())
    assert sorted(schemas.load("deal-record")["properties"]["rules"]["properties"]) == sorted(RULE_KEYS)
    assert common["variant"]["enum"] == list(VARIANTS)
    assert common["reaction"]["enum"] == list(REACTIONS)
    # The client messages are the server's table of client messages, in its order.
    assert schemas.load("client-message")["properties"]["type"]["enum"] == list(messages.BY_WIRE)


def test_the_kept_files_are_what_the_build_makes() -> None:
    differ = build.stale()
    assert not differ, f"{', '.join(differ)}: not what the code makes; run {build.COMMAND}"


def test_the_build_makes_the_registries_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A code and a game more in the registries are in the schemas built, and the kept files are then stale."""
    monkeypatch.setitem(REFUSALS, "too_many_cards", ("max", "cards"))
    facts = {"name": "five-handed", "players": 3, "team_names": ("N", "E", "S"), "partners": False}
    five = type("Five", (Classic,), facts)()
    monkeypatch.setitem(VARIANTS, five.name, five)
    built = build.build()
    common = built["common"]["$defs"]
    assert common["refusalCode"]["enum"][-1] == "too_many_cards"
    assert common["refusalArgs"]["properties"]["too_many_cards"]["required"] == ["max", "cards"]
    assert common["variant"]["enum"][-1] == "five-handed"
    queue = built["server-message"]["$defs"]["queue"]["properties"]
    assert "five-handed" in queue["waiting_by_game"]["required"]
    games = built["server-message"]["$defs"]["viewByGame"]["allOf"]
    assert games[-1]["if"]["properties"]["rules"]["properties"]["variant"] == {"const": "five-handed"}
    assert games[-1]["then"]["properties"]["won"] == {"$ref": "common.json#/$defs/threeScores"}
    assert {"src/belote/schemas/common.json", "src/belote/schemas/server-message.json"} <= set(build.stale())
    monkeypatch.setitem(REFUSALS, "too_many_cards", ("cards", "how_many"))
    with pytest.raises(KeyError, match="the arg 'how_many' of the refusal 'too_many_cards' has no type"):
        build.build()


def test_the_server_serves_the_schemas(served: Server) -> None:
    import urllib.error
    import urllib.request

    for name in schemas.NAMES:
        with urllib.request.urlopen(f"{served.base}/api/schemas/{name}.json", timeout=10) as r:
            assert r.headers["Content-Type"] == "application/schema+json"
            assert json.loads(r.read()) == schemas.load(name)
    with urllib.request.urlopen(f"{served.base}/api/openapi.json", timeout=10) as r:
        assert json.loads(r.read()) == schemas.openapi()
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{served.base}/api/schemas/nothing.json", timeout=10)
    assert refused.value.code == 404


# ----------------------------------------------------------------- deal records
VECTOR_FILES = sorted(VECTORS.glob("*.json"))


@pytest.mark.parametrize("path", VECTOR_FILES, ids=[p.name for p in VECTOR_FILES])
def test_every_vector_validates(path: Path) -> None:
    data = json.loads(path.read_text())
    v = REPLAY if path.name.endswith(".replay.json") else RECORD
    assert v.problem(data) is None


def test_there_are_vectors_of_every_game() -> None:
    records = [json.loads(p.read_text()) for p in VECTOR_FILES if not p.name.endswith(".replay.json")]
    assert {r.get("rules", {}).get("variant", "classic") for r in records} == set(VARIANTS)
    assert (len(records), len(VECTOR_FILES) - len(records)) == (20, 17)


def _worked() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((VECTORS / "worked_deal_1.json").read_text())
    return data


BROKEN_RECORDS: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("no deck", lambda r: r.pop("deck")),
    ("31 cards", lambda r: r["deck"].pop()),
    ("a card twice", lambda r: r["deck"].__setitem__(0, r["deck"][1])),
    ("no such card", lambda r: r["plays"].__setitem__(0, "1H")),
    ("another format", lambda r: r.__setitem__("format", "belote-deal/2")),
    ("an unknown key", lambda r: r.__setitem__("comment", "hello")),
    ("an unknown rule", lambda r: r.__setitem__("rules", {"colour": "red"})),
    ("a match option", lambda r: r.__setitem__("rules", {"target": 1000})),
    ("a bid that is none", lambda r: r["bids"].__setitem__(0, "double")),
    ("W at three hands", lambda r: r.update(rules={"variant": "three-handed"}, dealer="W")),
    ("side scores at two hands", lambda r: r.update(rules={"variant": "two-handed"})),
    ("player scores at four", lambda r: r.__setitem__("score_before", {"N": 1, "E": 2})),
    ("points waiting in Coinche", lambda r: r.update(rules={"variant": "coinche"}, pending=5)),
]


@pytest.mark.parametrize("change", [c for _, c in BROKEN_RECORDS], ids=[n for n, _ in BROKEN_RECORDS])
def test_a_broken_record_is_refused(change: Callable[[dict[str, Any]], None]) -> None:
    record = _worked()
    assert RECORD.problem(record) is None
    change(record)
    assert RECORD.problem(record) is not None


def test_the_broken_records_are_refused_by_the_reader_too() -> None:
    """The reader refuses the same broken records: as no record at all (``RecordError``, exit status 2),
    or, for a bid that is no word of any game, as an illegal action (exit status 1)."""
    from belote.record import RecordError, replay

    for name, change in BROKEN_RECORDS:
        record = _worked()
        change(record)
        try:
            out = replay(record)
        except RecordError:
            continue
        assert name == "a bid that is none" and out["error"]["key"] == "bids", name


def test_records_the_engine_writes_validate_in_any_case() -> None:
    """Input is case-insensitive and takes 10 for T: a record in small letters is a record."""
    record = _worked()
    record["deck"] = [c.lower().replace("t", "10") for c in record["deck"]]
    record["bids"] = [b.upper() for b in record["bids"]]
    assert RECORD.problem(record) is None


# ----------------------------------------------------------------- the engine's views and events
def _random_match(variant: str, seed: int, deals: int) -> Iterator[tuple[Any, dict[int | None, dict[str, Any]]]]:
    """A match of ``deals`` deals played at random, with the views of every seat and a spectator at each step."""
    settings = {**DEFAULT_SETTINGS, "variant": variant, "deals": deals}
    match = new_match(settings, seed)
    rng = random.Random(seed)
    seats: list[int | None] = [None, *range(match.rules.players)]
    while True:
        yield match, match.view_json(seats)
        if match.over:
            return
        match.apply(rng.choice(match.legal_actions()))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_views_and_events_of_engine_matches_validate(variant: str) -> None:
    records, kinds = 0, set()
    for seed in (1, 2):
        deal_count = 0
        for match, views in _random_match(variant, seed, deals=3):
            for view in views.values():
                assert VIEW.problem(view, quick=True) is None, (view, VIEW.problem(view))
            if len(match.deals) != deal_count:
                deal_count = len(match.deals)
                if deal_count > 1:
                    record = to_record(match.deals[-2])
                    assert RECORD.problem(record) is None
                    records += 1
        events = [e for _, e in match.events()]
        for event in events:
            assert EVENT.problem(event, quick=True) is None, (event, EVENT.problem(event))
        kinds |= {e["type"] for e in events}
    assert records == 4
    # Every event of the game came (declarations but at two hands; cards turned up only there).
    expected = {"deal", "dealt", "bid", "trump", "card", "trick", "scored", "match-over"}
    expected |= {"turned-up"} if variant == "two-handed" else {"declared", "declarations-shown"}
    assert kinds == expected


def test_a_capot_result_validates() -> None:
    """A capot (which random play hardly makes) as ``scored`` says it: the side, and a Coinche générale."""
    from belote.contracts import GENERALE, Contract
    from belote.scoring import DealResult

    four = DealResult("capot", 0, (252, 0), (0, 0), (20, 0), (272, 0), 0, capot=0, winner=0)
    three = DealResult("capot", 1, (0, 252, 0), (0, 0, 0), (0, 0, 0), (0, 252, 0), 0, capot=1, names=("N", "E", "S"))
    general = Contract(GENERALE, 5, bidder=2, multiplier=2)
    coinche = DealResult("made", 0, (252, 0), (0, 0), (0, 0), (1000, 0), 0, capot=0, contract=general)
    for result in (four, three, coinche):
        assert EVENT.problem({"type": "scored", **result.to_json()}) is None
    assert EVENT.problem({"type": "scored", **four.to_json(), "capot": "W"}) is not None


def test_a_deal_sheet_validates() -> None:
    """The sheet of a result (``rows``, as the view and ``scored`` carry it): known row names only."""
    from belote.scoring import score_deal, score_three

    capot = score_deal(Rules(), 0, (162, 0), (8, 0), (70, 0), (20, 0), last=0).to_json(sheet=True)
    three = score_three(Rules(variant="three-handed"), 1, (90, 30, 42), (4, 2, 2), (0, 0, 20), (0, 0, 0), last=0)
    for result in (capot, three.to_json(sheet=True)):
        assert EVENT.problem({"type": "scored", **result}) is None
    assert EVENT.problem({"type": "scored", **capot, "rows": [{"row": "bonus", "points": {"NS": 90}}]}) is not None
    assert EVENT.problem({"type": "scored", **capot, "rows": [{"row": "capot", "points": {"W": 90}}]}) is not None


# ----------------------------------------------------------------- a served table, over websockets
@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``belote serve`` with bots that play at once, in threads, and a queue that waits one second."""
    folder = tmp_path_factory.mktemp("schemas")
    server = Server(
        folder / "belote.db", folder / "serve.log", "--pace", "0", "--think-workers", "0", "--queue-wait", "1"
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Recorder(Player):
    """A player that keeps every message it sends as well as every one it receives."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent: list[dict[str, Any]] = []

    async def open(self) -> None:
        self.ws = await connect(self.url, max_size=2**22, open_timeout=10)

    async def connect(self) -> dict[str, Any]:
        await self.open()
        join: dict[str, Any] = {"type": "join", "table": self.table, "since": self.last}
        join.update({"token": self.token} if self.token else {"watch": self.watch})
        await self.send(join)
        return await self.next_state()

    async def send(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)
        await super().send(msg)

    async def receive(self, kind: str) -> dict[str, Any]:
        """The next message of ``kind``; those before it are kept (and a state read as the table's)."""
        assert self.ws is not None
        while True:
            msg: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
            self.messages.append(msg)
            if msg["type"] == "state":
                self.state, self.last = msg, msg["last"]
            if msg["type"] == kind:
                return msg

    async def refused(self, msg: dict[str, Any]) -> str:
        """Send ``msg``, which the server refuses: the code of its error."""
        await self.send(msg)
        code: str = (await self.receive("error"))["code"]
        return code


def until_over(players: list[Recorder]) -> Any:
    return asyncio.gather(*(p.play(match_over, timeout=90) for p in players))


async def private_game(base: str, url: str, variant: str, seed: int) -> list[Recorder]:
    """A private table: its lobby (a move, settings, a refused guest, a guest who leaves, chat), a
    spectator, refused actions, two deals played to the end (the score read between them), and a new match."""
    seats = VARIANTS[variant].players
    host_table = post(base, "/api/tables", {"name": "Host", "settings": {"variant": variant}})
    table, invite = host_table["table"], host_table["invite"]
    guest_seat = post(base, f"/api/tables/{table}/sit", {"invite": invite, "name": "Gwen"})
    host = Recorder(url, table, host_table["token"], seed=seed)
    guest = Recorder(url, table, guest_seat["token"], seed=seed + 1)
    watcher = Recorder(url, table, watch=host_table["watch"])
    players = [host, guest, watcher]
    await host.connect()
    await guest.connect()
    assert await guest.refused({"type": "settings", "settings": {"target": 1000}}) == "not_host"
    assert await guest.refused({"type": "act", "action": "pass"}) == "not_started"
    assert await guest.refused({"type": "seat", "seat": host_table["seat"]}) == "seat_taken"
    if seats > 2:
        free = next(s for s in SEATS[:seats] if s not in (host_table["seat"], guest_seat["seat"]))
        await guest.send({"type": "seat", "seat": free})
        assert (await guest.receive("state"))["seat"] == free
        passer = post(base, f"/api/tables/{table}/sit", {"invite": invite, "name": "Paul"})
        leaver = Recorder(url, table, passer["token"])
        players.append(leaver)
        await leaver.connect()
        await leaver.send({"type": "leave"})
        assert (await leaver.receive("left"))["table"] == table
        await leaver.close()
        # The host seats an outside bot, which joins with its token and gives the seat back.
        assert await host.refused({"type": "bot_seat", "name": "Deep", "seat": free}) == "seat_taken"
        await host.send({"type": "bot_seat", "name": "Deep"})
        given = await host.receive("bot_token")
        outside = Recorder(url, table, given["token"])
        players.append(outside)
        joined = await outside.connect()
        assert joined["players"][given["seat"]] == {"name": "Deep", "bot": True, "standin": False, "outside": True}
        await outside.send({"type": "leave"})
        assert (await outside.receive("left"))["table"] == table
        await outside.close()
    await host.send({"type": "settings", "settings": {"variant": variant, **FAST, "deals": 2}})
    await host.send({"type": "chat", "text": "bonne partie"})
    await host.send({"type": "react", "reaction": "good_game"})
    for _ in range(2):
        await guest.receive("chat")
    await watcher.connect()  # the chat's last lines come first, marked old
    await watcher.send({"type": "chat", "text": "hello"})  # a spectator's line, marked as one
    assert (await guest.receive("chat"))["spectator"] is True
    assert await watcher.refused({"type": "act", "action": "pass"}) == "read_only"
    await host.send({"type": "start"})
    people = {host.state["seat"], guest.state["seat"]}  # type: ignore[index]
    state = await host.receive("state")
    while state["view"] is None or state["view"]["to_move"] not in people:
        state = await host.receive("state")  # the bots play until a person is to move, then wait
    waiting = host if state["view"]["to_move"] != state["seat"] else guest
    assert await waiting.refused({"type": "act", "action": "pass"}) == "not_your_turn"
    await until_over(players[:3])
    await host.send({"type": "new_game"})
    state = await host.receive("state")
    while state["view"] is None or state["view"]["match_over"]:
        state = await host.receive("state")
    assert await guest.refused({"type": "new_game"}) == "not_host"
    for p in players:
        await p.close()
    return players


async def solo_game(base: str, url: str, variant: str, seed: int) -> list[Recorder]:
    """A solo table against the bots: a refused card, the deal played, a new game of another game."""
    solo = post(base, "/api/solo", {"variant": variant, **FAST, "hints": True})
    person = Recorder(url, solo["table"], solo["token"], seed=seed)
    state = await person.connect()
    while state["view"]["to_move"] != state["seat"]:
        state = await person.next_state()
    await person.send({"type": "hint"})  # the search bot's bid, from the person's view
    assert (await person.receive("hint"))["action"] in state["view"]["legal"]
    # The bots wait for the person: a card while bidding is refused, or a bid once the play began.
    view = state["view"]
    wrong = view["hand"][0] if view["phase"] == "bidding" else "pass"
    assert await person.refused({"type": "act", "action": wrong}) in ("bidding_not_over", "bidding_over")
    assert await person.refused({"type": "act", "action": "nothing"}) == "not_an_action"
    await person.play(match_over, timeout=90)
    await person.send({"type": "back"})
    other = "two-handed" if variant != "two-handed" else "classic"
    await person.send({"type": "new_game", "settings": {"variant": other, **FAST}})
    state = await person.receive("state")
    while state["settings"]["variant"] != other:
        state = await person.receive("state")
    await person.close()
    return [person]


async def queue_and_wire(base: str, url: str) -> tuple[list[Recorder], list[Any]]:
    """Two people queue for two hands (seated at once), one for the classic game who leaves the queue;
    and a socket that sends what is no message (each refused, and each refused by the schema too)."""
    a, b, c = (Recorder(url, "") for _ in range(3))
    for p in (a, b, c):
        await p.open()
    await c.send({"type": "queue", "name": "Cleo", "variant": "classic", "seating": "any"})
    assert (await c.receive("queue"))["waiting_by_game"]["classic"] >= 1
    await c.send({"type": "leave_queue"})
    ana, ben = (post(base, "/api/players", {"name": name}) for name in ("Ana", "Ben"))  # with identities
    await a.send({"type": "hello", "player": ana["secret"]})
    await b.send({"type": "hello", "player": ben["secret"]})
    post(base, "/api/me/friends", {"player": ben["player"]["id"]}, ana["secret"])
    post(base, "/api/me/friends", {"player": ana["player"]["id"]}, ben["secret"])
    lobby = post(base, "/api/tables", {"settings": {}}, ana["secret"])
    invitation = {"player": ben["player"]["id"], "table": lobby["table"], "invite": lobby["invite"]}
    post(base, "/api/me/invite", invitation, ana["secret"])
    assert (await b.receive("invited"))["from"]["id"] == ana["player"]["id"]
    await a.send({"type": "queue", "name": "Ana", "variant": "two-handed", "player": ana["secret"]})
    await b.send(
        {"type": "queue", "name": "Ben", "variant": "two-handed", "seating": "partners", "player": ben["secret"]}
    )
    seated = [await a.receive("matched"), await b.receive("matched")]
    for p, matched in zip((a, b), seated, strict=True):
        p.table, p.token = matched["table"], matched["token"]
        await p.send({"type": "join", "table": p.table, "token": p.token, "since": -1})
        assert (await p.receive("state"))["kind"] == "online"
    assert await a.refused({"type": "new_game"}) == "online_one_match"
    # What is no message: each one is refused by the server, and by the client schema.
    not_messages: list[Any] = [
        {"type": "dance"},
        {"type": "act", "action": 12},
        {"type": "react", "reaction": "boo"},
        {"type": "chat", "text": ""},
        {"type": "seat", "seat": "X"},
        {"type": "settings", "settings": {"colour": "red"}},
        {"type": "join", "table": "nope", "token": "t", "watch": "w"},
        {"type": "queue", "name": "Ana", "variant": "five-handed"},
        [1, 2],
        "hello",
    ]
    for raw in not_messages:
        assert c.ws is not None
        await c.ws.send(json.dumps(raw))
        await c.receive("error")
    assert c.ws is not None
    await c.ws.send("{nope")
    assert (await c.receive("error"))["code"] == "not_json"
    assert await c.refused({"type": "act", "action": "JH"}) == "not_joined"
    for p in (a, b, c):
        await p.close()
    return [a, b, c], not_messages


def samples(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first message of each kind: type, and the code of an error; a state's table kind, status,
    game, phase and whether it is a spectator's."""
    first: dict[tuple[Any, ...], dict[str, Any]] = {}
    for m in messages:
        view = m.get("view")
        key = (m["type"], m.get("code"), m.get("kind"), m.get("status"), m.get("seat") is None)
        if view is not None:
            key += (view["rules"]["variant"], view["phase"], view["match_over"])
        first.setdefault(key, m)
    return list(first.values())


def test_every_message_of_scripted_games_validates(served: Server) -> None:
    """All four games over real websockets: every message sent and received is in the schemas."""

    async def games() -> tuple[list[Recorder], list[Any]]:
        players: list[Recorder] = []
        for i, variant in enumerate(VARIANTS):
            players += await private_game(served.base, served.ws_url, variant, seed=10 * i)
            players += await solo_game(served.base, served.ws_url, variant, seed=10 * i + 5)
        queued, not_messages = await queue_and_wire(served.base, served.ws_url)
        return players + queued, not_messages

    players, not_messages = run(games())
    sent = [m for p in players for m in p.sent]
    received = [m for p in players for m in p.messages]
    for msg in sent:
        assert CLIENT.problem(msg) is None, (msg, CLIENT.problem(msg))
    for msg in received:
        assert SERVER.problem(msg, quick=True) is None, (msg, SERVER.problem(msg))
    for msg in samples(received):  # and one of each kind through the reference validator too
        assert SERVER.problem(msg) is None, (msg, SERVER.problem(msg))
    for raw in not_messages:
        assert CLIENT.problem(raw) is not None, raw
    # What the games went through: every message type both ways, the refusals asked for, each game.
    assert {m["type"] for m in sent} == CLIENT_TYPES
    assert {m["type"] for m in received} == SERVER_TYPES
    codes = {m["code"] for m in received if m["type"] == "error"}
    assert {"not_host", "not_started", "seat_taken", "read_only", "not_your_turn"} <= codes
    assert codes & {"bidding_not_over", "bidding_over"}
    assert {"not_an_action", "online_one_match", "unknown_type", "not_json", "bad_message", "not_joined"} <= codes
    states = [m for m in received if m["type"] == "state"]
    assert {m["settings"]["variant"] for m in states if m["view"] is not None} == set(VARIANTS)
    assert {m["kind"] for m in states} == {"solo", "private", "online"}
    assert any(m["seat"] is None and m["view"] is not None for m in states)  # the spectator's
    assert any(m.get("old") for m in received if m["type"] == "chat")
    events = {e["type"] for m in states for _, e in m["events"]}
    assert {"deal", "dealt", "bid", "trump", "card", "trick", "turned-up", "scored", "match-over"} <= events
    assert len(sent) > 100 and len(received) > 400


def _recorded_state() -> dict[str, Any]:
    """A state message of a Coinche table during the play, as the server makes it."""
    match = new_match({**DEFAULT_SETTINGS, "variant": "coinche"}, 7)
    rng = random.Random(7)
    while match.deal.phase != "play" or len(match.deal.plays) < 5:
        match.apply(rng.choice(match.legal_actions()))
    return {
        "type": "state",
        "table": "t1",
        "kind": "solo",
        "status": "playing",
        "seat": "S",
        "host": None,
        "view": match.view_json([2])[2],
        "events": [[n, e] for n, e in match.events()],
        "last": len(match.events()) - 1,
        "gap": False,
        "settings": {**DEFAULT_SETTINGS, "variant": "coinche"},
        "players": {s: {"name": "Léa", "bot": s != "S", "standin": False} for s in SEATS},
        "waiting": None,
        "timer": None,
        "invite": None,
        "watch": "w",
        "hints": {"S": 1},
    }


BROKEN_STATES: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("a key missing", lambda m: m.pop("players")),
    ("a key too many", lambda m: m.__setitem__("hands", {})),
    ("no such seat", lambda m: m.__setitem__("seat", "X")),
    ("a hint count of a seat that is none", lambda m: m["hints"].__setitem__("X", 1)),
    ("a hint count of nothing", lambda m: m["hints"].__setitem__("S", 0)),
    ("no such card in hand", lambda m: m["view"]["hand"].__setitem__(0, "1H")),
    ("a card twice in hand", lambda m: m["view"]["hand"].__setitem__(1, m["view"]["hand"][0])),
    ("another's hand", lambda m: m["view"].__setitem__("hands", {})),
    ("scores by player at four", lambda m: m["view"].__setitem__("score", {"N": 0, "E": 0})),
    ("points won by side at two hands", lambda m: m["view"]["rules"].__setitem__("variant", "two-handed")),
    ("a contract without its bidder", lambda m: m["view"]["contract"].pop("bidder")),
    ("an unknown event", lambda m: m["events"].append([999, {"type": "shuffle"}])),
    ("an event without its seat", lambda m: m["events"][-1][1].pop("seat")),
    ("an unknown setting", lambda m: m["settings"].__setitem__("colour", "red")),
    ("a setting missing", lambda m: m["settings"].pop("turn_timer")),
    ("a rule option out of range", lambda m: m["view"]["rules"].__setitem__("target", 5)),
]


@pytest.mark.parametrize("change", [c for _, c in BROKEN_STATES], ids=[n for n, _ in BROKEN_STATES])
def test_a_broken_state_is_refused(change: Callable[[dict[str, Any]], None]) -> None:
    msg = _recorded_state()
    assert msg["events"][-1][1]["type"] == "card"
    assert SERVER.problem(msg) is None
    change(msg)
    assert SERVER.problem(msg) is not None


BROKEN_OTHERS: list[tuple[str, dict[str, Any]]] = [
    ("an unknown code", {"type": "error", "message": "no", "code": "because", "args": {}}),
    ("args of another code", {"type": "error", "message": "no", "code": "must_follow", "args": {"seat": "N"}}),
    ("an arg missing", {"type": "error", "message": "no", "code": "must_follow", "args": {"suit": "H"}}),
    ("a card that is none", {"type": "error", "message": "no", "code": "not_in_hand", "args": {"card": "ZZ"}}),
    ("no message", {"type": "error", "code": "deal_over", "args": {}}),
    ("chat without a seat", {"type": "chat", "name": "A", "text": "hi", "reaction": None, "at": 1}),
    ("a queue without its counts", {"type": "queue", "variant": "classic", "players": 4, "waiting": 1}),
    ("matched without a token", {"type": "matched", "table": "t", "seat": "N"}),
    ("an unknown type", {"type": "welcome"}),
]


@pytest.mark.parametrize("msg", [m for _, m in BROKEN_OTHERS], ids=[n for n, _ in BROKEN_OTHERS])
def test_a_broken_server_message_is_refused(msg: dict[str, Any]) -> None:
    assert SERVER.problem(msg) is not None


def test_an_error_of_every_code_validates() -> None:
    """The example args of docs/protocol.md's table of refusals, one error message per code."""
    from test_refusal_codes import protocol_examples

    examples = protocol_examples()
    assert set(examples) == set(REFUSALS)
    for code, args in examples.items():
        msg = {"type": "error", "message": "words", "code": code, "args": args}
        assert SERVER.problem(msg) is None, (code, SERVER.problem(msg))


def test_the_legal_actions_are_in_the_schema() -> None:
    """Every action of every game's legal lists, as the view writes it."""
    actions: set[str] = set()
    for variant in VARIANTS:
        for match, _ in _random_match(variant, 3, deals=2):
            actions |= {action_str(a) for a in ([] if match.over else match.legal_actions())}
    action = schema("common", "#/$defs/action")
    assert all(action.problem(a) is None for a in actions)
    assert {"pass", "take", "80H", "capotNT", "coinche", "JH", "TS"} <= actions
    assert action.problem("1H") is not None and action.problem("80X") is not None


# ----------------------------------------------------------------- the HTTP routes
#: Requests made for each operation of the document, in each mode (valid requests, and requests that
#: break the document: the server must refuse those with an answer the document lists).
EXAMPLES = 10
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


#: The route whose first answer of the day makes the day's tournaments: the server then plays their bots'
#: boards (search bots, a core's worth of work for longer than this module runs) in the background.
MAKES_THE_DAILY_TOURNAMENTS = "GET /api/tournaments"


# The requests that break the document first: they make no tournament (that route has nothing to break),
# so that the server does not play the day's boards meanwhile.
@pytest.mark.parametrize("mode", [GenerationMode.NEGATIVE, GenerationMode.POSITIVE], ids=["invalid", "valid"])
def test_the_http_routes_keep_their_schema(served: Server, mode: GenerationMode) -> None:
    """schemathesis over the served OpenAPI document: no server error, every answer in its documented shape."""
    api = schemathesis.openapi.from_url(f"{served.base}/api/openapi.json")
    operations = [result.ok() for result in api.get_all_operations()]
    documented = {f"{method.upper()} {path}" for path, item in schemas.openapi()["paths"].items() for method in item}
    # (schemathesis leaves out the route it read the document from)
    assert {operation.label for operation in operations} == documented - {"GET /api/openapi.json"}
    # In the document's order, but the route that makes the day's tournaments last: the others are
    # answered by a server that is not busy with their bots (and none of them needs the tournaments).
    operations.sort(key=lambda operation: operation.label == MAKES_THE_DAILY_TOURNAMENTS)
    # One session for every request, as schemathesis's own runs: its connections are kept open from one
    # request to the next, and the cookies of an answer are dropped before the next request.
    session = ManagedCookiesSession()

    unbreakable = []
    for operation in operations:
        raw = operation.definition.raw
        if mode is GenerationMode.NEGATIVE and not (raw.get("parameters") or raw.get("requestBody")):
            unbreakable.append(operation.label)  # nothing in the request to break
            continue

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
        def requests(case: Any) -> None:
            case.call_and_validate(session=session, checks=CHECKS)

        try:
            requests()
        except Unsatisfiable:  # no request breaks the document: a path of any text, say
            assert mode is GenerationMode.NEGATIVE, operation.label
            unbreakable.append(operation.label)
        except Exception as e:
            e.add_note(f"in {operation.label}")
            raise
    session.close()
    if mode is GenerationMode.NEGATIVE:
        assert sorted(unbreakable) == [
            "GET /",
            "GET /api/games",
            "GET /api/health",
            "GET /api/me",
            "GET /api/open-tables",
            "GET /api/problems",
            "GET /api/ratings",
            "GET /api/sheets/{sheet_id}",
            "GET /api/tournaments",
            "GET /leaderboard",
            "GET /metrics",
            "GET /problems",
            "GET /review",
            "GET /scores",
            "GET /sw.js",
            "GET /tournaments",
        ]


def test_an_answer_that_breaks_the_schema_is_caught(served: Server) -> None:
    """The same checks on a document that says the health count is text: the real answer is caught."""
    doc = schemas.openapi()
    health = doc["paths"]["/api/health"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    health["properties"]["tables"] = {"type": "string"}
    api = schemathesis.openapi.from_dict(doc)
    operation = api["/api/health"]["GET"]
    case = operation.Case()
    with pytest.raises(FailureGroup) as caught:
        case.call_and_validate(base_url=served.base, checks=CHECKS)
    assert [type(e) for e in caught.value.exceptions] == [JsonSchemaError]
    case.call_and_validate(base_url=served.base, checks=[not_a_server_error, status_code_conformance])
