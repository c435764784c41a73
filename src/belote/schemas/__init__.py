"""The published schemas: JSON Schema (draft 2020-12) of the deal record, its replay and every websocket
message, and the OpenAPI 3.1 document of the HTTP routes (docs/schemas.md).

They are the JSON files of this folder, kept in the repository: the server serves them (``GET
/api/schemas/NAME.json``, ``GET /api/openapi.json``), the tests validate the vector records and every message
of scripted games against them, and a program in another language reads them as they are. The message shapes
are written by hand; what the code's registries say (the games, the rule options and settings, the refusal
codes and their args) is made from them by ``python -m belote.schemas.build`` (``belote.schemas.build``),
which the tests hold the files to. The schemas refer to the
definitions they share as ``common.json#/$defs/...``, which resolves next to them wherever they are
served or kept. The OpenAPI document stands alone, as kept and as served (``openapi()``): the build copies
those definitions under its ``components.schemas``, so that a tool needs the one document.

>>> sorted(load("common")["$defs"])[:3]
['action', 'bid', 'bidContract']
>>> doc = openapi()
>>> doc["openapi"], doc["components"]["schemas"]["seat"]["enum"]
('3.1.0', ['N', 'E', 'S', 'W'])
>>> any("common.json" in ref for ref in refs(doc))
False
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

#: The JSON Schemas, by name (each one is the file ``NAME.json`` here).
NAMES = ("common", "deal-record", "deal-replay", "client-message", "server-message", "analysis", "problem")
COMMON = "common.json#/$defs/"
LOCAL = "#/$defs/"
COMPONENTS = "#/components/schemas/"


@cache
def _text(file: str) -> str:
    return resources.files(__package__).joinpath(file).read_text(encoding="utf-8")


def text(name: str) -> str:
    """The file of schema ``name`` as it is kept (``name`` one of ``NAMES``, or ``openapi``)."""
    if name not in (*NAMES, "openapi"):
        raise KeyError(name)
    return _text(f"{name}.json")


def load(name: str) -> dict[str, Any]:
    """Schema ``name`` (one of ``NAMES``, or ``openapi`` as kept, before bundling), a fresh copy."""
    data: dict[str, Any] = json.loads(text(name))
    return data


def rewrite_refs(value: Any, prefixes: tuple[tuple[str, str], ...]) -> Any:
    """``value`` with each ``$ref`` that starts with one of the prefixes given the other one instead."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k == "$ref" and isinstance(v, str):
                for old, new in prefixes:
                    if v.startswith(old):
                        v = new + v[len(old) :]
                        break
            out[k] = rewrite_refs(v, prefixes)
        return out
    if isinstance(value, list):
        return [rewrite_refs(v, prefixes) for v in value]
    return value


def refs(value: Any) -> Iterator[str]:
    """Every ``$ref`` in a schema."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "$ref" and isinstance(v, str):
                yield v
            else:
                yield from refs(v)
    elif isinstance(value, list):
        for v in value:
            yield from refs(v)


def openapi() -> dict[str, Any]:
    """The OpenAPI document, as kept and served: it stands alone, common.json's definitions copied
    under ``components.schemas`` by ``python -m belote.schemas.build``."""
    return load("openapi")
