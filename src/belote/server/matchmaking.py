"""*Play online*: a queue of players; four make a table, and after a wait bots fill the empty seats.

The queue lives in the hub, so in a shared hub the players waiting on every process are one queue;
whichever process forms a table tells the processes of the players seated (``tell_process``), and
those send them their seat tokens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from belote.game import SEATS
from belote.server.hub import Hub, Note
from belote.server.tables import Send, TableManager, new_token

log = logging.getLogger("belote.matchmaking")


class Matchmaker:
    def __init__(self, hub: Hub, manager: TableManager, wait: float) -> None:
        self.hub = hub
        self.manager = manager
        self.wait = wait
        self.local: dict[str, Send] = {}  # the entries of this process's connections
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._last_count: int | None = None
        hub.listen(self._on_note)

    async def join(self, name: str, send: Send) -> str:
        entry = new_token()
        self.local[entry] = send
        await self.hub.queue_add(entry, {"name": name, "process": self.hub.process, "joined": time.time()})
        await self.match_now()
        await self.announce(force=True)
        return entry

    async def leave(self, entry: str) -> None:
        if self.local.pop(entry, None) is not None:
            await self.hub.queue_remove([entry])
            await self.announce(force=True)

    def start(self, every: float = 0.25) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(every), name="matchmaking")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self, every: float) -> None:
        while True:
            try:
                if self.local:
                    await self.hub.queue_touch(list(self.local))
                await self.match_now()
                await self.announce()
            except Exception:
                log.exception("matchmaking round failed")
            await asyncio.sleep(every)

    async def match_now(self) -> None:
        """Seat four waiting players together; after the wait, seat whoever waits longest with bots."""
        async with self._lock, self.hub.queue_lock():
            entries = await self.hub.queue_entries()
            waiting = sorted(entries.items(), key=lambda kv: (kv[1]["joined"], kv[0]))
            now = time.time()
            while waiting and (len(waiting) >= 4 or now - waiting[0][1]["joined"] >= self.wait):
                group, waiting = waiting[:4], waiting[4:]
                await self.hub.queue_remove([e for e, _ in group])
                table, given = await self.manager.create_online([d["name"] for _, d in group])
                log.info("queue: table %s for %d players", table.id[:6], len(group))
                for (entry, data), (token, seat) in zip(group, given, strict=True):
                    note = {"kind": "matched", "entry": entry, "table": table.id, "token": token, "seat": SEATS[seat]}
                    await self.hub.tell_process(data["process"], note)

    async def announce(self, force: bool = False) -> None:
        """Tell this process's waiting players how many wait and how long before bots fill the table."""
        if not self.local:
            self._last_count = None
            return
        entries = await self.hub.queue_entries()
        if not force and len(entries) == self._last_count:
            return
        self._last_count = len(entries)
        oldest = min((d["joined"] for d in entries.values()), default=time.time())
        left = max(0.0, self.wait - (time.time() - oldest))
        msg: dict[str, Any] = {"type": "queue", "waiting": len(entries), "wait": self.wait, "left_ms": int(left * 1000)}
        for send in list(self.local.values()):
            with contextlib.suppress(Exception):
                await send(msg)

    async def _on_note(self, table_id: str, note: Note) -> None:
        if note.get("kind") != "matched":
            return
        send = self.local.pop(note["entry"], None)
        if send is None:
            return
        msg = {"type": "matched", "table": note["table"], "token": note["token"], "seat": note["seat"]}
        with contextlib.suppress(Exception):
            await send(msg)
