"""SLOs: `GET /api/v1/slo`, filtered by `ids`, `query` (in the name), `tags_query` (tags, comma-separated,
all required) and `metrics_query` (in the numerator or denominator), paged by `limit` and `offset`."""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import views_records
from .calls import Call, ops
from .store import SLOS


def _matches(record: Record, ids: set[str], name: str, tags: list[str], metric: str) -> bool:
    if ids and record["id"] not in ids:
        return False
    if name and name not in record["name"].lower():
        return False
    if tags and not set(tags) <= {t.lower() for t in record["tags"]}:
        return False
    if metric:
        query = record["query"] or {}
        return any(metric in query.get(part, "").lower() for part in ("numerator", "denominator"))
    return True


@ops("GET /api/v1/slo")
def list_slos(call: Call) -> dict[str, Any]:
    limit = call.integer("limit", 1000, minimum=1)
    offset = call.integer("offset", 0, minimum=0)
    ids = set(call.csv("ids"))
    name = (call.text("query") or "").strip().lower()
    tags = [t.lower() for t in call.csv("tags_query")]
    metric = (call.text("metrics_query") or "").strip().lower()
    every = list(call.world[SLOS])
    found = [r for r in every if _matches(r, ids, name, tags, metric)]
    return {
        "data": [views_records.slo(call.world, r) for r in found[offset : offset + limit]],
        "error": None,  # as Datadog's recorded answer has it (the schema names an `errors` list)
        "metadata": {"page": {"total_count": len(every), "total_filtered_count": len(found)}},
    }
