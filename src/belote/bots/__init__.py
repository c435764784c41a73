"""The bots: random, heuristic (the strategy of seed 000), and search (sampling and a double-dummy solver)."""

from belote.bots.base import Bot, RandomBot, bot_names, make_bot, register

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "register"]
