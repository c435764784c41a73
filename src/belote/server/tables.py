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
import contextvars
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from belote.bots import Bot, make_bot
from belote.game import SEATS, Action, IllegalAction, Match, Refusal, action_str, parse_action
from belote.server.hub import OUTAGE, Hub, Note, StoreLost
from belote.server.limits import Window
from belote.server.logs import TABLE
from belote.server.metrics import Metrics
from belote.server.room import (
    DEFAULT_SETTINGS,
    STRENGTHS,
    TABLE_ID,
    Act,
    Back,
    BotPlay,
    Configure,
    Event,
    Job,
    Leave,
    Message,
    Meta,
    Move,
    NewGame,
    Resume,
    Room,
    Said,
    Say,
    Seat,
    SeatBot,
    Seated,
    Sit,
    StandIn,
    Start,
    Write,
    check_settings,
    fill_with_bots,
    new_match,
    new_token,
    online_seats,
    parse_seat,
    person_seat,
    reduce,
    rules_of,
)
from belote.server.thinking import Thinker
from belote.server.wire import same_secret
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
    hint: asyncio.Task[None] | None = None  # the hint being worked out for this client (server/hints.py)


class Stale(Exception):
    """The table moved on while a bot was thinking: its answer is dropped."""


class Table:
    """One table as this process drives it: its room (a replica, in a shared hub), the store, the
    clients watching it, and the driver of its bots and timers."""

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
        self.room = Room(meta, new_match(meta.settings, meta.seed) if meta.status == "playing" else None)
        self.hub = hub
        self.config = config
        self.clients: list[Client] = []
        self._bots: dict[int, Bot] = {}
        self.chat_window = Window(*CHAT_RATE)  # by seat
        self.address_chat = address_chat or Window(*ADDRESS_CHAT_RATE)  # by address, shared by the tables
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self._thought: tuple[int, int, asyncio.Future[Action]] | None = None  # a bot deciding: revision, seat
        self.revision = 0  # bumped by every change of the room: a bot's answer is for one revision
        self._position: tuple[int, int, int, int] = (-1, -1, -1, -1)
        self.turn_started = time.monotonic()
        self.closed = False
        self.metrics = metrics or Metrics()
        self.clock = clock
        self.used = clock()  # when somebody last asked for the table or it changed (unix seconds)
        self.remote: dict[str, set[int]] = {}  # in a shared hub: the seats with a socket in each other process
        self._note_position()

    # ----------------------------------------------------------------- the room
    @property
    def meta(self) -> Meta:
        return self.room.meta

    @property
    def match(self) -> Match | None:
        return self.room.match

    @property
    def active(self) -> bool:
        return self.room.active

    @property
    def shared(self) -> bool:
        return self.room.shared

    @property
    def n_actions(self) -> int:
        return self.room.n_actions

    def deal_just_ended(self) -> bool:
        return self.room.deal_just_ended()

    @property
    def waiting_continue(self) -> bool:
        return self.room.waiting_continue

    def seat_of_token(self, token: str) -> int | None:
        return self.room.seat_of_token(token)

    def _replay(self, actions: list[str], meta: Meta | None = None) -> None:
        """The room of ``meta`` (the table's own by default) with the match replayed from ``actions``."""
        meta = meta or self.meta
        match = new_match(meta.settings, meta.seed)
        for a in actions:
            match.apply(parse_action(a))
        self.room = Room(meta, match)
        self._bots = {}
        self.revision += 1

    def _note_position(self) -> None:
        """Start the turn clock when the table has moved on."""
        position = (self.meta.game, self.n_actions, self.meta.continued, len(self.meta.standin))
        if position != self._position:
            self._position = position
            self.turn_started = time.monotonic()

    def _seat_clients(self) -> None:
        """A person's clients follow their seat token: a move in the lobby, a solo game of another size."""
        for c in self.clients:
            if c.token is not None:
                c.seat = self.seat_of_token(c.token)

    def _restart_clients(self) -> None:
        """A new match, or a replica replayed from the store: every client starts its history again."""
        for c in self.clients:
            c.last = -1

    # ----------------------------------------------------------------- changes
    async def sync(self) -> bool:
        """Catch up with what other processes wrote; True when anything changed."""
        if not self.hub.shared:
            return False
        while True:
            room, revision = self.room, self.revision
            snap = await self.hub.store.snapshot(self.id, room.meta.game, room.n_actions)
            # A change made here meanwhile (outside the lock this sync may run without) moved the
            # replica past where it read from: read again from where it is now, or its own actions come twice.
            if self.revision == revision:
                break
        if snap is None:
            return False
        data, actions, full = snap
        changed = bool(actions) or full or data.get("version", 0) != room.meta.version
        if not changed:
            return False
        meta = Meta.from_json(data, self._defaults())
        self.revision += 1
        if meta.status != "playing":
            self.room = Room(meta, None)
        elif full or room.match is None:
            self._replay(actions, meta)
            if full:  # a new match
                self._restart_clients()
        else:
            match = room.match.copy()
            try:
                for a in actions:
                    match.apply(parse_action(a))
                self.room = Room(meta, match)
            except Refusal:  # this replica went another way than the store (Redis lost a change): start over
                log.warning("table %s: the stored log is not this replica's; replayed from the store", self.id[:6])
                loaded = await self.hub.store.load(self.id)
                self._replay([] if loaded is None else loaded[1], meta)
                self._restart_clients()
        self._seat_clients()
        self._note_position()
        return True

    def _defaults(self) -> dict[str, Any]:
        return {**DEFAULT_SETTINGS, "turn_timer": self.config.turn_timer}

    async def mutate(self, message: Message, expected: int | None = None) -> list[Event]:
        """Reduce ``message`` under the table's lock, write the change, then tell the other processes
        and the clients; the room's events. Raises the room's ``Refusal``, changing nothing; ``Stale``
        when the table is no longer at revision ``expected`` (a bot's answer to a position gone by).
        The room is reduced in place (``room.reduce``): a change the store refuses is taken back."""
        async with self.hub.leases.lock(self.id):
            # What another process wrote is told now, whatever becomes of the change (refused, or a
            # bot's answer gone stale): this sync is the only one to see it, the note of it finds
            # nothing new here later.
            if await self.sync():
                await self.broadcast()
                self.wake()
            if expected is not None and self.revision != expected:
                raise Stale
            # What to take the change back to, should the store refuse it: the meta as text (a string
            # is no work for the garbage collector, where the dicts of a meta kept across the awaits
            # below reached its oldest generation at every action) and the match's length.
            before = (json.dumps(self.room.meta.to_json()), self.room.match, self.n_actions)
            room, events = reduce(self.room, message, in_place=True)
            write = next((e for e in events if isinstance(e, Write)), None)
            if write is None:
                return events
            self.revision += 1
            meta = room.meta.to_json() if write.meta else None
            try:
                try:
                    store = self.hub.store
                    await store.commit(self.id, meta, room.active, write.start, list(write.actions), write.reset)
                except StoreLost:  # Redis came back empty: this process still holds the whole table
                    if not await self._write_back(room):
                        raise
            except Exception:  # nobody hears of a change the store did not keep
                log.exception("the store did not keep a change; it is taken back", extra={"table": self.id})
                self._take_back(*before)
                raise Refusal("the server could not save that, so nothing changed: try again", "not_saved") from None
            if write.reset:
                self._bots = {}
                self._restart_clients()
            if write.meta:
                self._seat_clients()
        self.used = self.clock()
        if write.actions:
            self.metrics.actions.inc(len(write.actions), kind=self.meta.kind)
        self._note_position()
        await self.hub.bus.publish(self.id, {"kind": "changed", "from": self.hub.process})
        await self.broadcast()
        self._wake.set()
        if self.active and not self.driving and not self.hub.shared:  # a new match at a finished table
            self.start()
        return events

    def _take_back(self, meta: str, match: Match | None, actions: int) -> None:
        """The room as it was before a change: ``meta`` (its JSON text), and ``match`` (the one it had:
        a new game made another) back to its first ``actions`` actions."""
        if match is not None:
            while match.action_count > actions:
                match.undo()
        self.room = Room(Meta.from_json(json.loads(meta), self._defaults()), match)
        self._bots = {}
        self._seat_clients()
        self.revision += 1

    async def _write_back(self, room: Room) -> bool:
        """Write ``room`` whole (meta and every action from the first), under the table's lock: the store
        lost it, and appending would leave a log that no longer starts at the beginning. False when
        the store holds a history that is not a beginning of this one (another process wrote it)."""
        actions = [] if room.match is None else [action_str(a) for a in room.match.actions]
        written = await self.hub.store.write_back(self.id, room.meta.to_json(), room.active, actions)
        if written:
            log.warning("table %s: the store had lost it (Redis restarted empty?); written back whole", self.id[:6])
        return written

    async def restore(self) -> bool:
        """The store was found empty (``store_lost``): write the table back, unless a process holding
        a replica further on did first; then catch up with it. True when the table changed here."""
        async with self.hub.leases.lock(self.id):
            return not await self._write_back(self.room) and await self.sync()

    async def act(self, seat: int, text: Any) -> None:
        """A person's action; raises IllegalAction (with the rule) and changes nothing when refused."""
        if not isinstance(text, str) or len(text) > 12:
            raise IllegalAction(
                "an action is a card such as JH, or pass, take, a suit letter, "
                "or in Coinche a contract such as 110H, coinche or surcoinche",
                "not_an_action",
                text=text[:16] if isinstance(text, str) else repr(text)[:16],
            )
        await self.mutate(Act(seat, parse_action(text)))

    async def back(self, seat: int) -> None:
        """The person is here again: no bot plays for them from now on."""
        if seat in self.meta.standin or self.hub.shared:
            await self.mutate(Back(seat))

    async def resume(self, seat: int | None) -> None:
        """``seat`` has read the deal's score; the next deal starts when every person has."""
        await self.mutate(Resume(seat))

    async def new_game(self, settings: dict[str, Any]) -> None:
        await self.mutate(NewGame(settings, secrets.randbelow(2**31)))

    async def sit(self, token: str, name: str, seat: int | None) -> int:
        """Seat a person at a private table's lobby; the seat they took."""
        return _seated(await self.mutate(Sit(token, name, seat)))

    async def seat_bot(self, host: int, name: str, to: int | None) -> tuple[str, int]:
        """The host gives a free lobby seat to an outside bot: its new seat token, and the seat."""
        token = new_token()
        return token, _seated(await self.mutate(SeatBot(host, token, name, to)))

    async def move(self, seat: int, to: int) -> int:
        return _seated(await self.mutate(Move(seat, to)))

    async def leave(self, seat: int) -> None:
        """A person gives up their seat in the lobby (their token opens nothing any more)."""
        await self.mutate(Leave(seat))

    async def configure(self, seat: int, settings: dict[str, Any]) -> None:
        await self.mutate(Configure(seat, settings))

    async def start_game(self, seat: int) -> None:
        await self.mutate(Start(seat))

    # ----------------------------------------------------------------- chat
    async def chat(self, client: Client, text: Any = None, reaction: Any = None) -> None:
        """A chat line from a client: checked by the room, then limited per seat and per address."""
        _, events = reduce(self.room, Say(client.seat, text, reaction, int(time.time() * 1000)))
        for window, key in ((self.chat_window, str(client.seat)), (self.address_chat, client.address)):
            if not window.allow(key):
                raise IllegalAction(
                    f"slow down: at most {window.count} messages in {window.seconds:.0f} seconds",
                    "slow_down",
                    count=window.count,
                    seconds=round(window.seconds),
                )
        for event in events:
            if isinstance(event, Said):
                await self.hub.store.add_chat(self.id, event.line)
                await self.hub.bus.publish(self.id, {"kind": "chat", "line": event.line})

    async def send_chat(self, line: dict[str, Any]) -> None:
        for client in list(self.clients):
            with contextlib.suppress(Exception):
                await client.send(line)

    # ----------------------------------------------------------------- bots and timers
    def people_here(self) -> bool:
        """Whether a person of the table has a socket open on it, here or in another process."""
        return any(c.seat is not None for c in self.clients) or any(self.remote.values())

    def here_seats(self) -> list[int]:
        """The seats with a socket open in this process."""
        return sorted({c.seat for c in self.clients if c.seat is not None})

    async def presence(self) -> None:
        """A person came or went: the driver looks again (a solo table's bots wait for their person), and
        in a shared hub the other processes hear which seats have a socket here."""
        self._wake.set()
        if self.hub.shared:
            note = {"kind": "presence", "from": self.hub.process, "seats": self.here_seats()}
            await self.hub.bus.publish(self.id, note)

    def heard_presence(self, process: str, seats: list[int]) -> None:
        if seats:
            self.remote[process] = set(seats)
        else:
            self.remote.pop(process, None)
        self._wake.set()

    async def take_over(self) -> None:
        """This process drives the table from now on (in a shared hub): it asks the others who is there."""
        self.remote = {}
        await self.hub.bus.publish(self.id, {"kind": "who", "from": self.hub.process})
        self.start()

    def start(self) -> None:
        if self._driver is None or self._driver.done():
            context = contextvars.copy_context()
            context.run(TABLE.set, self.id)  # what is logged while driving (a bot that fails...) names the table
            self._driver = asyncio.get_running_loop().create_task(
                self._drive(), name=f"table {self.id[:6]}", context=context
            )

    @property
    def driving(self) -> bool:
        return self._driver is not None and not self._driver.done()

    async def stop(self) -> None:
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._driver
            self._driver = None
        self._forget_thought()

    def wake(self) -> None:
        self._wake.set()

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            sitting = self.meta.seats[seat]
            name, options = (
                (sitting.bot, sitting.bot_options)
                if sitting.bot is not None
                else STRENGTHS[self.meta.settings["strength"]]
            )
            bot = self._bots[seat] = make_bot(name, seed=self.meta.seed * 7 + seat, **options)
        return bot

    def next_job(self) -> Job | None:
        """What the table waits for (``Room.next_job``), from now."""
        return self.room.next_job(time.monotonic() - self.turn_started, self.people_here(), self.config.pace)

    def _think(self, seat: int) -> asyncio.Future[Action]:
        """The decision of the bot at ``seat`` in the room as it is, started when its turn comes: it
        thinks during its pause (a person follows the play at the bots' pace, not at their
        thinking's), and the same decision serves however often the driver wakes meanwhile."""
        room, revision = self.room, self.revision
        if self._thought is not None:
            thought_revision, thought_seat, future = self._thought
            if thought_revision == revision and thought_seat == seat:
                return future
            self._forget_thought()
        assert room.match is not None
        view = room.match.view(seat)
        bot = self._bot(seat)

        async def decide() -> Action:
            started = time.perf_counter()
            try:
                action = await self.config.thinker.act(bot, view)
                self.metrics.bot_seconds.observe(time.perf_counter() - started)
                return action
            except Exception:  # a bot must never stop the table: its first legal action
                log.exception("bot at %s failed; playing its first legal action", SEATS[seat])
                return view.legal[0]

        future = asyncio.ensure_future(decide())
        self._thought = (revision, seat, future)
        return future

    def _forget_thought(self) -> None:
        if self._thought is not None:
            self._thought[2].cancel()
            self._thought = None

    async def _drive(self) -> None:
        """Let the bots play at a pace a person can follow, and stand in for the absent; ends with the match."""
        try:
            while self.active:
                job = self.next_job()
                self._wake.clear()
                if job is None:
                    await self._wake.wait()
                    continue
                if job.kind == "bot" and job.seat is not None:
                    self._think(job.seat)
                if job.wait > 0:
                    # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a cancel (stop) that
                    # comes as the table is woken, and the driver then never stops.
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(job.wait):
                            await self._wake.wait()
                    if self._wake.is_set():
                        continue
                try:
                    await self._run(job)
                except Stale:
                    continue
                except Exception:
                    log.exception("%s failed", job.kind)
                    self.metrics.errors.inc(where="table")
                    await asyncio.sleep(1.0)
        finally:
            self._forget_thought()

    async def _run(self, job: Job) -> None:
        revision = self.revision
        if job.kind == "continue":
            await self.mutate(Resume(None), expected=revision)
        elif job.kind == "timeout" and job.seat is not None:
            await self.mutate(StandIn(job.seat), expected=revision)
        elif job.kind == "bot" and job.seat is not None:
            action = await self._think(job.seat)
            self._thought = None
            await self.mutate(BotPlay(job.seat, action), expected=revision)

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
        m, meta = self.match, self.meta
        events = [] if m is None else m.events()
        views = {} if m is None else m.view_json(list({c.seat for c in clients}))
        waiting = self.waiting_continue
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
        for client in clients:
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
    """The seat a ``Sit`` or a ``Move`` gave."""
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
        return table, token, await table.sit(token, name, asked)

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
                table._replay(actions)
                if meta.continued < 0:  # stored before the table kept it: the last deal's score was read
                    meta.continued = len(table.match.deals) - (2 if table.deal_just_ended() else 1)
            table._note_position()
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
            table.heard_presence(sender, [s for s in note.get("seats", []) if isinstance(s, int)])
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
                table._note_position()
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
