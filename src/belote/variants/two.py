"""The two-handed game (belote à deux, découverte): hands and table cards, sixteen tricks.

Five cards each (three then two), the eleventh turned, two rounds of taking; then the taker gets the
turned card and the other player one more (six in hand each), and each gets ten cards on the table
in front of them: five face down, five face up on them. A face-up card is played like a card in
hand; the card under it is turned up when its trick is taken. No sequence or four is declared;
belote-rebelote counts.
"""

from __future__ import annotations

from collections.abc import Sequence

from belote.variants.base import Variant


class TwoHanded(Variant):
    name = "two-handed"
    title = "the two-handed game"
    players = 2
    team_names = ("N", "E")
    partners = False
    tricks = 16
    playing_hand = 6
    table_cards = 10
    has_declarations = False
    #: Ten of the taker's cards are still unseen when it takes (20 of 0, 20, 40 in self-play).
    take_extra = 20
    #: The par's eight deals of sixteen tricks need 15 to 35 million nodes in all (3 to 5 s): it could
    #: never be whole within the analysis's second. The deal as played is solved apart, as the first
    #: position of its play (``belote.analysis.par``); the other trumps and takers while these nodes
    #: last (about a seventh of a second of them), the rest marked unsolved.
    par_budget = 1_000_000
    #: A position of the first tricks, sixteen cards a side and some face down, may need ten million
    #: nodes or more: past a million (a seventh of a second) its values are null, so that a deal's
    #: analysis takes under a second (``bench/analyse.py``).
    analysis_limit = 1_000_000

    def second_distribution(
        self, deck: Sequence[int], hands: list[int], order: Sequence[int], taker: int
    ) -> tuple[list[int], list[int] | None, list[int]]:
        pos = 5 * self.players + 1
        hands = list(hands)
        hands[1 - taker] |= 1 << deck[pos]
        under = [-1] * 32
        table = [0, 0]
        for k, seat in enumerate(order):
            for i in range(5):
                down, up = deck[pos + 1 + 5 * k + i], deck[pos + 11 + 5 * k + i]
                under[up] = down
                hands[seat] |= 1 << up
                table[seat] |= 1 << up | 1 << down
        hands[taker] |= 1 << deck[5 * self.players]
        return hands, under, table
