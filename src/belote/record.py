"""Deal records, format ``belote-deal/1`` (``shared/spec/deal-record.md``): write, read, replay.

A record holds a deal of any game of ``rules.variant``: the classic game, Coinche, three-handed or
two-handed. Seats and the names of the scores are the variant's (``Rules.team_names``).

>>> from belote.game import Deal
>>> deal = Deal.from_seed(3)
>>> deal.apply(deal.legal_actions()[1])
>>> out = replay(to_record(deal))
>>> out["valid"], out["taker"], len(out["hands"]["N"])
(True, 'E', 8)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from belote.actions import KEPT_QUIET, NO_BELOTE, QUIET
from belote.cards import CARDS, FULL_PACK, SUIT_SYMBOLS, CardError, cards_of, parse_card
from belote.contracts import MODE_LETTERS, Contract
from belote.declarations import belote_cards
from belote.game import SEATS, Deal, IllegalAction, Match, parse_action
from belote.play import MODE_NAMES
from belote.rules import MATCH_OPTIONS, OPTION_SPECS, OPTIONS, Rules, RulesError
from belote.variants import find_variant

FORMAT = "belote-deal/1"
REQUIRED = ("format", "dealer", "deck", "bids", "plays")
OPTIONAL = ("rules", "score_before", "pending", "quiet")
#: What a player may keep quiet (``quiet``: ``{"E": ["declarations"]}``), and the flag its card carries.
QUIET_WORDS = KEPT_QUIET
#: Record rule keys: the four of the spec, and the engine's other options of a deal as optional
#: extensions. The match options (``target``, ``deals``) are not a deal's.
RULE_KEYS = tuple(spec.name for spec in OPTIONS if spec.name not in MATCH_OPTIONS)


class RecordError(ValueError):
    """A file that is not a deal record: unreadable, not JSON, a key missing, a card that does not exist."""


def record_rules(rules: Rules) -> dict[str, Any]:
    """The ``rules`` of a record: the options that differ from the defaults and that its game reads."""
    changes = rules.changes()
    return {k: v for k, v in changes.items() if k in RULE_KEYS and OPTION_SPECS[k].read_by(rules.variant)}


def to_record(deal: Deal, score_before: Sequence[int] | None = None) -> dict[str, Any]:
    """The record of a deal as it stands (complete or in progress).

    ``score_before`` has one entry per score of the game (``rules.team_names``).
    """
    names = deal.rules.team_names
    rules = record_rules(deal.rules)
    record: dict[str, Any] = {"format": FORMAT}
    if rules:
        record["rules"] = rules
    record["dealer"] = SEATS[deal.dealer]
    record["deck"] = [str(CARDS[c]) for c in deal.deck]
    record["bids"] = [str(b) for b in deal.bids]
    record["plays"] = [str(CARDS[c]) for c in deal.plays]
    if score_before is not None and any(score_before):
        record["score_before"] = dict(zip(names, score_before, strict=True))
    if deal.pending:
        record["pending"] = deal.pending
    quiet = {SEATS[s]: [w for w, flag in QUIET_WORDS.items() if q & flag] for s, q in enumerate(deal.quiet) if q}
    if quiet:
        record["quiet"] = quiet
    return record


def match_records(match: Match) -> list[dict[str, Any]]:
    """The records of a match's finished deals (thrown-in ones too), each with the score before it:
    the archive of a table, which ``belote replay`` reads back as JSON lines (``read_all``)."""
    return [to_record(d, match.scores_before[i]) for i, d in enumerate(match.deals) if d.result is not None]


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


def read_all(path: str) -> list[dict[str, Any]]:
    """The records of a file (``loads_all``)."""
    try:
        with open(path, "rb") as f:
            return loads_all(f.read())
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None


def loads_all(text: str | bytes) -> list[dict[str, Any]]:
    """The records of a text: one record (JSON, over any number of lines), or JSON lines of records
    (a table's archive); a line that is not a record names its number."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"not JSON: {e}") from None
    try:
        whole = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError):
        whole = None
    if isinstance(whole, dict):
        return [whole]
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                records.append(loads(line))
            except RecordError as e:
                raise RecordError(f"line {number}: {e}") from None
    if not records:
        raise RecordError("no deal record in the file")
    return records


def _game(rules: Rules) -> str:
    return rules.game.title


def _seat(value: Any, key: str, rules: Rules) -> int:
    seats = SEATS[: rules.players]
    if isinstance(value, str) and value.upper() in seats:
        return seats.index(value.upper())
    names = ", ".join(seats[:-1]) + " or " + seats[-1]
    if isinstance(value, str) and value.upper() in SEATS:
        raise RecordError(f"{key} must be a seat {names}, not {value!r}: {_game(rules)} has {rules.players} players")
    raise RecordError(f"{key} must be a seat {names}, not {value!r}")


def _card(value: Any, key: str, index: int) -> int:
    try:
        return parse_card(value)
    except CardError:
        raise RecordError(f"{key}[{index}] is {value!r}, which is not a card") from None


def _team_ints(value: Any, key: str, names: tuple[str, ...]) -> tuple[int, ...]:
    shape = "{" + ", ".join(f'"{n}": int' for n in names) + "}"
    if (
        not isinstance(value, dict)
        or set(value) != set(names)
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value.values())
    ):
        raise RecordError(f"{key} must be {shape}: the scores of this game are {', '.join(names)}")
    return tuple(value[n] for n in names)


def _rules(data: Any) -> Rules:
    if not isinstance(data, dict):
        raise RecordError("rules must be an object")
    for key in data:
        if key not in RULE_KEYS:
            raise RecordError(f"unknown rule option {key!r}; the options are: {', '.join(RULE_KEYS)}")
    try:
        rules = Rules.from_dict(data)
    except RulesError as e:
        raise RecordError(str(e)) from None
    for key in data:
        games = OPTION_SPECS[key].games
        if games is not None and rules.variant not in games:
            owner = find_variant(games[0])
            raise RecordError(
                f"rule option {key!r} is a rule of {owner.title}, and this record is of {_game(rules)}"
                f' (say "variant": "{owner.name}" for a deal of {owner.title})'
            )
    return rules


def _quiet(value: Any, rules: Rules) -> list[int]:
    """The flags of what each seat kept quiet (``{"E": ["declarations", "belote"]}``)."""
    if not isinstance(value, dict):
        raise RecordError('quiet must map seats to what they kept quiet, as {"E": ["declarations"]}')
    flags = [0] * rules.players
    for key, words in value.items():
        seat = _seat(key, "quiet", rules)
        if not isinstance(words, list) or not words or any(w not in QUIET_WORDS for w in words):
            raise RecordError(f"quiet.{key} must list what {key} kept quiet: {' or '.join(QUIET_WORDS)}")
        for w in words:
            flags[seat] |= QUIET_WORDS[w]
    return flags


def parse(data: dict[str, Any]) -> tuple[Rules, int, list[int], list[Any], list[int], tuple[int, ...], int]:
    """Check the shape of a record; returns its parts. Raises RecordError."""
    for key in REQUIRED:
        if key not in data:
            raise RecordError(f"the key {key!r} is missing")
    unknown = [k for k in data if k not in REQUIRED + OPTIONAL]
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r}")
    if data["format"] != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data['format']!r}")
    rules = _rules(data.get("rules", {}))
    names = rules.team_names
    dealer = _seat(data["dealer"], "dealer", rules)
    deck_data = data["deck"]
    if not isinstance(deck_data, list):
        raise RecordError("deck must be a list of the 32 cards")
    deck = [_card(c, "deck", i) for i, c in enumerate(deck_data)]
    if len(deck) != 32 or len(set(deck)) != 32:
        missing = [str(c) for c in cards_of(FULL_PACK & ~sum(1 << c for c in set(deck)))]
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
    score_before = _team_ints(data.get("score_before", dict.fromkeys(names, 0)), "score_before", names)
    pending = data.get("pending", 0)
    if not isinstance(pending, int) or isinstance(pending, bool) or pending < 0:
        raise RecordError("pending must be a whole number of points")
    if pending and not rules.game.carries_pending:
        raise RecordError(f"pending must be 0 in {_game(rules)}: there is no 81-81 deal, so no points wait")
    return rules, dealer, deck, bids, plays, score_before, pending


def _bid(text: str, rules: Rules) -> int:
    action = parse_action(text)
    if action < 32:
        raise IllegalAction(f"{text!r} is not a bid: {rules.game.auction.bid_words}")
    return action


# ----------------------------------------------------------------------------- replaying
def _auction_over(deal: Deal) -> str:
    """Why no bid is taken any more."""
    if deal.phase == "done":
        return "the bidding is over: the deal was thrown in"
    if deal.contract is not None:
        return f"the auction is over: {SEATS[deal.contract.bidder]} plays {contract_words(deal.contract)}"
    return "the bidding is over: a player has taken"


def load_deal(data: dict[str, Any]) -> tuple[Deal, tuple[int, ...], dict[str, Any] | None]:
    """Play a record's actions on a new deal; stops at the first refused action (returned as an error)."""
    rules, dealer, deck, bids, plays, score_before, pending = parse(data)
    deal = Deal(rules, dealer, deck, pending)
    quiet = _quiet(data["quiet"], rules) if "quiet" in data else [0] * rules.players
    for i, text in enumerate(bids):
        try:
            if deal.phase != "bidding":
                raise IllegalAction(_auction_over(deal))
            deal.apply(_bid(text, rules))
        except IllegalAction as e:
            return deal, score_before, {"key": "bids", "index": i, "action": text, "message": str(e)}
    if plays and deal.phase != "play":
        thrown = deal.result is not None and deal.result.outcome == "thrown-in"
        if thrown:
            message = "the deal was thrown in: nobody took"
        else:
            message = rules.game.auction.not_over
        return deal, score_before, {"key": "plays", "index": 0, "action": str(CARDS[plays[0]]), "message": message}
    for i, c in enumerate(plays):
        try:
            if deal.phase != "play":
                raise IllegalAction("the deal is over: every card has been played")
            deal.apply(c | _kept_quiet(deal, quiet, c))
        except IllegalAction as e:
            return deal, score_before, {"key": "plays", "index": i, "action": str(CARDS[c]), "message": str(e)}
    if deal.phase == "done" and deal.quiet != quiet:
        unsaid = next(SEATS[s] for s, (q, w) in enumerate(zip(deal.quiet, quiet, strict=True)) if q != w)
        message = f"quiet.{unsaid} names something {unsaid} never had to say: no declaration, or no belote"
        return deal, score_before, {"key": "quiet", "index": None, "action": None, "message": message}
    return deal, score_before, None


def _kept_quiet(deal: Deal, quiet: list[int], card: int) -> int:
    """The flags the card played now carries: the moment of what its player kept quiet, if it is now
    (its first card for its declarations, the first of the king and queen of trumps for belote)."""
    seat = deal.to_move
    says = quiet[seat] & QUIET if len(deal.plays) < deal.players else 0
    pair = belote_cards(deal.mode)
    if quiet[seat] & NO_BELOTE and pair >> card & 1 and not any(pair >> p & 1 for p in deal.plays):
        says |= NO_BELOTE
    return says


def replay(data: dict[str, Any]) -> dict[str, Any]:
    """The replay of a record as the JSON object of the spec. Raises RecordError for a non-record."""
    deal, score_before, error = load_deal(data)
    out: dict[str, Any] = {"valid": error is None}
    if error is not None:
        out["error"] = error
    out.update(describe(deal, score_before))
    return out


def held_in_hand(deal: Deal) -> list[int]:
    """Each seat's cards in hand when play began (at two hands, not those on the table)."""
    if not deal.start_hands:
        return []
    tables = deal.table_cards or [0] * deal.players
    return [h & ~t for h, t in zip(deal.start_hands, tables, strict=True)]


def table_piles(deal: Deal) -> list[list[tuple[int, int]]]:
    """Two hands: each seat's five piles as dealt, (face-up card, face-down card), in the deck's order."""
    under = deal.under
    if not deal.table_cards or under is None:
        return []
    place = {c: i for i, c in enumerate(deal.deck)}
    return [
        sorted(((up, under[up]) for up in cards_of(deal.table_cards[s]) if under[up] >= 0), key=lambda p: place[p[0]])
        for s in range(deal.players)
    ]


def out_of_play(deal: Deal) -> int:
    """Three hands: the mask of the cards dealt to nobody (they stay face down all the deal)."""
    held = 0
    for h in deal.start_hands:
        held |= h
    return FULL_PACK & ~held if deal.start_hands else 0


def describe(deal: Deal, score_before: Sequence[int] | None = None) -> dict[str, Any]:
    """Trump, taker, hands, tricks, declarations, result and score after, for a deal as it stands.

    Coinche adds ``contract``; two hands add ``table``, three hands ``out``.
    """
    rules = deal.rules
    names = rules.team_names
    before = tuple(score_before) if score_before is not None else (0,) * rules.teams
    step, players = deal.step, deal.players
    started = bool(deal.start_hands)
    result = deal.result
    declarations: dict[str, Any] = {}
    for team, name in enumerate(names):
        announced = [{"seat": SEATS[s], **d.to_json()} for s, d in deal.announced() if rules.team(s) == team]
        scored = result.declarations[team] if result is not None and result.takers is not None else 0
        declarations[name] = {"announced": announced, "scored": scored}
    after = before if result is None else tuple(b + p for b, p in zip(before, result.points, strict=True))
    out: dict[str, Any] = {
        "trump": None if deal.trump is None else MODE_LETTERS[deal.trump],
        "taker": None if deal.taker is None else SEATS[deal.taker],
    }
    game = rules.game
    out.update(game.auction.described(deal.contract, SEATS))
    out["hands"] = (
        {SEATS[s]: [str(c) for c in cards_of(h)] for s, h in enumerate(held_in_hand(deal))} if started else None
    )
    if game.table_cards:
        out["table"] = (
            {
                SEATS[s]: [[str(CARDS[up]), str(CARDS[down])] for up, down in piles]
                for s, piles in enumerate(table_piles(deal))
            }
            if started
            else None
        )
    if game.out_of_play:
        out["out"] = [str(c) for c in cards_of(out_of_play(deal))] if started else None
    out.update(
        {
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
            "score_after": dict(zip(names, after, strict=True)),
        }
    )
    return out


# ----------------------------------------------------------------------------- for people
def mode_words(mode: int) -> str:
    """``♥`` for a suit, ``no trumps``, ``all trumps``."""
    return SUIT_SYMBOLS[mode] if mode < 4 else MODE_NAMES[mode]


def contract_words(c: Contract) -> str:
    """``110 ♥``, ``capot no trumps``, ``90 ♠ coinched``."""
    level = c.name[: -len(MODE_LETTERS[c.mode])]
    doubled = {1: "", 2: " coinched"}.get(c.multiplier, f" surcoinched (x{c.multiplier})")
    return f"{level} {mode_words(c.mode)}{doubled}"


def _by_team(names: tuple[str, ...], values: Sequence[int]) -> str:
    return " ".join(f"{n} {v}" for n, v in zip(names, values, strict=True))


def text_report(data: dict[str, Any]) -> str:
    """The replay for people."""
    deal, score_before, error = load_deal(data)
    rules = deal.rules
    names = rules.team_names
    if not rules.game.turned_card:
        lines = [f"Dealer {SEATS[deal.dealer]}, {_game(rules)}: all eight cards dealt, no card turned"]
    else:
        lines = [f"Dealer {SEATS[deal.dealer]}, turned card {deal.turned.pretty() if deal.turned is not None else '-'}"]
    if rules.changes():
        lines.append("Rules: " + ", ".join(f"{k}={v}" for k, v in record_rules(rules).items()))
    for s, b in zip(deal.bid_seats, deal.bids, strict=True):
        lines.append(f"  {SEATS[s]} {b.pretty()}")
    if deal.taker is not None and deal.trump is not None:
        if deal.contract is not None:
            lines.append(f"{SEATS[deal.taker]} plays {contract_words(deal.contract)}")
        else:
            lines.append(f"{SEATS[deal.taker]} takes, trumps are {mode_words(deal.trump)}")
        for s, hand in enumerate(held_in_hand(deal)):
            lines.append(f"  {SEATS[s]}: {' '.join(c.pretty() for c in cards_of(hand))}")
        for s, piles in enumerate(table_piles(deal)):
            shown = " ".join(f"{CARDS[up].pretty()}/{CARDS[down].pretty()}" for up, down in piles)
            lines.append(f"  {SEATS[s]} table (face up/face down): {shown}")
        if rules.game.out_of_play:
            lines.append(f"  Out of play: {' '.join(c.pretty() for c in cards_of(out_of_play(deal)))}")
    for s, d in deal.announced():
        lines.append(f"  {SEATS[s]} announces {d.name}: {' '.join(c.pretty() for c in cards_of(d.cards))}")
    said_words = deal.belote_words()
    words = iter(said_words)
    pair = {deal.mode * 8 + 5, deal.mode * 8 + 6} if said_words else set()
    for n, t in enumerate(deal.tricks, 1):
        parts = []
        for s, c in zip(t.seats(deal.step, deal.players), t.cards, strict=True):
            said = f" ({next(words)[1]})" if c in pair else ""
            parts.append(f"{SEATS[s]} {CARDS[c].pretty()}{said}")
        lines.append(f"Trick {n}: {', '.join(parts)} -> {SEATS[t.winner]} takes {t.points}")
    r = deal.result
    if r is not None:
        if r.outcome == "thrown-in":
            lines.append(f"{rules.game.auction.thrown_in_words}: the deal is thrown in.")
        else:
            cards, declared, belote = (_by_team(names, v) for v in (r.cards, r.declarations, r.belote))
            lines.append(f"{r.outcome.upper()}: cards {cards}, declarations {declared}, belote {belote}")
            lines.append(f"Points {_by_team(names, r.points)}" + (f", {r.pending} pending" if r.pending else ""))
        after = [b + p for b, p in zip(score_before, r.points, strict=True)]
        lines.append(f"Score {_by_team(names, after)}")
    elif error is None:
        lines.append(
            f"In progress: {deal.phase}, {SEATS[deal.to_move]} to {'bid' if deal.phase == 'bidding' else 'play'}"
        )
    if error is not None:
        lines.append(f"Refused: {error['key']}[{error['index']}] {error['action']}: {error['message']}")
    return "\n".join(lines)
