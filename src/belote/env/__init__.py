"""Research environments for every game: PettingZoo (all seats) and Gymnasium (one seat against bots).

Installed with the extra ``belote[rl]`` (numpy, gymnasium, pettingzoo); the rules engine never
imports this package. docs/env.md tells the observation, the actions, the rewards and the options.

The observation (``belote.env.encoding``) needs numpy alone: a bot that reads it (``learned``) runs
on the base install. The environments load PettingZoo when first asked for (``belote.env.env``...),
and importing this package registers ``belote/Belote-v0`` with Gymnasium when it is installed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from belote.env.encoding import ACTIONS, FIELDS, OBS_SIZE, action_mask, encode, field
from belote.rules import Rules


def make_rules(game: str | None, rules: Rules | dict[str, Any] | None) -> Rules:
    """The rules of an environment: a ``Rules``, a dict of options, and/or the game's name."""
    base = rules if isinstance(rules, Rules) else Rules.from_dict(dict(rules or {}))
    if game is not None and game != base.variant:
        base = replace(base, variant=game)
    return base


try:
    from gymnasium.envs.registration import register
except ImportError:  # the observation without the environments: nothing to register
    pass
else:
    #: ``gymnasium.make("belote/Belote-v0", game=..., seat=..., bot=...)``: one seat against the bots;
    #: ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``: many, stepped in C.
    register(
        id="belote/Belote-v0",
        entry_point="belote.env.single:BeloteSingleEnv",
        vector_entry_point="belote.env.vector:BatchVectorEnv",
    )

_ENVIRONMENTS = ("BeloteEnv", "env", "parallel_env", "raw_env")


def __getattr__(name: str) -> Any:
    """The environments (``belote.env.aec``), loaded with PettingZoo when first named."""
    if name in _ENVIRONMENTS:
        from belote.env import aec

        return getattr(aec, name)
    raise AttributeError(f"module 'belote.env' has no attribute {name!r}")


__all__ = [
    "ACTIONS",
    "FIELDS",
    "OBS_SIZE",
    "BeloteEnv",
    "action_mask",
    "encode",
    "env",
    "field",
    "make_rules",
    "parallel_env",
    "raw_env",
]
