"""The auction of Coinche: contracts, their names, and which bids are legal.

A contract is a number of points (80 to 160, or to 180 as an option), or capot (every trick to the
bidding side) or, as an option, a générale (every trick to the bidder alone), with a trump mode:
a suit, no-trumps or all-trumps. Each is one small int action, as cards and the bids of the
classic game are (``game.py``), so records and bots handle them the same way.

>>> b = contract_action(110, HEARTS)
>>> contract_str(b), parse_contract("110h") == b, parse_contract("90NT") == contract_action(90, NO_TRUMP)
('110H', True, True)
>>> contract_str(contract_action(CAPOT, ALL_TRUMP)), contract_of(b)
('capotAT', (110, 1))
"""

from __future__ import annotations

from dataclasses import dataclass

from belote.cards import HEARTS, SUIT_LETTERS
from belote.play import ALL_TRUMP, NO_TRUMP

__all__ = [
    "ALL_TRUMP",
    "CAPOT",
    "COINCHE",
    "CONTRACT_BASE",
    "GENERALE",
    "HEARTS",
    "LEVELS",
    "MODE_LETTERS",
    "NO_TRUMP",
    "SURCOINCHE",
    "TOP_PROMISE",
    "Contract",
    "contract_action",
    "contract_of",
    "contract_str",
    "is_contract",
    "parse_contract",
]

#: The value of a capot contract and of a générale, used as the bid in the scoring.
CAPOT = 250
GENERALE = 500
#: The top of the usual ladder of bids: what a higher bid (170, 180, capot) says of a hand is no
#: more than what 160 says, only the will to play it.
TOP_PROMISE = 160
#: Every level a bid can name, lowest first: 80..180 in tens, capot, générale.
LEVELS = (*range(80, 190, 10), CAPOT, GENERALE)
#: How a bid names its trump mode: a suit letter, NT (sans atout) or AT (tout atout).
MODE_LETTERS: tuple[str, ...] = (*SUIT_LETTERS, "NT", "AT")
#: Actions: 38 + 6 * (index in LEVELS) + mode; then coinche and surcoinche.
CONTRACT_BASE = 38
COINCHE = CONTRACT_BASE + 6 * len(LEVELS)
SURCOINCHE = COINCHE + 1


def bid_levels(max_bid: int, generale: bool = False) -> tuple[int, ...]:
    """The levels a table's bids may name, lowest first: 80 to ``max_bid`` in tens, capot, and the
    générale where it is played.

    >>> bid_levels(160)
    (80, 90, 100, 110, 120, 130, 140, 150, 160, 250)
    """
    return tuple(lv for lv in LEVELS if lv <= max_bid or lv == CAPOT or (lv == GENERALE and generale))


def contract_action(level: int, mode: int) -> int:
    return CONTRACT_BASE + 6 * LEVELS.index(level) + mode


def is_contract(action: int) -> bool:
    return CONTRACT_BASE <= action < COINCHE


def contract_of(action: int) -> tuple[int, int]:
    """(level, mode) of a contract action."""
    i = action - CONTRACT_BASE
    return LEVELS[i // 6], i % 6


def level_name(level: int) -> str:
    return "capot" if level == CAPOT else "generale" if level == GENERALE else str(level)


def contract_str(action: int) -> str:
    """``110H``, ``90NT``, ``capotAT``, ``generaleS``, ``coinche``, ``surcoinche``."""
    if action == COINCHE:
        return "coinche"
    if action == SURCOINCHE:
        return "surcoinche"
    level, mode = contract_of(action)
    return level_name(level) + MODE_LETTERS[mode]


def parse_contract(text: str) -> int | None:
    """The action a bid names (case-insensitive), or None if it names none."""
    t = text.strip().upper()
    if t == "COINCHE":
        return COINCHE
    if t == "SURCOINCHE":
        return SURCOINCHE
    for mode in (4, 5, 0, 1, 2, 3):  # two-letter modes first: "NT" ends in T, not a suit letter
        letter = MODE_LETTERS[mode]
        if t.endswith(letter):
            head = t[: -len(letter)].strip()
            for level in LEVELS:
                if head == level_name(level).upper():
                    return contract_action(level, mode)
            return None
    return None


@dataclass(frozen=True, slots=True)
class Contract:
    """The contract a Coinche auction ended on."""

    level: int  # 80..180, CAPOT or GENERALE
    mode: int  # 0..3 a suit, NO_TRUMP, ALL_TRUMP
    bidder: int  # the seat that bid it
    multiplier: int = 1  # 1; 2 coinched; 3 or 4 surcoinched (rules.surcoinche)

    @property
    def name(self) -> str:
        return level_name(self.level) + MODE_LETTERS[self.mode]

    def to_json(self) -> dict[str, object]:
        return {
            "level": level_name(self.level),
            "mode": MODE_LETTERS[self.mode],
            "multiplier": self.multiplier,
        }
