"""Deal records, format ``belote-deal/1`` (``shared/spec/deal-record.md``): write, read, replay.

>>> from belote.game import Deal
>>> deal = Deal.from_seed(3)
>>> deal.apply(deal.legal_actions()[1])
>>> out = replay(to_record(deal))
>>> out["valid"], out["taker"], len(out["hands"]["N"])
(True, 'E', 8)
"""

from __future__ import annotations

import json
from typing import Any

from belote.cards import CARDS, SUIT_LETTERS, CardError, cards_of, parse_card
from belote.game import SEATS, Deal, IllegalAction, parse_action
from belote.rules import Rules, RulesError
from belote.scoring import SIDES

FORMAT = "belote-deal/1"
REQUIRED = ("format", "dealer", "deck", "bids", "plays")
OPTIONAL = ("rules", "score_before", "pending")
#: Record rule keys: the four of the spec, and the engine's other options as optional extensions.
RULE_KEYS = (
    "direction",
    "declarations",
    "rounding",
    "litige",
    "undertrump",
    "declaration_tie",
    "declaration_card_reuse",
)


class RecordError(ValueError):
    """A file that is not a deal record: unreadable, not JSON, a key missing, a card that does not exist."""


def to_record(deal: Deal, score_before: tuple[int, int] | None = None) -> dict[str, Any]:
    """The record of a deal as it stands (complete or in progress)."""
    rules = {k: v for k, v in deal.rules.changes().items() if k in RULE_KEYS}
    record: dict[str, Any] = {"format": FORMAT}
    if rules:
        record["rules"] = rules
    record["dealer"] = SEATS[deal.dealer]
    record["deck"] = [str(CARDS[c]) for c in deal.deck]
    record["bids"] = [str(b) for b in deal.bids]
    record["plays"] = [str(CARDS[c]) for c in deal.plays]
    if score_before is not None and score_before != (0, 0):
        record["score_before"] = dict(zip(SIDES, score_before, strict=True))
    if deal.pending:
        record["pending"] = deal.pending
    return record


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False)


# ----------------------------------------------------------------------------- reading
def loads(text: str | bytes) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise RecordError("a deal record is a JSON object")
    return data


def read(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            return loads(f.read())
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None


def _seat(value: Any, key: str) -> int:
    if not isinstance(value, str) or value.upper() not in SEATS:
        raise RecordError(f"{key} must be a seat N, E, S or W, not {value!r}")
    return SEATS.index(value.upper())


def _card(value: Any, key: str, index: int) -> int:
    try:
        return parse_card(value)
    except CardError:
        raise RecordError(f"{key}[{index}] is {value!r}, which is not a card") from None


def _side_ints(value: Any, key: str) -> tuple[int, int]:
    if (
        not isinstance(value, dict)
        or set(value) != {"NS", "EW"}
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value.values())
    ):
        raise RecordError(f'{key} must be {{"NS": int, "EW": int}}')
    return (value["NS"], value["EW"])


def parse(data: dict[str, Any]) -> tuple[Rules, int, list[int], list[Any], list[int], tuple[int, int], int]:
    """Check the shape of a record; returns its parts. Raises RecordError."""
    for key in REQUIRED:
        if key not in data:
            raise RecordError(f"the key {key!r} is missing")
    unknown = [k for k in data if k not in REQUIRED + OPTIONAL]
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r}")
    if data["format"] != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data['format']!r}")
    rules_data = data.get("rules", {})
    if not isinstance(rules_data, dict):
        raise RecordError("rules must be an object")
    for key in rules_data:
        if key not in RULE_KEYS:
            raise RecordError(f"unknown rule option {key!r}; the options are: {', '.join(RULE_KEYS)}")
    try:
        rules = Rules.from_dict(rules_data)
    except RulesError as e:
        raise RecordError(str(e)) from None
    dealer = _seat(data["dealer"], "dealer")
    deck_data = data["deck"]
    if not isinstance(deck_data, list):
        raise RecordError("deck must be a list of the 32 cards")
    deck = [_card(c, "deck", i) for i, c in enumerate(deck_data)]
    if len(deck) != 32 or len(set(deck)) != 32:
        missing = [str(c) for c in cards_of(((1 << 32) - 1) & ~sum(1 << c for c in set(deck)))]
        twice = sorted({str(CARDS[c]) for c in deck if deck.count(c) > 1})
        detail = "; ".join(
            part
            for part in (f"missing {' '.join(missing)}" if missing else "", f"twice {' '.join(twice)}" if twice else "")
            if part
        )
        raise RecordError(f"the deck must be the 32 cards, each once ({len(deck)} cards: {detail})")
    bids = data["bids"]
    if not isinstance(bids, list) or not all(isinstance(b, str) for b in bids):
        raise RecordError("bids must be a list of strings")
    plays_data = data["plays"]
    if not isinstance(plays_data, list):
        raise RecordError("plays must be a list of cards")
    plays = [_card(c, "plays", i) for i, c in enumerate(plays_data)]
    score_before = _side_ints(data.get("score_before", {"NS": 0, "EW": 0}), "score_before")
    pending = data.get("pending", 0)
    if not isinstance(pending, int) or isinstance(pending, bool) or pending < 0:
        raise RecordError("pending must be a whole number of points")
    return rules, dealer, deck, bids, plays, score_before, pending


def _bid(text: str) -> int:
    action = parse_action(text)
    if action < 32:
        raise IllegalAction(f"{text!r} is not a bid: pass, take, or a suit letter S H D C")
    return action


# ----------------------------------------------------------------------------- replaying
def load_deal(data: dict[str, Any]) -> tuple[Deal, tuple[int, int], dict[str, Any] | None]:
    """Play a record's actions on a new deal; stops at the first refused action (returned as an error)."""
    rules, dealer, deck, bids, plays, score_before, pending = parse(data)
    deal = Deal(rules, dealer, deck, pending)
    for i, text in enumerate(bids):
        try:
            if deal.phase != "bidding":
                raise IllegalAction(
                    "the bidding is over: the deal was thrown in"
                    if deal.phase == "done"
                    else "the bidding is over: a player has taken"
                )
            deal.apply(_bid(text))
        except IllegalAction as e:
            return deal, score_before, {"key": "bids", "index": i, "action": text, "message": str(e)}
    if plays and deal.phase != "play":
        thrown = deal.result is not None and deal.result.outcome == "thrown-in"
        message = "the deal was thrown in: nobody took" if thrown else "the bidding is not over: nobody has taken yet"
        return deal, score_before, {"key": "plays", "index": 0, "action": str(CARDS[plays[0]]), "message": message}
    for i, c in enumerate(plays):
        try:
            if deal.phase != "play":
                raise IllegalAction("the deal is over: every card has been played")
            deal.apply(c)
        except IllegalAction as e:
            return deal, score_before, {"key": "plays", "index": i, "action": str(CARDS[c]), "message": str(e)}
    return deal, score_before, None


def replay(data: dict[str, Any]) -> dict[str, Any]:
    """The replay of a record as the JSON object of the spec. Raises RecordError for a non-record."""
    deal, score_before, error = load_deal(data)
    out: dict[str, Any] = {"valid": error is None}
    if error is not None:
        out["error"] = error
    out.update(describe(deal, score_before))
    return out


def describe(deal: Deal, score_before: tuple[int, int] = (0, 0)) -> dict[str, Any]:
    """Trump, taker, hands, tricks, declarations, result and score after, for a deal as it stands."""
    step, players = deal.step, deal.players
    started = bool(deal.start_hands)
    declarations: dict[str, Any] = {}
    for side in (0, 1):
        announced = [{"seat": SEATS[s], **d.to_json()} for s, d in deal.announced() if s & 1 == side]
        scored = deal.result.declarations[side] if deal.result is not None and deal.result.takers is not None else 0
        declarations[SIDES[side]] = {"announced": announced, "scored": scored}
    result = deal.result
    score_after = score_before
    if result is not None:
        score_after = (score_before[0] + result.points[0], score_before[1] + result.points[1])
    return {
        "trump": None if deal.trump is None else SUIT_LETTERS[deal.trump],
        "taker": None if deal.taker is None else SEATS[deal.taker],
        "hands": (
            {SEATS[s]: [str(c) for c in cards_of(deal.start_hands[s])] for s in range(players)} if started else None
        ),
        "tricks": [
            {
                "leader": SEATS[t.leader],
                "cards": [str(CARDS[c]) for c in t.cards],
                "winner": SEATS[t.winner],
                "points": t.points,
                "seats": [SEATS[s] for s in t.seats(step, players)],
            }
            for t in deal.tricks
        ],
        "declarations": declarations,
        "result": None if result is None else result.to_json(),
        "score_after": dict(zip(SIDES, score_after, strict=True)),
    }


def text_report(data: dict[str, Any]) -> str:
    """The replay for people."""
    deal, score_before, error = load_deal(data)
    lines = [f"Dealer {SEATS[deal.dealer]}, turned card {deal.turned.pretty() if deal.turned is not None else '-'}"]
    if deal.rules.changes():
        lines.append("Rules: " + ", ".join(f"{k}={v}" for k, v in deal.rules.changes().items()))
    for i, b in enumerate(deal.bids):
        lines.append(f"  {SEATS[deal.order[i % deal.players]]} {b.pretty()}")
    if deal.taker is not None and deal.trump is not None:
        lines.append(f"{SEATS[deal.taker]} takes, trumps are {CARDS[deal.trump * 8].pretty()[-1]}")
        for s in range(deal.players):
            hand = " ".join(c.pretty() for c in cards_of(deal.start_hands[s]))
            lines.append(f"  {SEATS[s]}: {hand}")
    for s, d in deal.announced():
        lines.append(f"  {SEATS[s]} announces {d.name}: {' '.join(c.pretty() for c in cards_of(d.cards))}")
    words = dict(enumerate(deal.belote_words()))
    k = 0
    for n, t in enumerate(deal.tricks, 1):
        parts = []
        for s, c in zip(t.seats(deal.step, deal.players), t.cards, strict=True):
            said = ""
            if deal.mode >= 0 and (c in (deal.mode * 8 + 5, deal.mode * 8 + 6)) and k in words:
                said = f" ({words[k][1]})"
                k += 1
            parts.append(f"{SEATS[s]} {CARDS[c].pretty()}{said}")
        lines.append(f"Trick {n}: {', '.join(parts)} -> {SEATS[t.winner]} takes {t.points}")
    r = deal.result
    if r is not None:
        if r.outcome == "thrown-in":
            lines.append("Everybody passed twice: the deal is thrown in.")
        else:
            lines.append(
                f"{r.outcome.upper()}: cards NS {r.cards[0]} EW {r.cards[1]}, declarations NS {r.declarations[0]} "
                f"EW {r.declarations[1]}, belote NS {r.belote[0]} EW {r.belote[1]}"
            )
            lines.append(f"Points NS {r.points[0]} EW {r.points[1]}" + (f", {r.pending} pending" if r.pending else ""))
        after = (score_before[0] + r.points[0], score_before[1] + r.points[1])
        lines.append(f"Score NS {after[0]} EW {after[1]}")
    elif error is None:
        lines.append(
            f"In progress: {deal.phase}, {SEATS[deal.to_move]} to {'bid' if deal.phase == 'bidding' else 'play'}"
        )
    if error is not None:
        lines.append(f"Refused: {error['key']}[{error['index']}] {error['action']}: {error['message']}")
    return "\n".join(lines)
