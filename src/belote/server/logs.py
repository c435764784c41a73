"""The server's log lines: each one about a table names it, as text for people or JSON for programs;
what one client does again and again is said once a minute.

A record is about a table when it is logged with ``extra={"table": id}`` or while ``TABLE`` is set:
a table's driver (its bots and timers) and a socket's handling of a message set it, so whatever is
logged below them (a bot that fails, the store that refuses a write) names the table without being
told. ``TableField`` puts the id on the record (None when it is about no table); ``JsonFormatter``
writes one JSON object a line: time, level, logger, message, table (and the traceback, if any).

A record is about a client when it is logged with ``extra={"client": address}`` (``ClientLog`` gives
uvicorn's records of a connection their client): ``Fold`` lets the first of each kind from one address
through and holds back the same line from that address for a minute, then says how many it held back,
so that a stranger who repeats a bad request cannot fill the disk with the log.

>>> import io
>>> out = io.StringIO()
>>> handler = logging.StreamHandler(out)
>>> handler.addFilter(TableField())
>>> handler.setFormatter(JsonFormatter())
>>> logger = logging.getLogger("belote.doctest")
>>> logger.addHandler(handler)
>>> logger.propagate = False
>>> with about("T1"):
...     logger.warning("the bot at %s failed", "N")
>>> line = json.loads(out.getvalue())
>>> line["level"], line["logger"], line["message"], line["table"]
('WARNING', 'belote.doctest', 'the bot at N failed', 'T1')
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator, MutableMapping
from datetime import UTC, datetime
from typing import Any

#: The table the code running now is about (a context variable: each task and thread has its own).
TABLE: contextvars.ContextVar[str | None] = contextvars.ContextVar("belote_table", default=None)
FORMATS = ("text", "json")


@contextlib.contextmanager
def about(table_id: str | None) -> Iterator[None]:
    """Every record logged in this block (and in the tasks and threads it starts) names ``table_id``."""
    token = TABLE.set(table_id)
    try:
        yield
    finally:
        TABLE.reset(token)


class TableField(logging.Filter):
    """Gives each record a ``table``: the one it was logged with, or the one the code runs for."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "table", None) is None:
            record.table = TABLE.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, ``table``."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "table": getattr(record, "table", None),
        }
        client = getattr(record, "client", None)
        if client is not None:
            line["client"] = client
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """``LEVEL logger: message [table ID] [client ADDRESS]``, for a person reading a terminal.

    >>> record = logging.makeLogRecord({"name": "belote.tables", "levelname": "INFO", "msg": "solo table opened"})
    >>> TableField().filter(record) and TextFormatter().format(record)
    'INFO belote.tables: solo table opened'
    >>> record.table = "T1"
    >>> TextFormatter().format(record)
    'INFO belote.tables: solo table opened [table T1]'
    >>> record.client = "203.0.113.9"
    >>> TextFormatter().format(record)
    'INFO belote.tables: solo table opened [table T1] [client 203.0.113.9]'
    """

    def __init__(self) -> None:
        super().__init__("%(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        table, client = getattr(record, "table", None), getattr(record, "client", None)
        if table is None and client is None:
            return text
        first, _, rest = text.partition("\n")
        first += "" if table is None else f" [table {table}]"
        first += "" if client is None else f" [client {client}]"
        return first + (f"\n{rest}" if rest else "")


#: How long ``Fold`` holds back the repeats of a line from one client, in seconds.
FOLD_SECONDS = 60.0
#: Kinds of lines ``Fold`` tells apart at once: past them, new addresses are folded together.
FOLD_KEYS = 1000
#: The addresses of the lines folded together past ``FOLD_KEYS``.
OTHERS = "other addresses"


class Fold(logging.Filter):
    """Lets through the first line of each kind (its logger, and its ``kind`` if logged with one, else
    its words before the values are put in) from one client address, and holds back the same kind
    from that address for ``seconds``:
    when they are over, one line of the same level says how many were held back. Lines about no
    client pass as they are.

    >>> clock = [0.0]
    >>> fold = Fold(clock=lambda: clock[0])
    >>> def line(address):
    ...     return logging.makeLogRecord({"name": "belote.x", "msg": "cut short: %s", "args": ("POST",),
    ...                                   "levelno": logging.INFO, "client": address})
    >>> [fold.filter(line("1.2.3.4")) for _ in range(3)], fold.filter(line("5.6.7.8"))
    ([True, False, False], True)
    >>> clock[0] = 61.0
    >>> fold.due()
    [(20, 'belote.x', '… and 2 more from 1.2.3.4 in the last minute: cut short: POST')]
    >>> fold.filter(line("1.2.3.4"))
    True
    """

    def __init__(self, seconds: float = FOLD_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.seconds = seconds
        self.clock = clock
        #: By (logger, words, address): when the first line came, its level and text, and the lines held back.
        self.held: dict[tuple[str, str, str], list[Any]] = {}
        self.lock = threading.Lock()  # bots and the store log from threads too
        self.checked = 0.0

    def filter(self, record: logging.LogRecord) -> bool:
        client = getattr(record, "client", None)
        if client is None:
            return True
        now = self.clock()
        if now - self.checked >= 1.0:  # the ends of the windows, once a second at most
            self.checked = now
            say(self.due(now))
        kind = str(getattr(record, "kind", record.msg))
        key = (record.name, kind, str(client))
        with self.lock:
            if key not in self.held and len(self.held) >= FOLD_KEYS:
                key = (record.name, kind, OTHERS)
            held = self.held.get(key)
            if held is None:
                self.held[key] = [now, record.levelno, record.getMessage(), 0]
                return True
            held[3] += 1
            return False

    def due(self, now: float | None = None) -> list[tuple[int, str, str]]:
        """The lines that say how many were held back, for the windows that are over (which it forgets):
        (level, logger, words)."""
        now = self.clock() if now is None else now
        out = []
        with self.lock:
            for key, (start, level, text, count) in list(self.held.items()):
                if now - start >= self.seconds:
                    del self.held[key]
                    if count:
                        out.append((level, key[0], f"… and {count:,} more from {key[2]} in the last minute: {text}"))
        return out


def say(lines: list[tuple[int, str, str]]) -> None:
    """Log the lines of ``Fold.due``, each by the logger of the lines it counts."""
    for level, name, text in lines:
        logging.getLogger(name).log(level, text)


#: The fold of the handler ``setup`` made (None before).
FOLDED: Fold | None = None


def flush_folded() -> None:
    """Say how many lines were held back in the windows that are over (the server calls it every few
    seconds, so that the count of a client who stopped is said too)."""
    if FOLDED is not None:
        say(FOLDED.due())


class ClientLog(logging.LoggerAdapter[logging.Logger]):
    """A logger whose records are about one client (``extra={"client": address}``): uvicorn's logger
    for one connection, so that its lines about it (a request that is not HTTP, an exception) fold.

    >>> ClientLog(logging.getLogger("uvicorn.error"), "1.2.3.4").process("x", {})
    ('x', {'extra': {'client': '1.2.3.4'}})
    """

    def __init__(self, logger: logging.Logger | ClientLog, client: str) -> None:
        super().__init__(logger.logger if isinstance(logger, ClientLog) else logger, {"client": client})

    @property
    def level(self) -> int:
        """The logger's own level: uvicorn reads it before it writes a line of its TRACE level."""
        return self.logger.level

    def process(self, msg: Any, kwargs: MutableMapping[str, Any]) -> tuple[Any, MutableMapping[str, Any]]:
        kwargs["extra"] = {**(kwargs.get("extra") or {}), **(self.extra or {})}
        return msg, kwargs


def setup(form: str = "text", level: int = logging.INFO) -> logging.Handler:
    """Log to standard error in ``form`` (``text`` or ``json``): the root logger's only handler, so that
    uvicorn's records, which propagate to it, come out in the same form; each client's repeated lines
    are folded (``Fold``)."""
    global FOLDED
    handler = logging.StreamHandler(sys.stderr)
    FOLDED = Fold()
    handler.addFilter(FOLDED)
    handler.addFilter(TableField())
    handler.setFormatter(JsonFormatter() if form == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
