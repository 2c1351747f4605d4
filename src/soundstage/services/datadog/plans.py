"""How a metric query request is computed, whatever API asks (v1 `query`, v2 `query/timeseries` and
`query/scalar`, SLO history): each query's series by group, its rollup interval, and how many points of a
series a bucket is computed from, so that the cost of a request follows the points it answers, never the
range it asks about."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...world import Record, World
from .queries import MetricQuery
from .series import (
    EXACT_POINTS,
    MAX_CELLS,
    MAX_EVALUATIONS,
    Point,
    buckets,
    default_interval,
    interval_for,
    matching,
    rollup,
)
from .store import SERIES


@dataclass
class Plan:
    """One query of a request: its series by group, its rollup interval (seconds) and how many points of a
    series a bucket is computed from."""

    query: MetricQuery
    index: int
    groups: dict[tuple[str, ...], list[Record]]
    interval: int
    samples: int = EXACT_POINTS

    @property
    def records(self) -> list[Record]:
        return [r for rs in self.groups.values() for r in rs]

    def points(self, world: World, start: int, end: int) -> dict[tuple[str, ...], list[Point]]:
        """Each group's rolled-up points in `[start, end]` (µs), groups without points left out."""
        found = {}
        for group, members in self.groups.items():
            points = rollup(self.query, members, start, end, self.interval, world.ids.seed, self.samples)
            if points:
                found[group] = points
        return found


def plan(
    world: World, queries: list[MetricQuery], start: int, end: int, intervals: list[int | None] | None = None
) -> list[Plan]:
    """The request's queries with their intervals (`intervals`: one asked for per query, in seconds, as a
    `.rollup()` would), held to `MAX_CELLS` (series, bucket) cells by widening every interval alike, and to
    `MAX_EVALUATIONS` points by sampling buckets."""
    span = max(end - start, 0)
    plans = []
    for index, query in enumerate(queries):
        groups = matching(world[SERIES], query)
        records = [r for rs in groups.values() for r in rs]
        asked = intervals[index] if intervals else None
        interval = interval_for(query if asked is None else _with_interval(query, asked), span, records)
        plans.append(Plan(query, index, groups, interval))

    def cells() -> int:
        return sum(len(p.records) * len(buckets(start, end, p.interval)) for p in plans)

    if cells() > MAX_CELLS:
        shrink = cells() / MAX_CELLS
        for p in plans:
            most = max(1, int(len(buckets(start, end, p.interval)) / shrink))
            p.interval = max(p.interval, default_interval(span, p.records, most))
    samples = min(EXACT_POINTS, max(1, MAX_EVALUATIONS // max(cells(), 1)))
    for p in plans:
        p.samples = samples
    return plans


def _with_interval(query: MetricQuery, interval: int) -> MetricQuery:
    """The query with the interval a request asks for, unless its own `.rollup()` names one."""
    return replace(query, interval=query.interval or interval)
