"""The published schemas as validators: each schema placed where a program fetching them from
``/api/schemas/`` finds it, so that one refers to another by a name relative to its own."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from belote import schemas

BASE = "https://belote.invalid/api/schemas/"
REGISTRY: Registry[Any] = Registry().with_resources(
    (f"{BASE}{name}.json", Resource.from_contents(schemas.load(name), DRAFT202012)) for name in schemas.NAMES
)


def validator(name: str, pointer: str = "") -> Draft202012Validator:
    """The reference validator of schema ``name`` (one of ``schemas.NAMES``), or of one of its parts."""
    return Draft202012Validator({"$ref": f"{BASE}{name}.json{pointer}"}, registry=REGISTRY)
