"""Shared fixtures: the two play-state implementations side by side.

``belote.game.Deal`` binds its base class (the C ``belote._playstate.PlayState`` or the plain
``belote.playstate.PlayState``) when ``belote.game`` is imported, so one process holds only one of
them. The other runs in a worker subprocess, started once per test session with
``BELOTE_PURE_PYTHON`` set (or unset), that executes the source of self-contained functions sent to
it and answers in JSON.

``engines`` maps ``"c"`` and ``"pure"`` to an ``Engine``; ``impl`` is the same, parametrised so that
a test taking it runs under both. ``Engine.run(func, *args)`` calls ``func(*args)`` under that
implementation: in this process when it is the one loaded here, else in the worker. ``func`` must be
a module-level function that imports what it needs inside its body, and its result must be JSON.
``play_game`` below is the common one: a random game with its legal sets, views, events and record.

The server's tests open the app through one factory: ``app_client(path=None, **config)`` is a
Starlette ``TestClient`` (open it with ``with``: the app's lifespan runs inside) of the app that
``belote.server.app.create_app`` makes on the SQLite file ``path`` (the test's ``db`` by default, so
that a second client on it is the server started again), with ``ServerConfig(**config)``.
``client`` is that app open for the test, with the config of its ``app_config`` marker
(``pytestmark = pytest.mark.app_config(pace=0.0)`` for a whole file).
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from starlette.testclient import TestClient

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the tests' helper modules (netplay)

WORKER = r"""
import json, sys, traceback
import belote.game
sources = {}
print(json.dumps({"impl": belote.game.PlayState.__module__}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    try:
        name = request["name"]
        if name not in sources or sources[name][0] != request["source"]:
            namespace = {}
            exec("from __future__ import annotations\n" + request["source"], namespace)
            sources[name] = (request["source"], namespace[name])
        out = {"ok": sources[name][1](*request["args"])}
    except BaseException as e:
        out = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()}
    print(json.dumps(out), flush=True)
"""

IMPL_MODULES = {"c": "belote._playstate", "pure": "belote.playstate"}


def loaded_impl() -> str:
    """The implementation ``belote.game`` uses in this process: ``"c"`` or ``"pure"``."""
    import belote.game

    module = belote.game.PlayState.__module__
    return "c" if module == IMPL_MODULES["c"] else "pure"


def env_for(name: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("BELOTE_PURE_PYTHON", None)
    if name == "pure":
        env["BELOTE_PURE_PYTHON"] = "1"
    return env


class Engine:
    """One play-state implementation: runs functions in this process or in a worker subprocess."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.proc: subprocess.Popen[str] | None = None
        self.module = IMPL_MODULES[name] if name == loaded_impl() else ""

    def __repr__(self) -> str:
        return f"Engine({self.name!r})"

    def _start(self) -> subprocess.Popen[str]:
        if self.proc is None:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", WORKER],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=env_for(self.name),
            )
            assert self.proc.stdout is not None
            hello = json.loads(self.proc.stdout.readline())
            self.module = hello["impl"]
        return self.proc

    def run(self, func: Callable[..., Any], *args: Any) -> Any:
        """``func(*args)`` under this implementation, through JSON (tuples come back as lists)."""
        if self.name == loaded_impl():
            return json.loads(json.dumps(func(*args)))
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        source = textwrap.dedent(inspect.getsource(func))
        proc.stdin.write(json.dumps({"name": func.__name__, "source": source, "args": list(args)}) + "\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.name} worker died")
        answer = json.loads(line)
        if "error" in answer:
            raise AssertionError(f"{self.name} worker: {answer['error']}\n{answer['traceback']}")
        return answer["ok"]

    def implementation(self) -> str:
        """The module of the PlayState this engine runs on."""
        if self.name != loaded_impl():
            self._start()
        return self.module

    def close(self) -> None:
        if self.proc is not None:
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
            self.proc.stdout.close()
            self.proc = None


@pytest.fixture(scope="session")
def engines() -> Iterator[dict[str, Engine]]:
    both = {"c": Engine("c"), "pure": Engine("pure")}
    yield both
    for engine in both.values():
        engine.close()


@pytest.fixture(scope="session", params=["c", "pure"])
def impl(request: pytest.FixtureRequest, engines: dict[str, Engine]) -> Engine:
    engine = engines[request.param]
    assert engine.implementation() == IMPL_MODULES[request.param]
    return engine


def play_game(seed: int, rules: dict[str, Any], check_undo: bool) -> dict[str, Any]:
    """A deal played by seeded random legal actions, and everything public about it.

    Returns the record and its replay, each step's player and legal actions, every seat's view and
    the events at the end, and under ``leaks`` whatever a view showed that it should not. With
    ``check_undo`` each action is also applied to a copy, undone, and the steps where undo or copy
    did not give back the exact state are listed under ``undo_mismatch``.
    """
    import random

    from belote.game import SEATS, Deal, action_str, shuffled_deck
    from belote.record import replay, to_record
    from belote.rules import Rules

    def snapshot(deal: Deal) -> Any:
        return {
            "views": [deal.view(s).to_json() for s in (0, 1, 2, 3, None)],
            "events": deal.events(),
            "legal": [action_str(a) for a in deal.legal_actions()],
            "hands": deal.hands,
            "record": to_record(deal),
        }

    def cards_in(obj: Any) -> set[str]:
        if isinstance(obj, str):
            return {obj} if len(obj) == 2 and obj[0] in "789TJQKA" and obj[1] in "SHDC" else set()
        values = obj.values() if isinstance(obj, dict) else obj if isinstance(obj, list) else ()
        return set().union(set(), *(cards_in(v) for v in values))

    def leaks(deal: Deal) -> list[str]:
        """What a view shows that it should not: another seat's card, or legal actions out of turn."""
        out = []
        for seat in (0, 1, 2, 3, None):
            view = deal.view(seat).to_json()
            name = "spectator" if seat is None else SEATS[seat]
            if seat is not None and view["hand"] != [str(c) for c in deal.hand(seat)]:
                out.append(f"{name}: hand {view['hand']}")
            if view["legal"] and (seat is None or seat != deal.to_move or deal.phase == "done"):
                out.append(f"{name}: legal actions out of turn {view['legal']}")
            others = {str(c) for o in range(4) if o != seat for c in deal.hand(o)}
            allowed = {view["turned"]} | {c for d in view["declarations"] for c in d["cards"]}
            shown = (cards_in(view) & others) - allowed
            if shown:
                out.append(f"{name}: sees {sorted(shown)} of another seat at step {len(deal.actions)}")
        return out

    rng = random.Random(seed)
    deal = Deal(Rules.from_dict(rules), rng.randrange(4), shuffled_deck(rng))
    steps = []
    undo_mismatch = []
    seen_leaks = []
    while deal.phase != "done":
        seen_leaks += leaks(deal)
        legal = deal.legal_actions()
        hand = [str(c) for c in deal.hand(deal.to_move)]
        action = legal[rng.randrange(len(legal))]
        steps.append(
            {
                "phase": deal.phase,
                "seat": SEATS[deal.to_move],
                "hand": hand,
                "legal": [action_str(a) for a in legal],
                "action": action_str(action),
            }
        )
        if check_undo:
            before = snapshot(deal)
            copy = deal.copy()
            deal.apply(action)
            copy_same = snapshot(copy) == before
            undone = deal.undo()
            if undone != action or snapshot(deal) != before or not copy_same:
                undo_mismatch.append(len(steps) - 1)
        deal.apply(action)
    seen_leaks += leaks(deal)
    record = to_record(deal)
    result = deal.result
    assert result is not None
    return {
        "record": record,
        "replay": replay(record),
        "steps": steps,
        "views": [deal.view(s).to_json() for s in (0, 1, 2, 3, None)],
        "events": deal.events(),
        "result": result.to_json(),
        "declarations": list(result.declarations),
        "takers": result.takers,
        "tricks": [[t.leader, list(t.cards), t.winner, t.points] for t in deal.tricks],
        "undo_mismatch": undo_mismatch,
        "leaks": seen_leaks,
    }


@pytest.fixture(scope="session")
def random_game() -> Callable[..., dict[str, Any]]:
    """``play_game`` itself, for tests that run it under an ``Engine``."""
    return play_game


# ----------------------------------------------------------------- the app
@pytest.fixture
def db(tmp_path: Path) -> Path:
    """The SQLite file of the test's app."""
    return tmp_path / "belote.sqlite3"


@pytest.fixture
def app_client(db: Path) -> Iterator[Callable[..., TestClient]]:
    """``app_client(path=None, **config)``: a TestClient of the app on ``db`` with ``ServerConfig(**config)``.

    The apps' SQLite files are closed after the test (an app leaves its store open when it stops).
    """
    from starlette.testclient import TestClient

    from belote.server.app import create_app
    from belote.server.tables import ServerConfig

    opened: list[Any] = []

    def open_app(path: str | Path | None = None, **config: Any) -> TestClient:
        app = create_app(db_path=path or db, config=ServerConfig(**config))
        opened.append(app)
        return TestClient(app)

    yield open_app
    for app in opened:
        app.state.store.close()


@pytest.fixture
def client(request: pytest.FixtureRequest, app_client: Callable[..., TestClient]) -> Iterator[TestClient]:
    """The app open for the test, with the ``ServerConfig`` fields of the test's ``app_config`` marker."""
    marker = request.node.get_closest_marker("app_config")
    with app_client(**(marker.kwargs if marker else {})) as c:
        yield c
