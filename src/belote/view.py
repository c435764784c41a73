"""What one seat may know: the ``PlayerView`` that every front end and every bot reads.

A view holds the seat's own hand and everything public, never another hand. It also carries what
consumers would otherwise work out again from the rules: the seating order, the camps, who played
each card, how many cards each seat holds, and the deal's scoring as a function (``score``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from belote.actions import Action, Bid, action_str, parse_action
from belote.cards import CARDS, Card, parse_card
from belote.contracts import CAPOT, GENERALE, MODE_LETTERS, Contract
from belote.playstate import Trick
from belote.rules import Rules
from belote.scoring import DealResult
from belote.variants import SEATS, Tally, Variant


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
    #: The seats in playing order, from the player next to the dealer.
    order: tuple[int, ...] = ()
    #: The camp each seat plays for now: partners share one; at three hands the two defenders
    #: once someone has taken (before that, each alone).
    camps: tuple[int, ...] = ()
    #: Who played each card of ``played``, in order.
    played_by: tuple[int, ...] = ()
    #: How many cards each seat holds in hand (at two hands, not counting its table cards).
    hand_sizes: tuple[int, ...] = ()
    #: At its turn to play, what the seat announces with the cards it plays next unless it keeps it
    #: quiet (``belote.actions.QUIET``, ``NO_BELOTE``): its declarations' names before its first
    #: card, and ``belote`` while it holds the king and queen of trumps, neither played. Its own.
    to_announce: tuple[str, ...] = ()

    @property
    def game(self) -> Variant:
        """The game played (``belote.variants``)."""
        return self.rules.game

    def score_deal(
        self,
        cards: Sequence[int],
        tricks: Sequence[int],
        declarations: Sequence[int],
        belote: int | None,
        taker_alone: bool = False,
    ) -> DealResult:
        """The result of this deal if it ended with each score (each side, or each player who plays
        alone) taking ``cards`` points in ``tricks`` tricks, with ``declarations`` scoring and
        ``belote`` held by that seat (or by nobody); ``taker_alone``: the taker's seat alone took
        every trick (what a générale asks).

        The game's own scoring, with this deal's taker, contract, points waiting and order; a bot
        calls it on the ends of the worlds it imagines.
        """
        assert self.taker is not None
        game = self.rules.game
        tally = Tally(
            self.taker,
            tuple(cards),
            tuple(tricks),
            tuple(declarations),
            game.belote_by_team(belote),
            self.pending,
            self.order,
            self.contract,
            taker_alone,
        )
        return game.score(self.rules, tally)

    def won_by_camp(self) -> list[int]:
        """The card points each camp has taken so far (camps 0 and 1 once someone has taken)."""
        out = [0, 0]
        for t in self.tricks:
            out[self.camps[t.winner]] += t.points
        return out

    def cards_played_by(self) -> list[int]:
        """The mask of the cards each seat has played so far."""
        out = [0] * self.rules.players
        for s, c in zip(self.played_by, self.played, strict=True):
            out[s] |= 1 << c
        return out

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
            "result": None if self.result is None else self.result.to_json(sheet=True),
            "score": dict(zip(names, self.score, strict=True)),
            "pending": self.pending,
            "deal_number": self.deal_number,
            "match_over": self.match_over,
            "match_winner": None if self.match_winner is None else names[self.match_winner],
            "order": [SEATS[s] for s in self.order],
            "hand_sizes": {SEATS[s]: n for s, n in enumerate(self.hand_sizes)},
        }
        if self.to_announce:
            out["to_announce"] = list(self.to_announce)
        if self.contract is not None:
            out["contract"] = {"bidder": SEATS[self.contract.bidder], **self.contract.to_json()}
        if self.table:
            out["table"] = {
                SEATS[s]: [[None if up is None else str(up), down] for up, down in piles]
                for s, piles in enumerate(self.table)
            }
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayerView:
        """The view ``to_json`` wrote, for a program that reads views from text: an outside bot's
        host (``belote bot serve``) gives a built-in bot the very view it would have had in process.

        What ``to_json`` leaves out is worked out again: the cards played and who played them (from
        the tricks), the camps (from the game and the taker). ``result`` stays None: a finished
        deal's result is read from the JSON, a bot is never asked to act on it.

        >>> from belote.game import Match
        >>> m = Match(seed=4)
        >>> v = m.view(m.to_move)
        >>> w = PlayerView.from_json(v.to_json())
        >>> w.to_json() == v.to_json(), w.legal == v.legal, w.camps == v.camps
        (True, True, True)
        """

        def seat(s: str | None) -> int | None:
            return None if s is None else SEATS.index(s)

        def card(text: str) -> Card:
            return _CARD_NAMES.get(text) or parse_card(text)

        def cards(texts: Sequence[str]) -> tuple[Card, ...]:
            return tuple(card(t) for t in texts)

        rules = _rules(data["rules"])
        game = rules.game
        names = rules.team_names
        step = rules.step
        tricks = tuple(
            Trick(SEATS.index(t["leader"]), tuple(int(card(c)) for c in t["cards"]), SEATS.index(t["winner"]),
                  int(t["points"]))
            for t in data["tricks"]
        )  # fmt: skip
        trick = tuple((SEATS.index(s), card(c)) for s, c in data["trick"])
        played = [CARDS[c] for t in tricks for c in t.cards] + [c for _, c in trick]
        played_by = [s for t in tricks for s in t.seats(step, rules.players)] + [s for s, _ in trick]
        taker = seat(data["taker"])
        contract = data.get("contract")
        winner = data["match_winner"]
        return cls(
            seat=seat(data["seat"]),
            rules=rules,
            phase=data["phase"],
            dealer=SEATS.index(data["dealer"]),
            to_move=seat(data["to_move"]),
            hand=cards(data["hand"]),
            turned=None if data["turned"] is None else card(data["turned"]),
            bids=tuple((SEATS.index(s), Bid(parse_action(b))) for s, b in data["bids"]),
            taker=taker,
            trump=None if data["trump"] is None else MODE_LETTERS.index(data["trump"]),
            trick=trick,
            tricks=tricks,
            declarations=tuple((SEATS.index(d["seat"]), d["name"], cards(d["cards"])) for d in data["declarations"]),
            belote=tuple((SEATS.index(s), w) for s, w in data["belote"]),
            legal=tuple(parse_action(a) for a in data["legal"]),
            won=tuple(int(data["won"][n]) for n in names),
            result=None,
            score=tuple(int(data["score"][n]) for n in names),
            pending=int(data["pending"]),
            deal_number=int(data["deal_number"]),
            match_over=bool(data["match_over"]),
            match_winner=None if winner is None else names.index(winner),
            played=tuple(played),
            contract=None
            if contract is None
            else Contract(
                _LEVELS_BY_NAME.get(contract["level"]) or int(contract["level"]),
                MODE_LETTERS.index(contract["mode"]),
                SEATS.index(contract["bidder"]),
                int(contract["multiplier"]),
            ),
            table=tuple(
                tuple((None if up is None else card(up), int(down)) for up, down in data["table"][SEATS[s]])
                for s in range(rules.players)
            )
            if "table" in data
            else (),
            order=tuple(SEATS.index(s) for s in data["order"]),
            camps=game.camps(taker),
            played_by=tuple(played_by),
            hand_sizes=tuple(int(data["hand_sizes"][SEATS[s]]) for s in range(rules.players)),
            to_announce=tuple(str(w) for w in data.get("to_announce", ())),
        )


_LEVELS_BY_NAME = {"capot": CAPOT, "generale": GENERALE}
_CARD_NAMES = {str(c): c for c in CARDS}
#: The rules of the views read lately: a program reads the same rules at every decision of a match.
_RULES: dict[tuple[tuple[str, Any], ...], Rules] = {}


def _rules(data: dict[str, Any]) -> Rules:
    try:
        key = tuple(data.items())
        hash(key)
    except TypeError:  # a value that is a list: no cache
        return Rules.from_dict(data)
    rules = _RULES.get(key)
    if rules is None:
        if len(_RULES) >= 64:
            _RULES.clear()
        rules = _RULES[key] = Rules.from_dict(data)
    return rules
