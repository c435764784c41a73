"""*Play online*: a queue of players per game; a full table of one game (four players, or three or two)
is seated together, and after a wait bots fill the empty seats.

A player queues for one game (``variant``: classic, coinche, three-handed, two-handed) and is seated
only with players of that game. The queue lives in the hub, so in a shared hub the players waiting
on every process are one queue; whichever process forms a table tells the processes of the players
seated (``Bus.tell``), and those send them their seat tokens. When Redis lost its data (restarted
empty), each process puts its own waiting players back in the queue, with the time they joined.

Each process tells its own waiting players how many wait for each game and how long before the bots
come, reading the hub's queue on every round of its loop: so it hears of the people who come and go
on the other processes too. The people seated together sit as partners unless they asked to sit
anywhere (``seating``; ``belote.server.room.online_seats``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from belote.game import SEATS
from belote.server import tasks
from belote.server.hub import OUTAGE, Hub, Note
from belote.server.manager import TableManager
from belote.server.room import SEATINGS, SettingsError
from belote.server.store import StoreFull
from belote.server.tables import Send
from belote.server.wire import new_token
from belote.variants import DEFAULT_GAME, VARIANTS, find_variant

log = logging.getLogger("belote.matchmaking")

#: A waiting player hears how the queue stands when it changes, at most once in ``QUEUE_GAP``
#: seconds (changes in between come together), and at least once in ``QUEUE_EVERY`` seconds.
QUEUE_GAP = 1.0
QUEUE_EVERY = 5.0

#: The rating window of a table (``window``): its width at first, and what a second of wait adds.
WINDOW = (150.0, 25.0)
#: The rating of a person without an identity, or new to a game (``ratings.shown`` of a new rating).
NEW_RATING = 1000
#: The waits before a table kept by game, whose median the queue expects (``Matchmaker.expected``).
WAITS_KEPT = 50

#: What a waiting player's ``queue`` message depends on: the number waiting for each game (in the
#: order of ``VARIANTS``) and when the longest waiting for their own game came (the bots' time).
Shown = tuple[tuple[int, ...], float]


@dataclass
class Waiting:
    """A player of this process in the queue: how to reach them, the game they wait for, how they
    like to sit, and what they were last told of the queue (and when, on the monotonic clock)."""

    send: Send
    variant: str
    data: dict[str, Any]  # the entry as the queue holds it (put back when the queue was lost)
    seating: str = "partners"
    shown: Shown | None = None
    told: float = 0.0


def variant_of(data: dict[str, Any]) -> str:
    """The game an entry waits for (entries written before the queue had games, or for a game no longer
    played, wait for the default one)."""
    variant = data.get("variant", DEFAULT_GAME)
    return variant if variant in VARIANTS else DEFAULT_GAME


def seating_of(data: dict[str, Any]) -> str:
    """How an entry likes to sit (entries written before the queue asked sit as partners)."""
    seating = data.get("seating", "partners")
    return seating if seating in SEATINGS else "partners"


def check_seating(value: Any) -> str:
    """The ``seating`` of a ``queue`` message: ``partners`` (also when absent) or ``any``."""
    if value is None:
        return "partners"
    if value not in SEATINGS:
        raise SettingsError(
            f"seating is one of {', '.join(SEATINGS)}, not {value!r}",
            "bad_seating",
            seating=value,
            choices=list(SEATINGS),
        )
    return str(value)


def waiting_by_game(entries: dict[str, dict[str, Any]]) -> dict[str, int]:
    """How many wait for each game, every game named (0 for a game nobody waits for)."""
    counts = dict.fromkeys(VARIANTS, 0)
    for data in entries.values():
        counts[variant_of(data)] += 1
    return counts


def window(waited: float) -> float:
    """How far apart (in shown rating) two people may be to sit at one table once the longest
    waiting of them has waited ``waited`` seconds: close at first, wider as the wait grows.

    >>> window(0.0), window(10.0), window(60.0)
    (150.0, 400.0, 1650.0)
    """
    return WINDOW[0] + WINDOW[1] * waited


def table_for(waiting: list[tuple[str, dict[str, Any]]], seats: int, now: float) -> list[tuple[str, dict[str, Any]]]:
    """The people of the next table, in queue order: the longest waiting, then each next one whose
    rating lies within the window of the first (``window`` of the first's wait; without an identity,
    a new player's rating), who is not an identity already at the table, and who blocked nobody at
    it nor was blocked by anybody there. At most ``seats``.

    >>> q = [("a", {"joined": 0.0, "rating": 1500, "player": "A"}), ("b", {"joined": 1.0, "rating": 1900}),
    ...      ("c", {"joined": 2.0, "rating": 1550, "player": "C", "blocks": ["A"]}), ("d", {"joined": 3.0})]
    >>> [e for e, _ in table_for(q, 4, 4.0)]
    ['a']
    >>> [e for e, _ in table_for(q, 4, 20.0)]
    ['a', 'b', 'd']
    """
    first = waiting[0][1]
    width = window(now - first["joined"])
    group = [waiting[0]]
    for entry, data in waiting[1:]:
        if len(group) == seats:
            break
        if abs(data.get("rating", NEW_RATING) - first.get("rating", NEW_RATING)) > width:
            continue
        if any(not _may_sit_with(data, other) for _, other in group):
            continue
        group.append((entry, data))
    return group


def _may_sit_with(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two entries may sit at one table: not one identity twice, nor one that blocked the other."""
    pa, pb = a.get("player"), b.get("player")
    if pa is None or pb is None:
        return True
    return pa != pb and pb not in a.get("blocks", ()) and pa not in b.get("blocks", ())


class Matchmaker:
    def __init__(
        self, hub: Hub, manager: TableManager, wait: float, gap: float = QUEUE_GAP, every: float = QUEUE_EVERY
    ) -> None:
        self.hub = hub
        self.manager = manager
        self.wait = wait
        self.gap = gap
        self.every = every
        self.local: dict[str, Waiting] = {}  # the entries of this process's connections
        self.waits: dict[str, deque[float]] = {}  # the last waits before a table, by game (``expected``)
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        hub.bus.listen(self._on_note)

    async def join(
        self,
        name: str,
        send: Send,
        variant: str = DEFAULT_GAME,
        seating: str = "partners",
        player: dict[str, Any] | None = None,
    ) -> str:
        """Queue a person; ``player``: their identity as the queue keeps it (``players.queued_as``)."""
        entry = new_token()
        data: dict[str, Any] = {"name": name, "variant": variant, "seating": seating, "process": self.hub.process}
        data["joined"] = time.time()
        if player is not None:
            data.update(player)
        self.local[entry] = Waiting(send, variant, data, seating)  # before the queue has it: "matched" may come
        await self.hub.queue.add(entry, data)
        await self.announce(await self.match_now())  # the newcomer hears at once; the others within ``gap``
        return entry

    async def rejoin(self) -> None:
        """Put this process's waiting players back in the queue (it lost them), as they joined."""
        async with self._lock, self.hub.queue.lock():
            for entry, waiting in list(self.local.items()):
                await self.hub.queue.add(entry, waiting.data)
        log.warning("queue: %d waiting players put back in the queue the store lost", len(self.local))

    async def leave(self, entry: str) -> None:
        if self.local.pop(entry, None) is not None:
            await self.hub.queue.remove([entry])

    def start(self, every: float = 0.25) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(every), name="matchmaking")

    async def close(self) -> None:
        await tasks.stop(self._task)

    async def _run(self, every: float) -> None:
        while True:
            try:
                if self.local:
                    await self.hub.queue.touch(list(self.local))
                entries = await self.match_now()
                await self.announce(entries)
            except OUTAGE as e:
                log.warning("matchmaking round: Redis is out of reach (%s)", e)
            except Exception:
                log.exception("matchmaking round failed")
            await asyncio.sleep(every)

    async def match_now(self) -> dict[str, dict[str, Any]]:
        """Seat a full table of waiting players of one game together; after the wait, seat whoever
        waits longest for a game with bots. Returns the entries still waiting."""
        async with self._lock, self.hub.queue.lock():
            entries = await self.hub.queue.entries()
            games: dict[str, list[tuple[str, dict[str, Any]]]] = {}
            for entry, data in sorted(entries.items(), key=lambda kv: (kv[1]["joined"], kv[0])):
                games.setdefault(variant_of(data), []).append((entry, data))
            now = time.time()
            for variant, waiting in games.items():
                for entry in await self._seat(variant, waiting, now):
                    entries.pop(entry, None)
            return entries

    async def _seat(self, variant: str, waiting: list[tuple[str, dict[str, Any]]], now: float) -> list[str]:
        """Seats the tables of one game that are ready; the entries seated."""
        seats = find_variant(variant).players
        seated: list[str] = []
        while waiting:
            group = table_for(waiting, seats, now)
            if len(group) < seats and now - waiting[0][1]["joined"] < self.wait:
                break
            waiting = [w for w in waiting if w not in group]
            await self.hub.queue.remove([e for e, _ in group])
            names, seatings = [d["name"] for _, d in group], [seating_of(d) for _, d in group]
            players = [d.get("player") for _, d in group]
            try:
                table, given = await self.manager.create_online(names, variant, seatings, players)
            except StoreFull:  # the store said so once: they wait in the queue as they were, for a later round
                for entry, data in group:
                    await self.hub.queue.add(entry, data)
                break
            seated += [e for e, _ in group]
            self.waits.setdefault(variant, deque(maxlen=WAITS_KEPT)).extend(now - d["joined"] for _, d in group)
            log.info("queue: a %s table for %d players", variant, len(group), extra={"table": table.id})
            for (entry, data), (token, seat) in zip(group, given, strict=True):
                note = {"kind": "matched", "entry": entry, "table": table.id, "token": token, "seat": SEATS[seat]}
                await self.hub.bus.tell(data["process"], note)
        return seated

    async def announce(self, entries: dict[str, dict[str, Any]]) -> None:
        """Tell this process's waiting players (``entries``: the queue) how many wait for each game and
        how long before bots fill their table: a newcomer at once, the others when it changed for
        them, at most once in ``gap`` seconds, and in any case once in ``every`` seconds."""
        if not self.local:
            return
        counts = waiting_by_game(entries)
        now, clock = time.time(), time.monotonic()
        oldest: dict[str, float] = {}
        for data in entries.values():
            variant = variant_of(data)
            oldest[variant] = min(oldest.get(variant, now), data["joined"])
        for entry, waiting in list(self.local.items()):
            if entry not in entries:
                continue  # seated (the "matched" note tells them), or not in the hub's queue yet
            shown = (tuple(counts.values()), oldest.get(waiting.variant, now))
            since = clock - waiting.told
            if not (waiting.shown is None or since >= self.every or (shown != waiting.shown and since >= self.gap)):
                continue
            waiting.shown, waiting.told = shown, clock
            msg = {
                "type": "queue",
                "variant": waiting.variant,
                "players": find_variant(waiting.variant).players,
                "waiting": counts[waiting.variant],
                "wait": self.wait,
                "left_ms": round(max(0.0, self.wait - (now - shown[1])) * 1000),
                "expected_ms": round(self.expected(waiting.variant, now - waiting.data["joined"]) * 1000),
                "waiting_by_game": counts,
                "seating": waiting.seating,
            }
            with contextlib.suppress(Exception):
                await waiting.send(msg)

    def expected(self, variant: str, waited: float) -> float:
        """Seconds a player who has waited ``waited`` may still expect to wait for a table of
        ``variant``: the median of the last waits for that game, less what they waited, within the
        bots' time (``wait``); the bots' time when nobody was seated yet."""
        waits = sorted(self.waits.get(variant, ()))
        typical = waits[len(waits) // 2] if waits else self.wait
        return max(0.0, min(typical, self.wait) - waited)

    async def _on_note(self, table_id: str, note: Note) -> None:
        if note.get("kind") == "store_lost":  # Redis restarted empty: the queue is gone with the rest
            await self.rejoin()
            return
        if note.get("kind") != "matched":
            return
        waiting = self.local.pop(note["entry"], None)
        if waiting is None:
            return
        msg = {"type": "matched", "table": note["table"], "token": note["token"], "seat": note["seat"]}
        with contextlib.suppress(Exception):
            await waiting.send(msg)
