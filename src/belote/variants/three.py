"""The three-handed game: each player for themselves, the taker against the two others together.

Three cards each then two, the sixteenth card turned, two rounds of taking, then three more each
(two and the turned card to the taker): 24 cards in play, eight face down out of the deal, seen by
nobody. For the play and the declarations the two defenders are one camp; each player keeps a
score of their own (``belote.scoring.score_three``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from belote.scoring import DealResult, score_three
from belote.variants.base import Tally, Variant

if TYPE_CHECKING:
    from belote.rules import Rules


class ThreeHanded(Variant):
    name = "three-handed"
    title = "the three-handed game"
    players = 3
    team_names = ("N", "E", "S")
    partners = False
    out_of_play = 8
    #: Alone against two (25 of 0, 15, 30, 45, 60, 90 in self-play).
    take_extra = 25

    def camps(self, taker: int | None) -> tuple[int, ...]:
        """Each alone while nobody has taken; then the taker (0) against the two others (1)."""
        if taker is None:
            return (0, 1, 2)
        return tuple(0 if s == taker else 1 for s in range(3))

    def score(self, rules: Rules, tally: Tally) -> DealResult:
        return score_three(
            rules,
            tally.taker,
            tally.cards,
            tally.tricks,
            tally.declarations,
            tally.belote,
            tally.pending,
            tally.order,
            tally.last,
        )
