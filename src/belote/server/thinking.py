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

A worker that dies (killed, out of memory) breaks the pool: the pool is replaced and the decision
tried once more; if that fails too, the heuristic bot answers in a thread of this process. The table
never waits on a dead worker. ``workers=0`` keeps the bots in threads of this process (the tests
use it to stay light; the solver itself releases the lock while it searches).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import signal
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from belote.bots import Bot
from belote.bots.heuristic import HeuristicBot
from belote.game import Action, PlayerView
from belote.hints import hint

__all__ = ["Thinker", "WorkersLost", "default_workers"]

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


def _start_worker() -> None:
    # Ctrl-C at ``belote serve`` reaches the whole process group: the server shuts the pool down.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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


class Thinker:
    """Runs bots' decisions in ``workers`` processes (default: one per core), or in threads with 0."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else workers
        if self.workers < 0:
            raise ValueError("think workers must be 0 (threads) or more")
        self._pool = self._new_pool() if self.workers else None
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

    @property
    def processes(self) -> bool:
        """Whether decisions go to worker processes (else threads of this process)."""
        return self._pool is not None

    async def _in_worker(self, fn: Callable[[T], R], arg: T, what: str) -> R | None:
        """``fn(arg)`` in a worker process; None when there is no pool to run it (no workers, or the
        server stops). A pool that breaks is replaced and the task tried again, ``TRIES`` times in
        all; then ``WorkersLost`` (a task that kills every worker it meets)."""
        for _ in range(TRIES):
            pool = self._pool
            if pool is None:
                return None
            try:
                return await asyncio.wrap_future(pool.submit(fn, arg))
            except BrokenProcessPool:
                log.warning("a worker process died during %s: its pool is replaced", what)
                self._replace(pool)
            except RuntimeError:  # the pool was shut down meanwhile (the server stops)
                if self._closed:
                    return None
                raise
        raise WorkersLost(f"no worker could finish {what}")

    async def act(self, bot: Bot, view: PlayerView) -> Action:
        """The bot's action for the view, decided off the event loop."""
        if self._pool is None:
            return await asyncio.to_thread(bot.act, view)
        try:
            payload = pickle.dumps((bot, view))
        except (pickle.PicklingError, TypeError, AttributeError):
            # A bot made of what cannot leave this process (a test's, say) thinks in a thread here.
            return await asyncio.to_thread(bot.act, view)
        with contextlib.suppress(WorkersLost):
            action = await self._in_worker(_decide, payload, "a bot's decision")
            if action is not None:
                return action
        log.error("bot %s at seat %s: no worker could decide; the heuristic bot answers", bot.name, view.seat)
        return await asyncio.to_thread(HeuristicBot().act, view)

    async def analyse(self, record: dict[str, Any]) -> dict[str, Any]:
        """The analysis of a finished deal's record (seconds of CPU: ``POST /api/analyse``), made in a
        worker like a bot's decision, or in a thread of this process when there are no workers. A pool
        that breaks is replaced and the analysis tried once more; if it breaks again, ``WorkersLost``:
        a record whose analysis kills its worker is not run in the server's own process."""
        answer = await self._in_worker(_analyse, record, "an analysis")
        if answer is None:
            return await asyncio.to_thread(_analyse, record)
        return answer

    async def hint(self, bot: Bot, view: PlayerView) -> dict[str, Any]:
        """The bot's hint for the view (``belote.hints.hint``), worked out off the event loop like a
        decision: a broken pool is replaced and tried once more, then the heuristic bot's card answers."""
        if self._pool is None:
            return await asyncio.to_thread(hint, view, bot)
        with contextlib.suppress(WorkersLost):
            answer = await self._in_worker(_hint, pickle.dumps((bot, view)), "a hint")
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
