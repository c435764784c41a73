"""A plain minimax over every legal card, for the tests: no pruning, no table, no ordering.

It defines what the solver must compute, in the most direct words: the side to move at the
position tries to take as many points as it can from here on, the other side tries to leave it as
few, the rules of play are ``belote.play``'s, and taking every trick of the deal adds the capot
bonus. Slow (every line of play is visited), so only for positions with a few tricks left.
"""

from __future__ import annotations

from belote.cards import cards_of
from belote.play import LAST_TRICK, beats, legal_mask, trick_points
from belote.scoring import CAPOT_POINTS, DEAL_POINTS
from belote.solver import Position

CAPOT_BONUS = CAPOT_POINTS - DEAL_POINTS


def value(pos: Position) -> int:
    """The exact value for the side to move (see ``belote.solver.value``)."""
    vals = card_values(pos)
    return max(vals.values()) if vals else 0


def card_values(pos: Position) -> dict[int, int]:
    """The exact value for the side to move after each of its legal cards."""
    side = pos.to_move & 1
    capot_open = pos.tricks_won[1 - side] == 0
    hands = list(pos.hands)
    return {
        c: _after(pos, hands, pos.leader, list(pos.trick), c, side, capot_open)
        for c in _legal(pos, hands, pos.leader, list(pos.trick))
    }


def _legal(pos: Position, hands: list[int], leader: int, trick: list[int]) -> tuple[int, ...]:
    seat = (leader + pos.step * len(trick)) % 4
    if not trick:
        return cards_of(hands[seat])
    best, best_seat = _winner(pos, leader, trick)
    partner_winning = best_seat != seat and (best_seat - seat) % 2 == 0
    return cards_of(legal_mask(pos.mode, hands[seat], best, partner_winning, pos.undertrump, trick[0] >> 3))


def _winner(pos: Position, leader: int, trick: list[int]) -> tuple[int, int]:
    """The card winning the trick so far, and who played it."""
    best, best_seat = trick[0], leader
    for i, c in enumerate(trick[1:], 1):
        if beats(pos.mode, c, best):
            best, best_seat = c, (leader + pos.step * i) % 4
    return best, best_seat


def _minimax(pos: Position, hands: list[int], leader: int, trick: list[int], side: int, capot_open: bool) -> int:
    seat = (leader + pos.step * len(trick)) % 4
    values = [_after(pos, hands, leader, trick, c, side, capot_open) for c in _legal(pos, hands, leader, trick)]
    return max(values) if seat & 1 == side else min(values)


def _after(pos: Position, hands: list[int], leader: int, trick: list[int], c: int, side: int, capot_open: bool) -> int:
    """The value for ``side`` once the player to move has played ``c``."""
    seat = (leader + pos.step * len(trick)) % 4
    hands = list(hands)
    hands[seat] &= ~(1 << c)
    trick = [*trick, c]
    if len(trick) < 4:
        return _minimax(pos, hands, leader, trick, side, capot_open)
    _, winner = _winner(pos, leader, trick)
    last = not any(hands)
    points = trick_points(pos.mode, trick) + (LAST_TRICK if last else 0)
    ours = winner & 1 == side
    capot_open = capot_open and ours
    taken = points if ours else 0
    if last:
        return taken + (CAPOT_BONUS if capot_open else 0)
    return taken + _minimax(pos, hands, winner, [], side, capot_open)
