"""Write the deal records of the other games and their replays: ``coinche_*.json``, ``three_*.json``, ``two_*.json``.

Each vector is a record (``NAME.json``, format ``belote-deal/1``) and what ``belote replay NAME.json --json``
prints for it (``NAME.replay.json``). The deals are played on the engine: the bids are written below for
each vector, the cards are random legal cards from ``random.Random(f"variants:{name}:{i}")`` for i = 0, 1,
2..., and the first ``i`` whose deal shows what the vector is for (a contract made, a capot, a belote...)
is kept. Run it once from anywhere::

    python tests/vectors/make_variants.py

It rewrites the files beside this script (the same files each time); ``tests/test_record_variants.py``
replays them and checks each against the engine and against the deal as the spec describes it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from belote.cards import CARDS, cards_of
from belote.game import SEATS, Deal, parse_action, shuffled_deck
from belote.record import replay, to_record
from belote.rules import Rules

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Vector:
    name: str
    rules: dict[str, Any]
    dealer: str
    bids: tuple[str, ...]
    #: what the deal must show to be kept
    keep: Callable[[Deal], bool] = lambda d: True
    #: stop after this many cards (a deal in progress), or play to the end
    cards: int | None = None
    score_before: tuple[int, ...] | None = None
    pending: int = 0
    #: an illegal card to add at the end of ``plays``, or an illegal bid after ``bids`` (exit status 1)
    bad_card: Callable[[Deal], str | None] | None = None
    bad_bid: str | None = None


def outcome(name: str) -> Callable[[Deal], bool]:
    return lambda d: d.result is not None and d.result.outcome == name


def has_belote(d: Deal) -> bool:
    return d.result is not None and any(d.result.belote)


def scored_declarations(d: Deal) -> bool:
    return d.result is not None and any(d.result.declarations)


def face_down_card(d: Deal) -> str | None:
    """A card lying face down on the table of the player to move: it may not be played."""
    under, seat = d.under, d.to_move
    assert under is not None and seat is not None
    playable = d.hand_mask(seat)
    for up in cards_of(d.table_cards[seat] & playable):
        if under[up] >= 0:
            return str(CARDS[under[up]])
    return None


def refused_card(d: Deal) -> str | None:
    """A card of the player to move that the rules refuse now."""
    assert d.to_move is not None
    refused = cards_of(d.hand_mask(d.to_move) & ~d.legal_mask())
    return str(refused[0]) if refused else None


VECTORS = [
    # Coinche: W coinches S's 100 hearts and N surcoinches (x4).
    Vector("coinche_surcoinche", {"variant": "coinche"}, "N", ("pass", "100H", "coinche", "surcoinche")),
    # A no-trump contract, made.
    Vector("coinche_no_trump_made", {"variant": "coinche"}, "E", ("90NT", "pass", "pass", "pass"), outcome("made")),
    # An all-trump contract coinched; both bidders let the coinche stand, and it fails.
    Vector(
        "coinche_all_trump_coinched",
        {"variant": "coinche"},
        "S",
        ("80AT", "coinche", "pass", "pass"),
        outcome("dedans"),
    ),
    # A suit contract over another, with declarations, scored on the bid alone and rounded.
    Vector(
        "coinche_declarations_bid_only",
        {"variant": "coinche", "coinche_made": "bid", "rounding": True, "coinche_failed": 162},
        "W",
        ("80S", "90D", "pass", "pass", "pass"),
        scored_declarations,
        score_before=(420, 310),
    ),
    Vector("coinche_thrown_in", {"variant": "coinche"}, "N", ("pass", "pass", "pass", "pass")),
    # In progress: the auction is over and five cards are down.
    Vector("coinche_in_progress", {"variant": "coinche"}, "E", ("pass", "120C", "pass", "pass", "pass"), cards=5),
    # Refused: "take" is not a bid of Coinche.
    Vector("coinche_take_refused", {"variant": "coinche"}, "N", ("pass",), cards=0, bad_bid="take"),
    # Refused: a contract is not a bid of the classic game.
    Vector("classic_contract_refused", {}, "N", ("pass",), cards=0, bad_bid="110H"),
    # Three hands. The taker makes it (with declarations); one goes dedans; one counterclockwise with belote.
    Vector(
        "three_made",
        {"variant": "three-handed"},
        "N",
        ("pass", "take"),
        lambda d: outcome("made")(d) and scored_declarations(d),
        score_before=(120, 200, 95),
    ),
    Vector("three_dedans", {"variant": "three-handed"}, "E", ("pass", "pass", "pass", "H"), outcome("dedans")),
    Vector(
        "three_counterclockwise",
        {"variant": "three-handed", "direction": "counterclockwise", "litige": "hold"},
        "S",
        ("take",),
        has_belote,
    ),
    Vector("three_thrown_in", {"variant": "three-handed"}, "S", ("pass",) * 6, pending=40),
    # Refused: a card the rules do not allow, the second card of the third trick.
    Vector("three_illegal_card", {"variant": "three-handed"}, "E", ("take",), cards=7, bad_card=refused_card),
    # Two hands: a made deal with belote; a dedans on a suit named in the second round.
    Vector(
        "two_made_belote", {"variant": "two-handed"}, "E", ("take",), lambda d: outcome("made")(d) and has_belote(d)
    ),
    Vector(
        "two_second_round",
        {"variant": "two-handed"},
        "N",
        ("pass", "pass", "pass", "C"),
        outcome("dedans"),
        score_before=(310, 460),
    ),
    Vector("two_in_progress", {"variant": "two-handed"}, "N", ("take",), cards=9),
    # Refused: a card still face down on the player's table.
    Vector("two_face_down_refused", {"variant": "two-handed"}, "E", ("pass", "take"), cards=4, bad_card=face_down_card),
]


def play(vector: Vector, i: int) -> dict[str, Any] | None:
    """The record of try ``i`` of a vector, or None if the deal does not show what the vector is for."""
    rng = random.Random(f"variants:{vector.name}:{i}")
    rules = Rules.from_dict(vector.rules)
    deal = Deal(rules, SEATS.index(vector.dealer), shuffled_deck(rng), vector.pending)
    for b in vector.bids:
        deal.apply(parse_action(b))
    while deal.phase == "play" and (vector.cards is None or len(deal.plays) < vector.cards):
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    bad = vector.bad_card(deal) if vector.bad_card is not None else None
    if (vector.bad_card is not None and bad is None) or not vector.keep(deal):
        return None
    record = to_record(deal, vector.score_before)
    if bad is not None:
        record["plays"].append(bad)
    if vector.bad_bid is not None:
        record["bids"].append(vector.bad_bid)
    return record


def build(vector: Vector) -> dict[str, Any]:
    for i in range(10_000):
        record = play(vector, i)
        if record is not None:
            return record
    raise SystemExit(f"no deal found for {vector.name}")


def main() -> None:
    for vector in VECTORS:
        record = build(vector)
        out = replay(record)
        (HERE / f"{vector.name}.json").write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
        (HERE / f"{vector.name}.replay.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
        print(vector.name, "valid" if out["valid"] else "refused", (out["result"] or {}).get("outcome"))


if __name__ == "__main__":
    main()
