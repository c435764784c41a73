"""Write ``worked_deal_1.json`` .. ``worked_deal_3.json``: the worked match of seed 000 as real deals.

Seed 000 tells a match between Alice and Cara (N and S here) and Ben and Dev (E and W), from 210 to 176:

1. Hearts are turned and Alice (N) takes them. Nobody has a sequence; Alice holds the king and queen of
   hearts (belote). Alice and Cara take the jack, nine, ace, king and queen of hearts (52), the ace, ten
   and king of spades (25), the ace and ten of clubs (21) and the last trick (10): 108 card points, and
   Ben and Dev have the other 54. 128 with the belote to 54: the score is 338 to 230.
2. Ben (E) takes in spades; his side finishes with 74 card points to 88: dedans, Alice and Cara are given
   the whole 162, and the score is 500 to 230.
3. A quiet deal at 90 to 72 ends it at 590 to 302 (Alice and Cara take, and make it).

The dealer moves one seat clockwise each deal: W deals the first (so Alice speaks first), N the second
(Ben speaks first), E the third. In none of the three deals does anyone hold a declaration, and only the
first has a belote, so nothing but the cards changes the numbers.

The decks and plays are found by a seeded search: the decks come from ``random.Random(f"worked:{n}:{i}")``
for i = 0, 1, 2...; deal 1 is searched depth-first for plays whose tricks give each point card to the side
the seed says took it, and deals 2 and 3 by seeded random legal play. Run it once from anywhere::

    python tests/vectors/make_worked.py

It rewrites the three files beside this script (the same files each time); ``tests/test_worked_match.py``
replays them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from belote.cards import CARDS, HEARTS, SPADES, parse_card
from belote.declarations import belote_holder, find_declarations
from belote.game import NAMES, PASS, SEATS, TAKE, Deal, shuffled_deck
from belote.play import POINTS
from belote.record import to_record
from belote.rules import Rules

HERE = Path(__file__).parent
N, E, S, W = range(4)


# Deal 1: the point cards each side must take (hearts are trumps).
def card_set(text: str) -> set[int]:
    return {parse_card(c) for c in text.split()}


NS_TAKES = card_set("JH 9H AH KH QH AS TS KS AC TC")
EW_TAKES = card_set("TH QS JS KC QC JC AD TD KD QD JD")


def deck_for(deal_number: int, index: int) -> tuple[int, ...]:
    return shuffled_deck(random.Random(f"worked:{deal_number}:{index}"))


def quiet(deal: Deal) -> bool:
    """Nobody holds a declaration (sequence or four of a kind)."""
    assert deal.trump is not None
    return not any(find_declarations(deal.hand_mask(s), deal.trump) for s in range(4))


def take(deal: Deal, taker: int, trump: int) -> bool:
    """Bid so that ``taker`` takes ``trump`` (first round if it is turned, else second); False if impossible."""
    assert deal.turned is not None
    turned = deal.turned.suit
    bids = []
    for seat in deal.order:
        if seat == taker and turned == trump:
            bids.append(TAKE)
            break
        bids.append(PASS)
    else:
        if turned == trump:
            return False
        for seat in deal.order:
            if seat == taker:
                bids.append(NAMES[trump])
                break
            bids.append(PASS)
    for b in bids:
        deal.apply(b)
    return deal.taker == taker and deal.trump == trump


def search_deal_1(budget: int = 20000) -> Deal:
    index = 0
    while True:
        deal = Deal(Rules(), W, deck_for(1, index))
        index += 1
        assert deal.turned is not None
        if deal.turned.suit != HEARTS:
            continue
        deal.apply(TAKE)  # Alice, next to the dealer, takes the turned heart
        if deal.taker != N or not quiet(deal) or belote_holder(deal.hands, HEARTS) != N:
            continue
        rng = random.Random(index)
        nodes = [0]
        points = POINTS[HEARTS]

        def dfs(
            deal: Deal = deal, rng: random.Random = rng, nodes: list[int] = nodes, points: tuple[int, ...] = points
        ) -> bool:
            if deal.phase == "done":
                return True
            nodes[0] += 1
            if nodes[0] > budget:
                return False
            legal = list(deal.legal_actions())
            rng.shuffle(legal)
            before = len(deal.tricks)
            for c in legal:
                deal.apply(c)
                ok = True
                tricks = deal.tricks
                if len(tricks) > before:
                    t = tricks[-1]
                    wanted = NS_TAKES if t.winner % 2 == 0 else EW_TAKES
                    ok = all(x in wanted for x in t.cards if points[x]) and (len(tricks) < 8 or t.winner % 2 == 0)
                if ok and dfs():
                    return True
                deal.undo()
            return False

        if dfs():
            return deal


def search_random(deal_number: int, dealer: int, taker: int, trump: int | None, cards_ns: int) -> Deal:
    index = 0
    while True:
        deck = deck_for(deal_number, index)
        index += 1
        deal = Deal(Rules(), dealer, deck)
        assert deal.turned is not None
        want = deal.turned.suit if trump is None else trump
        if not take(deal, taker, want) or not quiet(deal) or belote_holder(deal.hands, want) is not None:
            continue
        rng = random.Random(f"worked-play:{deal_number}:{index}")
        for _ in range(200):
            while deal.phase == "play":
                legal = deal.legal_actions()
                deal.apply(legal[rng.randrange(len(legal))])
            assert deal.result is not None
            if deal.result.cards[0] == cards_ns:
                return deal
            while deal.plays:
                deal.undo()


def write(name: str, record: dict[str, Any]) -> None:
    """One key a line, so the file reads like the spec's table."""
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in record.items()]
    (HERE / name).write_text("{\n" + ",\n".join(lines) + "\n}\n")


def main() -> None:
    d1 = search_deal_1()
    d2 = search_random(2, N, E, SPADES, 88)
    d3 = search_random(3, E, S, None, 90)
    scores = [(210, 176)]
    for d in (d1, d2, d3):
        assert d.result is not None
        scores.append((scores[-1][0] + d.result.points[0], scores[-1][1] + d.result.points[1]))
    assert scores == [(210, 176), (338, 230), (500, 230), (590, 302)], scores
    for n, (d, before) in enumerate(zip((d1, d2, d3), scores, strict=False), 1):
        write(f"worked_deal_{n}.json", to_record(d, before))
        print(f"worked_deal_{n}.json: dealer {SEATS[d.dealer]}, taker {SEATS[d.taker or 0]}, ", end="")
        print(f"trump {CARDS[(d.trump or 0) * 8].pretty()[-1]}, {d.result}")


if __name__ == "__main__":
    main()
