"""Metric submission (v2): `POST /api/v2/series` writes the points into the world's series, so that later
queries and monitors see them (`series.submit`). It needs only the API key, as Datadog's intake does.

As Datadog documents, a point more than ten minutes ahead of now or more than an hour behind is dropped;
the payload is still accepted (202). A host resource adds the tag `host:<name>`.
"""

from __future__ import annotations

import re
from typing import Any

from ...clock import US
from ..base import Reply
from . import series
from .calls import Call, is_int64, ops
from .errors import bad_request

_TYPES = {0: "gauge", 1: "count", 2: "rate", 3: "gauge"}  # MetricIntakeType: unspecified, count, rate, gauge
_METRIC = re.compile(r"[A-Za-z][A-Za-z0-9_.]{0,199}")
_AHEAD, _BEHIND = 600 * US, 3600 * US
MAX_SERIES = 1000  # series in one payload: Datadog's 500 kB holds about this many with a point or two


def _checked(item: Any, index: int) -> dict[str, Any]:
    where = f"series[{index}]"
    if not isinstance(item, dict):
        raise bad_request(f"Invalid '{where}': expected an object")
    metric = item.get("metric")
    if not isinstance(metric, str) or not _METRIC.fullmatch(metric):
        raise bad_request(f"Invalid '{where}.metric': expected a metric name")
    kind = item.get("type", 0)
    if not isinstance(kind, int) or isinstance(kind, bool) or kind not in _TYPES:
        raise bad_request(f"Invalid '{where}.type': expected 0, 1, 2 or 3")
    points = item.get("points")
    if not isinstance(points, list) or not points:
        raise bad_request(f"Invalid '{where}.points': expected a non-empty array")
    read = []
    for point in points:
        at, value = (point.get("timestamp"), point.get("value")) if isinstance(point, dict) else (None, None)
        if not is_int64(at) or at < 0 or isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad_request(f"Invalid '{where}.points': expected {{timestamp, value}} numbers")
        read.append((at * US, float(value)))
    tags = item.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) and t and " " not in t for t in tags):
        raise bad_request(f"Invalid '{where}.tags': expected an array of tags")
    resources = item.get("resources") or []
    if not isinstance(resources, list) or not all(isinstance(r, dict) for r in resources):
        raise bad_request(f"Invalid '{where}.resources': expected an array of objects")
    hosts = [f"host:{r['name']}" for r in resources if r.get("type") == "host" and isinstance(r.get("name"), str)]
    unit = item.get("unit")
    if unit is not None and not isinstance(unit, str):
        raise bad_request(f"Invalid '{where}.unit': expected a string")
    interval = item.get("interval") or 60
    if not is_int64(interval) or not 1 <= interval <= 86400:
        raise bad_request(f"Invalid '{where}.interval': expected seconds from 1 to 86400")
    return {
        "metric": metric,
        "tags": list(dict.fromkeys([*tags, *hosts])),
        "points": read,
        "type": _TYPES[kind],
        "unit": unit,
        "interval": interval,
    }


@ops("POST /api/v2/series")
def submit_metrics(call: Call) -> Reply:
    given = call.fields.get("series")
    if not isinstance(given, list) or not given:
        raise bad_request("Invalid 'series': expected a non-empty array")
    if len(given) > MAX_SERIES:
        raise bad_request(f"Invalid 'series': at most {MAX_SERIES} series a payload")
    items = [_checked(item, i) for i, item in enumerate(given)]
    now = call.now()
    for item in items:
        kept = [(at, value) for at, value in item.pop("points") if now - _BEHIND <= at <= now + _AHEAD]
        if kept:
            series.submit(call.world, item.pop("metric"), item.pop("tags"), kept, **item)
    return Reply(202, {"errors": []})
