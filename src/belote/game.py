"""The state machine: one deal (bidding, play, scoring) and the match of deals to the line.

Every front end drives the game the same way: ask ``legal_actions()``, ``apply()`` one, read
``view(seat)``. An action is a small int: a card 0..31, or a bid (``PASS``, ``TAKE``, or naming a
suit). An illegal action raises an ``IllegalAction`` that names the rule and changes nothing: its
words for people, and a stable ``code`` and ``details`` for programs (``belote.actions.REFUSALS``).

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

import os
import random
from collections.abc import Iterator, Sequence
from typing import Any

from belote.actions import (
    NAME_SUIT,
    NAMES,
    NO_BELOTE,
    PASS,
    QUIET,
    TAKE,
    Action,
    Bid,
    GameOver,
    IllegalAction,
    IllegalBid,
    IllegalPlay,
    NotYourTurn,
    Refusal,
    action_str,
    parse_action,
    split_says,
)
from belote.auctions import THROWN_IN
from belote.cards import CARDS, Card, cards_of, mask_of
from belote.contracts import MODE_LETTERS, Contract
from belote.declarations import Declaration, belote_cards, belote_holder, best_side, find_declarations
from belote.play import why_illegal
from belote.playstate import BIDDING, DONE, PLAY, Trick
from belote.rules import Rules
from belote.variants import SEATS, Tally
from belote.view import PlayerView

if os.environ.get("BELOTE_PURE_PYTHON"):
    from belote.playstate import PlayState
else:
    try:
        from belote._playstate import PlayState
    except ImportError:  # no compiler where the package was built
        from belote.playstate import PlayState
from belote.scoring import DealResult, match_winner, thrown_in

__all__ = [
    "BIDDING",
    "DONE",
    "NAMES",
    "NAME_SUIT",
    "PASS",
    "PLAY",
    "SEATS",
    "TAKE",
    "Action",
    "Bid",
    "Deal",
    "GameOver",
    "IllegalAction",
    "IllegalBid",
    "IllegalPlay",
    "Match",
    "NotYourTurn",
    "PlayerView",
    "Refusal",
    "Trick",
    "action_str",
    "parse_action",
    "shuffled_deck",
]


def shuffled_deck(rng: random.Random) -> tuple[Card, ...]:
    """A well-shuffled pack, the same for the same state of ``rng``."""
    r = rng.random
    return tuple(sorted(CARDS, key=lambda _: r()))


class Deal(PlayState):
    """One deal of any game, from the shuffled deck to the score: a switch between its phases.

    ``bidding`` asks the game's auction (``rules.game.auction``), ``play`` the play state (the
    base class, in C when built), and the end of the last trick the game's scoring. The game
    (``belote.variants``) deals the cards and says who plays with whom.
    """

    __slots__ = (
        "auction",
        "bid_seats",
        "bids",
        "contract",
        "dealer",
        "deck",
        "declared",
        "order",
        "pending",
        "quiet",
        "result",
        "rules",
        "start_hands",
        "table_cards",
        "taker",
        "trump",
        "turned",
        "variant",
    )

    def __init__(self, rules: Rules, dealer: int, deck: Sequence[int], pending: int = 0) -> None:
        PlayState.__init__(self)
        deck = tuple(deck)
        if len(deck) != 32 or len(set(deck)) != 32 or min(deck) < 0 or max(deck) > 31:
            raise ValueError("the deck must hold each of the 32 cards once")
        self.rules = rules
        self.variant = variant = rules.game
        self.auction = variant.auction
        self.players = variant.players
        self.step = step = rules.step
        self.play_flags = rules.play.flags
        self.ntricks = variant.tricks
        self.dealer = dealer
        self.deck = deck
        self.pending = pending
        self.order = list(variant.order(dealer, step))
        # Until someone takes, the play state's sides are the seats by parity: only Coinche's auction
        # asks (partners), and at three hands nobody plays with anyone yet (the view says so).
        self.camps = list(variant.parity)
        self._first_distribution()

    @classmethod
    def from_seed(cls, seed: int, rules: Rules | None = None, dealer: int = 0) -> Deal:
        return cls(rules or Rules(), dealer, shuffled_deck(random.Random(seed)))

    # ----------------------------------------------------------------- the phases
    def _first_distribution(self) -> None:
        """The game's first distribution; the bidding starts with the player next to the dealer."""
        hands, self.turned = self.variant.first_distribution(self.deck, self.order)
        self.reset_play(hands, -1, self.order[0])
        if self.under is not None:  # no card lies under another before the table is dealt
            self.set_under(None)
        self.phase = BIDDING
        self.bids: list[Bid] = []
        self.bid_seats: list[int] = []
        self.contract: Contract | None = None
        self.taker: int | None = None
        self.trump: int | None = None
        self.start_hands: list[int] = []
        self.table_cards: list[int] = []
        self.declared: list[list[Declaration]] = []
        #: What each seat kept quiet (``QUIET``, ``NO_BELOTE``): a person who announces by hand.
        self.quiet = [0] * self.players
        self.result: DealResult | None = None

    def _bid(self, bid: Bid) -> None:
        seat = self.to_move
        self.bids.append(bid)
        self.bid_seats.append(seat)
        outcome = self.auction.bid(self, seat, bid)
        if outcome == THROWN_IN:
            self.phase = DONE
            self.result = thrown_in(self.pending, self.rules.teams, self.rules.team_names)
        elif outcome is not None:
            self._start_play(*outcome)

    def _start_play(self, taker: int, mode: int) -> None:
        """The auction is over: the game's second distribution, the camps, declarations, then play."""
        variant = self.variant
        hands, under, self.table_cards = variant.second_distribution(self.deck, self.hands, self.order, taker)
        self.taker = taker
        self.trump = mode
        self.reset_play(hands, mode, self.order[0])
        if under is not None:
            self.set_under(under)
        camps = variant.camps(taker)
        if camps != variant.parity:  # the sides the play state was given while nobody had taken
            self.camps = list(camps)
        tables = self.table_cards
        self.start_hands = [h | t for h, t in zip(hands, tables, strict=True)] if tables else list(hands)
        self.phase = PLAY
        rules = self.rules
        if rules.declarations and variant.has_declarations:
            reuse = rules.declaration_card_reuse
            self.declared = [find_declarations(h, mode, reuse) for h in hands]

    def _score(self) -> None:
        """Called by the play state once the last trick is taken: the game's scoring."""
        taker = self.taker
        assert taker is not None
        variant = self.variant
        camps = self.camps
        won_tricks = self.won_tricks
        cards: tuple[int, ...]
        tricks: tuple[int, ...]
        if tuple(camps) == variant.team_of:  # each camp keeps one score: the play state's totals are the scores'
            cards, tricks = self.won, won_tricks
        else:
            n = self.players
            by_seat, tricks_by_seat = [0] * n, [0] * n
            for t in self.tricks:
                by_seat[t.winner] += t.points
                tricks_by_seat[t.winner] += 1
            cards, tricks = variant.by_team(by_seat), variant.by_team(tricks_by_seat)
        alone = won_tricks[camps[taker]] == self.ntricks and all(t.winner == taker for t in self.tricks)
        self.result = self.result_if(cards, tricks, alone, variant.team_of[self.tricks[-1].winner])

    def result_if(
        self, cards: tuple[int, ...], tricks: tuple[int, ...], alone: bool = False, last: int | None = None
    ) -> DealResult:
        """The deal's result had each score (side, or player) taken ``cards`` points in ``tricks``
        tricks (``alone``: the taker's seat took every trick; ``last``: the score that took the last
        trick, whose sheet gives its ten a row): the game's scoring with this deal's declarations,
        belote, points waiting and contract. The end of the last trick asks it, and the analysis
        asks it of the ends the solver foresees.
        """
        taker = self.taker
        assert taker is not None
        variant = self.variant
        declared = self.announcing()
        declarations = (
            variant.by_team(variant.scoring_declarations(self.rules, declared, self.order, self.camps))
            if declared
            else variant.no_points
        )
        belote = variant.belote_by_team(self.belote_seat())
        tally = Tally(taker, cards, tricks, declarations, belote, self.pending, self.order, self.contract, alone, last)
        return variant.score(self.rules, tally)

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
        return self.auction.legal(self)

    def is_legal(self, action: Action) -> bool:
        if self.phase == PLAY:
            return isinstance(action, int) and 0 <= action < 32 and bool(self.legal_mask() >> action & 1)
        return action in self.legal_actions()

    # ----------------------------------------------------------------- actions
    def _apply_slow(self, action: Action, seat: int | None) -> None:
        """Every action but a legal card played without naming a seat: checked, then applied."""
        self._check(action, seat)
        if self.phase == PLAY:
            card, says = split_says(action)
            self.quiet[self.to_move] |= says
            self.play_card(card)
        else:
            self._bid(Bid(action))

    def _check(self, action: Action, seat: int | None) -> None:
        if self.phase == DONE:
            raise GameOver("the deal is over", "deal_over")
        if seat is not None and seat != self.to_move:
            verb = "play" if self.phase == PLAY else "bid"
            who = SEATS[seat] if isinstance(seat, int) and 0 <= seat < self.players else repr(seat)
            raise NotYourTurn(
                f"it is {SEATS[self.to_move]}'s turn to {verb}, not {who}'s",
                "not_your_turn",
                seat=SEATS[self.to_move],
                phase=self.phase,
            )
        if not isinstance(action, int) or isinstance(action, bool):
            raise IllegalAction(
                f"{action!r} is not an action: play a card or make a bid", "not_an_action", text=repr(action)
            )
        if self.phase == PLAY:
            card, says = split_says(action)
            if not 0 <= card < 32:
                name = action_str(action)
                raise IllegalPlay(f"the bidding is over: play a card, not {name}", "bidding_over", action=name)
            if not self.legal_mask() >> card & 1:
                raise self.explain(card)
            if says:
                self._check_says(card, says)
            return
        if 0 <= action < 32:
            raise IllegalBid(
                f"the bidding is not over: {self.auction.what_to_bid} before playing {CARDS[action]}",
                "bidding_not_over",
                card=str(CARDS[action]),
                auction=self.auction.name,
            )
        if action not in self.legal_actions():
            raise self.auction.explain(self, action)

    def _check_says(self, card: int, says: int) -> None:
        """What a card says may be kept quiet only where there is something to say."""
        seat = self.to_move
        if says & QUIET and QUIET not in self._may_keep_quiet(seat, card):
            raise IllegalPlay(
                "you have nothing to keep quiet: declarations are announced with your first card, and you hold none",
                "nothing_to_keep_quiet",
                what="declarations",
            )
        if says & NO_BELOTE and NO_BELOTE not in self._may_keep_quiet(seat, card):
            raise IllegalPlay(
                f"you have no belote to keep quiet with {CARDS[card]}: it is said with the first of the king and "
                "queen of trumps, by the player who holds both",
                "nothing_to_keep_quiet",
                what="belote",
            )

    def _may_keep_quiet(self, seat: int, card: int | None = None) -> tuple[int, ...]:
        """What ``seat`` would announce with its next card (with ``card``, if given): ``QUIET`` while it
        has declarations to announce with its first card, ``NO_BELOTE`` while it holds the king and
        queen of trumps, neither played yet (and ``card`` is one of them)."""
        out = []
        if self.declared and self.declared[seat] and len(self.plays) < self.players and seat not in self.play_seats():
            out.append(QUIET)
        pair = belote_cards(self.mode) if self.mode >= 0 else 0
        if (
            pair
            and not mask_of(self.plays) & pair
            and (card is None or pair >> card & 1)
            and belote_holder(self.start_hands, self.mode) == seat
            # A card still face down (two hands) is unknown to its owner too: no word of it yet.
            and not pair & ~self.hand_mask(seat)
        ):
            out.append(NO_BELOTE)
        return tuple(out)

    def to_announce(self, seat: int) -> tuple[str, ...]:
        """What ``seat`` announces with the cards it plays next, unless it keeps it quiet: its
        declarations' names before its first card, and ``belote`` while it holds the king and queen
        of trumps, neither played. Its own knowledge: a view gives it to that seat alone."""
        if self.phase != PLAY:
            return ()
        can = self._may_keep_quiet(seat)
        names = tuple(d.name for d in self.declared[seat]) if QUIET in can else ()
        return (*names, "belote") if NO_BELOTE in can else names

    def announcing(self) -> list[list[Declaration]]:
        """Each seat's declarations that count: those it holds, unless it kept them quiet."""
        if not self.declared or not any(q & QUIET for q in self.quiet):
            return self.declared
        return [[] if q & QUIET else d for d, q in zip(self.declared, self.quiet, strict=True)]

    def belote_seat(self) -> int | None:
        """The seat whose belote counts: the holder of the king and queen of trumps, unless it kept it quiet."""
        holder = belote_holder(self.start_hands, self.mode) if self.start_hands else None
        return None if holder is None or self.quiet[holder] & NO_BELOTE else holder

    def explain(self, card: int) -> IllegalPlay:
        """Why ``card`` may not be played now: the refusal, not raised (its words are ``str()`` of it)."""
        seat = self.to_move
        if self.table_cards and not self.hand_mask(seat) >> card & 1:
            # Never say where a face-down card lies: its owner does not know either.
            return IllegalPlay(
                f"you have no {CARDS[card].pretty()} in your hand or face up on your side of the table",
                "not_in_hand",
                card=str(CARDS[card]),
            )
        bs = self.best_seat
        on_table = bool(self.trick)
        partner = on_table and bs != seat and self.camps[bs] == self.camps[seat]
        code, args, words = why_illegal(
            self.mode,
            self.hand_mask(seat),
            self.best if on_table else -1,
            partner,
            self.play_flags,
            self.led,
            card,
        )
        return IllegalPlay(words, code, **args)

    def undo(self) -> Action:
        """Take back the last action; returns it. The state is exactly as before it."""
        if self.phase != BIDDING and self.plays:
            self.result = None
            says = self._says_of_play(len(self.plays) - 1)
            card = CARDS[self.undo_card()]
            self.quiet[self.to_move] &= ~says
            return card | says if says else card
        if not self.bids:
            raise IllegalAction("nothing to undo", "nothing_to_undo")
        bids = self.bids[:-1]
        last = self.bids[-1]
        self._first_distribution()
        for b in bids:
            self._bid(b)
        return last

    def copy(self) -> Deal:
        new = Deal.__new__(Deal)
        new.copy_play_state(self)
        for name in Deal.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            setattr(new, name, value)
        return new

    def taken(self, taker: int, mode: int, contract: Contract | None = None) -> Deal:
        """A copy of this deal, still in its bidding, at the first lead as if ``taker`` had taken with
        ``mode`` (in Coinche, ``contract`` being played): the deals the analysis solves for the par
        of each trump, whatever was bid. The bids made so far stay as they are, not replayed.
        """
        if self.phase != BIDDING:
            raise ValueError("the bidding is over: this deal is being played as it was bid")
        new = self.copy()
        new._start_play(taker, mode)
        new.contract = contract
        return new

    # ----------------------------------------------------------------- public knowledge
    @property
    def actions(self) -> list[Action]:
        """The bids and the cards, each card with what its player kept quiet (``split_says``)."""
        if not any(self.quiet):
            return [*self.bids, *(CARDS[c] for c in self.plays)]
        return [*self.bids, *(CARDS[c] | self._says_of_play(i) for i, c in enumerate(self.plays))]

    def _says_of_play(self, index: int) -> int:
        """What the player of ``plays[index]`` kept quiet with that card."""
        seat = self.seat_of_play(index)
        quiet = self.quiet[seat]
        if not quiet:
            return 0
        says = QUIET if quiet & QUIET and index < self.players else 0
        pair = belote_cards(self.mode)
        if quiet & NO_BELOTE and pair >> self.plays[index] & 1 and not mask_of(self.plays[:index]) & pair:
            says |= NO_BELOTE
        return says

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
        declared = self.announcing()
        return [(seat, d) for seat in first for d in declared[seat]]

    def scoring_declarations_side(self) -> int | None:
        if not self.declared or not self.rules.declarations:
            return None
        return best_side(self.announcing(), self.order, self.camps, self.rules.declaration_tie)

    def belote_words(self) -> list[tuple[int, str]]:
        """``belote`` then ``rebelote``, said by the holder of the king and queen of trumps as they fall."""
        if self.phase == BIDDING or self.mode < 0:
            return []
        holder = self.belote_seat()
        if holder is None:
            return []
        pair = belote_cards(self.mode)
        words: list[tuple[int, str]] = []
        for c in self.plays:
            if pair >> c & 1:
                words.append((holder, "belote" if not words else "rebelote"))
        return words

    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds in hand (at two hands, not its table cards)."""
        tables = self.table_cards
        return tuple(
            (self.hand_mask(s) & ~tables[s] if tables else self.hand_mask(s)).bit_count() for s in range(self.players)
        )

    def view(self, seat: int | None) -> PlayerView:
        shown_side = self.scoring_declarations_side() if self.tricks else None
        declarations = tuple(
            (s, d.name, cards_of(d.cards) if shown_side == self.camps[s] else ()) for s, d in self.announced()
        )
        n = self.players
        trick_seats = [(self.leader + self.step * i) % n for i in range(len(self.trick))]
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
            pending=self.pending,
            result=self.result,
            played=tuple(CARDS[c] for c in self.plays),
            contract=self.contract,
            table=self.table(),
            order=tuple(self.order),
            camps=self.variant.camps(self.taker),
            played_by=tuple(self.play_seats()),
            hand_sizes=self.hand_sizes(),
            to_announce=self.to_announce(seat) if seat is not None and seat == self.to_move else (),
        )

    def team_points(self) -> tuple[int, ...]:
        """Points taken so far by each score (each side; at three hands each player)."""
        by_seat = [0] * self.players
        for t in self.tricks:
            by_seat[t.winner] += t.points
        return tuple(self.variant.by_team(by_seat))

    def _camp_name(self, camp: int) -> str:
        """A camp's name: its seats (``NS``, ``EW``; at three hands the taker's seat or the defenders')."""
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
        holder = self.belote_seat()
        belote_said = 0
        shown_side = self.scoring_declarations_side()
        seats = self.play_seats()
        under = self.under
        for i, c in enumerate(self.plays):
            seat = seats[i]
            if i < self.players and self.declared and self.declared[seat] and not self.quiet[seat] & QUIET:
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
            ev.append({"type": "scored", **self.result.to_json(sheet=True)})
        return ev


class Match:
    """Deals to the line (or a number of deals). A match is its seed plus its list of actions.

    ``one_deal``: the match is its first deal, whatever its outcome (a board of a duplicate
    tournament: a deal everybody passed twice is over at 0 to 0, never dealt again).
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int = 0,
        first_dealer: int = 0,
        score: tuple[int, ...] | None = None,
        one_deal: bool = False,
    ) -> None:
        self.rules = rules or Rules()
        score = score or (0,) * self.rules.teams
        if len(score) != self.rules.teams:
            raise ValueError(f"the score has {self.rules.teams} entries in this game, not {len(score)}")
        self.seed = seed
        self.first_dealer = first_dealer
        self.one_deal = one_deal
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
            raise GameOver("the match is over", "match_over")
        deal = self.deal
        deal.apply(action, seat)
        if deal.result is not None:
            r = deal.result
            for i, p in enumerate(r.points):
                self.score[i] += p
            over, winner = (False, None)
            if self.one_deal:  # over: the higher score wins, equal is a tie
                leaders = [i for i, x in enumerate(self.score) if x == max(self.score)]
                over, winner = True, leaders[0] if len(leaders) == 1 else None
            elif r.outcome != "thrown-in":
                over, winner = match_winner(self.rules, self.score, self.deals_played)
            self.over, self.winner = over, winner
            if not over:
                self._new_deal((deal.dealer + self.rules.step) % self.rules.players, r.pending)

    def copy(self) -> Match:
        """A match that plays on apart from this one, in microseconds: its finished deals are shared
        (only ``undo`` changes a deal once it is over, and it copies the deal first), the current one
        copied. What a server's room checks a change on, keeping the state it had until it is saved."""
        new = Match.__new__(Match)
        new.__dict__.update(self.__dict__)
        new.score = list(self.score)
        new.deals = [*self.deals[:-1], self.deals[-1].copy()]
        new.scores_before = list(self.scores_before)
        new._finished_events = dict(self._finished_events)
        return new

    def undo(self) -> Action:
        self._finished_events.pop(len(self.deals) - 1, None)
        if not self.over and not self.deal.bids and len(self.deals) > 1:
            self._finished_events.pop(len(self.deals) - 2, None)
            self.deals.pop()
            self.scores_before.pop()
        deal = self.deals[-1] = self.deal.copy()  # the deal may be shared with a copy of the match
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
            said = self.deal.to_announce(s) if s == self.to_move else ()
            if said:
                out[s]["to_announce"] = list(said)
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
        out = {
            "format": "belote-match/1",
            "seed": self.seed,
            "rules": self.rules.changes(),
            "first_dealer": SEATS[self.first_dealer],
            "score_before": dict(zip(self.rules.team_names, self.start_score, strict=True)),
            "actions": [action_str(a) for a in self.actions],
        }
        if self.one_deal:
            out["one_deal"] = True
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        rules = Rules.from_dict(data.get("rules", {}))
        score = data.get("score_before", {})
        m = cls(
            rules,
            int(data["seed"]),
            SEATS.index(data.get("first_dealer", "N")),
            tuple(int(score.get(name, 0)) for name in rules.team_names),
            one_deal=bool(data.get("one_deal", False)),
        )
        for a in data["actions"]:
            m.apply(parse_action(a))
        return m

    def __iter__(self) -> Iterator[Deal]:
        return iter(self.deals)
