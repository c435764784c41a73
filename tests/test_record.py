"""Deal records (``shared/spec/deal-record.md``): write, read, replay, and the ``belote`` command."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from belote.cards import CARDS
from belote.game import PASS, TAKE, Deal, shuffled_deck
from belote.record import RecordError, dumps, load_deal, loads, replay, to_record
from belote.rules import Rules

PACK = [str(c) for c in CARDS]  # 7S 8S ... AC, top card first
SPEC_KEYS = {"valid", "trump", "taker", "hands", "tricks", "declarations", "result", "score_after"}


def cards(text: str) -> list[str]:
    return text.split()


def base_record(**changes: Any) -> dict[str, Any]:
    """The unshuffled pack, N deals, E takes the turned J♦ (see test_game.py for the hands)."""
    record: dict[str, Any] = {
        "format": "belote-deal/1",
        "dealer": "N",
        "deck": list(PACK),
        "bids": ["take"],
        "plays": [],
    }
    record.update(changes)
    return record


def belote(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "belote.cli", *args], capture_output=True, text=True, timeout=60, cwd=cwd
    )


def replay_file(tmp_path: Path, content: str | bytes | dict[str, Any], *extra: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "deal.json"
    if isinstance(content, dict):
        content = json.dumps(content)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return belote("replay", str(path), *extra)


def random_deal(seed: int, rules: Rules | None = None, stop: int | None = None) -> Deal:
    rng = random.Random(seed)
    deal = Deal(rules or Rules(), rng.randrange(4), shuffled_deck(rng))
    while deal.phase != "done" and (stop is None or len(deal.actions) < stop):
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return deal


# --------------------------------------------------------------------------- writing and replaying
@pytest.mark.parametrize("seed", range(8))
def test_to_record_then_replay_round_trip(seed: int) -> None:
    rules = Rules(direction="counterclockwise") if seed % 2 else Rules()
    deal = random_deal(seed, rules)
    record = to_record(deal, (100, 40))
    assert loads(dumps(record)) == record
    assert record["score_before"] == {"NS": 100, "EW": 40}
    if seed % 2:
        assert record["rules"] == {"direction": "counterclockwise"}
    out = replay(record)
    assert out["valid"] is True
    assert deal.result is not None
    assert out["result"] == deal.result.to_json()
    assert out["score_after"] == {"NS": 100 + deal.result.points[0], "EW": 40 + deal.result.points[1]}
    again, score_before, error = load_deal(record)
    assert error is None and score_before == (100, 40)
    assert to_record(again, (100, 40)) == record
    assert again.events() == deal.events()


def test_replay_json_has_the_keys_of_the_spec() -> None:
    out = replay(base_record(plays=["7S", "TS", "AS", "9D"]))
    assert set(out) == SPEC_KEYS
    assert out["valid"] is True
    assert (out["trump"], out["taker"]) == ("D", "E")
    assert out["hands"] == {
        "N": cards("8H 9H TH 9D TD QC KC AC"),
        "E": cards("7S 8S 9S JH QH JD QD KD"),
        "S": cards("TS JS QS KH AH AD 7C 8C"),
        "W": cards("KS AS 7H 7D 8D 9C TC JC"),
    }
    assert len(out["tricks"]) == 1
    trick = out["tricks"][0]
    assert {k: trick[k] for k in ("leader", "cards", "winner", "points")} == {
        "leader": "E",
        "cards": ["7S", "TS", "AS", "9D"],
        "winner": "N",
        "points": 35,
    }
    assert set(out["declarations"]) == {"NS", "EW"}
    assert [d["name"] for d in out["declarations"]["EW"]["announced"]] == ["tierce", "tierce", "tierce"]
    assert [d["seat"] for d in out["declarations"]["NS"]["announced"]] == ["S", "N", "N"]
    assert out["declarations"]["NS"]["scored"] == 0  # nothing is scored before the deal is over
    assert out["result"] is None
    assert out["score_after"] == {"NS": 0, "EW": 0}


def test_replay_of_a_complete_deal() -> None:
    deal = Deal(Rules(), 0, list(range(32)))
    deal.apply(TAKE)
    while deal.phase == "play":
        deal.apply(deal.legal_actions()[0])
    out = replay(to_record(deal, (10, 20)))
    assert out["result"] == {
        "outcome": "dedans",
        "cards": {"NS": 88, "EW": 74},
        "declarations": {"NS": 60, "EW": 0},
        "belote": {"NS": 0, "EW": 20},
        "points": {"NS": 222, "EW": 20},
        "pending": 0,
    }
    assert out["declarations"]["NS"]["scored"] == 60 and out["declarations"]["EW"]["scored"] == 0
    assert out["score_after"] == {"NS": 232, "EW": 40}
    assert len(out["tricks"]) == 8 and sum(t["points"] for t in out["tricks"]) == 162


def test_a_thrown_in_record() -> None:
    out = replay(base_record(bids=["pass"] * 8, score_before={"NS": 5, "EW": 6}, pending=81))
    assert out["valid"] is True
    assert out["trump"] is None and out["taker"] is None
    assert out["result"]["outcome"] == "thrown-in"
    assert out["result"]["points"] == {"NS": 0, "EW": 0}
    assert out["result"]["pending"] == 81, "points waiting from an 81-81 deal still wait"
    assert out["score_after"] == {"NS": 5, "EW": 6}


def test_pending_points_go_to_the_winner_of_the_deal() -> None:
    deal = Deal(Rules(), 0, list(range(32)), pending=81)
    deal.apply(TAKE)
    while deal.phase == "play":
        deal.apply(deal.legal_actions()[0])
    record = to_record(deal)
    assert record["pending"] == 81
    out = replay(record)
    # E-W go down: N-S win the deal, 162 + their 60 of declarations, and the 81 waiting.
    assert out["result"]["points"] == {"NS": 222 + 81, "EW": 20}
    assert out["result"]["pending"] == 0


def test_a_card_after_a_thrown_in_deal_is_refused_for_the_right_reason() -> None:
    out = replay(base_record(bids=["pass"] * 8, plays=["7S"]))
    assert out["valid"] is False
    assert {k: out["error"][k] for k in ("key", "index", "action")} == {"key": "plays", "index": 0, "action": "7S"}
    assert "every card has been played" not in out["error"]["message"], "no card was played: it was thrown in"


def test_a_record_that_stops_early_reports_the_state_reached() -> None:
    out = replay(base_record(plays=["7S", "TS", "AS", "9D", "8H"], score_before={"NS": 7, "EW": 9}))
    assert out["valid"] is True and "error" not in out
    assert out["taker"] == "E" and out["result"] is None
    assert [t["winner"] for t in out["tricks"]] == ["N"]
    assert out["score_after"] == {"NS": 7, "EW": 9}
    bidding = replay(base_record(bids=["pass", "pass"]))
    assert bidding["valid"] is True
    assert bidding["taker"] is None and bidding["hands"] is None and bidding["tricks"] == []
    assert bidding["result"] is None


def test_an_illegal_card_reports_the_first_refused_action() -> None:
    # E takes; trick 1 E 7S S TS W AS N 9D (N trumps and wins), N leads 8H, and E, holding J♥ Q♥, plays 8S.
    out = replay(base_record(plays=["7S", "TS", "AS", "9D", "8H", "8S", "JH"]))
    assert out["valid"] is False
    assert out["error"] == {
        "key": "plays",
        "index": 5,
        "action": "8S",
        "message": "you must follow suit: ♥ was led and you hold J♥ Q♥",
    }
    assert set(out) == SPEC_KEYS | {"error"}
    assert len(out["tricks"]) == 1 and out["result"] is None


@pytest.mark.parametrize(
    ("changes", "key", "index", "action"),
    [
        ({"bids": ["pass", "take", "take"]}, "bids", 2, "take"),
        ({"bids": ["pass"] * 4 + ["D"]}, "bids", 4, "D"),  # the turned suit in the second round
        ({"bids": ["H"]}, "bids", 0, "H"),  # naming a suit in the first round
        ({"bids": ["double"]}, "bids", 0, "double"),
        ({"bids": [], "plays": ["7S"]}, "plays", 0, "7S"),
        ({"plays": ["AC"]}, "plays", 0, "AC"),  # N's card, E to lead
    ],
)
def test_refused_actions(changes: dict[str, Any], key: str, index: int, action: str) -> None:
    out = replay(base_record(**changes))
    assert out["valid"] is False
    assert {k: out["error"][k] for k in ("key", "index", "action")} == {"key": key, "index": index, "action": action}
    assert isinstance(out["error"]["message"], str) and out["error"]["message"]


def test_input_is_case_insensitive_and_10_is_a_ten_output_is_canonical() -> None:
    deck = [c.lower() for c in PACK]
    deck[11] = "10h"
    lower = base_record(dealer="n", deck=deck, bids=["TAKE"], plays=["7s", "10S", "as", "9d", "8h"])
    canonical = base_record(plays=["7S", "TS", "AS", "9D", "8H"])
    assert replay(lower) == replay(canonical)
    out = replay(lower)
    assert "TH" in out["hands"]["N"] and "10H" not in out["hands"]["N"]
    assert out["tricks"][0]["cards"] == ["7S", "TS", "AS", "9D"]
    again, _, _ = load_deal(lower)
    assert to_record(again) == canonical


def test_rules_in_a_record() -> None:
    out = replay(base_record(rules={"direction": "counterclockwise"}, dealer="E", bids=["take"], plays=["7S"]))
    assert out["valid"] and out["taker"] == "N"
    assert out["hands"]["N"] == cards("7S 8S 9S JH QH JD QD KD")
    with pytest.raises(RecordError, match="colour"):
        replay(base_record(rules={"colour": "red"}))


# --------------------------------------------------------------------------- the belote command
def test_cli_replay_valid_exit_0(tmp_path: Path) -> None:
    proc = replay_file(tmp_path, base_record(plays=["7S", "TS"]), "--json")
    assert proc.returncode == 0 and proc.stderr == ""
    out = json.loads(proc.stdout)
    assert out == replay(base_record(plays=["7S", "TS"]))
    text = replay_file(tmp_path, base_record(plays=["7S", "TS"]))
    assert text.returncode == 0 and "E takes" in text.stdout


def test_cli_replay_illegal_action_exit_1(tmp_path: Path) -> None:
    record = base_record(plays=["7S", "TS", "AS", "9D", "8H", "8S"])
    proc = replay_file(tmp_path, record, "--json")
    assert proc.returncode == 1 and proc.stderr == ""
    assert json.loads(proc.stdout)["error"] == {
        "key": "plays",
        "index": 5,
        "action": "8S",
        "message": "you must follow suit: ♥ was led and you hold J♥ Q♥",
    }
    text = replay_file(tmp_path, record)
    assert text.returncode == 1 and "plays[5]" in text.stdout


def _missing_deck() -> dict[str, Any]:
    record = base_record()
    del record["deck"]
    return record


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "not JSON"),
        (b"\xff\xfe\x00\x01garbage", "not JSON"),
        ("[1, 2, 3]", "JSON object"),
        (_missing_deck(), "'deck' is missing"),
        ({k: v for k, v in base_record().items() if k != "bids"}, "'bids' is missing"),
        (base_record(deck=["ZZ", *PACK[1:]]), "'ZZ'"),
        (base_record(plays=["ZZ"]), "'ZZ'"),
        (base_record(deck=PACK[:31]), "31 cards"),
        (base_record(deck=[*PACK[:31], "7S"]), "twice 7S"),
        (base_record(format="belote-deal/2"), "format"),
        (base_record(rules={"colour": "red"}), "colour"),
    ],
)
def test_cli_not_a_record_exit_2(tmp_path: Path, content: Any, words: str) -> None:
    for extra in (("--json",), ()):
        proc = replay_file(tmp_path, content, *extra)
        assert proc.returncode == 2
        assert proc.stdout == ""
        assert "Traceback" not in proc.stderr
        assert proc.stderr.count("\n") == 1 and proc.stderr.endswith("\n"), proc.stderr
        assert words in proc.stderr


def test_cli_unreadable_file_exit_2(tmp_path: Path) -> None:
    for path in (tmp_path / "nothing-here.json", tmp_path):
        proc = belote("replay", str(path), "--json")
        assert proc.returncode == 2 and proc.stdout == ""
        assert "Traceback" not in proc.stderr
        assert proc.stderr.count("\n") == 1 and "cannot read" in proc.stderr


def test_cli_text_replay_names_the_turned_card(tmp_path: Path) -> None:
    """The 7♠ is card 0: the report must still show it as the turned card."""
    deck = list(PACK)
    deck[0], deck[20] = deck[20], deck[0]  # 7S is now the 21st card, the one turned
    proc = replay_file(tmp_path, base_record(deck=deck, bids=["pass"] * 8))
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == "Dealer N, turned card 7♠"
    proc = replay_file(tmp_path, base_record(bids=["pass"] * 8))
    assert proc.stdout.splitlines()[0] == "Dealer N, turned card J♦"


def test_cli_deal_with_a_seed_is_reproducible_and_replays_valid(tmp_path: Path) -> None:
    first = belote("deal", "--seed", "5")
    second = belote("deal", "--seed", "5")
    assert first.returncode == 0 and first.stderr == ""
    assert first.stdout == second.stdout
    record = json.loads(first.stdout)
    assert record["format"] == "belote-deal/1"
    assert sorted(record["deck"]) == sorted(PACK)
    out = replay(record)
    assert out["valid"] is True and out["result"] is not None
    proc = replay_file(tmp_path, first.stdout, "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout) == out
    other = belote("deal", "--seed", "6")
    assert other.stdout != first.stdout


def test_cli_deal_options() -> None:
    proc = belote("deal", "--seed", "3", "--dealer", "W", "--rules", "sans-annonces", "--pretty")
    assert proc.returncode == 0
    record = json.loads(proc.stdout)
    assert record["dealer"] == "W" and record["rules"] == {"declarations": False}
    assert replay(record)["valid"] is True
    bad = belote("deal", "--rules", "nonsense")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_cli_help_lists_the_subcommands() -> None:
    proc = belote("--help")
    assert proc.returncode == 0
    assert "deal" in proc.stdout and "replay" in proc.stdout
    for sub in ("deal", "replay"):
        assert belote(sub, "--help").returncode == 0


def test_bids_pass_and_take_are_the_engine_actions() -> None:
    deal, _, error = load_deal(base_record(bids=["Pass", "take"]))
    assert error is None
    assert deal.bids == [PASS, TAKE] and deal.taker == 2
