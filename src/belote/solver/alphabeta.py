"""The double-dummy solver in plain Python: the algorithm of ``_dds.c``, for where it is not built.

The search is alpha-beta, one card at a time, for the points of the side to move at the root (it
maximises, the other side minimises). What makes it fast enough:

- a transposition table at trick boundaries. There, the cards still held and who leads decide the
  rest of the deal, but for one thing the cards do not show: whether the side we count for has won
  every trick so far (capot is still open). So the key is the mask of the cards left, the leader,
  and that one bit; an entry holds a lower and an upper bound on the points still to come, and the
  card led last time from there, which is tried first next time;
- equivalent cards: two cards of one suit in one hand, with no card of another hand (or on the
  table) between them and the same points, lead to the same value: one of them is searched. The
  points matter: the ace and ten of a suit rank side by side but are not worth the same;
- move ordering: the leader's masters first, winning cards before losing ones, points onto a
  partner's trick, cheap discards under the opponents';
- exact values from null windows: MTD(f) asks "is it at least beta?" until the bounds meet. The
  table keeps what every question taught, and ``card_values`` shares it across the cards.

``value`` and ``card_values`` take plain values, like the C module; ``belote.solver`` wraps both.
"""

from __future__ import annotations

from collections.abc import Callable

from belote.cards import SUIT_MASKS
from belote.play import HIGHER, KEY, LAST_TRICK, POINTS, TRUMP_BONUS, legal_mask
from belote.scoring import CAPOT_POINTS, DEAL_POINTS

CAPOT_BONUS = CAPOT_POINTS - DEAL_POINTS
#: More than any value (252 is the most a side can take in a deal).
INFINITY = 1000
#: Where MTD(f) starts when nothing better is known: about half of a deal's points.
GUESS = 81

#: SUIT_ORDER[mode][suit]: the cards of the suit, strongest first.
SUIT_ORDER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(sorted(range(8 * s, 8 * s + 8), key=lambda c, m=m: -KEY[m][c])) for s in range(4))  # type: ignore[misc]
    for m in range(6)
)
#: BYTE_POINTS[mode][suit][byte]: the points of the cards of one suit given as the byte of a mask.
BYTE_POINTS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(sum(POINTS[m][8 * s + r] for r in range(8) if b >> r & 1) for b in range(256)) for s in range(4))
    for m in range(6)
)

Probe = Callable[[int, int], int]


class Search:
    """One solve: the position being searched (changed and restored card by card) and the table."""

    def __init__(
        self,
        hands: tuple[int, int, int, int],
        mode: int,
        leader: int,
        trick: tuple[int, ...],
        step: int,
        undertrump: bool,
        tricks_won: tuple[int, int],
    ) -> None:
        self.mode = mode
        self.key = KEY[mode]
        self.points = POINTS[mode]
        self.higher = HIGHER[mode]
        self.suit_order = SUIT_ORDER[mode]
        self.byte_points = BYTE_POINTS[mode]
        self.step = step
        self.undertrump = undertrump
        self.hands = list(hands)
        self.leader = leader
        self.trick: list[int] = []
        self.on_table = 0
        self.best = self.best_seat = -1
        self.side = (leader + step * len(trick)) % 4 & 1
        # Capot is open for the side we count for while the other side has taken no trick.
        self.capot = tricks_won[1 - self.side] == 0
        for i, c in enumerate(trick):
            self._push(c, (leader + step * i) % 4)
        #: key -> [lower bound, upper bound, card led]
        self.table: dict[int, list[int]] = {}
        self.nodes = 0

    # ----------------------------------------------------------------- the trick on the table
    def _push(self, c: int, seat: int) -> None:
        self.trick.append(c)
        self.on_table |= 1 << c
        best = self.best
        if best < 0:
            self.best, self.best_seat = c, seat
        else:
            k = self.key[c]
            if k > self.key[best] and (c >> 3 == best >> 3 or k >= TRUMP_BONUS):
                self.best, self.best_seat = c, seat

    def seat_to_move(self) -> int:
        return (self.leader + self.step * len(self.trick)) % 4

    def legal(self, seat: int) -> int:
        hand = self.hands[seat]
        if not self.trick:
            return hand
        bs = self.best_seat
        partner_winning = bs != seat and (bs - seat) & 1 == 0
        return legal_mask(self.mode, hand, self.best, partner_winning, self.undertrump, self.trick[0] >> 3)

    # ----------------------------------------------------------------- which cards to try, in which order
    def classes(self, seat: int, legal: int) -> list[tuple[int, int]]:
        """The legal cards in classes of equivalent cards: (the strongest of the class, the class mask)."""
        hands = self.hands
        mine = hands[seat]
        others = (hands[0] | hands[1] | hands[2] | hands[3] | self.on_table) & ~mine
        points = self.points
        out: list[tuple[int, int]] = []
        for s in range(4):
            if not legal & SUIT_MASKS[s]:
                continue
            group: dict[int, int] = {}  # points -> index in out, for the run of cards since another hand's card
            for c in self.suit_order[s]:
                if others >> c & 1:
                    group = {}
                elif legal >> c & 1:
                    p = points[c]
                    i = group.get(p)
                    if i is None:
                        group[p] = len(out)
                        out.append((c, 1 << c))
                    else:
                        rep, members = out[i]
                        out[i] = (rep, members | 1 << c)
        return out

    def ordered(self, seat: int, legal: int, hint: int) -> list[int]:
        """One card of each class of equivalent legal cards, the likeliest best first."""
        reps = [rep for rep, _ in self.classes(seat, legal)]
        if len(reps) == 1:
            return reps
        return sorted(reps, key=lambda c: -self.score(seat, c, hint))

    def score(self, seat: int, c: int, hint: int) -> int:
        """How promising ``c`` looks (higher first); the same heuristic as ``_dds.c``."""
        if c == hint:
            return 1000
        points = self.points[c]
        key = self.key[c]
        if not self.trick:
            hands = self.hands
            others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[seat]
            if not others & self.higher[c]:
                return 200 + points  # a master: cash it
            return 100 - points - (key & 63)  # else a low card, to keep the high ones
        bs = self.best_seat
        if bs & 1 == seat & 1:
            return 100 + points  # partner is winning: give them points
        best = self.best
        if key > self.key[best] and (c >> 3 == best >> 3 or key >= TRUMP_BONUS):
            if len(self.trick) == 3:
                return 300 - (key & 63)  # last to play: win as cheaply as possible
            return 300 + (key & 63)  # others to come: win high
        return 100 - points - (key & 63)  # cannot win: throw the cheapest

    # ----------------------------------------------------------------- the search
    def turn(self, alpha: int, beta: int, hint: int = -1) -> tuple[int, int]:
        """The value of the position for the side we count for, fail-soft, and the best card."""
        self.nodes += 1
        seat = self.seat_to_move()
        maximise = seat & 1 == self.side
        g = -INFINITY if maximise else INFINITY
        best_card = -1
        for c in self.ordered(seat, self.legal(seat), hint):
            v = self.after(seat, c, alpha, beta)
            if maximise:
                if v > g:
                    g, best_card = v, c
                    if g >= beta:
                        break
                    alpha = max(alpha, g)
            else:
                if v < g:
                    g, best_card = v, c
                    if g <= alpha:
                        break
                    beta = min(beta, g)
        return g, best_card

    def after(self, seat: int, c: int, alpha: int, beta: int) -> int:
        """The value once ``seat`` has played ``c``."""
        hands = self.hands
        hands[seat] ^= 1 << c
        saved = (self.best, self.best_seat, self.on_table)
        self._push(c, seat)
        if len(self.trick) < 4:
            v = self.turn(alpha, beta)[0]
        else:
            v = self.trick_taken(alpha, beta)
        self.trick.pop()
        self.best, self.best_seat, self.on_table = saved
        hands[seat] ^= 1 << c
        return v

    def trick_taken(self, alpha: int, beta: int) -> int:
        """The trick on the table is complete: its points go to the winner, who leads next."""
        trick, leader, capot = self.trick, self.leader, self.capot
        p = self.points
        points = p[trick[0]] + p[trick[1]] + p[trick[2]] + p[trick[3]]
        ours = self.best_seat & 1 == self.side
        hands = self.hands
        if not hands[0] | hands[1] | hands[2] | hands[3]:
            if not ours:
                return 0
            return points + LAST_TRICK + (CAPOT_BONUS if capot else 0)
        gain = points if ours else 0
        self.capot = capot and ours
        self.trick, self.leader, self.on_table = [], self.best_seat, 0
        self.best = self.best_seat = -1
        v = gain + self.boundary(alpha - gain, beta - gain)
        self.trick, self.leader, self.capot = trick, leader, capot
        # The caller restores best, best_seat and on_table.
        return v

    def boundary(self, alpha: int, beta: int) -> int:
        """A trick to lead: the value of the rest of the deal, through the table."""
        hands = self.hands
        rest = hands[0] | hands[1] | hands[2] | hands[3]
        capot = self.capot
        bp = self.byte_points
        top = (
            bp[0][rest & 255]
            + bp[1][rest >> 8 & 255]
            + bp[2][rest >> 16 & 255]
            + bp[3][rest >> 24]
            + LAST_TRICK
            + (CAPOT_BONUS if capot else 0)
        )
        if rest.bit_count() == 4:
            return self.last_trick(top)
        if top <= alpha:
            return top
        if beta <= 0:
            return 0
        key = rest | self.leader << 32 | capot << 34
        entry = self.table.get(key)
        if entry is None:
            entry = self.table[key] = [0, top, -1]
        lower, upper, hint = entry
        if lower >= beta:
            return lower
        if upper <= alpha:
            return upper
        alpha, beta = max(alpha, lower), min(beta, upper)
        g, card = self.turn(alpha, beta, hint)
        if g <= alpha:
            entry[1] = min(upper, g)
        elif g >= beta:
            entry[0] = max(lower, g)
        else:
            entry[0] = entry[1] = g
        # The card that refuted the window (or reached into it) is worth trying first next time; when every card
        # failed, the one found is no better than the others.
        if (g > alpha) if self.leader & 1 == self.side else (g < beta):
            entry[2] = card
        return g

    def last_trick(self, top: int) -> int:
        """One card each: no choice is left; ``top`` is what the trick is worth to a side winning it."""
        self.nodes += 1
        hands, key, step = self.hands, self.key, self.step
        seat = best_seat = self.leader
        best = hands[seat].bit_length() - 1
        for _ in range(3):
            seat = (seat + step) % 4
            c = hands[seat].bit_length() - 1
            k = key[c]
            if k > key[best] and (c >> 3 == best >> 3 or k >= TRUMP_BONUS):
                best, best_seat = c, seat
        return top if best_seat & 1 == self.side else 0

    def root(self, alpha: int, beta: int) -> int:
        if self.trick:
            return self.turn(alpha, beta)[0]
        return self.boundary(alpha, beta)


def mtd(probe: Probe, guess: int, lower: int = 0, upper: int = CAPOT_POINTS) -> int:
    """The exact value, by null-window probes: ``probe(beta - 1, beta)`` answers "is it at least beta?"."""
    g = min(max(guess, lower), upper)
    while lower < upper:
        beta = max(g, lower + 1)
        g = probe(beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
    return lower


def value(
    hands: tuple[int, int, int, int],
    mode: int,
    leader: int,
    trick: tuple[int, ...],
    step: int,
    undertrump: bool,
    tricks_won: tuple[int, int],
) -> int:
    """The exact value for the side to move (see ``belote.solver.value``)."""
    s = Search(hands, mode, leader, trick, step, undertrump, tricks_won)
    if not s.legal(s.seat_to_move()):
        return 0
    return mtd(s.root, GUESS)


def card_values(
    hands: tuple[int, int, int, int],
    mode: int,
    leader: int,
    trick: tuple[int, ...],
    step: int,
    undertrump: bool,
    tricks_won: tuple[int, int],
) -> dict[int, int]:
    """The exact value for the side to move after each of its legal cards (one table for all)."""
    s = Search(hands, mode, leader, trick, step, undertrump, tricks_won)
    seat = s.seat_to_move()
    out: dict[int, int] = {}
    guess = GUESS
    for rep, members in s.classes(seat, s.legal(seat)):

        def probe(alpha: int, beta: int, c: int = rep) -> int:
            return s.after(seat, c, alpha, beta)

        guess = mtd(probe, guess)
        while members:
            low = members & -members
            out[low.bit_length() - 1] = guess
            members ^= low
    return out

