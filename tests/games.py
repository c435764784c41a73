"""The games a test of every game iterates: the registry, never a list typed here.

A test that means every game takes its games from ``GAMES`` (the names of ``belote.variants.VARIANTS``)
and asks each for its facts (``VARIANTS[name].players``, ``.seats``, ``.contracts``...), so that a
game added to the registry is tested by every such test. Where a test holds concrete values for each
game, ``of_game`` reads them and fails for a registered game that has none: a new game cannot pass
untested.

>>> GAMES[:2]
('classic', 'coinche')
>>> of_game({"classic": 162}, "classic")
162
>>> one_of_each(lambda game: game.auction)
('classic', 'coinche')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

import pytest

from belote.rules import Rules
from belote.variants import VARIANTS, Variant

T = TypeVar("T")

#: Every game, in the registry's order.
GAMES: tuple[str, ...] = tuple(VARIANTS)
#: Every game but the one of the default rules (the classic game), for the tests of the games
#: beside it where the default rules are tested on their own.
OTHER_GAMES: tuple[str, ...] = tuple(g for g in GAMES if g != Rules().variant)


def of_game(values: Mapping[str, T], game: str) -> T:
    """The value this test expects for ``game``; a failure naming the game where none is written."""
    if game not in values:
        pytest.fail(f"no expected value for the game {game!r} here: write down what it must give")
    return values[game]


def one_of_each(fact: Callable[[Variant], object]) -> tuple[str, ...]:
    """The first game of each value of ``fact``: a test too long to run in every game runs in one of
    each kind (``one_of_each(lambda g: g.auction)``: one of each auction)."""
    first: dict[object, str] = {}
    for name, game in VARIANTS.items():
        first.setdefault(fact(game), name)
    return tuple(first.values())
