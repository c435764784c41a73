"""Training problems: one card clearly best double dummy, and the bot agrees from the seat's view."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

import schemacheck
from belote.analysis import dd_cards, margin
from belote.bots.heuristic import HeuristicBot
from belote.cards import parse_card
from belote.cli import main
from belote.problems import generate
from belote.record import load_deal, replay
from belote.rules import Rules

DOCS = Path(__file__).parent.parent / "docs"


def validator() -> jsonschema.Draft202012Validator:
    return schemacheck.validator("problem")


def test_each_problem_has_one_legal_answer_and_every_other_card_costs_at_least_20(tmp_path: Path) -> None:
    out = tmp_path / "problems.jsonl"
    assert main(["problems", "--count", "4", "--seed", "3", "-o", str(out)]) == 0
    problems = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(problems) == 4 and len({p["id"] for p in problems}) == 4
    check = validator()
    for p in problems:
        check.validate(p)
        # The position again, from the record alone: the answer is legal and the others cost 20 or more.
        deal, _score, error = load_deal(p["deal"])
        assert error is None and len(deal.plays) == p["index"]
        seat = "NESW".index(p["seat"])
        assert deal.to_move == seat
        answer = parse_card(p["answer"])
        assert answer in deal.legal_actions() and p["answer"] in p["view"]["legal"]
        dd = dd_cards(deal)
        assert dd is not None
        values = {c: margin(deal, seat, r.points) for c, (_v, r) in dd.items()}
        assert all(values[answer] - v >= 20 for c, v in values.items() if c != answer)
        assert p["cards"][p["answer"]]["cost"] == 0
        assert all(card["cost"] >= 20 for name, card in p["cards"].items() if name != p["answer"])
        assert p["bot"]["choice"] == p["answer"] and set(p["bot"]["cards"]) == set(p["view"]["legal"])
        # Not trivial: three tricks or more to play, and a rule of thumb (the heuristic bot) errs.
        assert 8 - len(p["view"]["tricks"]) >= 3 and len(p["view"]["hand"]) >= 3
        assert HeuristicBot().act(deal.view(seat)) != answer
        # The view is the seat's: its own hand, and no card of another.
        assert p["view"]["seat"] == p["seat"] and p["view"]["hand"] == [str(c) for c in deal.hand(seat)]
        hands = replay(p["deal"])["hands"]
        others = {c for s, h in hands.items() if s != p["seat"] for c in h}
        assert not others & set(p["view"]["hand"])


def test_the_same_seed_gives_the_same_problems_in_any_game() -> None:
    rules = Rules(variant="three-handed")
    first = list(generate(rules, 2, seed=5, think=0.5))
    assert first == list(generate(rules, 2, seed=5, think=0.5))
    assert [p["game"] for p in first] == ["three-handed"] * 2
    stricter = list(generate(Rules(), 1, seed=5, min_cost=60, think=0.5))
    assert all(c["cost"] >= 60 for p in stricter for n, c in p["cards"].items() if n != p["answer"])
