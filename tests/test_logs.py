"""The log (server/logs.py): what one client does again and again is said once a minute."""

from __future__ import annotations

import logging

from belote.server import logs


def test_a_clients_repeated_lines_are_folded_into_one_a_minute() -> None:
    clock = [0.0]
    fold = logs.Fold(clock=lambda: clock[0])
    out: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            out.append(self.format(record))

    handler = Keep()
    handler.addFilter(fold)
    handler.addFilter(logs.TableField())
    handler.setFormatter(logs.TextFormatter())
    logger = logging.getLogger("belote.test_fold")
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.INFO)
    try:
        for i in range(2000):
            clock[0] = i * 0.02  # 2,000 in 40 s
            logger.info("the client left: %s", f"POST /api/sheets/{i}", extra={"client": "1.2.3.4"})
        logger.info("the client left: %s", "POST /api/solo", extra={"client": "5.6.7.8"})
        logger.warning("a line about no client")
        logger.warning("a line about no client")
        clock[0] = 60.5
        logs.say(fold.due())
        logger.info("the client left: %s", "POST /api/tables", extra={"client": "1.2.3.4"})
    finally:
        logger.removeHandler(handler)
    assert out == [
        "INFO belote.test_fold: the client left: POST /api/sheets/0 [client 1.2.3.4]",
        "INFO belote.test_fold: the client left: POST /api/solo [client 5.6.7.8]",
        "WARNING belote.test_fold: a line about no client",
        "WARNING belote.test_fold: a line about no client",
        "INFO belote.test_fold: … and 1,999 more from 1.2.3.4 in the last minute: the client left: POST /api/sheets/0",
        "INFO belote.test_fold: the client left: POST /api/tables [client 1.2.3.4]",
    ]
