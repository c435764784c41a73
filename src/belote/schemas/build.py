"""The parts of the schemas (and of the docs) that the code's registries say, made from them.

The schemas are the JSON files of this folder, kept in the repository: the server serves them as they
are and programs in other languages read them. The message shapes in them are written by hand; what a
registry of the code already says is made here and written into them: the games and their seats, their
scores' names and what differs by game (``belote.variants.VARIANTS``, each game asked, none named), the
rule options and a table's settings with their values (``belote.rules.OPTIONS``,
``belote.server.room.TABLE_SETTINGS``), the refusal codes and their args (``belote.actions.REFUSALS``),
the reactions; and the tables of the docs that the same registries make (with the rates of the client
messages, ``belote.server.messages.RATES``). Each part is one function
below, registered for where it goes (``@part("common#/$defs/variant", ...)``: a file and a JSON pointer
in it); in the files, each object made here says so in its ``$comment``, and a doc's table stands
between two markers. ``build()`` asks the registries as they are when it is called: a test that
registers a game of its own (in ``VARIANTS``, and in the choices of the option ``variant``) builds
schemas that know it.

    python -m belote.schemas.build           write the parts into the files
    python -m belote.schemas.build --check   name the files that differ from what it builds (exit 1)

``tests/test_schemas.py`` fails when a kept file is not what this builds.

>>> built = build()
>>> built["common"]["$defs"]["variant"]["enum"]
['classic', 'coinche', 'three-handed', 'two-handed']
>>> built["common"]["$defs"]["ruleOptions"]["properties"]["target"]["maximum"]
5000
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from belote.actions import KEPT_QUIET, REFUSALS
from belote.record import RULE_KEYS
from belote.rules import KINDS, MATCH_OPTIONS, OPTION_SPECS, OPTIONS, OptionSpec
from belote.schemas import COMMON, COMPONENTS, LOCAL, NAMES, rewrite_refs
from belote.scoring import ROWS
from belote.server.messages import CLIENT_MESSAGES, RATES
from belote.server.room import DEFAULT_SETTINGS, REACTIONS, RULE_SETTINGS, SEATINGS, TABLE_SETTINGS
from belote.sheet import SHEET_RULES
from belote.variants import SEATS, VARIANTS, Variant

Json = Any
HERE = Path(__file__).resolve().parent
#: The checkout the docs are in (none when the package is installed without it).
ROOT = HERE.parents[2]
COMMAND = "python -m belote.schemas.build"
COMMENT = "Made by " + COMMAND + " from {source}: change the code, then run it."
FILES = (*NAMES, "openapi")
#: Where a game's facts are in the OpenAPI document (GET /api/games).
GAME = "openapi#/components/schemas/Games/properties/games/items/properties/"


@dataclass(frozen=True, slots=True)
class Part:
    """A value a function makes from the code, and where it goes: ``file`` (a name of ``FILES``)
    at ``pointer``; a ``{}`` in the pointer stands for each key of the mapping the function returns."""

    file: str
    pointer: str
    source: str
    make: Callable[[], Json]


@dataclass(frozen=True, slots=True)
class Block:
    """Lines of a doc made from the code, between ``<!-- made by ...: NAME -->`` and ``<!-- end of NAME -->``."""

    doc: str
    name: str
    make: Callable[[], str]


PARTS: list[Part] = []
BLOCKS: list[Block] = []


def part(place: str, *, source: str) -> Callable[[Callable[[], Json]], Callable[[], Json]]:
    """Register a function for the place (``FILE#POINTER``) its value goes, made from ``source``."""
    file, _, pointer = place.partition("#")
    assert file in FILES and pointer.startswith("/"), place

    def register(make: Callable[[], Json]) -> Callable[[], Json]:
        PARTS.append(Part(file, pointer, source, make))
        return make

    return register


def block(doc: str, name: str) -> Callable[[Callable[[], str]], Callable[[], str]]:
    """Register a function for the block ``name`` of ``doc`` (a path from the checkout's root)."""

    def register(make: Callable[[], str]) -> Callable[[], str]:
        BLOCKS.append(Block(doc, name, make))
        return make

    return register


# ----------------------------------------------------------------- what the parts are made of
def _games() -> list[Variant]:
    return list(VARIANTS.values())


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _default_game() -> str:
    return str(OPTION_SPECS["variant"].default)


#: Numbers in words: the definition of a game's scores in common.json is named by how many it keeps.
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


def scores_def(game: Variant) -> str:
    """The definition of common.json that holds a game's scores: ``sideScores`` where partners share a
    score, else one named by the number of players' scores (``threeScores``).

    >>> [scores_def(g) for g in VARIANTS.values()]
    ['sideScores', 'sideScores', 'threeScores', 'twoScores']
    """
    return "sideScores" if game.partners else f"{NUMBER_WORDS[game.teams]}Scores"


def _by_scores() -> dict[str, list[Variant]]:
    """The games by the definition of their scores; games that share one keep the same names."""
    out: dict[str, list[Variant]] = {}
    for game in _games():
        games = out.setdefault(scores_def(game), [])
        if games and games[0].team_names != game.team_names:
            raise ValueError(f"{game.name} and {games[0].name} name their scores differently: give scores_def a word")
        games.append(game)
    return out


def _game_is(game: Variant, *path: str) -> Json:
    """The ``if`` of a schema that holds when the value at ``path`` (keys down to the game's name) is
    ``game``; a missing one is the default game."""
    test: Json = {"const": game.name}
    for key in reversed(path):
        test = {"properties": {key: test}}
        if game.name != _default_game():
            test = {"required": [key], **test}
    return test


def option_schema(spec: OptionSpec) -> Json:
    """What a spec takes, as JSON Schema: one of its choices, true or false, or a whole number in its
    range; null too where it is nullable. Its help and default as annotations.

    >>> option_schema(OPTION_SPECS["deals"])["anyOf"]
    [{'type': 'integer', 'minimum': 1, 'maximum': 100}, {'type': 'null'}]
    """
    takes: Json
    if spec.kind == "choice":
        takes = {"enum": list(spec.choices)}
    elif spec.kind == "bool":
        takes = {"type": "boolean"}
    else:
        takes = {"type": "integer", "minimum": spec.min, "maximum": spec.max}
    if spec.nullable:
        takes = {"anyOf": [takes, {"type": "null"}]}
    games = spec.games
    only = "" if games is None else f" Read by {_and(games)} only."
    return {"description": spec.help + only, **takes, "default": spec.default}


def _option_refs(names: Iterable[str], where: str = "#/$defs/") -> Json:
    return {name: {"$ref": f"{where}ruleOptions/properties/{name}"} for name in names}


# ----------------------------------------------------------------- the games
@part("common#/$defs/variant", source="belote.variants.VARIANTS")
def variant() -> Json:
    return {"description": "A game, by its name (docs/rules.md).", "enum": list(VARIANTS)}


@part("common#/$defs/seat", source="belote.variants.VARIANTS")
def seat() -> Json:
    seats = [s for s in SEATS if any(s in g.seats for g in _games())]
    players = ", ".join(f"{g.name} {g.players}" for g in _games())
    return {
        "description": f"A seat: {', '.join(seats)}; a game of n players has the first n ({players}).",
        "enum": seats,
    }


@part("common#/$defs/seats", source="belote.variants.VARIANTS")
def seats() -> Json:
    return {
        "description": "Seats, each once.",
        "type": "array",
        "items": {"$ref": "#/$defs/seat"},
        "uniqueItems": True,
        "maxItems": max(g.players for g in _games()),
    }


@part("common#/$defs/scoreName", source="belote.variants.VARIANTS")
def score_name() -> Json:
    names = list(dict.fromkeys(n for g in _games() for n in g.team_names))
    by = "; ".join(f"{', '.join(gs[0].team_names)} in {_and([g.name for g in gs])}" for gs in _by_scores().values())
    return {
        "description": f"A score's name: a side where partners share a score, else a player's seat ({by}).",
        "enum": names,
    }


@part("common#/$defs/{}", source="belote.variants.VARIANTS")
def score_defs() -> Json:
    """The scores of each game, by their names: one definition for the games that keep the same ones."""
    out = {}
    for name, games in _by_scores().items():
        team_names = list(games[0].team_names)
        by = "side" if games[0].partners else "player"
        out[name] = {
            "type": "object",
            "description": f"By {by} ({', '.join(team_names)}): the scores of {_and([g.name for g in games])}.",
            "properties": {n: {"type": "integer"} for n in team_names},
            "required": team_names,
            "additionalProperties": False,
        }
    return out


@part("common#/$defs/scores", source="belote.variants.VARIANTS")
def scores() -> Json:
    by = "; ".join(f"{{{', '.join(gs[0].team_names)}}} in {_and([g.name for g in gs])}" for gs in _by_scores().values())
    return {
        "description": f"A number for each score of the game: {by}.",
        "oneOf": [{"$ref": f"#/$defs/{name}"} for name in _by_scores()],
    }


@part("deal-record#/$defs/byGame", source="belote.variants.VARIANTS")
def record_by_game() -> Json:
    def then(game: Variant) -> Json:
        keys: Json = {
            "dealer": {"enum": list(game.seats)},
            "score_before": {"$ref": f"common.json#/$defs/{scores_def(game)}"},
        }
        if not game.carries_pending:
            keys["pending"] = {"const": 0}
        return {"properties": keys}

    return {
        "description": f"What differs by game (rules.variant; {_default_game()} when absent): the dealer's seat,"
        " the names of score_before, and pending 0 in a game where no 81-81 deal leaves points waiting.",
        "allOf": [{"if": _game_is(g, "rules", "variant"), "then": then(g)} for g in _games()],
    }


@part("server-message#/$defs/viewByGame", source="belote.variants.VARIANTS")
def view_by_game() -> Json:
    def then(game: Variant) -> Json:
        ref = {"$ref": f"common.json#/$defs/{scores_def(game)}"}
        return {"properties": {"won": ref, "score": ref}}

    return {
        "description": "won and score by the names of the scores of the view's game (rules.variant).",
        "allOf": [{"if": _game_is(g, "rules", "variant"), "then": then(g)} for g in _games()],
    }


@part("server-message#/$defs/queue/properties/players", source="belote.variants.VARIANTS")
def queue_players() -> Json:
    players = [g.players for g in _games()]
    return {
        "description": "The players of the game.",
        "type": "integer",
        "minimum": min(players),
        "maximum": max(players),
    }


@part("server-message#/$defs/queue/properties/waiting_by_game", source="belote.variants.VARIANTS")
def waiting_by_game() -> Json:
    return {
        "description": "How many wait for each game.",
        "type": "object",
        "properties": {name: {"type": "integer", "minimum": 0} for name in VARIANTS},
        "required": list(VARIANTS),
        "additionalProperties": False,
    }


@part(GAME + "players", source="belote.variants.VARIANTS")
def game_players() -> Json:
    players = [g.players for g in _games()]
    return {"type": "integer", "minimum": min(players), "maximum": max(players)}


@part(GAME + "auction", source="belote.variants.VARIANTS")
def game_auction() -> Json:
    return {"description": "The game's auction.", "enum": list(dict.fromkeys(g.auction.name for g in _games()))}


@part(GAME + "sheet_entry", source="belote.variants.VARIANTS")
def game_sheet_entry() -> Json:
    return {
        "description": "What a score sheet enters of one deal: the takers and one side's card points (sides),"
        " the contract and the bidders' card points (contract), the taker and each player's card points (players).",
        "enum": list(dict.fromkeys(g.sheet_entry for g in _games())),
    }


# ----------------------------------------------------------------- the options and settings
@part("common#/$defs/ruleOptions", source="belote.rules.OPTIONS")
def rule_options() -> Json:
    return {
        "description": "The rule options (belote.rules.OPTIONS; GET /api/games gives each one's spec).",
        "type": "object",
        "properties": {spec.name: option_schema(spec) for spec in OPTIONS},
    }


@part("common#/$defs/rules", source="belote.rules.OPTIONS")
def rules() -> Json:
    names = [spec.name for spec in OPTIONS]
    return {
        "type": "object",
        "description": "Every rule option of the engine (belote.rules.Rules.to_dict), as in view.rules.",
        "properties": _option_refs(names),
        "required": names,
        "additionalProperties": False,
    }


@part("common#/$defs/settings", source="belote.server.room.RULE_SETTINGS and TABLE_SETTINGS")
def settings() -> Json:
    return {
        "type": "object",
        "description": "A table's settings (docs/protocol.md, Settings): each optional in a request, where an"
        " absent one keeps its default (the specs' here; GET /api/games gives the server's).",
        "properties": {**_option_refs(RULE_SETTINGS), **{spec.name: option_schema(spec) for spec in TABLE_SETTINGS}},
        "required": [],
        "additionalProperties": False,
    }


@part("common#/$defs/tableSettings", source="belote.server.room.DEFAULT_SETTINGS")
def table_settings() -> Json:
    return {
        "description": "A table's settings as the server sends them: every one present.",
        "$ref": "#/$defs/settings",
        "required": list(DEFAULT_SETTINGS),
    }


@part("deal-record#/properties/rules", source="belote.record.RULE_KEYS")
def record_rules() -> Json:
    return {
        "description": "The rule options that differ from the defaults (the match options"
        f" {_and(MATCH_OPTIONS)} are not a deal's).",
        "type": "object",
        "properties": _option_refs(RULE_KEYS, "common.json#/$defs/"),
        "additionalProperties": False,
    }


@part("openapi#/components/schemas/NewSheet", source="belote.sheet.SHEET_RULES and belote.variants.VARIANTS")
def new_sheet() -> Json:
    def by_team(value: Json) -> Json:
        return {
            "anyOf": [
                {"type": "array", "items": value, "maxItems": max(g.teams for g in _games())},
                {
                    "type": "object",
                    "propertyNames": {"$ref": "common.json#/$defs/scoreName"},
                    "additionalProperties": value,
                },
                {"type": "null"},
            ]
        }

    return {
        "description": "The settings of a new sheet (Sheet.new), each optional: the game, target or deals, names"
        " and start by side or player (an object or a list), and the rule options of that game's sheet.",
        "type": "object",
        "properties": {
            **_option_refs(SHEET_RULES, "common.json#/$defs/"),
            "names": by_team({"type": "string"}),
            "start": by_team({"type": "integer"}),
        },
        "additionalProperties": False,
    }


@part(GAME + "options", source="belote.rules.OPTIONS")
def game_options() -> Json:
    return {"type": "array", "items": {"enum": [spec.name for spec in OPTIONS]}}


@part(GAME + "sheet_options", source="belote.sheet.SHEET_RULES")
def game_sheet_options() -> Json:
    return {"type": "array", "items": {"enum": list(SHEET_RULES)}}


@part("openapi#/components/schemas/OptionSpec/properties/name", source="belote.rules.OPTIONS and TABLE_SETTINGS")
def spec_name() -> Json:
    return {"enum": [spec.name for spec in (*OPTIONS, *TABLE_SETTINGS)]}


@part("openapi#/components/schemas/OptionSpec/properties/kind", source="belote.rules.KINDS")
def spec_kind() -> Json:
    return {"enum": list(KINDS)}


@part("openapi#/components/schemas/OptionSpec/properties/group", source="belote.rules.OPTIONS and TABLE_SETTINGS")
def spec_group() -> Json:
    return {"enum": list(dict.fromkeys(spec.group for spec in (*OPTIONS, *TABLE_SETTINGS)))}


# ----------------------------------------------------------------- the refusals
#: What each arg of a refusal holds, by its name (the code names the args: ``belote.actions.REFUSALS``).
ARGS: dict[str, Json] = {
    "text": {"type": "string", "maxLength": 16},
    "seat": {"$ref": "#/$defs/seat"},
    "seats": {"$ref": "#/$defs/seats"},
    "phase": {"enum": ["bidding", "play"]},
    "action": {"type": "string"},
    "card": {"$ref": "#/$defs/card"},
    "best": {"$ref": "#/$defs/card"},
    "cards": {"$ref": "#/$defs/cards"},
    "suit": {"$ref": "#/$defs/suit"},
    "bid": {"type": "string"},
    "contract": {"type": "string"},
    "mode": {"enum": ["NT", "AT"]},
    "min": {"type": "integer"},
    "max": {"type": "integer"},
    "option": {"type": "string"},
    "value": {},
    "choices": {"anyOf": [{"type": "array"}, {"type": "null"}]},
    "players": {"type": "integer"},
    "people": {"type": "integer"},
    "variant": {"$ref": "#/$defs/variant"},
    "request": {"enum": ["sit", "seat", "leave", "settings", "start"]},
    "id": {"type": "string", "maxLength": 64},
    "reactions": {"type": "array", "items": {"$ref": "#/$defs/reaction"}},
    "count": {"type": "integer"},
    "seconds": {"type": "integer"},
    "origin": {"type": "string"},
    "type": {"type": "string"},
    "seating": {},  # what was sent, maybe not text
    "what": {"enum": list(KEPT_QUIET)},
    "part": {"enum": ["headers", "body"]},  # of a request (server/connections.py)
    "host": {"type": "string", "maxLength": 100},
    "board": {"type": "integer", "minimum": 1},  # a tournament's board, from 1
    "boards": {"type": "integer", "minimum": 0},
}
#: The args of a code that hold something else than their name's.
CODE_ARGS: dict[tuple[str, str], Json] = {
    ("not_a_legal_card", "card"): {"type": "string", "maxLength": 16},  # what was sent, maybe no card
    ("bid_too_low", "min"): {"anyOf": [{"$ref": "#/$defs/level"}, {"type": "null"}]},
    ("bad_setting", "min"): {"anyOf": [{"type": "integer"}, {"type": "null"}]},  # null: not a number
    ("bad_setting", "max"): {"anyOf": [{"type": "integer"}, {"type": "null"}]},
    ("bad_seating", "choices"): {"type": "array", "items": {"enum": list(SEATINGS)}},
    ("request_timeout", "seconds"): {"type": "number"},  # --header-timeout may be 0.5
}


def _arg(code: str, name: str) -> Json:
    if name == "auction":  # the auctions the games hold
        return {"enum": list(dict.fromkeys(g.auction.name for g in _games()))}
    found = CODE_ARGS.get((code, name), ARGS.get(name))
    if found is None:
        raise KeyError(f"the arg {name!r} of the refusal {code!r} has no type: give it one in ARGS ({__name__})")
    return found


@part("common#/$defs/refusalCode", source="belote.actions.REFUSALS")
def refusal_code() -> Json:
    return {
        "description": "The stable code of a refusal (belote.actions.REFUSALS; docs/protocol.md, Refusals). A code"
        " is never renamed nor removed; a newer server may add codes, so a client falls back to the message"
        " for a code it does not know.",
        "enum": list(REFUSALS),
    }


@part("common#/$defs/refusalArgs", source="belote.actions.REFUSALS")
def refusal_args() -> Json:
    return {
        "description": "The args each code carries, by code.",
        "type": "object",
        "properties": {
            code: {
                "type": "object",
                "properties": {name: _arg(code, name) for name in args},
                "required": list(args),
                "additionalProperties": False,
            }
            for code, args in REFUSALS.items()
        },
    }


@part("common#/$defs/refusal", source="belote.actions.REFUSALS")
def refusal() -> Json:
    return {
        "description": "A refusal's code and its args (the args of its code, each present). With the words for"
        " people: message (websocket) or error (HTTP).",
        "type": "object",
        "properties": {"code": {"$ref": "#/$defs/refusalCode"}, "args": {"type": "object"}},
        "required": ["code", "args"],
        "allOf": [
            {
                "if": {"properties": {"code": {"const": code}}},
                "then": {"properties": {"args": {"$ref": f"#/$defs/refusalArgs/properties/{code}"}}},
            }
            for code in REFUSALS
        ],
    }


@part("common#/$defs/sheetRowName", source="belote.scoring.ROWS")
def sheet_row_name() -> Json:
    return {
        "description": "A row of a deal's sheet (what a score's points are made of), in the order sheets show them: "
        + "; ".join(f"{name}: {meaning}" for name, meaning in ROWS.items())
        + ".",
        "enum": list(ROWS),
    }


@part("common#/$defs/reaction", source="belote.server.room.REACTIONS")
def reaction() -> Json:
    return {"description": "A quick reaction, which each page words in its language.", "enum": list(REACTIONS)}


# ----------------------------------------------------------------- the messages
def _client_messages() -> Json:
    from belote.server import messages  # the server's table of client messages

    return messages.schema()


@part("client-message#/properties/type", source="belote.server.messages.CLIENT_MESSAGES")
def client_types() -> Json:
    return _client_messages()["properties"]["type"]


@part("client-message#/$defs/{}", source="belote.server.messages.CLIENT_MESSAGES")
def client_messages() -> Json:
    """Each message's keys, and ``byType``, which sends each type to its own."""
    return _client_messages()["$defs"]


# ----------------------------------------------------------------- the docs
def _word(value: object) -> str:
    """A value as the docs write it: ``clockwise``, 501, true, null."""
    return f"`{value}`" if isinstance(value, str) else json.dumps(value)


def _takes(spec: OptionSpec) -> str:
    if spec.kind == "choice":
        words = ", ".join(_word(c) for c in spec.choices)
    elif spec.kind == "bool":
        words = "true, false"
    else:
        words = f"{spec.min} to {spec.max}"
    return words + (", or null" if spec.nullable else "")


def _read_by(spec: OptionSpec) -> str:
    return "every game" if spec.games is None else _and([f"`{g}`" for g in spec.games])


def _table(head: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _wrapped(text: str, width: int = 108) -> list[str]:
    """A line of JSON cut after commas into lines of at most ``width`` characters."""
    lines, line = [], ""
    for item in text.split(", "):
        if line and len(line) + len(item) + 2 > width:
            lines.append(line + ",")
            line = " " + item
        else:
            line = f"{line}, {item}" if line else item
    return [*lines, line]


@block("docs/protocol.md", "games")
def games_doc() -> str:
    def seats(game: Variant) -> str:
        words = " ".join(game.seats)
        if game.partners:
            sides = ["-".join(s for i, s in enumerate(game.seats) if game.team(i) == t) for t in range(game.teams)]
            return f"{words}, partners {' and '.join(sides)}"
        camps = set(game.camps(0))
        others = NUMBER_WORDS[game.players - 1]
        against = f" (the taker against the other {others})" if len(camps) == 2 and game.players > 2 else ""
        return f"{words}, each for themselves{against}"

    def name(game: Variant) -> str:
        return f"`{game.name}`" + (" (default)" if game.name == _default_game() else "")

    rows = ([name(g), seats(g), ", ".join(f'`"{n}"`' for n in g.team_names)] for g in _games())
    return _table(("`variant`", "seats", "scores (`score`, `won`, `points`... keyed by)"), rows)


@block("docs/protocol.md", "settings")
def settings_doc() -> str:
    def rows(specs: Iterable[OptionSpec]) -> Iterator[list[str]]:
        for spec in specs:
            only = "" if spec.games is None else f" Read by {_read_by(spec)} only."
            yield [f"`{spec.name}`", _takes(spec), _word(spec.default), spec.help + only]

    head = ("setting", "values", "default", "what it is")
    kept = [f"`{spec.name}`" for spec in OPTIONS if spec.name not in RULE_SETTINGS]
    return "\n".join(
        [
            "```json",
            *_wrapped(json.dumps(DEFAULT_SETTINGS, ensure_ascii=False)),
            "```",
            "",
            "The rule options of a table:",
            "",
            _table(head, rows(OPTION_SPECS[name] for name in RULE_SETTINGS)),
            "",
            f"The rule options {_and(kept)} are not settings of a table (a table plays their defaults).",
            "",
            "The table's own settings:",
            "",
            _table(head, rows(TABLE_SETTINGS)),
        ]
    )


@block("docs/rules.md", "options")
def options_doc() -> str:
    rows = ([f"`{s.name}`", _takes(s), _word(s.default), _read_by(s), s.group] for s in OPTIONS)
    return _table(("option", "values", "default", "read by", "form group"), rows)


@block("docs/protocol.md", "sheet rows")
def sheet_rows_doc() -> str:
    return _table(("row", "what it counts"), ([f"`{name}`", meaning] for name, meaning in ROWS.items()))


@block("docs/operations.md", "message rates")
def message_rates_doc() -> str:
    names: dict[str, list[str]] = {}  # the messages of each window, in the order of the protocol
    for cls in CLIENT_MESSAGES:
        names.setdefault(RATES[cls].name, []).append(f"`{cls.wire}`")
    rows = []
    for name, wires in names.items():
        rate = next(r for r in RATES.values() if r.name == name)
        seconds = f"{rate.seconds:g} s"
        rows.append([" and ".join(wires), f"{rate.person} in {seconds}", f"{rate.address} in {seconds}", rate.why])
    return _table(("message", "a person", "an address", "what people do"), rows)


@block("docs/openspiel.md", "parameters")
def parameters_doc() -> str:
    rows = ([f"`{s.name}`", _takes(s), _word(s.default), _read_by(s)] for s in OPTIONS if s.name not in MATCH_OPTIONS)
    return _table(("parameter", "values", "default", "read by"), rows)


# ----------------------------------------------------------------- building, writing, checking
def _parent(doc: Json, pointer: str) -> tuple[Json, str]:
    """The object that holds the value at ``pointer``, and its key there."""
    *path, last = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    node = doc
    for key in path:
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node, last


def _made(doc: Json, pointer: str = "") -> Iterator[str]:
    """The pointers of the objects of ``doc`` that say they were made here."""
    if isinstance(doc, dict):
        if str(doc.get("$comment", "")).startswith(COMMENT[: COMMENT.index("{")]):
            yield pointer
            return
        items: Iterable[tuple[object, Json]] = doc.items()
    elif isinstance(doc, list):
        items = enumerate(doc)
    else:
        return
    for key, value in items:
        yield from _made(value, f"{pointer}/{str(key).replace('~', '~0').replace('/', '~1')}")


def _kept(file: str) -> Json:
    return json.loads((HERE / f"{file}.json").read_text(encoding="utf-8"))


def build() -> dict[str, Json]:
    """Every schema (``FILES``, by name) as kept, with the parts made from the code in place. A part
    kept that no function makes any more (a game gone) is left out."""
    docs = {file: _kept(file) for file in FILES}
    placed = set()
    for p in PARTS:
        value = p.make()
        values = value.items() if "{}" in p.pointer else [(None, value)]
        for key, one in values:
            pointer = p.pointer if key is None else p.pointer.replace("{}", key)
            if isinstance(one, dict):
                one = {"$comment": COMMENT.format(source=p.source), **one}
            node, key = _parent(docs[p.file], pointer)
            node[key] = one
            placed.add((p.file, pointer))
    placed |= _bundle(docs)
    for file, doc in docs.items():
        for pointer in list(_made(doc)):
            if (file, pointer) not in placed:
                node, key = _parent(doc, pointer)
                del node[key]
    return docs


def _bundle(docs: dict[str, Json]) -> set[tuple[str, str]]:
    """The OpenAPI document made to stand alone: common.json's definitions copied under its
    ``components.schemas`` (their references to each other made local to it), and each of its
    references to common.json made one to the copy. Returns where the copies went."""
    openapi = rewrite_refs(docs["openapi"], ((COMMON, COMPONENTS),))
    docs["openapi"] = openapi
    schemas = openapi["components"]["schemas"]
    placed = set()
    for name, schema in rewrite_refs(docs["common"]["$defs"], ((LOCAL, COMPONENTS),)).items():
        kept = schemas.get(name)
        if kept is not None and not list(_made(kept)) == [""]:
            raise ValueError(f"openapi.json and common.json both define {name!r}: a reference would mean two things")
        body = {k: v for k, v in schema.items() if k != "$comment"}
        copied = COMMENT[: COMMENT.index("{")] + f"common.json#/$defs/{name}: change it there, then run it."
        schemas[name] = {"$comment": copied, **body}
        placed.add(("openapi", "/components/schemas/" + name.replace("~", "~0").replace("/", "~1")))
    return placed


def text(doc: Json) -> str:
    """A schema as the files keep it."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _marks(name: str) -> tuple[str, str]:
    return f"<!-- made by {COMMAND}: {name} -->", f"<!-- end of {name} -->"


def _with_blocks(path: Path, blocks: list[Block]) -> str:
    out = path.read_text(encoding="utf-8")
    for b in blocks:
        begin, end = _marks(b.name)
        start, stop = out.find(begin), out.find(end)
        if start < 0 or stop < start:
            raise ValueError(f"{b.doc} has no block {b.name!r}: put {begin} and {end} where it goes")
        out = out[: start + len(begin)] + "\n" + b.make() + "\n" + out[stop:]
    return out


def outputs() -> dict[Path, str]:
    """Every file this writes, with what it must hold: the schemas, and the docs when the checkout is here."""
    out = {HERE / f"{file}.json": text(doc) for file, doc in build().items()}
    if (ROOT / "docs").is_dir():
        for doc in dict.fromkeys(b.doc for b in BLOCKS):
            out[ROOT / doc] = _with_blocks(ROOT / doc, [b for b in BLOCKS if b.doc == doc])
    return out


def stale() -> list[str]:
    """The files that differ from what this builds (paths from the checkout's root)."""
    return [str(path.relative_to(ROOT)) for path, want in outputs().items() if path.read_text(encoding="utf-8") != want]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file differs")
    args = parser.parse_args(argv)
    if args.check:
        differ = stale()
        for name in differ:
            print(f"{name} is not what {COMMAND} makes")
        return 1 if differ else 0
    for path, want in outputs().items():
        if path.read_text(encoding="utf-8") != want:
            path.write_text(want, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
