"""Metric metadata: what `GET /api/v1/metrics/{metric_name}` shows of a metric the world's series have.

A metric's type and unit come from its series (the first that has a unit); what the API edits is kept in
`datadog.metrics` by metric name (`description`, `short_name`, `per_unit`, `statsd_interval`, `type`,
`unit`) and shown over them. A metric no series has is unknown, whatever was edited.
"""

from __future__ import annotations

from typing import Any

from ...world import World
from .store import METRICS, SERIES

EDITABLE = ("description", "short_name", "per_unit", "statsd_interval", "type", "unit")


def names(world: World) -> list[str]:
    """The world's metric names, in the order their first series was made."""
    return list(dict.fromkeys(r["metric"] for r in world[SERIES]))


def metadata(world: World, name: str) -> dict[str, Any] | None:
    """The metric's MetricMetadata (fields without a value left out, as the schema has no nulls), or None."""
    series = world[SERIES].by("metric", name)
    if not series:
        return None
    found: dict[str, Any] = {"type": series[0]["type"]}
    unit = next((r["unit"] for r in series if r["unit"]), None)
    if unit:
        found["unit"] = unit
    edited = world[METRICS].get(name)
    if edited is not None:
        found.update({k: edited[k] for k in EDITABLE if edited.get(k) is not None})
    return found


def unit(world: World, name: str) -> str | None:
    found = metadata(world, name)
    return found.get("unit") if found else None
