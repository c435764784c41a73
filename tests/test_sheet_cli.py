"""``belote scores``, the score sheet in a terminal, driven by scripted input."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from belote.server.store import SQLiteStore
from belote.sheet import Sheet
from belote.sheet_cli import add_parser, main

# Seed 000's worked match, one answer a line: who took, card points, declarations NS, declarations
# EW, belote (capot is only asked at 162 or 0). A side is NS or EW, 1 or 2, or a team's name.
WORKED = [
    "ns", "108", "", "", "ns",
    "ew", "74", "", "", "",
    "1", "90", "0", "0", "none",
]  # fmt: skip


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="belote")
    add_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["scores", *argv])


def run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], answers: list[str], *argv: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in answers)))
    args = parse(*argv)
    assert args.func is main, "add_parser makes main the subcommand's function"
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def stored(db: Path) -> dict[str, Sheet]:
    store = SQLiteStore(db)
    try:
        out = {}
        for i in store.sheet_ids():
            data = store.load_sheet(i)
            assert data is not None
            out[i] = Sheet.from_dict(data)
        return out
    finally:
        store.close()


def test_the_worked_match_in_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    names = ["--names", "Alice & Cara", "Ben & Dev"]
    answers = [*WORKED[:10], "alice & cara", *WORKED[11:], ""]
    code, out, _ = run(monkeypatch, capsys, answers, "--start", "210-176", "--db", str(db), *names)
    assert code == 0
    assert "Deal 1: Alice & Cara took; 108 to 54, belote Alice & Cara: made. Alice & Cara +128, Ben & Dev +54." in out
    assert "Score: Alice & Cara 338, Ben & Dev 230 (to 501)." in out
    assert "Deal 2: Ben & Dev took; 74 to 88: dedans, Alice & Cara score the deal." in out
    assert "Score: Alice & Cara 500, Ben & Dev 230 (to 501)." in out
    assert "Score: Alice & Cara 590, Ben & Dev 302 (to 501)." in out
    assert out.rstrip().endswith("Enter leaves:")
    assert "Match over: Alice & Cara win 590 to 302." in out
    (sheet,) = stored(db).values()
    assert sheet.score == (590, 302) and sheet.over and sheet.winner == 0


def test_undo_quit_and_continue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    # Two deals, an undo typed in the middle of the third, then q.
    answers = [*WORKED[:10], "ns", "u", "q"]
    code, out, _ = run(monkeypatch, capsys, answers, "--start", "210-176", "--db", str(db))
    assert code == 0
    assert "Undone: deal 2 (EW took, 74 card points)." in out
    assert "Score: NS 338, EW 230 (to 501)." in out.split("Undone")[1]
    ((sheet_id, sheet),) = stored(db).items()
    assert sheet.score == (338, 230) and len(sheet.entries) == 1
    assert f"belote scores --sheet {sheet_id} --db {db}" in out

    # Going on with the sheet: the deals so far are printed, then the last two deals end it.
    code, out, _ = run(monkeypatch, capsys, [*WORKED[5:], "q"], "--sheet", sheet_id, "--db", str(db))
    assert code == 0
    assert out.index("Deal 1: NS took; 108 to 54") < out.index("Score: NS 338, EW 230")
    assert "Match over: NS win 590 to 302." in out
    assert stored(db)[sheet_id].score == (590, 302)


def test_undo_after_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    answers = [*WORKED, "u", "ns", "100", "0", "0", "", ""]
    code, out, _ = run(monkeypatch, capsys, answers, "--start", "210-176", "--db", str(db))
    assert code == 0
    assert "Undone: deal 3" in out
    assert "Score: NS 600, EW 292 (to 501)." in out
    assert stored(db).popitem()[1].score == (600, 292)


def test_bad_answers_are_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    answers = ["north", "ns", "170", "abc", "100", "25", "20", "maybe", "", "q"]
    code, out, _ = run(monkeypatch, capsys, answers, "--db", str(db))
    assert code == 0
    assert "say NS or EW." in out
    assert "a number from 0 to 162, please." in out
    assert "a multiple of 10 from 0 to 1000, please." in out
    assert "say NS or EW (or Enter for none)." in out
    # NS declared 20, so EW was not asked: only one side's declarations count.
    assert "Declarations that count for EW" not in out
    assert "Deal 1: NS took; 100 to 62, declarations NS 20: made. NS +120, EW +62." in out


def test_capot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite3"
    answers = ["ew", "162", "0", "0", "ew", "y", "ns", "162", "0", "0", "", "n", "q"]
    code, out, _ = run(monkeypatch, capsys, answers, "--db", str(db))
    assert code == 0
    assert "Capot, all eight tricks to EW?" in out
    assert "Deal 1: EW took; 162 to 0, belote EW: capot by EW. NS +0, EW +272." in out
    assert "Deal 2: NS took; 162 to 0: made. NS +162, EW +0." in out


def test_litige_and_a_number_of_deals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    answers = ["ns", "81", "", "", "", "ew", "100", "", "", ""]
    code, out, _ = run(monkeypatch, capsys, answers, "--deals", "2", "--rules", "sans-annonces", "--db", str(db))
    assert code == 0
    assert "litige, 81 points wait for the winner of the next deal" in out
    assert "Score: NS 0, EW 81 (1 of 2 deals played, 81 points waiting)." in out
    assert "Score: NS 62, EW 262 (2 of 2 deals played)." in out
    assert "Match over: EW win 262 to 62." in out
    assert "Declarations" not in out, "sans annonces: only belote is asked"


def test_end_of_input_quits_and_keeps_the_sheet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    code, out, _ = run(monkeypatch, capsys, WORKED[:7], "--target", "1000", "--db", str(db))
    assert code == 0 and "Saved. To go on: belote scores --sheet" in out
    ((_, sheet),) = stored(db).items()
    assert sheet.rules.target == 1000 and len(sheet.entries) == 1


def test_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.sqlite3")
    code, _, err = run(monkeypatch, capsys, [], "--sheet", "nope", "--db", db)
    assert code == 2 and "no score sheet 'nope'" in err
    code, _, err = run(monkeypatch, capsys, [], "--start", "600-0", "--db", db)
    assert code == 2 and "already at the line of 501" in err
    code, _, err = run(monkeypatch, capsys, [], "--names", "Us", "us", "--db", db)
    assert code == 2 and "different names" in err
    code, _, err = run(monkeypatch, capsys, [], "--sheet", "x", "--target", "1000", "--db", db)
    assert code == 2 and "for a new sheet" in err
    with pytest.raises(SystemExit):
        parse("--start", "210:176")
    with pytest.raises(SystemExit):
        parse("--target", "1000", "--deals", "3")


def test_the_default_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "env.sqlite3"
    monkeypatch.setenv("BELOTE_DB", str(db))
    code, out, _ = run(monkeypatch, capsys, ["q"])
    assert code == 0 and f"({db})" in out
    assert len(stored(db)) == 1


# --- the other games --------------------------------------------------------------------------------------


def test_a_coinche_sheet_in_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    answers = [
        # 110 hearts by Nous, coinched, 113 card points, no declarations, belote Nous: (160 + 110) x 2 + 20.
        "110h", "nous", "coinche", "113", "", "", "nous",
        # 90 no-trumps by Eux, surcoinched (x3 here), failed at 70: belote is not asked at no-trumps.
        "nonsense", "90NT", "ew", "maybe", "surcoinche", "70", "", "",
        "",
    ]  # fmt: skip
    argv = ("--rules", "coinche", "--option", "surcoinche=3", "--target", "1000", "--names", "Nous", "Eux")
    code, out, _ = run(monkeypatch, capsys, answers, *argv, "--db", str(db))
    assert code == 0
    assert "Nous against Eux, to 1000 (coinche)." in out
    assert "Deal 1: Nous bid 110 hearts, coinched; 113 to 49, belote Nous: made. Nous +560, Eux +0." in out
    assert "a contract such as 80S, 110H, 90NT, 160AT or capotD, please." in out
    assert "none or coinche or surcoinche, please." in out
    assert "Deal 2: Eux bid 90 no trumps, surcoinched; 70 to 92: failed, Nous score the deal. Nous +750, Eux +0." in out
    assert "Match over: Nous win 1310 to 0." in out
    assert out.count("Belote?") == 1
    (sheet,) = stored(db).values()
    assert sheet.rules.variant == "coinche" and sheet.rules.surcoinche == 3 and sheet.score == (1310, 0)


def test_a_three_handed_sheet_in_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    answers = [
        # Ann deals (Enter: the first player), Bob takes; 50, 40, 35; Bob declares a tierce, so the
        # defenders are not asked; no belote: Bob has 60 against 85, dedans, Ann and Cy share 145.
        "", "bob", "50", "40", "35", "20", "",
        # Bob deals next (Enter); Cy takes every trick: 125 card points, capot.
        "", "3", "0", "0", "125", "", "", "", "", "y",
        "q",
    ]  # fmt: skip
    argv = ("--rules", "three-handed", "--names", "Ann", "Bob", "Cy", "--start", "10-20-30")
    code, out, _ = run(monkeypatch, capsys, answers, *argv, "--db", str(db))
    assert code == 0
    assert "Ann, Bob and Cy, to 501 (three-handed)." in out
    assert "Score: Ann 10, Bob 20, Cy 30 (to 501)." in out
    assert "Deal 1. Who dealt? (Ann / Bob / Cy) [Ann]: " in out
    assert "Declarations that count for Ann" not in out.split("Deal 2.")[0]
    assert "Deal 1: Bob took (Ann dealt); Ann 50, Bob 40, Cy 35, declarations Bob 20: dedans, Ann and Cy share " in out
    assert "Ann +72, Bob +0, Cy +73." in out
    assert "Deal 2. Who dealt? (Ann / Bob / Cy) [Bob]: " in out
    assert "Capot, every trick to Cy?" in out
    assert "Deal 2: Cy took (Bob dealt); Ann 0, Bob 0, Cy 125: capot by Cy. Ann +0, Bob +0, Cy +215." in out
    assert "Score: Ann 82, Bob 20, Cy 318 (to 501)." in out
    (sheet,) = stored(db).values()
    assert sheet.score == (82, 20, 318)


def test_a_two_handed_sheet_in_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    answers = ["alice", "162", "", "y", "q"]
    code, out, _ = run(
        monkeypatch, capsys, answers, "--rules", "two-handed", "--names", "Alice", "Ben", "--db", str(db)
    )
    assert code == 0
    assert "Declarations" not in out, "nothing is declared at two hands"
    assert "Capot, all sixteen tricks to Alice?" in out
    assert "Deal 1: Alice took; 162 to 0: capot by Alice. Alice +252, Ben +0." in out


def test_errors_of_the_other_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "s.sqlite3")
    code, _, err = run(monkeypatch, capsys, [], "--rules", "three-handed", "--names", "A", "B", "--db", db)
    assert code == 2 and "3 values" in err
    code, _, err = run(monkeypatch, capsys, [], "--rules", "three-handed", "--start", "1-2", "--db", db)
    assert code == 2 and "3 values" in err
    code, _, err = run(monkeypatch, capsys, [], "--option", "surcoinche", "--db", db)
    assert code == 2 and "NAME=VALUE" in err


def test_a_new_sheet_id_can_be_typed_after_sheet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An id is never drawn with a leading ``-``, which the command line read as an option (``belote
    scores --sheet -ikum...`` refused the sheet it had just told the person to continue with): the
    draws here begin with such ids, and the one given is the first that does not."""
    import belote.ids

    draws = iter(["-first", "-second", "typable", "unused"])
    monkeypatch.setattr(belote.ids.secrets, "token_urlsafe", lambda n: next(draws))
    db = tmp_path / "s.sqlite3"
    code, out, _ = run(monkeypatch, capsys, [*WORKED[:5], "q"], "--db", str(db))
    assert code == 0 and f"belote scores --sheet typable --db {db}" in out
    code, out, _ = run(monkeypatch, capsys, ["q"], "--sheet", "typable", "--db", str(db))
    assert code == 0 and "Score sheet typable" in out and "Score: NS 128, EW 54 (to 501)." in out
