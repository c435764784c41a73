"""A hint: the action a bot would choose from one seat's view, with what it expects of the best cards.

The hint is made from a ``PlayerView`` and nothing else (the seat's hand, what was played and bid,
the contract): what a person at the table could work out, never the hands they cannot see. The
search bot (``SearchBot.card_evaluation``) gives its card and the mean, over the worlds it solved,
of the seat's side's points less the other side's for each legal card; the hint keeps the best
``BEST`` of those means. In the bidding, and wherever the bot solves no world (a forced card, the
first tricks at two hands), the hint is the bot's action alone.

>>> from belote.bots.search import SearchBot
>>> from belote.game import Deal
>>> deal = Deal.from_seed(3)
>>> hint(deal.view(deal.to_move), SearchBot(1))["phase"]
'bidding'
"""

from __future__ import annotations

from typing import Any

from belote.analysis import rounded
from belote.bots import Bot
from belote.cards import CARDS
from belote.game import PLAY, PlayerView, action_str

#: How many cards a hint values: the best three, as a player weighs their choices.
BEST = 3


def hint(view: PlayerView, bot: Bot) -> dict[str, Any]:
    """The hint of ``bot`` for the seat of ``view``: ``{"phase", "action", "best", "worlds"}``.

    ``best`` lists up to ``BEST`` legal cards, best first, each ``{"action": "JH", "points": 31.5}``
    (the mean margin in the deal's points, card points, belote, capot and a contract's outcome
    included), empty when the bot gave no values; ``worlds`` is how many deals it solved for them.
    """
    evaluate = getattr(bot, "card_evaluation", None)
    if view.phase != PLAY or evaluate is None:
        return {"phase": view.phase, "action": action_str(bot.act(view)), "best": [], "worlds": 0}
    choice, means, worlds = evaluate(view)
    best: list[dict[str, Any]] = []
    if means is not None:
        # Best first; the bot's own card first among equals (it breaks ties by good practice).
        ranked = sorted(means, key=lambda c: (-means[c], c != choice, int(c)))
        best = [{"action": str(CARDS[c]), "points": rounded(round(means[c], 1))} for c in ranked[:BEST]]
    return {"phase": view.phase, "action": str(CARDS[choice]), "best": best, "worlds": worlds}


__all__ = ["BEST", "hint"]
