"""The actions of every game and the errors that refuse them.

An action is a small int: a card 0..31, then the bids: ``PASS``, ``TAKE`` (the turned card), a
suit named in the second round, and the Coinche contracts, ``coinche`` and ``surcoinche``
(``belote.contracts``). Cards and bids round-trip through their names:

>>> parse_action("JH") == 28, action_str(parse_action("110h")), str(PASS), repr(NAMES[1])
(True, '110H', 'pass', "Bid('H')")
"""

from __future__ import annotations

from belote.cards import CARDS, SUIT_LETTERS, SUIT_NAMES, parse_card
from belote.cards import SUIT_SYMBOLS as SUIT_SYMBOLS
from belote.contracts import COINCHE, MODE_LETTERS, SURCOINCHE, contract_of, contract_str, is_contract, parse_contract
from belote.play import MODE_NAMES

Action = int


class IllegalAction(ValueError):
    """An action the rules refuse; the state is unchanged."""


class IllegalBid(IllegalAction):
    pass


class IllegalPlay(IllegalAction):
    pass


class NotYourTurn(IllegalAction):
    pass


class GameOver(IllegalAction):
    pass


class Bid(int):
    """A bidding action: ``pass``, ``take`` (the turned card), or a suit named in the second round;
    in Coinche a contract (``110H``, ``90NT``, ``capotS``), ``coinche`` or ``surcoinche``."""

    __slots__ = ()

    def __str__(self) -> str:
        if self == PASS:
            return "pass"
        if self == TAKE:
            return "take"
        if NAME_SUIT <= self < NAME_SUIT + 4:
            return SUIT_LETTERS[self - NAME_SUIT]
        if is_contract(self) or self in (COINCHE, SURCOINCHE):
            return contract_str(self)
        return f"bid {int(self)}"

    def __repr__(self) -> str:
        return f"Bid('{self}')"

    def pretty(self) -> str:
        if NAME_SUIT <= self < NAME_SUIT + 4:
            return f"{SUIT_NAMES[self - NAME_SUIT]} {SUIT_SYMBOLS[self - NAME_SUIT]}"
        if is_contract(self):
            mode = contract_of(self)[1]
            return f"{str(self)[: -len(MODE_LETTERS[mode])]} {MODE_NAMES[mode]}"
        return str(self)


PASS = Bid(32)
TAKE = Bid(33)
NAME_SUIT = 34
NAMES = tuple(Bid(NAME_SUIT + s) for s in range(4))


_NOT_AN_ACTION = (
    "is not an action: say pass, take, a suit letter, a contract such as 110H or 90NT, or a card such as JH"
)


def parse_action(text: str) -> Action:
    """``pass``, ``take``, a suit letter (naming it in the second round), a Coinche bid, or a card."""
    if not isinstance(text, str):
        raise IllegalAction(f"{text!r} {_NOT_AN_ACTION}")
    t = text.strip().lower()
    if t == "pass":
        return PASS
    if t == "take":
        return TAKE
    if len(t) == 1 and t.upper() in SUIT_LETTERS:
        return NAMES[SUIT_LETTERS.index(t.upper())]
    contract = parse_contract(t) if len(t) > 2 else None
    if contract is not None:
        return Bid(contract)
    try:
        return parse_card(text)
    except ValueError:
        raise IllegalAction(f"{text!r} {_NOT_AN_ACTION}") from None


def action_str(action: Action) -> str:
    """``JH``, ``pass``, ``take``, ``H``, ``110H``, ``coinche``; anything else as its number."""
    if 0 <= action < 32:
        return str(CARDS[action])
    if PASS <= action <= SURCOINCHE:
        return str(Bid(action))
    return str(int(action))
