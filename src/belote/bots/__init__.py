"""The bots: random, heuristic (the strategy of seed 000), search (sampling and a double-dummy solver),
and learned (a policy network trained on the search bot's play).

Every bot is made by name through this registry (``make_bot``); ``register`` adds another.

>>> from belote.game import Match
>>> m = Match(seed=3)
>>> make_bot("heuristic", seed=1).act(m.view(m.to_move)) in m.legal_actions()
True
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from belote.bots.base import Bot, RandomBot
from belote.bots.heuristic import HeuristicBot
from belote.bots.search import SearchBot

__all__ = ["EXEC", "Bot", "BotFactory", "RandomBot", "bot_names", "bot_options", "make_bot", "register"]

BotFactory = Callable[..., Bot]


def _learned(seed: int | None = None, temperature: float = 0.0) -> Bot:
    """The learned bot (``belote.bots.learned``), loaded with numpy when first made."""
    from belote.bots.learned import LearnedBot

    return LearnedBot(seed=seed, temperature=temperature)


_REGISTRY: dict[str, BotFactory] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
    "learned": _learned,
}


def register(name: str, factory: BotFactory) -> None:
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    return sorted(_REGISTRY)


def bot_options(name: str) -> list[str]:
    """The options a built-in bot's constructor names (besides ``seed``), e.g. ``search``'s ``worlds``."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"no bot named {name!r}; the bots are: {', '.join(sorted(_REGISTRY))}") from None
    params = inspect.signature(factory).parameters.values()
    return [p.name for p in params if p.name != "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


#: The prefix of a bot that is a program speaking the line protocol (``exec:python mybot.py``).
EXEC = "exec:"


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot by name (``random``, ``heuristic``, ``search``...), or a program behind the line protocol
    (``exec:COMMAND``, ``belote.bot_protocol``); options go to its constructor."""
    if name.startswith(EXEC):
        from belote.bot_protocol import ExecBot

        return ExecBot(name[len(EXEC) :], seed=seed, **options)
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"no bot named {name!r}; the bots are: {', '.join(sorted(_REGISTRY))}") from None
    return factory(seed=seed, **options)
