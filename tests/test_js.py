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
from belote.contracts import Contract
from belote.game import SEATS, Match
from belote.rules import Rules
from belote.scoring import ROWS, score_contract, score_deal, score_three
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


def sheet_results() -> list[dict[str, Any]]:
    """Results of each kind, as the view gives them (with their sheet), for the deal sheet's tests
    (tests/js/dealsheet.test.mjs): the first is the capot of issue 24, drawn there word for word."""
    coinche, three = Rules(variant="coinche"), Rules(variant="three-handed")
    results = [
        score_deal(Rules(), 0, (162, 0), (8, 0), (70, 0), (20, 0), last=0),  # capot: 342
        score_deal(Rules(), 0, (40, 122), (2, 6), (50, 0), (0, 0), last=1),  # dedans with declarations
        score_deal(Rules(), 0, (81, 81), (4, 4), (0, 0), (0, 0), pending=40, last=0),  # litige
        score_deal(Rules(rounding=True), 1, (66, 96), (3, 5), (0, 0), (0, 0), pending=81, last=1),  # collected
        score_contract(coinche, Contract(100, 0, bidder=0), (106, 56), (6, 2), (0, 0), (20, 0), last=0),
        score_contract(coinche, Contract(80, 1, bidder=1, multiplier=4), (90, 72), (5, 3), (0, 20), (0, 0), last=0),
        score_contract(coinche, Contract(120, 1, bidder=1, multiplier=2), (70, 92), (3, 5), (0, 0), (0, 0)),
        score_three(three, 1, (90, 30, 42), (4, 2, 2), (0, 0, 20), (0, 0, 0), last=0),  # shared in defence
    ]
    return [r.to_json(sheet=True) for r in results]


def test_the_page_modules_under_node(app_client: Callable[..., TestClient], tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed for the page's module tests (Debian's package nodejs)")
    with app_client() as client:
        games = client.get("/api/games").json()
    fixture = {
        "games": games,
        "matches": [played_match(v, seed) for v in VARIANTS for seed in (1, 2)],
        "sheet_rows": list(ROWS),
        "results": sheet_results(),
    }
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
