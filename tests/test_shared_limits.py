"""The per-address limits counted in Redis: two processes of one server count one client together."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from belote.server.app import create_app
from belote.server.limits import Check, Rate
from belote.server.redis_hub import RedisLink
from belote.server.shared_limits import SharedLimits
from belote.server.tables import ServerConfig
from netplay import post, redis_server, run, serve_in_thread

FAST = {"strength": "easy", "speed": "fast"}


def test_processes_share_the_counts_and_a_dead_ones_sockets_are_dropped(tmp_path: Path) -> None:
    async def scenario(url: str) -> None:
        hub = RedisLink.connect(url)
        a, b, c = (SharedLimits(hub.r, "belote:", p, (3, 60.0), 2) for p in ("A", "B", "C"))
        for limits in (a, b, c):
            await limits.alive()

        def new(address: str) -> list[Check]:
            return [("new", Rate(3, 60.0), address)]

        made = [await limits.allow(new("1.2.3.4")) for limits in (a, a, b)]
        assert made == [None, None, None]
        assert await a.allow(new("1.2.3.4")) == await b.allow(new("1.2.3.4")) == Rate(3, 60.0)
        assert await b.allow(new("5.6.7.8")) is None  # another address has its own window

        assert await a.open_socket("1.2.3.4") and await b.open_socket("1.2.3.4")
        assert not await a.open_socket("1.2.3.4")  # two open, in two processes
        await b.close_socket("1.2.3.4")
        assert await a.open_socket("1.2.3.4")
        await a.close_socket("1.2.3.4")
        await a.close_socket("1.2.3.4")
        assert await c.open_socket("9.9.9.9") and await c.open_socket("9.9.9.9")
        assert not await a.open_socket("9.9.9.9")
        await hub.r.delete("belote:alive:C")  # C died with its two sockets: its mark of life expired
        assert await a.open_socket("9.9.9.9") and await b.open_socket("9.9.9.9")
        assert await hub.r.hgetall("belote:limit:sockets:9.9.9.9") == {"A": "1", "B": "1"}
        await hub.close()

    with redis_server(tmp_path) as url:
        run(scenario(url))


def test_two_servers_on_one_redis_limit_a_client_once(tmp_path: Path) -> None:
    config = ServerConfig(pace=0.0, table_rate=(3, 60.0), sockets_per_address=2)
    with redis_server(tmp_path) as url:
        app_a = create_app(db_path=tmp_path / "a.sqlite3", config=config, redis_url=url)
        app_b = create_app(db_path=tmp_path / "b.sqlite3", config=config, redis_url=url)
        with serve_in_thread(app_a) as a, serve_in_thread(app_b) as b:
            for base in (a, a, b):
                post(base, "/api/solo", FAST)
            for base in (a, b):
                try:
                    post(base, "/api/solo", FAST)
                    raise AssertionError("a fourth table in a minute was made")
                except urllib.error.HTTPError as e:
                    assert e.code == 429
                    body = json.loads(e.read())
                    assert (body["code"], body["args"]) == ("too_many_tables", {"count": 3, "seconds": 60})

            async def sockets() -> dict[str, Any]:
                async with (
                    connect(a.replace("http", "ws") + "/ws") as one,
                    connect(b.replace("http", "ws") + "/ws") as two,
                ):
                    for ws in (one, two):  # answered: each is counted
                        await ws.send(json.dumps({"type": "nope"}))
                        assert json.loads(await ws.recv())["code"] == "unknown_type"
                    async with connect(a.replace("http", "ws") + "/ws") as three:
                        refused: dict[str, Any] = json.loads(await three.recv())
                        return refused

            refused = run(sockets())
            assert (refused["code"], refused["args"]) == ("too_many_sockets", {"max": 2})


def test_the_hints_of_an_address_are_counted_once_for_every_process(tmp_path: Path) -> None:
    async def scenario(url: str) -> list[bool]:
        hub = RedisLink.connect(url)
        a, b = (SharedLimits(hub.r, "belote:", p, (3, 60.0), 2, hints=(2, 60.0)) for p in ("A", "B"))

        async def hint(limits: SharedLimits, address: str) -> bool:
            return await limits.allow([("hints", limits.hints, address)]) is None

        asked = [await hint(a, "1.2.3.4"), await hint(b, "1.2.3.4"), await hint(a, "1.2.3.4")]
        asked += [await hint(b, "5.6.7.8"), await a.allow([("new", a.new, "1.2.3.4")]) is None]  # its own windows
        await hub.close()
        return asked

    with redis_server(tmp_path) as url:
        assert run(scenario(url)) == [True, True, False, True, True]
