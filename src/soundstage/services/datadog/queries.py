"""Datadog's metric query language, the part the world can answer: parsing only, no data.

A metric query is `[avg|max|min|sum:]metric{scope}[ by {tag,...}][.as_count()|.as_rate()][.rollup(method[, seconds])]`,
where scope is `*` or comma-separated (AND-ed) tags, `!tag` to exclude one, `*` as a wildcard inside a
tag. Several queries can be comma-separated (`/api/v1/query` answers one series set each). A metric
monitor's query adds a time aggregation, a window and a comparison:
`avg(last_5m):avg:orders.latency.p99{service:orders} by {host} > 800`. A rollup interval is 1 to 2**31 - 1
seconds; a monitor's window is at most a month (`last_31d`), Datadog's longest for metric monitors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import lru_cache

from ...clock import US

AGGREGATORS = ("avg", "max", "min", "sum")
MAX_INTERVAL = 2**31 - 1  # seconds: a rollup interval's bucket ends still fit Datadog's int64 milliseconds
MAX_WINDOW = 31 * 86400 * US  # metric monitors evaluate at most a month back
_WINDOW_UNITS = {"m": 60 * US, "h": 3600 * US, "d": 86400 * US}
REMEMBERED_TEXT = 4096  # the longest request text whose parsed queries are remembered
_METRIC = re.compile(r"[A-Za-z][A-Za-z0-9_.]*")
_TAG = re.compile(r"!?[^\s{},!]+")
_ROLLUP = re.compile(r"\.rollup\(\s*(avg|max|min|sum|count)\s*(?:,\s*(\d+)\s*)?\)")
# A monitor query is read from both ends: one pattern over all of it would retry the metric part at every
# blank of a long run of them (quadratic time).
_MONITOR_HEAD = re.compile(r"\s*(avg|max|min|sum)\(last_(\d+[mhd])\)\s*:")
_MONITOR_TAIL = re.compile(r"(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)\s*$")


class QueryError(ValueError):
    """A query the parser does not read; the message says where."""


@dataclass(frozen=True)
class MetricQuery:
    text: str  # as written, for `expression`/`query` fields
    space: str  # space aggregator across series: avg, max, min, sum
    metric: str
    scope: tuple[str, ...]  # tags, `!tag` excluded; empty means `*`
    by: tuple[str, ...]  # tag keys to group by
    rollup: str | None  # time aggregator within a rollup interval (None: avg, sum for counts)
    interval: int | None  # rollup interval in seconds (None: chosen from the span)
    as_rate: bool = False

    @property
    def scope_text(self) -> str:
        return ",".join(self.scope) or "*"

    def matches(self, tags: list[str]) -> bool:
        """Whether a series with `tags` is in the scope."""
        for wanted in self.scope:
            if wanted.startswith("!"):
                if any(fnmatchcase(tag, wanted[1:]) for tag in tags):
                    return False
            elif not any(fnmatchcase(tag, wanted) for tag in tags):
                return False
        return True

    def group(self, tags: list[str]) -> tuple[str, ...] | None:
        """The `by` group of a series (`("host:web-1",)`), or None when it lacks one of the keys."""
        found = []
        for key in self.by:
            value = next((t for t in tags if t.partition(":")[0] == key), None)
            if value is None:
                return None
            found.append(value)
        return tuple(found)


@dataclass(frozen=True)
class MonitorQuery:
    time_aggregation: str  # avg, max, min, sum over the window
    window: int  # microseconds
    metric: MetricQuery
    comparator: str
    threshold: float


def parse_metric_queries(text: str) -> list[MetricQuery]:
    """Comma-separated metric queries (commas inside `{}` and `()` belong to the query)."""
    return list(_parsed(text) if len(text) <= REMEMBERED_TEXT else _parsed.__wrapped__(text))


@lru_cache(maxsize=1024)  # agents and dashboards ask the same queries again and again
def _parsed(text: str) -> tuple[MetricQuery, ...]:
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char in "{(" and 1 or char in "})" and -1 or 0
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return tuple(parse_metric_query(part) for part in parts)


def parse_metric_query(text: str) -> MetricQuery:
    rest = text.strip()
    if not rest:
        raise QueryError("the query is empty")
    space = "avg"
    head, colon, tail = rest.partition(":")
    if colon and head in AGGREGATORS:
        space, rest = head, tail.strip()
    metric = _METRIC.match(rest)
    if not metric:
        raise QueryError(f"expected a metric name at {rest[:30]!r}")
    rest = rest[metric.end() :]
    if not rest.startswith("{") or "}" not in rest:
        raise QueryError(f"expected a scope in braces after {metric.group()!r}, like {{*}} or {{service:orders}}")
    scope_text, rest = rest[1:].split("}", 1)
    scope = _tags(scope_text, "scope")
    by: tuple[str, ...] = ()
    grouped = re.match(r"\s+by\s+\{([^}]*)\}", rest)
    if grouped:
        by = _tags(grouped.group(1), "group by")
        rest = rest[grouped.end() :]
    rollup, interval, as_rate = None, None, False
    while rest.strip():
        rest = rest.strip()
        match = _ROLLUP.match(rest)
        if match:
            rollup = match.group(1)
            digits = match.group(2)
            # More digits than any int64 has would only cost int() time (and past 4,300 a ValueError).
            interval = int(digits) if digits and len(digits) <= 19 else MAX_INTERVAL + 1 if digits else None
            if interval is not None and not 1 <= interval <= MAX_INTERVAL:
                raise QueryError(f"the rollup interval must be from 1 to {MAX_INTERVAL} seconds")
            rest = rest[match.end() :]
        elif rest.startswith((".as_count()", ".as_rate()")):
            as_rate = rest.startswith(".as_rate()")
            rest = rest[len(".as_rate()") if as_rate else len(".as_count()") :]
        else:
            raise QueryError(f"unexpected {rest[:30]!r}")
    return MetricQuery(text.strip(), space, metric.group(), scope, by, rollup, interval, as_rate)


def _tags(text: str, what: str) -> tuple[str, ...]:
    stripped = text.strip()
    if stripped == "*":
        return ()
    tags = tuple(t.strip() for t in stripped.split(","))
    for tag in tags:
        if not _TAG.fullmatch(tag):
            raise QueryError(f"invalid {what} {text!r}")
    return tags


@lru_cache(maxsize=1024)  # monitors are evaluated every simulated minute; their queries rarely change
def parse_monitor_query(text: str) -> MonitorQuery:
    """A metric monitor's query; anything else (a formula, a function) is a QueryError."""
    head = _MONITOR_HEAD.match(text)
    tail = _MONITOR_TAIL.search(text, head.end()) if head else None
    query = text[head.end() : tail.start()] if head and tail else "\n"
    if head is None or tail is None or "\n" in query.rstrip():
        raise QueryError("expected time_aggr(last_#m):space_aggr:metric{scope} [by {tags}] <comparator> <threshold>")
    (time_aggregation, window), (comparator, threshold) = head.groups(), tail.groups()
    # Whole numbers, no float to overflow; more digits than an int64 has are past the bound anyway.
    length = int(window[:-1]) * _WINDOW_UNITS[window[-1]] if len(window) <= 20 else MAX_WINDOW + 1
    if length > MAX_WINDOW:
        raise QueryError("the evaluation window is longer than a month (last_31d)")
    return MonitorQuery(time_aggregation, length, parse_metric_query(query), comparator, float(threshold))
