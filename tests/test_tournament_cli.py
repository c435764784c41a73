"""``belote tournament``: a duplicate tournament in the terminal (src/belote/tournament_cli.py).

The JSON tournament of the module's fixture (``--auto random --bots easy --field 1 --boards 2
--seed 5``, the bots' field worked out in this process) is played once and read by several tests;
the same command through ``python -c`` (the subcommand registered in ``belote``, the field worked out
in two worker processes) must print the same bytes.

Every tournament played here has easy bots and a field of one result a board (``--field 1``: the
tournament's own easy bot in the person's seat), which a heuristic bot plays in milliseconds; the
search bots of a full field (normal, strong) would take seconds a board. ``--field 3`` is checked
without playing (``Tournament``, ``field_bots``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
from typing import Any

import pytest

from belote import tournament_cli
from belote.bots import make_bot
from belote.game import Match
from belote.record import to_record
from belote.server.room import STRENGTHS, check_settings, rules_of
from belote.server.tournaments import board_settings, bot_field, play_board
from belote.tournament import FIELD, board_seed, difference, matchpoints
from belote.tournament_cli import (
    BoardGame,
    Tournament,
    build_parser,
    contract_text,
    entrants_of,
    field_bots,
    main,
    register,
)

ARGS = ["--auto", "random", "--bots", "easy", "--field", "1", "--boards", "2", "--seed", "5", "--json"]
#: The entrants in the order of the field: the person, then the first of the server's ``bot_field``
#: at easy (``--field 1``): the tournament's own easy bot.
ENTRANTS = ["you", "bot:easy:0"]
#: Answers to every prompt: "pass" to the bidding, the numbers find a legal card (the others refused).
SCRIPT = "\n".join(["pass", "1", "2", "3", "4", "5", "6", "7", "8"] * 60) + "\n"


def _run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    return code, out.getvalue()


@pytest.fixture(scope="module")
def played() -> tuple[str, dict[str, Any]]:
    code, out = _run([*ARGS, "--jobs", "0"])  # the bots' field in this process (no fork of pytest's)
    assert code == 0
    return out, json.loads(out)


def _mine(board: dict[str, Any]) -> dict[str, Any]:
    lines: list[dict[str, Any]] = [x for x in board["lines"] if x["mine"]]
    (line,) = lines
    return line


def test_the_json_of_a_tournament(played: tuple[str, dict[str, Any]]) -> None:
    out, data = played
    assert out.count("\n") == 1  # one JSON object, nothing of the play
    assert {k: data[k] for k in ("format", "game", "boards", "seed", "bots", "field")} == {
        "format": "belote-tournament-cli/1",
        "game": "classic",
        "boards": 2,
        "seed": 5,
        "bots": "easy",
        "field": 1,
    }
    assert data["person"] == {"name": "You", "seat": "S", "auto": "random"}
    assert data["entrants"] == [
        {"entrant": "you", "name": "You", "bot": None},
        {"entrant": "bot:easy:0", "name": "easy bot", "bot": {"strength": "easy", "draw": 0}},
    ]
    assert data["replay"] == "belote tournament --game classic --boards 2 --bots easy --field 1 --auto random --seed 5"
    boards = data["results"]
    assert [(b["board"], b["board_seed"], b["dealer"], b["compared"]) for b in boards] == [
        (1, 687541291, "W", 1),
        (2, 487299140, "N", 1),
    ]
    for b in boards:
        assert sorted(x["entrant"] for x in b["lines"]) == sorted(ENTRANTS)
        assert [x["score"] for x in b["lines"]] == sorted((x["score"] for x in b["lines"]), reverse=True)
        assert set(b["lines"][0]) == {
            *("entrant", "name", "mine", "bot", "trump", "contract", "multiplier", "taker", "outcome"),
            *("points", "side", "score", "rank", "percent", "difference"),
        }
    # board 1: South takes diamonds and goes down, as the easy bot in South's seat does: a tie
    one, two = _mine(boards[0]), _mine(boards[1])
    assert {k: one[k] for k in ("trump", "contract", "taker", "outcome", "points", "score", "rank")} == {
        "trump": "D",
        "contract": None,
        "taker": "S",
        "outcome": "dedans",
        "points": [0, 182],
        "score": -182.0,
        "rank": 1,
    }
    assert (one["percent"], one["difference"]) == (50.0, 0.0)  # a tie counts half
    assert [(x["entrant"], x["score"], x["rank"]) for x in boards[0]["lines"]] == [
        ("you", -182.0, 1),  # ties in the field's order, the person first
        ("bot:easy:0", -182.0, 1),
    ]
    # board 2: South takes spades and makes 159 to 23; the easy bot in South's seat makes 137 to 45
    assert {k: two[k] for k in ("trump", "taker", "outcome", "points", "score", "rank")} == {
        "trump": "S",
        "taker": "S",
        "outcome": "made",
        "points": [159, 23],
        "score": 136.0,
        "rank": 1,
    }
    assert (two["percent"], two["difference"]) == (100.0, 44.0)  # 136 - 92
    bot = boards[1]["lines"][1]
    assert {k: bot[k] for k in ("entrant", "name", "mine", "bot", "trump", "contract", "multiplier", "taker")} == {
        "entrant": "bot:easy:0",
        "name": "easy bot",
        "mine": False,
        "bot": {"strength": "easy", "draw": 0},
        "trump": "S",
        "contract": None,
        "multiplier": 1,
        "taker": "S",
    }
    assert {k: bot[k] for k in ("outcome", "points", "side", "score", "rank", "percent", "difference")} == {
        "outcome": "made",
        "points": [137, 45],
        "side": 0,
        "score": 92.0,
        "rank": 2,
        "percent": 0.0,
        "difference": -44.0,
    }
    assert data["ranking"] == [
        {
            "rank": 1,
            "entrant": "you",
            "name": "You",
            "mine": True,
            "played": 2,
            "percent": 75.0,
            "difference": 22.0,
            "percents": [50.0, 100.0],
        },
        {
            "rank": 2,
            "entrant": "bot:easy:0",
            "name": "easy bot",
            "mine": False,
            "played": 2,
            "percent": 25.0,
            "difference": -22.0,
            "percents": [50.0, 0.0],
        },
    ]


def test_matchpoints_are_worked_out_from_the_printed_results(played: tuple[str, dict[str, Any]]) -> None:
    _, data = played
    means: dict[str, list[float]] = {}
    for b in data["results"]:
        for line in b["lines"]:
            others = [x["score"] for x in b["lines"] if x is not line]
            assert len(others) == len(ENTRANTS) - 1 == b["compared"]
            assert line["percent"] == matchpoints(line["score"], others)
            assert line["difference"] == difference(line["score"], others)
            means.setdefault(line["entrant"], []).append(line["percent"])
        mine = _mine(b)
        others = [x["score"] for x in b["lines"] if not x["mine"]]
        below = sum(1 for o in others if o < mine["score"]) + sum(0.5 for o in others if o == mine["score"])
        assert mine["percent"] == 100 * below / len(others) == matchpoints(mine["score"], others)
    for row in data["ranking"]:
        assert row["percent"] == round(sum(means[row["entrant"]]) / 2, 2)


def test_a_board_is_the_deal_of_its_seed_and_the_servers_table(played: tuple[str, dict[str, Any]]) -> None:
    _, data = played
    settings = board_settings({"settings": check_settings({"variant": "classic", "strength": "easy"})})
    rules = rules_of(settings)
    name, options = STRENGTHS["easy"]
    for k, b in enumerate(data["results"]):
        seed = board_seed(5, k)
        dealt = to_record(Match(rules, seed=seed, first_dealer=seed % rules.players, one_deal=True).deals[0])
        assert (b["record"]["deck"], b["record"]["dealer"]) == (dealt["deck"], dealt["dealer"])
        # the server's table: its easy bots seeded ``seed * 7 + seat``, and --auto seeded as South's own bot
        match = Match(rules, seed=seed, first_dealer=seed % rules.players, one_deal=True)
        bots = [make_bot(name, seed=seed * 7 + s, **options) for s in range(rules.players)]
        bots[2] = make_bot("random", seed=seed * 7 + 2)
        while not match.over:
            turn = match.to_move
            assert turn is not None
            match.apply(bots[turn].act(match.view(turn)), turn)
        assert to_record(match.deals[0]) == b["record"]
        # the field's line is the server's fill-in result: its easy bot in South's seat, draw 0
        server = play_board(settings, seed, 2, "easy", 0)
        (line,) = [x for x in b["lines"] if not x["mine"]]
        assert server["score"] == line["score"]
        assert {k: server["line"][k] for k in ("trump", "contract", "taker", "outcome", "points")} == {
            k: line[k] for k in ("trump", "contract", "taker", "outcome", "points")
        }
        assert server["record"]["deck"] == b["record"]["deck"]


def test_the_same_seed_prints_the_same_through_belote(played: tuple[str, dict[str, Any]]) -> None:
    # ``belote tournament`` as cli.py will register it, the bots' field in worker processes this time
    code = (
        "import sys\n"
        "from belote import cli, tournament_cli\n"
        "if tournament_cli.register not in cli.SUBCOMMANDS:  # until cli.py registers it\n"
        "    cli.SUBCOMMANDS = (*cli.SUBCOMMANDS, tournament_cli.register)\n"
        "sys.exit(cli.main(sys.argv[1:]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, "tournament", *ARGS, "--jobs", "2"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout == played[0]


def test_a_board_played_through_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(SCRIPT))
    argv = ["--boards", "1", "--bots", "easy", "--field", "1", "--seed", "11", "--delay", "0", "--jobs", "0"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("\n=== Board 1 of 1 (classic, the bots: easy) ===\n\n--- N deals; the turned card is 9♦ ---")
    assert "Your hand:" in out and "take or pass?" in out
    assert "Refused: you must follow suit" in out  # the terminal's own refusals
    assert "North (partner): take" in out and "Deal over: capot, every trick to NS" in out
    traveller = out[out.index("Board 1 of 1, the traveller") :].splitlines()
    assert traveller[:5] == [
        "Board 1 of 1, the traveller: 2 results, each compared with the 1 other",
        "     #  Entrant   Contract  Taker  Outcome  Points          Score    MP %    Diff",
        "  >  1  You       ♦         N      capot    NS 252 - EW 20   +232  100.00  +104.0",
        "     2  easy bot  ♦         N      made     NS 155 - EW 27   +128    0.00  -104.0",
        "Your score +232: 100.00 % of the matchpoints, +104.0 to the field's mean.",
    ]
    assert traveller[5:] == [
        "",
        "The ranking after 1 board (classic, the bots: easy): mean matchpoints, then the mean difference",
        "     #  Entrant     MP %    Diff",
        "  >  1  You       100.00  +104.0",
        "     2  easy bot    0.00  -104.0",
        "",
        "Seed 11: `belote tournament --game classic --boards 1 --bots easy --field 1 --seed 11` plays the same "
        "boards again.",
    ]
    assert out.endswith("plays the same boards again.\n")


def test_quitting_says_the_seed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["--bots", "easy", "--field", "1", "--jobs", "0", "--delay", "0"]) == 1  # no --seed: one is drawn
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].endswith("? Bye.")  # after the prompt the input ended on
    words = lines[-1].split()
    seed = int(words[1].rstrip(":"))
    assert 0 <= seed < 2**31
    assert lines[-1].endswith(f"--boards 8 --bots easy --field 1 --seed {seed}` plays the same boards again.")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--boards", "0"], "argument --boards: a tournament has 1 to 16 boards, not 0"),
        (["--boards", "17"], "argument --boards: a tournament has 1 to 16 boards, not 17"),
        (["--boards", "many"], "argument --boards: 'many' is not a number of boards (1 to 16)"),
        (["--seed", "-3"], "argument --seed: a seed is a whole number, 0 or more, not -3"),
        (["--bots", "hard"], "argument --bots: invalid choice: 'hard'"),
        (["--field", "0"], "argument --field: a board's field has 1 to 8 bots' results, not 0"),
        (["--field", "9"], "argument --field: a board's field has 1 to 8 bots' results, not 9"),
        (["--field", "all"], "argument --field: 'all' is not a number of bots (1 to 8)"),
        (["--game", "tarot"], "argument --game: invalid choice: 'tarot'"),
        (
            ["--auto", "oracle"],
            "argument --auto: no bot named 'oracle'; the bots are: heuristic, learned, random, search",
        ),
        (["--lang", "fr"], "unrecognized arguments: --lang fr"),
    ],
)
def test_bad_input_is_refused(argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: belote tournament") and f"belote tournament: error: {said}" in err
    assert "Traceback" not in err


def test_bad_input_through_belote_exits_2() -> None:
    code = (
        "import sys\n"
        "from belote import cli, tournament_cli\n"
        "if tournament_cli.register not in cli.SUBCOMMANDS:  # until cli.py registers it\n"
        "    cli.SUBCOMMANDS = (*cli.SUBCOMMANDS, tournament_cli.register)\n"
        "sys.exit(cli.main())\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, "tournament", "--boards", "20"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "belote tournament: error: argument --boards: a tournament has 1 to 16 boards, not 20" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_register_adds_the_subcommand() -> None:
    parser = argparse.ArgumentParser(prog="belote")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["tournament"])
    assert args.func is tournament_cli.run
    assert (args.game, args.boards, args.seed, args.bots, args.field, args.auto, args.json) == (
        "classic",
        8,
        None,
        "normal",
        FIELD,
        None,
        False,
    )


def test_the_entrants_are_the_servers_field() -> None:
    assert [(e.id, e.name) for e in entrants_of("normal")] == [
        ("you", "You"),
        ("bot:normal:0", "normal bot"),
        ("bot:strong:0", "strong bot"),
        ("bot:easy:0", "easy bot"),
        ("bot:normal:1", "normal bot #2"),
        ("bot:strong:1", "strong bot #2"),
        ("bot:easy:1", "easy bot #2"),
        ("bot:normal:2", "normal bot #3"),
        ("bot:strong:2", "strong bot #3"),
    ]


@pytest.mark.parametrize("strength", ["easy", "normal", "strong"])
def test_the_field_is_the_first_n_of_the_servers(strength: str) -> None:
    server = bot_field({"settings": check_settings({"strength": strength})})
    assert len(server) == FIELD and server[0] == (strength, 0)
    for n in range(1, FIELD + 1):
        assert field_bots(strength, n) == server[:n]
        assert [(e.strength, e.draw) for e in entrants_of(strength, n)] == [(None, None), *server[:n]]
    assert field_bots(strength) == server
    for n in (0, FIELD + 1):
        with pytest.raises(ValueError, match="1 to 8"):
            field_bots(strength, n)


def test_a_field_of_3_at_easy() -> None:
    # what --field 3 plays and prints, without playing it: the search bots take seconds a board
    assert field_bots("easy", 3) == [("easy", 0), ("normal", 0), ("strong", 0)]
    args = build_parser().parse_args(
        ["--auto", "random", "--bots", "easy", "--field", "3", "--boards", "1", "--seed", "5"]
    )
    t = Tournament(args, args.seed)
    data = t.to_json([])
    assert data["field"] == 3
    assert [(e["entrant"], e["name"]) for e in data["entrants"]] == [
        ("you", "You"),
        ("bot:easy:0", "easy bot"),
        ("bot:normal:0", "normal bot"),
        ("bot:strong:0", "strong bot"),
    ]
    assert data["replay"] == "belote tournament --game classic --boards 1 --bots easy --field 3 --auto random --seed 5"
    bs = board_seed(5, 0)
    assert t.field_args(0) == [
        (t.settings, bs, 2, "easy", 0),
        (t.settings, bs, 2, "normal", 0),
        (t.settings, bs, 2, "strong", 0),
    ]


@pytest.mark.parametrize(("game", "seat", "players"), [("three-handed", "S", 3), ("two-handed", "N", 2)])
def test_the_person_sits_as_at_the_server(game: str, seat: str, players: int) -> None:
    args = argparse.Namespace(game=game, boards=1, bots="easy", field=1, auto="random")
    t = Tournament(args, 11)
    assert t.rules.players == players and t.to_json([])["person"]["seat"] == seat
    game_ = BoardGame(t.settings, board_seed(11, 0), None, 0.0, input, lambda _line: None)
    assert (
        game_.me == t.seat and game_.match.one_deal and sorted(game_.bots) == [s for s in range(players) if s != t.seat]
    )


def test_contracts_as_the_traveller_writes_them() -> None:
    assert contract_text({"trump": "S", "contract": None, "multiplier": 1}) == "♠"
    assert contract_text({"trump": "H", "contract": "110H", "multiplier": 2}) == "110 ♥ x2"
    assert contract_text({"trump": "AT", "contract": "capotAT", "multiplier": 1}) == "capot all trumps"
    assert contract_text({"trump": None, "contract": None, "multiplier": 1}) == "-"
