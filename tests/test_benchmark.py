"""The benchmark (belote.benchmark, ``belote benchmark``): its fixed opponents, its figures, its command.

The opponents' play on fixed deals is held by fingerprints: a change to the bots that moves them fails
here, and then the benchmark's VERSION and the table of docs/bots.md must move with it.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import sys

import pytest

from belote import cli
from belote.actions import action_str
from belote.arena import ArenaError, Team, match_seed, play_seated
from belote.benchmark import GAMES, OPPONENTS, PAIRS, SEEDS, VERSION, game_rules, opponent, run_benchmark

PY = shlex.quote(sys.executable)

#: sha256 of the actions (as text, one a line) of the first deal of each game's set, every seat
#: played by the opponent: belote-bench/1's opponents as they play.
FINGERPRINTS = {
    ("classic", "random"): "c9bd17edbafd6f92",
    ("classic", "heuristic"): "c0f53d9f4a45ef98",
    ("classic", "search"): "dfcf544b46e241df",
    ("coinche", "random"): "2e43a1672c2975f7",
    ("coinche", "heuristic"): "de33cc0c9a7b4f34",
    ("coinche", "search"): "f68d65130052c14f",
    ("three-handed", "random"): "21ae9ff246b33d94",
    ("three-handed", "heuristic"): "6b9e83c833fc9743",
    ("three-handed", "search"): "94a718ec36f35926",
    ("two-handed", "random"): "39cd614d9dd375fc",
    ("two-handed", "heuristic"): "5e72e560f5ae913a",
    ("two-handed", "search"): "75a231d8628e01bb",
}


def fingerprint(game: str, name: str) -> str:
    rules = game_rules(game)
    match = play_seated(rules, match_seed(SEEDS[game], 0), 0, [opponent(name).team] * rules.players)
    text = "\n".join(action_str(a) for a in match.actions)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize(("game", "name"), sorted(FINGERPRINTS))
def test_the_opponents_play_as_the_benchmark_was_measured(game: str, name: str) -> None:
    assert fingerprint(game, name) == FINGERPRINTS[game, name], (
        f"{VERSION}'s {name} bot plays otherwise in {game}: a new version of the benchmark, and its table"
    )


def test_the_benchmark_is_every_game_against_three_fixed_opponents() -> None:
    assert VERSION == "belote-bench/1" and PAIRS == 200
    assert GAMES == ("classic", "coinche", "three-handed", "two-handed")
    assert [(o.name, o.team) for o in OPPONENTS] == [
        ("random", Team("random")),
        ("heuristic", Team("heuristic")),
        ("search", Team("search", {"prior_pool": 0})),  # a budget of nodes, not of time
    ]
    assert len(set(SEEDS.values())) == len(GAMES)
    for game in GAMES:
        rules = game_rules(game)
        assert rules.variant == game and rules.deals == 1  # each match one deal


def test_a_bot_against_itself_scores_nothing_and_against_random_a_fixed_figure() -> None:
    result = run_benchmark(
        "heuristic", games=["classic", "two-handed"], opponents=["heuristic", "random"], pairs=10, jobs=1
    )
    assert not result.complete
    figures = {(c.game, c.opponent): (round(c.result.mean, 3), c.result.pairs) for c in result.cells}
    assert figures[("classic", "heuristic")][0] == 0.0 and figures[("two-handed", "heuristic")][0] == 0.0
    assert figures[("classic", "random")] == (90.9, 10)
    assert figures[("two-handed", "random")] == (78.7, 10)
    rows = result.markdown_rows("easy")
    assert len(rows) == 2  # a row a game played, the opponents in order, one not played left empty
    assert rows[0].startswith("| easy | classic | +90.9 (") and rows[0].endswith(" | +0.0 (+0.0 .. +0.0) |  |")
    assert rows[1].startswith("| easy | two-handed | +78.7 (") and rows[1].endswith(" | +0.0 (+0.0 .. +0.0) |  |")


def test_what_the_benchmark_does_not_have_is_refused() -> None:
    with pytest.raises(ArenaError, match="no game 'belote-contree' in belote-bench/1"):
        run_benchmark("random", games=["belote-contree"], pairs=1)
    with pytest.raises(
        ArenaError, match="no opponent 'strong' in belote-bench/1; its opponents: random, heuristic, search"
    ):
        run_benchmark("random", opponents=["strong"], pairs=1)


def test_the_command_with_an_outside_program(capsys: pytest.CaptureFixture[str]) -> None:
    bot = f"exec:{PY} -m belote.cli bot serve heuristic"
    args = ["benchmark", "--bot", bot, "--game", "classic", "--opponent", "random", "--pairs", "10", "--jobs", "1"]
    assert cli.main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["benchmark"] == VERSION and out["complete"] is False and out["pairs"] == 10
    [cell] = out["cells"]
    assert (cell["game"], cell["opponent"], round(cell["mean"], 3)) == ("classic", "random", 90.9)  # as the built-in


def test_the_command_refuses_a_bad_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["benchmark", "--bot", "search", "--bot-option", "wrolds=3", "--pairs", "1"]) == 2
    assert "the search bot has no option 'wrolds'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["benchmark", "--bot", "random", "--opponent", "strong"])
    assert "invalid choice: 'strong'" in capsys.readouterr().err
