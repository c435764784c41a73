"""The double-dummy solver in plain Python: the algorithm of ``_dds.c``, for where it is not built.

The search is alpha-beta, one card at a time, for the points of the side to move at the root (it
maximises, the other side minimises). What makes it fast enough:

- a transposition table at trick boundaries. There, the cards still held and who leads decide the
  rest of the deal but for one thing the cards do not show: whether the side we count for has won
  every trick so far (capot still open). So the key is the mask of the cards left, the leader and
  that bit. (Each card stays with one seat for the whole search, and the cards still face down
  under others, at two hands, are exactly those under the cards still held: a card under another
  turns up when the trick with that card is taken, and at a boundary no trick is half played. So
  the mask of the cards held tells them too, and the key stays exact.) An entry holds a lower and
  an upper bound on the points still to come (whatever the window that found them: bounds from
  every search add up), and the card to lead first next time.
  The last card of a trick looks up the boundaries its choices lead to before searching any of
  them (enhanced transposition cutoff);
- bounds without search at a boundary: nothing below 0 or above the points left (and capot); and
  the master trumps (the strongest left, down to where the other side holds one) win their
  tricks for the side holding them, whoever plays them: their points are sure, and that side's
  opponents cannot make capot. The cards still face down count in both, with the side that will
  turn them up: each will be played before the deal ends;
- equivalent cards: two cards of one suit in one hand, with no card of another hand (or on the
  table, or face down) between them, and the same points, lead to the same value: one of them is
  searched. The points matter: the queen and seven of trumps may have only a played eight between
  them, and losing the queen gives away three points where the seven gives none. A card with
  another under it stands for no other and none stands for it: each turns up a card of its own;
- move ordering: the leader's masters first, winning cards before losing ones, points onto a
  partner's trick, cheap discards under the opponents';
- exact values from null windows: MTD(f) asks "is it at least beta?", and each fail-soft answer
  moves a bound, until they meet. While the answers go one way the steps double, so a value far
  from the guess costs a few questions, not dozens. ``card_values`` shares the table across the
  cards, and each card's search starts from the last card's value.

``value`` and ``card_values`` take a ``belote.solver.Position`` and read its fields, like the C
module; ``belote.solver`` wraps both. The C module visits exactly the same nodes (the tests count
them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from belote.play import HIGHER, KEY, LAST_TRICK, POINTS, TRUMP_BONUS, beats, legal_mask
from belote.scoring import CAPOT_POINTS, DEAL_POINTS

if TYPE_CHECKING:
    from belote.solver import Position

CAPOT_BONUS = CAPOT_POINTS - DEAL_POINTS
#: More than any value (252 is the most a side can take in a deal).
INFINITY = 1000
#: Where MTD(f) starts when nothing better is known: about half of a deal's points.
GUESS = 81
#: Card points: a learned leaf valued this near a capot (all, or nothing) is searched to the end.
LEAF_CAPOT = 4

#: SUIT_ORDER[mode][suit]: the cards of the suit, strongest first.
SUIT_ORDER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(sorted(range(8 * s, 8 * s + 8), key=KEY[m].__getitem__, reverse=True)) for s in range(4))
    for m in range(6)
)
#: SAME_POINTS_ABOVE[mode][card]: the stronger cards of its suit with the same points (the only cards
#: that can stand for it).
SAME_POINTS_ABOVE: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << d for d in range(32) if HIGHER[m][c] >> d & 1 and POINTS[m][d] == POINTS[m][c]) for c in range(32))
    for m in range(6)
)
#: BYTE_POINTS[mode][suit][byte]: the points of the cards of one suit given as the byte of a mask.
BYTE_POINTS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(sum(POINTS[m][8 * s + r] for r in range(8) if b >> r & 1) for b in range(256)) for s in range(4))
    for m in range(6)
)

Probe = Callable[[int, int], int]
#: No limit of nodes.
INFINITE_NODES = 1 << 62


class Stop(Exception):
    """Raised inside a search that would visit more nodes than its limit."""


class Search:
    """One solve: the position being searched (changed and restored card by card) and the table."""

    def __init__(self, pos: Position, limit: int | None = None) -> None:
        hands, camps, under, step = pos.hands, pos.camps, pos.under, pos.step
        self.players = n = len(hands)
        #: the side of each seat
        self.camps = tuple(camps) if camps is not None else tuple(s & 1 for s in range(n))
        #: the card under each card, or -1; ``tops``: the cards with one under them
        self.under = tuple(under) if under is not None else (-1,) * 32
        self.tops = sum(1 << c for c in range(32) if self.under[c] >= 0)
        self.mode = mode = pos.mode
        self.key = KEY[mode]
        self.points = POINTS[mode]
        self.higher = HIGHER[mode]
        self.same_points_above = SAME_POINTS_ABOVE[mode]
        self.byte_points = BYTE_POINTS[mode]
        self.step = step
        self.play_flags = pos.rules.flags
        # Four hands always, the missing ones empty: the cards held are the union of four.
        self.hands = [*hands, *(0,) * (4 - n)]
        self.leader = leader = pos.leader
        self.trick: list[int] = []
        self.on_table = 0
        self.best = self.best_seat = -1
        for i, c in enumerate(pos.trick):
            self.push(c, (leader + step * i) % n)
        self.side = self.camps[self.seat_to_move()]
        # Capot is open for the side we count for while the other side has taken no trick.
        self.capot = pos.tricks_won[1 - self.side] == 0
        #: Whether the side we count for has taken a trick of the deal (the other's capot is shut).
        self.won = pos.tricks_won[self.side] > 0
        #: key -> [lower bound, upper bound, card to try first]
        self.table: dict[int, list[int]] = {}
        self.nodes = 0
        #: the most nodes the search may visit (``Stop`` is raised at the next)
        self.limit = limit if limit is not None else INFINITE_NODES
        self.probes = 0
        #: at a trick boundary with this many cards a hand, the learned value (``belote.solver.leaf``)
        self.leaf = pos.leaf
        self.leaf_model = None
        if pos.leaf:
            from belote.solver.leaf import default_model

            self.leaf_model = default_model()

    def visit(self) -> None:
        """Counts a node; past the limit the search is given up."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise Stop

    # ----------------------------------------------------------------- the trick on the table
    def push(self, c: int, seat: int) -> None:
        self.trick.append(c)
        self.on_table |= 1 << c
        best = self.best
        if best < 0 or beats(self.mode, c, best):
            self.best, self.best_seat = c, seat

    def seat_to_move(self) -> int:
        return (self.leader + self.step * len(self.trick)) % self.players

    def held(self) -> int:
        h = self.hands
        return h[0] | h[1] | h[2] | h[3]

    def hidden(self, over: int) -> int:
        """The cards face down under those of ``over``."""
        m, under = over & self.tops, self.under
        out = 0
        while m:
            low = m & -m
            m ^= low
            out |= 1 << under[low.bit_length() - 1]
        return out

    def turn_up(self, trick: list[int], leader: int) -> None:
        """The trick ``leader`` led is taken: the cards under its cards join their players' hands
        (``turn_down`` takes them back)."""
        under, n, step = self.under, self.players, self.step
        for i, c in enumerate(trick):
            if under[c] >= 0:
                self.hands[(leader + step * i) % n] |= 1 << under[c]

    def turn_down(self, trick: list[int], leader: int) -> None:
        under, n, step = self.under, self.players, self.step
        for i, c in enumerate(trick):
            if under[c] >= 0:
                self.hands[(leader + step * i) % n] &= ~(1 << under[c])

    def legal(self, seat: int) -> int:
        hand = self.hands[seat]
        if not self.trick:
            return hand
        bs = self.best_seat
        partner_winning = bs != seat and self.camps[bs] == self.camps[seat]
        return legal_mask(self.mode, hand, self.best, partner_winning, self.play_flags, self.trick[0] >> 3)

    # ----------------------------------------------------------------- which cards to try, in which order
    def others(self, seat: int) -> int:
        """The cards of another hand, on the table or face down, as seen from ``seat``."""
        m = self.held() | self.on_table
        if self.tops:
            m |= self.hidden(m)
        return m & ~self.hands[seat]

    def stood_for_by(self, c: int, legal: int, others: int) -> int:
        """The strongest legal card equivalent to ``c`` (same suit and points, no card of another hand,
        on the table or face down between them, neither with a card under it), or ``c`` itself."""
        rep = c
        higher = self.higher
        tops = self.tops
        if tops >> c & 1:
            return c
        m = legal & ~tops & self.same_points_above[c]
        while m:
            low = m & -m
            m ^= low
            d = low.bit_length() - 1
            if not higher[c] & ~higher[d] & ~low & others and (rep == c or self.key[d] > self.key[rep]):
                rep = d
        return rep

    def representatives(self, legal: int, others: int) -> list[int]:
        """One card of each class of equivalent legal cards: the strongest."""
        out = []
        plain = legal & ~self.tops
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            if not plain & self.same_points_above[c] or self.stood_for_by(c, legal, others) == c:
                out.append(c)
        return out

    def score(self, seat: int, c: int, hint: int, others: int) -> int:
        """How promising ``c`` looks (higher first); the same heuristic as ``_dds.c``. A card's rank
        orders the cards of a suit, and puts trumps above every plain card."""
        if c == hint:
            return 1000
        key, points = self.key[c], self.points[c]
        rank = key - TRUMP_BONUS + 8 if key >= TRUMP_BONUS else key
        if not self.trick:
            if not others & self.higher[c]:
                return 200 + points  # a master: cash it
            return 100 - points - rank  # else a low card, to keep the high ones
        if self.camps[self.best_seat] == self.camps[seat]:
            return 100 + points  # partner is winning: give them points
        if beats(self.mode, c, self.best):
            return 300 - rank if len(self.trick) == self.players - 1 else 300 + rank  # win: cheaply if last, else high
        return 100 - points - rank  # cannot win: the cheapest

    def ordered(self, seat: int, hint: int) -> list[int]:
        """One card of each class of equivalent legal cards, the likeliest best first."""
        legal = self.legal(seat)
        if not legal & (legal - 1):
            return [legal.bit_length() - 1]
        others = self.others(seat)
        reps = self.representatives(legal, others)
        # Stable, like the insertion sort of the C code: equal scores keep the order of the cards.
        return sorted(reps, key=lambda c: -self.score(seat, c, hint, others))

    # ----------------------------------------------------------------- the search
    def etc(self, seat: int, maximise: bool, moves: list[int], alpha: int, beta: int) -> tuple[int, int] | None:
        """Enhanced transposition cutoff: the last card of a trick leads to a trick boundary, whose table
        entry (if any) may settle this node before any card is searched: (value, card) if so."""
        rest = self.held()
        # The cards under those of the trick turn up when it is taken: they are in the key after it.
        turned = self.hidden(self.on_table) if self.tops else 0
        cards = rest.bit_count() + (self.hidden(rest).bit_count() + turned.bit_count() if self.tops else 0)
        if cards == self.players + 1:
            return None  # the last trick follows: no table there
        p, trick, tops, under = self.points, self.trick, self.tops, self.under
        base = 0
        for x in trick:
            base += p[x]
        for c in moves:
            winner = seat if beats(self.mode, c, self.best) else self.best_seat
            ours = self.camps[winner] == self.side
            after = rest & ~(1 << c) | turned | (1 << under[c] if tops >> c & 1 else 0)
            shut = not self.leaf or self.won or ours
            entry = self.table.get(after | winner << 32 | (self.capot and ours) << 34 | (not shut) << 36)
            if entry is None:
                continue
            gain = base + p[c] if ours else 0
            if maximise and gain + entry[0] >= beta:
                return gain + entry[0], c
            if not maximise and gain + entry[1] <= alpha:
                return gain + entry[1], c
        return None

    def turn(self, alpha: int, beta: int, hint: int = -1) -> tuple[int, int]:
        """The value for the side we count for, fail-soft, and the best card found."""
        self.visit()
        seat = self.seat_to_move()
        maximise = self.camps[seat] == self.side
        moves = self.ordered(seat, hint)
        if len(self.trick) == self.players - 1 and len(moves) > 1:
            settled = self.etc(seat, maximise, moves, alpha, beta)
            if settled is not None:
                return settled
        g = -INFINITY if maximise else INFINITY
        best_card = -1
        for c in moves:
            v = self.after(seat, c, alpha, beta)
            if v > g if maximise else v < g:
                g, best_card = v, c
                if g >= beta if maximise else g <= alpha:
                    break
                if maximise:
                    alpha = max(alpha, g)
                else:
                    beta = min(beta, g)
        return g, best_card

    def after(self, seat: int, c: int, alpha: int, beta: int) -> int:
        """The value once ``seat`` has played ``c``."""
        hands = self.hands
        hands[seat] ^= 1 << c
        saved = (self.best, self.best_seat, self.on_table)
        self.push(c, seat)
        if len(self.trick) < self.players:
            v = self.turn(alpha, beta)[0]
        else:
            v = self.trick_taken(alpha, beta)
        self.trick.pop()
        self.best, self.best_seat, self.on_table = saved
        hands[seat] ^= 1 << c
        return v

    def trick_taken(self, alpha: int, beta: int) -> int:
        """The trick on the table is complete: its points go to the winner, who leads next."""
        trick, leader, capot, won = self.trick, self.leader, self.capot, self.won
        p = self.points
        points = 0
        for x in trick:
            points += p[x]
        ours = self.camps[self.best_seat] == self.side
        turned = self.tops and self.tops & self.on_table
        if turned:
            self.turn_up(trick, leader)
        if not self.held():
            if not ours:
                return 0
            return points + LAST_TRICK + (CAPOT_BONUS if capot else 0)
        gain = points if ours else 0
        self.capot = capot and ours
        self.won = won or ours
        self.trick, self.leader, self.on_table = [], self.best_seat, 0
        self.best = self.best_seat = -1
        v = gain + self.boundary(alpha - gain, beta - gain)
        self.trick, self.leader, self.capot, self.won = trick, leader, capot, won
        if turned:
            self.turn_down(trick, leader)
        # The caller restores best, best_seat and on_table.
        return v

    def last_trick(self, top: int) -> int:
        """One card each: no choice is left; ``top`` is what the trick is worth to a side winning it."""
        self.visit()
        hands, step, n = self.hands, self.step, self.players
        seat = best_seat = self.leader
        best = hands[seat].bit_length() - 1
        for _ in range(n - 1):
            seat = (seat + step) % n
            c = hands[seat].bit_length() - 1
            if beats(self.mode, c, best):
                best, best_seat = c, seat
        return top if self.camps[best_seat] == self.side else 0

    def master_trumps(self, rest: int) -> tuple[int, int]:
        """The strongest trumps left, as far down as one side holds them all: (that side, their points).

        Whoever plays one of them wins that trick (only a stronger trump could take it), so their points
        are sure for that side, and the other side cannot make capot. The side is -1 with no trump left,
        or no trump suit. ``rest`` is every card still in play, those face down included: each of them
        is the side's that will turn it up.
        """
        mode = self.mode
        if mode >= 4:
            return -1, 0
        ns = 0  # the cards of side 0
        for seat in range(self.players):
            if not self.camps[seat]:
                ns |= self.hands[seat]
        if self.tops:
            ns |= self.hidden(ns)
        side, points = -1, 0
        for c in SUIT_ORDER[mode][mode]:
            if not rest >> c & 1:
                continue
            owner = 0 if ns >> c & 1 else 1
            if side < 0:
                side = owner
            elif owner != side:
                break
            points += self.points[c]
        return side, points

    def boundary(self, alpha: int, beta: int) -> int:
        """A trick to lead: the value of the rest of the deal, through the table."""
        rest = self.held()
        # Every card still in play: the key needs only those held (see the docstring of the module).
        cards = rest | self.hidden(rest) if self.tops else rest
        bp = self.byte_points
        every = (
            bp[0][cards & 255] + bp[1][cards >> 8 & 255] + bp[2][cards >> 16 & 255] + bp[3][cards >> 24] + LAST_TRICK
        )
        capot = self.capot
        if cards.bit_count() == self.players:
            return self.last_trick(every + (CAPOT_BONUS if capot else 0))
        master, sure = self.master_trumps(cards)
        top, low = every, 0
        if master == self.side:
            low = sure
        elif master >= 0:
            top -= sure
        if capot and master != 1 - self.side:
            top += CAPOT_BONUS
        if top <= alpha:
            return top
        if low >= beta:
            return low
        if self.leaf_model is not None and rest.bit_count() == 4 * self.leaf:
            self.visit()
            hands = (self.hands[0], self.hands[1], self.hands[2], self.hands[3])
            v = self.leaf_model.value(hands, self.mode, self.leader, self.step)
            if self.camps[self.leader] != self.side:
                v = every - v
            # The network leaves capot aside: where a side that may still make capot is valued near
            # every point left (or the other side near none), search to the end (``_dds.c`` says why).
            if not (capot and master != 1 - self.side and v >= every - LEAF_CAPOT) and not (
                not self.won and master != self.side and v <= LEAF_CAPOT
            ):
                return min(max(v, low), top)
        key = rest | self.leader << 32 | capot << 34 | (bool(self.leaf) and not self.won) << 36
        entry = self.table.get(key)
        if entry is None:
            entry = self.table[key] = [0, INFINITY, -1]
        lower, upper = max(entry[0], low), min(entry[1], top)
        if lower >= beta:
            return lower
        if upper <= alpha:
            return upper
        alpha, beta = max(alpha, lower), min(beta, upper)
        g, card = self.turn(alpha, beta, entry[2])
        if g <= alpha:
            entry[1] = min(entry[1], g)
        elif g >= beta:
            entry[0] = max(entry[0], g)
        else:
            entry[0] = entry[1] = g
        # The card that refuted the window (or reached into it) is worth trying first next time; when
        # every card failed, the one found is no better than the others.
        if (g > alpha) if self.camps[self.leader] == self.side else (g < beta):
            entry[2] = card
        return g

    def root(self, alpha: int, beta: int) -> int:
        if self.trick:
            return self.turn(alpha, beta)[0]
        return self.boundary(alpha, beta)

    def mtd(self, probe: Probe, guess: int) -> int:
        """The exact value by null windows (MTD(f), galloping): each probe asks "is the value at least
        beta?" and its fail-soft answer moves a bound; while the answers keep going one way, the next
        question goes twice as far."""
        lower, upper, step, direction = 0, CAPOT_POINTS, 1, 0
        beta = min(max(guess, 1), upper)
        while True:
            self.probes += 1
            g = probe(beta - 1, beta)
            d = -1 if g < beta else 1
            if d < 0:
                upper = g
            else:
                lower = g
            if lower >= upper:
                return lower
            step = 2 * step if d == direction else 1
            direction = d
            beta = lower + step if d > 0 else upper + 1 - step
            beta = min(max(beta, lower + 1), upper)


def value(pos: Position, limit: int | None = None, keep: bool = False, /) -> int | None:
    """The exact value for the camp to move (see ``belote.solver.value``); None when the search would
    visit more than ``limit`` nodes. ``keep`` is the C solver's (its table kept from one solve to the
    next of a deal): here each solve has its own table, and the values are the same."""
    if limit is not None and limit < 0:
        raise ValueError("the limit of nodes must be 0 or more")
    s = Search(pos, limit)
    try:
        v = s.mtd(s.root, GUESS) if s.legal(s.seat_to_move()) else 0
    except Stop:
        return None
    finally:
        _last.update(nodes=s.nodes, probes=s.probes)
    return v


def card_values(pos: Position, limit: int | None = None, keep: bool = False, /) -> dict[int, int] | None:
    """The exact value for the camp to move after each of its legal cards (one table for all); None
    when the search would visit more than ``limit`` nodes. ``keep``: as ``value``."""
    if limit is not None and limit < 0:
        raise ValueError("the limit of nodes must be 0 or more")
    s = Search(pos, limit)
    seat = s.seat_to_move()
    legal, others = s.legal(seat), s.others(seat)
    values: dict[int, int] = {}
    guess = GUESS
    # One search for each class of equivalent cards, from the guess the last one gave.
    for c in s.representatives(legal, others):

        def probe(alpha: int, beta: int, c: int = c) -> int:
            return s.after(seat, c, alpha, beta)

        try:
            values[c] = guess = s.mtd(probe, guess)
        except Stop:
            _last.update(nodes=s.nodes, probes=s.probes)
            return None
    _last.update(nodes=s.nodes, probes=s.probes)
    out = {}
    m = legal
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        out[c] = values[s.stood_for_by(c, legal, others)]
    return out


_last = {"nodes": 0, "probes": 0}


def forget() -> None:
    """As ``_dds.forget``: nothing is kept here from one solve to the next."""


def stats() -> dict[str, int]:
    """What the last solve did: the nodes searched and the null-window probes (as ``_dds.stats``)."""
    return dict(_last)
