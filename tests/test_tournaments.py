"""Duplicate tournaments (docs/tournaments.md): the same cards and the same bots' play for everyone,
matchpoints computed by hand, the bots' fill-in field, a board played once and shown only after,
a tournament that closes at its time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from belote import tournament as scoring
from belote.bots import make_bot
from belote.cli import build_parser
from belote.game import SEATS, Match
from belote.server import tournaments as service_module
from belote.server.app import create_app
from belote.server.hub import local_hub
from belote.server.manager import TableManager
from belote.server.room import Act, person_seat, rules_of
from belote.server.store import SQLiteStore
from belote.server.tables import Client, ServerConfig, Table
from belote.server.tournament_store import SQLiteTournaments
from belote.server.tournaments import DAILY_BOARDS, DAILY_STRENGTH, DAY, Tournaments, daily_id, entrant_of
from belote.server.wire import BadRequest
from belote.tournament import Distribution, difference, field_of, matchpoints, net
from netplay import run

#: Friday 4 December 2026, 10:00 UTC.
NOW = 1_796_378_400.0
Policy = Callable[[Table, int], Any]


class Clock:
    def __init__(self, now: float = NOW) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The daily tournament's bots and its fill-in field are the heuristic bot (each draw its own
    seed): the tests check the arithmetic and the seeding, not the search bot's strength."""
    monkeypatch.setattr(service_module, "BOT_FIELD", tuple(("easy", d) for d in range(8)))


def first_legal(table: Table, seat: int) -> Any:
    assert table.match is not None
    return table.match.legal_actions()[0]


def last_legal(table: Table, seat: int) -> Any:
    assert table.match is not None
    return table.match.legal_actions()[-1]


async def play_board(table: Table, seat: int, policy: Policy) -> None:
    """The person plays by ``policy`` until the board is over; the table's bots play as its driver
    makes them (each turn awaited as it comes, within a minute)."""
    deadline = time.monotonic() + 60
    while table.match is not None and not table.match.over:
        if table.match.to_move == seat:
            await table.mutate(Act(seat, policy(table, seat)))
            continue
        if time.monotonic() > deadline:
            raise AssertionError("the bots did not play within a minute")
        await asyncio.sleep(0.002)


class World:
    """A tables' manager on a SQLite file with its tournaments, inside one event loop."""

    def __init__(self, path: Path, clock: Clock) -> None:
        self.store = SQLiteStore(path, clock=clock)
        self.clock = clock
        self.manager = TableManager(local_hub(self.store), ServerConfig(pace=0.0, turn_timer=600), clock=clock)
        self.service = Tournaments(SQLiteTournaments(self.store), clock, daily_strength="easy")
        self.service.manager = self.manager
        self.manager.tournaments = self.service

    async def play(self, t: dict[str, Any], board: int, who: str, policy: Policy = first_legal) -> Table:
        entrant = entrant_of(None, who * 16)
        assert entrant is not None
        entry = await self.service.play(t, board, entrant, who, None)
        table = self.manager.tables[entry["table"]]
        seat = SEATS.index(entry["seat"])

        async def send(msg: Any) -> None:
            pass

        table.clients.append(Client(seat, send))  # the person is there: the table's bots play
        table.wake()
        await play_board(table, seat, policy)
        return table

    async def close(self) -> None:
        await self.service.close()
        await self.manager.close()
        self.store.close()


def in_world(tmp_path: Path, scenario: Callable[[World], Awaitable[None]], clock: Clock | None = None) -> None:
    async def main() -> None:
        world = World(tmp_path / "t.sqlite3", clock or Clock())
        try:
            await scenario(world)
        finally:
            await world.close()

    run(main())


# ----------------------------------------------------------------- the arithmetic
def test_matchpoints_on_a_small_field_computed_by_hand() -> None:
    # Five results of a board: 40, 20, 20, 0, -30 (net points, the player's side minus the other).
    scores = [40.0, 20.0, 20.0, 0.0, -30.0]
    others = lambda i: scores[:i] + scores[i + 1 :]  # noqa: E731
    # 40 beats all four: 100%. 20 beats 0 and -30 and ties the other 20: (2 + 0.5) / 4 = 62.5%.
    # 0 beats -30: 25%. -30 beats nobody: 0%.
    assert [matchpoints(s, others(i)) for i, s in enumerate(scores)] == [100.0, 62.5, 62.5, 25.0, 0.0]
    # The difference to the others' mean: 40 - (20 + 20 + 0 - 30) / 4 = 37.5.
    assert difference(40.0, others(0)) == 37.5
    # The same through the board's distribution, with no bot needed (minimum 4 others).
    dist = Distribution({40: 1, 20: 2, 0: 1, -30: 1})
    assert [dist.matchpoints(s, [], minimum=4) for s in (40, 20, 0, -30)] == [100.0, 62.5, 25.0, 0.0]


def test_the_bots_fill_the_field_until_enough_people_played() -> None:
    bots = [float(b) for b in range(10, 90, 10)]  # 10, 20, ..., 80
    # One person alone: compared with the eight bots' results.
    assert field_of([], bots) == (bots, 0, 8)
    # Three people: each compared with the two others and six bots' results.
    assert field_of([5.0, 7.0], bots) == ([5.0, 7.0, *bots[:6]], 2, 6)
    # A person who made 35 against one other person (0) and the first 7 bots (10..70): beats 0, 10, 20, 30.
    dist = Distribution({35: 1, 0: 1})
    assert dist.compared(bots) == (1, 7)
    assert dist.matchpoints(35, bots) == 100.0 * 4 / 8
    assert net([100, 62], 1) == -38.0 and net([82, 40, 40], 0) == 42.0


# ----------------------------------------------------------------- playing
def test_two_people_who_play_the_same_cards_meet_the_same_bots_and_get_the_same_result(tmp_path: Path) -> None:
    async def scenario(w: World) -> None:
        t = await w.service.daily("classic")
        assert t["id"] == daily_id("classic", NOW) == "daily-classic-20261204"
        a = await w.play(t, 0, "ana")
        b = await w.play(t, 0, "ben")
        assert a.id != b.id and a.meta.seed == b.meta.seed == scoring.board_seed(t["seed"], 0)
        assert not a.room.shared  # no turn timer, no bot standing in: the person takes their time
        assert a.match is not None and b.match is not None
        assert a.match.actions == b.match.actions  # every bot played as for the other
        assert a.match.deals[0].deck == b.match.deals[0].deck
        ra = await w.service.store.result(t["id"], 0, entrant_of(None, "ana" * 16) or "")
        rb = await w.service.store.result(t["id"], 0, entrant_of(None, "ben" * 16) or "")
        assert ra is not None and rb is not None
        assert ra["score"] == rb["score"] and ra["line"] == rb["line"]
        # Another board is another deal.
        c = await w.play(t, 1, "ana")
        assert c.match is not None and c.match.deals[0].deck != a.match.deals[0].deck
        # Another way to play the same cards: the same deal, another result or the same.
        d = await w.play(t, 0, "cid", last_legal)
        assert d.match is not None and d.match.deals[0].deck == a.match.deals[0].deck

    in_world(tmp_path, scenario)


def test_a_board_is_played_once_and_its_results_are_hidden_until_then(tmp_path: Path) -> None:
    async def scenario(w: World) -> None:
        t = await w.service.daily("classic")
        ana = entrant_of(None, "ana" * 16)
        with pytest.raises(BadRequest) as hidden:
            await w.service.traveller(t, 0, ana)
        assert hidden.value.code == "board_not_played" and hidden.value.status == 409
        await w.play(t, 0, "ana")
        with pytest.raises(BadRequest) as again:
            await w.service.play(t, 0, ana or "", "ana", None)
        assert again.value.code == "board_played"
        seen = await w.service.traveller(t, 0, ana)
        assert seen["results"] == 1 and seen["compared"] == {"people": 0, "bots": 8}
        (line,) = seen["lines"]
        assert line["mine"] and line["n"] == 1 and line["names"] == ["ana"]
        with pytest.raises(BadRequest) as other:  # board 2 not played yet: hidden still
            await w.service.traveller(t, 1, ana)
        assert other.value.code == "board_not_played"
        with pytest.raises(BadRequest) as out_of_range:
            await w.service.play(t, 8, ana or "", "ana", None)
        assert out_of_range.value.code == "no_such_board"

    in_world(tmp_path, scenario)


def test_the_traveller_scores_each_line_against_the_field_with_the_bots_filling_it(tmp_path: Path) -> None:
    async def scenario(w: World) -> None:
        t = await w.service.daily("classic")
        for who, policy in (("ana", first_legal), ("ben", last_legal), ("cid", first_legal)):
            await w.play(t, 0, who, policy)
        bots = [float(b["score"]) for b in await w.service.bots(t, 0)]
        assert len(bots) == 8
        mine = await w.service.traveller(t, 0, entrant_of(None, "ben" * 16))
        scores = {"ana": 0.0, "ben": 0.0, "cid": 0.0}
        for who in scores:
            r = await w.service.store.result(t["id"], 0, entrant_of(None, who * 16) or "")
            assert r is not None
            scores[who] = r["score"]
        # Ben's result against Ana's, Cid's and the first six bots' results, by hand.
        field = [scores["ana"], scores["cid"], *bots[:6]]
        assert mine["compared"] == {"people": 2, "bots": 6}
        assert mine["mine"]["percent"] == matchpoints(scores["ben"], field)
        assert mine["mine"]["difference"] == difference(scores["ben"], field)
        assert sum(line["n"] for line in mine["lines"]) == 3
        shown = [line["score"] for line in mine["lines"]]
        assert shown == sorted(shown, reverse=True)  # best first
        assert sorted(x for line in mine["lines"] for x in [line["score"]] * line["n"]) == sorted(scores.values())
        # The bots' line: the tournament's own bot in the person's seat, against the three people
        # and the five other bots' results.
        assert mine["bots"]["score"] == bots[0]
        assert mine["bots"]["percent"] == matchpoints(bots[0], [*scores.values(), *bots[1:6]])

    in_world(tmp_path, scenario)


def test_the_ranking_is_the_mean_of_the_percentages_over_the_boards(tmp_path: Path) -> None:
    async def scenario(w: World) -> None:
        t = await w.service.daily("classic")
        people = {"ana": first_legal, "ben": last_legal}
        for board in range(2):
            for who, policy in people.items():
                await w.play(t, board, who, policy)
        page = await w.service.standings(t, entrant_of(None, "ana" * 16))
        assert page["total"] == 2 and page["results"] == 4
        bots = [[float(b["score"]) for b in await w.service.bots(t, k)] for k in range(2)]
        expected = {}
        for who in people:
            me = entrant_of(None, who * 16) or ""
            other = entrant_of(None, ("ben" if who == "ana" else "ana") * 16) or ""
            percents = []
            for k in range(2):
                mine = await w.service.store.result(t["id"], k, me)
                theirs = await w.service.store.result(t["id"], k, other)
                assert mine is not None and theirs is not None
                percents.append(matchpoints(mine["score"], [theirs["score"], *bots[k][:7]]) or 0.0)
            expected[who] = round(sum(percents) / 2, 2)
        rows = {r["name"]: r for r in page["rows"]}
        assert {who: rows[who]["percent"] for who in people} == expected
        assert all(r["played"] == 2 for r in page["rows"]) and page["rows"][0]["percent"] >= page["rows"][1]["percent"]
        assert page["you"]["name"] == "ana" and page["you"]["rank"] in (1, 2)

    in_world(tmp_path, scenario)


def test_a_tournament_closes_at_its_time_and_its_travellers_open_to_all(tmp_path: Path) -> None:
    clock = Clock()

    async def scenario(w: World) -> None:
        t = await w.service.daily("classic")
        assert t["opens"] == NOW - 10 * 3600 and t["closes"] == NOW + 14 * 3600
        await w.play(t, 0, "ana")
        clock.now = t["closes"]
        assert w.service.state(t) == "closed"
        with pytest.raises(BadRequest) as closed:
            await w.service.play(t, 1, entrant_of(None, "ana" * 16) or "", "ana", None)
        assert closed.value.code == "tournament_closed"
        assert (await w.service.traveller(t, 0, None))["results"] == 1  # anybody, once closed
        # The next day has its own tournament.
        clock.now += 1
        assert (await w.service.daily("classic"))["id"] == "daily-classic-20261205"

    in_world(tmp_path, scenario, clock)


def passes(table: Table, seat: int) -> Any:
    assert table.match is not None
    legal = table.match.legal_actions()
    return next((a for a in legal if str(a) == "pass"), legal[0])


def test_a_board_everybody_passes_ends_at_nothing_each(tmp_path: Path) -> None:
    async def scenario(w: World) -> None:
        daily = await w.service.daily("classic")
        settings = service_module.board_settings(daily)
        seat = person_seat(4)
        # The first tournament seed whose first board every bot passes, the person passing too.
        for seed in range(500):
            board = scoring.board_seed(seed, 0)
            match = Match(rules_of(settings), seed=board, first_dealer=board % 4, one_deal=True)
            bots = [make_bot("heuristic", seed=board * 7 + s) for s in range(4)]
            while not match.over:
                turn = match.to_move
                assert turn is not None
                legal = match.legal_actions()
                pass_ = next((a for a in legal if str(a) == "pass"), legal[0])
                match.apply(pass_ if turn == seat else bots[turn].act(match.view(turn)), turn)
            if match.deals[0].result is not None and match.deals[0].result.outcome == "thrown-in":
                break
        else:
            pytest.fail("no seed of 500 has a first board every bot passes")
        t = {**daily, "id": "passed", "kind": "private", "invite": "x", "seed": seed}
        assert await w.service.store.create(t)
        table = await w.play(t, 0, "ana", passes)
        assert table.match is not None and table.match.over and len(table.match.deals) == 1
        assert table.match.deals[0].result is not None and table.match.deals[0].result.outcome == "thrown-in"
        r = await w.service.store.result("passed", 0, entrant_of(None, "ana" * 16) or "")
        assert r is not None and r["score"] == 0.0 and r["points"] == [0, 0] and r["outcome"] == "thrown-in"

    in_world(tmp_path, scenario)


def test_a_private_tournament_is_seen_only_with_its_link(tmp_path: Path) -> None:
    async def scenario(w: World) -> None:
        host = {"id": "host1", "name": "Léa"}
        t = await w.service.create_private(
            host, {"name": "Club du jeudi", "settings": {"variant": "coinche", "strength": "easy"}, "boards": 4}
        )
        assert t["kind"] == "private" and t["boards"] == 4 and t["game"] == "coinche"
        assert (await w.service.find(t["id"], t["invite"]))["id"] == t["id"]
        for invite in (None, "wrong"):
            with pytest.raises(BadRequest) as e:
                await w.service.find(t["id"], invite)
            assert e.value.code == "no_such_tournament"
        assert "invite" in w.service.public(t, "host1") and "invite" not in w.service.public(t, "someone")
        assert "seed" not in w.service.public(t, "host1")
        for bad, code in (({"name": "x", "boards": 17}, "bad_boards"), ({"name": "x", "closes": NOW - 1}, "bad_dates")):
            with pytest.raises(BadRequest) as refused:
                await w.service.create_private(host, bad)
            assert refused.value.code == code

    in_world(tmp_path, scenario)


def test_a_daily_tournament_lasts_the_day() -> None:
    assert daily_id("coinche", NOW) == "daily-coinche-20261204"
    assert service_module.day_start(NOW) == NOW - 10 * 3600 and DAY == 86400.0


def test_a_server_makes_its_daily_tournaments_with_the_boards_and_bots_it_is_given(tmp_path: Path) -> None:
    args = build_parser().parse_args(["serve", "--daily-boards", "3", "--daily-bots", "strong"])
    assert (args.daily_boards, args.daily_bots) == (3, "strong")
    defaults = build_parser().parse_args(["serve"])
    assert (defaults.daily_boards, defaults.daily_bots) == (8, "normal") == (DAILY_BOARDS, DAILY_STRENGTH)
    for wrong in (["--daily-boards", "0"], ["--daily-boards", "17"], ["--daily-bots", "hard"]):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["serve", *wrong])
    app = create_app(db_path=tmp_path / "app.sqlite3", config=ServerConfig(daily_boards=3, daily_bots="strong"))
    service = app.state.tournaments
    assert (service.daily_boards, service.daily_strength) == (3, "strong")
    service.store.close()
    app.state.store.close()

    async def scenario(w: World) -> None:
        w.service.daily_boards = 3
        t = await w.service.daily("coinche")
        assert (t["boards"], t["game"], t["settings"]["strength"]) == (3, "coinche", "easy")
        assert (await w.service.daily("coinche"))["boards"] == 3  # made once: the same

    in_world(tmp_path, scenario)
