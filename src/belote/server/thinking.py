"""Where the bots think: worker processes, one per core, so that no bot holds the event loop.

A search bot's decision is Python work (drawing worlds, scoring them) around the C solver: in a thread
of the server's process it holds the interpreter's lock for most of its time, so the bots of every
table would share one core with the event loop, and a person's action at one table would wait for a
bot at another. A ``Thinker`` sends each decision to a pool of processes instead: the event loop only
sends the bot and the player's view (both pickled, well under a kilobyte: the bot is its seed and
options, the view what the seat sees) and receives the action.

A bot decides from its seed and the view alone (every bot of ``belote.bots`` keeps nothing from one
call to the next: the search bot seeds its draws from the view), so a copy of it in a worker decides
exactly as it would here, and a game replays the same wherever its bots thought.

The workers are shared fairly (``FairQueue``): every task has an owner (the people a table's bots
play for, the person asking for a hint or an analysis), each owner's tasks wait in a line of their
own, and a free worker takes the next task of the owner with the fewest running, served least
recently. The pool itself is never given more tasks than it has workers: whatever waits, waits in
the fair queue, so that one owner's hundred tasks delay another's first by one task, not a hundred.

A worker that dies (killed, out of memory) breaks the pool: the pool is replaced and the decision
tried once more; if that fails too, the heuristic bot answers in a thread of this process. The table
never waits on a dead worker. ``workers=0`` keeps the bots in threads of this process (the tests
use it to stay light; the solver itself releases the lock while it searches).

The workers end with their server, however it ends (a ``kill -9`` included): see ``_start_worker``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import multiprocessing.connection
import multiprocessing.forkserver
import os
import pickle
import signal
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

from belote.bots import Bot
from belote.bots.heuristic import HeuristicBot
from belote.game import Action, PlayerView
from belote.hints import hint

__all__ = ["NOBODY", "FairQueue", "Thinker", "WorkersLost", "address_owner", "default_workers"]

log = logging.getLogger("belote.server")
T = TypeVar("T")
R = TypeVar("R")
#: Tries of a decision in a pool that breaks (a new pool each time) before the heuristic bot answers.
TRIES = 2


def default_workers() -> int:
    """One worker process per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


#: The owner of the work done for nobody in particular: the bots of every table nobody is at share one
#: turn in the fair queue, however many such tables there are.
NOBODY = "nobody"


def address_owner(address: str) -> str:
    """The owner, in the fair queue, of the work done for a client address: its hints, its analyses,
    the bots of the tables its people sit at. One turn per address, however many sockets and tables.

    >>> address_owner("203.0.113.9")
    'address 203.0.113.9'
    """
    return f"address {address}"


#: ``prctl``'s option that gives a process a signal when its parent ends (linux/prctl.h).
PR_SET_PDEATHSIG = 1


def _start_worker() -> None:
    """In a worker, before its first task: it ends with the server.

    A worker waits for its tasks on a pipe whose write end it holds itself, so the server's death
    never wakes it; and its parent is the fork server, which stays while any worker keeps its end of
    the fork server's own "alive" pipe. Without this a ``kill -9`` of the server left the fork
    server and every worker running for ever. So a worker:

    - gives back its end of the fork server's "alive" pipe (a worker starts no process): the fork
      server then ends as soon as the server does, its last holder;
    - on Linux, asks for SIGKILL when its parent, the fork server, ends (``PR_SET_PDEATHSIG``);
    - everywhere, watches the server itself: the pipe that multiprocessing keeps open from the
      server to each child (``parent_process().sentinel``) reads its end when the server ends.
    """
    # Ctrl-C at ``belote serve`` reaches the whole process group: the server shuts the pool down.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    forkserver = multiprocessing.forkserver._forkserver
    alive = getattr(forkserver, "_forkserver_alive_fd", None)
    if alive is not None:
        with contextlib.suppress(OSError):
            os.close(alive)
        forkserver._forkserver_alive_fd = None  # type: ignore[attr-defined]
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    server = multiprocessing.parent_process()
    if server is not None:
        threading.Thread(target=_end_with, args=(server.sentinel,), name="server watch", daemon=True).start()


def _end_with(sentinel: int) -> None:
    """In a worker: waits until the server's end of the pipe is closed (it ended), then ends this process."""
    multiprocessing.connection.wait([sentinel])
    os._exit(1)


#: How long the workers' start waits for all of them before going on with those that came.
START_WAIT = 30.0


def _check_in(folder: str, workers: int) -> int:
    """In a worker, at the pool's start: say so in ``folder`` and wait there until ``workers`` have.

    The pool starts a process for a task only while none is idle: a task that returned at once
    would let one process take every task of the start. Held until all have checked in, each
    task is taken by a process of its own, so that every worker is started with the app."""
    pid = os.getpid()
    with open(os.path.join(folder, str(pid)), "w"):
        pass
    deadline = time.monotonic() + START_WAIT
    while len(os.listdir(folder)) < workers and time.monotonic() < deadline:
        time.sleep(0.005)
    return pid


def _decide(payload: bytes) -> Action:
    """In a worker: the bot's action for the view."""
    bot, view = pickle.loads(payload)
    action: Action = bot.act(view)
    return action


def _analyse(record: dict[str, Any]) -> dict[str, Any]:
    """In a worker: the analysis of a finished deal's record (``belote.analysis.analyse``, with the bot's view)."""
    from belote.analysis import analyse

    return analyse(record)


def _hint(payload: bytes) -> dict[str, Any]:
    """In a worker: the bot's hint for the view (``belote.hints``)."""
    bot, view = pickle.loads(payload)
    return hint(view, bot)


class WorkersLost(RuntimeError):
    """A task whose worker process died each time it was tried."""


@dataclass
class _Line:
    """One owner's tasks in the fair queue: those waiting for a worker (each a future that is given
    its turn), how many are running, and the queue's count of turns when it last had one."""

    waiting: deque[asyncio.Future[None]] = field(default_factory=deque)
    running: int = 0
    served: int = 0  # 0: never since its line was opened (it had nothing waiting nor running before)


class FairQueue:
    """``places`` tasks at once (the workers), given in turn to the owners that wait.

    Each owner's tasks wait in a line of their own, in the order they came. A free place goes to the
    waiting owner with the fewest tasks running, and among those to the one served least recently
    (an owner that had nothing waiting nor running comes first: it was not served since; then in the
    order the owners came). So a backlog, however long, is its owner's alone: another owner's first
    task waits at most for one task of each owner ahead of it, and an owner alone takes every place.
    A task that is cancelled while it waits leaves its line; its place, once given, is the caller's
    to give back (``turn``'s answer), exactly once, when the work is really done.
    """

    def __init__(self, places: int) -> None:
        if places < 1:
            raise ValueError("a fair queue needs a place")
        self.places = places
        self.busy = 0
        self._lines: dict[str, _Line] = {}
        self._turns = 0

    def waiting(self, owner: str | None = None) -> int:
        """Tasks waiting for a place (of ``owner``, or of all)."""
        lines = self._lines.values() if owner is None else [self._lines.get(owner, _Line())]
        return sum(len(line.waiting) for line in lines)

    async def turn(self, owner: str) -> Callable[[], None]:
        """Waits for a place for a task of ``owner``; the function that gives it back (once)."""
        line = self._lines.setdefault(owner, _Line())
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        line.waiting.append(ticket)
        self._give()
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():  # given a place as it was cancelled: give it back
                self._release(owner)
            else:
                with contextlib.suppress(ValueError):
                    line.waiting.remove(ticket)
                self._forget(owner)
            raise
        given = True

        def release() -> None:
            nonlocal given
            if given:
                given = False
                self._release(owner)

        return release

    def _next_owner(self) -> str | None:
        """The waiting owner with the fewest tasks running, served least recently (the first come among equals)."""
        chosen, best = None, (0, 0)
        for owner, line in self._lines.items():
            if line.waiting and (chosen is None or (line.running, line.served) < best):
                chosen, best = owner, (line.running, line.served)
        return chosen

    def _give(self) -> None:
        while self.busy < self.places:
            owner = self._next_owner()
            if owner is None:
                return
            line = self._lines[owner]
            ticket = line.waiting.popleft()
            if ticket.done():  # cancelled while it waited: its task is gone
                self._forget(owner)
                continue
            self._turns += 1
            line.running += 1
            line.served = self._turns
            self.busy += 1
            ticket.set_result(None)

    def _release(self, owner: str) -> None:
        self.busy -= 1
        self._lines[owner].running -= 1
        self._forget(owner)
        self._give()

    def _forget(self, owner: str) -> None:
        """Drops an owner's line once it has nothing waiting nor running (owners come and go by the thousand)."""
        line = self._lines.get(owner)
        if line is not None and not line.waiting and not line.running:
            del self._lines[owner]


class Thinker:
    """Runs bots' decisions in ``workers`` processes (default: one per core), or in threads with 0;
    shared between their owners by a ``FairQueue``."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else workers
        if self.workers < 0:
            raise ValueError("think workers must be 0 (threads) or more")
        self._pool = self._new_pool() if self.workers else None
        self.queue = FairQueue(max(1, self.workers))  # (threads wait in no queue: with no workers it stays empty)
        self._closed = False

    def _new_pool(self) -> ProcessPoolExecutor:
        # A fork server: workers start from a small clean process (not a copy of the server with its
        # threads and sockets), with the bots already imported.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["belote.server.thinking"])
        return ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_worker)

    async def start(self) -> None:
        """Starts the workers now, off the event loop, rather than at the first bot's decision (the
        first start of the fork server imports the bots: a fraction of a second)."""
        pool, n = self._pool, self.workers
        if pool is not None:

            def start() -> None:
                with tempfile.TemporaryDirectory(prefix="belote-workers-") as folder:
                    for future in [pool.submit(_check_in, folder, n) for _ in range(n)]:
                        future.result()

            await asyncio.to_thread(start)
            log.info("the bots think in %d worker processes: %s", n, " ".join(map(str, self.pids())))

    @property
    def processes(self) -> bool:
        """Whether decisions go to worker processes (else threads of this process)."""
        return self._pool is not None

    def pids(self) -> list[int]:
        """The worker processes' ids (none in threads)."""
        pool = self._pool
        return sorted(pool._processes) if pool is not None and pool._processes else []

    async def _in_worker(self, fn: Callable[[T], R], arg: T, what: str, owner: str) -> R | None:
        """``fn(arg)`` in a worker process, when ``owner``'s turn comes in the fair queue; None when
        there is no pool to run it (no workers, or the server stops). A pool that breaks is replaced
        and the task tried again, ``TRIES`` times in all; then ``WorkersLost`` (a task that kills
        every worker it meets)."""
        for _ in range(TRIES):
            if self._pool is None:
                return None
            release = await self.queue.turn(owner)
            pool = self._pool
            if pool is None:
                release()
                return None
            try:
                try:
                    future = pool.submit(fn, arg)
                except BaseException:
                    release()
                    raise
                _release_when_done(future, release)
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                log.warning("a worker process died during %s: its pool is replaced", what)
                self._replace(pool)
            except RuntimeError:  # the pool was shut down meanwhile (the server stops)
                if self._closed:
                    return None
                raise
        raise WorkersLost(f"no worker could finish {what}")

    async def act(self, bot: Bot, view: PlayerView, owner: str = NOBODY) -> Action:
        """The bot's action for the view, decided off the event loop, in ``owner``'s turn."""
        if self._pool is None:
            return await asyncio.to_thread(bot.act, view)
        try:
            payload = pickle.dumps((bot, view))
        except (pickle.PicklingError, TypeError, AttributeError):
            # A bot made of what cannot leave this process (a test's, say) thinks in a thread here.
            return await asyncio.to_thread(bot.act, view)
        with contextlib.suppress(WorkersLost):
            action = await self._in_worker(_decide, payload, "a bot's decision", owner)
            if action is not None:
                return action
        log.error("bot %s at seat %s: no worker could decide; the heuristic bot answers", bot.name, view.seat)
        return await asyncio.to_thread(HeuristicBot().act, view)

    async def analyse(self, record: dict[str, Any], owner: str = NOBODY) -> dict[str, Any]:
        """The analysis of a finished deal's record (seconds of CPU: ``POST /api/analyse``), made in a
        worker like a bot's decision, in ``owner``'s turn, or in a thread of this process when there
        are no workers. A pool that breaks is replaced and the analysis tried once more; if it breaks
        again, ``WorkersLost``: a record whose analysis kills its worker is not run in the server's
        own process."""
        answer = await self._in_worker(_analyse, record, "an analysis", owner)
        if answer is None:
            return await asyncio.to_thread(_analyse, record)
        return answer

    async def work(self, fn: Callable[[T], R], arg: T, what: str, owner: str = NOBODY) -> R:
        """``fn(arg)`` (a module's function, picklable, deterministic) in a worker in ``owner``'s turn,
        or in a thread of this process when there are no workers: a tournament's bots playing its
        boards alone (``tournaments.play_board``)."""
        answer = await self._in_worker(fn, arg, what, owner)
        if answer is None:
            return await asyncio.to_thread(fn, arg)
        return answer

    async def hint(self, bot: Bot, view: PlayerView, owner: str = NOBODY) -> dict[str, Any]:
        """The bot's hint for the view (``belote.hints.hint``), worked out off the event loop like a
        decision, in ``owner``'s turn: a broken pool is replaced and tried once more, then the
        heuristic bot's card answers."""
        if self._pool is None:
            return await asyncio.to_thread(hint, view, bot)
        with contextlib.suppress(WorkersLost):
            answer = await self._in_worker(_hint, pickle.dumps((bot, view)), "a hint", owner)
            if answer is not None:
                return answer
        log.error("a hint at seat %s: no worker could work it out; the heuristic bot answers", view.seat)
        return await asyncio.to_thread(hint, view, HeuristicBot())

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """A new pool for a broken one (once: the decisions that broke with it find it replaced)."""
        if self._pool is broken and not self._closed:
            broken.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()

    async def close(self) -> None:
        """Stops the workers (after the decisions they are making: a bounded wait, ``SearchBot``'s
        budget); later decisions think in threads."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)


def _release_when_done(future: Future[Any], release: Callable[[], None]) -> None:
    """Gives a task's place in the fair queue back when its worker is done with it, not when its caller
    stops waiting (a table that moved on): the pool never holds more tasks than it has workers."""
    loop = asyncio.get_running_loop()

    def done(_: Future[Any]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server stopped
            loop.call_soon_threadsafe(release)

    future.add_done_callback(done)
