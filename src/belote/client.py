"""A bot at a server's table: the websocket client an outside bot plays through (docs/protocol.md).

The host of a private table asks for a bot seat (``seat_bot``, or ``{"type": "bot_seat"}`` from the
page's socket) and gets a seat token; the bot joins with it (``TableBot``) and answers each state in
which it is to move with the action of a ``Bot`` (any of ``belote.bots``, or an outside program
through ``belote.bot_protocol.ExecBot``) or of a function of the view. The server marks the seat as
a bot's in ``players`` and does not wait for it to read a deal's score.

    import asyncio
    from belote.bots import make_bot
    from belote.client import TableBot

    asyncio.run(TableBot("ws://127.0.0.1:8000/ws", table, token, make_bot("heuristic")).play())

A decision runs in a thread of its own (a search bot thinks for a second), so the connection keeps
answering the server meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from websockets.asyncio.client import ClientConnection, connect

from belote.actions import Action, action_str
from belote.view import PlayerView

log = logging.getLogger(__name__)

State = dict[str, Any]


class Decides(Protocol):
    """What can play a seat: a ``Bot``, with its ``act``."""

    def act(self, view: PlayerView) -> Action: ...


#: A bot, or a function from the view to an action (or its text: ``"JH"``, ``"pass"``).
Player = Decides | Callable[[PlayerView], Action | str]


class TableError(Exception):
    """The server refused to seat the bot: its ``code`` (docs/protocol.md, Refusals) and words."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message, code)
        self.code = code

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass
class Played:
    """What a bot's match at a table came to: its last state, and the refusals it got (each a
    ``{"message", "code", "args"}``)."""

    state: State
    actions: int = 0
    refusals: list[dict[str, Any]] = field(default_factory=list)


def _text(action: Action | str) -> str:
    return action if isinstance(action, str) else action_str(action)


async def _state(ws: ClientConnection) -> State:
    """The next ``state`` message; an ``error`` before it is raised (a join refused)."""
    while True:
        msg = json.loads(await ws.recv())
        if msg.get("type") == "error":
            raise TableError(msg.get("message", ""), msg.get("code", ""))
        if msg.get("type") == "state":
            return dict(msg)


async def seat_bot(url: str, table: str, host_token: str, name: str, seat: str | None = None) -> tuple[str, str]:
    """As the host of the private table ``table`` (in its lobby), give a free seat (a letter, or None
    for the first free one) to a bot called ``name``: the bot's seat token and its seat."""
    async with connect(url, open_timeout=10) as ws:
        await ws.send(json.dumps({"type": "join", "table": table, "token": host_token, "since": -1}))
        await _state(ws)
        await ws.send(json.dumps({"type": "bot_seat", "name": name, "seat": seat}))
        while True:
            msg = json.loads(await ws.recv())
            if msg.get("type") == "error":
                raise TableError(msg.get("message", ""), msg.get("code", ""))
            if msg.get("type") == "bot_token":
                return str(msg["token"]), str(msg["seat"])


class TableBot:
    """One bot in one seat of one table, from its join to the end of the match."""

    def __init__(self, url: str, table: str, token: str, player: Player) -> None:
        self.url = url
        self.table = table
        self.token = token
        self.player = player

    def decide(self, view: PlayerView) -> str:
        act = getattr(self.player, "act", None)
        choice = act(view) if act is not None else self.player(view)  # type: ignore[operator]
        return _text(choice)

    async def play(self, until_over: bool = True) -> Played:
        """Join and play; returns at the end of the match (``until_over``), or when the server closes
        the connection. A refused action is kept in ``Played.refusals``: the table's turn timer
        then lets a stand-in play the seat, and the bot plays on at its next turn."""
        async with connect(self.url, open_timeout=10, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "join", "table": self.table, "token": self.token, "since": -1}))
            state = await _state(ws)
            played = Played(state)
            answered: tuple[Any, ...] | None = None
            while True:
                view = state.get("view")
                if until_over and view is not None and view["match_over"]:
                    return played
                position = _position(state)
                if position is not None and position != answered:
                    answered = position
                    action = await asyncio.to_thread(self.decide, PlayerView.from_json(view))  # type: ignore[arg-type]
                    await ws.send(json.dumps({"type": "act", "action": action}))
                    played.actions += 1
                while True:
                    msg = json.loads(await ws.recv())
                    if msg.get("type") == "state":
                        state = played.state = msg
                        break
                    if msg.get("type") == "error" and msg.get("code") != "waiting_for_others":
                        log.warning("the server refused an action: %s", msg.get("message"))
                        played.refusals.append({k: msg.get(k) for k in ("message", "code", "args")})


def _position(state: State) -> tuple[Any, ...] | None:
    """The position to answer in ``state``, or None when it is not this seat's turn to act (the
    game not started, another's turn, the next deal waiting for people to read the score)."""
    view = state.get("view")
    if view is None or state.get("status") != "playing" or state.get("waiting") is not None:
        return None
    if view["to_move"] != state.get("seat") or not view["legal"]:
        return None
    return (view["deal_number"], len(view["bids"]), len(view["tricks"]), len(view["trick"]))


__all__ = ["Played", "Player", "TableBot", "TableError", "seat_bot"]
