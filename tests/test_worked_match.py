"""Seed 000's worked match, through the engine, exactly.

Alice and Cara (N and S) lead Ben and Dev (E and W) 210 to 176. The three deals are real deals found
once by ``tests/vectors/make_worked.py`` and stored as deal records (``worked_deal_1.json`` ..
``_3.json``); here they are replayed one by one, and then played as one match.

1. Hearts, taken by Alice, who holds the king and queen (belote); nobody has a sequence; N-S take the
   last trick. Card points 108 to 54: 128 with the belote to 54, the score 338 to 230.
2. Ben takes in spades; his side makes 74 card points to 88: dedans, N-S are given 162: 500 to 230.
3. A quiet deal at 90 to 72: 590 to 302, and the match is over, won by Alice and Cara.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from belote.cards import CARDS, parse_card
from belote.declarations import find_declarations
from belote.game import SEATS, Match, parse_action
from belote.play import POINTS
from belote.record import load_deal, replay
from belote.rules import Rules
from belote.scoring import match_winner

VECTORS = Path(__file__).parent / "vectors"
N, E, S, W = range(4)
HEARTS = 1


def fixture(n: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((VECTORS / f"worked_deal_{n}.json").read_text())
    return data


EXPECTED = [
    # score_before, dealer, taker, trump, cards, belote, points, outcome, score_after
    ((210, 176), "W", "N", "H", (108, 54), (20, 0), (128, 54), "made", (338, 230)),
    ((338, 230), "N", "E", "S", (88, 74), (0, 0), (162, 0), "dedans", (500, 230)),
    ((500, 230), "E", "S", "D", (90, 72), (0, 0), (90, 72), "made", (590, 302)),
]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_each_worked_deal_replays_exactly(n: int) -> None:
    record = fixture(n)
    before, dealer, taker, trump, cards, belote, points, outcome, after = EXPECTED[n - 1]
    assert record["format"] == "belote-deal/1"
    assert "rules" not in record, "the worked match is played under the default rules"
    assert record["score_before"] == {"NS": before[0], "EW": before[1]}
    assert record["dealer"] == dealer
    out = replay(record)
    assert out["valid"] is True and "error" not in out
    assert out["taker"] == taker
    assert out["trump"] == trump
    assert out["result"] == {
        "outcome": outcome,
        "cards": {"NS": cards[0], "EW": cards[1]},
        "declarations": {"NS": 0, "EW": 0},
        "belote": {"NS": belote[0], "EW": belote[1]},
        "points": {"NS": points[0], "EW": points[1]},
        "pending": 0,
    }
    # Nothing but the cards (and the belote of the first deal) makes the numbers.
    assert out["declarations"] == {"NS": {"announced": [], "scored": 0}, "EW": {"announced": [], "scored": 0}}
    assert out["score_after"] == {"NS": after[0], "EW": after[1]}


def test_deal_1_is_the_worked_deal_card_by_card() -> None:
    """Alice takes the turned heart, holds K♥ Q♥, and N-S take exactly the cards of the seed's table."""
    deal, _, error = load_deal(fixture(1))
    assert error is None and deal.result is not None
    assert fixture(1)["bids"] == ["take"] and str(deal.turned)[1] == "H"
    assert deal.taker == N and deal.trump == HEARTS
    alice = deal.start_hands[N]
    assert alice >> parse_card("KH") & 1 and alice >> parse_card("QH") & 1
    assert not any(find_declarations(h, HEARTS) for h in deal.start_hands), "nobody has a sequence"
    said = [(e["seat"], e["card"], e["say"]) for e in deal.events() if "say" in e]
    assert [(seat, word) for seat, _, word in said] == [("N", "belote"), ("N", "rebelote")]
    assert sorted(card for _, card, _ in said) == ["KH", "QH"]

    ns_cards = [CARDS[c] for t in deal.tricks if t.winner % 2 == 0 for c in t.cards]
    value = POINTS[HEARTS]

    def taken(suit: str) -> int:
        return sum(value[c] for c in ns_cards if str(c)[1] == suit)

    assert taken("H") == 52
    assert sorted(str(c) for c in ns_cards if str(c)[1] == "H" and value[c]) == sorted(["JH", "9H", "AH", "KH", "QH"])
    assert taken("S") == 25
    assert sorted(str(c) for c in ns_cards if str(c)[1] == "S" and value[c]) == sorted(["AS", "TS", "KS"])
    assert taken("C") == 21
    assert sorted(str(c) for c in ns_cards if str(c)[1] == "C" and value[c]) == sorted(["AC", "TC"])
    assert taken("D") == 0
    assert deal.tricks[-1].winner % 2 == 0, "Alice and Cara take the last trick"
    assert 52 + 25 + 21 + 10 == 108 == deal.result.cards[0]
    assert 108 + 54 == 162


def test_deal_2_ben_takes_spades_and_goes_down() -> None:
    deal, _, error = load_deal(fixture(2))
    assert error is None and deal.result is not None
    assert (SEATS[deal.dealer], SEATS[deal.taker or 0], deal.trump) == ("N", "E", 0)
    assert not any(find_declarations(h, 0) for h in deal.start_hands)
    assert not any("say" in e for e in deal.events())
    assert deal.result.outcome == "dedans"
    assert deal.result.cards == (88, 74) and deal.result.points == (162, 0)


def test_deal_3_is_quiet() -> None:
    deal, _, error = load_deal(fixture(3))
    assert error is None and deal.result is not None and deal.trump is not None
    assert deal.taker is not None and deal.taker % 2 == 0
    assert not any(find_declarations(h, deal.trump) for h in deal.start_hands)
    assert not any("say" in e for e in deal.events())
    assert deal.result.cards == (90, 72) and deal.result.points == (90, 72)


def test_score_before_chains_from_deal_to_deal() -> None:
    for n in (1, 2):
        assert replay(fixture(n))["score_after"] == fixture(n + 1)["score_before"]


class WorkedMatch(Match):
    """A match whose decks are the worked deals' (the seed does not matter)."""

    def _deck(self, number: int) -> tuple[Any, ...]:
        return tuple(parse_card(c) for c in fixture(number + 1)["deck"])


def test_the_three_deals_as_one_match_from_210_176() -> None:
    match = WorkedMatch(first_dealer=W, score=(210, 176))
    scores = []
    for n in (1, 2, 3):
        record = fixture(n)
        assert match.deal.dealer == SEATS.index(record["dealer"]), "the dealer moves one seat each deal"
        assert not match.over
        for action in record["bids"] + record["plays"]:
            match.apply(parse_action(action))
        scores.append(tuple(match.score))
    assert scores == [(338, 230), (500, 230), (590, 302)]
    assert match.over and match.winner == 0
    assert len(match.deals) == 3, "the deal that carries a side past the line ends the match"
    assert match.events()[-1][1] == {"type": "match-over", "score": {"NS": 590, "EW": 302}, "winner": "NS"}


def test_the_match_ends_at_590_302_won_by_alice_and_cara() -> None:
    assert match_winner(Rules(), (338, 230), 1) == (False, None)
    assert match_winner(Rules(), (500, 230), 2) == (False, None), "500 is one short of the line"
    assert match_winner(Rules(), (590, 302), 3) == (True, 0)
