"""Research environments for every game: PettingZoo (all seats) and Gymnasium (one seat against bots).

Installed with the extra ``belote[rl]`` (numpy, gymnasium, pettingzoo); the rules engine never
imports this package. docs/env.md tells the observation, the actions, the rewards and the options.
"""

from gymnasium.envs.registration import register

from belote.env.aec import BeloteEnv, env, parallel_env, raw_env
from belote.env.encoding import ACTIONS, FIELDS, OBS_SIZE, action_mask, encode, field

#: ``gymnasium.make("belote/Belote-v0", game=..., seat=..., bot=...)``: one seat against the bots.
register(id="belote/Belote-v0", entry_point="belote.env.single:BeloteSingleEnv")

__all__ = [
    "ACTIONS",
    "FIELDS",
    "OBS_SIZE",
    "BeloteEnv",
    "action_mask",
    "encode",
    "env",
    "field",
    "parallel_env",
    "raw_env",
]
