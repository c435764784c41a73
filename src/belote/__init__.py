"""Belote, the French card game: the rules engine, bots, and the table.

>>> from belote import Match
>>> m = Match(seed=1)
>>> m.deal.phase
'bidding'
"""

from belote.cards import CARDS, Card, parse_card
from belote.game import PASS, SEATS, TAKE, Deal, IllegalAction, IllegalBid, IllegalPlay, Match, NotYourTurn, PlayerView
from belote.rules import PRESETS, Rules, find_rules

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "PASS",
    "PRESETS",
    "SEATS",
    "TAKE",
    "Card",
    "Deal",
    "IllegalAction",
    "IllegalBid",
    "IllegalPlay",
    "Match",
    "NotYourTurn",
    "PlayerView",
    "Rules",
    "find_rules",
    "parse_card",
]
