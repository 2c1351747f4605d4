"""Metric lists and metadata: `GET /api/v1/metrics` (the metrics active since `from`), `GET`/`PUT
/api/v1/metrics/{metric_name}` and `GET /api/v2/metrics` (every metric, by cursor)."""

from __future__ import annotations

from typing import Any

from ...clock import US
from . import metrics
from .calls import Call, cursor, invalid, is_epoch_seconds, is_int64, ops, read_cursor, string_field
from .errors import bad_request, not_found
from .store import METRICS, SERIES

_TYPES = ("gauge", "rate", "count", "distribution")
_MAX_PAGE = 10000


def _tag_filter(call: Call, name: str) -> set[str]:
    """Tags a metric's series must all carry (comma-separated), to be listed."""
    return set(call.csv(name))


def _listed(call: Call, tags: set[str]) -> list[str]:
    """The metrics with a series carrying all `tags`, in the order their first series was made."""
    found = [r["metric"] for r in call.world[SERIES] if tags <= set(r["tags"])]
    return list(dict.fromkeys(found))


@ops("GET /api/v1/metrics")
def list_active_metrics(call: Call) -> dict[str, Any]:
    """Series have points at every interval up to the simulated now: each is active since any past `from`."""
    since = call.integer("from")
    if since is None or not is_epoch_seconds(since):
        raise invalid("from")
    tags = _tag_filter(call, "tag_filter")
    host = call.text("host")
    if host:
        tags.add(f"host:{host}")
    found = _listed(call, tags) if since * US <= call.now() else []
    return {"from": str(since), "metrics": found}


@ops("GET /api/v1/metrics/{metric_name}")
def get_metric_metadata(call: Call) -> dict[str, Any]:
    found = metrics.metadata(call.world, call.params["metric_name"])
    if found is None:
        raise not_found("Metric not found")
    return found


@ops("PUT /api/v1/metrics/{metric_name}")
def update_metric_metadata(call: Call) -> dict[str, Any]:
    name = call.params["metric_name"]
    if metrics.metadata(call.world, name) is None:
        raise not_found("Metric not found")
    body = call.fields
    edited: dict[str, Any] = {}
    for field in ("description", "short_name", "per_unit", "unit", "type"):
        value = string_field(body, field)
        if value is not None:
            edited[field] = value
    if "type" in edited and edited["type"] not in _TYPES:
        raise bad_request(f"Invalid 'type': expected one of {', '.join(_TYPES)}")
    interval = body.get("statsd_interval")
    if interval is not None:
        if not is_int64(interval) or interval < 1:
            raise bad_request("Invalid 'statsd_interval': expected a positive integer")
        edited["statsd_interval"] = interval
    collection = call.world[METRICS]
    if name in collection:
        collection.change(name, **edited)
    else:
        collection.add(name, {"id": name, **edited})
    return metrics.metadata(call.world, name) or {}


@ops("GET /api/v2/metrics")
def list_tag_configurations(call: Call) -> dict[str, Any]:
    """Every metric as `{type: metrics, id}`; no metric has a tag configuration here, so `filter[configured]=true`
    finds none."""
    size = call.page_size("page[size]", _MAX_PAGE, _MAX_PAGE)
    configured = call.boolean("filter[configured]")
    for name in ("filter[include_percentiles]", "filter[queried]", "filter[related_assets]"):
        call.boolean(name)
    tags = _tag_filter(call, "filter[tags]")
    given = call.text("page[cursor]")
    after = read_cursor(given) if given else None
    found = [] if configured else _listed(call, tags)
    start = found.index(after) + 1 if after in found else 0 if after is None else len(found)
    page = found[start : start + size]
    following = cursor(page[-1]) if page and start + size < len(found) else None
    base = f"{call.request.base_url}/api/v2/metrics"
    links: dict[str, Any] = {"self": f"{base}?page[size]={size}", "first": f"{base}?page[size]={size}", "last": None}
    links["next"] = f"{base}?page[cursor]={following}&page[size]={size}" if following else None
    links["prev"] = None
    return {
        "data": [{"type": "metrics", "id": name} for name in page],
        "meta": {"pagination": {"cursor": given, "next_cursor": following, "limit": size, "type": "cursor_limit"}},
        "links": links,
    }
