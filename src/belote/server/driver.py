"""A table's driver: its bots, its timers and who is there.

The process holding a table's lease drives it: when ``Room.next_job`` says a bot's turn has come,
the bot thinks (in the bot workers, from its seat's view) during the pause a person needs to follow
the play, and its action goes through the table like a person's (``BotPlay``); a person who lets
their turn time out gets a bot standing in (``StandIn``), and a deal's score read by nobody in time
is read for them (``Resume(None)``). The driver waits on its table's changes and on the people who
come and go (here, or on other processes: ``heard_presence``); a solo table's bots play only while
its person has a socket open, since they only ever wait for that person.

Who is gone is the room's (``Gone``, ``Room.meta.away``): the process whose socket closed says so
(``Table.presence``), and the driver, which hears of every process's sockets, says it of the people
it finds without a socket anywhere: once it has listened for ``PRESENCE_GRACE`` seconds after taking
a table over or loading it (a restart: the pages come back within it), and on every presence note
after that (two sockets of one seat closed at once in two processes, each knowing of the other's).

While the shared store is out of reach (Redis down or restarting), what the driver does waits for
it: the table says so in one line when the outage begins (no traceback: it is no error of the
table's), and again when the store answers; meanwhile it tries each second, the bot's decision
kept, so that the bot plays as soon as Redis is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable

from belote.bots import Bot, make_bot
from belote.game import SEATS, Action, Refusal
from belote.server.hub import OUTAGE
from belote.server.logs import TABLE
from belote.server.metrics import Metrics
from belote.server.replica import Replica, Stale
from belote.server.room import STRENGTHS, BotPlay, Event, Gone, Job, Message, Resume, StandIn
from belote.server.store import StoreFull
from belote.server.thinking import NOBODY, Thinker

log = logging.getLogger("belote.tables")

#: Seconds a driver new to a table (taken over, or loaded after a restart) listens for who is where
#: before it tells the room who is gone: the other processes answer its ``who`` within milliseconds,
#: and the pages of a restarted server reconnect within a second or two.
PRESENCE_GRACE = 2.0
#: Seconds between a bot's tries of a move the store's full disk refused.
FULL_WAIT = 5.0

Mutate = Callable[[Message, int | None], Awaitable[list[Event]]]


async def _released(message: Message, expected: int | None) -> list[Event]:
    raise RuntimeError("the table was released: it changes no more in this process")


def _nobody() -> str:
    return NOBODY


class Driver:
    """The bots and timers of one table's ``replica``; its changes go through ``mutate`` (the table's,
    which tells everybody), with the revision they were decided at."""

    def __init__(
        self,
        replica: Replica,
        mutate: Mutate,
        here: Callable[[], list[int]],
        thinker: Thinker,
        pace: float,
        metrics: Metrics,
        clock: Callable[[], float] = time.time,
        owner: Callable[[], str] = _nobody,
    ) -> None:
        self.replica = replica
        self.mutate = mutate
        self.here = here  # the seats with a socket open on the table in this process
        self.clock = clock  # unix seconds: when a person left is a time every process shares
        self.thinker = thinker
        self.owner = owner  # whose turn in the workers' fair queue the bots think in (``Table.bots_owner``)
        self.pace = pace
        self.metrics = metrics
        self._bots: dict[int, Bot] = {}
        self._bots_epoch = replica.epoch
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._thought: tuple[int, int, asyncio.Future[Action]] | None = None  # a bot deciding: revision, seat
        self._position: tuple[int, str, int, int, bool] = (-1, "", -1, -1, False)
        self.turn_started = time.monotonic()
        self.remote: dict[str, set[int]] = {}  # in a shared hub: the seats with a socket in each other process
        self._listening: asyncio.TimerHandle | None = None  # who is where is being heard (``expect_presence``)
        self._recount = False  # who is gone is to be looked at again (a presence note, the end of listening)
        self._store_out = False  # the store was out of reach at the last try (said once, when it began)
        self._stopping = False  # ``stop`` was called: the loop ends at its next turn, even if its cancel was lost
        self.note_position()

    # ----------------------------------------------------------------- the clock and who is there
    def note_position(self) -> None:
        """Start the turn clock when the table has moved on: a new game, an action, a deal's score
        read, a bot standing in for the person to move or their coming back, or the host's start (a
        lobby's time is nobody's turn). A bot standing in for somebody else (gone from the table)
        leaves the clock of the person to move as it is."""
        room = self.replica.room
        mover_standin = room.match is not None and room.match.to_move in room.meta.standin
        position = (room.meta.game, room.meta.status, room.n_actions, room.meta.continued, mover_standin)
        if position != self._position:
            self._position = position
            self.turn_started = time.monotonic()

    def people_here(self) -> bool:
        """Whether a person of the table has a socket open on it, here or in another process."""
        return bool(self.here()) or any(self.remote.values())

    def present(self) -> set[int]:
        """The seats with a socket open on the table, here or (as far as this process heard) elsewhere."""
        return set(self.here()).union(*self.remote.values())

    def heard_presence(self, process: str, seats: list[int]) -> None:
        """Another process said which seats have a socket there."""
        if seats:
            self.remote[process] = set(seats)
        else:
            self.remote.pop(process, None)
        self._recount = True
        self._wake.set()

    def expect_presence(self, grace: float = PRESENCE_GRACE) -> None:
        """This driver is new to the table: hear who is where for ``grace`` seconds, then tell the
        room who is gone (a person whose socket was in a process that died, or who never came back
        after a restart, is otherwise never said to be gone)."""

        def heard() -> None:
            self._listening = None
            self._recount = True
            self._wake.set()

        if self._listening is not None:
            self._listening.cancel()
        self._listening = asyncio.get_running_loop().call_later(grace, heard)

    def now_ms(self) -> int:
        """The time absences are counted in (unix milliseconds)."""
        return int(self.clock() * 1000)

    def elapsed(self) -> float:
        """Seconds since the table last moved on (``note_position``)."""
        return time.monotonic() - self.turn_started

    def next_job(self) -> Job | None:
        """What the table waits for (``Room.next_job``), from now: absences counted."""
        return self.replica.room.next_job(self.elapsed(), self.people_here(), self.pace, self.now_ms())

    def turn_job(self) -> Job | None:
        """What the turn alone waits for (``Room.next_job`` without the absences): the turn's clock."""
        return self.replica.room.next_job(self.elapsed(), self.people_here(), self.pace)

    # ----------------------------------------------------------------- running
    def start(self, table_id: str) -> None:
        if self._task is None or self._task.done():
            self._stopping = False
            context = contextvars.copy_context()
            context.run(TABLE.set, table_id)  # what is logged while driving (a bot that fails...) names the table
            self._task = asyncio.get_running_loop().create_task(
                self._drive(), name=f"table {table_id[:6]}", context=context
            )

    @property
    def driving(self) -> bool:
        return self._task is not None and not self._task.done()

    async def stop(self) -> None:
        if self._listening is not None:
            self._listening.cancel()
            self._listening = None
        if self._task is not None:
            # A cancel that arrives in the middle of a Redis command can be lost (redis-py 8.2 swallows
            # it there): the loop then ends at its next turn, which the wake brings at once.
            # Cancelled once: a second cancel could cut a change between the store and the room.
            self._stopping = True
            self._task.cancel()
            self._wake.set()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._forget_thought()

    def wake(self) -> None:
        self._wake.set()

    def release(self) -> None:
        """Let go of the table's methods (its changes, its seats here, whose its bots are), once
        stopped for good (``Table.release``)."""
        self.mutate, self.here, self.owner = _released, list, _nobody

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
        owner = self.owner()

        async def decide() -> Action:
            started = time.perf_counter()
            try:
                action = await self.thinker.act(bot, view, owner)
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
            while self.replica.room.active and not self._stopping:
                self._wake.clear()  # before the count: a wake during it is heard below
                if self._recount and self._listening is None:
                    self._recount = False
                    await self._count_absent()
                job = self.next_job()
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
                except OUTAGE as e:
                    self._out_of_reach(e)
                    await asyncio.sleep(1.0)
                except StoreFull:  # the store said so once: the move is tried again until the disk has room
                    await asyncio.sleep(FULL_WAIT)
                except Exception:
                    log.exception("%s failed", job.kind)
                    self.metrics.errors.inc(where="table")
                    await asyncio.sleep(1.0)
                else:
                    self._in_reach()
        finally:
            self._forget_thought()

    async def _count_absent(self) -> None:
        """Tell the room of every person without a socket anywhere that it does not have as gone."""
        meta = self.replica.room.meta
        present = self.present()
        for seat in sorted(meta.people()):
            if seat in present or seat in meta.away:
                continue
            try:
                await self.mutate(Gone(seat, self.now_ms()), None)
            except StoreFull:  # the store said so once
                pass
            except Refusal as e:  # the seat changed hands meanwhile, or the store did not keep it
                log.info("%s could not be marked gone: %s", SEATS[seat], e)
            except OUTAGE as e:
                self._out_of_reach(e)
                self._recount = True  # looked at again once the store answers
            except Exception:
                log.exception("%s could not be marked gone", SEATS[seat])
                self.metrics.errors.inc(where="table")

    async def _run(self, job: Job) -> None:
        revision = self.replica.revision
        if job.kind == "continue":
            await self.mutate(Resume(None), revision)
        elif job.kind == "timeout" and job.seat is not None:
            await self.mutate(StandIn(job.seat), revision)
        elif job.kind == "bot" and job.seat is not None:
            action = await self._think(job.seat)
            await self.mutate(BotPlay(job.seat, action), revision)
            self._thought = None  # played (not before: a play the store could not take is tried again as decided)

    def _out_of_reach(self, e: Exception) -> None:
        """The store did not answer: said once, when the outage begins (a store that restarts is no
        error of the table's: no traceback), not at every try."""
        if not self._store_out:
            log.warning("the table waits for the store, out of reach: %s", e)
        self._store_out = True

    def _in_reach(self) -> None:
        if self._store_out:
            log.info("the store answers again: the table goes on")
        self._store_out = False
