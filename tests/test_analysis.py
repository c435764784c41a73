"""The analysis of a deal: double-dummy costs in the deal's points, the par, the bot's view, the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import schemacheck
from belote import schemas
from belote.analysis import (
    PAR_BUDGET,
    AnalysisError,
    Options,
    analyse,
    best_cards,
    par,
    par_budget_for,
    read_records,
    text_report,
    view_entry,
)
from belote.bots.heuristic import HeuristicBot
from belote.bots.search import SearchBot
from belote.cards import cards_of, parse_card
from belote.cli import main
from belote.contracts import MODE_LETTERS
from belote.game import PLAY, SEATS, TAKE, Deal
from belote.knowledge import Knowledge
from belote.record import load_deal, parse, replay, to_record
from belote.rules import Rules
from belote.solver import Position, card_values, forget, nodes, value
from games import GAMES

VECTORS = Path(__file__).parent / "vectors"
DOCS = Path(__file__).parent.parent / "docs"
EXACT = Options(view=False)


def spaced(text: str) -> list[str]:
    """Cards written as in a book, one space apart."""
    return text.split()


def deck_for(hands: list[list[str]], dealer: int, taker: int, turned: str) -> list[str]:
    """The deck that deals ``hands`` (eight cards each, the turned card in the taker's) at four hands:
    three then two each from the player next to the dealer, the turned card, then three each, two to the taker."""
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    rest = {s: [c for c in hands[s] if c != turned] for s in range(4)}
    first = {s: rest[s][:5] for s in range(4)}
    deck = [c for s in order for c in first[s][:3]] + [c for s in order for c in first[s][3:5]] + [turned]
    for s in order:
        deck += rest[s][5:]
    return deck


# ----------------------------------------------------------------------------- constructed deals
def capot_record() -> dict[str, Any]:
    """N holds the eight trumps and leads them: whatever anyone plays, N and S take every trick."""
    hands = [
        spaced("JH 9H AH TH KH QH 8H 7H"),
        spaced("7S 8S 9S TS JS AD 7C 8C"),
        spaced("QS KS AS 7D 8D 9C TC JC"),
        spaced("9D TD JD QD KD QC KC AC"),
    ]
    deal = Deal(Rules(declarations=False), 3, [parse_card(c) for c in deck_for(hands, 3, 0, "QH")])
    deal.apply(TAKE)
    rng = random.Random(5)
    while deal.phase == PLAY:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return to_record(deal)


def test_a_deal_where_no_card_matters_costs_nothing_anywhere() -> None:
    record = capot_record()
    assert replay(record)["result"]["points"] == {"NS": 272, "EW": 0}  # capot 252 and belote 20
    out = analyse(record, EXACT)
    assert len(out["plays"]) == 32
    for play in out["plays"]:
        assert play["cost"] == 0
        assert sorted(play["double_dummy"]) == sorted(play["legal"])
        want = 272 if play["seat"] in "NS" else -272
        for card in play["double_dummy"].values():
            assert (card["value"], card["cost"], card["points"], card["outcome"]) == (
                want,
                0,
                {"NS": 272, "EW": 0},
                "capot",
            )
    assert {seat: s["cost"] for seat, s in out["players"].items()} == {"N": 0, "E": 0, "S": 0, "W": 0}
    assert all(s["mistakes"] == [] for s in out["players"].values())


#: Seed 18 without declarations, E takes the turned eight of spades; the solver's cards throughout,
#: but at the sixth trick W, with no trump left, throws the ace of diamonds on a trump lead.
DEDANS_RECORD: dict[str, Any] = {
    "format": "belote-deal/1",
    "rules": {"declarations": False},
    "dealer": "N",
    "deck": spaced("9C 7S TS JD 7C JC 7D 8D 8H 7H 8C TH 9S AS KS JS QS KC TD AC 8S JH QD 9H QC 9D QH AD KH KD AH TC"),
    "bids": ["take"],
    "plays": spaced("TS JS QS TH 9H 8H AH JH AC 9C QC KC 7H 9S KS QH 7S 9D KH TD 8S JD AD 8C QD JC 7D KD TC AS 7C 8D"),
}


def test_a_discard_that_loses_the_contract_costs_the_whole_swing() -> None:
    assert replay(DEDANS_RECORD)["result"]["points"] == {"NS": 162, "EW": 0}
    out = analyse(DEDANS_RECORD, EXACT)
    discard = out["plays"][22]
    assert (discard["seat"], discard["card"], discard["legal"]) == ("W", "AD", ["7D", "8D", "AD"])
    cards = discard["double_dummy"]
    # A small diamond keeps the contract: E and W make 88 to 74. The ace gives nine card points
    # away, and with them the whole deal: 162 to N and S.
    assert (cards["7D"]["card_points"], cards["AD"]["card_points"]) == (53, 44)
    assert cards["7D"]["points"] == {"NS": 74, "EW": 88} and cards["7D"]["outcome"] == "made"
    assert cards["AD"]["points"] == {"NS": 162, "EW": 0} and cards["AD"]["outcome"] == "dedans"
    assert discard["best"] == ["7D", "8D"]
    assert discard["cost"] == (88 - 74) - (0 - 162) == 176
    assert [p["cost"] for i, p in enumerate(out["plays"]) if i != 22] == [0] * 31
    assert out["players"]["W"]["cost"] == 176
    assert out["players"]["W"]["mistakes"] == [{"index": 22, "card": "AD", "cost": 176, "best": ["7D", "8D"]}]
    assert text_report(out).count("cost 176, best 7D 8D") == 1


def test_the_par_of_the_constructed_deal() -> None:
    out = analyse(DEDANS_RECORD, EXACT)
    spades = next(m for m in out["par"]["modes"] if m["trump"] == "S")
    east = next(t for t in spades["takers"] if t["taker"] == "E")
    # E taking spades, as bid, every card played double dummy: made, 88 to 74, as at the sixth trick.
    assert (east["outcome"], east["points"], east["value"]) == ("made", {"NS": 74, "EW": 88}, 14)
    assert spades["par"] == {"NS": {"taker": "N", "value": 8}, "EW": {"taker": "E", "value": 14}}
    hearts = next(m for m in out["par"]["modes"] if m["trump"] == "H")
    assert hearts["par"]["EW"] == {"taker": "W", "value": 48}
    assert out["par"]["kind"] == "takers" and [m["trump"] for m in out["par"]["modes"]] == ["S", "H", "D", "C"]


# ----------------------------------------------------------------------------- vector records
def vector_records() -> list[tuple[str, dict[str, Any]]]:
    """The records of tests/vectors whose bidding is whole and legal (their plays may be anything)."""
    out = []
    for path in sorted(VECTORS.glob("*.json")):
        if path.name.endswith(".replay.json"):
            continue
        record = json.loads(path.read_text())
        deal, _score, error = load_deal({**record, "plays": []})
        if error is None and deal.phase == PLAY:
            out.append((path.stem, record))
    return out


@pytest.mark.parametrize(("name", "record"), vector_records(), ids=[n for n, _ in vector_records()])
def test_a_deal_played_by_the_solver_costs_nothing_and_makes_its_value(name: str, record: dict[str, Any]) -> None:
    # At two hands the first tricks, half the cards face down on the table, take the solver seconds:
    # there the record's own first half is kept, and the solver plays from the ninth trick.
    deal, _score, _error = load_deal({**record, "plays": []})
    start = 0
    if deal.table_cards:
        bots = [HeuristicBot(s) for s in range(deal.players)]
        start = deal.players * deal.ntricks // 2
        for c in (parse_card(c) for c in record["plays"][:start]):
            deal.apply(c if deal.is_legal(c) else bots[deal.to_move].act(deal.view(deal.to_move)))
        while len(deal.plays) < start:
            deal.apply(bots[deal.to_move].act(deal.view(deal.to_move)))
    while deal.phase == PLAY:
        deal.apply(best_cards(deal)[0])
    # Small bounds where the deal is young at two hands: its first half may come out unsolved (null).
    out = analyse(to_record(deal), Options(view=False, limit=500_000, par_budget=500_000) if start else EXACT)
    assert out["complete"] and len(out["plays"]) == deal.players * deal.ntricks
    assert [p["cost"] for p in out["plays"][start:]] == [0] * (len(out["plays"]) - start)
    first = out["plays"][start]
    values = first["double_dummy"].values()
    result = deal.result
    assert result is not None
    camp = deal.camps[SEATS.index(first["seat"])]
    tricks = deal.tricks[start // deal.players :]
    taken = sum(t.points for t in tricks if deal.camps[t.winner] == camp)
    capot = all(deal.camps[t.winner] == camp for t in deal.tricks)
    # The solver's number is the card points the camp to move takes from there (90 more for a capot).
    assert max(v["card_points"] for v in values) == taken + (90 if capot else 0)
    if deal.players != 3:  # at three hands the defenders' split of the points is the analysis's even share
        best = first["double_dummy"][first["best"][0]]
        assert best["points"] == dict(zip(deal.rules.team_names, result.points, strict=True))


# ----------------------------------------------------------------------------- the bot's view
def test_the_view_only_evaluation_sees_nothing_but_the_view() -> None:
    """The same view with the other hands dealt again, consistently with it, gives the same evaluation."""
    rules = Rules(declarations=False)
    deal = Deal.from_seed(11, rules)
    bots = [HeuristicBot(s) for s in range(4)]
    while deal.phase != PLAY or len(deal.plays) < 9:
        deal.apply(bots[deal.to_move].act(deal.view(deal.to_move)))
    seat = deal.to_move
    view = deal.view(seat)
    assert len(view.legal) > 1
    hands = Knowledge.from_view(view).sample(random.Random(3))
    played = view.cards_played_by()
    start = [hands[s] | played[s] for s in range(4)]
    assert start != deal.start_hands  # the other hands really are others
    turned = str(deal.turned)
    assert deal.taker is not None
    deck = deck_for([[str(c) for c in cards_of(h)] for h in start], deal.dealer, deal.taker, turned)
    other = Deal(rules, deal.dealer, [parse_card(c) for c in deck])
    for action in deal.actions:
        other.apply(action)
    assert other.view(seat) == view
    bot = SearchBot(4, think=0.25)
    here, there = view_entry(view, bot), view_entry(other.view(seat), bot)
    assert here == there and here["cards"] is not None and here["worlds"] > 0
    assert set(here["cards"]) == {str(c) for c in view.legal}
    # Through the whole analysis: the bot's part of that card is the same in both deals.
    card = view.legal[0]
    deal.apply(card)
    other.apply(card)
    a = analyse(to_record(deal), Options(seed=4, think=0.25))["plays"][9]["view"]
    b = analyse(to_record(other), Options(seed=4, think=0.25))["plays"][9]["view"]
    assert {k: v for k, v in a.items() if k != "cost"} == {k: v for k, v in b.items() if k != "cost"} == here


def test_the_bot_bids_and_plays_in_the_analysis() -> None:
    out = analyse(DEDANS_RECORD, Options(seed=1, think=0.25))
    assert [b["bid"] for b in out["bids"]] == ["take"] and out["bids"][0]["seat"] == "E"
    assert out["bids"][0]["bot"] in ("take", "pass")
    for play in out["plays"]:
        view = play["view"]
        assert view["choice"] in play["legal"]
        if len(play["legal"]) == 1:
            assert view["cards"] is None and view["cost"] == 0
        else:
            assert set(view["cards"]) == set(play["legal"]) and view["worlds"] > 0
            choice = play["double_dummy"][view["choice"]]["value"]
            assert view["cost"] == choice - play["double_dummy"][play["card"]]["value"]
    west = out["players"]["W"]
    assert west["view_cost"] == sum(p["view"]["cost"] for p in out["plays"] if p["seat"] == "W")


# ----------------------------------------------------------------------------- the format
def test_the_output_follows_its_schema_in_every_game() -> None:
    jsonschema.Draft202012Validator.check_schema(schemas.load("analysis"))
    check = schemacheck.validator("analysis")
    records = [DEDANS_RECORD] + [r for n, r in vector_records() if n in ("coinche_surcoinche", "three_made")]
    records.append(json.loads((VECTORS / "coinche_in_progress.json").read_text()))
    outs = [analyse(r, Options(think=0.25) if r is DEDANS_RECORD else EXACT) for r in records]
    for out in outs:
        check.validate(out)
    assert outs[1]["par"]["kind"] == "contracts" and len(outs[1]["par"]["modes"]) == 6
    assert outs[0]["plays"][5]["view"]["worlds"] > 0


def test_a_record_that_cannot_be_analysed_says_why() -> None:
    with pytest.raises(AnalysisError) as refused:
        analyse({"format": "belote-deal/1"}, EXACT)
    assert refused.value.code == "not_a_record"
    with pytest.raises(AnalysisError) as refused:
        analyse(json.loads((VECTORS / "three_illegal_card.json").read_text()), EXACT)
    assert refused.value.code == "illegal_record"
    assert len(list(read_records(json.dumps(DEDANS_RECORD, indent=2)))) == 1
    assert len(list(read_records(json.dumps(DEDANS_RECORD) + "\n\n" + json.dumps(DEDANS_RECORD) + "\n"))) == 2


# ----------------------------------------------------------------------------- the command
def test_belote_analyse_reads_json_lines_and_prints_one_analysis_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps(DEDANS_RECORD) + "\n" + json.dumps(capot_record()) + "\n")
    assert main(["analyse", str(path), "--json", "--no-view"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["players"]["W"]["cost"] for line in lines] == [176, 0]
    assert main(["analyse", str(path), "--no-view"]) == 0
    text = capsys.readouterr().out
    assert "W AD: cost 176, best 7D 8D" in text and text.count("classic: ") == 2


def test_belote_analyse_exit_statuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["analyse", str(bad)]) == 2
    assert "not_a_record" in capsys.readouterr().err
    illegal = tmp_path / "illegal.jsonl"
    illegal.write_text((VECTORS / "three_illegal_card.json").read_text().replace("\n", " ") + "\n")
    assert main(["analyse", str(illegal), "--json", "--no-view"]) == 1
    assert "illegal_record" in capsys.readouterr().err
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2


def test_seats_of_the_summary_are_the_games() -> None:
    out = analyse(vector("three_made"), EXACT)
    assert list(out["players"]) == list(SEATS[:3])


def test_a_deal_is_taken_for_the_par_only_in_its_bidding() -> None:
    fresh = Deal.from_seed(18, Rules(declarations=False))
    east = fresh.taken(1, 0)
    assert (east.phase, east.taker, east.trump, fresh.phase) == (PLAY, 1, 0, "bidding")
    assert east.start_hands == load_deal({**DEDANS_RECORD, "plays": []})[0].start_hands
    with pytest.raises(ValueError, match="the bidding is over"):
        east.taken(0, 1)


def test_the_bots_evaluation_names_the_card_it_plays() -> None:
    """``card_evaluation`` is ``act`` with its numbers shown: the same card, in every game."""
    for variant in GAMES:
        deal = Deal.from_seed(2, Rules(variant=variant))
        bots = [HeuristicBot(s) for s in range(deal.players)]
        judge = SearchBot(9, think=0.25)
        compared = 0
        while deal.phase != "done" and compared < 3:
            view = deal.view(deal.to_move)
            if deal.phase == PLAY and len(view.legal) > 1 and len(deal.tricks) >= deal.ntricks // 2:
                choice, means, worlds = judge.card_evaluation(view)
                assert choice == judge.act(view)
                assert (means is None) == (worlds == 0)
                compared += means is not None
            deal.apply(bots[deal.to_move].act(view))
        assert compared == 3


# ----------------------------------------------------------------------------- the par solved first, kept
def vector(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((VECTORS / f"{name}.json").read_text())
    return record


def fresh_deal(record: dict[str, Any]) -> Deal:
    """The deal of a record before its bidding."""
    rules, dealer, deck, _bids, _plays, _score, pending = parse(record)
    return Deal(rules, dealer, deck, pending)


@pytest.mark.parametrize("name", ["worked_deal_2", "coinche_surcoinche", "coinche_no_trump_made", "three_made"])
def test_the_kept_par_and_play_have_the_values_of_fresh_solves(name: str) -> None:
    """The deal as played is solved for the par in the table the play's positions then share: every
    number is what a fresh solve of each gives."""
    record = vector(name)
    out = analyse(record, EXACT)
    assert out["par"] == par(fresh_deal(record), budget=None)
    deal = load_deal({**record, "plays": []})[0]
    for entry in out["plays"]:
        values = card_values(Position.from_state(deal))
        assert {str(c): v for c, v in values.items()} == {c: d["card_points"] for c, d in entry["double_dummy"].items()}
        deal.apply(parse_card(entry["card"]))
    assert deal.result == load_deal(record)[0].result


def test_the_played_deal_is_solved_apart_from_the_pars_budget() -> None:
    """At two hands the par cannot be whole: the deal as it was played is solved as the first position
    of its play is, whatever the par's budget; the other trumps and takers share that budget."""
    record = vector("two_made_belote")
    played = load_deal(record)[0]
    fresh = fresh_deal(record)
    assert played.taker is not None
    contract = (played.taker, played.mode)

    def solved(out: dict[str, Any]) -> list[tuple[str, str]]:
        return [(m["trump"], t["taker"]) for m in out["modes"] for t in m["takers"] if t["solved"]]

    assert solved(par(fresh, 0, contract)) == [(MODE_LETTERS[played.mode], SEATS[played.taker])]
    assert solved(par(fresh, 0)) == []
    # Past its own limit, the deal as played is unsolved too (each run of kept solves starts anew, as
    # an analysis does: the table kept from the solves above would make it cheaper).
    value(Position.from_state(fresh.taken(*contract)))
    needed = nodes()
    forget()
    assert solved(par(fresh, 0, contract, limit=needed - 1)) == []
    forget()
    assert solved(par(fresh, 0, contract, limit=needed)) == [(MODE_LETTERS[played.mode], SEATS[played.taker])]
    assert par_budget_for(played.rules) == played.rules.game.par_budget < PAR_BUDGET == par_budget_for(Rules())


def test_coinche_solves_the_mode_played_apart_from_the_pars_budget() -> None:
    record = vector("coinche_all_trump_coinched")
    played = load_deal(record)[0]
    assert played.taker is not None
    out = par(fresh_deal(record), 0, (played.taker, played.mode))
    assert [m["trump"] for m in out["modes"] if m["solved"]] == [MODE_LETTERS[played.mode]]
