"""Deal records of Coinche, three-handed and two-handed deals (``shared/spec/deal-record.md``, *variants*).

Three checks: the vector files under ``tests/vectors/`` replay to their stored output; random deals of
every game replay to exactly the engine's result; and the hands, table piles and cards out of play
of every replay are those the spec's words deal from the deck (``spec_deal`` below is those words).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from belote.cards import CARDS
from belote.game import SEATS, Deal, shuffled_deck
from belote.record import RecordError, dumps, load_deal, loads, replay, text_report, to_record
from belote.rules import Rules

VECTORS = Path(__file__).parent / "vectors"
VECTOR_NAMES = sorted(p.name.removesuffix(".replay.json") for p in VECTORS.glob("*.replay.json"))
PACK = [str(c) for c in CARDS]
SPEC_KEYS = {"valid", "trump", "taker", "hands", "tricks", "declarations", "result", "score_after"}
EXTRA_KEYS = {"classic": set(), "coinche": {"contract"}, "three-handed": {"out"}, "two-handed": {"table"}}


def belote(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "belote.cli", *args], capture_output=True, text=True, timeout=60)


def vector(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    record = json.loads((VECTORS / f"{name}.json").read_text())
    expected = json.loads((VECTORS / f"{name}.replay.json").read_text())
    return record, expected


# --------------------------------------------------------------------------- the deal as the spec words it
def spec_deal(record: dict[str, Any], taker: str) -> dict[str, Any]:
    """Hands in play (and table piles, cards out of play) from the deck, as the spec says, cards counted from 1."""
    rules = record.get("rules", {})
    variant = rules.get("variant", "classic")
    seats = {"three-handed": "NES", "two-handed": "NE"}.get(variant, "NESW")
    n = len(seats)
    step = 1 if rules.get("direction", "clockwise") == "clockwise" else n - 1
    dealer = seats.index(record["dealer"])
    first = [seats[(dealer + step * (k + 1)) % n] for k in range(n)]  # the first player, then the others

    def card(place: int) -> str:  # place 1 is the top card
        return str(record["deck"][place - 1]).upper()

    def cards(places: range | list[int]) -> list[str]:
        return [card(p) for p in places]

    hands: dict[str, list[str]] = {}
    out: dict[str, Any] = {}
    if variant == "coinche":
        for k, seat in enumerate(first):
            hands[seat] = cards(range(3 * k + 1, 3 * k + 4)) + cards(range(13 + 2 * k, 15 + 2 * k))
            hands[seat] += cards(range(21 + 3 * k, 24 + 3 * k))
    else:
        for k, seat in enumerate(first):  # 3 each, then 2 each; the next card is turned
            hands[seat] = cards(range(3 * k + 1, 3 * k + 4)) + cards(range(3 * n + 2 * k + 1, 3 * n + 2 * k + 3))
        turned = card(5 * n + 1)
        hands[taker].append(turned)
        if variant == "two-handed":
            other = first[0] if taker == first[1] else first[1]
            hands[other].append(card(12))
            out["table"] = {
                first[0]: [[card(23 + i), card(13 + i)] for i in range(5)],
                first[1]: [[card(28 + i), card(18 + i)] for i in range(5)],
            }
        else:
            place = 5 * n + 2
            for seat in first:
                more = 2 if seat == taker else 3
                hands[seat] += cards(range(place, place + more))
                place += more
            if variant == "three-handed":
                assert place == 25
                out["out"] = sorted(cards(range(25, 33)), key=PACK.index)
    out["hands"] = {s: sorted(h, key=PACK.index) for s, h in hands.items()}
    return out


def check_against_spec(record: dict[str, Any], replayed: dict[str, Any]) -> None:
    if replayed["hands"] is None:
        return
    dealt = spec_deal(record, replayed["taker"])
    assert replayed["hands"] == dealt["hands"]
    for key in ("table", "out"):
        if key in dealt:
            assert replayed[key] == dealt[key], key


# --------------------------------------------------------------------------- vectors
def test_every_game_has_vectors() -> None:
    assert {name.split("_")[0] for name in VECTOR_NAMES} >= {"coinche", "three", "two", "classic"}
    assert len(VECTOR_NAMES) >= 15


@pytest.mark.parametrize("name", VECTOR_NAMES)
def test_vector_replays_to_its_stored_output(name: str) -> None:
    record, expected = vector(name)
    out = replay(record)
    assert out == expected
    variant = record.get("rules", {}).get("variant", "classic")
    assert set(out) - {"error"} == SPEC_KEYS | EXTRA_KEYS[variant]
    check_against_spec(record, out)
    # The engine played the same deal: the record written back is the one read.
    deal, score_before, error = load_deal(record)
    if error is None:
        assert to_record(deal, score_before) == record
        if deal.result is not None:
            assert out["result"] == deal.result.to_json()


@pytest.mark.parametrize(
    "name", ["coinche_surcoinche", "three_made", "two_made_belote", "two_face_down_refused", "coinche_take_refused"]
)
def test_vector_through_the_command(name: str) -> None:
    _, expected = vector(name)
    proc = belote("replay", str(VECTORS / f"{name}.json"), "--json")
    assert proc.returncode == (0 if expected["valid"] else 1), proc.stderr
    assert json.loads(proc.stdout) == expected
    text = belote("replay", str(VECTORS / f"{name}.json"))
    assert text.returncode == proc.returncode and "Traceback" not in text.stderr


def test_the_coinche_vectors_say_what_they_are_for() -> None:
    out = vector("coinche_surcoinche")[1]
    assert out["contract"] == {"bidder": "S", "level": "100", "mode": "H", "multiplier": 4}
    assert out["result"]["contract"] == {"level": "100", "mode": "H", "multiplier": 4}
    assert out["trump"] == "H" and out["taker"] == "S"
    nt = vector("coinche_no_trump_made")[1]
    assert nt["trump"] == "NT" and nt["result"]["outcome"] == "made"
    at = vector("coinche_all_trump_coinched")[1]
    assert at["trump"] == "AT" and at["contract"]["multiplier"] == 2 and at["result"]["outcome"] == "dedans"
    # Failed and coinched: the defenders score (160 + 80) x 2 and every declaration.
    decl = sum(at["result"]["declarations"].values())
    side = "EW" if at["contract"]["bidder"] in "NS" else "NS"
    assert at["result"]["points"][side] == 480 + decl + at["result"]["belote"][side]
    thrown = vector("coinche_thrown_in")[1]
    assert thrown["contract"] is None and thrown["result"]["outcome"] == "thrown-in"
    progress = vector("coinche_in_progress")[1]
    assert progress["result"] is None and len(progress["tricks"]) == 1 and progress["contract"]["level"] == "120"


def test_the_three_and_two_hand_vectors_say_what_they_are_for() -> None:
    made = vector("three_made")[1]
    assert set(made["hands"]) == {"N", "E", "S"} and all(len(h) == 8 for h in made["hands"].values())
    assert len(made["out"]) == 8 and not set(made["out"]) & {c for h in made["hands"].values() for c in h}
    assert all(len(t["cards"]) == 3 for t in made["tricks"]) and len(made["tricks"]) == 8
    assert set(made["score_after"]) == {"N", "E", "S"}
    assert made["score_after"] == {
        s: b + made["result"]["points"][s] for s, b in zip("NES", (120, 200, 95), strict=True)
    }
    thrown = vector("three_thrown_in")[1]
    assert thrown["result"]["pending"] == 40 and thrown["out"] is None
    two = vector("two_made_belote")[1]
    assert set(two["hands"]) == {"N", "E"} and all(len(h) == 6 for h in two["hands"].values())
    assert all(len(piles) == 5 for piles in two["table"].values())
    assert len(two["tricks"]) == 16 and all(len(t["cards"]) == 2 for t in two["tricks"])
    assert sum(two["result"]["cards"].values()) == 162
    refused = vector("two_face_down_refused")[1]
    assert refused["valid"] is False and refused["error"]["key"] == "plays"


# --------------------------------------------------------------------------- random deals of every game
GAMES = {
    "coinche": st.fixed_dictionaries(
        {"variant": st.just("coinche")},
        optional={
            "coinche_made": st.sampled_from(["points", "bid"]),
            "coinche_failed": st.sampled_from([160, 162]),
            "surcoinche": st.sampled_from([3, 4]),
            "no_trump_all_trump": st.booleans(),
            "generale": st.booleans(),
            "coinche_max_bid": st.sampled_from([160, 180]),
            "rounding": st.booleans(),
            "declarations": st.booleans(),
            "direction": st.sampled_from(["clockwise", "counterclockwise"]),
        },
    ),
    "three-handed": st.fixed_dictionaries(
        {"variant": st.just("three-handed")},
        optional={
            "direction": st.sampled_from(["clockwise", "counterclockwise"]),
            "litige": st.sampled_from(["carry", "hold"]),
            "rounding": st.booleans(),
            "declarations": st.booleans(),
            "belote_counts": st.booleans(),
        },
    ),
    "two-handed": st.fixed_dictionaries(
        {"variant": st.just("two-handed")},
        optional={
            "direction": st.sampled_from(["clockwise", "counterclockwise"]),
            "rounding": st.booleans(),
            "round_five": st.sampled_from(["down", "up"]),
            "undertrump": st.booleans(),
        },
    ),
}


def random_deal(seed: int, rules: Rules, pending: int = 0) -> Deal:
    """A deal played to the end by seeded random legal actions; in Coinche, passes are rarer so that
    contracts stand, and coinches are common."""
    rng = random.Random(seed)
    deal = Deal(rules, rng.randrange(rules.players), shuffled_deck(rng), pending)
    while deal.phase != "done":
        legal = deal.legal_actions()
        if rules.game.contracts and deal.phase == "bidding" and len(legal) > 1 and rng.random() < 0.5:
            action = legal[1] if rng.random() < 0.7 else legal[-1]  # the lowest contract, or coinche
        else:
            action = legal[rng.randrange(len(legal))]
        deal.apply(action)
    return deal


@pytest.mark.parametrize("game", list(GAMES))
def test_random_deals_replay_to_the_engine_result(game: str) -> None:
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        seed=st.integers(0, 2**32),
        rules=GAMES[game],
        score=st.lists(st.integers(0, 900), min_size=3, max_size=3),
        pending=st.sampled_from([0, 0, 30, 81]),
    )
    def check(seed: int, rules: dict[str, Any], score: list[int], pending: int) -> None:
        r = Rules.from_dict(rules)
        pending = 0 if r.game.contracts else pending
        deal = random_deal(seed, r, pending)
        before = tuple(score[: r.teams])
        record = loads(dumps(to_record(deal, before)))
        assert record.get("rules", {}) == {k: v for k, v in rules.items() if getattr(Rules(), k) != v}
        out = replay(record)
        assert out["valid"] is True and "error" not in out
        assert deal.result is not None
        assert out["result"] == deal.result.to_json()
        names = r.team_names
        assert out["score_after"] == {n: b + p for n, b, p in zip(names, before, deal.result.points, strict=True)}
        assert out["taker"] == (None if deal.taker is None else SEATS[deal.taker])
        assert [t["winner"] for t in out["tricks"]] == [SEATS[t.winner] for t in deal.tricks]
        assert sum(t["points"] for t in out["tricks"]) == sum(deal.result.cards)
        if r.game.contracts:
            assert out["contract"] == (
                None if deal.contract is None else {"bidder": SEATS[deal.contract.bidder], **deal.contract.to_json()}
            )
        check_against_spec(record, out)
        again, score_before, error = load_deal(record)
        assert error is None and score_before == before
        assert again.events() == deal.events()
        assert to_record(again, before) == record
        assert text_report(record)

    check()


# --------------------------------------------------------------------------- what is refused
def coinche_record(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": "belote-deal/1",
        "rules": {"variant": "coinche"},
        "dealer": "N",
        "deck": list(PACK),
        "bids": ["pass", "110H", "pass", "pass", "pass"],
        "plays": [],
    }
    record.update(changes)
    return record


def three_record(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": "belote-deal/1",
        "rules": {"variant": "three-handed"},
        "dealer": "N",
        "deck": list(PACK),
        "bids": ["take"],
        "plays": [],
    }
    record.update(changes)
    return record


def test_a_coinche_record_of_the_unshuffled_pack() -> None:
    out = replay(coinche_record())
    assert out["valid"] is True
    # N deals: E holds cards 1-3, 13-14, 21-23; S 4-6, 15-16, 24-26; W 7-9, 17-18, 27-29; N 10-12, 19-20, 30-32.
    assert out["hands"] == {
        "E": ["7S", "8S", "9S", "JH", "QH", "JD", "QD", "KD"],
        "S": ["TS", "JS", "QS", "KH", "AH", "AD", "7C", "8C"],
        "W": ["KS", "AS", "7H", "7D", "8D", "9C", "TC", "JC"],
        "N": ["8H", "9H", "TH", "9D", "TD", "QC", "KC", "AC"],
    }
    assert out["contract"] == {"bidder": "S", "level": "110", "mode": "H", "multiplier": 1}
    assert (out["trump"], out["taker"]) == ("H", "S")


def test_coinche_auction_in_progress_reports_the_standing_bid() -> None:
    out = replay(coinche_record(bids=["pass", "110H", "coinche"]))
    assert out["valid"] is True and out["taker"] is None and out["hands"] is None
    assert out["contract"] == {"bidder": "S", "level": "110", "mode": "H", "multiplier": 2}


@pytest.mark.parametrize(
    ("record", "key", "index", "action", "words"),
    [
        # A Coinche bid in a classic record, and classic bids in a Coinche record.
        ({**coinche_record(), "rules": {}, "bids": ["pass", "110H"]}, "bids", 1, "110H", "Coinche bid"),
        (coinche_record(bids=["take"]), "bids", 0, "take", "in Coinche you bid a contract"),
        (coinche_record(bids=["pass", "H"]), "bids", 1, "H", "in Coinche"),
        (coinche_record(bids=["pass", "110H", "100S"]), "bids", 2, "100S", "higher than 110H"),
        (coinche_record(bids=["pass", "110H", "pass", "coinche"]), "bids", 3, "coinche", "other side's"),
        (coinche_record(bids=["surcoinche"]), "bids", 0, "surcoinche", "nobody has coinched"),
        (coinche_record(bids=["pass", "110H", "pass", "pass", "pass", "pass"]), "bids", 5, "pass", "auction is over"),
        (coinche_record(bids=["190H"]), "bids", 0, "190H", "not an action"),
        (coinche_record(bids=["pass", "110H"], plays=["7S"]), "plays", 0, "7S", "auction is not over"),
        (coinche_record(bids=["AS"]), "bids", 0, "AS", "not a bid"),
        (three_record(bids=["pass"] * 6 + ["take"]), "bids", 6, "take", "thrown in"),
        (three_record(plays=["AC"]), "plays", 0, "AC", ""),
    ],
)
def test_illegal_actions_of_the_variants(record: dict[str, Any], key: str, index: int, action: str, words: str) -> None:
    out = replay(record)
    assert out["valid"] is False
    assert {k: out["error"][k] for k in ("key", "index", "action")} == {"key": key, "index": index, "action": action}
    assert words in out["error"]["message"]


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (three_record(dealer="W"), "dealer must be a seat N, E or S, not 'W': the three-handed game has 3 players"),
        ({**three_record(), "rules": {"variant": "two-handed"}, "dealer": "S"}, "two-handed game has 2 players"),
        (three_record(score_before={"NS": 1, "EW": 2}), 'score_before must be {"N": int, "E": int, "S": int}'),
        (coinche_record(score_before={"N": 1, "E": 2}), 'score_before must be {"NS": int, "EW": int}'),
        ({**three_record(), "rules": {"surcoinche": 3}}, "'surcoinche' is a rule of Coinche"),
        (three_record(rules={"variant": "three-handed", "generale": True}), "a rule of Coinche"),
        (coinche_record(pending=81), "pending must be 0 in Coinche"),
        (coinche_record(rules={"variant": "belote-chinoise"}), "'variant' must be one of"),
        (coinche_record(rules={"variant": "coinche", "surcoinche": 5}), "'surcoinche' must be one of 3, 4"),
        (coinche_record(rules={"variant": "coinche", "target": 1000}), "unknown rule option 'target'"),
    ],
)
def test_not_a_record_of_its_game(tmp_path: Path, record: dict[str, Any], words: str) -> None:
    with pytest.raises(RecordError) as e:
        replay(record)
    assert words in str(e.value)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    proc = belote("replay", str(path), "--json")
    assert proc.returncode == 2 and proc.stdout == "" and words in proc.stderr


def test_coinche_options_are_written_only_in_coinche_records() -> None:
    deal = Deal(Rules(surcoinche=3, round_five="up", rounding=True), 0, list(range(32)))
    assert to_record(deal)["rules"] == {"round_five": "up", "rounding": True}
    deal = Deal(Rules(variant="coinche", surcoinche=3, generale=True), 0, list(range(32)))
    assert to_record(deal)["rules"] == {"variant": "coinche", "surcoinche": 3, "generale": True}


def test_text_reports_of_the_variants() -> None:
    text = text_report(vector("coinche_surcoinche")[0])
    assert "Coinche: all eight cards dealt, no card turned" in text
    assert "  W coinche" in text and "  N surcoinche" in text
    assert "S plays 100 ♥ surcoinched (x4)" in text
    assert "Score NS " in text and " EW " in text
    nt = text_report(vector("coinche_no_trump_made")[0])
    assert "no trumps" in nt
    three = text_report(vector("three_made")[0])
    assert "Out of play:" in three and "Score N " in three and "W" not in three.split("Score")[-1]
    two = text_report(vector("two_made_belote")[0])
    assert "N table (face up/face down):" in two and "E table (face up/face down):" in two
    assert "Trick 16:" in two


@pytest.mark.parametrize("preset", ["coinche", "coinche-sans-annonces", "three-handed", "two-handed"])
def test_belote_deal_with_each_preset(preset: str) -> None:
    proc = belote("deal", "--seed", "11", "--rules", preset)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    out = replay(record)
    assert out["valid"] is True and out["result"] is not None
    rules = Rules.from_dict(record["rules"])
    assert record["dealer"] in SEATS[: rules.players]


def test_belote_deal_with_options_on_a_preset() -> None:
    proc = belote("deal", "--seed", "4", "--rules", "coinche", "--option", "surcoinche=3", "--option", "generale=true")
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    assert record["rules"] == {"variant": "coinche", "surcoinche": 3, "generale": True}
    assert replay(record)["valid"] is True
    for bad, words in (
        (["--option", "surcoinche=5"], "'surcoinche' must be one of 3, 4"),
        (["--option", "x"], "NAME=VALUE"),
    ):
        proc = belote("deal", "--rules", "coinche", *bad)
        assert proc.returncode == 2 and words in proc.stderr and "Traceback" not in proc.stderr
