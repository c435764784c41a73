"""The state machine: one deal (bidding, play, scoring) and the match of deals to the line.

Every front end drives the game the same way: ask ``legal_actions()``, ``apply()`` one, read
``view(seat)``. An action is a small int: a card 0..31, or a bid (``PASS``, ``TAKE``, or naming a
suit). An illegal action raises an ``IllegalAction`` that names the rule and changes nothing.

>>> deal = Deal.from_seed(7)
>>> deal.phase, SEATS[deal.to_move]
('bidding', 'E')
>>> deal.apply(TAKE)
>>> deal.phase, SEATS[deal.taker], len(deal.hand(deal.taker))
('play', 'E', 8)
>>> while deal.phase == "play":
...     deal.apply(deal.legal_actions()[0])
>>> sum(deal.result.cards)
162
"""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from belote.cards import CARDS, SUIT_LETTERS, SUIT_NAMES, SUIT_SYMBOLS, Card, cards_of, mask_of, parse_card
from belote.contracts import (
    CAPOT,
    COINCHE,
    GENERALE,
    LEVELS,
    MODE_LETTERS,
    SURCOINCHE,
    Contract,
    contract_action,
    contract_of,
    contract_str,
    is_contract,
    parse_contract,
)
from belote.declarations import Declaration, belote_cards, belote_holder, best_side, find_declarations
from belote.play import MODE_NAMES, explain_illegal
from belote.playstate import BIDDING, DONE, PLAY, Trick
from belote.rules import Rules

if os.environ.get("BELOTE_PURE_PYTHON"):
    from belote.playstate import PlayState
else:
    try:
        from belote._playstate import PlayState
    except ImportError:  # no compiler where the package was built
        from belote.playstate import PlayState
from belote.scoring import SIDES, DealResult, match_winner, score_contract, score_deal, score_three, thrown_in

SEATS = "NESW"


class IllegalAction(ValueError):
    """An action the rules refuse; the state is unchanged."""


class IllegalBid(IllegalAction):
    pass


class IllegalPlay(IllegalAction):
    pass


class NotYourTurn(IllegalAction):
    pass


class GameOver(IllegalAction):
    pass


class Bid(int):
    """A bidding action: ``pass``, ``take`` (the turned card), or a suit named in the second round;
    in Coinche a contract (``110H``, ``90NT``, ``capotS``), ``coinche`` or ``surcoinche``."""

    __slots__ = ()

    def __str__(self) -> str:
        if self == PASS:
            return "pass"
        if self == TAKE:
            return "take"
        if NAME_SUIT <= self < NAME_SUIT + 4:
            return SUIT_LETTERS[self - NAME_SUIT]
        if is_contract(self) or self in (COINCHE, SURCOINCHE):
            return contract_str(self)
        return f"bid {int(self)}"

    def __repr__(self) -> str:
        return f"Bid('{self}')"

    def pretty(self) -> str:
        if NAME_SUIT <= self < NAME_SUIT + 4:
            return f"{SUIT_NAMES[self - NAME_SUIT]} {SUIT_SYMBOLS[self - NAME_SUIT]}"
        if is_contract(self):
            mode = contract_of(self)[1]
            return f"{str(self)[: -len(MODE_LETTERS[mode])]} {MODE_NAMES[mode]}"
        return str(self)


PASS = Bid(32)
TAKE = Bid(33)
NAME_SUIT = 34
NAMES = tuple(Bid(NAME_SUIT + s) for s in range(4))

Action = int


_NOT_AN_ACTION = (
    "is not an action: say pass, take, a suit letter, a contract such as 110H or 90NT, or a card such as JH"
)


def parse_action(text: str) -> Action:
    """``pass``, ``take``, a suit letter (naming it in the second round), a Coinche bid, or a card."""
    if not isinstance(text, str):
        raise IllegalAction(f"{text!r} {_NOT_AN_ACTION}")
    t = text.strip().lower()
    if t == "pass":
        return PASS
    if t == "take":
        return TAKE
    if len(t) == 1 and t.upper() in SUIT_LETTERS:
        return NAMES[SUIT_LETTERS.index(t.upper())]
    contract = parse_contract(t) if len(t) > 2 else None
    if contract is not None:
        return Bid(contract)
    try:
        return parse_card(text)
    except ValueError:
        raise IllegalAction(f"{text!r} {_NOT_AN_ACTION}") from None


def action_str(action: Action) -> str:
    """``JH``, ``pass``, ``take``, ``H``, ``110H``, ``coinche``; anything else as its number."""
    if 0 <= action < 32:
        return str(CARDS[action])
    if PASS <= action <= SURCOINCHE:
        return str(Bid(action))
    return str(int(action))


@dataclass(frozen=True)
class PlayerView:
    """What one seat may know: its own hand and everything public. Never another hand."""

    seat: int | None  # None: a spectator
    rules: Rules
    phase: str
    dealer: int
    to_move: int | None
    hand: tuple[Card, ...]
    turned: Card | None
    bids: tuple[tuple[int, Bid], ...]
    taker: int | None
    trump: int | None
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    declarations: tuple[tuple[int, str, tuple[Card, ...]], ...]
    belote: tuple[tuple[int, str], ...]
    legal: tuple[Action, ...]
    won: tuple[int, ...]  # points taken so far, by score (side, or player at three hands)
    result: DealResult | None
    score: tuple[int, ...] = (0, 0)
    pending: int = 0
    deal_number: int = 1
    match_over: bool = False
    match_winner: int | None = None
    played: tuple[Card, ...] = field(default=())
    #: Coinche: the highest bid so far (then the contract played), with its multiplier.
    contract: Contract | None = None
    #: Two hands: each seat's cards on the table, a pile each: (the face-up card or None, how many
    #: face down under it). Face-down cards are known to nobody, their owner included.
    table: tuple[tuple[tuple[Card | None, int], ...], ...] = ()

    def to_json(self) -> dict[str, Any]:
        def seat(s: int | None) -> str | None:
            return None if s is None else SEATS[s]

        names = self.rules.team_names
        out = {
            "seat": seat(self.seat),
            "rules": self.rules.to_dict(),
            "phase": self.phase,
            "dealer": seat(self.dealer),
            "to_move": seat(self.to_move),
            "hand": [str(c) for c in self.hand],
            "turned": None if self.turned is None else str(self.turned),
            "bids": [[SEATS[s], str(b)] for s, b in self.bids],
            "taker": seat(self.taker),
            "trump": None if self.trump is None else MODE_LETTERS[self.trump],
            "trick": [[SEATS[s], str(c)] for s, c in self.trick],
            "tricks": [
                {
                    "leader": SEATS[t.leader],
                    "cards": [str(CARDS[c]) for c in t.cards],
                    "winner": SEATS[t.winner],
                    "points": t.points,
                }
                for t in self.tricks
            ],
            "declarations": [
                {"seat": SEATS[s], "name": n, "cards": [str(c) for c in cs]} for s, n, cs in self.declarations
            ],
            "belote": [[SEATS[s], w] for s, w in self.belote],
            "legal": [action_str(a) for a in self.legal],
            "won": dict(zip(names, self.won, strict=True)),
            "result": None if self.result is None else self.result.to_json(),
            "score": dict(zip(names, self.score, strict=True)),
            "pending": self.pending,
            "deal_number": self.deal_number,
            "match_over": self.match_over,
            "match_winner": None if self.match_winner is None else names[self.match_winner],
        }
        if self.contract is not None:
            out["contract"] = {"bidder": SEATS[self.contract.bidder], **self.contract.to_json()}
        if self.table:
            out["table"] = {
                SEATS[s]: [[None if up is None else str(up), down] for up, down in piles]
                for s, piles in enumerate(self.table)
            }
        return out


@functools.cache
def _contracts_above(level: int, max_bid: int, no_trump_all_trump: bool, generale: bool) -> tuple[Bid, ...]:
    """The contracts a Coinche bid may name over ``level`` (0: none yet), lowest first."""
    modes = range(6) if no_trump_all_trump else range(4)
    levels = [lv for lv in LEVELS if lv > level and (lv <= max_bid or lv == CAPOT or (lv == GENERALE and generale))]
    return tuple(Bid(contract_action(lv, m)) for lv in levels for m in modes)


#: The side of each seat before anyone takes (at three hands the taker's camp is set when play starts).
_CAMPS = {4: [0, 1, 0, 1], 3: [0, 1, 0], 2: [0, 1]}
#: Coinche: three cards each, then two, then three, from the player next to the dealer.
_COINCHE_PLACES = tuple(
    (*range(3 * k, 3 * k + 3), 12 + 2 * k, 13 + 2 * k, *range(20 + 3 * k, 23 + 3 * k)) for k in range(4)
)


@functools.cache
def _first_places(players: int) -> tuple[tuple[int, ...], ...]:
    """Which places of the deck each player takes in the first distribution (3 each, then 2 each)."""
    return tuple(
        (*range(3 * k, 3 * k + 3), *range(3 * players + 2 * k, 3 * players + 2 * k + 2)) for k in range(players)
    )


def shuffled_deck(rng: random.Random) -> tuple[Card, ...]:
    """A well-shuffled pack, the same for the same state of ``rng``."""
    r = rng.random
    return tuple(sorted(CARDS, key=lambda _: r()))


class Deal(PlayState):
    """One deal, from the shuffled deck to the score, of any game of ``rules.variant``."""

    __slots__ = (
        "bid_seats",
        "bids",
        "coinche",
        "contract",
        "dealer",
        "deck",
        "declared",
        "order",
        "pending",
        "result",
        "rules",
        "start_hands",
        "table_cards",
        "taker",
        "trump",
        "turned",
    )

    def __init__(self, rules: Rules, dealer: int, deck: Sequence[int], pending: int = 0) -> None:
        PlayState.__init__(self)
        deck = tuple(deck)
        if len(deck) != 32 or len(set(deck)) != 32 or min(deck) < 0 or max(deck) > 31:
            raise ValueError("the deck must hold each of the 32 cards once")
        self.rules = rules
        self.coinche = rules.variant == "coinche"
        self.players = players = rules.players
        self.step = step = rules.step
        self.undertrump = int(rules.undertrump)
        self.ntricks = 16 if players == 2 else 8  # rules.tricks
        self.camps = list(_CAMPS[players])  # partners; at two hands each alone
        self.dealer = dealer
        self.deck = deck
        self.pending = pending
        #: the seats in playing order, starting with the player next to the dealer
        self.order = [(dealer + step * (i + 1)) % players for i in range(players)]
        self._first_distribution()

    @classmethod
    def from_seed(cls, seed: int, rules: Rules | None = None, dealer: int = 0) -> Deal:
        return cls(rules or Rules(), dealer, shuffled_deck(random.Random(seed)))

    # ----------------------------------------------------------------- dealing
    def _first_distribution(self) -> None:
        """Three cards each then two, from the player next to the dealer; the next card is turned.

        Coinche deals all eight at once, three, two, then three each, and turns no card.
        """
        deck = self.deck
        hands = [0] * self.players
        coinche = self.coinche
        places = _COINCHE_PLACES if coinche else _first_places(self.players)
        for seat, seat_places in zip(self.order, places, strict=True):
            m = 0
            for i in seat_places:
                m |= 1 << deck[i]
            hands[seat] = m
        self.reset_play(hands, -1, self.order[0])
        if self.players == 2:  # no card lies under another before the table is dealt
            self.set_under(None)
        self.phase = BIDDING
        self.bids: list[Bid] = []
        self.bid_seats: list[int] = []
        self.contract: Contract | None = None
        self.turned: Card | None = None if coinche else CARDS[deck[5 * self.players]]
        self.taker: int | None = None
        self.trump: int | None = None
        self.start_hands: list[int] = []
        self.table_cards: list[int] = []
        self.declared: list[list[Declaration]] = []
        self.result: DealResult | None = None

    def _second_distribution(self, taker: int, trump: int) -> None:
        """Three more each from the player next to the dealer, but two and the turned card to the taker.

        At two hands the taker gets the turned card and the other player one more; then each
        gets ten cards on the table, five face down with five face up on them (docs/rules.md).
        """
        assert self.turned is not None
        deck = self.deck
        hands = self.hands
        pos = 5 * self.players + 1
        under = None
        if self.rules.variant == "two-handed":
            other = 1 - taker
            hands[other] |= 1 << deck[pos]
            under = [-1] * 32
            self.table_cards = [0, 0]
            for k, seat in enumerate(self.order):
                for i in range(5):
                    down, up = deck[pos + 1 + 5 * k + i], deck[pos + 11 + 5 * k + i]
                    under[up] = down
                    hands[seat] |= 1 << up
                    self.table_cards[seat] |= 1 << up | 1 << down
        else:
            for seat in self.order:
                end = pos + (2 if seat == taker else 3)
                m = hands[seat]
                for i in range(pos, end):
                    m |= 1 << deck[i]
                hands[seat] = m
                pos = end
        hands[taker] |= 1 << self.turned
        self._start_play(taker, trump, hands, under)

    def _start_play(self, taker: int, mode: int, hands: list[int], under: list[int] | None = None) -> None:
        self.taker = taker
        self.trump = mode
        self.reset_play(hands, mode, self.order[0])
        if under is not None:
            self.set_under(under)
        if self.players == 3:  # the taker against the two others together
            self.camps = [0 if s == taker else 1 for s in range(3)]
        tables = self.table_cards
        self.start_hands = [h | t for h, t in zip(hands, tables, strict=True)] if tables else list(hands)
        self.phase = PLAY
        rules = self.rules
        if rules.declarations and rules.variant != "two-handed":
            reuse = rules.declaration_card_reuse
            self.declared = [find_declarations(h, mode, reuse) for h in hands]

    # ----------------------------------------------------------------- queries
    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards in ``seat``'s hand (at two hands, not those on the table in front of it)."""
        m = self.hand_mask(seat)
        if self.table_cards:
            m &= ~self.table_cards[seat]
        return cards_of(m)

    def table(self) -> tuple[tuple[tuple[Card | None, int], ...], ...]:
        """Two hands: each seat's piles on the table, (face-up card or None, cards face down)."""
        under = self.under
        if not self.table_cards or under is None:
            return ()
        out = []
        for seat in range(self.players):
            piles: list[tuple[Card | None, int]] = []
            playable = self.hand_mask(seat)
            played = mask_of(self.plays)
            for up in (u for u in range(32) if under[u] >= 0 and self.table_cards[seat] >> u & 1):
                down = under[up]
                if playable >> up & 1:
                    piles.append((CARDS[up], 1))
                elif playable >> down & 1:
                    piles.append((CARDS[down], 0))
                else:  # the top card is in the trick on the table: the other still lies face down
                    piles.append((None, 0 if played >> down & 1 else 1))
            out.append(tuple(piles))
        return tuple(out)

    @property
    def bid_round(self) -> int:
        return len(self.bids) // self.players

    def _bid_actions(self) -> tuple[Action, ...]:
        if self.phase != BIDDING:
            return ()
        if self.coinche:
            return self._contract_actions()
        assert self.turned is not None
        if len(self.bids) < self.players:
            return (PASS, TAKE)
        return (PASS, *(b for b in NAMES if b - NAME_SUIT != self.turned.suit))

    def _contract_actions(self) -> tuple[Action, ...]:
        """Coinche: pass, a higher contract, or coinche (the other side's contract); after a
        coinche, the bidding side may surcoinche or pass."""
        c = self.contract
        if c is not None and c.multiplier > 1:
            return (PASS, Bid(SURCOINCHE))
        rules = self.rules
        higher = _contracts_above(
            0 if c is None else c.level, rules.coinche_max_bid, rules.no_trump_all_trump, rules.generale
        )
        if c is not None and self.camps[c.bidder] != self.camps[self.to_move]:
            return (PASS, *higher, Bid(COINCHE))
        return (PASS, *higher)

    def is_legal(self, action: Action) -> bool:
        if self.phase == PLAY:
            return isinstance(action, int) and 0 <= action < 32 and bool(self.legal_mask() >> action & 1)
        return action in self.legal_actions()

    # ----------------------------------------------------------------- actions
    def _apply_slow(self, action: Action, seat: int | None) -> None:
        """Every action but a legal card played without naming a seat: checked, then applied."""
        self._check(action, seat)
        if self.phase == PLAY:
            self.play_card(action)
        else:
            self._bid(Bid(action))

    def _check(self, action: Action, seat: int | None) -> None:
        if self.phase == DONE:
            raise GameOver("the deal is over")
        if seat is not None and seat != self.to_move:
            verb = "play" if self.phase == PLAY else "bid"
            who = SEATS[seat] if isinstance(seat, int) and 0 <= seat < self.players else repr(seat)
            raise NotYourTurn(f"it is {SEATS[self.to_move]}'s turn to {verb}, not {who}'s")
        if not isinstance(action, int) or isinstance(action, bool):
            raise IllegalAction(f"{action!r} is not an action: play a card or make a bid")
        if self.phase == PLAY:
            if not 0 <= action < 32:
                raise IllegalPlay(f"the bidding is over: play a card, not {action_str(action)}")
            if not self.legal_mask() >> action & 1:
                raise IllegalPlay(self.explain(action))
            return
        if 0 <= action < 32:
            what = "bid a contract or pass" if self.coinche else "take, pass or name a suit"
            raise IllegalBid(f"the bidding is not over: {what} before playing {CARDS[action]}")
        if action in self.legal_actions():
            return
        if self.coinche:
            raise IllegalBid(self._explain_contract(action))
        if is_contract(action) or action in (COINCHE, SURCOINCHE):
            raise IllegalBid(f"{action_str(action)} is a Coinche bid: take, pass or name a suit")
        assert self.turned is not None
        if action == TAKE:
            raise IllegalBid("in the second round you name a suit or pass; the turned card can no longer be taken")
        if NAME_SUIT <= action < NAME_SUIT + 4:
            if self.bid_round == 0:
                raise IllegalBid(
                    "in the first round you take the turned suit or pass; other suits are named in the second"
                )
            raise IllegalBid(f"the turned suit {SUIT_SYMBOLS[self.turned.suit]} cannot be named in the second round")
        raise IllegalBid(f"{action_str(action)} is not a bid")

    def _explain_contract(self, action: int) -> str:
        c = self.contract
        if action in (TAKE,) or NAME_SUIT <= action < NAME_SUIT + 4:
            return "in Coinche you bid a contract such as 80H, 100NT or capotS, or pass; no card is turned"
        if action == SURCOINCHE:
            if c is None or c.multiplier == 1:
                return "surcoinche answers a coinche: nobody has coinched"
            return "only the bidding side may surcoinche"
        if action == COINCHE:
            if c is None:
                return "there is no contract to coinche yet"
            if c.multiplier > 1:
                return f"{c.name} is already coinched"
            return "you coinche the other side's contract, not your own side's"
        if is_contract(action):
            level, mode = contract_of(action)
            if c is not None and c.multiplier > 1:
                return "the bidding is closed by the coinche: the bidding side may surcoinche or pass"
            if c is not None and level <= c.level:
                return f"a bid must be higher than {c.name}"
            if level == GENERALE and not self.rules.generale:
                return "the générale is not played at this table"
            if mode >= 4 and not self.rules.no_trump_all_trump:
                return "no-trumps and all-trumps are not played at this table"
            return f"bids go from 80 to {self.rules.coinche_max_bid}, then capot"
        return f"{action_str(action)} is not a bid"

    def explain(self, card: int) -> str:
        """Why ``card`` may not be played now."""
        seat = self.to_move
        if self.table_cards and not self.hand_mask(seat) >> card & 1:
            # Never say where a face-down card lies: its owner does not know either.
            return f"you have no {CARDS[card].pretty()} in your hand or face up on your side of the table"
        bs = self.best_seat
        on_table = bool(self.trick)
        partner = on_table and bs != seat and self.camps[bs] == self.camps[seat]
        return explain_illegal(
            self.mode,
            self.hand_mask(seat),
            self.best if on_table else -1,
            partner,
            self.rules.undertrump,
            self.led,
            card,
        )

    def _bid(self, bid: Bid) -> None:
        seat = self.to_move
        self.bids.append(bid)
        self.bid_seats.append(seat)
        if self.coinche:
            self._contract_bid(seat, bid)
            return
        assert self.turned is not None
        if bid == TAKE:
            self._second_distribution(seat, self.turned.suit)
        elif bid != PASS:
            self._second_distribution(seat, bid - NAME_SUIT)
        elif len(self.bids) == 2 * self.players:
            self._throw_in()
        else:
            self.to_move = (seat + self.step) % self.players

    def _throw_in(self) -> None:
        self.phase = DONE
        self.result = thrown_in(self.pending, self.rules.teams, self.rules.team_names)

    def _contract_bid(self, seat: int, bid: Bid) -> None:
        """Coinche: the auction ends after three passes behind a contract, four passes with none
        (thrown in), a surcoinche, or a coinche that both bidders let stand."""
        c = self.contract
        step, n = self.step, self.players
        if is_contract(bid):
            level, mode = contract_of(bid)
            self.contract = Contract(level, mode, seat)
        elif bid == COINCHE:
            assert c is not None
            self.contract = c = Contract(c.level, c.mode, c.bidder, 2)
            self.to_move = (seat + step) % n  # a player of the bidding side
            return
        elif bid == SURCOINCHE:
            assert c is not None
            self.contract = Contract(c.level, c.mode, c.bidder, self.rules.surcoinche)
            self._contract_play()
            return
        elif c is not None and c.multiplier > 1:  # a bidder lets the coinche stand
            if self.bids[-2] == COINCHE:
                self.to_move = (seat + 2 * step) % n  # the bidder's partner may still surcoinche
            else:
                self._contract_play()
            return
        elif c is None and len(self.bids) == n:
            self._throw_in()
            return
        elif c is not None and self.bids[-3:] == [PASS] * 3:
            self._contract_play()
            return
        self.to_move = (seat + step) % n

    def _contract_play(self) -> None:
        c = self.contract
        assert c is not None
        self._start_play(c.bidder, c.mode, self.hands)

    def _score(self) -> None:
        """Called by the play state once the last trick is taken."""
        assert self.taker is not None
        rules = self.rules
        players = self.players
        team = self.camps if players != 3 else range(3)  # whose score each seat's points go to
        declarations = [0] * (3 if players == 3 else 2)
        best = self.scoring_declarations_side()
        if best is not None:
            for s in range(players):
                if self.camps[s] == best:
                    declarations[team[s]] += sum(d.points for d in self.declared[s])
        belote = [0] * len(declarations)
        holder = belote_holder(self.start_hands, self.mode)
        if holder is not None:
            belote[team[holder]] = 20
        if players == 3:
            cards, tricks = [0] * 3, [0] * 3
            for t in self.tricks:
                cards[t.winner] += t.points
                tricks[t.winner] += 1
            self.result = score_three(rules, self.taker, cards, tricks, declarations, belote, self.pending, self.order)
            return
        won, won_tricks = self.won, self.won_tricks
        if self.coinche:
            assert self.contract is not None
            bidder = self.contract.bidder
            self.result = score_contract(
                rules,
                self.contract,
                won,
                won_tricks,
                (declarations[0], declarations[1]),
                (belote[0], belote[1]),
                bidder_took_all=all(t.winner == bidder for t in self.tricks),
            )
            return
        self.result = score_deal(
            rules,
            team[self.taker],
            won,
            won_tricks,
            (declarations[0], declarations[1]),
            (belote[0], belote[1]),
            self.pending,
            SIDES if players == 4 else rules.team_names,
        )

    def undo(self) -> Action:
        """Take back the last action; returns it. The state is exactly as before it."""
        if self.phase != BIDDING and self.plays:
            self.result = None
            return CARDS[self.undo_card()]
        if not self.bids:
            raise IllegalAction("nothing to undo")
        bids = self.bids[:-1]
        last = self.bids[-1]
        self._first_distribution()
        for b in bids:
            self._bid(b)
        return last

    def to_record(self, score_before: Sequence[int] | None = None) -> dict[str, Any]:
        """The deal record (format ``belote-deal/1``) of this deal as it stands."""
        from belote.record import to_record

        return to_record(self, score_before)

    def copy(self) -> Deal:
        new = Deal.__new__(Deal)
        new.copy_play_state(self)
        for name in Deal.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            setattr(new, name, value)
        return new

    # ----------------------------------------------------------------- public knowledge
    @property
    def actions(self) -> list[Action]:
        return [*self.bids, *(CARDS[c] for c in self.plays)]

    def seat_of_play(self, index: int) -> int:
        """Who played the card ``plays[index]``."""
        return self.play_seats()[index]

    def play_seats(self) -> list[int]:
        """Who played each card of ``plays``, in order (``tricks`` read once: it is built on each read)."""
        tricks, n = self.tricks, self.players
        leaders = [t.leader for t in tricks] + [self.leader]
        return [(leaders[i // n] + self.step * (i % n)) % n for i in range(len(self.plays))]

    def announced(self) -> list[tuple[int, Declaration]]:
        """The declarations announced so far: each seat announces as it plays its first card."""
        if not self.declared:
            return []
        first = self.play_seats()[: self.players]
        return [(seat, d) for seat in first for d in self.declared[seat]]

    def scoring_declarations_side(self) -> int | None:
        if not self.declared or not self.rules.declarations:
            return None
        return best_side(self.declared, self.order, self.camps, self.rules.declaration_tie)

    def belote_words(self) -> list[tuple[int, str]]:
        """``belote`` then ``rebelote``, said by the holder of the king and queen of trumps as they fall."""
        if self.phase == BIDDING or self.mode < 0:
            return []
        holder = belote_holder(self.start_hands, self.mode)
        if holder is None:
            return []
        pair = belote_cards(self.mode)
        words: list[tuple[int, str]] = []
        for c in self.plays:
            if pair >> c & 1:
                words.append((holder, "belote" if not words else "rebelote"))
        return words

    def view(self, seat: int | None) -> PlayerView:
        shown_side = self.scoring_declarations_side() if self.tricks else None
        declarations = tuple(
            (s, d.name, cards_of(d.cards) if shown_side == self.camps[s] else ()) for s, d in self.announced()
        )
        trick_seats = [(self.leader + self.step * i) % self.players for i in range(len(self.trick))]
        return PlayerView(
            seat=seat,
            rules=self.rules,
            phase=self.phase,
            dealer=self.dealer,
            to_move=self.to_move if self.phase != DONE else None,
            hand=self.hand(seat) if seat is not None else (),
            turned=self.turned if (self.phase == BIDDING or not self._turned_played()) else None,
            bids=tuple(zip(self.bid_seats, self.bids, strict=True)),
            taker=self.taker,
            trump=self.trump,
            trick=tuple(zip(trick_seats, (CARDS[c] for c in self.trick), strict=True)),
            tricks=tuple(self.tricks),
            declarations=declarations,
            belote=tuple(self.belote_words()),
            legal=self.legal_actions() if seat is not None and seat == self.to_move else (),
            won=self.team_points(),
            score=(0,) * self.rules.teams,
            result=self.result,
            played=tuple(CARDS[c] for c in self.plays),
            contract=self.contract,
            table=self.table(),
        )

    def team_points(self) -> tuple[int, ...]:
        """Points taken so far by each score (each side; at three hands each player)."""
        if self.players != 3:
            return self.won
        won = [0, 0, 0]
        for t in self.tricks:
            won[t.winner] += t.points
        return tuple(won)

    def _camp_name(self, camp: int) -> str:
        """A side's name; at three hands the taker's seat, or the two defenders' seats."""
        if self.players == 4:
            return SIDES[camp]
        return "".join(SEATS[s] for s in range(self.players) if self.camps[s] == camp)

    def _turned_played(self) -> bool:
        return self.turned is not None and self.turned in self.plays

    # ----------------------------------------------------------------- events
    def events(self) -> list[dict[str, Any]]:
        """The public events of the deal so far, in order (no hidden card in any of them)."""
        turned = None if self.turned is None else str(self.turned)
        ev: list[dict[str, Any]] = [{"type": "dealt", "dealer": SEATS[self.dealer], "turned": turned}]
        for seat, b in zip(self.bid_seats, self.bids, strict=True):
            ev.append({"type": "bid", "seat": SEATS[seat], "bid": str(b)})
        if self.taker is not None and self.trump is not None:
            trump_event: dict[str, Any] = {
                "type": "trump",
                "taker": SEATS[self.taker],
                "trump": MODE_LETTERS[self.trump],
            }
            if self.contract is not None:
                trump_event["contract"] = self.contract.to_json()
            ev.append(trump_event)
        belote_pair = belote_cards(self.mode) if self.mode >= 0 else 0
        holder = belote_holder(self.start_hands, self.mode) if self.start_hands else None
        belote_said = 0
        shown_side = self.scoring_declarations_side()
        seats = self.play_seats()
        under = self.under
        for i, c in enumerate(self.plays):
            seat = seats[i]
            if i < self.players and self.declared and self.declared[seat]:
                ev.append(
                    {"type": "declared", "seat": SEATS[seat], "declarations": [d.name for d in self.declared[seat]]}
                )
            card_event: dict[str, Any] = {"type": "card", "seat": SEATS[seat], "card": str(CARDS[c])}
            if holder is not None and belote_pair >> c & 1:
                card_event["say"] = "belote" if belote_said == 0 else "rebelote"
                belote_said += 1
            ev.append(card_event)
            if (i + 1) % self.players == 0:
                t = self.tricks[i // self.players]
                ev.append(
                    {"type": "trick", "winner": SEATS[t.winner], "points": t.points, "number": i // self.players + 1}
                )
                if under is not None:
                    for s, x in zip(t.seats(self.step, self.players), t.cards, strict=True):
                        if under[x] >= 0:
                            ev.append({"type": "turned-up", "seat": SEATS[s], "card": str(CARDS[under[x]])})
                if i + 1 == self.players and shown_side is not None:
                    ev.append(
                        {
                            "type": "declarations-shown",
                            "side": self._camp_name(shown_side),
                            "declarations": [
                                {"seat": SEATS[s], **d.to_json()}
                                for s, d in self.announced()
                                if self.camps[s] == shown_side
                            ],
                        }
                    )
        if self.result is not None:
            ev.append({"type": "scored", **self.result.to_json()})
        return ev


class Match:
    """Deals to the line (or a number of deals). A match is its seed plus its list of actions."""

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int = 0,
        first_dealer: int = 0,
        score: tuple[int, ...] | None = None,
    ) -> None:
        self.rules = rules or Rules()
        score = score or (0,) * self.rules.teams
        if len(score) != self.rules.teams:
            raise ValueError(f"the score has {self.rules.teams} entries in this game, not {len(score)}")
        self.seed = seed
        self.first_dealer = first_dealer
        self.start_score = score
        self.score = list(score)
        self.deals: list[Deal] = []
        self.scores_before: list[tuple[int, ...]] = []
        self._finished_events: dict[int, list[dict[str, Any]]] = {}
        self._current_events: tuple[tuple[int, tuple[int, ...], bytes], list[dict[str, Any]]] | None = None
        self.over = False
        self.winner: int | None = None
        self._new_deal(first_dealer, 0)

    def _deck(self, number: int) -> tuple[Card, ...]:
        return shuffled_deck(random.Random(f"belote:{self.seed}:{number}"))

    def _new_deal(self, dealer: int, pending: int) -> None:
        self.scores_before.append(tuple(self.score))
        self.deals.append(Deal(self.rules, dealer, self._deck(len(self.deals)), pending))

    @property
    def deal(self) -> Deal:
        return self.deals[-1]

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.deal.to_move

    @property
    def pending(self) -> int:
        return self.deal.pending

    @property
    def deals_played(self) -> int:
        return sum(1 for d in self.deals if d.result is not None and d.result.outcome != "thrown-in")

    def legal_actions(self) -> tuple[Action, ...]:
        return () if self.over else self.deal.legal_actions()

    def apply(self, action: Action, seat: int | None = None) -> None:
        if self.over:
            raise GameOver("the match is over")
        deal = self.deal
        deal.apply(action, seat)
        if deal.result is not None:
            r = deal.result
            for i, p in enumerate(r.points):
                self.score[i] += p
            over, winner = (False, None)
            if r.outcome != "thrown-in":
                over, winner = match_winner(self.rules, self.score, self.deals_played)
            self.over, self.winner = over, winner
            if not over:
                self._new_deal((deal.dealer + self.rules.step) % self.rules.players, r.pending)

    def undo(self) -> Action:
        self._finished_events.pop(len(self.deals) - 1, None)
        if not self.over and not self.deal.bids and len(self.deals) > 1:
            self._finished_events.pop(len(self.deals) - 2, None)
            self.deals.pop()
            self.scores_before.pop()
        deal = self.deal
        if deal.result is not None:
            self.score = list(self.scores_before[-1])
            self.over, self.winner = False, None
        return deal.undo()

    @property
    def actions(self) -> list[Action]:
        return [a for d in self.deals for a in d.actions]

    @property
    def action_count(self) -> int:
        """``len(self.actions)``, without building the list."""
        return sum(len(d.bids) + len(d.plays) for d in self.deals)

    def actions_from(self, start: int) -> list[Action]:
        """``self.actions[start:]``, looking only at the deals that hold them."""
        out: list[Action] = []
        n = self.action_count
        for deal in reversed(self.deals):
            if n <= start:
                break
            acts = deal.actions
            n -= len(acts)
            out[:0] = acts[max(0, start - n) :]
        return out

    def view(self, seat: int | None) -> PlayerView:
        v = self.deal.view(seat)
        return PlayerView(
            **{
                **{f: getattr(v, f) for f in v.__dataclass_fields__},
                "score": tuple(self.score),
                "pending": self.deal.pending,
                "deal_number": len(self.deals),
                "match_over": self.over,
                "match_winner": self.winner,
                "legal": v.legal if not self.over else (),
            }
        )

    def view_json(self, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        """``self.view(seat).to_json()`` for each of ``seats``, the public part built once.

        Only ``seat``, ``hand`` and ``legal`` depend on the seat; a server sending the table to
        every seat after each action saves building the rest four or five times.
        """
        public = self.view(None).to_json()
        out: dict[int | None, dict[str, Any]] = {}
        for s in seats:
            if s is None:
                out[s] = public
                continue
            out[s] = {
                **public,
                "seat": SEATS[s],
                "hand": [str(c) for c in self.deal.hand(s)],
                "legal": [action_str(a) for a in self.legal_actions()] if s == self.to_move else [],
            }
        return out

    def events(self, since: int = 0) -> list[tuple[int, dict[str, Any]]]:
        """Numbered public events from number ``since`` on (the first event is number 0)."""
        out: list[dict[str, Any]] = []
        for i in range(len(self.deals)):
            out.extend(self._deal_events(i))
        if self.over:
            out.append(
                {
                    "type": "match-over",
                    "score": dict(zip(self.rules.team_names, self.score, strict=True)),
                    "winner": None if self.winner is None else self.rules.team_names[self.winner],
                }
            )
        return list(enumerate(out))[since:]

    def _deal_events(self, i: int) -> list[dict[str, Any]]:
        """The events of deal ``i``; a finished deal's never change, so they are kept."""
        cached = self._finished_events.get(i)
        if cached is not None:
            return cached
        deal = self.deals[i]
        key = (i, tuple(deal.bids), bytes(deal.plays))
        if self._current_events is not None and self._current_events[0] == key:
            return self._current_events[1]
        events = [
            {
                "type": "deal",
                "number": i + 1,
                "score": dict(zip(self.rules.team_names, self.scores_before[i], strict=True)),
            }
        ]
        events.extend(deal.events())
        if deal.result is not None:
            self._finished_events[i] = events
        else:  # the deal in play: kept until its next action (a server asks once per client)
            self._current_events = (key, events)
        return events

    # ----------------------------------------------------------------- saving
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "belote-match/1",
            "seed": self.seed,
            "rules": self.rules.changes(),
            "first_dealer": SEATS[self.first_dealer],
            "score_before": dict(zip(self.rules.team_names, self.start_score, strict=True)),
            "actions": [action_str(a) for a in self.actions],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        rules = Rules.from_dict(data.get("rules", {}))
        score = data.get("score_before", {})
        m = cls(
            rules,
            int(data["seed"]),
            SEATS.index(data.get("first_dealer", "N")),
            tuple(int(score.get(name, 0)) for name in rules.team_names),
        )
        for a in data["actions"]:
            m.apply(parse_action(a))
        return m

    def __iter__(self) -> Iterator[Deal]:
        return iter(self.deals)
