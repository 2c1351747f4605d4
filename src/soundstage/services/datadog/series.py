"""Metric values, computed on demand from the world's series records (`datadog.series`), never stored.

A series record: `metric`, `tags` (sorted), `type` (gauge/count/rate), `unit`, `base`, `noise` (absolute
amplitude), `daily` (amplitude of a daily swing peaking at 14:00 UTC), `interval` (seconds between
points) and `overrides` (`[{from, to, value}]`, epoch microseconds, `to` None when open-ended): the value
at a point is the last override covering it, else base + daily swing + noise. Noise is a hash of (world
seed, metric, tags, point time), so the same world always shows the same values and a week of history
costs nothing. Points sit at multiples of the interval and never after the simulated now.

`set_override` / `end_override` are how faults step a series (`metric: {name, value, normal}`).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from ...clock import US
from ...world import Collection, Record, World
from .queries import MetricQuery
from .store import SERIES

Point = tuple[int, float]  # (epoch microseconds, value)
_DAY = 86400 * US
_PEAK = 14 * 3600 * US
# Datadog's rollup steps; the default rollup keeps a query at no more than ~300 points.
_STEPS = (20, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400, 28800, 86400)
_MAX_POINTS = 300

AGGREGATE: dict[str, Callable[[list[float]], float]] = {
    "avg": lambda values: sum(values) / len(values),
    "max": max,
    "min": min,
    "sum": sum,
    "count": lambda values: float(len(values)),
}


def _noise(seed: str, metric: str, tags: tuple[str, ...], at: int) -> float:
    """A value in [-1, 1) fixed by the world's seed, the series and the point time."""
    key = f"{seed}\x00{metric}\x00{','.join(tags)}\x00{at // US}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") / 2**63 - 1


# Monitors re-read the same recent points every simulated minute: the normal value of a point is a pure
# function of the series' shape and the time, so it is computed once.
@lru_cache(maxsize=65536)
def _normal(seed: str, metric: str, tags: tuple[str, ...], base: float, daily: float, noise: float, at: int) -> float:
    value = base
    if daily:
        value += daily * math.cos(2 * math.pi * ((at - _PEAK) % _DAY) / _DAY)
    if noise:
        value += noise * _noise(seed, metric, tags, at)
    if base >= 0:
        value = max(value, 0.0)
    return round(value, 4)


def value_at(record: Record, at: int, seed: str) -> float:
    for override in reversed(record["overrides"]):
        if override["from"] <= at and (override["to"] is None or at < override["to"]):
            return float(override["value"])
    return _normal(seed, record["metric"], tuple(record["tags"]), record["base"], record["daily"], record["noise"], at)


def points(record: Record, start: int, end: int, seed: str) -> list[Point]:
    """The series' points with `start <= t <= end`."""
    step = record["interval"] * US
    first = -(-start // step) * step
    return [(t, value_at(record, t, seed)) for t in range(first, end + 1, step)]


def matching(series: Collection, query: MetricQuery) -> dict[tuple[str, ...], list[Record]]:
    """The query's series by `by` group (one group `()` without `by`), in insertion order."""
    groups: dict[tuple[str, ...], list[Record]] = {}
    for record in series.by("metric", query.metric):
        if query.matches(record["tags"]):
            group = query.group(record["tags"])
            if group is not None:
                groups.setdefault(group, []).append(record)
    return groups


def default_interval(span: int, records: Iterable[Record]) -> int:
    """The rollup interval (seconds) Datadog would pick for a span (µs): the smallest step that keeps the
    query at ~300 points, never finer than the series' own interval."""
    finest = max((r["interval"] for r in records), default=60)
    for step in _STEPS:
        if step >= finest and span / (step * US) <= _MAX_POINTS:
            return step
    return _STEPS[-1]


def rollup(query: MetricQuery, records: list[Record], start: int, end: int, interval: int, seed: str) -> list[Point]:
    """One group's points: each series rolled up into `interval`-second buckets (by the query's rollup
    method; sum for counts, avg otherwise), then the buckets aggregated across series."""
    step = interval * US
    buckets: dict[int, list[float]] = {}
    for record in records:
        method = query.rollup or ("sum" if record["type"] == "count" and not query.as_rate else "avg")
        per_bucket: dict[int, list[float]] = {}
        for at, value in points(record, start, end, seed):
            if query.as_rate and record["type"] == "count":
                value = value / record["interval"]
            per_bucket.setdefault(at // step * step, []).append(value)
        for bucket, values in per_bucket.items():
            buckets.setdefault(bucket, []).append(AGGREGATE[method](values))
    space = AGGREGATE[query.space]
    return [(bucket, round(space(values), 4)) for bucket, values in sorted(buckets.items())]


def window(records: list[Record], start: int, end: int, space: str, seed: str) -> list[float]:
    """A group's values in a monitor window `(start, end]`, aggregated across series at each timestamp."""
    by_time: dict[int, list[float]] = {}
    for record in records:
        for at, value in points(record, start + 1, end, seed):
            by_time.setdefault(at, []).append(value)
    return [AGGREGATE[space](values) for _, values in sorted(by_time.items())]


def set_override(
    world: World, metric: str, tags: list[str], value: float, since: int | None = None, base: float = 0
) -> list[str]:
    """Steps every series of `metric` carrying all of `tags` to `value` from `since` (default now), open-ended;
    adds a series (normally at `base`) when none matches. Answers the ids of the series changed."""
    at = world.now() if since is None else since
    collection = world[SERIES]
    step: dict[str, Any] = {"from": at, "to": None, "value": value}
    found = [r for r in collection.by("metric", metric) if set(tags) <= set(r["tags"])]
    if not found:
        record_id = str(world.ids.next(SERIES))
        collection.add(record_id, new_series(record_id, metric, tags, base=base, overrides=[step]))
        return [record_id]
    for record in found:
        collection.change(record["id"], overrides=[*_closed(record["overrides"], at), step])
    return [r["id"] for r in found]


def end_override(world: World, metric: str, tags: list[str], at: int | None = None) -> list[str]:
    """Ends the open overrides of the series `set_override` would step, at `at` (default now): the series
    goes back to normal. Answers the ids of the series changed."""
    until = world.now() if at is None else at
    collection = world[SERIES]
    changed = []
    for record in collection.by("metric", metric):
        if set(tags) <= set(record["tags"]) and any(o["to"] is None for o in record["overrides"]):
            collection.change(record["id"], overrides=_closed(record["overrides"], until))
            changed.append(record["id"])
    return changed


def _closed(overrides: list[dict[str, Any]], at: int) -> list[dict[str, Any]]:
    return [{**o, "to": at} if o["to"] is None and o["from"] < at else o for o in overrides]


def new_series(
    record_id: str,
    metric: str,
    tags: list[str],
    *,
    type: str = "gauge",
    unit: str | None = None,
    base: float = 0,
    noise: float = 0,
    daily: float = 0,
    interval: int = 60,
    overrides: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "id": record_id,
        "metric": metric,
        "tags": sorted(tags),
        "type": type,
        "unit": unit,
        "base": base,
        "noise": noise,
        "daily": daily,
        "interval": interval,
        "overrides": overrides or [],
    }
