"""Duplicate tournaments across the processes of a Redis server (docs/tournaments.md): two ``belote
serve`` processes A and B on one real redis-server, their daily tournaments of 2 boards with the easy
bots. The day's classic tournament asked on A and on B is one (made once, by A); an identity plays
board 1 on A, a guest plays it on B and meets the same cards; each one's traveller, read on the other
process, shows the other's result; the ranking, read on either, gives the percentages worked out here
by hand from the two scores and the bots' results; a board is not played twice across processes.

The bots' results of a board that fill its field are the servers' own (worked out by the process that
made the tournament): the traveller shows the first (the bots' line), the others are read from Redis,
where both processes read them."""

from __future__ import annotations

import datetime
import hashlib
import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import redis

from netplay import Player, Server, match_over, post, redis_server, run

FIELD = 8  # results a board is compared with at least (belote.tournament.FIELD): the bots fill it
PERSON_2_TOKEN = "zoe-browser-token-0123456789"  # a guest's browser token (16 to 128 characters)
#: The longest a request may take: the first traveller of a board and the first ranking wait for the
#: bots' results of the boards (eight deals each, six by the search bots: seconds on an idle machine).
REQUEST_TIMEOUT = 120


def call(base: str, path: str, auth: str | None = None, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """A request with ``Authorization: auth`` (a POST of ``body`` when given): its status and JSON answer,
    a refusal's included."""
    headers = {} if auth is None else {"Authorization": auth}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers=headers, method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(req, timeout=REQUEST_TIMEOUT) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def ok(base: str, path: str, auth: str | None = None, body: dict[str, Any] | None = None) -> Any:
    status, answer = call(base, path, auth, body)
    assert status == 200, (path, status, answer)
    return answer


def daily_classic(base: str, auth: str) -> dict[str, Any]:
    (found,) = [t for t in ok(base, "/api/tournaments", auth)["daily"] if t["game"] == "classic"]
    return dict(found)


def records(base: str, path: str, auth: str) -> list[dict[str, Any]]:
    """A board's records for its review (JSON lines): the asker's deal, then the bots' line's."""
    req = urllib.request.Request(base + path, headers={"Authorization": auth})
    with urllib.request.urlopen(req, timeout=REQUEST_TIMEOUT) as r:
        return [json.loads(line) for line in r.read().decode().splitlines()]


async def play_board(ws_url: str, entry: dict[str, Any], seed: int) -> dict[str, Any]:
    """A board played to its end at its table by a scripted player (random legal moves): the last state."""
    player = Player(ws_url, entry["table"], token=entry["token"], seed=seed)
    try:
        first = await player.connect()
        assert first["seat"] == entry["seat"] == "S" and first["view"]["deal_number"] == 1
        last: dict[str, Any] = await player.play(match_over, timeout=60)
        assert not player.errors, player.errors
        return last
    finally:
        await player.close()


def share(score: float, field: list[float]) -> tuple[float, float]:
    """A result's matchpoints (the share of the field it beats, a tie counting half, in %) and its
    difference to the field's mean, written out."""
    below = sum(1 for x in field if x < score)
    ties = sum(1 for x in field if x == score)
    return 100.0 * (below + ties / 2) / len(field), score - sum(field) / len(field)


def test_a_daily_tournament_played_on_two_processes_of_one_redis(tmp_path: Path) -> None:
    with redis_server(tmp_path) as url:
        args = ["--pace", "0", "--turn-timer", "600", "--redis", url, "--think-workers", "0"]
        args += ["--daily-boards", "2", "--daily-bots", "easy"]  # the day's tournaments: 2 boards, easy bots
        a, b = (Server(tmp_path / f"{n}.sqlite3", tmp_path / f"{n}.log", *args) for n in "ab")
        a.start()
        b.start()
        r = redis.Redis.from_url(url)
        try:
            # 1. The day's classic tournament, asked by a guest on A and then on B: one tournament.
            guest = "Guest " + PERSON_2_TOKEN
            days = {datetime.datetime.now(datetime.UTC).strftime("%Y%m%d")}
            on_a, on_b = daily_classic(a.base, guest), daily_classic(b.base, guest)
            days.add(datetime.datetime.now(datetime.UTC).strftime("%Y%m%d"))  # (should the day change meanwhile)
            tid = on_a["id"]
            assert tid in {f"daily-classic-{day}" for day in days}
            assert on_b == on_a
            assert on_a["boards"] == 2 and on_a["settings"] == {"variant": "classic", "strength": "easy"}
            assert on_a["kind"] == "daily" and on_a["state"] == "open" and "seed" not in on_a
            assert on_a["mine"] == [{"board": 1, "state": "to_play"}, {"board": 2, "state": "to_play"}]
            made = f"the daily tournament {tid} is made"
            assert made in a.log_path.read_text() and made not in b.log_path.read_text()

            # 2. Person 1 (an identity made on A) opens board 1 on A; asked again on B before it is
            # played, the same table comes back (the entry is in Redis).
            ana = post(a.base, "/api/players", {"name": "Ana"})
            ana_id, ana_auth = ana["player"]["id"], "Bearer " + ana["secret"]
            play_1 = f"/api/tournaments/{tid}/boards/1/play"
            entry_1 = ok(a.base, play_1, ana_auth, {})
            assert set(entry_1) == {"table", "token", "seat"} and entry_1["seat"] == "S"
            assert ok(b.base, play_1, ana_auth, {}) == entry_1
            assert run(play_board(a.ws_url, entry_1, seed=1))["view"]["match_over"]

            # 3. Person 2 (the guest) may not see board 1's traveller before playing it.
            traveller_1 = f"/api/tournaments/{tid}/boards/1/traveller"
            status, refused = call(b.base, traveller_1, guest)
            assert status == 409 and refused["code"] == "board_not_played" and refused["args"] == {"board": 1}

            # Person 1's traveller read on B: their result made on A alone, against the 8 bots' results.
            alone = ok(b.base, traveller_1, ana_auth)
            assert alone["results"] == 1 and alone["compared"] == {"people": 0, "bots": FIELD}
            raw_bots = r.hget(f"belote:tn:t:{tid}:bots", "0")  # stored once the traveller has them
            assert isinstance(raw_bots, bytes)
            bots = [float(x["score"]) for x in json.loads(raw_bots)]
            assert len(bots) == FIELD and alone["bots"]["score"] == bots[0]  # the bots' line
            s1 = float(alone["mine"]["score"])
            (line,) = alone["lines"]
            assert line["mine"] and line["n"] == 1 and line["names"] == ["Ana"] and line["score"] == s1
            assert (alone["mine"]["percent"], alone["mine"]["difference"]) == share(s1, bots)

            # The ranking read on B: person 1 alone (the first ranking of B, made at once).
            ranking = f"/api/tournaments/{tid}/ranking"
            first = ok(b.base, ranking, ana_auth)
            assert first["results"] == 1 and first["total"] == 1 and first["boards"] == 2
            assert [(row["player"], row["played"]) for row in first["rows"]] == [(ana_id, 1)]
            assert first["you"]["entrant"] == ana_id and first["you"]["rank"] == 1

            # Person 2 plays board 1 on B: the same deck and dealer as person 1 on A and the bots' line
            # (each one's deal read on the other process).
            entry_2 = ok(b.base, play_1, guest, {"name": "Zoé"})
            assert entry_2["table"] != entry_1["table"] and entry_2["seat"] == "S"
            assert run(play_board(b.ws_url, entry_2, seed=2))["view"]["match_over"]
            records_1 = f"/api/tournaments/{tid}/boards/1/records"
            deal_1, bots_deal = records(b.base, records_1, ana_auth)
            deal_2, bots_deal_2 = records(a.base, records_1, guest)
            assert bots_deal_2 == bots_deal
            assert len(deal_1["deck"]) == 32
            assert deal_2["deck"] == deal_1["deck"] == bots_deal["deck"]
            assert deal_2["dealer"] == deal_1["dealer"] == bots_deal["dealer"]

            # Each one's traveller, read on the other process than the one they played on.
            seen_2 = ok(b.base, traveller_1, guest)  # person 2's, on B: person 1's result made on A
            seen_1 = ok(a.base, traveller_1, ana_auth)  # person 1's, on A: person 2's made on B
            s2 = float(seen_2["mine"]["score"])
            assert seen_1["mine"]["score"] == s1 and seen_1["mine"]["table"] == entry_1["table"]
            assert seen_2["mine"]["table"] == entry_2["table"]
            for seen in (seen_1, seen_2):
                assert seen["results"] == 2 and seen["compared"] == {"people": 1, "bots": FIELD - 1}
                assert seen["bots"]["score"] == bots[0]
                assert sum(line["n"] for line in seen["lines"]) == 2
                assert sorted(name for line in seen["lines"] for name in line["names"]) == ["Ana", "Zoé"]
                assert [line["score"] for line in seen["lines"]] == sorted({s1, s2}, reverse=True) or (
                    s1 == s2 and [line["score"] for line in seen["lines"]] == [s1, s1]  # two lines of one score
                )
            strip = [{k: v for k, v in line.items() if k != "mine"} for line in seen_1["lines"]]
            assert [{k: v for k, v in line.items() if k != "mine"} for line in seen_2["lines"]] == strip
            for seen, name, score in ((seen_1, "Ana", s1), (seen_2, "Zoé", s2)):
                (own,) = [line for line in seen["lines"] if line["mine"]]  # each one's own line marked
                assert name in own["names"] and own["score"] == score
            # Each result against the other person's and the first 7 bots' results, by hand.
            expected = {
                "Ana": share(s1, [s2, *bots[: FIELD - 1]]),
                "Zoé": share(s2, [s1, *bots[: FIELD - 1]]),
            }
            assert (seen_1["mine"]["percent"], seen_1["mine"]["difference"]) == expected["Ana"]
            assert (seen_2["mine"]["percent"], seen_2["mine"]["difference"]) == expected["Zoé"]
            # The bots' line against both people's results and the next 6 bots' results.
            assert seen_1["bots"]["percent"] == share(bots[0], [s1, s2, *bots[1 : FIELD - 1]])[0]

            # 4. The ranking, read on either process once it is made from both results. B ranked this
            # tournament with one result: it ranks anew once RANKING_EVERY seconds (5) have passed
            # since (or ten times what its last ranking took, a few milliseconds: the time its bots'
            # results took is not counted); A then reads that ranking from Redis.
            pages = {}
            deadline = time.monotonic() + 20
            for base in (b.base, a.base):
                while True:
                    page = ok(base, ranking, ana_auth)
                    if page["results"] == 2:
                        break
                    assert page["results"] == 1, page
                    assert time.monotonic() < deadline, f"the ranking of {base} was not remade: {page}"
                    time.sleep(0.1)
                pages[base] = page
            zoe = "guest:" + hashlib.sha256(PERSON_2_TOKEN.encode()).hexdigest()[:32]
            who = {"Ana": (ana_id, ana_id), "Zoé": (zoe, None)}
            order = sorted(expected, key=lambda n: (-expected[n][0], -expected[n][1], n))
            rows = [
                {
                    "rank": rank,
                    "entrant": who[name][0],
                    "name": name,
                    "player": who[name][1],
                    "played": 1,
                    "percent": round(expected[name][0], 2),
                    "difference": round(expected[name][1], 2),
                }
                for rank, name in enumerate(order, 1)
            ]
            for page in pages.values():
                assert page["total"] == 2 and page["boards"] == 2 and page["state"] == "open"
                assert page["rows"] == rows
                (you,) = [row for row in rows if row["name"] == "Ana"]
                assert page["you"] == you
            assert ok(b.base, ranking, guest)["you"]["entrant"] == zoe

            # 5. Board 1 is played: person 1 asking it again on B (and on A) is refused.
            for base in (b.base, a.base):
                status, again = call(base, play_1, ana_auth, {})
                assert status == 409 and again["code"] == "board_played" and again["args"] == {"board": 1}
            mine = ok(b.base, f"/api/tournaments/{tid}", ana_auth)["mine"]
            assert mine[0] == {
                "board": 1,
                "state": "played",
                "score": s1,
                "percent": expected["Ana"][0],
                "difference": expected["Ana"][1],
            }
            assert mine[1] == {"board": 2, "state": "to_play"}
        finally:
            r.close()
            a.stop()
            b.stop()
