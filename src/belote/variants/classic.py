"""The classic game of seed 000: four players in two partnerships, a turned card, two rounds of taking."""

from __future__ import annotations

from belote.variants.base import Variant


class Classic(Variant):
    name = "classic"
    title = "the classic game"
