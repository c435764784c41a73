"""Who is online and where, and the invitations waiting for them: what a friends list shows.

A person is online while a socket of theirs is open with their identity (``hello``, or a table
joined from a seat of theirs); where they are is the table that socket has joined. An invitation
from a friend waits ``INVITATION_SECONDS`` for its guest, shown on every page of theirs at once
(pushed to their open sockets) and to a page that opens later.

This process's presence: what several processes share goes through the hub's notes (a note to
every process, each telling its own sockets).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

INVITATION_SECONDS = 600

Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass
class Socket:
    send: Send
    table: dict[str, Any] | None = None  # {"id", "variant"} of the table the socket joined


@dataclass
class Presence:
    """The sockets of each identity in this process, and their invitations."""

    clock: Callable[[], float] = time.time
    sockets: dict[str, dict[int, Socket]] = field(default_factory=dict)
    invited: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def arrive(self, player: str, key: int, send: Send) -> None:
        self.sockets.setdefault(player, {})[key] = Socket(send)

    def at_table(self, player: str, key: int, table: dict[str, Any] | None) -> None:
        socket = self.sockets.get(player, {}).get(key)
        if socket is not None:
            socket.table = table

    def leave(self, player: str, key: int) -> None:
        held = self.sockets.get(player)
        if held is not None:
            held.pop(key, None)
            if not held:
                del self.sockets[player]

    async def where(self, player: str) -> dict[str, Any]:
        """``{"online": bool, "table": {"id", "variant"} or None}``."""
        held = self.sockets.get(player)
        if not held:
            return {"online": False, "table": None}
        table = next((s.table for s in held.values() if s.table is not None), None)
        return {"online": True, "table": table}

    def invitations(self, player: str) -> list[dict[str, Any]]:
        now = self.clock()
        kept = [i for i in self.invited.get(player, []) if i["expires"] > now]
        if kept:
            self.invited[player] = kept
        else:
            self.invited.pop(player, None)
        return kept

    async def invite(self, guest: str, invitation: dict[str, Any]) -> int:
        """Keep an invitation for ``guest`` and push it to their sockets; how many sockets heard it."""
        invitation = {**invitation, "expires": self.clock() + INVITATION_SECONDS}
        held = [i for i in self.invitations(guest) if i.get("table") != invitation.get("table")]
        self.invited[guest] = [*held, invitation][-10:]
        told = 0
        for socket in list(self.sockets.get(guest, {}).values()):
            try:
                await socket.send({"type": "invited", **invitation})
                told += 1
            except Exception:  # a socket closing: its page reads the invitation when it opens again
                continue
        return told
