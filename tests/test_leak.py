"""No hidden card leaves the server: 200 whole games through the websocket protocol, every message scanned.

Each game is a private table of two to four scripted players (bots in the other seats) and a
spectator, on a real server over real sockets. Afterwards the truth is rebuilt from the store
alone (the table's seed and action log, replayed by a fresh engine), and every message each seat
and the spectator received is checked: the ``hand`` is exactly that seat's true hand at that
moment; every other card anywhere in the message (trick, tricks, turned card, declarations,
events, results) is public at that moment: the turned card, a card already played, or a
declaration shown after the first trick. A card event names exactly the card that was played.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from websockets.asyncio.client import connect

from belote.cards import cards_of
from belote.game import SEATS, Match, parse_action
from belote.server.room import rules_of
from games import one_of_each
from netplay import Player, Server, State, cards_in, match_over, private_table, run, stored_table

if TYPE_CHECKING:
    from starlette.testclient import TestClient

GAMES = 200
PARTS = 4
AT_ONCE = 10


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``belote serve`` in a process of its own (the scripted players use the other core). Its bots, all
    easy ones, think in threads of its own: no worker processes to start, nor to send each decision to."""
    folder = tmp_path_factory.mktemp("leak")
    proc = Server(
        folder / "leak.sqlite3", folder / "serve.log", "--pace", "0", "--turn-timer", "600", "--think-workers", "0"
    )
    proc.start()
    yield proc.base, proc.db
    proc.stop()


class Seat(Player):
    """A scripted player (``netplay.Player``) that costs less per message, which counts over the 15,000
    messages of a part: its socket asks for no compression (the server deflates nothing for it, it inflates
    nothing; the messages are the same)."""

    async def connect(self) -> State:
        self.ws = await connect(self.url, max_size=2**22, open_timeout=10, compression=None)
        join: dict[str, Any] = {"type": "join", "table": self.table, "since": self.last}
        join.update({"token": self.token} if self.token else {"watch": self.watch})
        await self.ws.send(json.dumps(join))
        return await self.next_state()


def settings_for(game: int) -> dict[str, Any]:
    """Every game a whole match; the rules vary so that declarations, directions and lengths all occur."""
    return {
        "strength": "easy",
        "turn_timer": 600,
        "declarations": game % 5 != 4,
        "direction": "counterclockwise" if game % 7 == 3 else "clockwise",
        "rounding": game % 6 == 5,
        **({"deals": 1 + game % 3} if game % 10 else {"target": 501}),
    }


async def one_game(base: str, game: int) -> tuple[str, dict[str, list[dict[str, Any]]]]:
    people = 4 - game % 3  # 4, 3 or 2 people; bots in the other seats
    t, tokens = await asyncio.to_thread(private_table, base, people, settings_for(game))
    url = base.replace("http", "ws") + "/ws"
    players = {s: Seat(url, t["table"], token=tok, seed=game * 10 + i) for i, (s, tok) in enumerate(tokens.items())}
    spectator = Seat(url, t["table"], watch=t["watch"])
    for p in players.values():
        await p.connect()
    await spectator.connect()
    await players["S"].send({"type": "start"})
    await asyncio.gather(*(p.play(match_over) for p in [*players.values(), spectator]))
    for p in [*players.values(), spectator]:
        await p.close()
        assert not p.errors, p.errors
    received = {s: p.messages for s, p in players.items()}
    received["spectator"] = spectator.messages
    return t["table"], received


class Truth:
    """The table as the store has it, replayed by a fresh engine: hands and public cards at every moment."""

    def __init__(self, db: Path, table_id: str) -> None:
        meta, actions = stored_table(db, table_id)
        seed = int(meta["seed"])
        match = Match(rules_of(meta["settings"]), seed=seed, first_dealer=seed % 4)
        self.moments: dict[tuple[int, int, int], dict[str, Any]] = {}
        self.plays: dict[int, list[str]] = {}
        self.shown: dict[int, set[str]] = {}
        self.turned: dict[int, str] = {}
        self._note(match)
        for a in actions:
            match.apply(parse_action(a))
            self._note(match)
        assert match.over

    def _note(self, match: Match) -> None:
        # An action changes the last deal, and ends the one before when it deals the next: the deals
        # before those were noted whole when they were among the last two.
        for d in range(max(0, len(match.deals) - 2), len(match.deals)):
            deal = match.deals[d]
            assert deal.turned is not None
            self.turned[d] = str(deal.turned)
            self.plays[d] = [str(c) for c in deal.view(None).played]
            side = deal.scoring_declarations_side()
            shown: set[str] = set()
            if side is not None:
                for s, decl in deal.announced():
                    if s & 1 == side:
                        shown |= {str(c) for c in cards_of(decl.cards)}
            self.shown[d] = shown
        d = len(match.deals) - 1
        deal = match.deal
        key = (d, len(deal.bids), len(deal.view(None).played))
        self.moments[key] = {s: sorted(str(c) for c in deal.hand(i)) for i, s in enumerate(SEATS)}

    def public(self, d: int, plays: int) -> set[str]:
        cards = {self.turned[d], *self.plays[d][:plays]}
        return cards | self.shown[d] if plays >= 4 else cards


def check(truth: Truth, seat: str, messages: list[dict[str, Any]]) -> int:
    """Scan one client's messages; returns how many cards were looked at."""
    seen = 0
    deal = -1
    plays = 0
    for msg in messages:
        if msg["type"] != "state":
            found = cards_in(msg)
            assert not found, f"cards {found} in a {msg['type']} message to {seat}"
            continue
        for _, event in msg["events"]:
            if event["type"] == "deal":
                deal, plays = event["number"] - 1, 0
            elif event["type"] == "card":
                assert event["card"] == truth.plays[deal][plays], f"a card event to {seat} is not the card played"
                plays += 1
                seen += 1
                continue
            for card in cards_in(event):
                seen += 1
                assert card in truth.public(deal, plays), f"{card} in a {event['type']} event to {seat}: hidden"
        view = msg["view"]
        if view is None:
            continue
        d = view["deal_number"] - 1
        k = 4 * len(view["tricks"]) + len(view["trick"])
        moment = truth.moments[(d, len(view["bids"]), k)]
        assert sorted(view["hand"]) == (moment[seat] if seat != "spectator" else []), f"{seat}'s hand is wrong"
        assert set(cards_in(view["legal"])) <= set(view["hand"])
        public = truth.public(d, k)
        for card in cards_in(view, skip=("hand", "legal")):
            seen += 1
            assert card in public, f"{card} in the view sent to {seat} is hidden from it"
        seen += len(view["hand"])
    return seen


@pytest.mark.parametrize(
    "part", range(PARTS), ids=lambda p: f"games {p * GAMES // PARTS}-{(p + 1) * GAMES // PARTS - 1}"
)
def test_no_hidden_card_in_any_message_of_200_games(server: tuple[str, Path], part: int) -> None:
    """The 200 games in ``PARTS`` parts, which the suite's workers share."""
    base, db = server
    numbers = range(part * GAMES // PARTS, (part + 1) * GAMES // PARTS)

    async def all_games() -> list[tuple[str, dict[str, list[dict[str, Any]]]]]:
        out: list[tuple[str, dict[str, list[dict[str, Any]]]]] = []
        for start in range(numbers.start, numbers.stop, AT_ONCE):
            out += await asyncio.gather(*(one_game(base, g) for g in range(start, min(numbers.stop, start + AT_ONCE))))
        return out

    games = run(all_games())
    assert len(games) == len(numbers)
    messages = cards = 0
    for table_id, received in games:
        truth = Truth(db, table_id)
        for seat, msgs in received.items():
            assert any(m["type"] == "state" and m["view"] and m["view"]["match_over"] for m in msgs)
            cards += check(truth, seat, msgs)
            messages += len(msgs)
    assert messages > len(games) * 100 and cards > len(games) * 1000  # the scan looked at real traffic


def test_no_hidden_card_through_the_archive_or_the_analysis(app_client: Callable[..., TestClient], db: Path) -> None:
    """The records route gives the finished deals only, never the deal in progress (its deck holds
    every hidden card); the analysis of a deal in progress is refused, even to a seat of the table;
    a spectator has nothing before the match is over."""
    from belote.record import to_record
    from belote.server.room import check_settings, new_match
    from netplay import stored_table

    with app_client(pace=0.0, think_workers=0) as client:
        data = client.post("/api/solo", json={"strength": "easy", "speed": "fast", "deals": 3}).json()
        url = f"/api/tables/{data['table']}/records"
        bearer = {"Authorization": f"Bearer {data['token']}"}
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": data["table"], "token": data["token"], "since": -1})
            while True:  # to the middle of the second deal
                state = ws.receive_json()
                if state["type"] != "state":
                    continue
                view = state["view"]
                mine = bool(view["legal"]) and view["to_move"] == state["seat"]
                if view["deal_number"] == 2 and view["phase"] == "play" and len(view["tricks"]) >= 2 and mine:
                    break  # (at this seat's turn: no bot is thinking when the app stops)
                if state["waiting"] == "continue":
                    ws.send_json({"type": "continue"})
                elif mine:  # take at the first chance: every deal is played, none thrown in
                    ws.send_json({"type": "act", "action": next((a for a in view["legal"] if a != "pass"), "pass")})
            watch = state["watch"]
            meta, actions = stored_table(db, data["table"])
            match = new_match(check_settings(meta["settings"]), meta["seed"])
            for a in actions:
                match.apply(parse_action(a))
            current = match.deals[-1]
            assert current.phase == "play" and len(match.deals) == 2
            lines = client.get(url, headers=bearer).text.splitlines()
            assert len(lines) == 1  # the first deal, finished (thrown in or played)
            in_progress = to_record(current, match.scores_before[-1])
            assert all(json.loads(line)["deck"] != in_progress["deck"] for line in lines)
            refusal = client.post("/api/analyse", json=in_progress)
            assert refusal.status_code == 409 and refusal.json()["code"] == "deal_not_over"
            assert "deck" not in refusal.text and not any(c in refusal.text for c in in_progress["deck"])
            spectator = client.get(url, headers={"Authorization": f"Bearer {watch}"})
            assert spectator.status_code == 403 and spectator.json()["code"] == "match_not_over"


# ----------------------------------------------------------------- hints and training problems
def seen_by(view: dict[str, Any]) -> set[str]:
    """The cards a view may name: the seat's own, and those on the table for everybody."""
    public = ("trick", "tricks", "turned", "declarations", "belote", "table")
    return set(view["hand"]) | set(view["legal"]) | {c for k in public for c in cards_in(view.get(k))}


@pytest.mark.parametrize("variant", one_of_each(lambda game: game.auction))  # hints of bids of each kind, then cards
def test_a_hint_names_no_card_of_another_hand(app_client: Callable[..., TestClient], db: Path, variant: str) -> None:
    """A whole deal at a solo table with hints on, a hint at each of South's turns: every card a hint
    names is South's, never one of the cards the others hold then (the store's replay says which)."""
    with app_client(pace=0.0, think_workers=0, turn_timer=600) as client:
        settings = {"variant": variant, "strength": "easy", "speed": "fast", "deals": 1, "hints": True}
        t = client.post("/api/solo", json=settings).json()
        hints = 0
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
            while True:
                msg = ws.receive_json()
                if msg["type"] != "state" or msg["view"] is None:
                    continue
                view = msg["view"]
                if view["match_over"]:
                    break
                if msg["waiting"] == "continue":  # a deal thrown in: its score read, the next one dealt
                    ws.send_json({"type": "continue"})
                    continue
                if view["to_move"] != "S" or msg["waiting"]:
                    continue
                ws.send_json({"type": "hint"})
                while (answer := ws.receive_json())["type"] != "hint":
                    assert answer["type"] == "state", answer
                meta, actions = stored_table(db, t["table"])
                seed = int(meta["seed"])
                truth = Match(rules_of(meta["settings"]), seed=seed, first_dealer=seed % 4)
                for a in actions:
                    truth.apply(parse_action(a))
                others = {str(c) for s in range(4) if s != 2 for c in truth.deal.hand(s)}
                named = set(cards_in(answer))
                assert named <= seen_by(view) and not named & (others - seen_by(view)), (named, view["hand"])
                hints += 1
                ws.send_json({"type": "act", "action": view["legal"][0]})
    assert hints >= 8  # the bidding, and South's eight cards


def test_a_problem_shows_no_answer_and_no_other_hand_before_it_is_answered(
    app_client: Callable[..., TestClient],
) -> None:
    """Every problem of the set as the page gets it: the seat's view alone; no card held by another
    seat at the position (the record replayed) unless the table shows it to everybody."""
    from belote.record import load_deal
    from belote.server.problems import problem_set

    with app_client(":memory:") as client:
        for pid, problem in problem_set().items():
            shown = client.get(f"/api/problems/{pid}").json()
            assert set(shown) == {"id", "game", "seat", "view"}, pid
            deal, _, error = load_deal(problem["deal"])
            assert error is None
            me = SEATS.index(problem["seat"])
            hidden = {str(c) for s in range(deal.players) if s != me for c in deal.hand(s)} - seen_by(shown["view"])
            assert not set(cards_in(shown)) & hidden, pid
            if deal.players != 2:  # at two hands the engine's hand holds the seat's table cards too
                assert sorted(shown["view"]["hand"]) == sorted(str(c) for c in deal.hand(me)), pid
