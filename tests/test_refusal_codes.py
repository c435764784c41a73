"""Every refusal has a stable code and args (docs/protocol.md, "Refusals"): each produced by a concrete
situation, in the engine (under both play-state implementations) and at the server; and every code
raised anywhere in the package is in ``belote.actions.REFUSALS``, in the protocol and in the page's words."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.actions import REFUSALS, IllegalAction, IllegalBid, IllegalPlay, Refusal, parse_action
from belote.server.tables import Table
from netplay import receive, until

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "belote"
FAST = {"strength": "easy", "speed": "fast"}
#: The exceptions that carry a code: their second argument, when given, is the code.
REFUSAL_CLASSES = {"Refusal", "IllegalAction", "IllegalBid", "IllegalPlay", "NotYourTurn", "GameOver"}
REFUSAL_CLASSES |= {"SettingsError", "BadRequest", "TooMany", "StoreFull"}


# ----------------------------------------------------------------- the list of codes
def codes_in_source() -> dict[str, set[frozenset[str]]]:
    """Every code raised in ``src/belote``, with the sets of args names it is raised with.

    A refusal made with a literal code and keyword args (``IllegalPlay(words, "must_follow", suit=...)``),
    one made with no code (``illegal_action``), and the (code, args, words) returned by ``why_illegal``.
    """
    found: dict[str, set[frozenset[str]]] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in REFUSAL_CLASSES:
                if len(node.args) < 2:
                    assert not node.keywords, f"{path.name}:{node.lineno}: args without a code"
                    found.setdefault("illegal_action", set()).add(frozenset())
                    continue
                if any(k.arg is None for k in node.keywords):  # (code, args) from why_illegal, read below
                    continue
                code = node.args[1]
                assert isinstance(code, ast.Constant) and isinstance(code.value, str), f"{path.name}:{node.lineno}"
                found.setdefault(code.value, set()).add(frozenset(k.arg for k in node.keywords if k.arg))
            elif isinstance(node, ast.FunctionDef) and node.name == "why_illegal":
                for ret in (n for n in ast.walk(node) if isinstance(n, ast.Return)):
                    assert isinstance(ret.value, ast.Tuple), f"{path.name}:{ret.lineno}"
                    code, args = ret.value.elts[0], ret.value.elts[1]
                    assert isinstance(code, ast.Constant) and isinstance(args, ast.Dict)
                    names = frozenset(k.value for k in args.keys if isinstance(k, ast.Constant))
                    found.setdefault(code.value, set()).add(names)
    return found


def protocol_examples() -> dict[str, dict[str, Any]]:
    """The refusals listed in docs/protocol.md: each code with the example args of its row."""
    text = (ROOT / "docs" / "protocol.md").read_text()
    rows = re.findall(r"^\| `([a-z_]+)` \| `(\{.*?\})` \|", text, re.MULTILINE)
    examples = {code: json.loads(args) for code, args in rows}
    assert len(examples) == len(rows), "a code listed twice"
    return examples


def page_codes(lang: str) -> set[str]:
    """The codes worded in ``lang`` by the page's web/refusals.js."""
    text = (SRC / "web" / "refusals.js").read_text()
    words = text[text.index("const WORDS = {") :]
    block = re.search(rf"^  {lang}: \{{\n(.*?)^  \}},$", words, re.MULTILINE | re.DOTALL)
    assert block is not None, lang
    return set(re.findall(r"^    ([a-z_]+): \(", block.group(1), re.MULTILINE))


def test_every_code_raised_is_registered_with_its_args() -> None:
    found = codes_in_source()
    assert set(found) == set(REFUSALS), "every registered code is raised somewhere, and only those"
    for code, shapes in found.items():
        assert shapes == {frozenset(REFUSALS[code])}, code
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", code) for code in REFUSALS)


def test_every_code_is_in_the_protocol_with_its_args() -> None:
    examples = protocol_examples()
    assert set(examples) == set(REFUSALS)
    for code, args in examples.items():
        assert sorted(args) == sorted(REFUSALS[code]), code


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_code_is_worded_by_the_page(lang: str) -> None:
    assert page_codes(lang) == set(REFUSALS)


def test_a_refusal_keeps_its_words_and_checks_its_code() -> None:
    e = IllegalPlay("you must follow suit", "must_follow", suit="C", cards=["7C", "AC"])
    assert str(e) == "you must follow suit" and e.code == "must_follow"
    assert e.to_json() == {"message": "you must follow suit", "code": "must_follow", "args": e.details}
    assert IllegalAction("no rule of its own").to_json() == {
        "message": "no rule of its own",
        "code": "illegal_action",
        "args": {},
    }
    with pytest.raises(AssertionError):
        IllegalBid("an unknown code", "no_such_code")
    with pytest.raises(AssertionError):
        IllegalPlay("args of another rule", "must_follow", suit="C")


# ----------------------------------------------------------------- the engine
def engine_refusals() -> list[list[Any]]:
    """[situation, code, args] of the engine's refusals, in deals whose hands are known (run under an engine).

    The pack deal: the deck in order, N deals, E takes the turned J♦ (diamonds are trumps):
    N 8H 9H TH 9D TD QC KC AC / E 7S 8S 9S JH QH JD QD KD / S TS JS QS KH AH AD 7C 8C /
    W KS AS 7H 7D 8D 9C TC JC.
    """
    from belote.actions import NO_BELOTE, QUIET, Refusal
    from belote.auctions.contracts import CONTRACTS
    from belote.cards import parse_card
    from belote.contracts import COINCHE, SURCOINCHE, parse_contract
    from belote.game import NAMES, PASS, TAKE, Deal, Match, parse_action
    from belote.rules import Rules

    out: list[list[Any]] = []

    def refused(label: str, do: Any) -> None:
        try:
            do()
        except Refusal as e:
            out.append([label, e.code, e.details])
        else:
            out.append([label, "accepted", {}])

    def deal(variant: str = "classic", **options: Any) -> Deal:
        return Deal(Rules(variant=variant, **options), 0, list(range(32)))

    def played(*cards: str, deck: list[int] | None = None) -> Deal:
        d = Deal(Rules(), 0, deck or list(range(32)))
        d.apply(TAKE)
        for c in cards:
            d.apply(parse_card(c))
        return d

    def bid(d: Deal, *bids: str) -> Deal:
        for b in bids:
            d.apply(parse_action(b))
        return d

    def deck_for(hands: dict[int, str]) -> list[int]:
        """The deck that deals these hands when E takes (E's first card is the turned one)."""
        pack = deal()
        turned = int(pack.turned)
        pack.apply(TAKE)
        deck = [0] * 32
        for seat, cards in hands.items():
            places = sorted(int(c) for c in pack.hand(seat))
            if seat == 1:
                places.remove(turned)
                places.insert(0, turned)
            for place, card in zip(places, cards.split(), strict=True):
                deck[place] = parse_card(card)
        return deck

    card = parse_card
    # E leads a spade and S, who has none, trumps: with Q♦ in the first layout, where W (no spade
    # either) holds 9♦ and J♦ and must overtrump; with J♦ in the second, where W holds only 8♦ and Q♦
    # and must still trump.
    over = deck_for({
        1: "7D 7S 8S 9S TS JS QS KS",
        2: "8D QD 9H TH JH QH KH AH",
        3: "9D JD 7C 8C 9C TC JC QC",
        0: "AS 7H 8H TD KD AD KC AC",
    })  # fmt: skip
    under = deck_for({
        1: "7D 7S 8S 9S TS JS QS KS",
        2: "9D JD 9H TH JH QH KH AH",
        3: "8D QD 7C 8C 9C TC JC QC",
        0: "AS 7H 8H TD KD AD KC AC",
    })  # fmt: skip

    # The play of the cards.
    refused("a card of another hand", lambda: played().apply(card("AC")))
    refused("a heart on a spade", lambda: played("7S").apply(card("KH")))
    refused("a club, no spade, the other side winning", lambda: played("7S", "TS", "AS").apply(card("AC")))
    refused(
        "a spade on the 10 of trumps, holding the jack",
        lambda: played("7S", "TS", "KS", "8H", "JS", "AS", "9D", "8S", "TD").apply(card("9S")),
    )
    refused("a club over the queen of trumps", lambda: played("7S", "QD", deck=over).apply(card("7C")))
    refused("a club over the jack of trumps", lambda: played("7S", "JD", deck=under).apply(card("7C")))
    refused("quiet with no declaration", lambda: played("7S", "QD", "JD", deck=over).apply(card("AS") | QUIET))
    refused("no belote said with another card", lambda: played().apply(card("7S") | NO_BELOTE))
    refused("pass in the play", lambda: played().apply(PASS))
    refused("a card out of turn", lambda: played().apply(card("TS"), 2))
    # The bidding, any auction.
    refused("a card in the bidding", lambda: deal().apply(card("7S")))
    refused("a card in the Coinche bidding", lambda: deal("coinche").apply(card("7S")))
    refused("a bid out of turn", lambda: deal().apply(TAKE, 2))
    refused("a string", lambda: deal().apply("JH"))
    refused("a number that is no action", lambda: deal().apply(1000))
    refused("a number in Coinche", lambda: deal("coinche").apply(1000))
    # The turned card.
    refused("a contract with a turned card", lambda: deal().apply(parse_contract("80h")))
    refused("coinche with a turned card", lambda: deal().apply(COINCHE))
    refused("a suit in the first round", lambda: deal().apply(NAMES[0]))
    refused("take in the second round", lambda: bid(deal(), *["pass"] * 4).apply(TAKE))
    refused("the turned suit in the second round", lambda: bid(deal(), *["pass"] * 4).apply(NAMES[2]))
    # Coinche.
    refused("take in Coinche", lambda: deal("coinche").apply(TAKE))
    refused("a suit in Coinche", lambda: deal("coinche").apply(NAMES[1]))
    refused("coinche before any contract", lambda: deal("coinche").apply(COINCHE))
    refused("surcoinche before a coinche", lambda: bid(deal("coinche"), "80H").apply(SURCOINCHE))
    refused("coinche by the bidder's partner", lambda: bid(deal("coinche"), "80H", "pass").apply(COINCHE))
    refused("coinche twice", lambda: bid(deal("coinche"), "80H", "coinche").apply(COINCHE))
    refused("a contract after a coinche", lambda: bid(deal("coinche"), "80H", "coinche").apply(parse_action("90H")))
    refused("80 over 90", lambda: bid(deal("coinche"), "90H").apply(parse_action("80S")))
    refused("160 over capot", lambda: bid(deal("coinche"), "capotH").apply(parse_action("160S")))
    refused(
        "160 over capot, the générale played",
        lambda: bid(deal("coinche", generale=True), "capotH").apply(parse_action("160S")),
    )
    refused("170 to 160", lambda: deal("coinche").apply(parse_action("170S")))
    refused("a générale not played", lambda: deal("coinche").apply(parse_action("generaleS")))
    refused("no-trumps not played", lambda: deal("coinche", no_trump_all_trump=False).apply(parse_action("80NT")))
    coinched = bid(deal("coinche"), "80H", "coinche")
    out.append(["surcoinche asked of the rule", CONTRACTS.explain(coinched, SURCOINCHE).code, {}])
    # Any game.
    refused("a word that is no action", lambda: parse_action("ZZ"))
    refused("nothing to undo", lambda: deal().undo())

    def finished() -> Deal:
        d = deal()
        while d.phase != "done":
            legal = d.legal_actions()
            d.apply(TAKE if TAKE in legal else legal[0])
        return d

    refused("a card after the last trick", lambda: finished().apply(card("7S")))

    def match_over() -> None:
        m = Match(seed=1, score=(500, 500))
        while not m.over:
            legal = m.legal_actions()
            m.apply(TAKE if TAKE in legal else legal[0])
        m.apply(PASS)

    refused("pass after the match", match_over)
    return out


ENGINE_REFUSALS = [
    ["a card of another hand", "not_in_hand", {"card": "AC"}],
    ["a heart on a spade", "must_follow", {"suit": "S", "cards": ["TS", "JS", "QS"]}],
    ["a club, no spade, the other side winning", "must_trump", {"suit": "S", "cards": ["9D", "TD"]}],
    ["a spade on the 10 of trumps, holding the jack", "must_go_higher", {"suit": "D", "best": "TD", "cards": ["JD"]}],
    ["a club over the queen of trumps", "must_overtrump", {"best": "QD", "cards": ["9D", "JD"]}],
    ["a club over the jack of trumps", "must_undertrump", {"best": "JD", "cards": ["8D", "QD"]}],
    ["quiet with no declaration", "nothing_to_keep_quiet", {"what": "declarations"}],
    ["no belote said with another card", "nothing_to_keep_quiet", {"what": "belote"}],
    ["pass in the play", "bidding_over", {"action": "pass"}],
    ["a card out of turn", "not_your_turn", {"seat": "E", "phase": "play"}],
    ["a card in the bidding", "bidding_not_over", {"card": "7S", "auction": "turned"}],
    ["a card in the Coinche bidding", "bidding_not_over", {"card": "7S", "auction": "contracts"}],
    ["a bid out of turn", "not_your_turn", {"seat": "E", "phase": "bidding"}],
    ["a string", "not_an_action", {"text": "'JH'"}],
    ["a number that is no action", "not_a_bid", {"bid": "1000"}],
    ["a number in Coinche", "not_a_bid", {"bid": "1000"}],
    ["a contract with a turned card", "coinche_bid", {"bid": "80H"}],
    ["coinche with a turned card", "coinche_bid", {"bid": "coinche"}],
    ["a suit in the first round", "name_in_second_round", {"suit": "S"}],
    ["take in the second round", "take_in_first_round", {}],
    ["the turned suit in the second round", "turned_suit", {"suit": "D"}],
    ["take in Coinche", "no_turned_card", {"bid": "take"}],
    ["a suit in Coinche", "no_turned_card", {"bid": "H"}],
    ["coinche before any contract", "nothing_to_coinche", {}],
    ["surcoinche before a coinche", "nothing_to_surcoinche", {}],
    ["coinche by the bidder's partner", "coinche_own_side", {"contract": "80H"}],
    ["coinche twice", "already_coinched", {"contract": "80H"}],
    ["a contract after a coinche", "bidding_closed", {"contract": "80H"}],
    ["80 over 90", "bid_too_low", {"min": "100", "contract": "90H"}],
    ["160 over capot", "bid_too_low", {"min": None, "contract": "capotH"}],
    ["160 over capot, the générale played", "bid_too_low", {"min": "generale", "contract": "capotH"}],
    ["170 to 160", "bid_too_high", {"max": 160}],
    ["a générale not played", "no_generale", {}],
    ["no-trumps not played", "mode_not_played", {"mode": "NT"}],
    ["surcoinche asked of the rule", "surcoinche_bidders_only", {}],
    ["a word that is no action", "not_an_action", {"text": "ZZ"}],
    ["nothing to undo", "nothing_to_undo", {}],
    ["a card after the last trick", "deal_over", {}],
    ["pass after the match", "match_over", {}],
]  # fmt: skip


def test_the_engine_refuses_with_codes_and_args_under_each_implementation(impl: Any) -> None:
    assert impl.run(engine_refusals) == ENGINE_REFUSALS


def test_the_words_stay_those_of_the_rule() -> None:
    with pytest.raises(IllegalAction) as info:
        parse_action("ZZ")
    assert str(info.value).startswith("'ZZ' is not an action")
    assert info.value.code == "not_an_action" and info.value.details == {"text": "ZZ"}


# ----------------------------------------------------------------- the server
pytestmark = pytest.mark.app_config(pace=0.0)


def http_refusal(r: Any, status: int) -> tuple[str, dict[str, Any]]:
    body = r.json()
    assert r.status_code == status, r.text
    assert isinstance(body["error"], str) and body["error"], body
    return body["code"], body["args"]


def ws_refusal(ws: Any) -> tuple[str, dict[str, Any]]:
    msg = receive(ws, "error")
    assert set(msg) == {"type", "message", "code", "args"} and msg["message"], msg
    return msg["code"], msg["args"]


def join(ws: Any, table: str, token: str) -> dict[str, Any]:
    ws.send_json({"type": "join", "table": table, "token": token, "since": -1})
    return receive(ws)


def private(client: TestClient, **settings: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"name": "Ann", "settings": {**FAST, **settings}})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def sit(client: TestClient, t: dict[str, Any], name: str, seat: str | None = None) -> Any:
    return client.post(f"/api/tables/{t['table']}/sit", json={"invite": t["invite"], "name": name, "seat": seat})


@pytest.mark.parametrize(
    ("body", "status", "code", "args"),
    [
        ([1], 400, "bad_settings", {}),
        ({"colour": "red"}, 400, "unknown_setting", {"option": "colour"}),
        (
            {"target": 5},
            400,
            "bad_setting",
            {"option": "target", "value": 5, "choices": None, "min": 100, "max": 5000},
        ),
        (
            {"strength": "godlike"},
            400,
            "bad_setting",
            {
                "option": "strength",
                "value": "godlike",
                "choices": ["easy", "normal", "strong"],
                "min": None,
                "max": None,
            },
        ),
        (
            {"rounding": "yes"},
            400,
            "bad_setting",
            {"option": "rounding", "value": "yes", "choices": [True, False], "min": None, "max": None},
        ),
        (b"{not json", 400, "not_json", {}),
        (b"[" * 5000, 413, "too_long", {"max": 4096}),
        (b"[" * 9 + b"]" * 9, 400, "too_deep", {"max": 8}),
        (b'{"strength": "\\ud83d"}', 400, "bad_text", {}),
    ],
)  # fmt: skip
def test_a_solo_table_refuses_settings_with_codes(
    client: TestClient, body: Any, status: int, code: str, args: dict[str, Any]
) -> None:
    json_type = {"content-type": "application/json"}
    r = (
        client.post("/api/solo", content=body, headers=json_type)
        if isinstance(body, bytes)
        else client.post("/api/solo", json=body)
    )
    assert http_refusal(r, status) == (code, args)


@pytest.mark.parametrize(
    ("body", "code", "args"),
    [
        ([1], "bad_request", {}),
        ({"name": ""}, "bad_name", {"min": 1, "max": 24}),
        ({"name": "x" * 25}, "bad_name", {"min": 1, "max": 24}),
        ({"name": "a\x00b"}, "name_control_characters", {}),
        ({"name": "Ann", "seat": "X"}, "bad_seat", {}),
        (
            {"name": "Ann", "seat": "W", "settings": {"variant": "three-handed"}},
            "no_such_seat",
            {"seat": "W", "seats": ["N", "E", "S"]},
        ),
    ],
)
def test_a_private_table_refuses_with_codes(client: TestClient, body: Any, code: str, args: dict[str, Any]) -> None:
    assert http_refusal(client.post("/api/tables", json=body), 400) == (code, args)


def test_sitting_is_refused_with_codes(client: TestClient) -> None:
    t = private(client, variant="three-handed")
    assert http_refusal(client.get(f"/api/tables/{t['table']}?invite=wrong"), 404) == ("no_such_table", {})
    wrong = client.post(f"/api/tables/{t['table']}/sit", json={"invite": t["watch"], "name": "Eve"})
    assert http_refusal(wrong, 404) == ("no_such_table", {})
    taken = sit(client, t, "Bob", "S")
    assert http_refusal(taken, 409) == ("seat_taken", {"seat": "S"}) and taken.json()["watch"] == t["watch"]
    assert http_refusal(sit(client, t, "Bob", "W"), 409) == ("no_such_seat", {"seat": "W", "seats": ["N", "E", "S"]})
    assert sit(client, t, "Bob").status_code == 200 and sit(client, t, "Cid").status_code == 200
    assert http_refusal(sit(client, t, "Dan"), 409) == ("table_full", {"players": 3})
    started = private(client)
    with client.websocket_connect("/ws") as ws:
        join(ws, started["table"], started["token"])
        ws.send_json({"type": "start"})
        until(ws, lambda m: m["status"] == "playing")
    assert http_refusal(sit(client, started, "Eve"), 409) == ("game_started", {"request": "sit"})


def test_bad_messages_are_refused_with_codes(client: TestClient) -> None:
    r = client.post("/api/solo", json=FAST)
    solo = r.json()
    with client.websocket_connect("/ws") as ws:
        ws.send_text("hello")
        assert ws_refusal(ws) == ("not_json", {})
        ws.send_json([1, 2, 3])
        assert ws_refusal(ws) == ("bad_message", {})
        ws.send_json({"type": 7})
        assert ws_refusal(ws) == ("bad_message", {})
        ws.send_text(json.dumps({"type": "chat", "text": "x" * 5000}))
        assert ws_refusal(ws) == ("too_long", {"max": 4096})
        ws.send_json({"type": "dance"})
        assert ws_refusal(ws) == ("unknown_type", {"type": "dance"})
        ws.send_json({"type": "act", "action": "JH"})
        assert ws_refusal(ws) == ("not_joined", {})
        ws.send_json({"type": "join", "table": solo["table"], "token": "wrong"})
        assert ws_refusal(ws) == ("no_such_table", {})
        ws.send_json({"type": "queue", "name": ""})
        assert ws_refusal(ws) == ("bad_name", {"min": 1, "max": 24})
        ws.send_json({"type": "queue", "name": "Ann", "variant": "five"})
        code, args = ws_refusal(ws)
        assert (code, args["option"], args["value"]) == ("bad_setting", "variant", "five")
        assert args["choices"] == ["classic", "coinche", "three-handed", "two-handed"]
        join(ws, solo["table"], solo["token"])
        for action, text in (("ZZ", "ZZ"), (12, "12"), (["JH"], "['JH']"), ("x" * 100, "x" * 16)):
            ws.send_json({"type": "act", "action": action})
            assert ws_refusal(ws) == ("not_an_action", {"text": text})
        ws.send_json({"type": "new_game", "settings": {"speed": "warp"}})
        assert ws_refusal(ws)[0] == "bad_setting"
        ws.send_json({"type": "settings", "settings": 5})
        assert ws_refusal(ws) == ("bad_settings", {})


def test_chat_is_refused_with_codes(client: TestClient) -> None:
    t = private(client)
    with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as eye:
        join(ws, t["table"], t["token"])
        ws.send_json({"type": "chat", "text": "   "})
        assert ws_refusal(ws) == ("bad_chat", {"max": 200})
        ws.send_json({"type": "chat", "text": "x" * 201})
        assert ws_refusal(ws) == ("chat_too_long", {"max": 200})
        ws.send_json({"type": "react", "reaction": "boo"})
        reactions = ["well_played", "bravo", "nice_trick", "thanks", "oops", "sorry", "hurry", "good_game"]
        assert ws_refusal(ws) == ("bad_reaction", {"reactions": reactions})
        for i in range(5):
            ws.send_json({"type": "chat", "text": f"line {i}"})
        ws.send_json({"type": "chat", "text": "one too many"})
        assert ws_refusal(ws) == ("slow_down", {"count": 5, "seconds": 10})
        eye.send_json({"type": "join", "table": t["table"], "watch": t["watch"], "since": -1})
        receive(eye)
        eye.send_json({"type": "act", "action": "pass"})
        assert ws_refusal(eye) == ("read_only", {})


def test_a_spectator_writes_in_the_chat_within_the_limits_of_one_person(client: TestClient) -> None:
    """A spectator's lines reach the table marked as a spectator's, under the name they joined with;
    each spectator's socket has the limit of one seat (5 lines in 10 seconds), whatever the others
    said; what a spectator still cannot do is refused read_only."""
    t = private(client)
    with (
        client.websocket_connect("/ws") as host,
        client.websocket_connect("/ws") as eye,
        client.websocket_connect("/ws") as other,
    ):
        join(host, t["table"], t["token"])
        eye.send_json({"type": "join", "table": t["table"], "watch": t["watch"], "since": -1, "name": "Zoé"})
        receive(eye)
        other.send_json({"type": "join", "table": t["table"], "watch": t["watch"], "since": -1})
        receive(other)
        eye.send_json({"type": "chat", "text": "allez  Ann"})
        said = eye.receive_json()  # the line comes back to its writer, as to everyone at the table
        assert said["type"] == "chat" and said["spectator"] is True, said
        line = receive(host, "chat")
        assert {k: v for k, v in line.items() if k != "at"} == {
            "type": "chat", "seat": None, "name": "Zoé", "text": "allez Ann", "reaction": None, "spectator": True
        }  # fmt: skip
        other.send_json({"type": "react", "reaction": "nice_trick"})
        line = receive(host, "chat")
        assert (line["seat"], line["name"], line["reaction"], line["spectator"]) == (None, None, "nice_trick", True)
        for i in range(4):
            eye.send_json({"type": "chat", "text": f"line {i}"})
        eye.send_json({"type": "chat", "text": "one too many"})
        assert ws_refusal(eye) == ("slow_down", {"count": 5, "seconds": 10})
        other.send_json({"type": "chat", "text": "my own five"})
        assert receive(host, "chat")["text"] == "line 0"  # the host reads them in order, each once
        assert [receive(host, "chat")["text"] for _ in range(4)] == ["line 1", "line 2", "line 3", "my own five"]
        for msg in ({"type": "act", "action": "pass"}, {"type": "start"}, {"type": "hint"}):
            eye.send_json(msg)
            assert ws_refusal(eye) == ("read_only", {})


def test_a_game_of_fewer_seats_than_people_is_refused_with_a_code(client: TestClient) -> None:
    t = private(client)
    for name, seat in (("Bob", "N"), ("Cid", "E")):
        assert sit(client, t, name, seat).status_code == 200
    with client.websocket_connect("/ws") as host:
        join(host, t["table"], t["token"])
        host.send_json({"type": "settings", "settings": {**FAST, "variant": "two-handed"}})
        expected = {"variant": "two-handed", "seats": ["N", "E"], "people": 3}
        assert ws_refusal(host) == ("too_many_people", expected)


def test_the_lobby_and_the_match_refuse_with_codes(client: TestClient) -> None:
    t = private(client, turn_timer=600)
    bob = sit(client, t, "Bob", "N").json()
    with client.websocket_connect("/ws") as host, client.websocket_connect("/ws") as guest:
        join(host, t["table"], t["token"])
        join(guest, t["table"], bob["token"])
        for msg in ({"type": "start"}, {"type": "settings", "settings": {}}, {"type": "new_game"}):
            guest.send_json(msg)
            assert ws_refusal(guest) == ("not_host", {})
        host.send_json({"type": "leave"})
        assert ws_refusal(host) == ("host_stays", {})
        host.send_json({"type": "act", "action": "pass"})
        assert ws_refusal(host) == ("not_started", {})
        guest.send_json({"type": "seat", "seat": "S"})
        assert ws_refusal(guest) == ("seat_taken", {"seat": "S"})
        guest.send_json({"type": "seat", "seat": "Q"})
        assert ws_refusal(guest) == ("bad_seat", {})
        host.send_json({"type": "start"})
        until(host, lambda m: m["status"] == "playing")
        for ws, msg, request in (
            (host, {"type": "start"}, "start"),
            (host, {"type": "settings", "settings": {}}, "settings"),
            (guest, {"type": "seat", "seat": "W"}, "seat"),
            (guest, {"type": "leave"}, "leave"),
        ):
            ws.send_json(msg)
            assert ws_refusal(ws) == ("game_started", {"request": request})
        host.send_json({"type": "new_game"})
        assert ws_refusal(host) == ("match_not_over", {})
        # The bots at E and W act at once: the turn stops at one of the two people (in the bidding, or
        # in the play when a bot took), and the other is refused.
        state = join(host, t["table"], t["token"])  # the table as it is now (the refusals skipped states)
        if state["view"]["to_move"] not in ("N", "S"):
            state = until(host, lambda m: m["view"]["to_move"] in ("N", "S"))
        mover, phase = state["view"]["to_move"], state["view"]["phase"]
        assert phase in ("bidding", "play")
        other = guest if mover == "S" else host
        other.send_json({"type": "act", "action": "pass"})
        assert ws_refusal(other) == ("not_your_turn", {"seat": mover, "phase": phase})


def test_a_finished_match_refuses_an_action(client: TestClient) -> None:
    solo = client.post("/api/solo", json={**FAST, "deals": 1}).json()
    with client.websocket_connect("/ws") as ws:
        state = join(ws, solo["table"], solo["token"])
        answered = None
        for _ in range(300):
            view = state["view"]
            if view["match_over"]:
                break
            # Each position is answered once: a state may come again for the same position.
            position = (view["deal_number"], len(view["bids"]), len(view["tricks"]), len(view["trick"]))
            if position != answered and state["waiting"] == "continue":  # a deal thrown in: read its score
                ws.send_json({"type": "continue"})
                answered = position
            elif position != answered and view["legal"]:
                ws.send_json({"type": "act", "action": view["legal"][-1]})
                answered = position
            state = ws.receive_json()
            assert state["type"] == "state", state  # nothing was refused on the way
        assert state["view"]["match_over"]
        ws.send_json({"type": "act", "action": "pass"})
        assert ws_refusal(ws) == ("match_over", {})


def test_a_failing_store_is_refused_with_a_code(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(self: Table, *args: Any, **kwargs: Any) -> None:
        raise OSError("the disk is gone")

    monkeypatch.setattr(Table, "_say", broken)  # a chat line the store cannot keep
    t = private(client)
    with client.websocket_connect("/ws") as ws:
        join(ws, t["table"], t["token"])
        ws.send_json({"type": "chat", "text": "hello"})
        assert ws_refusal(ws) == ("server_error", {})


def test_a_refusal_from_the_server_is_a_refusal_of_the_engine() -> None:
    """The server sends what the engine raised: the same code and args, the same words."""
    from belote.server.room import check_settings

    with pytest.raises(Refusal) as info:
        check_settings({"turn_timer": 2})
    assert info.value.to_json() == {
        "message": "turn_timer must be a whole number from 5 to 600, not 2",
        "code": "bad_setting",
        "args": {"option": "turn_timer", "value": 2, "choices": None, "min": 5, "max": 600},
    }
