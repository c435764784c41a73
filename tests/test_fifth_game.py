"""A fifth game, registered here alone, is played by every front end without a file outside this one.

The game recombines facts the four games already have: four players in two partnerships and the
turned card of the classic game, no sequence or four ever declared (the two-handed game's), and an
81-81 deal that never waits (Coinche's). It is registered in ``VARIANTS`` for the test's time only;
the engine, the command line's ``deal`` and ``replay``, the server (a solo table over the websocket,
every message valid against the schemas made by ``belote.schemas.build`` with the game registered)
and the environment's ``api_test`` must then take it as they take the others.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pettingzoo.test import api_test
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from belote import cli
from belote.bots import make_bot
from belote.game import Match
from belote.record import load_deal
from belote.rules import Rules, RulesError
from belote.schemas import build
from belote.variants import VARIANTS, Variant

NAME = "plain"


class Plain(Variant):
    name = NAME
    title = "the plain game"
    has_declarations = False
    carries_pending = False
    take_extra = 10


@pytest.fixture
def plain(monkeypatch: pytest.MonkeyPatch) -> Iterator[Variant]:
    """The fifth game, in the registry while the test runs."""
    game = Plain()
    monkeypatch.setitem(VARIANTS, NAME, game)
    yield game


def test_the_game_is_a_game_only_while_registered() -> None:
    with pytest.raises(RulesError, match="rule option 'variant' must be one of"):
        Rules(variant=NAME)


def test_the_engine_plays_a_match_of_it_to_the_end(plain: Variant) -> None:
    rules = Rules(variant=NAME, target=501)
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
    match = Match(rules, seed=11)
    while not match.over:
        if match.deal.result is not None:
            match.next_deal()
            continue
        match.apply(bots[match.to_move].act(match.view(match.to_move)))
    assert max(match.score) >= 501 and len(match.score) == 2
    for deal in match.deals:
        assert deal.result is not None
        played = [card for trick in deal.tricks for card in trick.cards]
        if deal.result.outcome != "thrown-in":
            assert sorted(played) == list(range(32))  # every card played once
            assert sum(t.points for t in deal.tricks) == 162
        assert deal.result.declarations == (0, 0)  # no sequence or four in this game


def test_the_command_line_deals_it_and_replays_the_record(
    plain: Variant, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["deal", "--seed", "4", "--rules", NAME]) == 0
    printed = capsys.readouterr().out
    record = json.loads(printed)
    assert record["rules"]["variant"] == NAME
    path = tmp_path / "plain.json"
    path.write_text(printed)
    deal, _, error = load_deal(record)
    assert error is None and deal.rules.variant == NAME and deal.result is not None
    assert cli.main(["replay", "--json", str(path)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["valid"] is True
    assert replayed["result"]["points"] == dict(zip(("NS", "EW"), deal.result.points, strict=True))
    assert replayed["declarations"] == {side: {"announced": [], "scored": 0} for side in ("NS", "EW")}


def validators() -> tuple[Draft202012Validator, Draft202012Validator]:
    """The server's and the client's messages as the schemas made now describe them."""
    made = build.build()
    base = "https://belote.invalid/api/schemas/"
    registry: Registry[Any] = Registry().with_resources(
        (f"{base}{name}.json", Resource.from_contents(doc, DRAFT202012)) for name, doc in made.items()
    )

    def of(name: str) -> Draft202012Validator:
        return Draft202012Validator({"$ref": f"{base}{name}.json"}, registry=registry)

    return of("server-message"), of("client-message")


def test_a_solo_table_of_it_is_played_over_the_websocket(plain: Variant, app_client: Callable[..., Any]) -> None:
    server, client_schema = validators()
    # The game is registered in this process alone: the bots think in its threads.
    with app_client(pace=0.0, think_workers=0) as client:
        games = client.get("/api/games").json()["games"]
        assert [g["name"] for g in games][-1] == NAME and games[-1]["declarations"] is False
        solo = client.post("/api/solo", json={"variant": NAME, "deals": 1, "strength": "easy", "speed": "fast"}).json()
        with client.websocket_connect("/ws") as ws:

            def send(message: dict[str, Any]) -> None:
                client_schema.validate(message)
                ws.send_json(message)

            send({"type": "join", "table": solo["table"], "token": solo["token"], "since": -1})
            seen: list[dict[str, Any]] = []
            answered = None
            while True:
                message = ws.receive_json()
                server.validate(message)
                seen.append(message)
                assert message["type"] != "error", message
                if message["type"] != "state":
                    continue
                view = message["view"]
                assert view["rules"]["variant"] == NAME
                if view["match_over"]:
                    break
                position = (view["deal_number"], len(view["bids"]), len(view["tricks"]), len(view["trick"]))
                if message["waiting"] == "continue" and answered != (position, "continue"):
                    answered = (position, "continue")
                    send({"type": "continue"})
                elif view["to_move"] == message["seat"] and view["legal"] and answered != (position, "act"):
                    answered = (position, "act")
                    send({"type": "act", "action": view["legal"][0]})
    final = seen[-1]["view"]
    # One deal: the match's score is that deal's points, whose cards hold all 162. (The score itself may
    # hold less: in a litige this game carries nothing over, and the match ends with the deal.)
    assert set(final["score"]) == {"NS", "EW"} and final["score"] == final["result"]["points"]
    assert sum(final["result"]["cards"].values()) >= 162


def test_the_environment_passes_pettingzoos_api_test(plain: Variant) -> None:
    from belote.env import env
    from test_env import DICT_OBSERVATION_WARNINGS, env_warnings

    with env_warnings() as caught:
        api_test(env(game=NAME, episode="match"), num_cycles=1000)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS
    e = env(game=NAME, episode="deal")
    e.reset(seed=3)
    assert e.unwrapped.rules.variant == NAME and len(e.agents) == 4


def test_the_kept_schemas_do_not_know_it_but_the_made_ones_do(plain: Variant) -> None:
    """The schemas a program fetches are made from the registry: the game is in the made ones."""
    from belote import schemas

    assert NAME not in schemas.load("common")["$defs"]["variant"]["enum"]
    assert NAME in build.build()["common"]["$defs"]["variant"]["enum"]
