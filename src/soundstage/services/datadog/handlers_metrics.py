"""Key validation and metric queries: `GET /api/v1/validate`, `GET /api/v1/query` (points computed from the
world's series over `from`/`to`, never after the simulated now)."""

from __future__ import annotations

from typing import Any

from ...clock import US
from .calls import Call, invalid, ops
from .errors import DatadogError
from .queries import MetricQuery, QueryError, parse_metric_queries
from .series import default_interval, matching, rollup
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
    if start is None:
        raise invalid("from")
    if end is None or end < start:
        raise invalid("to")
    if not text:
        raise invalid("query")
    try:
        queries = parse_metric_queries(text)
    except QueryError as exc:
        raise DatadogError(400, f"Error parsing query: unable to parse {text}: {exc}") from exc
    until = min(end * US, call.now())
    series: list[dict[str, Any]] = []
    for index, query in enumerate(queries):
        series.extend(_series(call, query, index, start * US, until))
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


def _series(call: Call, query: MetricQuery, index: int, start: int, end: int) -> list[dict[str, Any]]:
    groups = matching(call.world[SERIES], query)
    records = [r for rs in groups.values() for r in rs]
    interval = query.interval or default_interval(max(end - start, 0), records)
    found = []
    for group, members in groups.items():
        points = rollup(query, members, start, end, interval, call.world.ids.seed) if end >= start else []
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
            "query_index": index,
            "attributes": {},
        }
        unit = next((r["unit"] for r in members if r["unit"]), None)
        if unit:
            item["unit"] = [_unit(unit), None]  # numerator and denominator, as Datadog sends them
        found.append(item)
    return found
