"""The server's log lines: each one about a table names it, as text for people or JSON for programs.

A record is about a table when it is logged with ``extra={"table": id}`` or while ``TABLE`` is set:
a table's driver (its bots and timers) and a socket's handling of a message set it, so whatever is
logged below them (a bot that fails, the store that refuses a write) names the table without being
told. ``TableField`` puts the id on the record (None when it is about no table); ``JsonFormatter``
writes one JSON object a line: time, level, logger, message, table (and the traceback, if any).

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
from collections.abc import Iterator
from datetime import UTC, datetime

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
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """``LEVEL logger: message [table ID]``, for a person reading a terminal.

    >>> record = logging.makeLogRecord({"name": "belote.tables", "levelname": "INFO", "msg": "solo table opened"})
    >>> TableField().filter(record) and TextFormatter().format(record)
    'INFO belote.tables: solo table opened'
    >>> record.table = "T1"
    >>> TextFormatter().format(record)
    'INFO belote.tables: solo table opened [table T1]'
    """

    def __init__(self) -> None:
        super().__init__("%(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        table = getattr(record, "table", None)
        if table is None:
            return text
        first, _, rest = text.partition("\n")
        return f"{first} [table {table}]" + (f"\n{rest}" if rest else "")


def setup(form: str = "text", level: int = logging.INFO) -> logging.Handler:
    """Log to standard error in ``form`` (``text`` or ``json``): the root logger's only handler, so that
    uvicorn's records, which propagate to it, come out in the same form."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(TableField())
    handler.setFormatter(JsonFormatter() if form == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
