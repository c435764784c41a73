"""A plain minimax over every legal card, for the tests: no pruning, no table, no ordering.

It defines what the solver must compute, in the most direct words: the camp of the player to move
at the position tries to take as many points as it can from here on, the other camp tries to leave
it as few, the rules of play are ``belote.play``'s, a card lying under another joins its owner's hand
when the trick with the card above it is taken, and taking every trick of the deal adds the capot
bonus. Slow (every line of play is visited), so only for positions with a few tricks left.
"""

from __future__ import annotations

from belote.cards import cards_of
from belote.play import LAST_TRICK, beats, legal_mask, trick_points
from belote.scoring import CAPOT_POINTS, DEAL_POINTS
from belote.solver import Position

CAPOT_BONUS = CAPOT_POINTS - DEAL_POINTS


class _Table:
    """What stays the same for the whole search: the rules of play and who sits where."""

    def __init__(self, pos: Position) -> None:
        self.mode, self.step, self.play_flags = pos.mode, pos.step, pos.rules.flags
        self.players, self.sides, self.under = pos.players, pos.sides, pos.under


def value(pos: Position) -> int:
    """The exact value for the camp to move (see ``belote.solver.value``)."""
    vals = card_values(pos)
    return max(vals.values()) if vals else 0


def card_values(pos: Position) -> dict[int, int]:
    """The exact value for the camp to move after each of its legal cards."""
    t = _Table(pos)
    side = t.sides[pos.to_move]
    capot_open = pos.tricks_won[1 - side] == 0
    hands = list(pos.hands)
    return {
        c: _after(t, hands, pos.leader, list(pos.trick), c, side, capot_open)
        for c in _legal(t, hands, pos.leader, list(pos.trick))
    }


def _legal(t: _Table, hands: list[int], leader: int, trick: list[int]) -> tuple[int, ...]:
    seat = (leader + t.step * len(trick)) % t.players
    if not trick:
        return cards_of(hands[seat])
    best, best_seat = _winner(t, leader, trick)
    partner_winning = best_seat != seat and t.sides[best_seat] == t.sides[seat]
    return cards_of(legal_mask(t.mode, hands[seat], best, partner_winning, t.play_flags, trick[0] >> 3))


def _winner(t: _Table, leader: int, trick: list[int]) -> tuple[int, int]:
    """The card winning the trick so far, and who played it."""
    best, best_seat = trick[0], leader
    for i, c in enumerate(trick[1:], 1):
        if beats(t.mode, c, best):
            best, best_seat = c, (leader + t.step * i) % t.players
    return best, best_seat


def _minimax(t: _Table, hands: list[int], leader: int, trick: list[int], side: int, capot_open: bool) -> int:
    seat = (leader + t.step * len(trick)) % t.players
    values = [_after(t, hands, leader, trick, c, side, capot_open) for c in _legal(t, hands, leader, trick)]
    return max(values) if t.sides[seat] == side else min(values)


def _after(t: _Table, hands: list[int], leader: int, trick: list[int], c: int, side: int, capot_open: bool) -> int:
    """The value for ``side`` once the player to move has played ``c``."""
    seat = (leader + t.step * len(trick)) % t.players
    hands = list(hands)
    hands[seat] &= ~(1 << c)
    trick = [*trick, c]
    if len(trick) < t.players:
        return _minimax(t, hands, leader, trick, side, capot_open)
    _, winner = _winner(t, leader, trick)
    if t.under is not None:
        # The cards under those of the trick turn up, each for the player of the card above it.
        for i, x in enumerate(trick):
            if t.under[x] >= 0:
                hands[(leader + t.step * i) % t.players] |= 1 << t.under[x]
    last = not any(hands)
    points = trick_points(t.mode, trick) + (LAST_TRICK if last else 0)
    ours = t.sides[winner] == side
    capot_open = capot_open and ours
    taken = points if ours else 0
    if last:
        return taken + (CAPOT_BONUS if capot_open else 0)
    return taken + _minimax(t, hands, winner, [], side, capot_open)
