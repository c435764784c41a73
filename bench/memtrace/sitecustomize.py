"""A bench's window into a server's memory: with ``BELOTE_TRACEMALLOC=DIR`` set, the Python process
that starts first traces its allocations (``tracemalloc``, 8 frames) and writes a snapshot into DIR
(``snapshot-N.tracemalloc``) each time it gets SIGUSR1, after a full collection: what the snapshots
hold is what is still reachable, not the garbage the collector has not come to yet (the server
raises its thresholds: ``belote.server.app.GC_THRESHOLD``). SIGUSR2 writes instead what that
collection finds to be garbage, counted by type (``garbage-N.json``): the cycles the server makes
and leaves for the collector. bench/soak.py ``--trace`` puts this folder on
the server's ``PYTHONPATH`` and compares the snapshots; nothing else reads it.

The variable is taken out of the environment at once: the bots' worker processes, started later
with the server's environment, are not traced.
"""

from __future__ import annotations

import collections
import gc
import json
import os
import signal
import tracemalloc
from pathlib import Path
from types import FrameType

_folder = os.environ.pop("BELOTE_TRACEMALLOC", None)

if _folder:
    _count = [0]

    def _garbage(signum: int, frame: FrameType | None, count: bool = True) -> None:
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            kinds = collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
        finally:
            gc.garbage.clear()
            gc.set_debug(0)
        path = Path(_folder) / f"garbage-{_count[0]}.json"
        path.write_text(json.dumps({"objects": sum(kinds.values()), "by_type": dict(kinds.most_common(40))}))
        if count:
            _count[0] += 1

    def _dump(signum: int, frame: FrameType | None) -> None:
        path = Path(_folder) / f"snapshot-{_count[0]}.tracemalloc"
        _garbage(signum, frame, count=False)
        tracemalloc.take_snapshot().dump(str(path.with_suffix(".part")))
        path.with_suffix(".part").rename(path)  # whole when it appears
        _count[0] += 1

    tracemalloc.start(8)
    signal.signal(signal.SIGUSR1, _dump)
    signal.signal(signal.SIGUSR2, _garbage)
