"""A bench's window into a server's memory: with ``BELOTE_TRACEMALLOC=DIR`` set, the server traces
its allocations (``tracemalloc``, 8 frames) and writes a snapshot into DIR (``snapshot-N.tracemalloc``)
each time it gets SIGUSR1, after a full collection: what the snapshots hold is what is still
reachable, not the garbage the collector had not come to yet; and what that collection found to
be garbage, counted by type (``garbage-N.json``): the cycles the server leaves for the collector.
SIGUSR2 counts the garbage alone. bench/soak.py ``--trace`` puts this folder on the server's
``PYTHONPATH`` and reads the files; nothing else does.

With ``BELOTE_GCLOG=FILE`` set, the server times each of its collections, by generation, and
writes their counts, total and longest pause as JSON into FILE (every few seconds, and when it stops): how often a full
collection pauses it under a load (``belote.server.app.GC_THRESHOLD``).

Only the process that runs ``belote.cli serve`` reads the variables: neither the benchmark that
starts it nor the bots' worker processes are traced.
"""

from __future__ import annotations

import atexit
import collections
import gc
import json
import os
import signal
import sys
import time
import tracemalloc
from pathlib import Path
from types import FrameType
from typing import Any

_serve = "belote.cli" in sys.orig_argv and "serve" in sys.orig_argv
_folder = os.environ.get("BELOTE_TRACEMALLOC") if _serve else None
_gclog = os.environ.get("BELOTE_GCLOG") if _serve else None

if _gclog:
    _began = [0.0]
    _pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}

    _written = [0.0]

    def _write() -> None:
        out = {g: {"count": len(p), "total_s": sum(p), "max_s": max(p, default=0.0)} for g, p in _pauses.items()}
        Path(str(_gclog)).write_text(json.dumps(out))

    def _timed(phase: str, info: dict[str, Any]) -> None:
        now = time.perf_counter()
        if phase == "start":
            _began[0] = now
            return
        _pauses[info["generation"]].append(now - _began[0])
        if now - _written[0] > 5:  # a server stopped by a signal writes nothing at its exit
            _written[0] = now
            _write()

    gc.callbacks.append(_timed)
    atexit.register(_write)

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
