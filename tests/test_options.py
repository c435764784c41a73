"""The rule options' specs (belote.rules.OPTIONS), and every place made from them: the rules' checks,
the server's settings, the deal record's rule keys, the score sheet's, the command line, GET /api/games."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import fields
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.cards import CARDS
from belote.cli_rules import option_of
from belote.record import FORMAT, RULE_KEYS, RecordError, parse
from belote.rules import GROUPS, KINDS, MATCH_OPTIONS, OPTION_SPECS, OPTIONS, OptionSpec, Rules, RulesError
from belote.server.room import (
    NOT_AT_A_TABLE,
    RULE_SETTINGS,
    TABLE_RULE_DEFAULTS,
    TABLE_SETTINGS,
    SettingsError,
    check_settings,
)
from belote.sheet import SHEET_RULES, Sheet, SheetError, sheet_rule_keys
from belote.variants import VARIANTS

#: Values of every JSON type, and near misses: a hostile client may send any of them.
JUNK: tuple[object, ...] = (None, True, False, 0, -1, 1.5, 160.0, "", "yes", "160", [], [4], {}, {"a": 1}, 10**30)


def bad_values(spec: OptionSpec) -> list[object]:
    """Values the option must refuse: junk of other types, and just outside its range."""
    if spec.kind == "int":
        assert spec.min is not None and spec.max is not None
        near: list[object] = [spec.min - 1, spec.max + 1, float(spec.min), str(spec.min)]
    elif spec.kind == "bool":
        near = [0, 1, "true"]
    else:
        near = [f"{spec.choices[0]}x", *(str(c) for c in spec.choices if not isinstance(c, str))]
    junk = [v for v in JUNK if spec.problem(v) is not None]
    return near + junk


def good_values(spec: OptionSpec) -> list[object]:
    if spec.kind == "int":
        assert spec.min is not None and spec.max is not None
        values: list[object] = [spec.min, spec.max, (spec.min + spec.max) // 2]
    elif spec.kind == "bool":
        values = [True, False]
    else:
        values = list(spec.choices)
    return [*values, None] if spec.nullable else values


def rules_with(name: str, value: object) -> dict[str, Any]:
    """The rule options that set ``name`` to ``value``, in the game that reads it."""
    games = OPTION_SPECS[name].games
    return {name: value} if games is None else {"variant": games[0], name: value}


CASES = [(spec.name, v) for spec in OPTIONS for v in good_values(spec)]
BAD = [(spec.name, v) for spec in OPTIONS for v in bad_values(spec)]


# ----------------------------------------------------------------- the specs
def test_every_option_has_one_spec_in_a_known_kind_and_group() -> None:
    assert set(OPTION_SPECS) == {f.name for f in fields(Rules)}
    assert len(OPTIONS) == len(OPTION_SPECS) == len(fields(Rules))
    types = {"bool": "bool", "int": "int"}
    for f in fields(Rules):
        spec = OPTION_SPECS[f.name]
        assert spec.kind in KINDS and spec.group in GROUPS and spec.label.startswith("settings") and spec.help
        if spec.kind == "choice":
            assert f.type in ("str", "int") and all(type(c).__name__ == f.type for c in spec.choices)
        else:
            assert f.type == types[spec.kind] + (" | None" if spec.nullable else "")


def test_the_form_order_keeps_each_group_together() -> None:
    groups = [spec.group for spec in OPTIONS]
    assert list(dict.fromkeys(groups)) == list(GROUPS)
    assert groups == sorted(groups, key=GROUPS.index)


def test_each_specs_default_is_the_rules_default() -> None:
    for spec in OPTIONS:
        assert spec.default == getattr(Rules(), spec.name)
        assert spec.problem(spec.default) is None


def test_the_games_of_an_option_are_those_that_own_it() -> None:
    assert {s.name for s in OPTIONS if s.games == ("coinche",)} == set(VARIANTS["coinche"].own_options)
    assert all(s.games is None for s in OPTIONS if s.group != "coinche")
    assert tuple(OPTION_SPECS["variant"].choices) == tuple(VARIANTS)


def test_one_range_for_the_match() -> None:
    target, deals = OPTION_SPECS["target"], OPTION_SPECS["deals"]
    assert (target.min, target.max, target.nullable) == (100, 5000, False)
    assert (deals.min, deals.max, deals.nullable) == (1, 100, True)


@pytest.mark.parametrize(("name", "value"), CASES)
def test_every_value_of_a_spec_is_accepted(name: str, value: object) -> None:
    assert getattr(Rules(**rules_with(name, value)), name) == value


@pytest.mark.parametrize(("name", "value"), BAD)
def test_a_value_outside_a_spec_is_refused_naming_the_option(name: str, value: object) -> None:
    with pytest.raises(RulesError, match=name):
        Rules(**{name: value})  # type: ignore[arg-type]


# ----------------------------------------------------------------- the server's settings
def test_the_server_takes_the_rule_options_a_table_offers() -> None:
    assert set(RULE_SETTINGS) == set(OPTION_SPECS) - set(NOT_AT_A_TABLE)
    for name in NOT_AT_A_TABLE:
        with pytest.raises(SettingsError, match=f"unknown setting '{name}'"):
            check_settings({name: OPTION_SPECS[name].default})


@pytest.mark.parametrize(("name", "value"), [(n, v) for n, v in CASES if n in RULE_SETTINGS])
def test_the_server_accepts_what_the_spec_accepts(name: str, value: object) -> None:
    assert check_settings(rules_with(name, value))[name] == value


@pytest.mark.parametrize(("name", "value"), [(n, v) for n, v in BAD if n in RULE_SETTINGS])
def test_the_server_refuses_what_the_spec_refuses(name: str, value: object) -> None:
    with pytest.raises(SettingsError, match=name):
        check_settings({name: value})


@pytest.mark.parametrize("spec", TABLE_SETTINGS, ids=lambda s: s.name)
def test_the_table_settings_have_specs_of_the_same_shape(spec: OptionSpec) -> None:
    for value in good_values(spec):
        assert check_settings({spec.name: value})[spec.name] == value
    for value in bad_values(spec):
        with pytest.raises(SettingsError, match=spec.name):
            check_settings({spec.name: value})


def test_any_json_setting_is_refused_cleanly_over_http(client: TestClient) -> None:
    for spec in (*OPTIONS, *TABLE_SETTINGS):
        if spec.name not in (*RULE_SETTINGS, *(s.name for s in TABLE_SETTINGS)):
            continue
        for value in bad_values(spec):
            r = client.post("/api/solo", json={spec.name: value})
            assert r.status_code == 400 and spec.name in r.json()["error"], (spec.name, value, r.text)


# ----------------------------------------------------------------- GET /api/games
def test_api_games_answers_the_games_and_the_specs(client: TestClient) -> None:
    answer = client.get("/api/games").json()
    assert set(answer) == {"games", "options", "table_settings", "sheet_limits", "reactions"}
    # The quick reactions a table takes: the room's list, which the table page offers in this order.
    assert answer["reactions"] == [
        "well_played", "bravo", "nice_trick", "thanks", "oops", "sorry", "hurry", "good_game"
    ]  # fmt: skip
    # The score sheet page checks an entry against the sheet's own bounds.
    assert answer["sheet_limits"] == {
        "deal_points": 162,
        "max_declarations": 1000,
        "max_start": 100000,
        "max_name": 40,
        "three_min_points": 64,
    }
    assert [g["name"] for g in answer["games"]] == list(VARIANTS)
    for g in answer["games"]:
        variant = VARIANTS[g["name"]]
        assert {k: v for k, v in g.items() if k not in ("options", "sheet_options")} == variant.describe()
        assert g["options"] == [s.name for s in OPTIONS if s.games is None or g["name"] in s.games]
        assert g["sheet_options"] == list(sheet_rule_keys(g["name"]))
    assert "surcoinche" in answer["games"][1]["options"] and "surcoinche" not in answer["games"][0]["options"]
    common = {"name", "kind", "default", "games", "label", "group", "nullable", "help"}
    for spec, out in zip(OPTIONS, answer["options"], strict=True):
        keys = {"choice": {"choices"}, "int": {"min", "max"}, "bool": set()}[spec.kind]
        shown = {"shown_with"} if spec.shown_with else set()
        table_default = {"table_default": TABLE_RULE_DEFAULTS[spec.name]} if spec.name in TABLE_RULE_DEFAULTS else {}
        assert set(out) == common | keys | shown | {"table"} | set(table_default)
        assert out == {**spec.to_json(), "table": spec.name in RULE_SETTINGS, **table_default}
    surcoinche = next(o for o in answer["options"] if o["name"] == "surcoinche")
    assert surcoinche["choices"] == [3, 4] and surcoinche["default"] == 4 and surcoinche["games"] == ["coinche"]
    # Which way a five goes only matters while scores are rounded: a form shows it under rounding.
    shown = [(o["name"], o["shown_with"]) for o in answer["options"] if "shown_with" in o]
    assert shown == [("round_five", "rounding")]
    deals = next(o for o in answer["options"] if o["name"] == "deals")
    assert deals["min"] == 1 and deals["max"] == 100 and deals["nullable"] is True and deals["default"] is None
    names = [s["name"] for s in answer["table_settings"]]
    assert names == ["strength", "speed", "hints", "lang", "turn_timer", "rated", "open"]
    assert all(set(s) - {"choices", "min", "max"} == common for s in answer["table_settings"])


@pytest.mark.app_config(turn_timer=45)
def test_api_games_gives_the_servers_turn_timer(client: TestClient) -> None:
    timer = next(s for s in client.get("/api/games").json()["table_settings"] if s["name"] == "turn_timer")
    assert timer["default"] == 45


# ----------------------------------------------------------------- the deal record
#: The record's rule keys (/work/shared/spec/deal-record.md): every option of a deal, not the match's.
RECORD_KEYS = {
    "direction", "declarations", "rounding", "litige", "undertrump", "declaration_tie", "declaration_card_reuse",
    "variant", "round_five", "belote_counts", "coinche_max_bid", "coinche_made", "coinche_failed", "surcoinche",
    "no_trump_all_trump", "generale",
}  # fmt: skip


def test_the_match_options_are_the_group_match() -> None:
    assert MATCH_OPTIONS == ("target", "deals")
    assert all(OPTION_SPECS[name].group == "match" for name in MATCH_OPTIONS)
    # A deal record keeps every other option.
    assert not set(RULE_KEYS) & set(MATCH_OPTIONS) and set(RULE_KEYS) | set(MATCH_OPTIONS) == set(OPTION_SPECS)


def record(rules: dict[str, Any]) -> dict[str, Any]:
    return {"format": FORMAT, "rules": rules, "dealer": "N", "deck": [str(c) for c in CARDS], "bids": [], "plays": []}


def test_the_record_keeps_exactly_its_rule_keys() -> None:
    assert set(RULE_KEYS) == RECORD_KEYS and len(RULE_KEYS) == len(RECORD_KEYS)
    for name in ("target", "deals"):
        with pytest.raises(RecordError, match=f"unknown rule option '{name}'"):
            parse(record({name: OPTION_SPECS[name].default}))


@pytest.mark.parametrize(("name", "value"), [(n, v) for n, v in CASES if n in RULE_KEYS])
def test_the_record_accepts_what_the_spec_accepts(name: str, value: object) -> None:
    assert getattr(parse(record(rules_with(name, value)))[0], name) == value


@pytest.mark.parametrize(("name", "value"), [(n, v) for n, v in BAD if n in RULE_KEYS])
def test_the_record_refuses_what_the_spec_refuses(name: str, value: object) -> None:
    with pytest.raises(RecordError, match=name):
        parse(record(rules_with(name, value)))


# ----------------------------------------------------------------- the score sheet
def test_each_games_sheet_holds_the_options_it_held() -> None:
    base = {"target", "deals", "litige", "rounding", "declarations", "variant", "round_five", "belote_counts"}
    assert set(sheet_rule_keys("classic")) == set(sheet_rule_keys("two-handed")) == base
    assert set(sheet_rule_keys("three-handed")) == base | {"direction"}
    assert set(sheet_rule_keys("coinche")) == base | set(VARIANTS["coinche"].own_options)
    assert set(SHEET_RULES) == base | {"direction"} | set(VARIANTS["coinche"].own_options)


def sheet_settings(name: str, value: object) -> dict[str, Any]:
    settings = rules_with(name, value)
    return {"variant": "three-handed", **settings} if name == "direction" else settings


@pytest.mark.parametrize(("name", "value"), [(n, v) for n, v in CASES if n in SHEET_RULES])
def test_the_sheet_accepts_what_the_spec_accepts(name: str, value: object) -> None:
    assert getattr(Sheet.new(sheet_settings(name, value)).rules, name) == value


@pytest.mark.parametrize(("name", "value"), [(n, v) for n, v in BAD if n in SHEET_RULES])
def test_the_sheet_refuses_what_the_spec_refuses(name: str, value: object) -> None:
    with pytest.raises(SheetError, match=name):
        Sheet.new(sheet_settings(name, value))


# ----------------------------------------------------------------- the command line
@pytest.mark.parametrize(("name", "value"), CASES)
def test_the_command_line_reads_every_value_by_the_spec(name: str, value: object) -> None:
    text = "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    assert option_of(f"{name}={text}") == (name, value)


def bad_texts(spec: OptionSpec) -> list[str]:
    texts = ["", "x", "1.5", "[]", "null" if not spec.nullable else "nil"]
    if spec.kind == "int":
        texts += [str(spec.min - 1), str(spec.max + 1)]  # type: ignore[operator]
    elif spec.kind == "bool":
        texts += ["1", "yes"]
    else:
        texts += [f"{spec.choices[0]}x"]
    return texts


@pytest.mark.parametrize(("name", "text"), [(s.name, t) for s in OPTIONS for t in bad_texts(s)])
def test_the_command_line_refuses_what_the_spec_refuses(name: str, text: str) -> None:
    with pytest.raises(RulesError, match=name):
        option_of(f"{name}={text}")


def test_the_command_line_names_a_bad_or_unknown_option() -> None:
    with pytest.raises(RulesError, match="unknown rule option 'colour'"):
        option_of("colour=red")
    with pytest.raises(RulesError, match="NAME=VALUE"):
        option_of("rounding")


def test_the_score_sheets_command_does_not_import_the_main_command() -> None:
    """The shared flags live in belote.cli_rules: belote.cli and belote.sheet_cli import it, not each other."""
    code = "import sys, belote.sheet_cli; print('belote.cli' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_game_registered_later_is_a_choice_of_the_variant_option(monkeypatch: pytest.MonkeyPatch) -> None:
    from belote.cli import build_parser, main
    from belote.variants.classic import Classic

    class Tryout(Classic):
        name = "tryout"
        title = "a game of this test"

    monkeypatch.setitem(VARIANTS, Tryout.name, Tryout())
    spec = OPTION_SPECS["variant"]
    assert "tryout" in spec.choices and list(spec.choices)[-1] == "tryout"
    assert spec.problem("tryout") is None and spec.parse("tryout") == "tryout"
    assert spec.to_json()["choices"] == list(VARIANTS)
    assert Rules(variant="tryout").game is VARIANTS["tryout"]
    assert check_settings({"variant": "tryout"})["variant"] == "tryout"
    assert main(["deal", "--seed", "1", "--option", "variant=tryout"]) == 0
    assert main(["deal", "--seed", "1", "--rules", "tryout"]) == 0
    problems = build_parser().parse_args(["problems", "--count", "1", "-o", "out.jsonl", "--game", "tryout"])
    assert problems.game == "tryout"
