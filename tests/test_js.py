"""The page's JavaScript modules that need no browser, run by node's own test runner (``node --test``).

The reducer's tests (tests/js/state.test.mjs) fold the events of real matches, played here by the
engine with random bots for each game, and compare what they rebuild with the engine's own deals.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.bots import make_bot
from belote.game import SEATS, Match
from belote.rules import Rules
from belote.variants import VARIANTS

ROOT = Path(__file__).resolve().parent.parent


def played_match(variant: str, seed: int) -> dict[str, Any]:
    """A whole match of random bots: its public events, and what the engine says of each deal."""
    rules = Rules(variant=variant, target=300)
    match = Match(rules, seed=seed)
    bots = [make_bot("random", seed=seed * 10 + s) for s in range(rules.players)]
    while not match.over:
        seat = match.to_move
        assert seat is not None
        match.apply(bots[seat].act(match.view(seat)))
    names = rules.team_names
    deals = []
    for deal in match.deals:
        result = deal.result
        deals.append(
            {
                "tricks": len(deal.tricks),
                "winners": [SEATS[t.winner] for t in deal.tricks],
                "points": dict(zip(names, result.points, strict=True)) if result else None,
                "outcome": result.outcome if result else None,
            }
        )
    return {
        "variant": variant,
        "events": match.events(0),
        "deals": deals,
        "winner": names[match.winner] if match.winner is not None else None,
    }


def test_the_page_modules_under_node(app_client: Callable[..., TestClient], tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed for the page's module tests (Debian's package nodejs)")
    with app_client() as client:
        games = client.get("/api/games").json()
    fixture = {"games": games, "matches": [played_match(v, seed) for v in VARIANTS for seed in (1, 2)]}
    path = tmp_path / "fixture.json"
    path.write_text(json.dumps(fixture))
    run = subprocess.run(
        [node, "--test", *sorted(str(p) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))],
        cwd=ROOT,
        env={**os.environ, "BELOTE_FIXTURE": str(path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert "# fail 0" in run.stdout, run.stdout[-3000:]
