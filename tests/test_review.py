"""``POST /api/analyse`` and the ``/review`` page's route: a finished deal's analysis, and every refusal
of a hostile network (a deal in progress, malformed, oversize, wrong types, too many at once)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import schemacheck
from belote.analysis import analyse
from belote.bots.heuristic import HeuristicBot
from belote.game import Deal
from belote.record import to_record
from belote.rules import Rules
from belote.server.review import MAX_BODY

URL = "/api/analyse"


def played(variant: str, seed: int, until: int | None = None) -> dict[str, Any]:
    """The record of a deal of ``variant`` from ``seed`` bid and played by the heuristic bot (to its end,
    or to ``until`` cards played)."""
    deal = Deal.from_seed(seed, Rules(variant=variant))
    bot = HeuristicBot()
    while deal.phase != "done" and (until is None or len(deal.plays) < until):
        deal.apply(bot.act(deal.view(deal.to_move)))
    return to_record(deal)


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    """A three-handed deal played to its end (its analysis takes a fraction of a second)."""
    for seed in range(20):
        record = played("three-handed", seed)
        if record["plays"]:
            return record
    raise AssertionError("no three-handed deal was taken in 20 seeds")


pytestmark = pytest.mark.app_config(pace=0.0, think_workers=0)


@pytest.fixture
def app(client: TestClient) -> Any:
    return client.app


def refused(answer: Any, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["code"] == code and isinstance(body["error"], str), body
    assert schemacheck.validator("common", "#/$defs/httpRefusal").is_valid(body)


def test_a_finished_deal_is_answered_with_its_analysis(client: TestClient, finished: dict[str, Any], app: Any) -> None:
    answer = client.post(URL, json=finished)
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    out = answer.json()
    assert out == analyse(finished)  # what `belote analyse --json` prints, with the bot's view
    assert out["complete"] is True and len(out["plays"]) == len(finished["plays"]) > 0
    assert all(p["view"] is not None for p in out["plays"])
    assert schemacheck.validator("analysis").is_valid(out)
    # The same deal again (another spelling of it: lower case) is the kept answer: no second analysis.
    again = client.post(URL, json={**finished, "deck": [c.lower() for c in finished["deck"]]})
    assert again.json() == out and len(app.state.analyses.cache) == 1
    assert client.get("/review").status_code == 200 and "review.js" in client.get("/review").text


def test_a_deal_in_progress_is_refused(client: TestClient) -> None:
    refused(client.post(URL, json=played("classic", 4, until=9)), 409, "deal_not_over")
    fresh = to_record(Deal.from_seed(4))
    refused(client.post(URL, json=fresh), 409, "deal_not_over")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ([], "not_a_record"),
        ("deal", "not_a_record"),
        (None, "not_a_record"),
        ({}, "not_a_record"),
        ({"format": "belote-deal/1", "dealer": "N", "deck": "everything", "bids": [], "plays": []}, "not_a_record"),
        ({"format": "belote-deal/1", "dealer": 3, "deck": [], "bids": [], "plays": []}, "not_a_record"),
        ({"format": "belote-deal/1", "dealer": "N", "deck": [1] * 32, "bids": {}, "plays": 7}, "not_a_record"),
    ],
    ids=["list", "text", "null", "empty", "deck-text", "dealer-number", "wrong-types"],
)
def test_what_is_not_a_record_is_refused_with_a_code(client: TestClient, body: Any, code: str) -> None:
    refused(client.post(URL, json=body), 400, code)


def test_malformed_oversize_and_illegal_bodies_are_refused(client: TestClient, finished: dict[str, Any]) -> None:
    refused(client.post(URL, content=b"{not json", headers={"content-type": "application/json"}), 400, "not_json")
    refused(client.post(URL, content=b"", headers={"content-type": "application/json"}), 400, "not_a_record")
    big = {**finished, "pad": "x" * MAX_BODY}
    refused(client.post(URL, json=big), 413, "too_long")
    refused(client.post(URL, content=json.dumps(finished), headers={"content-type": "text/plain"}), 415, "json_only")
    foreign = {"origin": "https://elsewhere.example"}
    refused(client.post(URL, json=finished, headers=foreign), 403, "bad_origin")
    unknown = {**finished, "extra": 1}
    refused(client.post(URL, json=unknown), 400, "not_a_record")
    wrong = {**finished, "plays": list(reversed(finished["plays"]))}  # the last card led first: not legal
    refused(client.post(URL, json=wrong), 400, "illegal_record")
    deep: Any = finished
    for _ in range(10):
        deep = {"rules": deep}
    refused(client.post(URL, json=deep), 400, "too_deep")
    assert client.get("/metrics").text.count('code="not_a_record"') == 1


def test_one_analysis_at_a_time_per_address_and_a_cap_in_all(
    app: Any, client: TestClient, finished: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """While an analysis thinks, the same address is refused (429) and another one finds the cap
    reached (503, a server of no worker processes analyses one deal at a time): nothing queues."""
    thinker = app.state.tables.config.thinker
    started, release = threading.Event(), threading.Event()
    real = thinker.analyse

    async def held(record: dict[str, Any], owner: str) -> dict[str, Any]:
        started.set()
        import asyncio

        await asyncio.to_thread(release.wait)
        answer: dict[str, Any] = await real(record, owner)
        return answer

    monkeypatch.setattr(thinker, "analyse", held)
    first: list[Any] = []
    worker = threading.Thread(target=lambda: first.append(client.post(URL, json=finished)))
    worker.start()
    try:
        assert started.wait(30)
        other = played("three-handed", 7) if finished != played("three-handed", 7) else played("three-handed", 8)
        busy = client.post(URL, json=other)
        refused(busy, 429, "analysis_running")
        assert busy.headers["retry-after"] == "3"
        elsewhere = TestClient(app, client=("203.0.113.9", 4000))
        full = elsewhere.post(URL, json=other)
        refused(full, 503, "analyses_busy")
        assert full.json()["args"] == {"max": 1}
    finally:
        release.set()
        worker.join(60)
    assert first[0].status_code == 200 and first[0].json()["plays"]
    assert app.state.analyses.running == {}


def test_an_analysis_in_a_worker_process_is_the_same(finished: dict[str, Any]) -> None:
    """In the bots' pool (a process of its own) the analysis is the one made here."""
    from belote.server.thinking import Thinker
    from netplay import run

    async def main() -> dict[str, Any]:
        thinker = Thinker(1)
        try:
            return await thinker.analyse(finished)
        finally:
            await thinker.close()

    assert run(main()) == analyse(finished)


def test_a_worker_that_dies_twice_answers_503_and_the_server_lives_on(
    app: Any, client: TestClient, finished: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record whose analysis kills its worker each time is not run in the server's own process."""
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    class Broken:
        submitted = 0

        def submit(self, *args: Any) -> Future[Any]:
            Broken.submitted += 1
            future: Future[Any] = Future()
            future.set_exception(BrokenProcessPool("a worker died"))
            return future

        def shutdown(self, *args: Any, **kwargs: Any) -> None:
            pass

    thinker = app.state.tables.config.thinker
    monkeypatch.setattr(thinker, "_pool", Broken())
    monkeypatch.setattr(thinker, "_new_pool", Broken)
    refused(client.post(URL, json=finished), 503, "server_error")
    assert Broken.submitted == 2 and app.state.analyses.running == {}
    assert client.get("/api/health").json()["ok"] is True


def test_a_record_with_any_key_of_a_wrong_value_is_refused_with_a_code(client: TestClient) -> None:
    """A real record with one key (or one rule) given a value of another type: never a server error,
    and every refusal one of the record's codes."""
    import random

    record = json.loads((Path(__file__).parent / "vectors" / "three_made.json").read_text())
    values: list[Any] = [None, True, 5, -1, 1e308, "x", "", [], {}, [1, 2], {"a": 1}, "JH", ["JH"] * 40, "N"]
    rng = random.Random(1)
    seen: set[tuple[int, str | None]] = set()
    for _ in range(80):
        changed = json.loads(json.dumps(record))
        key = rng.choice([*changed, "score_before", "pending"])
        if key == "rules" and rng.random() < 0.5:
            changed["rules"][rng.choice(["variant", "declarations", "belote", "unknown", "target"])] = rng.choice(
                values
            )
        else:
            changed[key] = rng.choice(values)
        answer = client.post(URL, json=changed)
        code = None if answer.status_code == 200 else answer.json()["code"]
        assert (answer.status_code, code) in {
            (200, None),
            (400, "not_a_record"),
            (400, "illegal_record"),
            (409, "deal_not_over"),
        }, (key, changed[key], answer.text)
        seen.add((answer.status_code, code))
    assert {(400, "not_a_record"), (409, "deal_not_over")} <= seen
