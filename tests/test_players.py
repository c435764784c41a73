"""Players who come back (docs/players.md): identities, ratings moved as the rating library says and
only between people, statistics from the finished matches, profiles, leaderboards, friends and
blocks, transfer codes used once, passwords, and a deletion that leaves no personal datum."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from starlette.testclient import TestClient

import schemacheck
from belote.record import match_records, replay
from belote.server import ratings
from belote.server.hub import local_hub
from belote.server.manager import TableManager
from belote.server.matchmaking import Matchmaker
from belote.server.player_stats import match_counters
from belote.server.player_store import SQLitePlayers
from belote.server.players import Players, handle
from belote.server.room import Act, Resume, Start, check_settings
from belote.server.store import SQLiteStore
from belote.server.tables import Client, ServerConfig, Table
from netplay import receive, run, until

MODEL = PlackettLuce()


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def play_out(table: Table) -> None:
    """Every seat plays a legal action drawn from the table's seed until the match ends (bots
    included: nobody drives the table here)."""
    rng = random.Random(table.meta.seed)

    async def go() -> None:
        while table.match is not None and not table.match.over:
            if table.room.waiting_continue:  # a deal thrown in: its score is read
                await table.mutate(Resume(None))
                continue
            seat = table.match.to_move
            assert seat is not None
            await table.mutate(Act(seat, rng.choice(table.match.legal_actions())))

    run(go())


class World:
    """A manager on a SQLite file with its players, driven by hand (no bots think: the test plays)."""

    def __init__(self, path: Path, clock: Callable[[], float] | None = None) -> None:
        self.store = SQLiteStore(path)
        self.players = Players(SQLitePlayers(self.store), clock or (lambda: 1_764_892_800.0))
        self.manager = TableManager(local_hub(self.store), ServerConfig(pace=0.0, turn_timer=600))
        self.manager.players = self.players

    def person(self, name: str) -> dict[str, Any]:
        player, _ = run(self.players.create(name))
        return player

    def table(self, people: dict[int, dict[str, Any]], **settings: Any) -> Table:
        """A private table (``rated`` unless said) with ``people`` by seat, started (bots in the others)."""
        chosen = check_settings({"deals": 1, "strength": "easy", **settings}, self.manager.defaults())

        async def make() -> Table:
            (host_seat, host), *guests = people.items()
            table, _ = await self.manager.create_private(host["name"], host_seat, chosen, host["id"])
            for seat, guest in guests:
                await self.manager.sit(table.id, table.meta.invite, guest["name"], "NESW"[seat], guest["id"])
            await table.mutate(Start(host_seat))
            return table

        return run(make())

    def profile(self, player: dict[str, Any]) -> dict[str, Any]:
        return run(self.players.profile(player))

    def close(self) -> None:
        run(self.manager.close())
        self.store.close()


@pytest.fixture
def world(tmp_path: Path) -> Any:
    w = World(tmp_path / "players.sqlite3")
    yield w
    w.close()


def expected(teams: list[list[Any]], ranks: list[int]) -> list[list[Any]]:
    return MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in t] for t in teams], ranks=ranks)


# ----------------------------------------------------------------- ratings
def test_a_rated_match_between_four_people_moves_each_rating_as_the_library_says(world: World) -> None:
    n, e, s, w = (world.person(x) for x in ("Nina", "Emil", "Sam", "Wes"))
    table = world.table({2: s, 0: n, 1: e, 3: w}, rated=True)
    play_out(table)
    match = table.match
    assert match is not None and match.over and match.winner in (0, 1)
    ranks = [1, 2] if match.winner == 0 else [2, 1]
    new = expected([[ratings.Rating(), ratings.Rating()], [ratings.Rating(), ratings.Rating()]], ranks)
    for player, side, i in ((n, 0, 0), (s, 0, 1), (e, 1, 0), (w, 1, 1)):
        held = run(world.players.store.ratings(player["id"]))["classic"]
        assert held["mu"] == pytest.approx(new[side][i].mu) and held["sigma"] == pytest.approx(new[side][i].sigma)
        assert held["matches"] == 1
        assert held["rating"] == ratings.shown(ratings.Rating(new[side][i].mu, new[side][i].sigma))
        won = match.winner == side
        assert (held["mu"] > 25.0) is won  # the winners go up, the losers down
        profile = world.profile(player)
        assert profile["ratings"]["classic"] == {"rating": held["rating"], "matches": 1, "provisional": True}
        (recent,) = profile["recent"]
        assert recent["rated"] and recent["changes"][player["id"]] == {"before": 1000, "after": held["rating"]}
        assert profile["history"]["classic"] == [{"at": 1_764_892_800.0, "rating": held["rating"]}]
        assert profile["stats"]["classic"]["matches"] == 1 and profile["stats"]["classic"]["won"] == int(won)


def test_a_match_of_two_people_against_each_other_and_bots_rates_the_bots_at_their_fixed_strength(
    world: World,
) -> None:
    s, e = world.person("Sam"), world.person("Emil")
    table = world.table({2: s, 1: e}, rated=True, strength="normal")
    play_out(table)
    assert table.match is not None
    ranks = [1, 2] if table.match.winner == 0 else [2, 1]
    bot = ratings.BOT_RATINGS["normal"]
    new = expected([[bot, ratings.Rating()], [ratings.Rating(), bot]], ranks)  # N S | E W
    assert run(world.players.store.ratings(s["id"]))["classic"]["mu"] == pytest.approx(new[0][1].mu)
    assert run(world.players.store.ratings(e["id"]))["classic"]["mu"] == pytest.approx(new[1][0].mu)


@pytest.mark.parametrize(
    ("people", "settings"),
    [
        ((2, 0), {"rated": True}),  # partners against two bots: bots alone on the other side
        ((2, 1), {"rated": False}),  # a private table its host did not mark rated
    ],
)
def test_a_match_that_does_not_count_moves_no_rating_but_is_kept(
    world: World, people: tuple[int, int], settings: dict[str, Any]
) -> None:
    a, b = world.person("Ana"), world.person("Ben")
    table = world.table({people[0]: a, people[1]: b}, **settings)
    play_out(table)
    for p in (a, b):
        profile = world.profile(p)
        assert profile["ratings"] == {}
        assert [m["rated"] for m in profile["recent"]] == [False]
        assert profile["stats"]["classic"]["matches"] == 1


def test_a_solo_match_moves_nothing(world: World) -> None:
    a = world.person("Ana")
    settings = check_settings({"deals": 1, "strength": "easy"}, world.manager.defaults())
    table, _, seat = run(world.manager.create_solo(settings, a["name"], a["id"]))
    play_out(table)
    profile = world.profile(a)
    assert profile["ratings"] == {} and profile["stats"]["classic"]["matches"] == 1
    assert table.match is not None
    assert profile["stats"]["classic"]["deals"] == match_counters(table.match, seat)["deals"]


def test_a_three_handed_match_rates_each_for_themselves(world: World) -> None:
    n, e, s = world.person("Nina"), world.person("Emil"), world.person("Sam")
    table = world.table({2: s, 0: n, 1: e}, rated=True, variant="three-handed")
    play_out(table)
    match = table.match
    assert match is not None
    ranks = ratings.ranks_of(list(match.score), match.winner)
    new = expected([[ratings.Rating()]] * 3, ranks)
    for seat, p in ((0, n), (1, e), (2, s)):
        assert run(world.players.store.ratings(p["id"]))["three-handed"]["mu"] == pytest.approx(new[seat][0].mu)


def test_a_finished_match_is_kept_once(world: World) -> None:
    a, b = world.person("Ana"), world.person("Ben")
    table = world.table({2: a, 1: b}, rated=True)
    play_out(table)
    assert table.match is not None
    before = run(world.players.store.ratings(a["id"]))
    assert run(world.players.finish(table.id, table.meta, table.match)) is None  # a second time: nothing
    assert run(world.players.store.ratings(a["id"])) == before
    assert len(world.profile(a)["recent"]) == 1


def test_a_page_told_that_the_match_is_over_finds_it_kept(world: World) -> None:
    """The results are kept before the match's last state is sent: a page that shows the match over
    and opens its profile (or the leaderboard) at once finds the match and the rating it moved."""
    a, b = world.person("Ana"), world.person("Ben")
    table = world.table({2: a, 1: b}, rated=True)
    kept_when_told: list[int] = []

    async def page(text: dict[str, Any] | str) -> None:
        msg = json.loads(text) if isinstance(text, str) else text
        if msg.get("view") and msg["view"]["match_over"]:
            kept_when_told.append(len((await world.players.profile(a))["recent"]))

    table.clients.append(Client(seat=2, send=page))
    play_out(table)
    assert kept_when_told == [1]


def test_a_finished_match_keeps_its_deals_for_its_review_after_its_table_is_gone(world: World) -> None:
    a, b = world.person("Ana"), world.person("Ben")
    table = world.table({2: a, 1: b}, rated=True, deals=2)
    play_out(table)
    assert table.match is not None and table.match.over
    (kept,) = world.profile(a)["recent"]
    lines = run(world.players.store.match_records(kept["id"]))
    assert lines is not None
    records = [json.loads(line) for line in lines.splitlines()]
    assert records == match_records(table.match) and kept["deals"] == len(records) == 2
    assert all(replay(r)["valid"] for r in records)  # as ``belote replay`` reads them
    assert run(world.players.store.match(kept["id"])) == kept


def test_a_kept_match_and_its_records_are_public_by_its_id(http: TestClient) -> None:
    a, _ = new_player(http, "Ana")
    store = http.app.state.players.store  # type: ignore[attr-defined]
    sides = [[{"seat": "N", "name": "Ana", "player": a["id"], "bot": None}],
             [{"seat": "E", "name": "Bot", "player": None, "bot": "easy"}]]  # fmt: skip
    match = {"id": "T1:0", "game": "classic", "table": "T1", "finished": 5.0, "rated": False,
             "score": [501, 320], "winner": 0, "deals": 1, "sides": sides}  # fmt: skip
    assert run(store.finish_match(match, {}, {}, 5.0, '{"deal": 1}\n'))
    assert http.get("/api/matches/T1:0").json() == match
    r = http.get("/api/matches/T1%3A0/records")
    assert r.status_code == 200 and r.text == '{"deal": 1}\n'
    assert r.headers["content-type"].startswith("application/x-ndjson")
    for path in ("/api/matches/T2:0", "/api/matches/T2:0/records"):
        r = http.get(path)
        assert r.status_code == 404 and r.json()["code"] == "no_such_match"


def test_the_leaderboard_orders_by_rating_and_the_week_by_rating_won(world: World) -> None:
    a, b = world.person("Ana"), world.person("Ben")
    table = world.table({2: a, 1: b}, rated=True)
    play_out(table)
    assert table.match is not None
    winner, loser = (a, b) if table.match.winner == 0 else (b, a)
    board = run(world.players.store.leaderboard("classic", None, 10))
    assert [r["player"] for r in board] == [winner["id"], loser["id"]]
    week = run(world.players.store.leaderboard("classic", 1_764_547_200.0, 10))
    assert [r["player"] for r in week] == [winner["id"], loser["id"]]
    assert week[0]["gained"] > 0 > week[1]["gained"]
    assert run(world.players.store.leaderboard("classic", 1_764_892_801.0, 10)) == []


# ----------------------------------------------------------------- seats
def test_an_identity_sits_once_at_a_table(world: World) -> None:
    a = world.person("Ana")
    settings = check_settings({"deals": 1}, world.manager.defaults())
    table, _ = run(world.manager.create_private(a["name"], 2, settings, a["id"]))
    with pytest.raises(Exception) as e:
        run(world.manager.sit(table.id, table.meta.invite, a["name"], "N", a["id"]))
    assert getattr(e.value, "code", None) == "already_seated"
    assert list(table.meta.seats) == [2]


# ----------------------------------------------------------------- over HTTP
@pytest.fixture
def http(app_client: Callable[..., TestClient]) -> Any:
    with app_client(pace=0.0, table_rate=(0, 60.0)) as c:
        yield c


def new_player(http: TestClient, name: str) -> tuple[dict[str, Any], str]:
    r = http.post("/api/players", json={"name": name})
    assert r.status_code == 200, r.text
    return r.json()["player"], r.json()["secret"]


def test_an_identity_is_made_without_sign_up_and_its_name_is_unique_by_its_tag(http: TestClient) -> None:
    lea, secret = new_player(http, "  Léa ")
    lea2, _ = new_player(http, "LEA")
    assert lea["name"] == "Léa" and 1000 <= lea["tag"] <= 9999 and lea["handle"] == f"Léa#{lea['tag']}"
    assert lea2["tag"] != lea["tag"]
    me = http.get("/api/me", headers=bearer(secret)).json()
    assert me["player"] == lea and lea["password"] is False
    lea = {k: v for k, v in lea.items() if k != "password"}  # the public face
    assert me["friends"] == [] and me["invitations"] == []
    assert http.get("/api/players", params={"handle": lea["handle"]}).json()["player"] == lea
    for bad in ({"name": ""}, {"name": "a\u202eb"}, {"name": 5}):
        assert http.post("/api/players", json=bad).json()["code"] in ("bad_name", "name_control_characters")
    assert http.get("/api/me").status_code == 401
    assert http.get("/api/me", headers=bearer("x" * 22)).json()["code"] == "no_identity"
    assert http.get("/api/players", params={"handle": "Léa"}).json()["code"] == "bad_handle"
    assert http.get("/api/players/nobody").status_code == 404


def test_a_renamed_identity_keeps_its_tag_when_free(http: TestClient) -> None:
    lea, secret = new_player(http, "Léa")
    r = http.post("/api/me/name", json={"name": "Léa M"}, headers=bearer(secret)).json()["player"]
    assert r["name"] == "Léa M" and r["tag"] == lea["tag"]


def test_a_transfer_code_carries_the_identity_once(http: TestClient) -> None:
    lea, secret = new_player(http, "Léa")
    t = http.post("/api/me/transfer", headers=bearer(secret)).json()
    assert len(t["code"]) == 10 and t["link"].endswith(f"/?transfer={t['code']}")
    assert t["qr"].startswith("<svg") and "</svg>" in t["qr"]
    r = http.post("/api/players/claim", json={"code": t["code"].lower()})
    assert r.status_code == 200 and r.json()["player"]["id"] == lea["id"]
    other_device = r.json()["secret"]
    assert other_device != secret
    assert http.get("/api/me", headers=bearer(other_device)).json()["player"]["id"] == lea["id"]
    again = http.post("/api/players/claim", json={"code": t["code"]})
    assert (again.status_code, again.json()["code"]) == (400, "bad_code")
    assert http.get("/api/me", headers=bearer(secret)).status_code == 200  # the first device keeps it


def test_a_password_lets_another_device_in_and_a_wrong_one_does_not(http: TestClient) -> None:
    lea, secret = new_player(http, "Léa")
    assert http.post("/api/me/password", json={"password": "short"}, headers=bearer(secret)).json()["args"] == {
        "min": 8,
        "max": 128,
    }
    r = http.post("/api/me/password", json={"password": "correct horse"}, headers=bearer(secret))
    assert r.json()["player"]["password"] is True
    store = http.app.state.store  # type: ignore[attr-defined]
    with store.reading() as db:
        (hashed,) = db.execute("SELECT password FROM players WHERE id = ?", (lea["id"],)).fetchone()
    assert hashed.startswith("$argon2id$") and "correct horse" not in hashed
    wrong = http.post("/api/players/login", json={"handle": lea["handle"], "password": "wrong horse"})
    assert (wrong.status_code, wrong.json()["code"]) == (401, "login_failed")
    unknown = http.post("/api/players/login", json={"handle": "Nobody#1234", "password": "correct horse"})
    assert unknown.json()["code"] == "login_failed"
    ok = http.post("/api/players/login", json={"handle": lea["handle"], "password": "correct horse"})
    assert ok.status_code == 200 and ok.json()["player"]["id"] == lea["id"]


def test_friends_are_friends_once_both_added_and_a_block_ends_it(http: TestClient) -> None:
    lea, ls = new_player(http, "Léa")
    tom, ts = new_player(http, "Tom")
    assert http.post("/api/me/friends", json={"player": tom["handle"]}, headers=bearer(ls)).status_code == 200
    me = http.get("/api/me", headers=bearer(ls)).json()
    assert [f["id"] for f in me["asked"]] == [tom["id"]] and me["friends"] == []
    assert [f["id"] for f in http.get("/api/me", headers=bearer(ts)).json()["asking"]] == [lea["id"]]
    http.post("/api/me/friends", json={"player": lea["id"]}, headers=bearer(ts))
    (friend,) = http.get("/api/me", headers=bearer(ls)).json()["friends"]
    assert friend["id"] == tom["id"] and friend["online"] is False and friend["table"] is None
    assert http.post("/api/me/friends", json={"player": lea["id"]}, headers=bearer(ls)).json()["code"] == "self"
    http.post("/api/me/blocks", json={"player": tom["handle"]}, headers=bearer(ls))
    me = http.get("/api/me", headers=bearer(ls)).json()
    assert me["friends"] == [] and [b["id"] for b in me["blocked"]] == [tom["id"]]
    assert http.post("/api/me/friends", json={"player": lea["id"]}, headers=bearer(ts)).json()["code"] == "blocked"


def test_a_seat_taken_with_an_identity_carries_its_name_and_id(http: TestClient) -> None:
    lea, secret = new_player(http, "Léa")
    r = http.post("/api/tables", json={"name": "ignored", "settings": {"rated": True}}, headers=bearer(secret))
    assert r.status_code == 200, r.text
    table = http.app.state.tables.tables[r.json()["table"]]  # type: ignore[attr-defined]
    seat = table.meta.seats[2]
    assert (seat.name, seat.player) == ("Léa", lea["id"])
    again = http.post(
        f"/api/tables/{r.json()['table']}/sit", json={"invite": r.json()["invite"]}, headers=bearer(secret)
    )
    assert (again.status_code, again.json()["code"]) == (409, "already_seated")
    wrong = http.post("/api/solo", json={}, headers=bearer("not-a-secret-of-anyone"))
    assert (wrong.status_code, wrong.json()["code"]) == (401, "no_identity")


def test_the_leaderboard_route_names_its_game_and_period(http: TestClient) -> None:
    r = http.get("/api/leaderboard/classic", params={"period": "week"}).json()
    assert r["game"] == "classic" and r["period"] == "week" and r["rows"] == []
    assert http.get("/api/leaderboard/chess").json()["code"] == "bad_setting"
    scale = http.get("/api/ratings").json()
    assert scale["bots"]["normal"]["rating"] == ratings.shown(ratings.BOT_RATINGS["normal"])
    assert scale["start"] == 1000 and scale["provisional_matches"] == ratings.PROVISIONAL


def test_deleting_an_identity_leaves_no_personal_datum(world: World, tmp_path: Path) -> None:
    a, b = world.person("Ana"), world.person("Ben")
    run(world.players.set_password(a, "a fine password"))
    run(world.players.transfer(a))
    run(world.players.store.add_friend(a["id"], b["id"]))
    run(world.players.store.block(b["id"], a["id"]))
    table = world.table({2: a, 1: b}, rated=True)
    play_out(table)
    run(world.players.delete(a))
    db = sqlite3.connect(tmp_path / "players.sqlite3")
    names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    player_tables = {"players", "player_secrets", "transfers", "ratings", "rating_history", "matches",
                     "match_records", "match_players", "week_gains", "player_stats", "player_analysed", "friends",
                     "blocks"}  # fmt: skip
    assert player_tables <= set(names)
    for name in player_tables:
        for row in db.execute(f"SELECT * FROM {name}"):
            assert a["id"] not in repr(row) and "Ana" not in repr(row), (name, row)
    (kept,) = run(world.players.store.recent(b["id"], 5))
    seats = [seat for side in kept["sides"] for seat in side]
    assert {"seat": "S", "name": "Player", "player": None, "bot": None} in seats
    assert run(world.players.store.player(a["id"])) is None
    db.close()
    assert handle(b) == f"Ben#{b['tag']}"


# ----------------------------------------------------------------- the queue, invitations, open tables
def test_a_match_the_queue_made_between_two_identities_is_rated(world: World) -> None:
    a, b = world.person("Ana"), world.person("Ben")
    table, _ = run(world.manager.create_online(["Ana", "Ben"], "two-handed", ["any", "any"], [a["id"], b["id"]]))
    play_out(table)
    for p in (a, b):
        held = run(world.players.store.ratings(p["id"]))["two-handed"]
        assert held["matches"] == 1 and held["rating"] != 1000


def test_the_queue_seats_an_identity_with_its_name_and_id(http: TestClient) -> None:
    ana, ana_secret = new_player(http, "Ana")
    ben, ben_secret = new_player(http, "Ben")
    with http.websocket_connect("/ws") as a, http.websocket_connect("/ws") as b:
        a.send_json({"type": "queue", "name": "typed", "variant": "two-handed", "player": ana_secret})
        assert receive(a, "queue")["expected_ms"] >= 0
        b.send_json({"type": "queue", "name": "typed", "variant": "two-handed", "player": ben_secret})
        matched = receive(a, "matched")
        receive(b, "matched")
    table = http.app.state.tables.tables[matched["table"]]  # type: ignore[attr-defined]
    seated = {seat.player: seat.name for seat in table.meta.seats.values()}
    assert seated == {ana["id"]: "Ana", ben["id"]: "Ben"}
    with http.websocket_connect("/ws") as c:
        c.send_json({"type": "queue", "name": "Cy", "player": "not-a-secret-of-anybody"})
        assert receive(c, "error")["code"] == "no_identity"


def test_two_people_one_of_whom_blocked_the_other_are_never_seated_together(tmp_path: Path) -> None:
    async def scenario() -> list[list[str | None]]:
        store = SQLiteStore(tmp_path / "q.sqlite3")
        manager = TableManager(local_hub(store), ServerConfig(pace=0.0, turn_timer=600))
        mm = Matchmaker(manager.hub, manager, wait=0.0)

        async def nothing(msg: Any) -> None:
            return None

        await mm.join("Ana", nothing, "two-handed", "any", {"player": "A", "rating": 1000, "blocks": ["B"]})
        await mm.join("Ben", nothing, "two-handed", "any", {"player": "B", "rating": 1000, "blocks": []})
        seated = [[seat.player for seat in t.meta.seats.values()] for t in manager.tables.values()]
        await manager.close()
        store.close()
        return seated

    tables = run(scenario())
    assert sorted(sorted(p or "" for p in t) for t in tables) == [["", "A"], ["", "B"]]  # each with a bot


def test_an_invitation_reaches_the_friends_open_pages_at_once(http: TestClient) -> None:
    lea, ls = new_player(http, "Léa")
    tom, ts = new_player(http, "Tom")
    made = http.post("/api/tables", json={"settings": {}}, headers=bearer(ls)).json()
    body = {"player": tom["id"], "table": made["table"], "invite": made["invite"]}
    refused = http.post("/api/me/invite", json=body, headers=bearer(ls))
    assert (refused.status_code, refused.json()["code"]) == (400, "not_friends")
    http.post("/api/me/friends", json={"player": tom["id"]}, headers=bearer(ls))
    http.post("/api/me/friends", json={"player": lea["id"]}, headers=bearer(ts))
    with http.websocket_connect("/ws") as page:
        page.send_json({"type": "hello", "player": ts})
        (friend,) = http.get("/api/me", headers=bearer(ls)).json()["friends"]
        assert friend["online"] is True and friend["table"] is None
        assert http.post("/api/me/invite", json=body, headers=bearer(ls)).status_code == 200
        invited = receive(page, "invited")
    assert schemacheck.validator("server-message").is_valid(invited), invited
    assert invited["from"]["handle"] == lea["handle"] and invited["table"] == made["table"]
    assert invited["invite"] == made["invite"] and invited["variant"] == "classic"
    (kept,) = http.get("/api/me", headers=bearer(ts)).json()["invitations"]  # for a page that opens later
    assert kept["table"] == made["table"]
    sat = http.post(f"/api/tables/{made['table']}/sit", json={"invite": kept["invite"]}, headers=bearer(ts))
    assert sat.status_code == 200
    assert http.get("/api/me", headers=bearer(ts)).json()["invitations"] == []  # answered: no longer shown
    wrong = {**body, "invite": "not-the-code"}
    assert http.post("/api/me/invite", json=wrong, headers=bearer(ls)).json()["code"] == "no_such_table"
    elsewhere = http.post("/api/tables", json={"name": "Zoé", "settings": {}}).json()  # not Léa's table
    theirs = {**body, "table": elsewhere["table"], "invite": elsewhere["invite"]}
    assert http.post("/api/me/invite", json=theirs, headers=bearer(ls)).json()["code"] == "no_such_table"


def test_an_invitation_made_while_a_page_opens_reaches_it_with_its_hello(http: TestClient) -> None:
    """A page reads its invitations (``GET /api/me``), then opens its socket: one made in between is
    sent to the socket when it says hello, as to the sockets open when it was made."""
    lea, ls = new_player(http, "Léa")
    tom, ts = new_player(http, "Tom")
    http.post("/api/me/friends", json={"player": tom["id"]}, headers=bearer(ls))
    http.post("/api/me/friends", json={"player": lea["id"]}, headers=bearer(ts))
    assert http.get("/api/me", headers=bearer(ts)).json()["invitations"] == []  # the page reads none
    made = http.post("/api/tables", json={"settings": {}}, headers=bearer(ls)).json()
    body = {"player": tom["id"], "table": made["table"], "invite": made["invite"]}
    assert http.post("/api/me/invite", json=body, headers=bearer(ls)).status_code == 200  # nobody online
    with http.websocket_connect("/ws") as page:
        page.send_json({"type": "hello", "player": ts})
        page.send_json({"type": "no_such_message"})  # its refusal comes after all the hello brought
        said = []
        while (msg := page.receive_json())["type"] != "error":
            said.append(msg)
    (invited,) = said
    assert schemacheck.validator("server-message").is_valid(invited), invited
    assert invited["type"] == "invited"
    assert (invited["table"], invited["invite"], invited["from"]["id"]) == (made["table"], made["invite"], lea["id"])


def test_a_friend_at_a_table_is_shown_at_it(http: TestClient) -> None:
    lea, ls = new_player(http, "Léa")
    tom, ts = new_player(http, "Tom")
    http.post("/api/me/friends", json={"player": tom["id"]}, headers=bearer(ls))
    http.post("/api/me/friends", json={"player": lea["id"]}, headers=bearer(ts))
    solo = http.post("/api/solo", json={"variant": "coinche"}, headers=bearer(ts)).json()
    with http.websocket_connect("/ws") as page:
        page.send_json({"type": "join", "table": solo["table"], "token": solo["token"]})
        receive(page)
        page.send_json({"type": "hello", "player": ts})  # said again by the same socket: still at the table
        (friend,) = http.get("/api/me", headers=bearer(ls)).json()["friends"]
        assert friend["online"] is True and friend["table"] == {"id": solo["table"], "variant": "coinche"}
    (friend,) = http.get("/api/me", headers=bearer(ls)).json()["friends"]
    assert friend["online"] is False


def test_an_open_lobby_is_listed_until_its_game_starts(http: TestClient) -> None:
    closed = http.post("/api/tables", json={"name": "Zoé", "settings": {}}).json()
    opened = http.post("/api/tables", json={"name": "Léa", "settings": {"open": True, "rated": True}}).json()
    (listed,) = http.get("/api/open-tables").json()["tables"]
    assert listed["table"] == opened["table"] and listed["invite"] == opened["invite"]
    assert listed["host"] == "Léa" and listed["rated"] is True and listed["free"] == ["N", "E", "W"]
    assert closed["table"] != listed["table"]
    sat = http.post(f"/api/tables/{listed['table']}/sit", json={"invite": listed["invite"], "name": "Tom"})
    assert sat.status_code == 200
    assert http.get("/api/open-tables").json()["tables"][0]["free"] == ["E", "W"]
    with http.websocket_connect("/ws") as host:
        host.send_json({"type": "join", "table": opened["table"], "token": opened["token"]})
        receive(host)
        host.send_json({"type": "start"})
        until(host, lambda m: m["view"] is not None)
    assert http.get("/api/open-tables").json()["tables"] == []


@pytest.mark.app_config(pace=0.0, think_workers=0)
def test_a_reviewed_deal_adds_its_double_dummy_cost_to_the_players_statistics(client: TestClient) -> None:
    """Counted once a deal, and only for a deal of a match kept with the identity at that seat."""
    from belote.bots.heuristic import HeuristicBot
    from belote.game import Deal
    from belote.record import dumps, to_record
    from belote.rules import Rules

    records = []
    for seed in range(40):  # two deals that were taken (one everybody passed has no card to analyse)
        deal = Deal.from_seed(seed, Rules(variant="three-handed"))
        bot = HeuristicBot()
        while deal.phase != "done":
            deal.apply(bot.act(deal.view(deal.to_move)))
        if deal.plays:
            records.append(to_record(deal))
        if len(records) == 2:
            break
    kept, other = records
    player, secret = new_player(client, "Léa")
    _, stranger = new_player(client, "Max")
    seats = [[{"seat": s, "name": n, "player": i, "bot": b}] for s, n, i, b in
             (("S", "Léa", player["id"], None), ("W", "Bot", None, "easy"), ("E", "Bot", None, "easy"))]  # fmt: skip
    match = {"id": "T3:0", "game": "three-handed", "table": "T3", "finished": 5.0, "rated": False,
             "score": [0, 0, 0], "winner": None, "deals": 1, "sides": seats}  # fmt: skip
    store = client.app.state.players.store  # type: ignore[attr-defined]
    assert run(store.finish_match(match, {}, {}, 5.0, dumps(kept) + "\n"))

    def analysed(record: dict[str, Any], query: str, who: str | None) -> dict[str, Any]:
        r = client.post(f"/api/analyse{query}", json=record, headers=bearer(who) if who else {})
        assert r.status_code == 200, r.text
        return dict(r.json())

    def counted() -> dict[str, Any]:
        stats: dict[str, Any] = client.get(f"/api/players/{player['id']}").json()["stats"]
        return stats.get("three-handed", {})

    # Nothing counts but the identity's own seat of a kept match, and that match's deal.
    answer = analysed(kept, "?seat=S", secret)  # no match named
    analysed(kept, "?match=T3:0&seat=W", secret)  # another seat
    analysed(kept, "?match=T3:0&seat=S", stranger)  # another identity
    analysed(kept, "?match=T3:0&seat=S", None)  # no identity
    analysed(other, "?match=T3:0&seat=S", secret)  # a deal that is not the match's
    analysed(kept, "?match=T9:0&seat=S", secret)  # no such match
    assert counted().get("analysed_cards", 0) == 0
    mine = answer["players"]["S"]
    assert analysed(kept, "?match=T3:0&seat=S", secret) == answer  # counted, the same answer
    analysed(kept, "?match=T3:0&seat=S", secret)  # the same deal again: once
    stats = counted()
    assert stats["analysed_cards"] == mine["solved"] and stats["dd_cost_tenths"] == round(10 * mine["cost"])
    assert stats["dd_cost_per_card"] == round(mine["cost"] / mine["solved"], 2)


def test_a_reported_player_is_blocked_for_the_reporter_and_logged(
    http: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    lea, ls = new_player(http, "Léa")
    tom, _ = new_player(http, "Tom")
    r = http.post("/api/me/reports", json={"player": tom["handle"], "reason": "rude\nin chat\x00"}, headers=bearer(ls))
    assert r.status_code == 200
    assert [b["id"] for b in http.get("/api/me", headers=bearer(ls)).json()["blocked"]] == [tom["id"]]
    (line,) = [rec.getMessage() for rec in caplog.records if "reported" in rec.getMessage()]
    assert line == f"player {tom['id']} reported by {lea['id']}: rude in chat"
    assert "belote_player_reports_total 1" in http.get("/metrics").text


def test_a_contract_is_made_when_the_engine_says_its_takers_won_the_deal() -> None:
    # Three hands, seed 134, random play: the taker (N) takes no trick, and the defenders share a
    # capot (outcome "capot", nobody the deal's winner): a contract taken and not made.
    import random as chance

    from belote.server.replica import new_match

    match = new_match(check_settings({"variant": "three-handed", "deals": 1}), 134)
    rng = chance.Random(134)
    while not match.over:
        match.apply(rng.choice(match.legal_actions()))
    (deal,) = [d for d in match.deals if d.result is not None and d.result.outcome != "thrown-in"]
    assert (deal.taker, deal.result.outcome, deal.result.winner) == (0, "capot", None)
    counters = match_counters(match, 0)
    assert (counters["taken"], counters["made"], counters["capots"]) == (1, 0, 0)
