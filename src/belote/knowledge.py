"""What one seat knows of the hidden cards, and full deals drawn at random consistent with it.

Everything here is read from a ``PlayerView``, so a bot that samples its worlds through this module
cannot see a card it should not. The knowledge comes from the rules of play: a player who did not
follow has none of the suit led; one who could not follow and did not trump while the other side
held the trick has no trump (or, without the undertrump rule, none higher than the trump winning);
one who played under the best trump when trumps were led (or any suit at all-trumps) has none
higher; the taker holds the turned card until it is played; declarations shown after the first trick
are in their owners' hands; a player who said belote holds the other of the king and queen of trumps,
and one who played the first of them without a word of belote does not (the engine says belote for
its holder with the first of the two, in every game and under every rule option: ``Deal.belote_words``;
at two hands a card face down on its side counts, so the silence tells its player too of the cards it
cannot see).
"The other side" is the other camp: partners at four hands, the two defenders against the taker at
three (``PlayerView.camps``).

What the words tell is certain as long as every player says what the rules let it score, as the bots,
the research environments and a record's plays do. A person may keep belote quiet (docs/rules.md,
"Keeping quiet"), and nobody else learns it: then the silence misleads, as it would mislead a person
at the table. Where it contradicts what the play has shown (no deal fits it), it is dropped rather than
believed (``Knowledge.fits``). The declarations announced but not shown bind the hands too: each name
is given cards that make it before a deal is drawn (``Knowledge.place_declarations``), and a drawn
deal is kept only when its hands announce exactly those names (``Plausibility``).

All of this is certain, or (the bids) a tendency of the hands behind them. How the others *played*
their cards says more, as a tendency too: a defender who led a seven rarely held the ace. That is
learned, not ruled: the card-play prior (``belote.bots.prior``) weighs the deals drawn here by the
chance of each card played from the hand a deal gives its player; it rules none out.

The hidden cards are dealt among *holders*: the players, and where the game keeps cards nobody
sees, piles of fixed size that are nobody's hand. At three hands the eight cards out of play are
one such pile (``OUT``). At two hands each player's face-down table cards are a pile of their own,
each card lying under a known face-up card (``slots``); ``sample_world`` lays the drawn cards
under them. The voids and ceilings of the play hold for the hand only: a face-down card was not
playable when its owner showed out.

>>> from belote.game import Match
>>> import random
>>> m = Match(seed=4)
>>> m.apply(m.legal_actions()[1])  # the first player takes
>>> k = Knowledge.from_view(m.view(0))
>>> hands = k.sample(random.Random(1))
>>> [h.bit_count() for h in hands]
[8, 8, 8, 8]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from belote.auctions import COUNT, TAKES, Claim
from belote.cards import FULL_PACK, SUIT_MASKS, bits_of, mask_of
from belote.declarations import FOUR_RANK_MASK, belote_cards, declaration_names, find_declarations
from belote.game import PlayerView
from belote.play import ALL_TRUMP, NO_TRUMP, beats, not_held

#: Three hands: the holder of the eight cards out of play.
OUT = 3


class InconsistentView(ValueError):
    """No deal fits what the view says (a bug upstream: a real view always has one)."""


@dataclass(frozen=True)
class Knowledge:
    """For each holder: the cards it surely holds, the cards it surely does not, how many it holds.

    The holders are the seats ``0 .. players - 1``, then the piles nobody holds in hand: at three
    hands in the play the cards out of play (``OUT``); at two hands in the play each seat's
    face-down table cards (holder ``players + seat``).
    """

    seat: int
    hands: tuple[int, ...]  # known holdings (the seat's own hand entire; at two hands its face-up cards too)
    excluded: tuple[int, ...]  # cards each holder cannot hold
    counts: tuple[int, ...]  # how many cards each holder holds now
    unknown: int  # the cards not placed: in the other hands or piles, or during the bidding the rest of the pack
    players: int = 4
    #: Two hands: for each seat, the face-up cards (in its hand mask or on the trick) with a card face down under them.
    slots: tuple[tuple[int, ...], ...] = ()

    @property
    def holders(self) -> int:
        return len(self.counts)

    def owner(self, holder: int) -> int | None:
        """The seat whose hand (or face-down pile) a holder is; None for the cards out of play."""
        if holder < self.players:
            return holder
        if self.slots:
            return holder - self.players
        return None

    @classmethod
    def from_view(cls, view: PlayerView) -> Knowledge:
        if view.seat is None:
            raise ValueError("a spectator has no hand to reason from")
        me = view.seat
        game = view.game
        n = game.players
        mine = mask_of(view.hand)
        played = mask_of(view.played)
        if view.phase == "bidding":
            dealt = game.bidding_hand
            turned = 0 if view.turned is None else 1 << view.turned
            known = [0] * n
            known[me] = mine
            return cls(me, tuple(known), (0,) * n, (dealt,) * n, FULL_PACK & ~mine & ~turned, n)
        played_by = view.cards_played_by()
        mode = -1 if view.trump is None else view.trump
        camps = view.camps
        # The face-down cards: a pile for each seat's table cards, or one pile of the cards out of play.
        two = game.table_cards > 0
        holders = n + (n if two else 1 if game.out_of_play else 0)
        known = [0] * holders
        excluded = [0] * holders
        known[me] = mine
        slots: list[tuple[int, ...]] = []
        if two:
            counts, slots = _table_counts(view, played_by, known)
        else:
            counts = [game.playing_hand - played_by[s].bit_count() for s in range(n)]
            if game.out_of_play:
                counts.append(game.out_of_play)
        # The turned card stays in the taker's hand until played.
        if view.taker is not None and view.turned is not None and not played >> view.turned & 1:
            known[view.taker] |= 1 << view.turned
        # Declarations shown after the first trick.
        for s, _name, cards in view.declarations:
            known[s] |= mask_of(cards) & ~played
        # Belote said: the other of the king and queen is still with that player (at two hands
        # perhaps face down on its side of the table).
        if 0 <= mode < 4 and view.belote:
            holder = view.belote[0][0]
            other = ((1 << (8 * mode + 5)) | (1 << (8 * mode + 6))) & ~played
            if two:
                for h in range(holders):
                    if h not in (holder, n + holder):
                        excluded[h] |= other
            else:
                known[holder] |= other
        _exclusions_from_play(view, mode, camps, excluded)
        # What is known to be with one holder is excluded from the others.
        for s in range(holders):
            for o in range(holders):
                if o != s:
                    excluded[o] |= known[s]
        placed = played
        for s in range(holders):
            placed |= known[s]
            excluded[s] &= ~known[s]  # a void shown in hand, then a card of it turned up on the table
        unknown = FULL_PACK & ~placed
        knowledge = cls(me, tuple(known), tuple(excluded), tuple(counts), unknown, n, tuple(slots))
        silent = _belote_silence(view, mode)
        return knowledge if silent is None else knowledge._not_holding(*silent)

    def _not_holding(self, seat: int, card: int) -> Knowledge:
        """This knowledge, and ``seat`` does not hold ``card``, in hand nor at two hands face down on
        its side (the seat's own face-down cards too: it does not see them); unless no deal would
        fit that (a player who kept belote quiet)."""
        holders = [self.players + seat] if self.slots else []
        if seat != self.seat:
            holders.append(seat)
        if not holders or not self.unknown >> card & 1:
            return self  # nothing hidden to tell of: played, or known to be with someone
        excluded = list(self.excluded)
        for h in holders:
            excluded[h] |= 1 << card
        told = replace(self, excluded=tuple(excluded))
        return told if told.fits() else self

    def fits(self) -> bool:
        """Whether some deal fits this knowledge: each holder can be given its count of the cards
        not placed, none it is excluded from (Hall's condition: every set of holders may hold, in all,
        at least as many of them as it still needs).

        >>> from belote.game import Match
        >>> m = Match(seed=4)
        >>> m.apply(m.legal_actions()[1])
        >>> k = Knowledge.from_view(m.view(0))
        >>> k.fits(), replace(k, excluded=(0, k.unknown, k.unknown, 0)).fits()
        (True, False)
        """
        others = [s for s in range(self.holders) if s != self.seat]
        need = [self.counts[s] - self.hands[s].bit_count() for s in others]
        excluded = [self.excluded[s] for s in others]
        unknown = self.unknown
        # Each non-empty set of the other holders (as bits over ``others``): the cards not placed that
        # one of them at least may hold are those not excluded from all of them.
        for chosen in range(1, 1 << len(others)):
            wanted, barred = 0, unknown
            for i, s_need in enumerate(need):
                if chosen >> i & 1:
                    wanted += s_need
                    barred &= excluded[i]
            if wanted > (unknown & ~barred).bit_count():
                return False
        return True

    def place_declarations(self, view: PlayerView, rng: random.Random) -> Knowledge | None:
        """This knowledge with the declarations announced but not shown given cards that make them,
        drawn at random: the deals drawn from it then announce what the table heard far more often
        than deals drawn at random (a sixte, four jacks are rare). None when the cards placed leave
        no deal (draw again).

        Each name gets one of the sets of cards that make it among those its player may have held
        (its own plays, its known cards, the cards not placed it is not excluded from). The cards
        placed may make more than was announced: ``Plausibility`` keeps the deals whose hands
        announce exactly the names said.
        """
        hidden = _hidden_declarations(view)
        if not hidden:
            return self
        return self._place(hidden, view.cards_played_by(), rng)

    def _place(
        self, hidden: Sequence[tuple[int, str]], played_by: Sequence[int], rng: random.Random
    ) -> Knowledge | None:
        """``place_declarations`` of the declarations ``hidden`` (seat, name), each seat's cards played given."""
        hands = list(self.hands)
        excluded = list(self.excluded)
        unknown = self.unknown
        for s, name in hidden:
            room = played_by[s] | hands[s] | (unknown & ~excluded[s])
            options = [m for m in _REALISATIONS[name] if not m & ~room]
            if not options:
                return None
            new = rng.choice(options) & unknown
            hands[s] |= new
            unknown &= ~new
            if hands[s].bit_count() > self.counts[s]:
                return None
            for o in range(len(excluded)):
                if o != s:
                    excluded[o] |= new
        placed = replace(self, hands=tuple(hands), excluded=tuple(excluded), unknown=unknown)
        return placed if placed.fits() else None

    def sample(self, rng: random.Random, attempts: int = 200) -> list[int]:
        """Every holder's cards as they may be now (the seat's own hand exactly), drawn at random.

        During the bidding, the seats hold what they were dealt so far; the rest of the pack is not placed.
        """
        return self._sample(rng, attempts)[0]

    def sample_world(self, rng: random.Random, attempts: int = 200) -> tuple[list[int], tuple[int, ...] | None]:
        """A whole position: each player's cards, and at two hands the card under each face-up card
        that has one (``under`` as ``belote.solver.Position`` takes it; None elsewhere)."""
        hands, slots = self._sample(rng, attempts)
        if not slots:
            return hands[: self.players], None
        under = [-1] * 32
        for seat in range(self.players):
            downs = bits_of(hands[self.players + seat])
            rng.shuffle(downs)
            for up, down in zip(slots[seat], downs, strict=True):
                under[up] = down
        return hands[: self.players], tuple(under)

    @cached_property
    def _allowed(self) -> tuple[list[int], list[int], list[int]]:
        """The cards not placed, the holders each may go to (a mask of holders), and the cards each
        holder still takes."""
        holders = len(self.counts)
        need = [self.counts[s] - self.hands[s].bit_count() for s in range(holders)]
        unknown = self.unknown
        cards = bits_of(unknown)
        rows = [(1 << s, unknown & ~self.excluded[s]) for s in range(holders) if s != self.seat]
        allowed = []
        for c in cards:
            may = 0
            for bit, row in rows:
                if row >> c & 1:
                    may |= bit
            allowed.append(may)
        return cards, allowed, need

    def _sample(self, rng: random.Random, attempts: int) -> tuple[list[int], tuple[tuple[int, ...], ...]]:
        cards, allowed, need = self._allowed
        hands = _deal(rng.getrandbits(64), cards, allowed, need, list(self.hands), attempts)
        if hands is None:
            raise InconsistentView("no deal fits this view")
        return hands, self.slots


_MASK64 = (1 << 64) - 1


def _deal_plain(
    seed: int, cards: list[int], allowed: list[int], room: list[int], hands: list[int], attempts: int
) -> list[int] | None:
    """The cards not placed dealt to the holders, ``hands`` completed: each card (``cards``) goes to
    one of the holders it may go to (``allowed``, a mask of holders for each card) that still has
    room (``room``, the cards each still takes), at random in proportion to its room, the most
    constrained cards first. Tried ``attempts`` times (a card may find every holder it may go to
    full); None when no attempt placed every card. During the bidding, the rest of the pack stays
    undealt once every holder is full.

    Its generator is splitmix64 seeded by ``seed``: the C solver's module has the same function,
    draw for draw (``belote.solver._dds.deal``), for a tenth of the time; this one is the reference
    and what runs without it. A world of the search bots is drawn by it: a few thousand a deal.
    """
    state = seed & _MASK64

    def below(n: int) -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        z ^= z >> 31
        return ((z >> 32) * n) >> 32

    holders = len(room)
    may = dict(zip(cards, allowed, strict=True))
    for _ in range(attempts):
        order = cards[:]
        for i in range(len(order) - 1, 0, -1):
            j = below(i + 1)
            order[i], order[j] = order[j], order[i]
        # The most constrained cards first; the shuffled order among equals.
        order.sort(key=lambda c: may[c].bit_count())
        left = room[:]
        dealt = hands[:]
        for c in order:
            total = sum(left[h] for h in range(holders) if may[c] >> h & 1)
            if not total:
                break  # every holder it may go to is full (in the bidding, every holder: the rest stays undealt)
            x = below(total)
            for h in range(holders):
                if may[c] >> h & 1:
                    if x < left[h]:
                        break
                    x -= left[h]
            dealt[h] |= 1 << c
            left[h] -= 1
        if not any(left):
            return dealt
    return None


def _deal_function() -> Callable[[int, list[int], list[int], list[int], list[int], int], list[int] | None]:
    from belote.solver import _backend

    return getattr(_backend, "deal", _deal_plain)


#: How a deal is drawn: the C solver's module when it was built, else ``_deal_plain``.
_deal = _deal_function()


def _hidden_declarations(view: PlayerView) -> list[tuple[int, str]]:
    """The declarations the others announced and have not shown: (seat, name)."""
    return [(s, name) for s, name, cards in view.declarations if not cards and s != view.seat]


def _belote_silence(view: PlayerView, mode: int) -> tuple[int, int] | None:
    """The first of the king and queen of trumps played without a word of belote: its player and
    the other of the two, which that player did not hold (at two hands, face down either)."""
    if not 0 <= mode < 4 or view.belote:
        return None
    pair = belote_cards(mode)
    for seat, c in zip(view.played_by, view.played, strict=True):
        if pair >> c & 1:
            return seat, (pair & ~(1 << c)).bit_length() - 1
    return None


def _realisations() -> dict[str, tuple[int, ...]]:
    """Every set of cards that makes each declaration by itself, by the name said at the table."""
    out: dict[str, list[int]] = {}
    masks = [
        0xFF >> (8 - length) << (8 * suit + start)
        for length in range(3, 9)
        for suit in range(4)
        for start in range(9 - length)
    ]
    masks += [FOUR_RANK_MASK << rank for rank in range(8)]
    for mask in masks:
        found = find_declarations(mask, NO_TRUMP)
        if len(found) == 1 and found[0].cards == mask:
            out.setdefault(found[0].name, []).append(mask)
    return {name: tuple(m) for name, m in out.items()}


#: The sets of cards that make each declaration, by its name (``Knowledge.place_declarations``).
_REALISATIONS = _realisations()


def _table_counts(view: PlayerView, played_by: list[int], known: list[int]) -> tuple[list[int], list[tuple[int, ...]]]:
    """With table cards (two hands), in the play: how many cards each seat may play (hand and face
    up) and has face down.

    The face-up table cards are known. A seat holds one card a trick still to play (``16 - played``
    at two hands) in all: in hand, face up and face down. A pile shown as (None, 1) is one whose top
    card is on the trick: the card under it turns up when the trick is taken.
    """
    n = view.rules.players
    counts = [0] * (2 * n)
    slots: list[tuple[int, ...]] = []
    on_trick = {s: int(c) for s, c in view.trick}
    for s in range(n):
        piles = view.table[s] if view.table else ()
        ups = [int(up) for up, _down in piles if up is not None]
        tops = [int(up) if up is not None else on_trick[s] for up, down in piles if down]
        for up in ups:
            known[s] |= 1 << up
        left = view.rules.tricks - played_by[s].bit_count()
        counts[s] = left - len(tops)
        counts[n + s] = len(tops)
        slots.append(tuple(tops))
    return counts, slots


def _exclusions_from_play(view: PlayerView, mode: int, camps: Sequence[int], excluded: list[int]) -> None:
    """Mark the cards each player showed, by a card played, that they no longer hold (in hand): those
    that would have made it illegal (``belote.play.not_held``, read from the rules of play)."""
    flags = view.rules.play.flags
    n = view.rules.players
    step = view.rules.step
    tricks: list[tuple[int, tuple[int, ...]]] = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    for leader, cards in tricks:
        led = cards[0] >> 3
        best, best_seat = cards[0], leader
        for i in range(1, len(cards)):
            seat = (leader + i * step) % n
            c = cards[i]
            excluded[seat] |= not_held(mode, c, best, camps[best_seat] == camps[seat], flags, led)
            if beats(mode, c, best):
                best, best_seat = c, seat


#: How a bot values a hand for a trump mode in Coinche: the card points (with belote) its side can
#: expect with that hand and an average partner. ``Plausibility`` reads the bids with it.
Evaluate = Callable[[int, int], float]


def simple_evaluation(hand: int, mode: int) -> float:
    """A plain count of a hand for a mode, in points its side may expect: for the bids of Coinche.

    Trumps (the jack, the nine, length), aces, tens beside their aces; at no-trumps aces and tens;
    at all-trumps jacks and nines.
    """
    worth = 50.0
    for suit in range(4):
        held = hand >> (8 * suit) & 0xFF
        n = held.bit_count()
        jack, nine, ace, ten = held >> 4 & 1, held >> 2 & 1, held >> 7 & 1, held >> 3 & 1
        if mode == suit:
            worth += 22 * jack + 14 * nine + 6 * ace + 4 * ten + 7 * n
        elif mode == ALL_TRUMP:
            worth += 18 * jack + 10 * nine + 3 * ace + 2 * n
        elif mode == 4:
            worth += 16 * ace + 8 * ten * (ace or n >= 3) + 2 * max(0, n - 3) * ace
        else:
            worth += 9 * ace + 4 * ten * ace
    return worth


class Plausibility:
    """How likely a drawn deal is, given what the table said: the bids and the declarations.

    Declarations are certain: a player who played a first card announced every declaration of the
    hand it started with, so a drawn hand must give exactly the names announced. The bids are
    tendencies, which the auction tells (``Auction.claims``): a taker usually holds the jack or the
    nine of trumps, or length in them; a player who passed the turned card rarely held its jack with
    two more. In Coinche a contract of ``L`` in a mode says the bidder's hand counts near ``L`` for
    that mode (less what partner's bids promised), and a pass that it counted below the next bid.
    ``weight`` gives the chance to keep a drawn deal; ``draw`` keeps drawing until one is kept.
    """

    def __init__(
        self,
        view: PlayerView,
        taker_weak: float = 0.25,
        passer_strong: float = 0.35,
        evaluate: Evaluate | None = None,
    ) -> None:
        self.view = view
        self.taker_weak = taker_weak
        self.passer_strong = passer_strong
        self.evaluate = evaluate or simple_evaluation
        self.players = view.rules.players
        self.played_by = view.cards_played_by()
        announced: dict[int, list[str]] = {}
        for s, name, _cards in view.declarations:
            announced.setdefault(s, []).append(name)
        if view.tricks:
            first_trick_seats = set(view.tricks[0].seats(view.rules.step, self.players))
        else:
            first_trick_seats = {s for s, _ in view.trick}
        self.announced = {s: sorted(announced.get(s, [])) for s in first_trick_seats if s != view.seat}
        #: What the bids say of the other bidders' hands.
        self.claims = tuple(c for c in view.game.auction.claims(view) if c.seat != view.seat)
        # Asked of every hand drawn: read once.
        self._table_cards = bool(view.game.table_cards)
        self._check_declarations = view.trump is not None and view.rules.declarations and bool(self.announced)
        self._card_reuse = view.rules.declaration_card_reuse
        self._hidden = _hidden_declarations(view)

    def weight(self, hands: Sequence[int]) -> float:
        if self._table_cards:
            return 1.0  # the table cards were dealt after the bidding: the bids say too little
        played_by = self.played_by
        if self._check_declarations:
            reuse = self._card_reuse
            for s, names in self.announced.items():
                if declaration_names(hands[s] | played_by[s], reuse) != names:
                    return 0.0
        w = 1.0
        for claim in self.claims:
            w = self._believed(claim, hands[claim.seat] | played_by[claim.seat], w)
        return w

    def _believed(self, claim: Claim, hand: int, w: float) -> float:
        """``w`` times the chance to keep ``hand`` given what ``claim`` says of it."""
        mode = claim.mode
        if claim.kind == COUNT:
            worth = self.evaluate(hand, mode)
            if claim.low is not None and worth < claim.low:
                w *= _soft(worth - claim.low)
            if claim.high is not None and worth > claim.high:
                w *= _soft(claim.high - worth)
            return w
        held = hand & SUIT_MASKS[mode]
        jack, nine = held >> (8 * mode + 4) & 1, held >> (8 * mode + 2) & 1
        if claim.kind == TAKES:
            if not (jack or nine) and held.bit_count() < 4:
                w *= self.taker_weak
        elif jack and held.bit_count() >= 3:  # PASSES
            w *= self.passer_strong
        return w

    def draw(self, knowledge: Knowledge, rng: random.Random, tries: int = 40) -> list[int]:
        """A deal drawn from ``knowledge`` and kept with its plausibility (the last try if none is kept)."""
        return self.draw_world(knowledge, rng, tries)[0]

    def draw_world(
        self, knowledge: Knowledge, rng: random.Random, tries: int = 40
    ) -> tuple[list[int], tuple[int, ...] | None]:
        """As ``draw``, with the face-down cards of two hands laid under their cards (``sample_world``)."""
        world = self._drawn(knowledge, rng)
        for _ in range(tries - 1):
            if rng.random() < self.weight(world[0]):
                return world
            world = self._drawn(knowledge, rng)
        return world

    def _drawn(self, knowledge: Knowledge, rng: random.Random) -> tuple[list[int], tuple[int, ...] | None]:
        """A deal drawn from ``knowledge``, the declarations announced but not shown placed first
        (``Knowledge.place_declarations``; as it is when the cards placed leave no deal)."""
        placed = knowledge._place(self._hidden, self.played_by, rng) if self._hidden else None
        return (placed or knowledge).sample_world(rng)


def _soft(shortfall: float, scale: float = 12.0) -> float:
    """The chance to keep a hand that counts ``-shortfall`` points away from what its bid said."""
    return max(0.05, 1.0 / (1.0 + (shortfall / scale) ** 2))
