"""A table's driver: its bots, its timers and who is there.

The process holding a table's lease drives it: when ``Room.next_job`` says a bot's turn has come,
the bot thinks (in the bot workers, from its seat's view) during the pause a person needs to follow
the play, and its action goes through the table like a person's (``BotPlay``); a person who lets
their turn time out gets a bot standing in (``StandIn``), and a deal's score read by nobody in time
is read for them (``Resume(None)``). The driver waits on its table's changes and on the people who
come and go (here, or on other processes: ``heard_presence``); a solo table's bots play only while
its person has a socket open, since they only ever wait for that person.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable

from belote.bots import Bot, make_bot
from belote.game import SEATS, Action
from belote.server.logs import TABLE
from belote.server.metrics import Metrics
from belote.server.replica import Replica, Stale
from belote.server.room import STRENGTHS, BotPlay, Event, Job, Message, Resume, StandIn
from belote.server.thinking import Thinker

log = logging.getLogger("belote.tables")

Mutate = Callable[[Message, int | None], Awaitable[list[Event]]]


class Driver:
    """The bots and timers of one table's ``replica``; its changes go through ``mutate`` (the table's,
    which tells everybody), with the revision they were decided at."""

    def __init__(
        self,
        replica: Replica,
        mutate: Mutate,
        here: Callable[[], bool],
        thinker: Thinker,
        pace: float,
        metrics: Metrics,
    ) -> None:
        self.replica = replica
        self.mutate = mutate
        self.here = here  # whether a person has a socket open on the table in this process
        self.thinker = thinker
        self.pace = pace
        self.metrics = metrics
        self._bots: dict[int, Bot] = {}
        self._bots_epoch = replica.epoch
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._thought: tuple[int, int, asyncio.Future[Action]] | None = None  # a bot deciding: revision, seat
        self._position: tuple[int, str, int, int, int] = (-1, "", -1, -1, -1)
        self.turn_started = time.monotonic()
        self.remote: dict[str, set[int]] = {}  # in a shared hub: the seats with a socket in each other process
        self.note_position()

    # ----------------------------------------------------------------- the clock and who is there
    def note_position(self) -> None:
        """Start the turn clock when the table has moved on: a new game, an action, a deal's score
        read, a stand-in, or the host's start (a lobby's time is nobody's turn)."""
        room = self.replica.room
        position = (room.meta.game, room.meta.status, room.n_actions, room.meta.continued, len(room.meta.standin))
        if position != self._position:
            self._position = position
            self.turn_started = time.monotonic()

    def people_here(self) -> bool:
        """Whether a person of the table has a socket open on it, here or in another process."""
        return self.here() or any(self.remote.values())

    def heard_presence(self, process: str, seats: list[int]) -> None:
        """Another process said which seats have a socket there."""
        if seats:
            self.remote[process] = set(seats)
        else:
            self.remote.pop(process, None)
        self._wake.set()

    def next_job(self) -> Job | None:
        """What the table waits for (``Room.next_job``), from now."""
        return self.replica.room.next_job(time.monotonic() - self.turn_started, self.people_here(), self.pace)

    # ----------------------------------------------------------------- running
    def start(self, table_id: str) -> None:
        if self._task is None or self._task.done():
            context = contextvars.copy_context()
            context.run(TABLE.set, table_id)  # what is logged while driving (a bot that fails...) names the table
            self._task = asyncio.get_running_loop().create_task(
                self._drive(), name=f"table {table_id[:6]}", context=context
            )

    @property
    def driving(self) -> bool:
        return self._task is not None and not self._task.done()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._forget_thought()

    def wake(self) -> None:
        self._wake.set()

    # ----------------------------------------------------------------- the bots
    def _bot(self, seat: int) -> Bot:
        if self._bots_epoch != self.replica.epoch:  # the room's history began again: so do its bots
            self._bots, self._bots_epoch = {}, self.replica.epoch
        bot = self._bots.get(seat)
        if bot is None:
            meta = self.replica.room.meta
            sitting = meta.seats[seat]
            name, options = (
                (sitting.bot, sitting.bot_options) if sitting.bot is not None else STRENGTHS[meta.settings["strength"]]
            )
            bot = self._bots[seat] = make_bot(name, seed=meta.seed * 7 + seat, **options)
        return bot

    def _think(self, seat: int) -> asyncio.Future[Action]:
        """The decision of the bot at ``seat`` in the room as it is, started when its turn comes: it
        thinks during its pause (a person follows the play at the bots' pace, not at their
        thinking's), and the same decision serves however often the driver wakes meanwhile."""
        room, revision = self.replica.room, self.replica.revision
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
                action = await self.thinker.act(bot, view)
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
            while self.replica.room.active:
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
        revision = self.replica.revision
        if job.kind == "continue":
            await self.mutate(Resume(None), revision)
        elif job.kind == "timeout" and job.seat is not None:
            await self.mutate(StandIn(job.seat), revision)
        elif job.kind == "bot" and job.seat is not None:
            action = await self._think(job.seat)
            self._thought = None
            await self.mutate(BotPlay(job.seat, action), revision)
