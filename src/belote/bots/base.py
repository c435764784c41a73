"""What every bot is: something that, shown a player's view, chooses one of its legal actions.

A bot sees only a ``PlayerView`` (its own hand and what is public), so it cannot cheat: the
tests re-deal the hidden cards consistently with the view and require the same decision.

>>> from belote.game import Match
>>> m = Match(seed=3)
>>> bot = make_bot("random", seed=1)
>>> bot.act(m.view(m.to_move)) in m.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
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


BotFactory = Callable[..., Bot]
_REGISTRY: dict[str, BotFactory] = {"random": RandomBot}


def register(name: str, factory: BotFactory) -> None:
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    _load_all()
    return sorted(_REGISTRY)


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot by name (``random``, ``heuristic``, ``search``...); options go to its constructor."""
    _load_all()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"no bot named {name!r}; the bots are: {', '.join(sorted(_REGISTRY))}") from None
    return factory(seed=seed, **options)


def _load_all() -> None:
    # Each bot module registers itself on import; they import this module, so they are loaded late.
    import belote.bots.heuristic
    import belote.bots.search  # noqa: F401
