"""The line protocol of outside bots: views read back, a program in the arena seed for seed like the
bot in process, ``belote bot serve``, and ``belote bot check`` against programs broken on purpose."""

from __future__ import annotations

import io
import json
import random
import shlex
import sys
from pathlib import Path

import pytest

from belote import bot_check
from belote.actions import action_str
from belote.arena import ArenaError, Team, play_match, run_arena
from belote.bot_check import check
from belote.bot_protocol import close_idle, serve, split
from belote.bots import make_bot
from belote.cli import main
from belote.game import Match
from belote.rules import Rules, find_rules
from belote.view import PlayerView
from games import GAMES

ROOT = Path(__file__).resolve().parent.parent
PY = shlex.quote(sys.executable)
SERVE_RANDOM = f"{PY} -m belote.cli bot serve random"
EXAMPLE = f"{PY} {shlex.quote(str(ROOT / 'examples' / 'random_bot.py'))}"


def figures(result: object) -> dict[str, object]:
    """An arena's figures without what names bot A and without the clock."""
    out = result.to_json()  # type: ignore[attr-defined]
    del out["team_a"], out["decision_time"]
    return dict(out)


@pytest.mark.parametrize("variant", GAMES)
def test_view_read_back_is_the_view(variant: str) -> None:
    """Every view a seat acts on, written and read back, is the same view: a built-in bot behind
    the protocol decides on exactly what it would see in process."""
    seen = 0
    for seed in range(6):
        rng = random.Random(seed)
        match = Match(Rules(variant=variant), seed)
        while not match.over and len(match.deals) <= 3:
            seat = match.to_move
            assert seat is not None
            view = match.view(seat)
            assert PlayerView.from_json(json.loads(json.dumps(view.to_json()))) == view
            seen += 1
            match.apply(view.legal[rng.randrange(len(view.legal))], seat=seat)
    assert seen > 200


def test_serve_answers_like_the_bot_in_process() -> None:
    match = Match(find_rules("coinche"), 11)
    seat = match.to_move
    assert seat is not None
    view = match.view(seat)
    lines = [
        "belote 1",
        "hello there",  # an unknown word: ignored
        'match {"seed": 5, "seat": "N", "rules": {}, "options": {}}',
        "view " + json.dumps(view.to_json()),
        "quit",
        "view " + json.dumps(view.to_json()),  # after quit: never read
    ]
    out = io.StringIO()
    assert serve("heuristic", {}, io.StringIO("\n".join(lines) + "\n"), out) == 0
    expected = make_bot("heuristic", seed=5).act(view)
    assert out.getvalue().splitlines() == ["belote 1 heuristic", action_str(expected)]


def test_split() -> None:
    assert split('view {"a": [1]}') == ("view", {"a": [1]})
    assert split("quit\n") == ("quit", None)


def test_served_random_gives_the_arena_figures_of_random() -> None:
    """Seed for seed, the random bot behind the protocol (``belote bot serve random``) and the
    example program give the figures of the random bot played in process."""
    inline = run_arena("random", "heuristic", deals=12, seed=7, jobs=1)
    served = run_arena(Team(f"exec:{SERVE_RANDOM}"), "heuristic", deals=12, seed=7, jobs=1)
    example = run_arena("heuristic", Team(f"exec:{EXAMPLE}"), deals=12, seed=7, jobs=1)
    assert figures(served) == figures(inline)
    assert served.pairs == 13 and served.mean == inline.mean
    swapped = run_arena("heuristic", "random", deals=12, seed=7, jobs=1)
    assert figures(example) == {**figures(swapped), "team_b": {"bot": f"exec:{EXAMPLE}", "options": {}}}


def test_a_served_heuristic_bot_plays_as_in_process() -> None:
    inline = run_arena("heuristic", "random", deals=4, seed=3, rules="coinche", jobs=1)
    served = run_arena(Team(f"exec:{PY} -m belote.cli bot serve heuristic"), "random", deals=4, seed=3,
                       rules="coinche", jobs=1)  # fmt: skip
    assert figures(served) == figures(inline)


def test_what_a_program_is_told_in_a_match(tmp_path: Path) -> None:
    """The lines of a session, as a program of the arena reads them: the handshake, then for each
    match ``match``, the views, a ``deal`` line after each deal with the score after it, ``end``."""
    recorder = tmp_path / "recorder.py"
    recorder.write_text(
        "import json, os, sys\n"
        f"log = open(os.path.join({str(tmp_path)!r}, f'log-{{os.getpid()}}'), 'w')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    word, _, rest = line.strip().partition(' ')\n"
        "    if word == 'belote': print('belote 1 recorder', flush=True)\n"
        "    if word == 'view': print(json.loads(rest)['legal'][-1], flush=True)\n"
    )
    match = play_match(Rules(deals=3), 5, 0, Team(f"exec:{PY} {recorder}"), Team("random"))
    close_idle()  # both programs told quit, and waited for: they have read every line before it
    logs = sorted(tmp_path.glob("log-*"))
    assert len(logs) == 2  # N and S: a program each
    scores = [dict(zip(("NS", "EW"), s, strict=True)) for s in [*match.scores_before[1:], tuple(match.score)]]
    for path in logs:
        lines = path.read_text().splitlines()
        words = [t.partition(" ")[0] for t in lines]
        assert words[:2] == ["belote", "match"] and words[-2:] == ["end", "quit"]
        assert set(words[2:-2]) == {"view", "deal"}
        deals = [json.loads(t.partition(" ")[2]) for t in lines if t.startswith("deal ")]
        assert [d["score"] for d in deals] == scores
        assert all(d["phase"] == "done" and d["result"] is not None for d in deals)
        assert [d["match_over"] for d in deals] == [False] * (len(deals) - 1) + [True]
        end = json.loads(lines[-2].partition(" ")[2])
        assert end == {"score": scores[-1], "winner": None if match.winner is None else ("NS", "EW")[match.winner]}
        seat = json.loads(lines[1].partition(" ")[2])["seat"]
        assert seat in ("N", "S") and all(json.loads(t[5:])["seat"] == seat for t in lines if t.startswith("view "))


def test_program_in_parallel_arena_of_two_hands() -> None:
    """Worker processes start their own programs; the figures do not depend on it."""
    rules = find_rules("two-handed")
    inline = run_arena("random", "heuristic", deals=6, seed=2, rules=rules, jobs=1)
    served = run_arena(Team(f"exec:{EXAMPLE}"), "heuristic", deals=6, seed=2, rules=rules, jobs=2)
    assert figures(served) == figures(inline)


# ----------------------------------------------------------------------------- broken programs
def program(tmp_path: Path, name: str, body: str) -> str:
    """A bot program: ``body`` handles ``word`` and ``rest`` for each line after a good handshake."""
    path = tmp_path / f"{name}.py"
    path.write_text(
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    word, _, rest = line.strip().partition(' ')\n"
        "    if word == 'belote':\n"
        f"        print('belote 1 {name}', flush=True)\n"
        "        continue\n"
        "    if word == 'quit':\n"
        "        break\n" + "".join(f"    {t}\n" for t in body.strip().splitlines())
    )
    return f"{PY} {shlex.quote(str(path))}"


FIRST_LEGAL = "if word == 'view':\n    print(json.loads(rest)['legal'][0], flush=True)"


def test_check_finds_nothing_wrong_in_a_good_program() -> None:
    report = check(SERVE_RANDOM, Rules(), deals=4, seed=3)
    assert report.ok, report.text()
    assert report.name == "random" and report.deals == 4
    assert report.decisions == report.legal > 20


def test_check_reports_illegal_answers(tmp_path: Path) -> None:
    # Always the seven of spades: refused in the bidding and whenever it is not held.
    cmd = program(tmp_path, "sevens", "if word == 'view':\n    print('7S', flush=True)")
    report = check(cmd, Rules(), deals=2, seed=1)
    counts = report.counts()
    assert report.deals == 2 and not report.ok
    assert counts["bidding_not_over"] == 3  # three tries at its one bid (at deal 2, S took before E spoke)
    assert counts["refused_too_often"] == report.decisions - report.legal
    assert set(counts) <= {"bidding_not_over", "not_in_hand", "must_follow", "must_trump", "refused_too_often"}
    assert "bidding: answered '7S'" in report.text()


def test_check_reports_a_refused_answer_then_a_legal_one(tmp_path: Path) -> None:
    """Told ``refused``, a program that answers well the second time is asked again and goes on."""
    body = (
        "if word == 'refused':\n    fix = True\n"
        "if word == 'view':\n"
        "    print(json.loads(rest)['legal'][0] if globals().get('fix') else 'ZZ', flush=True)\n"
        "    fix = False"
    )
    report = check(program(tmp_path, "learner", body), Rules(), deals=1, seed=1)
    assert report.counts() == {"not_an_action": report.decisions}
    assert report.legal == 0 and report.deals == 1
    assert all(p.detail.endswith("is not an action: say pass, take, a suit letter, a contract such as 110H or 90NT, "
                                 "or a card such as JH") for p in report.problems)  # fmt: skip


def test_check_reports_a_crash_and_starts_the_program_again(tmp_path: Path) -> None:
    body = "if word == 'view':\n    print('a last word', file=sys.stderr, flush=True)\n    sys.exit(3)"
    report = check(program(tmp_path, "crasher", body), Rules(), deals=3, seed=1)
    assert report.counts() == {"crashed": 3}  # once a deal: started again for the next
    assert report.deals == 3 and report.decisions == 3
    assert "exit status 3" in report.problems[0].detail
    assert "a last word" in report.stderr


def test_check_reports_silence_as_a_timeout(tmp_path: Path) -> None:
    silent = program(tmp_path, "silent", "if word == 'view':\n    time.sleep(3600)")
    report = check(silent, Rules(), deals=2, seed=1, timeout=0.2)
    assert report.counts() == {"timeout": 2}
    assert report.problems[0].detail == "no answer within 0.2 s"


def test_check_reports_garbage(tmp_path: Path) -> None:
    # Something else at each seat (the program plays N at deal 1, E at deal 2...).
    body = (
        "if word == 'match':\n"
        "    seat = json.loads(rest)['seat']\n"
        "if word == 'view':\n"
        "    out = {'N': b'\\xff\\xfe\\n', 'E': b'\\n', 'S': b'x' * 300 + b'\\n', 'W': b'hello world\\n'}[seat]\n"
        "    sys.stdout.buffer.write(out); sys.stdout.flush()"
    )
    report = check(program(tmp_path, "garbage", body), Rules(), deals=4, seed=1)
    counts = report.counts()
    # N, E, S: the program is ended at its first line and started again for the next deal; at W, three
    # tries at each of its decisions.
    assert counts == {"bad_line": 3, "not_an_action": 3 * 8, "refused_too_often": 8}, report.text()
    assert [p.seat for p in report.problems[:3]] == ["N", "E", "S"]
    details = " / ".join(p.detail for p in report.problems)
    assert "not UTF-8" in details and "an empty line" in details and "longer than 256 bytes" in details


def test_check_reports_a_bad_handshake_and_a_program_that_does_not_start(tmp_path: Path) -> None:
    path = tmp_path / "rude.py"
    path.write_text("print('uci', flush=True)\nimport sys\nsys.stdin.read()\n")
    report = check(f"{PY} {path}", Rules(), deals=2)
    assert [p.code for p in report.problems] == ["bad_handshake"] and report.deals == 0
    assert "'uci'" in report.problems[0].detail
    missing = check(str(tmp_path / "no-such-program"), Rules(), deals=2)
    assert [p.code for p in missing.problems] == ["no_program"]


def test_check_reports_a_program_that_does_not_quit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_check, "QUIT_WAIT", 0.2)
    path = tmp_path / "stays.py"
    path.write_text(
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    word, _, rest = line.strip().partition(' ')\n"
        "    if word == 'belote': print('belote 1 stays', flush=True)\n"
        "    if word == 'view': print(json.loads(rest)['legal'][0], flush=True)\n"
        "    if word == 'quit': time.sleep(3600)\n"
    )
    report = check(f"{PY} {path}", Rules(), deals=1)
    assert [p.code for p in report.problems] == ["did_not_quit"]


def test_bot_check_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "check", EXAMPLE, "--deals", "2", "--rules", "three-handed", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is True and out["name"] == "example-random" and out["deals"] == 2
    sevens = program(tmp_path, "sevens", "if word == 'view':\n    print('7S', flush=True)")
    assert main(["bot", "check", sevens, "--deals", "1"]) == 1
    assert "problems:" in capsys.readouterr().out


def test_arena_stops_on_a_broken_program(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    crasher = program(tmp_path, "crasher", "if word == 'view':\n    sys.exit(3)")
    assert main(["arena", "--ns", f"exec:{crasher}", "--ew", "random", "--deals", "2", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert "the program ended (exit status 3)" in err and "at S, match seed 100003, deal 1" in err
    sevens = program(tmp_path, "sevens", "if word == 'view':\n    print('7S', flush=True)")
    with pytest.raises(ArenaError, match="bidding is not over"):
        run_arena(Team(f"exec:{sevens}"), "random", deals=1, jobs=1)
    talker = program(tmp_path, "talker", "if word == 'view':\n    print('hello world', flush=True)")
    with pytest.raises(ArenaError, match="3 answers in a row refused, the last: 'hello world' is not an action"):
        run_arena(Team(f"exec:{talker}"), "random", deals=1, jobs=1)
    with pytest.raises(ArenaError, match="cannot start"):
        run_arena(Team(f"exec:{tmp_path / 'nothing-here'}"), "random", deals=1, jobs=1)


def test_the_protocol_page_names_every_field_of_a_view() -> None:
    """docs/bot-protocol.md's table of a view's fields is the schema's list, no more and no less."""
    root = Path(__file__).resolve().parent.parent
    schema = json.loads((root / "src/belote/schemas/server-message.json").read_text())
    fields = set(schema["$defs"]["view"]["properties"])
    page = (root / "docs/bot-protocol.md").read_text()
    table = page.split("## The view", 1)[1].split("\n## ", 1)[0]
    named: set[str] = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            named.update(part.strip(" `") for part in first.split(","))
    assert named == fields


def test_serve_refuses_what_its_bot_does_not_take(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "serve", "oracle"]) == 2
    assert "no bot named 'oracle'; the bots are: heuristic, learned, random, search" in capsys.readouterr().err
    assert main(["bot", "serve", "learned", "--think", "2"]) == 2
    assert "the learned bot takes no --think (the search bot does)" in capsys.readouterr().err
