"""The learned bot (belote.bots.learned): the packaged network, its choices, and where it plays.

Its figures against the other bots are in docs/bots.md; here, what can be checked exactly: the
network read from the package gives stored scores on a fixed view, the bot plays only legal actions
to the end of matches of every game, reads nothing but its view (tests/test_bots.py re-deals the
hidden cards), and runs on numpy alone, without the research environments' packages.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from belote.actions import action_str
from belote.arena import Team, run_arena
from belote.bots import bot_options, make_bot
from belote.bots.learned import WEIGHTS, LearnedBot, Policy, policy
from belote.env import encode
from belote.game import Match
from belote.rules import Rules
from games import GAMES

DATA = Path(__file__).resolve().parent.parent / "src" / "belote" / "data"


def test_the_packaged_network() -> None:
    p = policy()
    hidden = p.b1.shape[0]
    assert p.w1.shape == (769, hidden) and p.w2.shape == (hidden, 118) and hidden == 256
    assert (DATA / WEIGHTS).stat().st_size < 600_000
    m = Match(Rules(variant="coinche"), seed=3)
    view = m.view(m.to_move)
    scores = p.scores(encode(view))
    legal = sorted(view.legal)
    top = sorted(legal, key=lambda a: -scores[a])[:3]
    assert len(legal) == 61
    assert [(action_str(a), round(float(scores[a]), 3)) for a in top] == [
        ("80S", 8.216),
        ("90S", 2.522),
        ("pass", 2.103),
    ]
    assert round(float(scores[legal].sum()), 3) == -716.565
    assert LearnedBot(seed=1).act(view) == top[0]


@pytest.mark.parametrize("game", GAMES)
def test_it_plays_matches_of_every_game_to_their_end(game: str) -> None:
    rules = Rules(variant=game, deals=3)
    for seed in range(3):
        m = Match(rules, seed=seed)
        bots = [make_bot("learned", seed=s) for s in range(rules.players)]
        while not m.over:
            seat = m.to_move
            action = bots[seat].act(m.view(seat))
            assert action in m.legal_actions()
            m.apply(action, seat=seat)


def test_at_a_temperature_it_draws_with_its_seed() -> None:
    m = Match(Rules(variant="coinche"), seed=11)
    view = m.view(m.to_move)
    drawn = [LearnedBot(seed=s, temperature=1.0).act(view) for s in range(40)]
    assert drawn == [LearnedBot(seed=s, temperature=1.0).act(view) for s in range(40)]
    assert len(set(drawn)) > 1 and set(drawn) <= set(view.legal)
    assert bot_options("learned") == ["temperature"]
    for bad in (-1, float("inf"), "hot"):
        with pytest.raises(ValueError, match="temperature must be 0 or more"):
            LearnedBot(temperature=bad)


def test_a_weights_file_of_other_shapes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.npz"
    np.savez(path, W1=np.zeros((141, 8)), b1=np.zeros(8), W2=np.zeros((8, 118)), b2=np.zeros(118))
    with pytest.raises(ValueError, match="not a policy of 769 inputs and 118 actions"):
        Policy.load(path)


def test_in_the_arena_it_beats_random() -> None:
    result = run_arena(Team("learned"), Team("random"), deals=20, seed=5, jobs=1)
    assert result.mean > 0 and result.ci95[0] > 0


def test_it_needs_numpy_alone() -> None:
    """Without gymnasium and pettingzoo (the base install), the bot reads its observation and plays."""
    code = (
        "import sys; sys.modules['gymnasium'] = None; sys.modules['pettingzoo'] = None\n"
        "from belote.bots import make_bot\nfrom belote.game import Match\n"
        "m = Match(seed=2); b = make_bot('learned', seed=1)\n"
        "while not m.over: m.apply(b.act(m.view(m.to_move)))\n"
        "print(sorted(k for k in sys.modules if k.startswith(('gymnasium.', 'pettingzoo.', 'belote.env.aec'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
