"""The score sheet's JSON API (belote.server.sheets), through Starlette's test client."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.server.assets import Assets

pytestmark = pytest.mark.app_config(pace=0.0, think_workers=0)  # no table here: no bot thinks


def create(client: TestClient, **settings: Any) -> dict[str, Any]:
    r = client.post("/api/sheets", json=settings)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def deal(client: TestClient, sheet_id: str, **entry: Any) -> dict[str, Any]:
    r = client.post(f"/api/sheets/{sheet_id}/deals", json=entry)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


WORKED = [
    ({"takers": "NS", "cards": 108, "belote": "NS"}, "made", {"NS": 128, "EW": 54}, {"NS": 338, "EW": 230}),
    ({"takers": "EW", "cards": 74}, "dedans", {"NS": 162, "EW": 0}, {"NS": 500, "EW": 230}),
    ({"takers": "NS", "cards": 90}, "made", {"NS": 90, "EW": 72}, {"NS": 590, "EW": 302}),
]


def test_create_with_the_hosts_settings(client: TestClient) -> None:
    sheet = create(client, target=1000, names={"NS": "Alice & Cara", "EW": "Ben & Dev"}, start={"NS": 210, "EW": 176})
    assert len(sheet["id"]) >= 21  # 16 random bytes, URL-safe
    assert sheet["names"] == {"NS": "Alice & Cara", "EW": "Ben & Dev"}
    assert sheet["rules"]["target"] == 1000 and sheet["rules"]["deals"] is None
    assert sheet["score"] == sheet["start"] == {"NS": 210, "EW": 176}
    assert (sheet["entries"], sheet["over"], sheet["winner"], sheet["pending"]) == ([], False, None, 0)


def test_create_with_nothing_is_a_classic_match(client: TestClient) -> None:
    r = client.post("/api/sheets")
    assert r.status_code == 201
    sheet = r.json()
    assert sheet["rules"]["target"] == 501 and sheet["names"] == {"NS": "NS", "EW": "EW"}
    assert create(client, deals=10)["rules"]["deals"] == 10


def test_ids_are_unguessable_and_distinct(client: TestClient) -> None:
    ids = {create(client)["id"] for _ in range(20)}
    assert len(ids) == 20


def test_get_a_sheet(client: TestClient) -> None:
    sheet = create(client, start={"NS": 210, "EW": 176})
    r = client.get(f"/api/sheets/{sheet['id']}")
    assert r.status_code == 200
    assert r.json() == sheet


def test_the_worked_match_through_the_api(client: TestClient) -> None:
    sheet_id = create(client, names=["Alice & Cara", "Ben & Dev"], start=[210, 176])["id"]
    for n, (entry, outcome, points, score) in enumerate(WORKED, 1):
        sheet = deal(client, sheet_id, **entry)
        last = sheet["entries"][-1]
        assert (last["n"], last["outcome"], last["points"], last["score"]) == (n, outcome, points, score)
        assert sheet["score"] == score
        assert sheet["over"] is (n == 3)
    assert sheet["winner"] == "NS"
    r = client.post(f"/api/sheets/{sheet_id}/deals", json={"takers": "EW", "cards": 100})
    assert r.status_code == 400
    assert r.json()["code"] == "over"
    assert "no entry after the match is over" in r.json()["error"]


def test_undo(client: TestClient) -> None:
    sheet_id = create(client, start=[210, 176])["id"]
    for entry, *_ in WORKED:
        deal(client, sheet_id, **entry)
    r = client.post(f"/api/sheets/{sheet_id}/undo")
    assert r.status_code == 200
    sheet = r.json()
    assert sheet["score"] == {"NS": 500, "EW": 230} and sheet["over"] is False and len(sheet["entries"]) == 2
    client.post(f"/api/sheets/{sheet_id}/undo", json={})
    client.post(f"/api/sheets/{sheet_id}/undo", json={"seen": 1})
    r = client.post(f"/api/sheets/{sheet_id}/undo")
    assert r.status_code == 400 and r.json()["code"] == "empty"
    assert client.get(f"/api/sheets/{sheet_id}").json()["score"] == {"NS": 210, "EW": 176}


def test_capot_without_card_points(client: TestClient) -> None:
    sheet_id = create(client)["id"]
    sheet = deal(client, sheet_id, takers="EW", capot="EW", declarations={"NS": 0, "EW": 50})
    last = sheet["entries"][-1]
    assert (last["outcome"], last["capot"], last["cards"], last["points"]) == (
        "capot",
        "EW",
        {"NS": 0, "EW": 162},
        {"NS": 0, "EW": 302},
    )


def test_litige_shows_the_points_waiting(client: TestClient) -> None:
    sheet_id = create(client)["id"]
    sheet = deal(client, sheet_id, takers="NS", cards=81)
    assert sheet["entries"][-1]["outcome"] == "litige" and sheet["pending"] == 81
    sheet = deal(client, sheet_id, takers="NS", cards=100)
    assert sheet["pending"] == 0 and sheet["score"] == {"NS": 181, "EW": 143}


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"takers": "NS", "cards": 170}, "cards", "card points must be 0 to 162"),
        ({"cards": 100}, "takers-missing", "say who took"),
        ({"takers": "NS"}, "cards-missing", "card points are missing"),
        ({"takers": "NS", "cards": 100, "declarations": {"NS": 20, "EW": 50}}, "declarations-both", "both count"),
        ({"takers": "NS", "cards": 100, "declarations": {"NS": 15}}, "declarations", "multiples of 10"),
        ({"takers": "NS", "cards": 120, "capot": "NS"}, "capot-cards", "162, not 120"),
        ({"takers": "NS", "cards": 100, "trump": "H"}, "format", "unknown field 'trump'"),
        ([1, 2, 3], "json", "JSON object"),
    ],
)
def test_a_refused_deal_answers_400_with_a_reason_and_changes_nothing(
    client: TestClient, body: object, code: str, words: str
) -> None:
    sheet_id = create(client, start=[210, 176])["id"]
    before = deal(client, sheet_id, takers="NS", cards=108, belote="NS")
    r = client.post(f"/api/sheets/{sheet_id}/deals", json=body)
    assert r.status_code == 400
    assert r.json()["code"] == code and words in r.json()["error"]
    assert client.get(f"/api/sheets/{sheet_id}").json() == before


def test_a_body_that_is_not_json(client: TestClient) -> None:
    sheet_id = create(client)["id"]
    r = client.post(f"/api/sheets/{sheet_id}/deals", content=b"takers=NS&cards=100")
    assert r.status_code == 415 and r.json() == {"error": "a request is sent as application/json", "code": "json"}
    r = client.post(f"/api/sheets/{sheet_id}/deals", content=b"takers=NS", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json() == {"error": "the message is not JSON", "code": "json"}
    r = client.post(f"/api/sheets/{sheet_id}/deals", content=b"x" * 20_000)
    assert r.status_code == 413
    assert client.get(f"/api/sheets/{sheet_id}").json()["entries"] == []


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"target": 0}, "rules"),
        ({"deals": "ten"}, "rules"),
        ({"names": ["Us", "US"]}, "names"),
        ({"start": {"NS": 600}}, "start-over"),
        ({"start": [-1, 0]}, "start"),
        ({"colour": "red"}, "format"),
    ],
)
def test_a_refused_sheet(client: TestClient, settings: dict[str, Any], code: str) -> None:
    r = client.post("/api/sheets", json=settings)
    assert r.status_code == 400 and r.json()["code"] == code and r.json()["error"]


def test_a_stale_client_changes_nothing_and_gets_the_sheet(client: TestClient) -> None:
    sheet_id = create(client)["id"]
    deal(client, sheet_id, takers="NS", cards=100, seen=0)
    # A second tap on "add" with the same entry, from a page that still shows no deal:
    r = client.post(f"/api/sheets/{sheet_id}/deals", json={"takers": "NS", "cards": 100, "seen": 0})
    assert r.status_code == 409 and r.json()["code"] == "stale"
    assert len(r.json()["sheet"]["entries"]) == 1
    r = client.post(f"/api/sheets/{sheet_id}/undo", json={"seen": 0})
    assert r.status_code == 409
    assert len(client.get(f"/api/sheets/{sheet_id}").json()["entries"]) == 1


def test_rename(client: TestClient) -> None:
    sheet_id = create(client)["id"]
    r = client.post(f"/api/sheets/{sheet_id}/names", json={"names": {"NS": "Nous", "EW": "Eux"}})
    assert r.status_code == 200 and r.json()["names"] == {"NS": "Nous", "EW": "Eux"}
    r = client.post(f"/api/sheets/{sheet_id}/names", json={"names": ["A", "a"]})
    assert r.status_code == 400 and r.json()["code"] == "names"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/sheets/nope"),
        ("POST", "/api/sheets/nope/deals"),
        ("POST", "/api/sheets/nope/undo"),
        ("POST", "/api/sheets/nope/names"),
    ],
)
def test_an_unknown_sheet_is_404(client: TestClient, method: str, path: str) -> None:
    r = client.request(method, path, json={"takers": "NS", "cards": 100} if path.endswith("deals") else None)
    assert r.status_code == 404
    assert r.json() == {"error": "no score sheet with that id", "code": "not-found"}


def test_the_page_is_served(client: TestClient) -> None:
    r = client.get("/scores")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    build = Assets().build().hash  # the page's files are named by their build (server/assets.py)
    assert f'<script type="module" src="/static/{build}/scores.js">' in r.text
    assert client.get(f"/static/{build}/scores.js").status_code == 200


def test_sheets_persist_across_a_new_store_on_the_same_file(app_client: Callable[..., TestClient]) -> None:
    with app_client(pace=0.0, think_workers=0) as first:
        sheet_id = create(first, names=["Alice & Cara", "Ben & Dev"], start=[210, 176])["id"]
        for entry, *_ in WORKED[:2]:
            deal(first, sheet_id, **entry)
        first.app.state.store.close()  # type: ignore[attr-defined]
    with app_client(pace=0.0, think_workers=0) as second:
        sheet = second.get(f"/api/sheets/{sheet_id}").json()
        assert sheet["score"] == {"NS": 500, "EW": 230} and sheet["names"]["NS"] == "Alice & Cara"
        sheet = deal(second, sheet_id, **WORKED[2][0])
        assert sheet["over"] and sheet["winner"] == "NS"
        assert sheet_id in second.app.state.store.sheet_ids()  # type: ignore[attr-defined]
        second.app.state.store.close()  # type: ignore[attr-defined]


# --- the other games ------------------------------------------------------------------------------------


def test_a_coinche_sheet_through_the_api(client: TestClient) -> None:
    sheet = create(client, variant="coinche", surcoinche=3, target=1000, names={"NS": "Nous", "EW": "Eux"})
    assert (sheet["variant"], sheet["teams"], sheet["rules"]["surcoinche"]) == ("coinche", ["NS", "EW"], 3)
    sheet_id = sheet["id"]
    # 110 hearts by N-S, coinched and made with 113 and belote: (160 + 110) x 2 + 20.
    sheet = deal(
        client, sheet_id, bidder="NS", level="110", mode="H", coinche="coinche", cards=113, belote="NS", seen=0
    )
    last = sheet["entries"][-1]
    assert (last["contract"], last["multiplier"], last["outcome"]) == ("110H", 2, "made")
    assert last["points"] == {"NS": 560, "EW": 0} and sheet["score"] == {"NS": 560, "EW": 0}
    # 90 no-trumps by E-W, surcoinched (x3 at this table) and failed: (160 + 90) x 3 to N-S.
    sheet = deal(client, sheet_id, bidder="EW", level=90, mode="NT", coinche="surcoinche", cards=70)
    assert sheet["entries"][-1]["points"] == {"NS": 750, "EW": 0} and sheet["over"] is True
    r = client.post(f"/api/sheets/{sheet_id}/undo")
    assert r.json()["score"] == {"NS": 560, "EW": 0}


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"bidder": "NS", "level": 170, "mode": "H", "cards": 100}, "contract-level", "bids go from 80 to 160"),
        ({"bidder": "NS", "level": 110, "mode": "NT", "cards": 100, "belote": "NS"}, "belote-mode", "no belote"),
        ({"level": 110, "mode": "H", "cards": 100}, "bidder-missing", "say who bid"),
        ({"bidder": "NS", "mode": "H", "cards": 100}, "contract-missing", "say the contract"),
        ({"takers": "NS", "cards": 100}, "format", "unknown field 'takers'"),
    ],
)
def test_a_refused_coinche_deal(client: TestClient, body: dict[str, Any], code: str, words: str) -> None:
    sheet_id = create(client, variant="coinche")["id"]
    r = client.post(f"/api/sheets/{sheet_id}/deals", json=body)
    assert r.status_code == 400 and r.json()["code"] == code and words in r.json()["error"]
    assert client.get(f"/api/sheets/{sheet_id}").json()["entries"] == []


def test_a_three_handed_sheet_through_the_api(client: TestClient) -> None:
    sheet = create(client, variant="three-handed", names=["Ann", "Bob", "Cy"], start={"N": 10, "E": 20, "S": 30})
    assert sheet["teams"] == ["N", "E", "S"] and sheet["score"] == {"N": 10, "E": 20, "S": 30}
    assert sheet["next_dealer"] == "N"
    sheet_id = sheet["id"]
    sheet = deal(client, sheet_id, taker="N", dealer="S", cards={"N": 70, "E": 30, "S": 25})
    assert sheet["entries"][-1]["points"] == {"N": 70, "E": 30, "S": 25} and sheet["next_dealer"] == "N"
    sheet = deal(client, sheet_id, taker="E", dealer="N", cards=[50, 40, 35])
    assert sheet["entries"][-1]["outcome"] == "dedans"
    assert sheet["score"] == {"N": 142, "E": 50, "S": 118} and sheet["next_dealer"] == "E"
    r = client.post(f"/api/sheets/{sheet_id}/deals", json={"taker": "E", "dealer": "N", "cards": [10, 20, 30]})
    assert r.status_code == 400 and r.json()["code"] == "cards-total"
    r = client.post(f"/api/sheets/{sheet_id}/names", json={"names": {"N": "Ann", "E": "Bob", "S": "Cyd"}})
    assert r.json()["names"] == {"N": "Ann", "E": "Bob", "S": "Cyd"}


def test_a_two_handed_sheet_through_the_api(client: TestClient) -> None:
    sheet_id = create(client, variant="two-handed", names={"N": "Alice", "E": "Ben"})["id"]
    sheet = deal(client, sheet_id, takers="N", cards=100, belote="N")
    assert sheet["score"] == {"N": 120, "E": 62} and sheet["entries"][-1]["cards"] == {"N": 100, "E": 62}
    r = client.post(f"/api/sheets/{sheet_id}/deals", json={"takers": "E", "cards": 90, "declarations": {"E": 20}})
    assert r.status_code == 400 and r.json()["code"] == "sans"


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"variant": "bridge"}, "'variant' must be one of"),
        ({"surcoinche": 3}, "not one of a classic score sheet"),
        ({"variant": "three-handed", "names": ["A", "B"]}, "3 values"),
        ({"variant": "coinche", "coinche_max_bid": 170}, "'coinche_max_bid' must be one of 160, 180"),
    ],
)
def test_a_refused_sheet_of_another_game(client: TestClient, settings: dict[str, Any], words: str) -> None:
    r = client.post("/api/sheets", json=settings)
    assert r.status_code == 400 and words in r.json()["error"]
