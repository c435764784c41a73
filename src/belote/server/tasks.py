"""Stopping the server's background tasks for sure.

A cancel that reaches a task in the middle of a Redis command can be lost: under Python 3.11,
redis-py's timeouts (``asyncio.timeout`` and ``wait_for``) swallow a cancel that arrives as the
command completes, and the task's loop goes on to its next round. ``task.cancel(); await task`` then
waits for ever: a server whose shutdown never ends, a test that hangs. ``stop`` cancels again until
the task has ended.

>>> async def deaf() -> str:  # swallows the first cancel, as a lost one, then sleeps on
...     try:
...         await asyncio.sleep(60)
...     except asyncio.CancelledError:
...         pass
...     await asyncio.sleep(60)
...     return "never"
>>> async def main() -> bool:
...     task = asyncio.create_task(deaf())
...     await asyncio.sleep(0)
...     await stop(task)
...     return task.cancelled()
>>> asyncio.run(main())
True
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

#: Seconds between two cancels of a task that did not end at the last: long enough for a command
#: under way to finish (a second cancel must not cut what the first let end), short for a shutdown.
CANCEL_AGAIN = 1.0


async def stop(task: asyncio.Task[Any] | asyncio.Future[Any] | None) -> None:
    """Cancel ``task`` and wait for its end, cancelling it again while a cancel was lost; an error it
    ended with is raised, its cancellation is not."""
    if task is None:
        return
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=CANCEL_AGAIN)
    with contextlib.suppress(asyncio.CancelledError):
        await task
