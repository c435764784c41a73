"""What a server counts, and ``GET /metrics`` that shows it in Prometheus' text format (version 0.0.4).

Written by hand rather than with ``prometheus_client``: the server needs three kinds of series
(counters, histograms, and gauges read when scraped) and one page; each app has its own
``Metrics``, so that two apps in one process (the tests) count apart.

>>> m = Metrics()
>>> m.refusals.inc(code="not_your_turn")
>>> m.action_seconds.observe(0.004)
>>> text = m.render([])
>>> 'belote_refusals_total{code="not_your_turn"} 1' in text, 'belote_action_seconds_bucket{le="0.005"} 1' in text
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

Labels = tuple[tuple[str, str], ...]

#: Seconds from a person's action arriving to the state that answers it being queued for every client.
ACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: Seconds a bot thinks: a median card takes ~10 ms, a bid ~130 ms, the slowest seconds.
BOT_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


def _labels(labels: Labels, extra: str = "") -> str:
    parts = [f'{k}="{_escape(v)}"' for k, v in labels]
    if extra:
        parts.append(extra)
    return "{" + ",".join(parts) + "}" if parts else ""


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return str(int(value)) if float(value).is_integer() else repr(float(value))


class Counter:
    """A count that only grows (its name ends in ``_total``), one per set of labels."""

    def __init__(self, name: str, help: str) -> None:
        self.name, self.help = name, help
        self.values: dict[Labels, float] = {}

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        self.values[key] = self.values.get(key, 0.0) + amount

    def value(self, **labels: str) -> float:
        return self.values.get(tuple(sorted(labels.items())), 0.0)

    def lines(self) -> list[str]:
        out = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} counter"]
        out += [f"{self.name}{_labels(k)} {_number(v)}" for k, v in sorted(self.values.items())]
        return out


class Histogram:
    """How long something took, in cumulative buckets (``le``: at most so many seconds), with the sum and count."""

    def __init__(self, name: str, help: str, buckets: Sequence[float]) -> None:
        self.name, self.help = name, help
        self.bounds = (*sorted(buckets), math.inf)
        self.counts = [0] * len(self.bounds)
        self.sum = 0.0
        self.count = 0

    def observe(self, seconds: float) -> None:
        for i, bound in enumerate(self.bounds):
            if seconds <= bound:
                self.counts[i] += 1
                break
        self.sum += seconds
        self.count += 1

    def lines(self) -> list[str]:
        out = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} histogram"]
        total = 0
        for bound, n in zip(self.bounds, self.counts, strict=True):
            total += n
            out.append(f'{self.name}_bucket{{le="{_number(bound)}"}} {total}')
        out += [f"{self.name}_sum {_number(self.sum)}", f"{self.name}_count {self.count}"]
        return out


class Gauge:
    """A value read when scraped (tables held, sockets open, players waiting): set just before rendering."""

    def __init__(self, name: str, help: str, values: Iterable[tuple[dict[str, str], float]]) -> None:
        self.name, self.help = name, help
        self.values = [(tuple(sorted(labels.items())), v) for labels, v in values]

    def lines(self) -> list[str]:
        out = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} gauge"]
        out += [f"{self.name}{_labels(k)} {_number(v)}" for k, v in sorted(self.values)]
        return out


class Metrics:
    """The counters and histograms of one app; the gauges come from the app's state at each scrape."""

    def __init__(self) -> None:
        self.actions = Counter("belote_actions_total", "Actions played at the tables of this process, by table kind.")
        self.refusals = Counter("belote_refusals_total", "Refused messages and requests, by refusal code.")
        self.errors = Counter(
            "belote_errors_total",
            "Server errors (an exception the server caught and logged), by where: socket, http, table.",
        )
        self.expired = Counter("belote_expired_tables_total", "Tables removed by the expiry sweep, by kind.")
        self.expired_sheets = Counter(
            "belote_expired_sheets_total", "Score sheets removed by the expiry sweep (SQLite; Redis expires its own)."
        )
        self.action_seconds = Histogram(
            "belote_action_seconds",
            "Seconds from a person's action arriving to the state that answers it being queued for every client.",
            ACTION_BUCKETS,
        )
        self.bot_seconds = Histogram(
            "belote_bot_decision_seconds", "Seconds a bot thinks over one action.", BOT_BUCKETS
        )
        self.broken_requests = Counter(
            "belote_broken_requests_total",
            "Requests that ended without an answer because of their client, by why: left_mid_body (the "
            "client closed its connection in the middle of the body), not_http (answered 400).",
        )
        self.reports = Counter(
            "belote_player_reports_total",
            "Players reported by others (POST /api/me/reports): each is in the log with both ids and the reason.",
        )
        #: More gauges, read at each scrape: the connections of the server (server/connections.py).
        self.sources: list[Callable[[], Iterable[Gauge]]] = []

    def render(self, gauges: Iterable[Gauge]) -> str:
        series: list[Counter | Histogram | Gauge] = [
            *gauges,
            *(gauge for source in self.sources for gauge in source()),
            self.actions,
            self.refusals,
            self.errors,
            self.expired,
            self.expired_sheets,
            self.action_seconds,
            self.bot_seconds,
            self.broken_requests,
            self.reports,
        ]
        return "\n".join(line for s in series for line in s.lines()) + "\n"
