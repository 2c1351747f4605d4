"""Key validation and metric queries: `GET /api/v1/validate`, `GET /api/v1/query` (points computed from the
world's series over `from`/`to`, never after the simulated now, at a cost bounded by the points answered)."""

from __future__ import annotations

from typing import Any

from ...clock import US
from . import metrics, plans
from .calls import Call, invalid, is_epoch_seconds, ops
from .errors import DatadogError
from .queries import QueryError, parse_metric_queries


@ops("GET /api/v1/validate")
def validate(call: Call) -> dict[str, Any]:
    return {"valid": True}


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
    for plan in plans.plan(call.world, queries, start * US, until):
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


def _series(call: Call, plan: plans.Plan, start: int, end: int) -> list[dict[str, Any]]:
    query, interval = plan.query, plan.interval
    found = []
    for group, points in plan.points(call.world, start, end).items():
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
        unit_name = metrics.unit(call.world, query.metric)
        if unit_name:
            item["unit"] = [metrics.unit_object(unit_name), None]  # numerator and denominator, as Datadog sends them
        found.append(item)
    return found
