"""The training problems over HTTP: the set shipped in the package, a position shown as its player
sees it, an answer judged with the whole analysis, and bad requests refused with their codes."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from belote.bots.heuristic import HeuristicBot
from belote.cards import CARDS
from belote.problems import FORMAT
from belote.server.problems import problem_set
from belote.variants import VARIANTS
from belote.view import PlayerView
from schemacheck import validator

PROBLEM = validator("problem")


pytestmark = pytest.mark.app_config(think_workers=0)  # the routes of the problems start no bot: no worker


def test_the_package_ships_problems_of_every_game() -> None:
    problems = problem_set()
    games = Counter(p["game"] for p in problems.values())
    assert games["classic"] >= 40 and set(games) == {"classic", "coinche", "three-handed", "two-handed"}
    for p in problems.values():
        assert p["format"] == FORMAT, p["id"]
        PROBLEM.validate(p)
        assert p["answer"] in p["view"]["legal"] and p["cards"][p["answer"]]["cost"] == 0
        assert min(c["cost"] for k, c in p["cards"].items() if k != p["answer"]) >= 20


def test_no_shipped_problem_is_trivial() -> None:
    """Every problem shipped is worth solving: at least three tricks left to play (not the last two
    cards, where the master trump plays itself), more than one legal card, the best card ahead of
    every other by 20 points or more, and a player by rules of thumb (the heuristic bot, from the
    seat's view) playing another card."""
    problems = problem_set()
    assert len(problems) == 102
    for pid, p in problems.items():
        view = p["view"]
        tricks_left = VARIANTS[p["game"]].tricks - len(view["tricks"])
        assert tricks_left >= 3, f"{pid}: {tricks_left} tricks left"
        assert len(view["legal"]) >= 2 and set(p["cards"]) == set(view["legal"]), pid
        best = p["cards"][p["answer"]]["value"]
        assert all(best - c["value"] >= 20 for k, c in p["cards"].items() if k != p["answer"]), pid
        reflex = str(CARDS[HeuristicBot().act(PlayerView.from_json(view))])
        assert reflex != p["answer"], f"{pid}: a rule of thumb plays {reflex}, the answer"


def test_the_list_and_a_position_show_nothing_of_the_answer(client: TestClient) -> None:
    listed = client.get("/api/problems").json()["problems"]
    assert [p["id"] for p in listed] == list(problem_set())
    first = listed[0]
    shown = client.get(f"/api/problems/{first['id']}").json()
    problem = problem_set()[first["id"]]
    assert shown == {"id": problem["id"], "game": problem["game"], "seat": problem["seat"], "view": problem["view"]}


def test_an_answer_right_and_an_answer_wrong(client: TestClient) -> None:
    pid, problem = next(iter(problem_set().items()))
    wrong = next(c for c in problem["view"]["legal"] if c != problem["answer"])
    right = client.post(f"/api/problems/{pid}", json={"card": problem["answer"]}).json()
    assert right["right"] is True and right["card"] == right["answer"] == problem["answer"]
    answered = client.post(f"/api/problems/{pid}", json={"card": wrong.lower()}).json()
    assert answered["right"] is False and answered["card"] == wrong and answered["answer"] == problem["answer"]
    assert answered["cards"] == problem["cards"] and answered["deal"] == problem["deal"]
    assert answered["cards"][wrong]["cost"] >= 20 and answered["index"] == len(problem["deal"]["plays"])


def test_bad_requests_are_refused_with_codes(client: TestClient) -> None:
    pid, problem = next(iter(problem_set().items()))
    held = set(problem["view"]["hand"]) - set(problem["view"]["legal"])
    outside = next(c for c in ("7S", "8S", "9S", "TS", "7H", "8H") if c not in problem["view"]["hand"])
    cases = [
        ("GET", "/api/problems/classic-0-0", None, 404, "no_such_problem"),
        ("POST", "/api/problems/nothing", {"card": "JH"}, 404, "no_such_problem"),
        ("POST", f"/api/problems/{pid}", {"card": outside}, 400, "not_a_legal_card"),
        ("POST", f"/api/problems/{pid}", {"card": 7}, 400, "not_a_legal_card"),
        ("POST", f"/api/problems/{pid}", {}, 400, "not_a_legal_card"),
        ("POST", f"/api/problems/{pid}", ["JH"], 400, "bad_request"),
    ]
    if held:  # a card in the hand that the rules do not allow here
        cases.append(("POST", f"/api/problems/{pid}", {"card": sorted(held)[0]}, 400, "not_a_legal_card"))
    for method, url, body, status, code in cases:
        r = client.request(method, url, json=body) if body is not None else client.request(method, url)
        assert (r.status_code, r.json()["code"]) == (status, code), (url, body, r.text)
    refused = client.post(f"/api/problems/{pid}", json={"card": outside}).json()
    assert refused["args"] == {"card": outside, "cards": problem["view"]["legal"]}
    broken = client.post(f"/api/problems/{pid}", content=b"{not json", headers={"content-type": "application/json"})
    assert broken.status_code == 400 and broken.json()["code"] == "not_json"
    assert client.get("/problems").status_code == 200


def test_the_problems_file_is_package_data() -> None:
    pyproject = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    assert '"data/*.jsonl"' in pyproject
