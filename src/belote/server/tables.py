"""A table: the driver of its room, and its clients.

A table's state is its room (``belote.server.room``: its meta and its match), whose rules are a pure
reducer. Every change goes through ``Table.mutate``: under the table's lock, catch up with what
other processes wrote, reduce the message, write what the room says to keep, tell the other
processes, and send every connected client its own view and the public events it has not seen. A client only ever
receives ``Match.view(seat)`` and ``Match.events``: no message is built from anything else, so no
hidden card can leave. The process holding the table's lease drives it: bots, the turn timer, the
pause to read a deal's score. The tables a process holds are ``belote.server.manager.TableManager``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from belote.game import SEATS, IllegalAction, Match, Refusal
from belote.server import hints
from belote.server.driver import Driver
from belote.server.hub import Hub
from belote.server.limits import LocalRates, MessageRate, Rates, slow_down
from belote.server.metrics import Metrics
from belote.server.replica import Replica
from belote.server.room import (
    DEFAULT_SETTINGS,
    Back,
    Event,
    Gone,
    Hint,
    Hinted,
    Job,
    Message,
    Meta,
    Reply,
    Room,
    Said,
    Write,
)
from belote.server.store import StoreFull
from belote.server.thinking import NOBODY, Thinker, address_owner

log = logging.getLogger("belote.tables")

MAX_REPLAY = 256  # a client further behind than this many events starts its history again
#: The chat's limit (a line or a reaction): its entry in the rates of messages (``messages.RATES``).
CHAT = MessageRate(
    "chat",
    5,
    20,
    "a line or a reaction now and then; counted on the lines kept, per seat (a spectator: per socket) "
    "and per address whatever the seats and tables",
    kept=True,
)


@dataclass
class ServerConfig:
    """What ``belote serve`` can set: the queue's wait before bots fill a table and its matches' length,
    the turn timer, the pace."""

    queue_wait: float = 20.0
    #: The deals of a match at the tables the queue forms (None: played to the target score, as every
    #: table by default): a server for a short event, or for the browser tests, plays shorter matches.
    queue_deals: int | None = None
    turn_timer: int = DEFAULT_SETTINGS["turn_timer"]
    #: The boards and the bots of the daily tournaments (``tournaments.DAILY_BOARDS`` and
    #: ``DAILY_STRENGTH`` by default): a club's server may make its day's tournaments shorter or harder.
    daily_boards: int = 8
    daily_bots: str = "normal"
    pace: float = 1.0  # multiplies the bots' pauses (0 in tests: bots act at once)
    #: The pages, besides the server's own, whose websockets and requests are taken (``wire.origin_allowed``).
    origins: tuple[str, ...] = ()
    #: What one address may have the store keep, tables by any route (solo, private, a place in the
    #: queue) and score sheets together: at most this many in so many seconds (0: no limit).
    table_rate: tuple[int, float] = (20, 60.0)
    #: Multiplies the rate of each message a client may send (``messages.RATES``; 0: no limit).
    message_rates: float = 1.0
    #: Websockets open at once from one address (0: no limit).
    sockets_per_address: int = 32
    #: Hints one address may ask for: at most this many in so many seconds (0: no limit).
    hint_rate: tuple[int, float] = (20, 60.0)
    #: Seconds a table nobody uses (no action, no socket open on it) stays in the store: a private or
    #: online table, and a solo one (docs/operations.md says why these defaults).
    expire_after: float = 7 * 24 * 3600.0
    expire_solo_after: float = 24 * 3600.0
    #: Seconds a table the queue formed and nobody came to stays after it was abandoned (``Meta.abandoned``).
    expire_abandoned_after: float = 600.0
    #: Seconds a score sheet nobody changed stays in the store (0: for ever).
    expire_sheets_after: float = 90 * 24 * 3600.0
    #: Seconds between two sweeps of the tables that expired.
    sweep_every: float = 600.0
    #: Seconds a table nobody watches and nothing drives stays in memory (it loads again on demand).
    forget_after: float = 60.0

    def expiry(self) -> dict[str, float]:
        """Seconds a table of each kind stays unused before it expires (``store.stored_kind``: an
        abandoned table is of its own kind)."""
        return {
            "solo": self.expire_solo_after,
            "private": self.expire_after,
            "online": self.expire_after,
            "abandoned": self.expire_abandoned_after,
        }

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
    epoch: int = 0  # the room's epoch its events were sent from (``Replica.epoch``)
    name: str | None = None  # a spectator's name in the chat, as they joined (``Join.name``)
    # Sent the table's state yet (``Table.send_state``)? A socket that joins is added to the table
    # before its person is marked back; until its own state is sent, no broadcast reaches it (one made
    # meanwhile, a catch-up with another process's change, would show them still gone).
    welcomed: bool = True

    @property
    def owner(self) -> str:
        """Whose turn in the bot workers' fair queue the work this client asks for takes: its address's."""
        return address_owner(self.address or f"socket {id(self)}")

    def talker(self, process: str) -> str:
        """Who the chat's limit per person counts at a table: a seat, or this spectator's socket (each
        its own) in ``process``."""
        return SEATS[self.seat] if self.seat is not None else f"spectator {process} {id(self)}"


class Table:
    """One table as this process holds it: its replica (the room and the store), its driver (bots,
    timers, presence), and the clients watching it, each sent its own view."""

    def __init__(
        self,
        table_id: str,
        meta: Meta,
        hub: Hub,
        config: ServerConfig,
        rates: Rates | None = None,
        metrics: Metrics | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.id = table_id
        self.hub = hub
        self.config = config
        self.metrics = metrics or Metrics()
        # The replica and the driver get no method of the table that they would keep: the table would
        # be a cycle with them, freed only by the collector's full pass (``release`` cuts the driver's).
        self.replica = Replica(table_id, meta, hub, functools.partial(defaults_of, config))
        self.driver = Driver(
            self.replica, self.mutate, self.here_seats, config.thinker, config.pace, self.metrics, clock
        )
        self.driver.owner = self.bots_owner
        self.clients: list[Client] = []
        self.hinting: dict[int, asyncio.Future[None]] = {}  # the hint being worked out for each seat (hints.py)
        self.rates = rates or LocalRates()  # the chat's windows, shared by the tables (in Redis mode, by every process)
        self.clock = clock
        self.used = clock()  # when somebody last asked for the table or it changed (unix seconds)
        #: Told when a change ends the match (the players' results: ``TableManager._finished``).
        self.finished: Callable[[Table], Awaitable[None]] | None = None
        #: Whether this process listed the table among the open ones (``TableStore.list_open``).
        self.listed = meta.open_lobby

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
        return defaults_of(self.config)

    def release(self) -> None:
        """This process lets go of the table for good (forgotten or expired, its driver stopped): the
        driver lets go of the table's methods, so that the table, its match and its clients' records
        are freed as soon as nothing else holds them, not at the collector's next full pass (rare in
        a busy server: ``app.GC_THRESHOLD``), which let them pile up by the thousand."""
        self.driver.release()

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
        match = self.match
        if write.actions and match is not None and match.over and self.finished is not None:
            # The process whose change ended the match, once; before anybody is told the match is
            # over: a page that shows its end finds it kept (its profile, the leaderboard).
            await self.finished(self)
        await self.hub.bus.publish(self.id, {"kind": "changed", "from": self.hub.process})
        await self.broadcast()
        self.wake()
        if write.meta:
            listed = self.meta.open_lobby
            if listed or self.listed:
                await self.hub.store.list_open(self.id, listed)
                self.listed = listed
        if self.active and not self.driving and not self.hub.shared:  # a new match at a finished table
            self.start()
        return events

    async def tell(self, client: Client, message: Message) -> list[Event]:
        """A person's message from their socket (``belote.server.messages``), reduced by the room;
        then what its events ask of this socket: a chat line passed on, within the limits per seat and
        per address; a reply for the sender alone; a hint worked out for it. The room's events."""
        if isinstance(message, Hint) and self.hint_busy(client.seat):
            raise IllegalAction("a hint is already being worked out for you: it comes in a moment", "hint_busy")
        events = await self.mutate(message)
        for event in events:
            if isinstance(event, Said):
                await self._say(client, event.line)
            elif isinstance(event, Reply):
                await client.send({**event.message, "table": self.id})
            elif isinstance(event, Hinted):
                self.hinting[event.seat] = hints.answer(self, client, event.seat)
        return events

    def hint_busy(self, seat: int | None) -> bool:
        """Whether a hint for ``seat`` is being worked out: one at a time per seat, however many
        sockets its person has open (each would otherwise keep a worker busy)."""
        hint = None if seat is None else self.hinting.get(seat)
        return hint is not None and not hint.done()

    # ----------------------------------------------------------------- chat
    async def _say(self, client: Client, line: dict[str, Any]) -> None:
        """A chat line the room made, kept and passed on unless its person (a seat, or a spectator's
        socket) or address is talking too fast (``CHAT``, counted in Redis for every process in Redis
        mode); a spectator's under the name they joined with."""
        if line.get("spectator"):
            line = {**line, "name": client.name}
        person, address = CHAT.rates(self.config.message_rates)
        talker = f"{self.id} {client.talker(self.hub.process)}"
        refused = await self.rates.allow([("chat:person", person, talker), ("chat:address", address, client.address)])
        if refused is not None:
            raise slow_down(refused)
        await self.hub.store.add_chat(self.id, line)
        await self.hub.bus.publish(self.id, {"kind": "chat", "line": line})

    async def send_chat(self, line: dict[str, Any]) -> None:
        for client in list(self.clients):
            with contextlib.suppress(Exception):
                await client.send(line)

    # ----------------------------------------------------------------- the driver and who is there
    def bots_owner(self) -> str:
        """Whose turn in the bot workers' fair queue (``thinking.FairQueue``) this table's bots think
        in: the people they play for. The address of a person at the table in this process (the first
        in order: a person's tables share their turn with their hints), the table's own when its people
        are in other processes, and ``NOBODY`` when nobody is at it: a stranger's hundreds of
        abandoned tables take one turn between them, not one each."""
        seated = sorted(c.owner for c in self.clients if c.seat is not None)
        if seated:
            return seated[0]
        return f"table {self.id}" if self.driver.people_here() else NOBODY

    def here_seats(self) -> list[int]:
        """The seats with a socket open in this process."""
        return sorted({c.seat for c in self.clients if c.seat is not None})

    async def presence(self, gone: int | None = None) -> None:
        """A person came or went: the driver looks again (a solo table's bots wait for their person), and
        in a shared hub the other processes hear which seats have a socket here. ``gone``: the seat
        whose socket closed here; when it has none left at the table, here or (as far as this process
        heard) in another process, the room is told that its person is gone (``Gone``), before this
        returns: everybody is shown it with the state that follows."""
        self.wake()
        if self.hub.shared:
            note = {"kind": "presence", "from": self.hub.process, "seats": self.here_seats()}
            await self.hub.bus.publish(self.id, note)
        if gone is not None and gone not in self.driver.present() and gone in self.meta.people():
            try:
                await self.mutate(Gone(gone, self.driver.now_ms()))
            except StoreFull:  # the store said so once
                pass
            except Refusal as e:  # the store did not keep it
                log.info("%s could not be marked gone at %s: %s", SEATS[gone], self.id[:6], e)
            except Exception:  # a socket's end never fails for it (Redis out of reach...)
                log.exception("%s could not be marked gone at %s", SEATS[gone], self.id[:6])

    async def claim(self) -> None:
        """The seats with a socket here that the room has as gone (another process, which had not heard
        of this one's socket yet, said so) are back (``Back``)."""
        for seat in self.here_seats():
            if seat in self.meta.away:
                with contextlib.suppress(Refusal):
                    await self.mutate(Back(seat))

    async def take_over(self) -> None:
        """This process drives the table from now on (in a shared hub): it asks the others who is
        there, and tells the room who is gone once they had time to answer."""
        self.driver.remote = {}
        await self.hub.bus.publish(self.id, {"kind": "who", "from": self.hub.process})
        self.driver.expect_presence()
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
        return {SEATS[s]: self._player(s) for s in sorted(self.meta.seats)}

    def _player(self, s: int) -> dict[str, Any]:
        """A seat as every client sees it: its name, whether a bot plays there or stands in, and
        whether its person is gone from the table, with the time until a bot stands in for them."""
        seat, meta = self.meta.seats[s], self.meta
        bot = seat.bot is not None or seat.outside
        out: dict[str, Any] = {"name": seat.name, "bot": bot, "standin": s in meta.standin}
        if seat.outside:
            out["outside"] = True
        if seat.player is not None:  # the person's public identity: their profile, and blocking
            out["player"] = seat.player
        if s in meta.away:
            wait = self.room.standin_in(s, self.driver.elapsed(), self.driver.now_ms())
            out["away"] = {"standin_ms": None if wait is None else int(wait * 1000)}
        return out

    def timer(self) -> dict[str, Any] | None:
        """The turn's clock: the person to move and the time left before a bot plays for them (sooner
        when they are gone from the table), or the time left to read a deal's score."""
        job = self.driver.turn_job()
        if job is None or job.kind not in ("timeout", "continue"):
            return None
        wait = job.wait
        if job.seat is not None:
            gone = self.room.standin_in(job.seat, self.driver.elapsed(), self.driver.now_ms())
            wait = wait if gone is None else gone
        return {
            "seat": None if job.seat is None else SEATS[job.seat],
            "left_ms": max(0, int(wait * 1000)),
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
        if meta.board is not None:  # a tournament's board: the page leads back to its tournament
            shared["board"] = {"tournament": meta.board["tournament"], "board": int(meta.board["board"]) + 1}
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
        client.welcomed = True
        await client.send(self._states([client])[0])

    async def broadcast(self) -> None:
        clients = [c for c in self.clients if c.welcomed]
        if not clients:
            return
        for client, text in zip(clients, self._states(clients), strict=True):
            try:
                await client.send(text)
            except Exception:  # the socket went away; its handler removes the client
                log.debug("could not send to a client of %s", self.id)


def defaults_of(config: ServerConfig) -> dict[str, Any]:
    """The settings a table's stored settings are read with, under ``config``."""
    return {**DEFAULT_SETTINGS, "turn_timer": config.turn_timer}


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))
