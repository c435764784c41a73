"""Hints at a solo table: the search bot's card (or bid) for the person's seat, from their view alone.

A ``hint`` message goes through the room first (``room.Hint``): the room refuses it but at a solo
table with the setting ``hints`` on, at the person's turn, and counts it in the table's meta, so the
count is stored with the table and survives a reload. The answer is then worked out in the bot
workers (``Thinker.hint``) from ``Match.view(seat)``, the very view the seat is sent, never from the
match's hidden hands, while the socket stays free (the person may play meanwhile). It is sent to the
asking client alone, and only if the table has not moved on: a hint for a position gone by is dropped.

A hint is about a second of a worker's time, so a person gets them one at a time, however many
sockets they open: another asked for the seat meanwhile is refused (``hint_busy``, ``Table.hint_busy``);
and a client address gets ``--hints-per-minute`` (``too_many``: ``slow_down``). The answer is
worked out in the turn of the asking address in the workers' fair queue, which its people's
bots share: a person asking for hints without end delays their own table, nobody else's.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from belote.bots import Bot, make_bot
from belote.game import SEATS, PlayerView, Refusal

if TYPE_CHECKING:
    from belote.server.tables import Client, Table

log = logging.getLogger("belote.server")

#: The hint's search bot thinks as the table's *normal* bots do (about a second a card on one core).
HINT_BOT = ("search", {"think": 1.0})


def answer(table: Table, client: Client, seat: int) -> asyncio.Future[None]:
    """The answer to the hint the room just took from ``seat`` (``room.Hinted``), worked out by a task
    of its own from the seat's view and sent to ``client`` alone."""
    match = table.match
    assert match is not None  # the room refuses a hint without a match
    view = match.view(seat)
    name, options = HINT_BOT
    bot = make_bot(name, seed=table.meta.seed * 7 + seat, **options)
    return asyncio.ensure_future(_answer(table, client, bot, view, table.n_actions))


async def _answer(table: Table, client: Client, bot: Bot, view: PlayerView, at: int) -> None:
    assert view.seat is not None
    try:
        answer = await table.config.thinker.hint(bot, view, client.owner)
    except Exception:  # a hint must never stop the table: say the server could not
        log.exception("a hint failed at %s", SEATS[view.seat])
        failed = Refusal("the hint could not be worked out: try again", "server_error")
        await client.send({"type": "error", **failed.to_json()})
        return
    if table.n_actions != at or client not in table.clients:
        return  # the table moved on (or the client left): the hint is for a position gone by
    await client.send({"type": "hint", "table": table.id, "seat": SEATS[view.seat], "at": at, **answer})
