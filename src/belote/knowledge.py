"""What one seat knows of the hidden hands, and full deals drawn at random consistent with it.

Everything here is read from a ``PlayerView``, so a bot that samples its worlds through this module
cannot see a card it should not. The knowledge comes from the rules of play: a player who did not
follow has none of the suit led; one who could not follow and did not trump while the other side
held the trick has no trump (or, without the undertrump rule, none higher than the trump winning);
one who played under the best trump when trumps were led has none higher; the taker holds the
turned card until it is played; declarations shown after the first trick are in their owners' hands;
a player who said belote holds the other of the king and queen of trumps.

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
from dataclasses import dataclass

from belote.cards import FULL_PACK, SUIT_MASKS, mask_of
from belote.game import PlayerView
from belote.play import ALL_TRUMP, HIGHER, beats

PLAYERS = 4


class InconsistentView(ValueError):
    """No deal fits what the view says (a bug upstream: a real view always has one)."""


@dataclass(frozen=True)
class Knowledge:
    """For each seat: the cards it surely holds, the cards it surely does not, how many it holds."""

    seat: int
    hands: tuple[int, ...]  # known holdings (the seat's own hand entire)
    excluded: tuple[int, ...]  # cards each seat cannot hold
    counts: tuple[int, ...]  # how many cards each seat holds now
    unknown: int  # the cards not placed: in the other hands or, during the bidding, in the rest of the pack

    @classmethod
    def from_view(cls, view: PlayerView) -> Knowledge:
        if view.seat is None:
            raise ValueError("a spectator has no hand to reason from")
        me = view.seat
        step = view.rules.step
        mine = mask_of(view.hand)
        played = mask_of(view.played)
        known = [0] * PLAYERS
        known[me] = mine
        excluded = [0] * PLAYERS
        if view.phase == "bidding":
            counts = [5] * PLAYERS
            turned = 0 if view.turned is None else 1 << view.turned
            unknown = FULL_PACK & ~mine & ~turned
            return cls(me, tuple(known), tuple(excluded), tuple(counts), unknown)
        played_by = [0] * PLAYERS
        for t in view.tricks:
            for i, c in enumerate(t.cards):
                played_by[(t.leader + i * step) % PLAYERS] |= 1 << c
        for s, c in view.trick:
            played_by[s] |= 1 << c
        counts = [8 - played_by[s].bit_count() for s in range(PLAYERS)]
        mode = -1 if view.trump is None else view.trump
        # The turned card stays in the taker's hand until played.
        if view.taker is not None and view.turned is not None and not played >> view.turned & 1:
            known[view.taker] |= 1 << view.turned
        # Declarations shown after the first trick.
        for s, _name, cards in view.declarations:
            known[s] |= mask_of(cards) & ~played
        # Belote said: the other of the king and queen is still in that hand.
        if mode >= 0 and view.belote:
            holder = view.belote[0][0]
            known[holder] |= ((1 << (8 * mode + 5)) | (1 << (8 * mode + 6))) & ~played
        _exclusions_from_play(view, mode, step, excluded)
        # What is known to be in one hand is excluded from the others.
        for s in range(PLAYERS):
            for o in range(PLAYERS):
                if o != s:
                    excluded[o] |= known[s]
        placed = played
        for s in range(PLAYERS):
            placed |= known[s]
        unknown = FULL_PACK & ~placed
        return cls(me, tuple(known), tuple(excluded), tuple(counts), unknown)

    def sample(self, rng: random.Random, attempts: int = 200) -> list[int]:
        """Every seat's hand as it may be now (the seat's own exactly), drawn at random.

        During the bidding, the seats hold their five cards; the rest of the pack is not placed.
        """
        need = [self.counts[s] - self.hands[s].bit_count() for s in range(PLAYERS)]
        cards = [c for c in range(32) if self.unknown >> c & 1]
        allowed = {c: [s for s in range(PLAYERS) if s != self.seat and not self.excluded[s] >> c & 1] for c in cards}
        # The most constrained cards first; random order among equals.
        for _ in range(attempts):
            rng.shuffle(cards)
            cards.sort(key=lambda c: len(allowed[c]))
            room = need[:]
            hands = list(self.hands)
            ok = True
            for c in cards:
                seats = [s for s in allowed[c] if room[s] > 0]
                if not seats:
                    if sum(room) == 0:
                        break  # the bidding: the rest of the pack stays undealt
                    ok = False
                    break
                weights = [room[s] for s in seats]
                s = rng.choices(seats, weights)[0]
                hands[s] |= 1 << c
                room[s] -= 1
            if ok and not any(room):
                return hands
        raise InconsistentView("no deal fits this view")


def _exclusions_from_play(view: PlayerView, mode: int, step: int, excluded: list[int]) -> None:
    """Mark the cards each player showed, by a card played, that they no longer hold."""
    undertrump = view.rules.undertrump
    tricks: list[tuple[int, tuple[int, ...]]] = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    for leader, cards in tricks:
        led = cards[0] >> 3
        best, best_seat = cards[0], leader
        for i in range(1, len(cards)):
            seat = (leader + i * step) % PLAYERS
            c = cards[i]
            suit = c >> 3
            partner = (best_seat - seat) % 2 == 0
            trumplike = mode == led or mode == ALL_TRUMP
            if suit != led:
                excluded[seat] |= SUIT_MASKS[led]  # did not follow: none of the suit led
                if mode < 4 and not partner:
                    trumps = SUIT_MASKS[mode]
                    if suit != mode:
                        if best >> 3 != mode or undertrump:
                            excluded[seat] |= trumps  # did not trump: no trump at all
                        else:
                            excluded[seat] |= HIGHER[mode][best]  # could discard only without a higher trump
                    elif best >> 3 == mode and not beats(mode, c, best):
                        excluded[seat] |= HIGHER[mode][best]  # trumped under: no higher trump
            elif trumplike and best >> 3 == led and not beats(mode, c, best):
                excluded[seat] |= HIGHER[mode][best]  # trumps led: did not go higher, so could not
            if beats(mode, c, best):
                best, best_seat = c, seat


class Plausibility:
    """How likely a drawn deal is, given what the table said: the bids and the declarations.

    Declarations are certain: a player who played a first card announced every declaration of the
    hand it started with, so a drawn hand must give exactly the names announced. The bids are
    tendencies: a taker usually holds the jack or the nine of trumps, or length in them; a player who
    passed the turned card rarely held its jack with two more. ``weight`` gives the chance to keep a
    drawn deal; ``draw`` keeps drawing until one is kept.
    """

    def __init__(self, view: PlayerView, taker_weak: float = 0.25, passer_strong: float = 0.35) -> None:
        self.view = view
        self.taker_weak = taker_weak
        self.passer_strong = passer_strong
        step = view.rules.step
        self.played_by = [0] * PLAYERS
        for t in view.tricks:
            for i, c in enumerate(t.cards):
                self.played_by[(t.leader + i * step) % PLAYERS] |= 1 << c
        for s, c in view.trick:
            self.played_by[s] |= 1 << c
        announced: dict[int, list[str]] = {}
        for s, name, _cards in view.declarations:
            announced.setdefault(s, []).append(name)
        first_trick_seats = set()
        if view.tricks:
            first_trick_seats = set(view.tricks[0].seats(step))
        else:
            first_trick_seats = {s for s, _ in view.trick}
        self.announced = {s: sorted(announced.get(s, [])) for s in first_trick_seats if s != view.seat}
        self.turned_suit = None if view.turned is None else view.turned.suit
        self.round_one_passers = [s for i, (s, b) in enumerate(view.bids) if i < PLAYERS and str(b) == "pass"]

    def weight(self, hands: list[int]) -> float:
        view = self.view
        trump = view.trump
        if trump is None:
            return 1.0
        start = [h | p for h, p in zip(hands, self.played_by, strict=True)]
        if view.rules.declarations:
            from belote.declarations import find_declarations

            for s, names in self.announced.items():
                found = sorted(d.name for d in find_declarations(start[s], trump, view.rules.declaration_card_reuse))
                if found != names:
                    return 0.0
        w = 1.0
        trumps = SUIT_MASKS[trump]
        if view.taker is not None and view.taker != view.seat:
            held = start[view.taker] & trumps
            if not (held >> (8 * trump + 4) & 1 or held >> (8 * trump + 2) & 1) and held.bit_count() < 4:
                w *= self.taker_weak
        if self.turned_suit is not None:
            suit_mask = SUIT_MASKS[self.turned_suit]
            for s in self.round_one_passers:
                if s == view.seat:
                    continue
                held = start[s] & suit_mask
                if held >> (8 * self.turned_suit + 4) & 1 and held.bit_count() >= 3:
                    w *= self.passer_strong
        return w

    def draw(self, knowledge: Knowledge, rng: random.Random, tries: int = 40) -> list[int]:
        """A deal drawn from ``knowledge`` and kept with its plausibility (the last try if none is kept)."""
        hands = knowledge.sample(rng)
        for _ in range(tries - 1):
            if rng.random() < self.weight(hands):
                return hands
            hands = knowledge.sample(rng)
        return hands
