"""The games, one module each, and their registry.

>>> find_variant("coinche").players, find_variant("three-handed").team_names
(4, ('N', 'E', 'S'))
>>> find_variant("four-handed")
Traceback (most recent call last):
...
belote.variants.UnknownVariant: no game 'four-handed'; the games are: classic, coinche, three-handed, two-handed
"""

from __future__ import annotations

from belote.variants.base import SEATS, Tally, Variant
from belote.variants.classic import Classic
from belote.variants.coinche import Coinche
from belote.variants.three import ThreeHanded
from belote.variants.two import TwoHanded

__all__ = ["DEFAULT_GAME", "SEATS", "VARIANTS", "Tally", "UnknownVariant", "Variant", "find_variant"]

#: Every game, by name, in the order pages list them.
VARIANTS: dict[str, Variant] = {v.name: v for v in (Classic(), Coinche(), ThreeHanded(), TwoHanded())}
#: The game played when none is named: the rules' default (``Rules.variant``), a queue's, a table's.
DEFAULT_GAME: str = Classic.name


class UnknownVariant(ValueError):
    """A game name that no module of ``belote.variants`` plays."""


def find_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise UnknownVariant(f"no game {name!r}; the games are: {', '.join(VARIANTS)}") from None
