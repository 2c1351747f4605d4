"""Metric metadata: what `GET /api/v1/metrics/{metric_name}` shows of a metric the world's series have.

A metric's type and unit come from its series (the first that has a unit); what the API edits is kept in
`datadog.metrics` by metric name (`description`, `short_name`, `per_unit`, `statsd_interval`, `type`,
`unit`) and shown over them. A metric no series has is unknown, whatever was edited.
"""

from __future__ import annotations

from typing import Any

from ...world import World
from .store import METRICS, SERIES

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


EDITABLE = ("description", "short_name", "per_unit", "statsd_interval", "type", "unit")


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


def unit_object(name: str) -> dict[str, Any]:
    """Datadog's unit object for a unit name."""
    family, plural, scale, short = _UNITS.get(name, ("general", name + "s", 1.0, name))
    return {"family": family, "name": name, "plural": plural, "scale_factor": scale, "short_name": short}
