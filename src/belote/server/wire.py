"""What arrives from the network, made safe before anything reads it: JSON and people's text.

Every message and request body goes through ``parse_json``: at most ``MAX_MESSAGE`` bytes, JSON
(no ``NaN`` nor ``Infinity``), nested at most ``MAX_DEPTH`` deep, and every string in it (keys
included) text that UTF-8 can carry, so that no lone surrogate reaches a store or another client.
People's free text (names, chat) goes through ``check_text`` too: no control, format (bidi
overrides, zero-width joiners), private-use or unassigned characters. Secrets are compared with
``same_secret``, which takes any text.

A client's message on ``/ws`` is declared once, as a dataclass (``ClientMessage``): its wire name,
and for each field where its value comes from (a key of the message and the function that reads it,
or what the server gives: the sender's seat, the time, a new token or seed). ``parse_message`` makes
the typed message from the JSON object, and ``message_schema`` its JSON Schema: the table of these
classes (``belote.server.messages.CLIENT_MESSAGES``) is the protocol's list of client messages.

>>> parse_json('{"type": "join", "since": 3}')
{'type': 'join', 'since': 3}
>>> parse_json('[[[[[[[[[[1]]]]]]]]]]')
Traceback (most recent call last):
...
belote.actions.Refusal: the message is nested too deep: at most 8 levels
>>> parse_json('{"text": "\\\\ud83d"}')
Traceback (most recent call last):
...
belote.actions.Refusal: the message holds text that is not valid Unicode (a lone surrogate)
>>> same_secret("abc", "abc"), same_secret("abc", "ébc"), same_secret("abc", "\\ud83d")
(True, False, False)
"""

from __future__ import annotations

import dataclasses
import hmac
import json
import secrets
import time
import unicodedata
from collections.abc import Callable
from typing import Any, ClassVar, Literal
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from belote.actions import Refusal
from belote.ids import new_id

#: The longest message or request body read, in bytes.
MAX_MESSAGE = 4096
#: The deepest nesting of a message: settings inside a message are 2 levels; 8 leaves room.
MAX_DEPTH = 8
#: Unicode categories refused in people's text: control, format (bidi overrides, zero-width),
#: surrogate, private use, unassigned.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def _no_constant(name: str) -> Any:
    raise Refusal(f"the message is not JSON: {name} is not a number", "not_json")


def parse_json(text: str | bytes, limit: int = MAX_MESSAGE) -> Any:
    """The JSON value of ``text``; raises Refusal (``too_long``, ``not_json``, ``too_deep``, ``bad_text``)."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise Refusal(f"message too long: at most {limit} bytes", "too_long", max=limit)
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise too_deep() from None
    except (ValueError, UnicodeDecodeError) as e:  # JSONDecodeError, a number too long to read
        if isinstance(e, Refusal):
            raise
        raise Refusal("the message is not JSON", "not_json") from None
    _check(value)
    return value


def too_deep() -> Refusal:
    return Refusal(f"the message is nested too deep: at most {MAX_DEPTH} levels", "too_deep", max=MAX_DEPTH)


def _check(value: Any) -> None:
    """Depth and text of a parsed value, without recursion (the depth is what is checked)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_unicode(item)
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise too_deep()
            if isinstance(item, dict):
                for key, inner in item.items():
                    _check_unicode(key)
                    stack.append((inner, depth + 1))
            else:
                stack.extend((inner, depth + 1) for inner in item)


def _check_unicode(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Refusal("the message holds text that is not valid Unicode (a lone surrogate)", "bad_text") from None


def has_refused_characters(text: str) -> bool:
    """Whether people's text holds a character no name or chat line may hold (``REFUSED_CATEGORIES``)."""
    return any(unicodedata.category(c) in REFUSED_CATEGORIES for c in text)


def same_secret(secret: str, given: Any) -> bool:
    """Whether ``given`` is ``secret``, in constant time for text of any kind (and False for non-text)."""
    if not isinstance(given, str):
        return False
    return hmac.compare_digest(secret.encode("utf-8"), given.encode("utf-8", "surrogatepass"))


class BadRequest(Refusal):
    """A request that is not one (too long, not JSON, not an object, from a foreign page), with its HTTP status."""

    def __init__(self, message: str, code: str, status: int = 400, **details: Any) -> None:
        super().__init__(message, code, **details)
        self.status = status


def too_long(limit: int) -> BadRequest:
    return BadRequest(f"the request is too long: at most {limit} bytes", "too_long", 413, max=limit)


async def read_body(request: Request, limit: int = MAX_MESSAGE) -> bytes:
    """The body of a request that changes something, read no further than ``limit`` bytes.

    Only from this server's pages (``origin_allowed``) and only ``application/json`` (an empty body
    may come without a type): a page of another site can send a form or ``text/plain`` without
    asking, never JSON. A body announced
    longer than the limit is refused before a byte of it is read, one that turns out longer as
    soon as it passes the limit.
    """
    # The score sheet's routes also serve on an app of their own, which lists no other origin.
    if not origin_allowed(request, getattr(request.app.state, "origins", ())):
        raise foreign_origin(request)
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise too_long(limit)
    kind = request.headers.get("content-type")
    json_only = BadRequest("a request is sent as application/json", "json_only", 415)
    if kind is not None and kind.split(";")[0].strip().lower() != "application/json":
        raise json_only
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_long(limit)
    if kind is None and body:  # an empty body needs no type
        raise json_only
    return bytes(body)


def origin_allowed(conn: HTTPConnection, allowed: tuple[str, ...]) -> bool:
    """Whether a request or websocket comes from this server's own page (or one of ``allowed``).

    Browsers name the page that opens a websocket or sends a cross-site request in ``Origin``;
    programs (bots, the terminal, tests) send none and are welcome.
    """
    origin = conn.headers.get("origin")
    if origin is None or origin in allowed or "*" in allowed:
        return True
    host = conn.headers.get("host")
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


def foreign_origin(conn: HTTPConnection) -> BadRequest:
    origin = conn.headers.get("origin", "")[:100]
    return BadRequest(f"requests from the page {origin} are not taken here", "bad_origin", 403, origin=origin)


def refused(
    request: Request, e: Refusal, status: int = 400, headers: dict[str, str] | None = None, **more: Any
) -> Response:
    """An HTTP route's refusal: ``{"error": words, "code", "args"}`` (docs/protocol.md), and ``more``
    keys where a route adds some; the status the refusal carries (else ``status``); counted in
    ``/metrics`` by its code."""
    request.app.state.metrics.refusals.inc(code=e.code)
    retry = getattr(e, "retry_after", None)  # a passing state (a full disk): when to try again
    if retry is not None:
        headers = {"Retry-After": str(retry), **(headers or {})}
    return JSONResponse({**http_body(e), **more}, status_code=getattr(e, "status", status), headers=headers)


def http_body(e: Refusal) -> dict[str, Any]:
    """The body of every HTTP refusal: ``{"error": words, "code", "args"}`` (docs/protocol.md)."""
    return {"error": str(e), "code": e.code, "args": e.details}


def new_token() -> str:
    """128 random bits, URL-safe: a table's id, a seat's token, an invitation, a spectator's code
    (``belote.ids.new_id``: never beginning with ``-``)."""
    return new_id()


# ----------------------------------------------------------------- client messages
#: What the server gives a field of a client's message: the seat it comes from, the time in unix
#: milliseconds, a new secret token, a new random seed.
Given = Literal["seat", "now", "token", "seed"]
_WIRE = "wire"  # the key of a field's source in its dataclass metadata


@dataclasses.dataclass(frozen=True)
class Key:
    """A field read from the message's key ``key`` by ``read`` (which raises a ``Refusal`` naming the
    rule), given ``missing`` when the key is absent; ``schema`` is the key's JSON Schema."""

    key: str
    read: Callable[[Any], Any]
    schema: dict[str, Any]
    required: bool
    missing: Any


def key(
    read: Callable[[Any], Any],
    schema: dict[str, Any],
    *,
    name: str | None = None,
    required: bool = True,
    missing: Any = None,
) -> Any:
    """A dataclass field read from the message's key ``name`` (the field's own name by default)."""
    return dataclasses.field(metadata={_WIRE: Key(name or "", read, schema, required, missing)})


def given(what: Given) -> Any:
    """A dataclass field the server gives (``Given``), never read from the message."""
    return dataclasses.field(metadata={_WIRE: what})


class ClientMessage:
    """The base of the messages a client sends on ``/ws``: each subclass is a frozen dataclass with
    its wire name (``wire``, the message's ``type``), the words of the protocol (``about``) and
    its fields declared with ``key`` or ``given``. ``seated``: whether it comes only from a person
    at a table (a socket at no table is refused, and a spectator unless ``spectators``: a chat line
    and a reaction); ``schema_extra``: keywords of its schema beyond the keys (a choice between two
    keys)."""

    wire: ClassVar[str]
    about: ClassVar[str]
    seated: ClassVar[bool] = True
    spectators: ClassVar[bool] = False
    schema_extra: ClassVar[dict[str, Any]] = {}


_FIELDS: dict[type[ClientMessage], tuple[tuple[str, Key | str], ...]] = {}


def wire_fields(cls: type[ClientMessage]) -> tuple[tuple[str, Key | str], ...]:
    """Each field of a message and where its value comes from: a ``Key``, or what is ``Given``."""
    known = _FIELDS.get(cls)
    if known is not None:
        return known
    out: list[tuple[str, Key | str]] = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        source = f.metadata.get(_WIRE)
        if isinstance(source, Key):
            out.append((f.name, source if source.key else dataclasses.replace(source, key=f.name)))
        elif isinstance(source, str):
            out.append((f.name, source))
        else:
            raise TypeError(f"{cls.__name__}.{f.name} says neither its key nor what gives it")
    _FIELDS[cls] = tuple(out)
    return _FIELDS[cls]


def parse_message(cls: type[ClientMessage], data: dict[str, Any], seat: int | None) -> ClientMessage:
    """The message ``cls`` of the JSON object ``data`` from ``seat``: each key read by its field
    (other keys are ignored), in the order of the fields; raises the first field's ``Refusal``."""
    values: dict[str, Any] = {}
    for name, source in wire_fields(cls):
        if isinstance(source, Key):
            values[name] = source.read(data.get(source.key, source.missing))
        elif source == "seat":
            values[name] = seat
        elif source == "now":
            values[name] = int(time.time() * 1000)
        elif source == "token":
            values[name] = new_token()
        else:
            values[name] = secrets.randbelow(2**31)
    return cls(**values)


def message_schema(cls: type[ClientMessage]) -> dict[str, Any]:
    """The JSON Schema of a message: its ``type`` and the keys its fields read."""
    properties: dict[str, Any] = {"type": {"const": cls.wire}}
    required = ["type"]
    for _, source in wire_fields(cls):
        if isinstance(source, Key):
            properties[source.key] = source.schema
            if source.required:
                required.append(source.key)
    return {
        "type": "object",
        "description": cls.about,
        "properties": properties,
        "required": required,
        **cls.schema_extra,
        "additionalProperties": False,
    }
