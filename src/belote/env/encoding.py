"""What an agent of the research environments sees: one fixed layout of numbers, and the action mask.

The layout is the same for every game, so that one network can learn them all: a table of named
fields (``FIELDS``), each a run of floats in [0, 1]. Fields about seats are given from the point of
view of the observing seat: slot 0 is that seat, slot 1 the next player in the order of play, and so
on (slots beyond the game's players stay 0). docs/env.md tells each field.

``encode(view)`` is the definition: it reads nothing but a ``PlayerView``, so an observation holds
nothing the seat may not know. The environments compute the same numbers faster (``Observer``)
from the deal's public facts and the seat's own hand; the tests require them to be equal to
``encode`` at every step of every game.

>>> from belote.game import Match
>>> m = Match(seed=3)
>>> obs = encode(m.view(m.to_move))
>>> obs.shape, obs.dtype, int(obs[field("hand")].sum()), int(obs[field("phase")].argmax())
((769,), dtype('float32'), 5, 0)
>>> mask = action_mask(m.legal_actions())
>>> [action_str(a) for a in mask.nonzero()[0]]
['pass', 'take']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from belote.actions import NAME_SUIT, PASS, TAKE, action_str
from belote.auctions import Auction
from belote.auctions.turned import TURNED
from belote.cards import bits_of
from belote.contracts import COINCHE, LEVELS, SURCOINCHE, contract_of, is_contract
from belote.declarations import POINTS_BY_NAME, SEQUENCE_NAMES, belote_cards, belote_holder
from belote.playstate import BIDDING, DONE, PLAY
from belote.variants import VARIANTS

if TYPE_CHECKING:
    from belote.game import Deal
    from belote.view import PlayerView

__all__ = [
    "ACTIONS",
    "FIELDS",
    "OBS_SIZE",
    "Field",
    "Observer",
    "action_mask",
    "action_str",
    "encode",
    "field",
]

Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

#: The size of the action space: the engine's actions, cards 0..31 then every bid (``belote.actions``).
ACTIONS = SURCOINCHE + 1
PHASES = (BIDDING, PLAY, DONE)
#: The games of the field ``game``, one slot each: those registered when this module is imported, since
#: the layout is fixed (a game registered later leaves the field 0).
GAMES: tuple[str, ...] = tuple(VARIANTS)
#: What a seat's latest bid was (the field ``last_bid``).
BID_KINDS = ("pass", "take", "name S", "name H", "name D", "name C", "contract", "coinche", "surcoinche")
#: How many points the announced declarations of one seat can reach at most: sequences (two
#: quartes, or a quinte and a tierce...) and fours of a kind (four jacks and four nines).
MAX_SEQUENCES = 200
MAX_FOURS = 350


@dataclass(frozen=True, slots=True)
class Field:
    """A run of the observation: ``slots`` blocks of ``width`` floats.

    ``kind`` says what the slots are: ``seat`` (slot r is the r-th player after the observer in the
    order of play, the observer first), ``own`` (the observer's alone), ``camp`` (the observer's
    camp, then the other one), ``team`` (the score kept for the seat of slot r) or ``plain``.
    """

    name: str
    width: int
    kind: str = "plain"
    slots: int = 1
    offset: int = 0

    @property
    def size(self) -> int:
        return self.width * self.slots

    @property
    def stop(self) -> int:
        return self.offset + self.size


def _layout(spec: Sequence[tuple[str, int, str, int]]) -> tuple[Field, ...]:
    out, offset = [], 0
    for name, width, kind, slots in spec:
        f = Field(name, width, kind, slots, offset)
        out.append(f)
        offset = f.stop
    return tuple(out)


# fmt: off
#: The observation, in order. docs/env.md says what each field means.
FIELDS: tuple[Field, ...] = _layout((
    ("hand", 32, "own", 1),         # the observer's cards in hand (two hands: not those on the table)
    ("table", 32, "seat", 2),       # two hands: the face-up cards on each side of the table
    ("covering", 32, "seat", 2),    # two hands: those of them lying on a face-down card
    ("trick", 32, "seat", 4),       # the trick on the table, by who played each card
    ("played", 32, "seat", 4),      # every card played in the deal so far, by who played it
    ("turned", 32, "plain", 1),     # the turned card, while it is face up
    ("shown", 32, "seat", 4),       # declaration cards shown after the first trick
    ("game", len(GAMES), "plain", 1),
    ("phase", 3, "plain", 1),       # bidding, play, done
    ("options", 2, "plain", 1),     # the rules' undertrump and declarations
    ("dealer", 1, "seat", 4),
    ("to_move", 1, "seat", 4),
    ("bid_round", 2, "plain", 1),   # the turned card's auction: first or second round
    ("last_bid", len(BID_KINDS), "seat", 4),
    ("highest_bid", len(LEVELS) + 6, "seat", 4),  # Coinche: each seat's highest contract (level, mode)
    ("bidder", 1, "seat", 4),       # Coinche: who holds the highest contract
    ("level", len(LEVELS), "plain", 1),
    ("mode", 6, "plain", 1),        # the highest contract's mode: S H D C, no-trumps, all-trumps
    ("coinched", 2, "plain", 1),    # coinched, surcoinched
    ("taker", 1, "seat", 4),
    ("trump", 6, "plain", 1),       # the trump mode played: S H D C, no-trumps, all-trumps
    ("declared", 2, "seat", 4),     # points announced: sequences / 200, fours of a kind / 350
    ("belote", 1, "seat", 4),       # 0.5 once belote is said, 1 at rebelote
    ("hand_sizes", 1, "seat", 4),   # cards in hand / 8
    ("face_down", 1, "seat", 2),    # two hands: cards still face down on each side / 5
    ("won_points", 1, "camp", 2),   # card points taken this deal / 162, the observer's camp first
    ("won_tricks", 1, "camp", 2),   # tricks taken / tricks in a deal
    ("score", 1, "team", 4),        # the match score of each slot's side / the target (at most 1)
    ("pending", 1, "plain", 1),     # points waiting for the winner of the next deal / the target
))
# fmt: on
FIELD = {f.name: f for f in FIELDS}
OBS_SIZE = FIELDS[-1].stop


def field(name: str, slot: int | None = None) -> slice:
    """The slice of the observation that holds a field (or one of its slots)."""
    f = FIELD[name]
    if slot is None:
        return slice(f.offset, f.stop)
    return slice(f.offset + slot * f.width, f.offset + (slot + 1) * f.width)


#: Each declaration's name to (sequence points, four points).
DECLARATION_POINTS: dict[str, tuple[int, int]] = {
    name: (points, 0) if name in SEQUENCE_NAMES.values() else (0, points) for name, points in POINTS_BY_NAME.items()
}


def bid_kind(action: int) -> int:
    """The index in ``BID_KINDS`` of a bid."""
    if action == PASS:
        return 0
    if action == TAKE:
        return 1
    if NAME_SUIT <= action < NAME_SUIT + 4:
        return 2 + action - NAME_SUIT
    if is_contract(action):
        return 6
    return 7 if action == COINCHE else 8


def encode(view: PlayerView) -> Obs:
    """The observation of ``view``'s seat: the definition of every field, read from the view alone."""
    assert view.seat is not None, "an observation is a seat's"
    rules = view.rules
    n, me = rules.players, view.seat
    step = rules.step
    obs = np.zeros(OBS_SIZE, np.float32)

    def rel(seat: int) -> int:
        return (seat - me) * step % n

    def put(name: str, slot: int, index: int, value: float = 1.0) -> None:
        f = FIELD[name]
        obs[f.offset + slot * f.width + index] = value

    for c in view.hand:
        put("hand", 0, c)
    for s, piles in enumerate(view.table):
        for up, down in piles:
            if up is not None:
                put("table", rel(s), up)
                if down:
                    put("covering", rel(s), up)
        put("face_down", rel(s), 0, sum(down for _, down in piles) / 5)
    for s, c in view.trick:
        put("trick", rel(s), c)
    for s, c in zip(view.played_by, view.played, strict=True):
        put("played", rel(s), c)
    if view.turned is not None:
        put("turned", 0, view.turned)
    declared = [[0, 0] for _ in range(n)]
    for s, name, cards in view.declarations:
        for c in cards:
            put("shown", rel(s), c)
        seq, four = DECLARATION_POINTS[name]
        declared[s][0] += seq
        declared[s][1] += four
    for s in range(n):
        if view.declarations:
            put("declared", rel(s), 0, declared[s][0] / MAX_SEQUENCES)
            put("declared", rel(s), 1, declared[s][1] / MAX_FOURS)
        put("hand_sizes", rel(s), 0, view.hand_sizes[s] / 8)
        put("score", rel(s), 0, _scaled(view.score[rules.team(s)], rules.target))
    if rules.variant in GAMES:
        put("game", 0, GAMES.index(rules.variant))
    put("phase", 0, PHASES.index(view.phase))
    put("options", 0, 0, float(rules.undertrump))
    put("options", 0, 1, float(rules.declarations))
    put("dealer", rel(view.dealer), 0)
    if view.to_move is not None:
        put("to_move", rel(view.to_move), 0)
    bid_round = rules.game.auction.bid_round(len(view.bids), n) if view.phase == BIDDING else None
    if bid_round is not None:
        put("bid_round", 0, bid_round)
    highest = [-1] * n
    for s, b in view.bids:
        if is_contract(b):
            highest[s] = max(highest[s], b)
    for s, b in view.bids:  # the latest bid of each seat wins
        f = FIELD["last_bid"]
        obs[f.offset + rel(s) * f.width : f.offset + (rel(s) + 1) * f.width] = 0
        put("last_bid", rel(s), bid_kind(b))
    for s in range(n):
        if highest[s] >= 0:
            level, mode = contract_of(highest[s])
            put("highest_bid", rel(s), LEVELS.index(level))
            put("highest_bid", rel(s), len(LEVELS) + mode)
    contract = view.contract
    if contract is not None:
        put("bidder", rel(contract.bidder), 0)
        put("level", 0, LEVELS.index(contract.level))
        put("mode", 0, contract.mode)
        put("coinched", 0, 0, float(contract.multiplier >= 2))
        put("coinched", 0, 1, float(contract.multiplier >= 3))
    if view.taker is not None:
        put("taker", rel(view.taker), 0)
    if view.trump is not None:
        put("trump", 0, view.trump)
    for s, _ in view.belote:
        obs[field("belote", rel(s))] += 0.5
    if view.tricks:
        camps = view.camps
        mine = camps[me]
        points, tricks = [0, 0], [0, 0]
        for t in view.tricks:
            side = 0 if camps[t.winner] == mine else 1
            points[side] += t.points
            tricks[side] += 1
        for side in (0, 1):
            put("won_points", side, 0, points[side] / 162)
            put("won_tricks", side, 0, tricks[side] / rules.tricks)
    put("pending", 0, 0, _scaled(view.pending, rules.target))
    return obs


def _scaled(points: int, target: int) -> float:
    return min(max(points / target, 0.0), 1.0)


def action_mask(legal: Sequence[int]) -> Mask:
    """1 for each legal action, 0 elsewhere (``ACTIONS`` long)."""
    mask = np.zeros(ACTIONS, np.int8)
    mask[list(legal)] = 1
    return mask


# ----------------------------------------------------------------- the fast observer


def _bit_rows() -> list[bytes]:
    return [bytes(b >> k & 1 for k in range(8)) for b in range(256)]


_BYTE_BITS = _bit_rows()
_NO_BIDS = bytes(ACTIONS - 32)
#: The masks of the sets of legal bids met so far (a few hundred at most: an auction's legal bids
#: are pass, take or a suit, or the contracts above a level).
_BID_MASKS: dict[tuple[int, ...], bytes] = {}


class Observer:
    """The observations of every seat of one deal, kept as the deal goes on.

    It holds one array of the public facts in absolute seats (each seat's block, each camp's, each
    score's), plus the hands; a seat's observation is one gather from it (``numpy.take``) through an
    index made for that seat, which reads that seat's own hand and nothing of another's. Each card
    played (a trick taken, cards turned up, declarations, belote) and each bid that leaves the
    auction open is written in place, a few cells; the array is made whole from the deal only at a
    deal's start and when the auction ends, when most of it changes.
    """

    def __init__(self, players: int) -> None:
        self.players = players
        # The absolute array: each field's block as many times as there are seats (or camps, or
        # scores); then one cell that is always 0, where slots beyond the players read.
        offsets: dict[str, int] = {}
        size = 0
        for f in FIELDS:
            offsets[f.name] = size
            size += f.width * (1 if f.kind == "plain" else 2 if f.kind == "camp" else 4)
        self.offsets = offsets
        self.zero = size
        self.state = np.zeros(size + 1, np.float32)
        #: The same memory, for writing one cell at a time (faster than numpy's item assignment);
        #: a float view, which typeshed's ``memoryview`` (items as ints) cannot say.
        self.cells: Any = self.state.data
        #: Each field's offset in the absolute array, as attributes (``self._at.hand``).
        self._at = SimpleNamespace(**offsets)
        self._two_hands = self._declared = False
        self._auction: Auction = TURNED
        self._turned = self._belote_holder = -1
        self._belote_pair = 0
        self._trick: list[tuple[int, int]] = []
        self._tables: list[int] = []
        self._under: tuple[int, ...] = ()
        self._face_down = [0] * players
        self._cards = 0  # cards played in the deal
        #: Each seat's cells that a card it plays changes: its hand, played, trick, table and
        #: covering blocks, its hand size and its turn.
        self._seat_cells = [
            (
                *(offsets[name] + 32 * s for name in ("hand", "played", "trick", "table", "covering")),
                offsets["hand_sizes"] + s,
                offsets["to_move"] + s,
            )
            for s in range(players)
        ]
        self._gathers: dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], list[npt.NDArray[np.intp]]] = {}
        self.gather: list[npt.NDArray[np.intp]] = []
        self.deal: Deal | None = None
        self.score: Sequence[int] = ()
        self.fresh = False
        self._cards_at = offsets["hand"]
        self._card_blocks = (offsets["shown"] + 4 * 32 - self._cards_at) // 32

    def gathers(self, step: int, camps: tuple[int, ...], teams: tuple[int, ...]) -> list[npt.NDArray[np.intp]]:
        """The index of each seat's observation in the absolute array (made once per seating)."""
        key = (self.players, step, camps, teams)
        got = self._gathers.get(key)
        if got is not None:
            return got
        n, out = self.players, []
        for me in range(n):
            idx: list[int] = []
            for f in FIELDS:
                base, w = self.offsets[f.name], f.width
                for r in range(f.slots):
                    if f.kind == "plain":
                        block: int | None = 0
                    elif f.kind == "own":
                        block = me
                    elif f.kind == "seat":
                        block = (me + r * step) % n if r < n else None
                    elif f.kind == "team":
                        block = teams[(me + r * step) % n] if r < n else None
                    else:  # a camp: the observer's, then the other (none before anyone takes)
                        mine = camps[me]
                        block = None if mine > 1 else mine if r == 0 else 1 - mine
                    idx.extend([self.zero] * w if block is None else range(base + block * w, base + (block + 1) * w))
            out.append(np.array(idx, np.intp))
        self._gathers[key] = out
        return out

    def start(self, deal: Deal, score: Sequence[int]) -> None:
        """A new deal, with the match score before it: the array is made from it when next read."""
        self.deal = deal
        self.score = score
        self.fresh = False

    def acted(self, seat: int, action: int, bidding: bool) -> None:
        """``seat`` made ``action`` (already applied to the deal); ``bidding``: it was a bid.

        A card, and a bid that leaves the auction open, are written in place; the bid that ends the
        auction (or throws the deal in) has the array made again from the deal when next read.
        """
        if not self.fresh:
            return
        deal = self.deal
        assert deal is not None
        phase = deal.phase
        if bidding:
            if phase is BIDDING:
                self._bid(seat, action, deal)
            else:
                self.fresh = False
            return
        st, o = self.cells, self._at
        c = action
        hand, played, trick_at, table, covering, size, to_move = self._seat_cells[seat]
        if self._two_hands and self._tables[seat] >> c & 1:  # a face-up card from the table
            st[table + c] = 0.0
            st[covering + c] = 0.0
        else:
            st[hand + c] = 0.0
            st[size] -= 0.125
        st[played + c] = 1.0
        if c == self._turned:
            st[o.turned + c] = 0.0
        if seat == self._belote_holder and self._belote_pair >> c & 1:
            st[o.belote + seat] += 0.5
        self._cards += 1
        if self._declared and self._cards <= self.players:
            self._announce(seat, deal)
        trick = self._trick
        if len(trick) + 1 < self.players:  # the trick goes on
            st[trick_at + c] = 1.0
            trick.append((seat, c))
        else:  # the trick is taken: off the table, into its winner's camp
            for s, x in trick:
                st[o.trick + 32 * s + x] = 0.0
            trick.append((seat, c))
            if self._two_hands:
                self._turn_up(trick)
            trick.clear()
            won, won_tricks = deal.won, deal.won_tricks
            ntricks = deal.ntricks
            for side in (0, 1):
                st[o.won_points + side] = won[side] / 162
                st[o.won_tricks + side] = won_tricks[side] / ntricks
        st[to_move] = 0.0
        if phase is PLAY:
            st[o.to_move + deal.to_move] = 1.0
        else:
            st[o.phase + 1] = 0.0
            st[o.phase + 2] = 1.0

    def _announce(self, seat: int, deal: Deal) -> None:
        """The first trick: each seat announces its declarations with its first card; once the
        trick is taken, the side whose declarations score shows them."""
        st, o = self.cells, self._at
        mine = deal.declared[seat]
        if mine:
            seq = sum(DECLARATION_POINTS[d.name][0] for d in mine)
            four = sum(DECLARATION_POINTS[d.name][1] for d in mine)
            st[o.declared + 2 * seat] = seq / MAX_SEQUENCES
            st[o.declared + 2 * seat + 1] = four / MAX_FOURS
        if self._cards == self.players:
            side = deal.scoring_declarations_side()
            if side is not None:
                for s in range(self.players):
                    if deal.camps[s] == side:
                        for d in deal.declared[s]:
                            for x in bits_of(d.cards):
                                st[o.shown + 32 * s + x] = 1.0

    def _turn_up(self, trick: list[tuple[int, int]]) -> None:
        """Two hands: the cards lying under those of the trick just taken are turned up."""
        st, o = self.cells, self._at
        under = self._under
        for s, x in trick:
            u = under[x]
            if u >= 0:
                st[o.table + 32 * s + u] = 1.0
                self._face_down[s] -= 1
                st[o.face_down + s] = self._face_down[s] / 5

    def rescore(self, score: Sequence[int]) -> None:
        """The match score changed (a deal is over): its cells written again."""
        deal = self.deal
        assert deal is not None
        self.score = score
        if self.fresh:
            target = deal.rules.target
            for team, total in enumerate(score):
                self.cells[self._at.score + team] = _scaled(total, target)

    def _bid(self, seat: int, action: int, deal: Deal) -> None:
        st, o = self.cells, self._at
        n = self.players
        w = len(BID_KINDS)
        base = o.last_bid + w * seat
        for i in range(w):
            st[base + i] = 0.0
        st[base + bid_kind(action)] = 1.0
        if is_contract(action) or action == COINCHE or action == SURCOINCHE:
            w = len(LEVELS) + 6
            base = o.highest_bid + w * seat
            contract = deal.contract
            assert contract is not None
            if is_contract(action):
                for i in range(w):
                    st[base + i] = 0.0
                st[base + LEVELS.index(contract.level)] = 1.0
                st[base + len(LEVELS) + contract.mode] = 1.0
            for i in range(n):
                st[o.bidder + i] = 0.0
            st[o.bidder + contract.bidder] = 1.0
            for i in range(len(LEVELS)):
                st[o.level + i] = 0.0
            st[o.level + LEVELS.index(contract.level)] = 1.0
            for i in range(6):
                st[o.mode + i] = 0.0
            st[o.mode + contract.mode] = 1.0
            st[o.coinched] = float(contract.multiplier >= 2)
            st[o.coinched + 1] = float(contract.multiplier >= 3)
        bid_round = self._auction.bid_round(len(deal.bids), n)
        if bid_round is not None:
            st[o.bid_round] = st[o.bid_round + 1] = 0.0
            st[o.bid_round + bid_round] = 1.0
        st[o.to_move + seat] = 0.0
        st[o.to_move + deal.to_move] = 1.0

    def observe(self, seat: int) -> Obs:
        if not self.fresh:
            self._fill()
        return self.state.take(self.gather[seat])

    def _fill(self) -> None:
        deal = self.deal
        assert deal is not None
        rules = deal.rules
        n = self.players
        st, o = self.state, self.offsets
        st[:] = 0.0
        step = deal.step
        tables = deal.table_cards
        under = deal.under
        under_mask = 0
        if under is not None:
            for c in range(32):
                if under[c] >= 0:
                    under_mask |= 1 << c
        masks = [0] * self._card_blocks
        hands = [deal.hand_mask(s) for s in range(n)]
        trick = deal.trick
        leader = deal.leader
        trick_seats = [(leader + step * i) % n for i in range(len(trick))]
        for s in range(n):
            h = hands[s]
            masks[s] = h & ~tables[s] if tables else h
            if tables:
                masks[4 + s] = h & tables[s]
                masks[8 + s] = h & under_mask
        for s, c in zip(trick_seats, trick, strict=True):
            masks[12 + s] |= 1 << c
        plays = deal.plays
        played_mask = 0
        if plays:  # the array is made mostly before the first card: at the deal's start, at the auction's end
            for s, c in zip(deal.play_seats(), plays, strict=True):
                masks[16 + s] |= 1 << c
                played_mask |= 1 << c
        turned = deal.turned
        if turned is not None and not played_mask >> turned & 1:
            masks[20] = 1 << turned
        tricks = deal.tricks if plays else []
        announced = deal.announced() if plays else []
        declared = [[0, 0] for _ in range(n)]
        if announced:
            shown_side = deal.scoring_declarations_side() if tricks else None
            for s, d in announced:
                if shown_side is not None and shown_side == deal.camps[s]:
                    masks[21 + s] |= d.cards
                seq, four = DECLARATION_POINTS[d.name]
                declared[s][0] += seq
                declared[s][1] += four
        blocks = np.array(masks, np.uint32)
        bits = np.unpackbits(blocks.view(np.uint8), bitorder="little")
        st[self._cards_at : self._cards_at + bits.size] = bits
        # The other fields, one cell at a time.
        cells = self.cells

        def put(name: str, index: int, value: float = 1.0) -> None:
            cells[o[name] + index] = value

        if rules.variant in GAMES:
            put("game", GAMES.index(rules.variant))
        put("phase", PHASES.index(deal.phase))
        put("options", 0, float(rules.undertrump))
        put("options", 1, float(rules.declarations))
        put("dealer", deal.dealer)
        if deal.phase != DONE:
            put("to_move", deal.to_move)
        bids, bid_seats = deal.bids, deal.bid_seats
        variant = deal.variant
        auction = variant.auction
        bid_round = auction.bid_round(len(bids), n) if deal.phase == BIDDING else None
        if bid_round is not None:
            put("bid_round", bid_round)
        last = [-1] * n
        highest = [-1] * n
        for s, b in zip(bid_seats, bids, strict=True):
            last[s] = b
            if is_contract(b) and b > highest[s]:
                highest[s] = b
        w_last, w_high = FIELD["last_bid"].width, FIELD["highest_bid"].width
        for s in range(n):
            if last[s] >= 0:
                put("last_bid", s * w_last + bid_kind(last[s]))
            if highest[s] >= 0:
                level, mode = contract_of(highest[s])
                put("highest_bid", s * w_high + LEVELS.index(level))
                put("highest_bid", s * w_high + len(LEVELS) + mode)
        contract = deal.contract
        if contract is not None:
            put("bidder", contract.bidder)
            put("level", LEVELS.index(contract.level))
            put("mode", contract.mode)
            put("coinched", 0, float(contract.multiplier >= 2))
            put("coinched", 1, float(contract.multiplier >= 3))
        if deal.taker is not None:
            put("taker", deal.taker)
        if deal.trump is not None:
            put("trump", deal.trump)
        if announced:
            for s in range(n):
                put("declared", 2 * s, declared[s][0] / MAX_SEQUENCES)
                put("declared", 2 * s + 1, declared[s][1] / MAX_FOURS)
        said = [0] * n
        for s, _ in deal.belote_words() if plays else ():
            said[s] += 1
        for s in range(n):
            if said[s]:
                put("belote", s, said[s] / 2)
        sizes = [masks[s].bit_count() for s in range(n)]  # in hand: not the table cards
        target = rules.target
        for s in range(n):
            put("hand_sizes", s, sizes[s] / 8)
        if tables and under is not None:
            for s in range(n):
                down = (hands[s] & under_mask).bit_count()
                for ts, tc in zip(trick_seats, trick, strict=True):
                    if ts == s and under[tc] >= 0:
                        down += 1
                put("face_down", s, down / 5)
                self._face_down[s] = down
        camps_now = deal.camps
        if tricks:
            points, won = [0, 0], [0, 0]
            for t in tricks:
                side = camps_now[t.winner]
                points[side] += t.points
                won[side] += 1
            for side in (0, 1):
                put("won_points", side, points[side] / 162)
                put("won_tricks", side, won[side] / deal.ntricks)
        for team, total in enumerate(self.score):
            put("score", team, _scaled(total, target))
        put("pending", 0, _scaled(deal.pending, target))
        # What the in-place updates need to know of this deal.
        self._two_hands = bool(tables)
        self._declared = any(deal.declared)
        self._auction = auction
        self._turned = -1 if turned is None or not masks[20] else int(turned)
        playing = deal.phase is PLAY
        self._belote_pair = belote_cards(deal.mode) if playing else 0
        holder = belote_holder(deal.start_hands, deal.mode) if playing else None
        self._belote_holder = -1 if holder is None else holder
        self._trick = list(zip(trick_seats, trick, strict=True))
        self._cards = len(plays)
        self._tables = list(tables)
        self._under = under or ()
        camps = tuple(camps_now) if deal.taker is not None else tuple(range(n))
        self.gather = self.gathers(step, camps, variant.team_of)
        self.fresh = True

    def mask(self) -> Mask:
        """The action mask of the player to move."""
        deal = self.deal
        assert deal is not None
        if deal.phase is PLAY:
            m, t = deal.legal_mask(), _BYTE_BITS
            return np.frombuffer(
                bytearray(t[m & 255] + t[m >> 8 & 255] + t[m >> 16 & 255] + t[m >> 24] + _NO_BIDS), np.int8
            )
        legal = deal.legal_actions()
        got = _BID_MASKS.get(legal)
        if got is None:
            got = _BID_MASKS[legal] = action_mask(legal).tobytes()
        return np.frombuffer(bytearray(got), np.int8)
