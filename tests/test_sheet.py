"""The score sheet (seed 000, "A worked deal" and "Ending": the app ends the match at the line)."""

from __future__ import annotations

import pytest

from belote.rules import Rules
from belote.scoring import score_deal
from belote.sheet import (
    FORMAT,
    MAX_ENTRIES,
    Entry,
    EntryError,
    MatchOverError,
    NothingToUndo,
    Sheet,
    SheetError,
)

NS, EW = 0, 1


def worked_match() -> Sheet:
    return Sheet(names=("Alice & Cara", "Ben & Dev"), start=(210, 176))


# --- seed 000's worked match ----------------------------------------------------------------------


def test_the_worked_match_exactly() -> None:
    sheet = worked_match()
    assert sheet.score == (210, 176) and not sheet.over

    # Alice takes hearts; 108 card points with belote to 54: 128 and 54, 338 to 230.
    r = sheet.add(Entry(takers=NS, cards=108, belote=NS))
    assert (r.outcome, r.cards, r.points) == ("made", (108, 54), (128, 54))
    assert sheet.score == (338, 230) and not sheet.over

    # Ben takes spades; his side makes 74 to 88: dedans, the whole 162 to Alice and Cara, 500 to 230.
    r = sheet.add(Entry(takers=EW, cards=74))
    assert (r.outcome, r.cards, r.points) == ("dedans", (88, 74), (162, 0))
    assert sheet.score == (500, 230) and not sheet.over, "one short of the line"

    # A quiet third deal at 90 to 72 ends it at 590 to 302.
    r = sheet.add(Entry(takers=NS, cards=90))
    assert (r.outcome, r.points) == ("made", (90, 72))
    assert sheet.score == (590, 302)
    assert sheet.over and sheet.winner == NS
    assert sheet.scores == [(338, 230), (500, 230), (590, 302)]


def test_no_entry_after_the_match_is_over() -> None:
    sheet = worked_match()
    for entry in (Entry(NS, 108, belote=NS), Entry(EW, 74), Entry(NS, 90)):
        sheet.add(entry)
    with pytest.raises(MatchOverError, match="no entry after the match is over: Alice & Cara won 590 to 302"):
        sheet.add(Entry(EW, 100))
    assert len(sheet.entries) == 3 and sheet.score == (590, 302)


def test_each_deal_is_the_engines_own_score() -> None:
    """The sheet adds what score_deal says, for the entry's sides, tricks, declarations and belote."""
    entry = Entry(takers=EW, cards=70, declarations=(0, 50), belote=NS)
    sheet = Sheet()
    assert sheet.add(entry) == score_deal(Rules(), 1, (92, 70), (4, 4), (0, 50), (20, 0))


# --- made, dedans, litige, capot -------------------------------------------------------------------


def test_declarations_count_in_made_or_dedans() -> None:
    sheet = Sheet()
    # 72 card points with a quarte of 50 beat 90: made.
    r = sheet.add(Entry(takers=NS, cards=72, declarations=(50, 0)))
    assert (r.outcome, r.points) == ("made", (122, 90))
    # 80 with nothing against 82 with a tierce: dedans, the defenders take 162 and every declaration.
    r = sheet.add(Entry(takers=NS, cards=80, declarations=(0, 20)))
    assert (r.outcome, r.points) == ("dedans", (0, 182))


def test_belote_is_never_lost() -> None:
    r = Sheet().add(Entry(takers=EW, cards=60, belote=EW))
    assert (r.outcome, r.points) == ("dedans", (162, 20))


def test_litige_carries_the_takers_points_to_the_winner_of_the_next_deal() -> None:
    sheet = Sheet()
    r = sheet.add(Entry(takers=NS, cards=81))
    assert (r.outcome, r.points, r.pending) == ("litige", (0, 81), 81)
    assert sheet.pending == 81 and sheet.score == (0, 81)
    # EW take next and make it: the 81 waiting go to them.
    r = sheet.add(Entry(takers=EW, cards=100))
    assert (r.outcome, r.points) == ("made", (62, 181))
    assert sheet.pending == 0 and sheet.score == (62, 262)


def test_litige_points_go_to_the_defenders_when_the_next_deal_is_dedans() -> None:
    sheet = Sheet()
    sheet.add(Entry(takers=NS, cards=81))
    r = sheet.add(Entry(takers=NS, cards=70))
    assert (r.outcome, r.points) == ("dedans", (0, 162 + 81))


def test_two_litiges_in_a_row_wait_together() -> None:
    sheet = Sheet()
    sheet.add(Entry(takers=NS, cards=81))
    sheet.add(Entry(takers=EW, cards=81))
    assert sheet.pending == 162 and sheet.score == (81, 81)
    r = sheet.add(Entry(takers=NS, cards=120))
    assert r.points == (120 + 162, 42)


def test_litige_hold_scores_nobody() -> None:
    sheet = Sheet(Rules(litige="hold"))
    # 71 card points and belote against 91 is a tie too; belote is kept, the rest of the deal waits.
    r = sheet.add(Entry(takers=NS, cards=71, belote=NS))
    assert (r.outcome, r.points, r.pending) == ("litige", (20, 0), 162)


def test_capot_by_the_takers() -> None:
    sheet = Sheet()
    r = sheet.add(Entry(takers=NS, cards=162, declarations=(20, 0), capot=NS))
    assert (r.outcome, r.capot, r.points) == ("capot", NS, (272, 0))


def test_capot_by_the_defenders() -> None:
    sheet = Sheet()
    r = sheet.add(Entry(takers=NS, cards=0, declarations=(50, 0), belote=NS, capot=EW))
    assert (r.outcome, r.capot, r.points) == ("capot", EW, (20, 302))


def test_162_without_capot_is_a_made_deal() -> None:
    """The defenders may take a trick of sevens and eights: every card point, and no capot."""
    r = Sheet().add(Entry(takers=NS, cards=162))
    assert (r.outcome, r.capot, r.points) == ("made", None, (162, 0))


def test_rounded_scores() -> None:
    r = Sheet(Rules(rounding=True)).add(Entry(takers=NS, cards=85))
    assert r.points == (80, 80)


def test_a_number_of_deals() -> None:
    sheet = Sheet(Rules(deals=2))
    sheet.add(Entry(takers=NS, cards=100))
    assert not sheet.over
    sheet.add(Entry(takers=NS, cards=100))
    assert sheet.over and sheet.winner == NS and sheet.score == (200, 124)


def test_a_tie_at_the_end_of_the_deals() -> None:
    sheet = Sheet(Rules(deals=1), start=(38, 0))
    sheet.add(Entry(takers=EW, cards=100))
    assert sheet.score == (100, 100)
    assert sheet.over and sheet.winner is None
    with pytest.raises(MatchOverError, match="a tie 100 to 100"):
        sheet.add(Entry(takers=EW, cards=100))


def test_both_past_the_line_the_higher_wins() -> None:
    sheet = Sheet(start=(480, 490))
    sheet.add(Entry(takers=NS, cards=100))
    assert sheet.score == (580, 552) and sheet.over and sheet.winner == NS


# --- undo --------------------------------------------------------------------------------------------


def test_undo_removes_the_last_entry() -> None:
    sheet = worked_match()
    sheet.add(Entry(NS, 108, belote=NS))
    sheet.add(Entry(EW, 74))
    assert sheet.undo() == Entry(EW, 74)
    assert sheet.score == (338, 230) and len(sheet.entries) == 1


def test_undo_reopens_a_finished_match() -> None:
    sheet = worked_match()
    for entry in (Entry(NS, 108, belote=NS), Entry(EW, 74), Entry(NS, 90)):
        sheet.add(entry)
    sheet.undo()
    assert not sheet.over and sheet.winner is None and sheet.score == (500, 230)
    sheet.add(Entry(EW, 100))
    assert sheet.score == (562, 330) and sheet.winner == NS


def test_undo_brings_back_the_points_waiting() -> None:
    sheet = Sheet()
    sheet.add(Entry(NS, 81))
    sheet.add(Entry(EW, 100))
    assert sheet.pending == 0
    sheet.undo()
    assert sheet.pending == 81 and sheet.score == (0, 81)


def test_undo_is_the_same_as_scoring_again() -> None:
    entries = [Entry(NS, 81), Entry(EW, 81, belote=NS), Entry(NS, 100, declarations=(20, 0)), Entry(EW, 50)]
    sheet = Sheet(entries=entries)
    sheet.undo()
    fresh = Sheet(entries=entries[:-1])
    assert (sheet.scores, sheet.results, sheet.pending) == (fresh.scores, fresh.results, fresh.pending)


def test_nothing_to_undo() -> None:
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        Sheet().undo()


# --- refused entries ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message", "code"),
    [
        ({"takers": 0, "cards": 163}, "card points must be 0 to 162, not 163", "cards"),
        ({"takers": 0, "cards": -1}, "card points must be 0 to 162", "cards"),
        ({"takers": 0, "cards": True}, "card points must be 0 to 162", "cards"),
        ({"takers": 0, "cards": 80.5}, "card points must be 0 to 162", "cards"),
        ({"takers": 2, "cards": 80}, "the takers must be NS or EW", "side"),
        ({"takers": 0, "cards": 80, "declarations": (25, 0)}, "multiples of 10", "declarations"),
        ({"takers": 0, "cards": 80, "declarations": (-20, 0)}, "declarations must be 0 to 1000", "declarations"),
        ({"takers": 0, "cards": 80, "declarations": (20, 50)}, "cannot both count", "declarations-both"),
        ({"takers": 0, "cards": 80, "belote": 3}, "belote goes to NS or EW", "side"),
        ({"takers": 0, "cards": 150, "capot": 0}, "the takers' card points are 162, not 150", "capot-cards"),
        ({"takers": 0, "cards": 162, "capot": 1}, "a capot by EW", "capot-cards"),
    ],
)
def test_impossible_entries_are_refused_with_a_reason(kwargs: dict[str, object], message: str, code: str) -> None:
    with pytest.raises(EntryError, match=message) as info:
        Entry(**kwargs)  # type: ignore[arg-type]
    assert info.value.code == code
    assert isinstance(info.value, ValueError)


def test_sans_annonces_refuses_declarations_and_keeps_the_sheet() -> None:
    sheet = Sheet(Rules(declarations=False))
    with pytest.raises(EntryError, match="without declarations"):
        sheet.add(Entry(NS, 100, declarations=(20, 0)))
    assert sheet.entries == [] and sheet.score == (0, 0)
    assert sheet.add(Entry(NS, 100, belote=NS)).points == (120, 62)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"names": ("Us", "us")}, "different names"),
        ({"names": ("", "Them")}, "a team name has 1 to 40"),
        ({"names": ("x" * 41, "Them")}, "a team name has 1 to 40"),
        ({"start": (-5, 0)}, "a starting score is a whole number"),
        ({"start": (501, 0)}, "the starting score 501-0 is already at the line of 501"),
    ],
)
def test_impossible_sheets_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SheetError, match=message):
        Sheet(**kwargs)  # type: ignore[arg-type]


def test_names_are_tidied_and_renamed() -> None:
    sheet = Sheet(names=("  Alice   & Cara ", "Ben & Dev"))
    assert sheet.names == ("Alice & Cara", "Ben & Dev")
    sheet.rename(("Nous", "Eux"))
    assert sheet.names == ("Nous", "Eux")
    with pytest.raises(SheetError):
        sheet.rename(("Nous", "nous"))
    assert sheet.names == ("Nous", "Eux")


def test_a_sheet_has_a_limit() -> None:
    sheet = Sheet(Rules(litige="hold"))
    for _ in range(MAX_ENTRIES):
        sheet.add(Entry(NS, 81))
    with pytest.raises(SheetError, match="at most"):
        sheet.add(Entry(NS, 81))


# --- JSON and the store ------------------------------------------------------------------------------


def test_entry_from_json() -> None:
    assert Entry.from_dict(
        {"takers": "NS", "cards": 108, "declarations": {"NS": 0, "EW": 0}, "belote": "NS", "capot": None}
    ) == Entry(NS, 108, belote=NS)
    assert Entry.from_dict({"takers": "ew", "cards": 0, "declarations": [0, 20]}) == Entry(EW, 0, (0, 20))
    assert Entry.from_dict({"takers": "NS", "capot": "EW", "cards": None}) == Entry(NS, 0, capot=EW)
    assert Entry.from_dict({"takers": 1, "cards": 90, "belote": "", "capot": ""}) == Entry(EW, 90)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"cards": 100}, "say who took"),
        ({"takers": "NE", "cards": 100}, "the takers must be NS or EW, not 'NE'"),
        ({"takers": "NS"}, "the takers' card points are missing"),
        ({"takers": "NS", "cards": "lots"}, "card points must be 0 to 162, not 'lots'"),
        ({"takers": "NS", "cards": 100, "colour": "red"}, "unknown field 'colour'"),
        ({"takers": "NS", "cards": 100, "declarations": {"N": 20}}, "by side, NS and EW"),
        ({"takers": "NS", "cards": 100, "declarations": 20}, "two values"),
        ([1, 2], "a deal must be a JSON object"),
    ],
)
def test_entry_from_bad_json(data: object, message: str) -> None:
    with pytest.raises(SheetError, match=message):
        Entry.from_dict(data)


def test_to_dict_and_from_dict_round_trip() -> None:
    sheet = Sheet(Rules(target=1000, litige="hold", rounding=True), ("Alice & Cara", "Ben & Dev"), (210, 176))
    for entry in (Entry(NS, 81), Entry(EW, 162, (0, 100), EW, EW), Entry(NS, 60, belote=NS)):
        sheet.add(entry)
    data = sheet.to_dict()
    assert data["format"] == FORMAT
    assert data["entries"][1] == {
        "takers": "EW",
        "cards": 162,
        "declarations": {"NS": 0, "EW": 100},
        "belote": "EW",
        "capot": "EW",
    }
    again = Sheet.from_dict(data)
    assert again.rules == sheet.rules and again.names == sheet.names and again.start == sheet.start
    assert again.entries == sheet.entries and again.scores == sheet.scores and again.pending == sheet.pending
    assert again.to_dict() == data


def test_from_dict_refuses_what_is_not_a_sheet() -> None:
    with pytest.raises(SheetError, match="not a score sheet"):
        Sheet.from_dict({"format": "belote-deal/1"})
    with pytest.raises(SheetError, match="rule option 'litige'"):
        Sheet.from_dict({"format": FORMAT, "rules": {"litige": "maybe"}})
    with pytest.raises(SheetError, match="unknown field 'direction'"):
        Sheet.from_dict({"format": FORMAT, "rules": {"direction": "clockwise"}})


def test_new_from_the_hosts_settings() -> None:
    sheet = Sheet.new({"deals": 12, "names": {"NS": "Nous", "EW": "Eux"}, "start": {"NS": 10, "EW": 0}})
    assert sheet.rules.deals == 12 and sheet.names == ("Nous", "Eux") and sheet.start == (10, 0)
    assert Sheet.new({}).rules == Rules()
    with pytest.raises(SheetError, match="target must be a whole number"):
        Sheet.new({"target": "lots"})
    with pytest.raises(SheetError, match="unknown field 'seats'"):
        Sheet.new({"seats": 4})


def test_to_json_has_each_result_in_words_and_the_running_total() -> None:
    sheet = worked_match()
    for entry in (Entry(NS, 108, belote=NS), Entry(EW, 74), Entry(NS, 90)):
        sheet.add(entry)
    out = sheet.to_json()
    assert [e["outcome"] for e in out["entries"]] == ["made", "dedans", "made"]
    assert [e["score"] for e in out["entries"]] == [
        {"NS": 338, "EW": 230},
        {"NS": 500, "EW": 230},
        {"NS": 590, "EW": 302},
    ]
    assert out["entries"][1]["cards"] == {"NS": 88, "EW": 74}
    assert out["entries"][1]["points"] == {"NS": 162, "EW": 0}
    assert out["names"] == {"NS": "Alice & Cara", "EW": "Ben & Dev"}
    assert (out["over"], out["winner"], out["deals"], out["score"]) == (True, "NS", 3, {"NS": 590, "EW": 302})
