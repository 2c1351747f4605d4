"""Key validation and metric queries: `GET /api/v1/validate`, `GET /api/v1/query` (points computed from the
world's series over `from`/`to`, never after the simulated now, at a cost bounded by the points answered)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...clock import US
from ...world import Record
from . import metrics
from .calls import Call, invalid, is_epoch_seconds, ops
from .errors import DatadogError
from .queries import MetricQuery, QueryError, parse_metric_queries
from .series import (
    EXACT_POINTS,
    MAX_CELLS,
    MAX_EVALUATIONS,
    buckets,
    default_interval,
    interval_for,
    matching,
    rollup,
)
from .store import SERIES

# Datadog's unit objects for the units worlds use most; any other unit is its own family.
_UNITS: dict[str, tuple[str, str, float, str]] = {
    "nanosecond": ("time", "nanoseconds", 1e-9, "ns"),
    "microsecond": ("time", "microseconds", 1e-6, "μs"),
    "millisecond": ("time", "milliseconds", 0.001, "ms"),
    "second": ("time", "seconds", 1.0, "s"),
    "minute": ("time", "minutes", 60.0, "min"),
    "byte": ("bytes", "bytes", 1.0, "B"),
    "kibibyte": ("bytes", "kibibytes", 1024.0, "KiB"),
    "mebibyte": ("bytes", "mebibytes", 1048576.0, "MiB"),
    "percent": ("percentage", "percent", 1.0, "%"),
    "request": ("network", "requests", 1.0, "req"),
    "error": ("general", "errors", 1.0, "err"),
    "connection": ("network", "connections", 1.0, "conn"),
}


@ops("GET /api/v1/validate")
def validate(call: Call) -> dict[str, Any]:
    return {"valid": True}


def _unit(name: str) -> dict[str, Any]:
    family, plural, scale, short = _UNITS.get(name, ("general", name + "s", 1.0, name))
    return {"family": family, "name": name, "plural": plural, "scale_factor": scale, "short_name": short}


@ops("GET /api/v1/query")
def query_metrics(call: Call) -> dict[str, Any]:
    start = call.integer("from")
    end = call.integer("to")
    text = call.text("query")
    if start is None or not is_epoch_seconds(start):
        raise invalid("from")
    if end is None or end < start or not is_epoch_seconds(end):
        raise invalid("to")
    if not text:
        raise invalid("query")
    try:
        queries = parse_metric_queries(text)
    except QueryError as exc:
        raise DatadogError(400, f"Error parsing query: unable to parse {text}: {exc}") from exc
    until = min(end * US, call.now())
    series: list[dict[str, Any]] = []
    for plan in _plans(call, queries, start * US, until):
        series.extend(_series(call, plan, start * US, until))
    group_by = sorted({key for q in queries for key in q.by})
    return {
        "status": "ok",
        "res_type": "time_series",
        "resp_version": 1,
        "query": text,
        "from_date": start * 1000,
        "to_date": end * 1000,
        "series": series,
        "values": [],
        "times": [],
        "message": "",
        "group_by": group_by,
    }


@dataclass
class _Plan:
    """One query of a request: its series by group, its rollup interval and how many points of a series a
    bucket is computed from."""

    query: MetricQuery
    index: int
    groups: dict[tuple[str, ...], list[Record]]
    interval: int
    samples: int = EXACT_POINTS

    @property
    def records(self) -> list[Record]:
        return [r for rs in self.groups.values() for r in rs]


def _plans(call: Call, queries: list[MetricQuery], start: int, end: int) -> list[_Plan]:
    """The request's queries with their intervals, held to `MAX_CELLS` (series, bucket) cells by widening
    every interval alike, and to `MAX_EVALUATIONS` points by sampling buckets: the cost of a request follows
    the points it answers, never the range it asks about."""
    span = max(end - start, 0)
    plans = []
    for index, query in enumerate(queries):
        groups = matching(call.world[SERIES], query)
        records = [r for rs in groups.values() for r in rs]
        plans.append(_Plan(query, index, groups, interval_for(query, span, records)))

    def cells() -> int:
        return sum(len(plan.records) * len(buckets(start, end, plan.interval)) for plan in plans)

    if cells() > MAX_CELLS:
        shrink = cells() / MAX_CELLS
        for plan in plans:
            most = max(1, int(len(buckets(start, end, plan.interval)) / shrink))
            plan.interval = max(plan.interval, default_interval(span, plan.records, most))
    samples = min(EXACT_POINTS, max(1, MAX_EVALUATIONS // max(cells(), 1)))
    for plan in plans:
        plan.samples = samples
    return plans


def _series(call: Call, plan: _Plan, start: int, end: int) -> list[dict[str, Any]]:
    query, interval = plan.query, plan.interval
    found = []
    for group, members in plan.groups.items():
        points = rollup(query, members, start, end, interval, call.world.ids.seed, plan.samples)
        if not points:
            continue
        scope = ",".join(sorted({*query.scope, *group})) or "*"
        expression = f"{query.space}:{query.metric}{{{scope}}}"
        item: dict[str, Any] = {
            "metric": query.metric,
            "display_name": query.metric,
            "expression": expression,
            "scope": scope,
            "tag_set": list(group),
            "pointlist": [[float(at // 1000), value] for at, value in points],
            "start": points[0][0] // 1000,
            "end": points[-1][0] // 1000 + interval * 1000 - 1,
            "interval": interval,
            "length": len(points),
            "aggr": query.space,
            "query_index": plan.index,
            "attributes": {},
        }
        unit = metrics.unit(call.world, query.metric)
        if unit:
            item["unit"] = [_unit(unit), None]  # numerator and denominator, as Datadog sends them
        found.append(item)
    return found
