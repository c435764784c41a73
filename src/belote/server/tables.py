"""Tables: the driver of each table's room, its clients, and the tables this process holds.

A table's state is its room (``belote.server.room``: its meta and its match), whose rules are a pure
reducer. Every change goes through ``Table.mutate``: under the table's lock, catch up with what
other processes wrote, reduce the message, write what the room says to keep, tell the other
processes, and send every connected client its own view and the public events it has not seen. A client only ever
receives ``Match.view(seat)`` and ``Match.events``: no message is built from anything else, so no
hidden card can leave. The process holding the table's lease drives it: bots, the turn timer, the
pause to read a deal's score.

A table is loaded from the hub when somebody first asks for it (a join, an invitation, a seat),
never all at start: a server holding 100,000 stored tables starts at once, and no table's bots
think before its people come. A solo table's bots play only while its person has a socket open
(in any process): they only ever wait for that person, so without them they would think for
nobody. Tables nobody uses are forgotten from memory after a while, and from the store after
``ServerConfig.expire_after`` (``expire_solo_after`` for solo tables): docs/operations.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from belote.game import SEATS, IllegalAction, Match
from belote.server import hints
from belote.server.driver import Driver
from belote.server.hub import OUTAGE, Hub, Note
from belote.server.limits import Window
from belote.server.metrics import Metrics
from belote.server.replica import Replica
from belote.server.room import (
    DEFAULT_SETTINGS,
    TABLE_ID,
    Event,
    Hint,
    Hinted,
    Job,
    Message,
    Meta,
    Reply,
    Room,
    Said,
    Seat,
    Seated,
    Sit,
    Write,
    check_settings,
    fill_with_bots,
    online_seats,
    parse_seat,
    person_seat,
    rules_of,
)
from belote.server.thinking import Thinker
from belote.server.wire import new_token, same_secret
from belote.variants import DEFAULT_GAME

log = logging.getLogger("belote.tables")

MAX_REPLAY = 256  # a client further behind than this many events starts its history again
CHAT_RATE = (5, 10.0)  # at most 5 lines in 10 seconds per seat, however many sockets it has
ADDRESS_CHAT_RATE = (20, 10.0)  # and 20 per address, whatever the seats and tables (a family may share one)


@dataclass
class ServerConfig:
    """What ``belote serve`` can set: the queue's wait before bots fill a table, the turn timer, the pace."""

    queue_wait: float = 20.0
    turn_timer: int = DEFAULT_SETTINGS["turn_timer"]
    pace: float = 1.0  # multiplies the bots' pauses (0 in tests: bots act at once)
    #: The pages, besides the server's own, whose websockets and requests are taken (``wire.origin_allowed``).
    origins: tuple[str, ...] = ()
    #: New tables (solo and private) one address may open: at most this many in so many seconds (0: no limit).
    table_rate: tuple[int, float] = (20, 60.0)
    #: Websockets open at once from one address (0: no limit).
    sockets_per_address: int = 32
    #: Seconds a table nobody uses (no action, no socket open on it) stays in the store: a private or
    #: online table, and a solo one (docs/operations.md says why these defaults).
    expire_after: float = 7 * 24 * 3600.0
    expire_solo_after: float = 24 * 3600.0
    #: Seconds between two sweeps of the tables that expired.
    sweep_every: float = 600.0
    #: Seconds a table nobody watches and nothing drives stays in memory (it loads again on demand).
    forget_after: float = 60.0

    def expiry(self) -> dict[str, float]:
        """Seconds a table of each kind stays unused before it expires."""
        return {"solo": self.expire_solo_after, "private": self.expire_after, "online": self.expire_after}

    #: Worker processes the bots think in (None: one per core; 0: threads of the server's process).
    think_workers: int | None = None
    #: Where the bots think: the app opens a ``Thinker`` of ``think_workers`` for its lifetime; a
    #: table outside an app thinks in threads.
    thinker: Thinker = field(default_factory=lambda: Thinker(0), compare=False, repr=False)


Send = Callable[[dict[str, Any] | str], Awaitable[None]]  # a message, or one already in JSON


@dataclass
class Client:
    seat: int | None  # None: a spectator
    send: Send
    last: int = -1  # the number of the last event sent
    token: str | None = None  # a person's seat token: their seat follows it when seats change
    address: str = ""  # where the socket comes from: the limits count by it
    hint: asyncio.Future[None] | None = None  # the hint being worked out for this client (server/hints.py)
    epoch: int = 0  # the room's epoch its events were sent from (``Replica.epoch``)


class Table:
    """One table as this process holds it: its replica (the room and the store), its driver (bots,
    timers, presence), and the clients watching it, each sent its own view."""

    def __init__(
        self,
        table_id: str,
        meta: Meta,
        hub: Hub,
        config: ServerConfig,
        address_chat: Window | None = None,
        metrics: Metrics | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.id = table_id
        self.hub = hub
        self.config = config
        self.metrics = metrics or Metrics()
        self.replica = Replica(table_id, meta, hub, self._defaults)
        self.driver = Driver(self.replica, self.mutate, self._seated_here, config.thinker, config.pace, self.metrics)
        self.clients: list[Client] = []
        self.chat_window = Window(*CHAT_RATE)  # by seat
        self.address_chat = address_chat or Window(*ADDRESS_CHAT_RATE)  # by address, shared by the tables
        self.clock = clock
        self.used = clock()  # when somebody last asked for the table or it changed (unix seconds)

    # ----------------------------------------------------------------- the room
    @property
    def room(self) -> Room:
        return self.replica.room

    @property
    def meta(self) -> Meta:
        return self.replica.room.meta

    @property
    def match(self) -> Match | None:
        return self.replica.room.match

    @property
    def active(self) -> bool:
        return self.replica.room.active

    @property
    def n_actions(self) -> int:
        return self.replica.room.n_actions

    def seat_of_token(self, token: str) -> int | None:
        return self.replica.room.seat_of_token(token)

    def _defaults(self) -> dict[str, Any]:
        return {**DEFAULT_SETTINGS, "turn_timer": self.config.turn_timer}

    def _seat_clients(self) -> None:
        """A person's clients follow their seat token: a move in the lobby, a solo game of another size."""
        for c in self.clients:
            if c.token is not None:
                c.seat = self.seat_of_token(c.token)

    # ----------------------------------------------------------------- changes
    async def sync(self) -> bool:
        """Catch up with what other processes wrote (``Replica.sync``); True when anything changed."""
        if not await self.replica.sync():
            return False
        self._seat_clients()
        self.driver.note_position()
        return True

    async def restore(self) -> bool:
        """The store was found empty: write the table back, or catch up with who did (``Replica.restore``)."""
        if not await self.replica.restore():
            return False
        self._seat_clients()
        self.driver.note_position()
        return True

    async def _caught_up(self) -> None:
        self._seat_clients()
        self.driver.note_position()
        await self.broadcast()
        self.wake()

    def _written(self, write: Write) -> None:
        if write.meta:
            self._seat_clients()

    async def mutate(self, message: Message, expected: int | None = None) -> list[Event]:
        """Reduce ``message`` and write the change (``Replica.change``), then tell the other processes
        and the clients; the room's events. Raises the room's ``Refusal``, changing nothing; ``Stale``
        when the table is no longer at revision ``expected`` (a bot's answer to a position gone by)."""
        events, write = await self.replica.change(message, expected, self._caught_up, self._written)
        if write is None:
            return events
        self.used = self.clock()
        if write.actions:
            self.metrics.actions.inc(len(write.actions), kind=self.meta.kind)
        self.driver.note_position()
        await self.hub.bus.publish(self.id, {"kind": "changed", "from": self.hub.process})
        await self.broadcast()
        self.wake()
        if self.active and not self.driving and not self.hub.shared:  # a new match at a finished table
            self.start()
        return events

    async def tell(self, client: Client, message: Message) -> list[Event]:
        """A person's message from their socket (``belote.server.messages``), reduced by the room;
        then what its events ask of this socket: a chat line passed on, within the limits per seat and
        per address; a reply for the sender alone; a hint worked out for it. The room's events."""
        if isinstance(message, Hint) and client.hint is not None and not client.hint.done():
            raise IllegalAction("a hint is already being worked out for you: it comes in a moment", "hint_busy")
        events = await self.mutate(message)
        for event in events:
            if isinstance(event, Said):
                await self._say(client, event.line)
            elif isinstance(event, Reply):
                await client.send({**event.message, "table": self.id})
            elif isinstance(event, Hinted):
                client.hint = hints.answer(self, client, event.seat)
        return events

    # ----------------------------------------------------------------- chat
    async def _say(self, client: Client, line: dict[str, Any]) -> None:
        """A chat line the room made, kept and passed on unless its seat or address is talking too fast."""
        for window, key in ((self.chat_window, str(client.seat)), (self.address_chat, client.address)):
            if not window.allow(key):
                raise IllegalAction(
                    f"slow down: at most {window.count} messages in {window.seconds:.0f} seconds",
                    "slow_down",
                    count=window.count,
                    seconds=round(window.seconds),
                )
        await self.hub.store.add_chat(self.id, line)
        await self.hub.bus.publish(self.id, {"kind": "chat", "line": line})

    async def send_chat(self, line: dict[str, Any]) -> None:
        for client in list(self.clients):
            with contextlib.suppress(Exception):
                await client.send(line)

    # ----------------------------------------------------------------- the driver and who is there
    def _seated_here(self) -> bool:
        return any(c.seat is not None for c in self.clients)

    def here_seats(self) -> list[int]:
        """The seats with a socket open in this process."""
        return sorted({c.seat for c in self.clients if c.seat is not None})

    async def presence(self) -> None:
        """A person came or went: the driver looks again (a solo table's bots wait for their person), and
        in a shared hub the other processes hear which seats have a socket here."""
        self.wake()
        if self.hub.shared:
            note = {"kind": "presence", "from": self.hub.process, "seats": self.here_seats()}
            await self.hub.bus.publish(self.id, note)

    async def take_over(self) -> None:
        """This process drives the table from now on (in a shared hub): it asks the others who is there."""
        self.driver.remote = {}
        await self.hub.bus.publish(self.id, {"kind": "who", "from": self.hub.process})
        self.start()

    def start(self) -> None:
        self.driver.start(self.id)

    @property
    def driving(self) -> bool:
        return self.driver.driving

    async def stop(self) -> None:
        await self.driver.stop()

    def wake(self) -> None:
        self.driver.wake()

    def next_job(self) -> Job | None:
        return self.driver.next_job()

    # ----------------------------------------------------------------- clients
    def players(self) -> dict[str, dict[str, Any]]:
        return {
            SEATS[s]: {
                "name": seat.name,
                "bot": seat.bot is not None or seat.outside,
                "standin": s in self.meta.standin,
                **({"outside": True} if seat.outside else {}),
            }
            for s, seat in sorted(self.meta.seats.items())
        }

    def timer(self) -> dict[str, Any] | None:
        job = self.next_job()
        if job is None or job.kind not in ("timeout", "continue"):
            return None
        return {
            "seat": None if job.seat is None else SEATS[job.seat],
            "left_ms": max(0, int(job.wait * 1000)),
            "seconds": self.meta.settings["turn_timer"],
        }

    def _states(self, clients: list[Client]) -> list[str]:
        """The ``state`` message of each client, as JSON text: what every seat shares is built once,
        each distinct message (seat, last event seen) made and encoded once."""
        m, meta, room = self.match, self.meta, self.room
        events = [] if m is None else m.events()
        views = {} if m is None else m.view_json(list({c.seat for c in clients}))
        waiting = room.waiting_continue
        shared = {
            "type": "state",
            "table": self.id,
            "kind": meta.kind,
            "status": meta.status,
            "host": None if meta.host is None else SEATS[meta.host],
            "settings": meta.settings,
            "players": self.players(),
            "timer": self.timer(),
            "hints": {SEATS[s]: n for s, n in sorted(meta.hints.items())},  # hints asked in the match
        }
        made: dict[tuple[int | None, int], tuple[str, int]] = {}
        out: list[str] = []
        epoch = self.replica.epoch
        for client in clients:
            if client.epoch != epoch:  # the room's history began again: so do the client's events
                client.last, client.epoch = -1, epoch
            key = (client.seat, client.last)
            if key not in made:
                since = client.last + 1
                shown = events[since:]
                gap = len(shown) > MAX_REPLAY and since > 0  # too far behind to patch: everything, from 0
                if gap:
                    shown = events
                last = shown[-1][0] if shown else client.last
                seated = client.seat is not None
                msg = {
                    **shared,
                    "seat": None if client.seat is None else SEATS[client.seat],
                    "view": views.get(client.seat),
                    "events": [[n, e] for n, e in shown],
                    "last": last,
                    "gap": gap,
                    "waiting": None if not waiting else "continue" if client.seat not in meta.acks else "others",
                    "invite": meta.invite if seated else None,
                    "watch": meta.watch if seated else None,
                }
                made[key] = (dumps(msg), last)
            text, client.last = made[key]
            out.append(text)
        return out

    async def send_state(self, client: Client) -> None:
        await client.send(self._states([client])[0])

    async def broadcast(self) -> None:
        clients = list(self.clients)
        if not clients:
            return
        for client, text in zip(clients, self._states(clients), strict=True):
            try:
                await client.send(text)
            except Exception:  # the socket went away; its handler removes the client
                log.debug("could not send to a client of %s", self.id)


def _seated(events: list[Event]) -> int:
    """The seat a ``Sit`` gave."""
    return next(e.seat for e in events if isinstance(e, Seated))


class TableManager:
    """The tables this process holds: created, loaded from the hub on demand, found by id, driven
    under lease, forgotten when nobody uses them, and expired from the hub by a periodic sweep."""

    def __init__(
        self,
        hub: Hub,
        config: ServerConfig | None = None,
        metrics: Metrics | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.hub = hub
        self.config = config or ServerConfig()
        self.metrics = metrics or Metrics()
        self.clock = clock  # unix seconds: tests set their own, and give the store the same
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._lease_task: asyncio.Task[None] | None = None
        self._sweep_task: asyncio.Task[None] | None = None
        self.address_chat = Window(*ADDRESS_CHAT_RATE)
        hub.bus.listen(self._on_note)

    def defaults(self) -> dict[str, Any]:
        return {**DEFAULT_SETTINGS, "turn_timer": self.config.turn_timer}

    def _table(self, table_id: str, meta: Meta) -> Table:
        return Table(table_id, meta, self.hub, self.config, self.address_chat, self.metrics, self.clock)

    async def _create(self, meta: Meta) -> Table:
        table_id = new_token()
        table = self._table(table_id, meta)
        meta.version = 1
        await self.hub.store.commit(table_id, meta.to_json(), True, 0, [], False)
        self.tables[table_id] = table
        log.info("%s table opened", meta.kind, extra={"table": table_id})
        if await self.hub.leases.hold(table_id):
            table.start()
        return table

    async def create_solo(self, settings: dict[str, Any], name: str = "You") -> tuple[Table, str, int]:
        """A table of one person (South; North at two hands) and bots; the seat token and the seat."""
        token = new_token()
        seat = person_seat(rules_of(settings).players)
        seats = {seat: Seat(token, name)}
        seed = secrets.randbelow(2**31)
        fill_with_bots(seats, rules_of(settings).players, settings["strength"], seed)
        table = await self._create(Meta("solo", seed, settings, seats))
        return table, token, seat

    async def create_private(self, name: str, seat: int, settings: dict[str, Any]) -> tuple[Table, str]:
        token = new_token()
        meta = Meta(
            "private",
            secrets.randbelow(2**31),
            settings,
            {seat: Seat(token, name)},
            status="lobby",
            host=seat,
            invite=new_token(),
        )
        return await self._create(meta), token

    async def create_online(
        self, names: list[str], variant: str = DEFAULT_GAME, seatings: list[str] | None = None
    ) -> tuple[Table, list[tuple[str, int]]]:
        """A table of ``variant`` for the players the queue matched (at most its seats, in queue
        order, each with their ``seating``, ``partners`` by default: ``online_seats``), bots in the
        others; each person's seat token and seat."""
        settings = check_settings({"variant": variant}, self.defaults())
        rules = rules_of(settings)
        seed = secrets.randbelow(2**31)
        places = online_seats(seatings or ["partners"] * len(names), rules.players, rules.game.partners, seed)
        given = [(new_token(), s) for s in places]
        seats = {s: Seat(token, name) for (token, s), name in zip(given, names, strict=True)}
        fill_with_bots(seats, rules.players, settings["strength"], seed)
        table = await self._create(Meta("online", seed, settings, seats))
        return table, given

    async def invitation(self, table_id: str, invite: Any) -> dict[str, Any] | None:
        """What an invitation opens on, before sitting: the game, its seats, the free ones, who sits
        where (names only); None for a wrong table or code."""
        table = await self.get(table_id)
        if table is None or table.meta.invite is None or not same_secret(table.meta.invite, invite):
            return None
        meta = table.meta
        seats = [SEATS[s] for s in range(meta.players)]
        taken = {SEATS[s]: seat.name for s, seat in meta.seats.items() if seat.bot is None}
        return {
            "variant": meta.settings["variant"],
            "status": meta.status,
            "seats": seats,
            "free": [s for s in seats if s not in taken] if meta.status == "lobby" else [],
            "people": taken,
        }

    async def sit(self, table_id: str, invite: Any, name: str, seat: Any) -> tuple[Table, str, int] | None:
        """A person takes a seat (a letter, or None for any) through a private table's invitation; None
        for a wrong table or code. The seat is read once the invitation is known to be right."""
        table = await self.get(table_id)
        if table is None or table.meta.invite is None or not same_secret(table.meta.invite, invite):
            return None
        token = new_token()
        asked = None if seat is None else parse_seat(seat, table.meta.players)
        return table, token, _seated(await table.mutate(Sit(token, name, asked)))

    async def get(self, table_id: str) -> Table | None:
        """A table by id: held here, or loaded from the hub (once, however many ask at the same time)."""
        if not isinstance(table_id, str) or TABLE_ID.fullmatch(table_id) is None:
            return None
        table = self.tables.get(table_id)
        if table is not None:
            table.used = self.clock()
            return table
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._load(table_id)
            future.set_result(table)
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # those who wait get it; without them, asyncio would log it as lost
            raise
        finally:
            del self._loading[table_id]
        return table

    async def _load(self, table_id: str) -> Table | None:
        stored = await self.hub.store.load(table_id)
        if stored is None:
            return None
        data, actions = stored
        try:
            meta = Meta.from_json(data, self.defaults())
            table = self._table(table_id, meta)
            if table.match is not None:
                table.replica.replay(actions)
                if meta.continued < 0:  # stored before the table kept it: the last deal's score was read
                    meta.continued = len(table.match.deals) - (2 if table.room.deal_just_ended() else 1)
            table.driver.note_position()
        except (KeyError, ValueError, TypeError) as e:
            log.error("the table could not be restored: %s", e, extra={"table": table_id})
            return None
        self.tables[table_id] = table
        if table.active and await self.hub.leases.hold(table_id):
            if self.hub.shared:
                await table.take_over()
            else:
                table.start()
        return table

    async def _on_note(self, table_id: str, note: Note) -> None:
        if note.get("kind") == "store_lost":  # from the hub itself: Redis restarted empty
            for held in list(self.tables.values()):
                try:
                    if await held.restore():
                        await held.broadcast()
                        held.wake()
                except Exception:  # its next change finds the log short and writes it back then
                    log.exception("table %s could not be written back now", held.id[:6])
            return
        if note.get("kind") == "resync":  # from the hub: notes may have been lost while Redis was away
            for held in list(self.tables.values()):
                if await held.sync():
                    await held.broadcast()
                    held.wake()
                # Who is where travels only in notes, and the store does not hold it: say again which
                # seats have a socket here, and ask again from the driver (after a lease taken over
                # meanwhile, a solo table's bots would wait for a person they never heard of).
                if held.here_seats():
                    await held.presence()
                if held.driving:
                    await self.hub.bus.publish(held.id, {"kind": "who", "from": self.hub.process})
            return
        table = self.tables.get(table_id)
        if table is None:
            return
        kind, sender = note.get("kind"), note.get("from")
        if kind == "chat":
            await table.send_chat(note["line"])
        elif kind == "changed" and sender != self.hub.process and await table.sync():
            table.used = self.clock()  # played in another process: still in use here
            await table.broadcast()
            table.wake()
        elif kind == "presence" and isinstance(sender, str) and sender != self.hub.process:
            table.driver.heard_presence(sender, [s for s in note.get("seats", []) if isinstance(s, int)])
        elif kind == "who" and sender != self.hub.process and table.here_seats():
            await table.presence()

    def run_leases(self, every: float = 1.0) -> None:
        """In a shared hub: keep the leases of the tables this process holds, take over those whose
        driver died. In both hubs: forget the tables nobody uses (they load again on demand), and
        sweep the expired tables out of the hub every ``config.sweep_every`` seconds."""
        if self._lease_task is None:
            every = every if self.hub.shared else 30.0
            self._lease_task = asyncio.get_running_loop().create_task(self._leases(every), name="leases")
        if self._sweep_task is None:
            self._sweep_task = asyncio.get_running_loop().create_task(self._sweeps(), name="expiry")

    async def _leases(self, every: float) -> None:
        while True:
            try:
                await self.hold_leases()
                await self.catch_up()
                await self.forget_idle()
            except OUTAGE as e:
                log.warning("lease round: Redis is out of reach (%s)", e)
            except Exception:
                log.exception("lease round failed")
            await asyncio.sleep(every)

    async def hold_leases(self) -> None:
        """Renew the leases of the tables held here; drive those whose driver (in another process) died.

        Only the tables held here: a table somebody uses is held by the process of their socket, and one
        nobody uses needs no driver (a solo table's bots wait for their person; the others load again
        when their people come back).
        """
        if not self.hub.shared:
            return
        for table_id, table in list(self.tables.items()):
            if not table.active:
                continue
            held = await self.hub.leases.hold(table_id)
            if held and not table.driving:
                if await table.sync():  # what it missed (a note lost while Redis was away): told here or never
                    await table.broadcast()
                table.driver.note_position()
                await table.take_over()
            elif not held and table.driving:
                await table.stop()

    async def catch_up(self) -> None:
        """A note lost on the way (Redis restarted, the network) leaves a replica behind, its people
        waiting and its bots idle: each round catches up the tables watched or driven here."""
        if not self.hub.shared:
            return
        for table in list(self.tables.values()):
            if (table.clients or table.driving) and await table.sync():
                await table.broadcast()
                table.wake()

    async def forget_idle(self) -> list[str]:
        """Forget the tables nobody watches, nobody asked for in ``config.forget_after`` seconds, and
        whose driver waits for people (they load again on demand); the ids forgotten."""
        now = self.clock()
        gone = []
        for table_id, table in list(self.tables.items()):
            if table.clients or now - table.used < self.config.forget_after:
                continue
            if table.driving and table.next_job() is not None:
                continue  # bots or a timer still move it
            await table.stop()
            still_idle = not table.clients and now - table.used >= self.config.forget_after
            if self.tables.get(table_id) is table and still_idle:
                del self.tables[table_id]
                gone.append(table_id)
        return gone

    async def _sweeps(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("the expiry sweep failed")
                self.metrics.errors.inc(where="sweep")

    async def sweep(self) -> dict[str, list[str]]:
        """Remove from the hub (and from memory) the tables nobody used for longer than their kind may
        stay (``config.expiry()``): finished, or abandoned (no socket open, no action). The tables with
        a socket open here are marked used first. Returns the ids removed, by kind."""
        now = self.clock()
        await self.hub.store.touch([i for i, t in self.tables.items() if t.clients])
        gone = await self.hub.store.expire({kind: now - seconds for kind, seconds in self.config.expiry().items()})
        for kind, ids in gone.items():
            self.metrics.expired.inc(len(ids), kind=kind)
            for table_id in ids:
                table = self.tables.get(table_id)
                if table is not None and not table.clients:
                    await table.stop()
                    self.tables.pop(table_id, None)
        if gone:
            log.info("expired %s", ", ".join(f"{len(ids)} {kind}" for kind, ids in sorted(gone.items())))
        return gone

    async def close(self) -> None:
        for task in (self._lease_task, self._sweep_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for table in self.tables.values():
            await table.stop()


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))
