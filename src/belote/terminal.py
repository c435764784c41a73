"""Play in the terminal: you sit South, a bot partner North, two bot opponents East and West.

The terminal is one more front end of the state machine: it shows South's view and applies
South's choices; the bots see their own views only. Type the number of a card (as listed), its name
(``JH``, ``10h``), ``take``, ``pass`` or a suit letter for the bidding; ``q`` quits.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from belote.bots import Bot, make_bot
from belote.cards import CARDS, SUIT_LETTERS, SUIT_NAMES, SUIT_SYMBOLS, Card, parse_card
from belote.game import SEATS, TAKE, IllegalAction, Match, PlayerView, action_str, parse_action
from belote.play import KEY
from belote.rules import Rules
from belote.scoring import SIDES

ME = 2  # South
NAMES = {0: "North (partner)", 1: "East", 2: "You", 3: "West"}
OUTCOME_WORDS = {
    "made": "made",
    "dedans": "dedans: the takers went down",
    "litige": "litige: 81-81, the takers' points wait for the next deal",
    "capot": "capot: every trick to one side",
    "thrown-in": "thrown in: everybody passed twice",
}


def sort_hand(hand: tuple[Card, ...], trump: int | None) -> list[Card]:
    """By suit, trumps first once chosen, strongest first inside a suit."""
    mode = 0 if trump is None else trump

    def key(c: Card) -> tuple[int, int]:
        suit_order = 0 if c.suit == trump else 1 + c.suit
        order = KEY[mode][c] if trump is not None else KEY[4][c]
        return (suit_order, -order)

    return sorted(hand, key=key)


def describe_view(view: PlayerView) -> list[str]:
    lines = []
    trump = "-" if view.trump is None else f"{SUIT_SYMBOLS[view.trump]} ({SUIT_NAMES[view.trump]})"
    taker = "-" if view.taker is None else SEATS[view.taker]
    lines.append(
        f"Deal {view.deal_number}  score NS {view.score[0]} - EW {view.score[1]}  (to {view.rules.target})"
        f"  dealer {SEATS[view.dealer]}  trumps {trump}  taker {taker}"
    )
    if view.phase == "bidding" and view.turned is not None:
        lines.append(f"Turned card: {view.turned.pretty()}")
        if view.bids:
            lines.append("Bids: " + ", ".join(f"{SEATS[s]} {b.pretty()}" for s, b in view.bids))
    if view.phase == "play":
        if view.tricks:
            t = view.tricks[-1]
            seats = t.seats(view.rules.step)
            last = ", ".join(f"{SEATS[s]} {CARDS[c].pretty()}" for s, c in zip(seats, t.cards, strict=True))
            lines.append(f"Last trick: {last} -> {SEATS[t.winner]} ({t.points})")
        table = ", ".join(f"{SEATS[s]} {c.pretty()}" for s, c in view.trick) or "(empty)"
        lines.append(f"On the table: {table}   points taken NS {view.won[0]} EW {view.won[1]}")
    return lines


def hand_line(view: PlayerView) -> tuple[str, list[Card]]:
    cards = sort_hand(view.hand, view.trump)
    legal = set(view.legal)
    parts = []
    for i, c in enumerate(cards, 1):
        mark = f"[{i}]" if c in legal else f" {i} "
        parts.append(f"{mark}{c.pretty()}")
    return "Your hand: " + " ".join(parts) + "   ([n] = playable)", cards


def parse_choice(text: str, view: PlayerView, cards: list[Card]) -> int:
    t = text.strip()
    if view.phase == "play" and t.isdigit():
        n = int(t)
        if not 1 <= n <= len(cards):
            raise IllegalAction(f"there is no card number {n}: choose 1 to {len(cards)}")
        return cards[n - 1]
    return parse_action(t)


class TerminalGame:
    """A match for one person in the terminal, against bots."""

    def __init__(
        self,
        rules: Rules,
        seed: int,
        bot: str = "search",
        bot_options: dict[str, object] | None = None,
        delay: float = 0.6,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
    ) -> None:
        self.match = Match(rules, seed=seed, first_dealer=seed % 4)
        self.bots: dict[int, Bot] = {
            s: make_bot(bot, seed=seed * 10 + s, **(bot_options or {})) for s in range(4) if s != ME
        }
        self.delay = delay
        self.read = read
        self.write = write

    def run(self) -> int:
        m = self.match
        seen = 0
        while not m.over:
            seat = m.to_move
            assert seat is not None
            events = m.events(seen)
            seen += len(events)
            self._announce([e for _, e in events])
            if seat == ME:
                if not self._human_turn():
                    self.write("Bye.")
                    return 1
            else:
                action = self.bots[seat].act(m.view(seat))
                m.apply(action, seat=seat)
                if self.delay:
                    time.sleep(self.delay)
        self._announce([e for _, e in m.events(seen)])
        winner = "nobody (a tie)" if m.winner is None else ("your side" if m.winner == 0 else "East-West")
        self.write(f"The match is over: NS {m.score[0]} - EW {m.score[1]}, won by {winner}.")
        return 0

    def _human_turn(self) -> bool:
        m = self.match
        view = m.view(ME)
        for line in describe_view(view):
            self.write(line)
        line, cards = hand_line(view)
        self.write(line)
        if view.phase == "bidding":
            words = "/".join(action_str(a) for a in view.legal)
            prompt = "take or pass? " if TAKE in view.legal else f"name a suit or pass ({words})? "
        else:
            prompt = "your card (number or name)? "
        while True:
            try:
                text = self.read(prompt)
            except EOFError:
                return False
            if text.strip().lower() in ("q", "quit", "exit"):
                return False
            try:
                m.apply(parse_choice(text, view, cards), seat=ME)
                return True
            except IllegalAction as e:
                self.write(f"Refused: {e}")

    def _announce(self, events: list[dict[str, object]]) -> None:
        for e in events:
            kind = e["type"]
            if kind == "dealt":
                self.write(f"\n--- {e['dealer']} deals; the turned card is {_pretty(str(e['turned']))} ---")
            elif kind == "bid" and e["seat"] != SEATS[ME]:
                self.write(f"{NAMES[SEATS.index(str(e['seat']))]}: {e['bid']}")
            elif kind == "trump":
                suit = SUIT_LETTERS.index(str(e["trump"]))
                self.write(f"{e['taker']} takes; trumps are {SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}")
            elif kind == "declared":
                names = e["declarations"]
                assert isinstance(names, list)
                self.write(f"{e['seat']} announces {', '.join(map(str, names))}")
            elif kind == "card":
                said = f" -- {str(e['say']).upper()}!" if "say" in e else ""
                self.write(f"{e['seat']} plays {_pretty(str(e['card']))}{said}")
            elif kind == "trick":
                self.write(f"  {e['winner']} takes the trick ({e['points']} points)")
            elif kind == "scored":
                self._announce_score(e)

    def _announce_score(self, e: dict[str, object]) -> None:
        outcome = str(e["outcome"])
        self.write(f"Deal over: {OUTCOME_WORDS.get(outcome, outcome)}")
        if outcome != "thrown-in":
            cards, decl, belote, points = e["cards"], e["declarations"], e["belote"], e["points"]
            assert isinstance(cards, dict) and isinstance(decl, dict)
            assert isinstance(belote, dict) and isinstance(points, dict)
            for side in SIDES:
                self.write(
                    f"  {side}: card points {cards[side]}, declarations {decl[side]}, belote {belote[side]},"
                    f" scores {points[side]}"
                )
        m = self.match
        self.write(f"  Match: NS {m.score[0]} - EW {m.score[1]}")


def _pretty(text: str) -> str:
    return parse_card(text).pretty()


__all__ = ["TerminalGame", "describe_view", "hand_line", "sort_hand"]
