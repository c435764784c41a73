"""What every bot is: something that, shown a player's view, chooses one of its legal actions.

A bot sees only a ``PlayerView`` (its own hand and what is public), so it cannot cheat: the
tests re-deal the hidden cards consistently with the view and require the same decision.

>>> from belote.game import Match
>>> m = Match(seed=3)
>>> bot = RandomBot(seed=1)
>>> bot.act(m.view(m.to_move)) in m.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from belote.game import Action, PlayerView


class Bot(Protocol):
    """A player. ``act`` is called only for the seat to move, with that seat's view."""

    name: str

    def act(self, view: PlayerView) -> Action: ...


class RandomBot:
    """Uniformly random legal actions (seeded)."""

    name = "random"

    def __init__(self, seed: int | None = None, **_: Any) -> None:
        self.rng = random.Random(seed)

    def act(self, view: PlayerView) -> Action:
        return view.legal[self.rng.randrange(len(view.legal))]
