"""Who is online and where, and the invitations waiting for them: what a friends list shows.

A person is online while a socket of theirs is open with their identity (``hello``, or a table
joined from a seat of theirs); where they are is the table that socket has joined. An invitation
from a friend waits ``INVITATION_SECONDS`` for its guest: pushed at once to every open socket of
theirs (``invited``) and to each one that says hello later, and read by a page that opens later
(``GET /api/me``).

Each process knows its own sockets and tells the others through the hub's notes, on the channel
``CHANNEL`` (not a table's id): who came online or left, and at which table (said again every
``REFRESH`` seconds, so what a process that died said is forgotten after ``STALE``); and each
invitation, which every process keeps for the guest and pushes to the guest's sockets it holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from belote.server import tasks
from belote.server.hub import Bus, Note

log = logging.getLogger("belote.presence")

INVITATION_SECONDS = 600
CHANNEL = "~players"
REFRESH = 30.0
STALE = 3 * REFRESH
#: Invitations kept per guest (the last ones).
KEPT = 10

Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass
class Socket:
    send: Send
    table: dict[str, Any] | None = None  # {"id", "variant"} of the table the socket joined


class Presence:
    """The sockets of each identity in this process, what the others said of theirs, and invitations."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.bus: Bus | None = None
        self.shared = False
        self.sockets: dict[str, dict[int, Socket]] = {}
        self.remote: dict[str, dict[str, tuple[float, dict[str, Any] | None]]] = {}
        self.invited: dict[str, list[dict[str, Any]]] = {}
        self._task: asyncio.Task[None] | None = None

    def start(self, bus: Bus, shared: bool) -> None:
        """Hear and tell the other processes (a hub's bus; ``shared``: whether there are others), and
        say again who is here now and then."""
        self.bus, self.shared = bus, shared
        bus.listen(self._on_note)
        self._task = asyncio.get_running_loop().create_task(self._refresh(), name="presence")

    async def close(self) -> None:
        await tasks.stop(self._task)

    # ----------------------------------------------------------------- this process's sockets
    async def arrive(self, player: str, key: int, send: Send) -> None:
        """A socket of ``player``'s (said again by the same socket: where it is stays as it was). A new
        one is sent the invitations kept for the player: one made while its page was opening, after
        the page read them (``GET /api/me``) and before this hello, reaches it too."""
        held = self.sockets.setdefault(player, {})
        if key not in held:
            held[key] = Socket(send)
            await self._tell(player)
            for invitation in self.invitations(player):
                with contextlib.suppress(Exception):  # a socket closing: its page reads them when it opens again
                    await send({"type": "invited", **invitation})

    async def at_table(self, player: str, key: int, table: dict[str, Any] | None) -> None:
        socket = self.sockets.get(player, {}).get(key)
        if socket is not None and socket.table != table:
            socket.table = table
            await self._tell(player)

    async def leave(self, player: str, key: int) -> None:
        held = self.sockets.get(player)
        if held is not None and held.pop(key, None) is not None:
            if not held:
                del self.sockets[player]
            await self._tell(player)

    def _here(self, player: str) -> tuple[bool, dict[str, Any] | None]:
        held = self.sockets.get(player)
        if not held:
            return False, None
        return True, next((s.table for s in held.values() if s.table is not None), None)

    async def _tell(self, player: str) -> None:
        if self.bus is None or not self.shared:
            return
        online, table = self._here(player)
        note = {"kind": "online", "player": player, "from": self.bus.process, "online": online, "table": table}
        with contextlib.suppress(Exception):  # Redis away: said again at the next refresh
            await self.bus.publish(CHANNEL, note)

    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(REFRESH)
            for player in list(self.sockets):
                await self._tell(player)

    # ----------------------------------------------------------------- what people read
    async def where(self, player: str) -> dict[str, Any]:
        """``{"online": bool, "table": {"id", "variant"} or None}``, in any process."""
        online, table = self._here(player)
        now = self.clock()
        for at, there in self.remote.get(player, {}).values():
            if now - at <= STALE:
                online = True
                table = table or there
        return {"online": online, "table": table}

    def invitations(self, player: str) -> list[dict[str, Any]]:
        now = self.clock()
        return self._keep(player, [i for i in self.invited.get(player, []) if i["expires"] > now])

    def _keep(self, player: str, kept: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Keep these invitations of ``player`` (none: forget the player)."""
        if kept:
            self.invited[player] = kept
        else:
            self.invited.pop(player, None)
        return kept

    async def invite(self, guest: str, invitation: dict[str, Any]) -> None:
        """Keep an invitation for ``guest`` in every process and push it to their sockets."""
        invitation = {**invitation, "expires": self.clock() + INVITATION_SECONDS}
        if self.bus is not None:
            await self.bus.publish(CHANNEL, {"kind": "invited", "guest": guest, "invitation": invitation})
        else:
            await self._invited(guest, invitation)

    async def seated(self, guest: str, table: str) -> None:
        """``guest`` sat at ``table``: its invitation is no longer shown, in any process."""
        if self.bus is not None:
            await self.bus.publish(CHANNEL, {"kind": "seated", "guest": guest, "table": table})
        else:
            self._seated(guest, table)

    def _seated(self, guest: str, table: str) -> None:
        self._keep(guest, [i for i in self.invitations(guest) if i.get("table") != table])

    async def _invited(self, guest: str, invitation: dict[str, Any]) -> None:
        held = [i for i in self.invitations(guest) if i.get("table") != invitation.get("table")]
        self.invited[guest] = [*held, invitation][-KEPT:]
        for socket in list(self.sockets.get(guest, {}).values()):
            with contextlib.suppress(Exception):  # a socket closing: its page reads it when it opens again
                await socket.send({"type": "invited", **invitation})

    async def _on_note(self, table_id: str, note: Note) -> None:
        if table_id != CHANNEL:
            return
        kind = note.get("kind")
        if kind == "invited" and isinstance(note.get("guest"), str) and isinstance(note.get("invitation"), dict):
            await self._invited(note["guest"], note["invitation"])
        elif kind == "seated" and isinstance(note.get("guest"), str) and isinstance(note.get("table"), str):
            self._seated(note["guest"], note["table"])
        elif kind == "online" and self.bus is not None and note.get("from") != self.bus.process:
            player, process = note.get("player"), note.get("from")
            if not isinstance(player, str) or not isinstance(process, str):
                return
            seen = self.remote.setdefault(player, {})
            if note.get("online"):
                seen[process] = (self.clock(), note.get("table"))
            else:
                seen.pop(process, None)
                if not seen:
                    del self.remote[player]
