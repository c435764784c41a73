"""The deployment example for real: deploy/run-two.sh starts one redis-server, two ``belote serve
--redis`` processes and nginx (Debian's package) in front of them. A private table of four scripted
people plays through the proxy (HTTP and websockets) while one backend is killed (SIGKILL): the
table goes on through the other with nothing lost or doubled. The Host the proxy passes on is
checked by the backends; the proxy limits each client address and closes a request too slow.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.asyncio.client import connect

from netplay import Player, State, events_seen, free_port, match_over, post, private_table, redis_replayed, run

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
QUICK = {"strength": "easy", "turn_timer": 600, "deals": 2}


@dataclass
class Deployment:
    run: Path
    port: int
    redis_port: int

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def pid(self, name: str) -> int:
        return int((self.run / f"{name}.pid").read_text())


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        pytest.fail("no nginx: install Debian's package nginx (./scripts/test does)")
    ports = {name: free_port() for name in ("PORT", "PORT_A", "PORT_B", "REDIS_PORT")}
    env = {
        **os.environ,
        **{k: str(v) for k, v in ports.items()},
        "BELOTE": f"{sys.executable} -m belote.cli",
        "BELOTE_SERVE_ARGS": "--pace 0 --turn-timer 600",
        "HOST_NAME": "belote.example",
        "PYTHONUNBUFFERED": "1",
    }
    script = subprocess.Popen(
        ["bash", str(DEPLOY / "run-two.sh"), str(tmp_path / "run")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    assert script.stdout is not None
    said = []
    for line in script.stdout:  # ends when the script exits: it gives up after 30 s
        said.append(line.decode())
        if line.startswith(b"ready: "):
            break
    else:
        pytest.fail(f"deploy/run-two.sh did not start: {''.join(said)}")
    try:
        yield Deployment(tmp_path / "run", ports["PORT"], ports["REDIS_PORT"])
    finally:
        script.send_signal(signal.SIGTERM)  # the script stops its four processes (kills them after 10 s)
        try:
            script.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(script.pid, signal.SIGKILL)
            script.wait(timeout=10)


def test_a_table_plays_through_the_proxy_while_one_backend_is_killed(deployment: Deployment) -> None:
    d = deployment
    table, tokens = private_table(d.base, 4, QUICK)
    sheet = post(d.base, "/api/sheets", {"names": ["Alice & Cara", "Ben & Dev"]})

    def tricks_done(n: int) -> Any:
        def done(state: State) -> bool:
            view = state["view"]
            return view is not None and (len(view["tricks"]) >= n or view["match_over"])

        return done

    async def play() -> tuple[list[Player], list[State], list[str]]:
        # The page's own origin passes the proxy (it keeps the Host); another site's does not.
        async with connect(d.ws_url, origin=d.base) as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "join", "table": table["table"], "token": tokens["S"]}))
            own = json.loads(await ws.recv())["type"]
        async with connect(d.ws_url, origin="http://elsewhere.example") as ws:  # type: ignore[arg-type]
            foreign = json.loads(await ws.recv())["code"]
        # Four sockets one after another: nginx's round robin puts two on each backend.
        players = [Player(d.ws_url, table["table"], token=tok, seed=i) for i, tok in enumerate(tokens.values())]
        for p in players:
            await p.connect()
        await players[0].send({"type": "start"})
        await asyncio.gather(*(p.play(tricks_done(2)) for p in players))
        os.kill(d.pid("a"), signal.SIGKILL)  # mid-deal
        ends = await asyncio.gather(*(p.play_reconnecting(match_over, [d.ws_url]) for p in players))
        for p in players:
            await p.close()
        return players, list(ends), [own, foreign]

    players, ends, (own, foreign) = run(play())
    assert (own, foreign) == ("state", "bad_origin")
    assert sum(p.reconnects > 0 for p in players) == 2  # the two on the killed backend came back
    r = redis.Redis(port=d.redis_port)
    match = redis_replayed(r, table["table"])  # the stored log replays from its first action
    assert match.over
    for p in players:
        assert not p.errors, p.errors
        seen = events_seen(p)  # one event per number, whichever backend sent it
        assert [[n, e] for n, e in match.events()] == [[n, seen[n]] for n in sorted(seen)]  # none missing
    score = dict(zip(ends[0]["view"]["score"], match.score, strict=True))
    assert all(s["view"]["score"] == score for s in ends)
    r.close()
    # The score sheet made before the kill is served by the backend left.
    got = post(d.base, f"/api/sheets/{sheet['id']}/deals", {"takers": "NS", "cards": 108, "belote": "NS"})
    assert got["names"] == {"NS": "Alice & Cara", "EW": "Ben & Dev"} and got["score"] == {"NS": 128, "EW": 54}
    # The Host passes the proxy as the client gave it: the public name is the backends', another is not.
    assert [health(d.port, host)[0] for host in ("belote.example", "evil.example")] == [200, 400]


def health(port: int, host: str = "127.0.0.1", source: str = "127.0.0.1") -> tuple[int, bytes]:
    """``GET /api/health`` through the proxy from the address ``source``, naming ``host``: the status and the body."""
    with socket.socket() as sock:
        sock.settimeout(30)
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
        sock.sendall(f"GET /api/health HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_the_proxy_limits_each_address_and_closes_a_request_too_slow(deployment: Deployment) -> None:
    port = deployment.port
    flood = [health(port, source="127.0.0.2")[0] for _ in range(400)]  # faster than 20 a second
    assert set(flood) == {200, 429} and flood[:100] == [200] * 100  # the burst, then the rate
    assert health(port, source="127.0.0.3")[0] == 200  # another address is served all the same
    with socket.socket() as slow:
        slow.settimeout(60)
        slow.bind(("127.0.0.4", 0))
        slow.connect(("127.0.0.1", port))
        slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and no more
        try:
            closed = slow.recv(4096)  # by the proxy, after its client_header_timeout
        except ConnectionResetError:  # reset_timedout_connection
            closed = b""
        assert closed == b"" or closed.startswith(b"HTTP/1.1 408"), closed
