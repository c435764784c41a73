"""The actions of every game and the errors that refuse them.

An action is a small int: a card 0..31, then the bids: ``PASS``, ``TAKE`` (the turned card), a
suit named in the second round, and the Coinche contracts, ``coinche`` and ``surcoinche``
(``belote.contracts``). Cards and bids round-trip through their names:

>>> parse_action("JH") == 12, action_str(parse_action("110h")), str(PASS), repr(NAMES[1])
(True, '110H', 'pass', "Bid('H')")

A card may carry what its player keeps to themselves as they play it (``QUIET``, ``NO_BELOTE``):

>>> action_str(parse_action("kh/quiet/nobelote"))
'KH/quiet/nobelote'
>>> split_says(parse_action("KH/nobelote")) == (parse_card("KH"), NO_BELOTE)
True
"""

from __future__ import annotations

from typing import Any

from belote.cards import CARDS, SUIT_LETTERS, SUIT_NAMES, parse_card
from belote.cards import SUIT_SYMBOLS as SUIT_SYMBOLS
from belote.contracts import COINCHE, MODE_LETTERS, SURCOINCHE, contract_of, contract_str, is_contract, parse_contract
from belote.play import MODE_NAMES

Action = int

#: What a player keeps to themselves as they play a card, for a person who announces by hand: flags
#: a card's action may carry (``JH/quiet``). Without them a player announces, with its first card,
#: every declaration the rules let it score, and says belote with the first of the king and queen of
#: trumps it plays, as the bots and the plays of a deal record always do; the flags are never among
#: the legal actions, and nobody else learns that a player kept quiet.
QUIET = 1 << 7  # with the player's first card: its declarations are not announced
NO_BELOTE = 1 << 8  # with the first of the king and queen of trumps: belote is not said
#: The flags by the words that write them after a card (``KH/quiet/nobelote``), in that order.
SAYS: dict[str, int] = {"quiet": QUIET, "nobelote": NO_BELOTE}
#: The flags by what is kept quiet: the words of a deal record's ``quiet`` and of the refusal
#: ``nothing_to_keep_quiet``.
KEPT_QUIET: dict[str, int] = {"declarations": QUIET, "belote": NO_BELOTE}
_SAYS_BITS = QUIET | NO_BELOTE


def split_says(action: Action) -> tuple[Action, int]:
    """An action without its flags, and the flags (0 for nearly every action)."""
    return action & ~_SAYS_BITS, action & _SAYS_BITS


#: Every refusal of the engine and of the server: its stable code, and the names of the ``args`` it
#: carries. Programs read the code and the args (docs/protocol.md lists them with examples, the
#: schema src/belote/schemas/common.json with the type of each arg); people read the English words
#: (``str(error)``), or the page's own words made from the code (``web/refusals.js``). The server's
#: refusals are listed here too, so that the codes a client can receive are written in one place. A
#: code is never renamed nor removed; an arg may only be added.
REFUSALS: dict[str, tuple[str, ...]] = {
    # Any action refused by a front end that names no rule of its own (a record, the terminal).
    "illegal_action": (),
    # The engine: any game.
    "not_an_action": ("text",),
    "not_your_turn": ("seat", "phase"),
    "deal_over": (),
    "match_over": (),
    "nothing_to_undo": (),
    # The play of the cards.
    "bidding_over": ("action",),
    "not_in_hand": ("card",),
    "nothing_to_keep_quiet": ("what",),
    "must_follow": ("suit", "cards"),
    "must_go_higher": ("suit", "best", "cards"),
    "must_trump": ("suit", "cards"),
    "must_overtrump": ("best", "cards"),
    "must_undertrump": ("best", "cards"),
    # The bidding: any auction.
    "bidding_not_over": ("card", "auction"),
    "not_a_bid": ("bid",),
    # The auction of the turned card.
    "coinche_bid": ("bid",),
    "take_in_first_round": (),
    "name_in_second_round": ("suit",),
    "turned_suit": ("suit",),
    # The auction of Coinche.
    "no_turned_card": ("bid",),
    "nothing_to_coinche": (),
    "already_coinched": ("contract",),
    "coinche_own_side": ("contract",),
    "nothing_to_surcoinche": (),
    "surcoinche_bidders_only": (),
    "bidding_closed": ("contract",),
    "bid_too_low": ("min", "contract"),
    "bid_too_high": ("max",),
    "no_generale": (),
    "mode_not_played": ("mode",),
    # The server: settings and names.
    "bad_settings": (),
    "unknown_setting": ("option",),
    "bad_setting": ("option", "value", "choices", "min", "max"),
    "bad_name": ("min", "max"),
    "name_control_characters": (),
    "bad_seating": ("seating", "choices"),
    # The server: seats and the lobby.
    "bad_seat": (),
    "no_such_seat": ("seat", "seats"),
    "seat_taken": ("seat",),
    "table_full": ("players",),
    "too_many_people": ("variant", "seats", "people"),
    "game_started": ("request",),
    "host_stays": (),
    "already_seated": (),
    "not_host": (),
    # The server: the match at a table.
    "not_started": (),
    "waiting_for_others": ("seats",),
    "match_not_over": (),
    "online_one_match": (),
    # The server: hints at a solo table (server/hints.py).
    "hints_solo_only": (),
    "hints_off": (),
    "hint_busy": (),
    # The server: training problems (server/problems.py).
    "no_such_problem": ("id",),
    "not_a_legal_card": ("card", "cards"),
    # The server: players' identities (server/players.py, docs/players.md).
    "no_identity": (),
    "no_such_player": (),
    "no_such_match": (),
    "bad_handle": (),
    "bad_password": ("min", "max"),
    "bad_code": (),
    "login_failed": (),
    "self": (),
    "blocked": (),
    "not_friends": (),
    # The server: duplicate tournaments (server/tournaments.py, docs/tournaments.md).
    "no_such_tournament": (),
    "tournament_closed": (),
    "no_such_board": ("boards",),
    "board_played": ("board",),
    "board_not_played": ("board",),
    "bad_boards": ("min", "max"),
    "bad_dates": (),
    "bad_guest": ("min", "max"),
    "no_entrant": (),
    "bad_month": (),
    "tournament_board": (),
    # The server: chat.
    "read_only": (),
    "bad_chat": ("max",),
    "chat_too_long": ("max",),
    "chat_control_characters": (),
    "bad_reaction": ("reactions",),
    "slow_down": ("count", "seconds"),
    # The server: messages and requests.
    "too_long": ("max",),
    "not_json": (),
    "too_deep": ("max",),
    "bad_text": (),
    "json_only": (),
    "bad_origin": ("origin",),
    "bad_message": (),
    "bad_request": (),
    "unknown_type": ("type",),
    "not_joined": (),
    "no_such_table": (),
    "flooding": ("count", "seconds"),
    "too_many_tables": ("count", "seconds"),
    "too_many_created": ("count", "seconds"),
    "too_many_sockets": ("max",),
    "server_error": (),
    "not_saved": (),
    "store_unreachable": (),
    # The server: connections and their requests (server/connections.py, server/hosts.py).
    "too_many_connections": ("max",),
    "server_full": ("max",),
    "request_timeout": ("part", "seconds"),
    "bad_host": ("host",),
    "not_text": (),
    "store_full": (),
    # The server: the analysis of a deal (POST /api/analyse).
    "not_a_record": (),
    "illegal_record": (),
    "deal_not_over": (),
    "analysis_running": (),
    "analyses_busy": ("max",),
}


class Refusal(ValueError):
    """Something refused, changing nothing: English words for people (``str(e)``), a stable ``code``
    and its ``args`` (a JSON object, ``details`` here) for programs.

    >>> e = IllegalPlay("you must follow suit: ♣ was led", "must_follow", suit="C", cards=["7C", "AC"])
    >>> str(e), e.code, e.details
    ('you must follow suit: ♣ was led', 'must_follow', {'suit': 'C', 'cards': ['7C', 'AC']})
    >>> e.to_json()["args"]["cards"]
    ['7C', 'AC']
    """

    #: The code of a refusal raised with none.
    code = "illegal_action"

    def __init__(self, message: str, code: str | None = None, **details: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        assert self.code in REFUSALS and sorted(details) == sorted(REFUSALS[self.code]), (self.code, details)
        self.details: dict[str, Any] = details

    def to_json(self) -> dict[str, Any]:
        """``{"message", "code", "args"}``: what the server sends (docs/protocol.md)."""
        return {"message": str(self), "code": self.code, "args": self.details}


class IllegalAction(Refusal):
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
    """``pass``, ``take``, a suit letter (naming it in the second round), a Coinche bid, or a card,
    which may be followed by what its player keeps quiet (``JH/quiet``, ``KH/nobelote``)."""
    if not isinstance(text, str):
        raise IllegalAction(f"{text!r} {_NOT_AN_ACTION}", "not_an_action", text=repr(text))
    if "/" in text:
        card, *words = text.strip().lower().split("/")
        if not words or any(w not in SAYS for w in words) or len(set(words)) != len(words):
            words_after = "followed by /quiet or /nobelote"
            raise IllegalAction(f"{text!r} {_NOT_AN_ACTION}, {words_after}", "not_an_action", text=text)
        try:
            action = parse_card(card)
        except ValueError:
            raise IllegalAction(f"{text!r} {_NOT_AN_ACTION}", "not_an_action", text=text) from None
        return action | sum(SAYS[w] for w in words)
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
        raise IllegalAction(f"{text!r} {_NOT_AN_ACTION}", "not_an_action", text=text) from None


def action_str(action: Action) -> str:
    """``JH``, ``pass``, ``take``, ``H``, ``110H``, ``coinche``, ``JH/quiet``; anything else as its number."""
    card, says = split_says(action)
    if says and 0 <= card < 32:
        return str(CARDS[card]) + "".join(f"/{w}" for w, flag in SAYS.items() if says & flag)
    if 0 <= action < 32:
        return str(CARDS[action])
    if PASS <= action <= SURCOINCHE:
        return str(Bid(action))
    return str(int(action))
