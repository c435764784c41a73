"""Outside bots at a real ``belote serve``: the host seats them with ``bot_seat``, they join with
their tokens through ``belote.client`` (and the example program of examples/), and a whole short
match is played with the host."""

from __future__ import annotations

import asyncio
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from belote.bots import make_bot
from belote.client import TableBot, TableError, seat_bot
from belote.view import PlayerView
from netplay import Player, Server, match_over, post, run

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
SETTINGS = {"deals": 2, "strength": "easy", "speed": "fast"}


def test_outside_bots_play_a_match_at_a_real_server(tmp_path: Path) -> None:
    server = Server(tmp_path / "t.db", tmp_path / "server.log", "--pace", "0")
    server.start()
    try:
        t = post(server.base, "/api/tables", {"name": "Host", "settings": SETTINGS})
        url = server.ws_url

        async def main() -> tuple[dict[str, Any], Any, str, list[dict[str, Any]]]:
            host = Player(url, t["table"], t["token"], seed=3)
            await host.connect()
            # The host asks for a seat for a program of the line protocol: the example does it
            # with the host's token, and plays through belote.client.
            example = await asyncio.create_subprocess_exec(
                PY,
                str(ROOT / "examples" / "table_bot.py"),
                "--server",
                server.base,
                "--table",
                t["table"],
                "--host-token",
                t["token"],
                "--seat",
                "N",
                "--name",
                "Liner",
                "--exec",
                shlex.join([PY, str(ROOT / "examples" / "random_bot.py")]),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            assert example.stdout is not None
            first = await asyncio.wait_for(example.stdout.readline(), 60)  # seated before the next ask
            # A bot seat for a function of the view, and refusals of the host's requests.
            token, seat = await seat_bot(url, t["table"], t["token"], "Heuri", None)
            assert seat == "E"
            try:
                await seat_bot(url, t["table"], t["token"], "Again", "E")
            except TableError as e:
                taken = e.code
            heuristic = make_bot("heuristic", seed=1)
            seen: list[PlayerView] = []

            def decide(view: PlayerView) -> str:
                seen.append(view)
                return str(heuristic.act(view))

            bot = asyncio.create_task(TableBot(url, t["table"], token, decide).play())
            state = host.state
            assert state is not None
            while set(state["players"]) != {"S", "N", "E"}:
                state = await host.next_state()
            assert state["players"]["N"] == {"name": "Liner", "bot": True, "standin": False, "outside": True}
            await host.send({"type": "start"})
            final = await host.play(match_over, timeout=120)
            played = await asyncio.wait_for(bot, 60)
            out, err = await asyncio.wait_for(example.communicate(), 60)
            assert example.returncode == 0, err.decode()
            assert len(seen) == played.actions > 8 and played.refusals == []
            return final, played, taken + "|" + first.decode() + out.decode(), host.errors

        final, played, said, host_errors = run(main())
    finally:
        server.stop()
    taken, out = said.split("|", 1)
    assert taken == "seat_taken" and host_errors == []
    lines = out.splitlines()
    assert lines[0] == "seated at N"
    report = json.loads(lines[1])
    view = final["view"]
    assert view["match_over"] and view["deal_number"] >= 2
    assert report["score"] == view["score"] == played.state["view"]["score"] and report["actions"] > 8
    assert final["players"]["W"]["bot"] and "outside" not in final["players"]["W"]  # the server's own bot
    assert final["players"]["E"]["outside"] and not final["players"]["S"]["bot"]
