"""*Play online*: a queue of players per game; a full table of one game (four players, or three or two)
is seated together, and after a wait bots fill the empty seats.

A player queues for one game (``variant``: classic, coinche, three-handed, two-handed) and is seated
only with players of that game. The queue lives in the hub, so in a shared hub the players waiting
on every process are one queue; whichever process forms a table tells the processes of the players
seated (``tell_process``), and those send them their seat tokens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from belote.game import SEATS
from belote.server.hub import Hub, Note
from belote.server.tables import Send, TableManager, new_token
from belote.variants import VARIANTS, find_variant

log = logging.getLogger("belote.matchmaking")


@dataclass
class Waiting:
    """A player of this process in the queue: how to reach them, and the game they wait for."""

    send: Send
    variant: str


def variant_of(data: dict[str, Any]) -> str:
    """The game an entry waits for (entries written before the queue had games wait for the classic one)."""
    variant = data.get("variant", "classic")
    return variant if variant in VARIANTS else "classic"


class Matchmaker:
    def __init__(self, hub: Hub, manager: TableManager, wait: float) -> None:
        self.hub = hub
        self.manager = manager
        self.wait = wait
        self.local: dict[str, Waiting] = {}  # the entries of this process's connections
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._last_counts: Counter[str] | None = None
        hub.listen(self._on_note)

    async def join(self, name: str, send: Send, variant: str = "classic") -> str:
        entry = new_token()
        self.local[entry] = Waiting(send, variant)
        data = {"name": name, "variant": variant, "process": self.hub.process, "joined": time.time()}
        await self.hub.queue_add(entry, data)
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
        """Seat a full table of waiting players of one game together; after the wait, seat whoever
        waits longest for a game with bots."""
        async with self._lock, self.hub.queue_lock():
            entries = await self.hub.queue_entries()
            games: dict[str, list[tuple[str, dict[str, Any]]]] = {}
            for entry, data in sorted(entries.items(), key=lambda kv: (kv[1]["joined"], kv[0])):
                games.setdefault(variant_of(data), []).append((entry, data))
            now = time.time()
            for variant, waiting in games.items():
                await self._seat(variant, waiting, now)

    async def _seat(self, variant: str, waiting: list[tuple[str, dict[str, Any]]], now: float) -> None:
        seats = find_variant(variant).players
        while waiting and (len(waiting) >= seats or now - waiting[0][1]["joined"] >= self.wait):
            group, waiting = waiting[:seats], waiting[seats:]
            await self.hub.queue_remove([e for e, _ in group])
            table, given = await self.manager.create_online([d["name"] for _, d in group], variant)
            log.info("queue: %s table %s for %d players", variant, table.id[:6], len(group))
            for (entry, data), (token, seat) in zip(group, given, strict=True):
                note = {"kind": "matched", "entry": entry, "table": table.id, "token": token, "seat": SEATS[seat]}
                await self.hub.tell_process(data["process"], note)

    async def announce(self, force: bool = False) -> None:
        """Tell this process's waiting players how many wait for their game and how long before bots
        fill the table."""
        if not self.local:
            self._last_counts = None
            return
        entries = await self.hub.queue_entries()
        counts = Counter(variant_of(d) for d in entries.values())
        if not force and counts == self._last_counts:
            return
        self._last_counts = counts
        now = time.time()
        messages: dict[str, dict[str, Any]] = {}
        for variant in {w.variant for w in self.local.values()}:
            oldest = min((d["joined"] for d in entries.values() if variant_of(d) == variant), default=now)
            left = max(0.0, self.wait - (now - oldest))
            messages[variant] = {
                "type": "queue",
                "variant": variant,
                "players": find_variant(variant).players,
                "waiting": counts[variant],
                "wait": self.wait,
                "left_ms": int(left * 1000),
            }
        for waiting in list(self.local.values()):
            with contextlib.suppress(Exception):
                await waiting.send(messages[waiting.variant])

    async def _on_note(self, table_id: str, note: Note) -> None:
        if note.get("kind") != "matched":
            return
        waiting = self.local.pop(note["entry"], None)
        if waiting is None:
            return
        msg = {"type": "matched", "table": note["table"], "token": note["token"], "seat": note["seat"]}
        with contextlib.suppress(Exception):
            await waiting.send(msg)
