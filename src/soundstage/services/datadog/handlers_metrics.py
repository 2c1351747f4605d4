"""Key validation and metric queries: `GET /api/v1/validate`, `GET /api/v1/query` (points computed from the
world's series over `from`/`to`, never after the simulated now, at a cost bounded by the points answered)."""

from __future__ import annotations

from typing import Any

from ...clock import US
from . import metrics, plans
from .calls import Call, invalid, is_epoch_seconds, ops
from .errors import DatadogError
from .queries import QueryError, parse_metric_queries
from .remembered import Computed
from .store import METRICS, SERIES


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
    # The rendered series are remembered by what they were asked with until the series next change
    # (`remembered`), with the metadata of their metrics they were rendered with (a unit edited since makes
    # them afresh) and the query's `group_by`; an answer shares them with every other answer of the same query
    # (never written).
    computed = call.world[SERIES].derived(Computed)
    asked = (text, start, until)
    found = computed.answers.get(asked)
    if found is None or not _current(call, found[1]):
        edited = tuple((q.metric, call.world[METRICS].get(q.metric)) for q in queries)
        series = [
            # A bucket starts on a whole second: `at / 1000` is its milliseconds exactly, as a float.
            _series(call, plan, group, [[at / 1000, value] for at, value in points])
            for plan in plans.plan(call.world, queries, start * US, until)
            for group, points in plan.points(call.world, start * US, until).items()
        ]
        found = (series, edited, sorted({key for q in queries for key in q.by}))
        computed.answer(asked, found, sum(item["length"] for item in series))
    return {
        "status": "ok",
        "res_type": "time_series",
        "resp_version": 1,
        "query": text,
        "from_date": start * 1000,
        "to_date": end * 1000,
        "series": found[0],
        "values": [],
        "times": [],
        "message": "",
        "group_by": found[2],
    }


def _current(call: Call, edited: tuple[tuple[str, Any], ...]) -> bool:
    """Whether each metric's edited metadata is still the record the series were rendered with."""
    edits = call.world[METRICS]
    for metric, record in edited:
        if edits.get(metric) is not record:
            return False
    return True


def _series(call: Call, plan: plans.Plan, group: tuple[str, ...], pointlist: list[list[float]]) -> dict[str, Any]:
    query, interval = plan.query, plan.interval
    scope = ",".join(sorted({*query.scope, *group})) or "*"
    expression = f"{query.space}:{query.metric}{{{scope}}}"
    item: dict[str, Any] = {
        "metric": query.metric,
        "display_name": query.metric,
        "expression": expression,
        "scope": scope,
        "tag_set": list(group),
        "pointlist": pointlist,
        "start": int(pointlist[0][0]),
        "end": int(pointlist[-1][0]) + interval * 1000 - 1,
        "interval": interval,
        "length": len(pointlist),
        "aggr": query.space,
        "query_index": plan.index,
        "attributes": {},
    }
    unit_name = metrics.unit(call.world, query.metric)
    if unit_name:
        item["unit"] = [metrics.unit_object(unit_name), None]  # numerator and denominator, as Datadog sends them
    return item
