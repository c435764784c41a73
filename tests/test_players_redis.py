"""Players across the processes of a Redis server (docs/players.md): an identity made on one process
is known on the other, a friend online on one is seen online from the other, an invitation sent on
one reaches the friend's page on the other at once, and the queue seats two identities waiting on
two processes at one rated table whose result both profiles show."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from netplay import Player, Server, get, match_over, post, redis_server, run


def test_friends_invitations_and_a_rated_match_across_two_processes(tmp_path: Path) -> None:
    with redis_server(tmp_path) as url:
        args = ("--pace", "0", "--turn-timer", "600", "--redis", url)
        a, b = (Server(tmp_path / f"{n}.sqlite3", tmp_path / f"{n}.log", *args) for n in "ab")
        a.start()
        b.start()
        try:
            lea = post(a.base, "/api/players", {"name": "Léa"})
            tom = post(b.base, "/api/players", {"name": "Tom"})
            ls, ts = lea["secret"], tom["secret"]
            assert get(a.base, "/api/me", ts)["player"]["id"] == tom["player"]["id"]  # made on B, known on A
            post(a.base, "/api/me/friends", {"player": tom["player"]["handle"]}, ls)
            post(b.base, "/api/me/friends", {"player": lea["player"]["id"]}, ts)

            async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
                async with connect(b.ws_url) as page:  # Tom's page, on B
                    await page.send(json.dumps({"type": "hello", "player": ts}))
                    online: dict[str, Any] = {}
                    for _ in range(100):  # told to A through Redis
                        (online,) = get(a.base, "/api/me", ls)["friends"]
                        if online["online"]:
                            break
                        await asyncio.sleep(0.05)
                    table = post(a.base, "/api/tables", {"settings": {}}, ls)
                    body = {"player": tom["player"]["id"], "table": table["table"], "invite": table["invite"]}
                    post(a.base, "/api/me/invite", body, ls)
                    while True:
                        invited = json.loads(await asyncio.wait_for(page.recv(), 10))
                        if invited["type"] == "invited":
                            break
                matched = {}
                async with connect(a.ws_url) as qa, connect(b.ws_url) as qb:
                    await qa.send(json.dumps({"type": "queue", "name": "x", "variant": "two-handed", "player": ls}))
                    await qb.send(json.dumps({"type": "queue", "name": "y", "variant": "two-handed", "player": ts}))
                    for q, who in ((qa, "lea"), (qb, "tom")):
                        while who not in matched:
                            msg = json.loads(await asyncio.wait_for(q.recv(), 10))
                            if msg["type"] == "matched":
                                matched[who] = msg
                players = [
                    Player(a.ws_url, matched["lea"]["table"], token=matched["lea"]["token"], seed=1),
                    Player(b.ws_url, matched["tom"]["table"], token=matched["tom"]["token"], seed=2),
                ]
                await asyncio.gather(*(p.play(match_over) for p in players))
                for p in players:
                    await p.close()
                return online, invited, matched

            online, invited, matched = run(scenario())
            assert online["online"] is True and online["id"] == tom["player"]["id"]
            assert invited["from"]["id"] == lea["player"]["id"] and invited["table"]
            assert matched["lea"]["table"] == matched["tom"]["table"]
            for base, who in ((b.base, lea), (a.base, tom)):
                profile = get(base, f"/api/players/{who['player']['id']}")
                (recent,) = profile["recent"]
                assert recent["rated"] and recent["game"] == "two-handed"
                change = recent["changes"][who["player"]["id"]]
                assert profile["ratings"]["two-handed"] == {
                    "rating": change["after"],
                    "matches": 1,
                    "provisional": True,
                }
            board = get(a.base, "/api/leaderboard/two-handed")["rows"]
            assert {r["id"] for r in board} == {lea["player"]["id"], tom["player"]["id"]}
        finally:
            a.stop()
            b.stop()
