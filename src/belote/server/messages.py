"""The table of client messages: every message a client sends on ``/ws``, parsed once, here, at the edge.

Each message is one dataclass (``belote.server.wire.ClientMessage``) with its wire name and typed
fields. The socket's own messages are declared here (``Join``, ``Queue``, ``LeaveQueue``: what the
connection does before and besides a table); a person's messages at a table are the room's
(``belote.server.room``), which the table reduces. ``parse`` makes a message of a JSON object,
refusing an unknown type, a message for a table from a socket at none, a spectator's but for the
chat's two (``spectators``), and any key
its field refuses; ``schema`` is the JSON Schema of them all, kept as ``client-message.json``.

>>> parse({"type": "act", "action": "jh"}, joined=True, seat=2)
Act(seat=2, action=Card('JH'))
>>> parse({"type": "act", "action": "jh"}, joined=True, seat=None)
Traceback (most recent call last):
...
belote.actions.IllegalAction: a spectator cannot play: this view is read-only
>>> parse({"type": "chat", "text": "hi", "at": 1}, joined=True, seat=None).seat is None
True
>>> [cls.wire for cls in CLIENT_MESSAGES][:4]
['join', 'queue', 'leave_queue', 'hello']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from belote.game import IllegalAction, Refusal
from belote.server.limits import MessageRate
from belote.server.matchmaking import check_seating
from belote.server.room import (
    DEFAULT_SETTINGS,
    NAME,
    PERSON_MESSAGES,
    SEATINGS,
    Act,
    Back,
    Configure,
    Hint,
    Leave,
    Move,
    NewGame,
    React,
    Resume,
    Say,
    SeatBot,
    Start,
    check_name,
    check_settings,
)
from belote.server.tables import CHAT
from belote.server.wire import MAX_MESSAGE, ClientMessage, key, message_schema, parse_message

SECRET = {"$ref": "common.json#/$defs/secret"}
#: The longest table id looked up (``room.TABLE_ID``): a longer one names no table.
MAX_TABLE_ID = 63


def _table_id(value: Any) -> str | None:
    return value if isinstance(value, str) and len(value) <= MAX_TABLE_ID else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _since(value: Any) -> int:
    """The last event a page saw; anything but a number from -1 up is -1 (everything again)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= -1 else -1


def _game(value: Any) -> str:
    variant: str = check_settings({"variant": value})["variant"]
    return variant


def _spectator_name(value: Any) -> str | None:
    """A spectator's name, as a person's (``room.check_name``); anything else is none (a join is not
    refused for it: the spectator's lines then show without a name)."""
    try:
        return check_name(value)
    except Refusal:
        return None


@dataclass(frozen=True)
class Join(ClientMessage):
    """Sit at ``table`` with a seat ``token``, or watch it with its spectator code ``watch`` (under
    ``name`` in the chat, if given); the events after ``since`` come with the state."""

    wire = "join"
    about = (
        "Sit at a table with a seat token, or watch it with a spectator code (name: a spectator's in the chat, "
        "optional). since: the number of the last event seen, or -1."
    )
    seated = False
    schema_extra: ClassVar[dict[str, Any]] = {"oneOf": [{"required": ["token"]}, {"required": ["watch"]}]}
    table: str | None = key(_table_id, {"type": "string", "maxLength": MAX_TABLE_ID})
    token: str | None = key(_text, SECRET, required=False)
    watch: str | None = key(_text, SECRET, required=False)
    since: int = key(_since, {"type": "integer", "minimum": -1}, required=False, missing=-1)
    name: str | None = key(_spectator_name, NAME, required=False)


@dataclass(frozen=True)
class Queue(ClientMessage):
    """Wait in the Play online queue as ``name`` for a table of ``variant``, sitting as ``seating`` says."""

    wire = "queue"
    about = "Play online: wait in the queue for players of the same game."
    seated = False
    name: str = key(check_name, NAME)
    variant: str = key(
        _game, {"$ref": "common.json#/$defs/variant"}, required=False, missing=DEFAULT_SETTINGS["variant"]
    )
    seating: str = key(check_seating, {"enum": list(SEATINGS)}, required=False)
    #: The person's identity (its secret, docs/players.md): matched by rating, their name theirs.
    player: str | None = key(_text, SECRET, required=False)


@dataclass(frozen=True)
class Hello(ClientMessage):
    """A page of a person with an identity: online for their friends, and told of their invitations."""

    wire = "hello"
    about = (
        "Say who this page's person is (player: their identity's secret, docs/players.md): their friends see "
        "them online, and invitations reach this socket (invited)."
    )
    seated = False
    player: str | None = key(_text, SECRET)


@dataclass(frozen=True)
class LeaveQueue(ClientMessage):
    """Leave the Play online queue."""

    wire = "leave_queue"
    about = "Leave the queue."
    seated = False


#: Every client message, in the order the protocol lists them (docs/protocol.md, "Client to server").
CLIENT_MESSAGES: tuple[type[ClientMessage], ...] = (Join, Queue, LeaveQueue, Hello, *PERSON_MESSAGES)
BY_WIRE: dict[str, type[ClientMessage]] = {cls.wire: cls for cls in CLIENT_MESSAGES}

#: How often a client may send each message: every one of them writes to the store or is told to
#: others (a join says who is at a table, the queue is in the store). Counted per person (a seat's
#: token, whatever its sockets) and per address, in any 10 seconds, before the message is done:
#: past its rate it is refused ``slow_down`` and changes nothing (docs/operations.md, made from this
#: table). The rates leave room for what people do at the fastest, said in ``why``; an address has
#: room for a family or a club at one router.
RATES: dict[type[ClientMessage], MessageRate] = {
    Join: MessageRate(
        "join", 10, 60, "a page joins once, and again after a reload or a lost connection (with growing pauses)"
    ),
    Queue: MessageRate(
        "queue",
        5,
        20,
        "once a game, again when the connection comes back; each place also counts as a new table "
        "(--tables-per-minute)",
    ),
    LeaveQueue: MessageRate("leave_queue", 5, 20, "once for each time in the queue"),
    Hello: MessageRate("hello", 10, 60, "a page says it once, and again after a reload or a lost connection"),
    Move: MessageRate("seat", 10, 40, "a few seats tried in the lobby"),
    Configure: MessageRate(
        "settings", 20, 40, "the host's form sends the settings at each change (a choice run through with the keys)"
    ),
    Start: MessageRate("start", 5, 20, "once a table"),
    Leave: MessageRate("leave", 5, 20, "once a table"),
    Back: MessageRate("back", 10, 40, "once after a bot stood in"),
    Say: CHAT,
    React: CHAT,
    Act: MessageRate(
        "act",
        60,
        240,
        "a card or a bid each turn, which the page sends one at a time: about four a second at the "
        "fastest (two hands, bots at speed fast, a quarter of a second between two of one's cards)",
    ),
    Resume: MessageRate(
        "continue",
        20,
        60,
        "once a deal, from each device; a deal thrown in (everybody passed) takes a second at the fastest "
        "(two hands, bots at speed fast)",
    ),
    NewGame: MessageRate("new_game", 5, 20, "a new match now and then"),
    SeatBot: MessageRate("bot_seat", 10, 20, "up to three seats given to outside bots"),
    Hint: MessageRate(
        "hint",
        20,
        60,
        "one a turn and one at a time (hint_busy): about twelve in 10 s at every turn at the fastest",
    ),
}


def parse(data: dict[str, Any], joined: bool, seat: int | None) -> ClientMessage:
    """The typed message of the JSON object ``data`` (its ``type`` is text) from a socket that has
    ``joined`` a table, at ``seat`` (None: a spectator, or no table); raises its ``Refusal``."""
    kind = data["type"]
    cls = BY_WIRE.get(kind)
    if cls is None:
        raise IllegalAction(f"unknown message type {kind!r}", "unknown_type", type=kind)
    if cls.seated and not joined:
        raise IllegalAction("join a table first", "not_joined")
    if cls.seated and seat is None and not cls.spectators:
        raise IllegalAction("a spectator cannot play: this view is read-only", "read_only")
    return parse_message(cls, data, seat)


def schema() -> dict[str, Any]:
    """The JSON Schema of a client message (``client-message.json``, whose parts ``belote.schemas.build``
    makes from it): its ``type``, one of the table's, and the keys that type reads (``byType``)."""
    names = [cls.wire for cls in CLIENT_MESSAGES]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "A message from a client to the server (websocket /ws)",
        "description": (
            f"docs/protocol.md, Client to server. At most {MAX_MESSAGE:,} bytes of JSON. The server refuses anything "
            "else with an error message and changes nothing."
        ),
        "type": "object",
        "properties": {"type": {"enum": names}},
        "required": ["type"],
        "allOf": [{"$ref": "#/$defs/byType"}],
        "$defs": {
            "byType": {
                "description": "The keys each type of message reads.",
                "allOf": [
                    {
                        "if": {"properties": {"type": {"const": name}}, "required": ["type"]},
                        "then": {"$ref": f"#/$defs/{name}"},
                    }
                    for name in names
                ],
            },
            **{cls.wire: message_schema(cls) for cls in CLIENT_MESSAGES},
        },
    }
