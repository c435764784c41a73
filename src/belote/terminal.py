"""Play in the terminal against bots, in any game of ``rules.variant``.

At four players you sit South, a bot partner North and two bot opponents East and West (in Coinche
too); at three hands you are South against North and East, each for themselves; at two hands you
are North against East. The terminal is one more front end of the state machine: it shows your
view and applies your choices; the bots see their own views only.

Type the number of a card (as listed: your hand, then at two hands the face-up cards of your table),
its name (``JH``, ``10h``), and for the bidding ``take``, ``pass`` or a suit letter; in Coinche a
contract (``80H``, ``110S``, ``90NT``, ``160AT``, ``capotD``), ``coinche``, ``surcoinche`` or
``pass``. ``q`` quits.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from belote.bots import Bot, make_bot
from belote.cards import CARDS, SUIT_SYMBOLS, Card, parse_card
from belote.contracts import (
    MODE_LETTERS,
    Contract,
)
from belote.game import SEATS, Bid, IllegalAction, Match, PlayerView, parse_action
from belote.play import KEY, MODE_NAMES
from belote.rules import Rules

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
#: Your seat: South at four and three players, North at two (against East).
MY_SEAT = {4: 2, 3: 2, 2: 0}
SEAT_NAMES = {
    4: {0: "North (partner)", 1: "East", 2: "You", 3: "West"},
    3: {0: "North", 1: "East", 2: "You"},
    2: {0: "You", 1: "East"},
}
SEAT_WORDS = ("North", "East", "South", "West")
#: Kept for callers of the four-hand game.
ME = MY_SEAT[4]
NAMES = SEAT_NAMES[4]


def mode_words(mode: int) -> str:
    """``♥ (hearts)``, ``no trumps``, ``all trumps``."""
    return f"{SUIT_SYMBOLS[mode]} ({MODE_NAMES[mode]})" if mode < 4 else MODE_NAMES[mode]


def contract_words(level: str, mode: str, multiplier: int, bidder: str = "") -> str:
    """``110 ♥``, ``capot no trumps by N, coinched``, ``90 ♠, surcoinched (x4)``."""
    m = MODE_LETTERS.index(mode)
    what = f"{level} {SUIT_SYMBOLS[m] if m < 4 else MODE_NAMES[m]}"
    if bidder:
        what += f" by {bidder}"
    if multiplier == 2:
        return f"{what}, coinched"
    if multiplier > 2:
        return f"{what}, surcoinched (x{multiplier})"
    return what


def _contract(c: Contract) -> str:
    j = c.to_json()
    return contract_words(str(j["level"]), str(j["mode"]), c.multiplier, SEATS[c.bidder])


def sort_hand(hand: Sequence[Card], trump: int | None) -> list[Card]:
    """By suit, trumps first once chosen, strongest first inside a suit."""
    mode = 4 if trump is None else trump

    def key(c: Card) -> tuple[int, int]:
        suit_order = 0 if c.suit == trump else 1 + c.suit
        return (suit_order, -KEY[mode][c])

    return sorted(hand, key=key)


def _scores(names: Sequence[str], values: Sequence[int]) -> str:
    return " - ".join(f"{n} {v}" for n, v in zip(names, values, strict=True))


def describe_view(view: PlayerView) -> list[str]:
    rules = view.rules
    names = rules.team_names
    lines = []
    trump = "-" if view.trump is None else mode_words(view.trump)
    taker = "-" if view.taker is None else SEATS[view.taker]
    goal = f"{view.deal_number} of {rules.deals} deals" if rules.deals else f"to {rules.target}"
    lines.append(
        f"Deal {view.deal_number}  score {_scores(names, view.score)}  ({goal})"
        f"  dealer {SEATS[view.dealer]}  trumps {trump}  taker {taker}"
    )
    if view.contract is not None:
        standing = "Contract" if view.phase != "bidding" else "Highest bid"
        lines.append(f"{standing}: {_contract(view.contract)}")
    if view.phase == "bidding":
        if view.turned is not None:
            lines.append(f"Turned card: {view.turned.pretty()}")
        if view.bids:
            lines.append("Bids: " + ", ".join(f"{SEATS[s]} {b.pretty()}" for s, b in view.bids))
    if view.phase == "play":
        if view.tricks:
            t = view.tricks[-1]
            seats = t.seats(rules.step, rules.players)
            last = ", ".join(f"{SEATS[s]} {CARDS[c].pretty()}" for s, c in zip(seats, t.cards, strict=True))
            lines.append(f"Last trick: {last} -> {SEATS[t.winner]} ({t.points})")
        table = ", ".join(f"{SEATS[s]} {c.pretty()}" for s, c in view.trick) or "(empty)"
        lines.append(f"On the table: {table}   points taken {_scores(names, view.won)}")
        me = view.seat
        for s, piles in enumerate(view.table):
            if s != me:
                lines.append(f"{SEAT_WORDS[s]}'s table: {' '.join(_pile(up, down) for up, down in piles)}")
    return lines


def _pile(up: Card | None, down: int, mark: str = "") -> str:
    """A table pile: its face-up card and ``+1`` for a card face down under it; ``--`` when empty."""
    if up is None:
        return "--"
    return f"{mark}{up.pretty()}{'+1' if down else ''}"


def hand_line(view: PlayerView) -> tuple[str, list[Card]]:
    """Your cards, numbered, the playable ones in brackets: the hand, then at two hands the face-up
    cards of your table (each with ``+1`` when a card lies face down under it)."""
    cards = sort_hand(view.hand, view.trump)
    legal = set(view.legal)
    parts = []
    for i, c in enumerate(cards, 1):
        mark = f"[{i}]" if c in legal else f" {i} "
        parts.append(f"{mark}{c.pretty()}")
    line = "Your hand: " + " ".join(parts)
    if view.table and view.seat is not None:
        piles = []
        for up, down in view.table[view.seat]:
            if up is None:
                piles.append("--")
                continue
            cards.append(up)
            n = len(cards)
            piles.append(_pile(up, down, f"[{n}]" if up in legal else f" {n} "))
        line += "\nYour table: " + " ".join(piles)
        return line + "   ([n] = playable; +1 = a card face down under it)", cards
    return line + "   ([n] = playable)", cards


def parse_choice(text: str, view: PlayerView, cards: list[Card]) -> int:
    t = text.strip()
    if view.phase == "play" and t.isdigit():
        n = int(t)
        if not 1 <= n <= len(cards):
            raise IllegalAction(f"there is no card number {n}: choose 1 to {len(cards)}")
        return cards[n - 1]
    return parse_action(t)


def bid_prompt(view: PlayerView) -> str:
    """What the player may say now, in a few words: the auction's question."""
    return view.game.auction.prompt(view.legal)


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
        players = rules.players
        self.me = MY_SEAT[players]
        self.names = SEAT_NAMES[players]
        self.match = Match(rules, seed=seed, first_dealer=seed % players)
        self.bots: dict[int, Bot] = {
            s: make_bot(bot, seed=seed * 10 + s, **(bot_options or {})) for s in range(players) if s != self.me
        }
        self.delay = delay
        self.read = read
        self.write = write

    def run(self) -> int:
        if not self.play_out():
            self.write("Bye.")
            return 1
        m = self.match
        rules = m.rules
        if m.winner is None:
            winner = "nobody (a tie)"
        elif m.winner == rules.team(self.me):
            winner = "your side" if rules.game.partners else "you"
        else:
            winner = rules.team_names[m.winner]
        self.write(f"The match is over: {_scores(rules.team_names, m.score)}, won by {winner}.")
        return 0

    def play_out(self) -> bool:
        """Plays the match to its end, the person's turns read and the rest announced; False when
        the person quit (``q``, or the end of the input)."""
        m = self.match
        seen = 0
        while not m.over:
            seat = m.to_move
            assert seat is not None
            events = m.events(seen)
            seen += len(events)
            self._announce([e for _, e in events])
            if seat == self.me:
                if not self._human_turn():
                    return False
            else:
                action = self.bots[seat].act(m.view(seat))
                m.apply(action, seat=seat)
                if self.delay:
                    time.sleep(self.delay)
        self._announce([e for _, e in m.events(seen)])
        return True

    def _human_turn(self) -> bool:
        m = self.match
        view = m.view(self.me)
        for line in describe_view(view):
            self.write(line)
        line, cards = hand_line(view)
        self.write(line)
        prompt = bid_prompt(view) if view.phase == "bidding" else "your card (number or name)? "
        while True:
            try:
                text = self.read(prompt)
            except EOFError:
                return False
            if text.strip().lower() in ("q", "quit", "exit"):
                return False
            try:
                m.apply(parse_choice(text, view, cards), seat=self.me)
                return True
            except IllegalAction as e:
                self.write(f"Refused: {e}")

    def _who(self, seat: object) -> str:
        return self.names[SEATS.index(str(seat))]

    def _announce(self, events: list[dict[str, object]]) -> None:
        for e in events:
            kind = e["type"]
            if kind == "dealt":
                if e["turned"] is None:
                    self.write(f"\n--- {e['dealer']} deals eight cards each; no card is turned ---")
                else:
                    unseen = self.match.rules.game.out_of_play
                    out = f"; {NUMBER_WORDS[unseen]} cards stay face down, out of play" if unseen else ""
                    self.write(f"\n--- {e['dealer']} deals; the turned card is {_pretty(str(e['turned']))}{out} ---")
            elif kind == "bid" and e["seat"] != SEATS[self.me]:
                self.write(f"{self._who(e['seat'])}: {Bid(parse_action(str(e['bid']))).pretty()}")
            elif kind == "trump":
                contract = e.get("contract")
                if isinstance(contract, dict):
                    what = contract_words(str(contract["level"]), str(contract["mode"]), int(contract["multiplier"]))
                    self.write(f"{e['taker']} plays {what}")
                else:
                    mode = MODE_LETTERS.index(str(e["trump"]))
                    self.write(f"{e['taker']} takes; trumps are {mode_words(mode)}")
            elif kind == "declared":
                names = e["declarations"]
                assert isinstance(names, list)
                self.write(f"{e['seat']} announces {', '.join(map(str, names))}")
            elif kind == "card":
                said = f" -- {str(e['say']).upper()}!" if "say" in e else ""
                self.write(f"{e['seat']} plays {_pretty(str(e['card']))}{said}")
            elif kind == "trick":
                self.write(f"  {e['winner']} takes the trick ({e['points']} points)")
            elif kind == "turned-up":
                self.write(f"  {e['seat']} turns up {_pretty(str(e['card']))} on the table")
            elif kind == "scored":
                self._announce_score(e)

    def _announce_score(self, e: dict[str, object]) -> None:
        rules = self.match.rules
        outcome = str(e["outcome"])
        words = rules.game.auction.outcome_words
        if outcome == "capot":
            capot = e.get("capot")
            self.write(f"Deal over: capot, every trick to {capot}")
        else:
            self.write(f"Deal over: {words.get(outcome, outcome)}")
        if outcome != "thrown-in":
            cards, decl, belote, points = e["cards"], e["declarations"], e["belote"], e["points"]
            assert isinstance(cards, dict) and isinstance(decl, dict)
            assert isinstance(belote, dict) and isinstance(points, dict)
            for name in rules.team_names:
                self.write(
                    f"  {name}: card points {cards[name]}, declarations {decl[name]}, belote {belote[name]},"
                    f" scores {points[name]}"
                )
        m = self.match
        self.write(f"  Match: {_scores(rules.team_names, m.score)}")


def _pretty(text: str) -> str:
    return parse_card(text).pretty()


__all__ = ["TerminalGame", "bid_prompt", "describe_view", "hand_line", "sort_hand"]
