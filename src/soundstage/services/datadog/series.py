"""Metric values, computed on demand from the world's series records (`datadog.series`), never stored.

A series record: `metric`, `tags` (sorted), `type` (gauge/count/rate), `unit`, `base`, `noise` (absolute
amplitude), `daily` (amplitude of a daily swing peaking at 14:00 UTC), `interval` (seconds between
points), `overrides` (`[{from, to, value}]`, epoch microseconds, `to` None when open-ended), `points`
(`[[at, value]]` submitted through the API, sorted, at most `SUBMITTED_POINTS`) and `since` (epoch µs: a
series made by a submission has no points before its first; None: always had): the value at a point is the
point submitted for it, else the last override covering it, else base + daily swing + noise. Noise is a hash of (world
seed, metric, tags, point time), so the same world always shows the same values and a week of history
costs nothing. Points sit at multiples of the interval and never after the simulated now.

`set_override` / `end_override` are how faults step a series (`metric: {name, value, normal}`).
"""

from __future__ import annotations

import bisect
import hashlib
import math
import struct
from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise, repeat
from typing import Any

from ...clock import US
from ...world import Collection, Record, World
from .queries import MetricQuery
from .remembered import Computed
from .store import SERIES

Point = tuple[int, float]  # (epoch microseconds, value)
_DAY = 86400 * US
_PEAK = 14 * 3600 * US
# Datadog's rollup steps. The default rollup keeps a series at ~300 points (a day at 5 minutes is 288, as
# Datadog's own API answers); a `.rollup()` interval is kept while a series has at most 1500 points (Datadog's
# limit per series) and widened past it, as Datadog does ("the Datadog limit is used instead").
_STEPS = (20, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400, 28800, 86400)
DEFAULT_POINTS = 300
MAX_POINTS = 1500
# What one request may compute, whatever its range: (series, bucket) cells, beyond which every query's interval
# is widened alike, and raw points. A bucket holding more of a series' points than its share (at most
# EXACT_POINTS) is computed from an even sample of them, the stretches an override covers counted exactly.
MAX_CELLS = 20_000
MAX_EVALUATIONS = 60_000
EXACT_POINTS = 60
# Submitted points a series keeps (a week at one a minute); older ones are dropped first.
SUBMITTED_POINTS = 10_080
# What one evaluation of a monitor may compute: it runs every simulated minute.
WINDOW_EVALUATIONS = 2_000
# Normal values computed lately, by series shape and point time (agents ask for the same last hours again and
# again): at most this many, all forgotten at once past it. Every world of one scene shares them.
REMEMBERED = 65_536


class _Remembered(dict[tuple[Any, ...], dict[int, Any]]):
    """Values by what they depend on (a series' shape), then point time; `count` of them in all."""

    count = 0

    def grew(self, more: int) -> None:
        self.count += more
        if self.count > REMEMBERED:
            self.clear()
            self.count = 0


_remembered = _Remembered()
# Rolled-up buckets of normal values lately computed, by the shapes of the series aggregated and how, then
# bucket start: at most `REMEMBERED`, as normal values are.
_rolled = _Remembered()
# Values of whole buckets of normal values lately rolled up, by series shape and how they were rolled up, then
# bucket start: at most `REMEMBERED`, as normal values are.
_summaries = _Remembered()

AGGREGATE: dict[str, Callable[[Sequence[float]], float]] = {
    "avg": lambda values: sum(values) / len(values),
    "max": max,
    "min": min,
    "sum": sum,
    "count": lambda values: float(len(values)),
}


def _normals(record: Record, times: Iterable[int], seed: str, remember: bool = True) -> list[float]:
    """The series' normal values at `times` (`_computed`), remembered by series shape and point time unless
    `remember` is False (a batch of buckets whose values are remembered instead, or the windows of a monitor
    over a long clock move, computed once)."""
    times = list(times)
    if not remember:
        return _computed(record, times, seed)
    known = _remembered.setdefault(_shape(record, seed), {})
    missing = [at for at in times if at not in known]
    if missing:
        known.update(zip(missing, _computed(record, missing, seed)))
        _remembered.grew(len(missing))
    return [known[at] for at in times]


def _computed(record: Record, times: list[int], seed: str) -> list[float]:
    """The series' normal values at `times`: base + daily swing + noise, floored at 0 when the base is, to 4
    decimals. The noise is a value in [-1, 1) fixed by the world's seed, the series and the point time (a
    hash of them): its key starts alike for every point of a series, so that part is hashed once and copied.
    Each term is added to every point in turn (the same sums, in the same order, as point by point)."""
    base, daily, noise, tags = record["base"], record["daily"], record["noise"], ",".join(record["tags"])
    cos, turn = math.cos, 2 * math.pi
    swung = [base + daily * cos(turn * ((at - _PEAK) % _DAY) / _DAY) for at in times] if daily else None
    values = swung if swung is not None else [base] * len(times)
    if noise:
        copy = hashlib.blake2b(f"{seed}\x00{record['metric']}\x00{tags}\x00".encode(), digest_size=8).copy
        digests: list[bytes] = []
        keep = digests.append
        for at in times:
            hashed = copy()
            hashed.update(b"%d" % (at // US))
            keep(hashed.digest())
        numbers = struct.unpack(f">{len(digests)}Q", b"".join(digests))  # each digest as a big-endian integer
        values = (
            [value + noise * (number / 2**63 - 1) for value, number in zip(swung, numbers)]
            if swung is not None
            else [base + noise * (number / 2**63 - 1) for number in numbers]  # base + the noise, as above
        )
    if base >= 0:
        return [0.0 if value < 0 else round(value, 4) for value in values]
    return [round(value, 4) for value in values]


def _shape(record: Record, seed: str) -> tuple[Any, ...]:
    """What a series' normal values depend on: the base as written, as a flat series shows it (0 and -0.0, 400
    and 400.0 are equal keys but not the same values)."""
    return (seed, record["metric"], ",".join(record["tags"]), repr(record["base"]), record["daily"], record["noise"])


def _submitted(record: Record, low: int, high: int) -> list[list[float]]:
    """The submitted points with `low <= at <= high`, found by bisection."""
    points = record.get("points") or []
    return points[bisect.bisect_left(points, [low]) : bisect.bisect_left(points, [high + 1])]


def _first(record: Record, start: int) -> int:
    """`start`, or the series' first point when it began later."""
    since = record.get("since")
    return start if since is None else max(start, since)


def value_at(record: Record, at: int, seed: str) -> float:
    found = _submitted(record, at, at)
    if found:
        return float(found[-1][1])
    for override in reversed(record["overrides"]):
        if override["from"] <= at and (override["to"] is None or at < override["to"]):
            return float(override["value"])
    return _normals(record, (at,), seed)[0]


def values_in(record: Record, first: int, last: int, seed: str, remember: bool = True) -> list[float]:
    """The series' values at its points from `first` to `last` (both on its interval), in time order: the
    point submitted for each, else the last override covering it, else its normal value (remembered unless
    `remember` is False: see `_normals`)."""
    if first == last:  # a bucket of one point, as most are over an hour or two
        return [value_at(record, first, seed)]
    step = record["interval"] * US
    found_submitted = _submitted(record, first, last)
    if not found_submitted and not _overridden(record["overrides"], first, last):
        return _normals(record, range(first, last + step, step), seed, remember)  # the usual range: normal values only
    submitted = {int(at): float(value) for at, value in found_submitted}
    stretches = _stretches(record["overrides"], first, last, step)
    normal = [
        at
        for low, high, override in stretches
        if override is None
        for at in range(low, high + step, step)
        if at not in submitted
    ]
    computed = iter(_normals(record, normal, seed, remember))
    found = []
    for low, high, override in stretches:
        for at in range(low, high + step, step):
            found.append(submitted[at] if at in submitted else override if override is not None else next(computed))
    return found


def _overridden(overrides: list[dict[str, Any]], first: int, last: int) -> bool:
    """Whether an override covers part of `[first, last]` (perhaps none of its points: then the slower way
    finds the same values)."""
    return any(o["from"] <= last and (o["to"] is None or o["to"] > first) for o in overrides)


def matching(series: Collection, query: MetricQuery) -> dict[tuple[str, ...], list[Record]]:
    """The query's series by `by` group (one group `()` without `by`), in insertion order (read only: it is
    remembered until the series next change)."""
    computed = series.derived(Computed)
    key = (query.metric, query.scope, query.by)
    groups: dict[tuple[str, ...], list[Record]] | None = computed.scopes.get(key)
    if groups is None:
        groups = {}
        for record in series.by("metric", query.metric):
            if query.matches(record["tags"]):
                group = query.group(record["tags"])
                if group is not None:
                    groups.setdefault(group, []).append(record)
        computed.scope(key, groups)
    return groups


def default_interval(span: int, records: Iterable[Record], most: int = DEFAULT_POINTS) -> int:
    """The rollup interval (seconds) Datadog would pick for a span (µs): the smallest step that keeps the
    query at about `most` points, never finer than the series' own interval; whole days past the last step."""
    finest = max((r["interval"] for r in records), default=60)
    for step in _STEPS:
        if step >= finest and span / (step * US) <= most:
            return step
    days = max(1, -(-span // (most * _DAY)))
    return max(days * 86400, finest)


def interval_for(query: MetricQuery, span: int, records: list[Record]) -> int:
    """The query's rollup interval: its own `.rollup()` interval while that keeps `MAX_POINTS` points at
    most (else the widest Datadog would use instead), or the default for the span."""
    if query.interval is None:
        return default_interval(span, records)
    if span / (query.interval * US) <= MAX_POINTS:
        return query.interval
    return max(query.interval, default_interval(span, records, MAX_POINTS))


def buckets(start: int, end: int, interval: int) -> range:
    """The starts (µs) of the `interval`-second buckets holding `[start, end]`, aligned to the epoch."""
    step = interval * US
    return range(start // step * step, end + 1, step) if end >= start else range(0)


class Stats:
    """A series' points in a time range, summarised: how many, their total, the lowest and the highest."""

    __slots__ = ("count", "high", "low", "total")

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.low = math.inf
        self.high = -math.inf

    def add(self, value: float, count: int = 1) -> None:
        self.count += count
        self.total += value if count == 1 else value * count
        self.low = min(self.low, value)
        self.high = max(self.high, value)

    def add_sampled(self, sampled: list[float], count: int, divisor: float) -> None:
        """`count` points (each divided by `divisor`) of which `sampled` were computed."""
        self.count += count
        self.total += sum(sampled) / divisor * count / len(sampled)
        self.low = min(self.low, min(sampled) / divisor)
        self.high = max(self.high, max(sampled) / divisor)

    def value(self, method: str) -> float:
        """The points aggregated by `method` (avg, max, min, sum, count), as `AGGREGATE` would."""
        if method == "avg":
            return self.total / self.count
        if method in ("max", "min"):
            return self.high if method == "max" else self.low
        return self.total if method == "sum" else float(self.count)


def stats(record: Record, start: int, end: int, seed: str, samples: int, divisor: float = 1) -> Stats | None:
    """The series' points with `start <= t <= end` (each divided by `divisor`), or None when there are none.
    Computed from every point when there are at most `samples`; otherwise each stretch an override covers
    counts exactly (its value, times its points) and the stretches in between share `samples` points spread
    evenly over them, so the cost is bounded by `samples` and the overrides, never by the range."""
    step = record["interval"] * US
    first, last = -(-_first(record, start) // step) * step, end // step * step
    if last < first:
        return None
    if (last - first) // step < samples:
        return _summary(values_in(record, first, last, seed), divisor)
    found = Stats()
    stretches = _stretches(record["overrides"], first, last, step)
    normal = sum((high - low) // step + 1 for low, high, override in stretches if override is None)
    for low, high, override in stretches:
        submitted = _submitted(record, low, high)  # counted exactly, the rest of the stretch as before
        for _, value in submitted:
            found.add(value / divisor)
        count = (high - low) // step + 1 - len(submitted)
        if count <= 0:
            continue
        if override is not None:
            found.add(override / divisor, count)
            continue
        taken = min(count, max(1, samples * count // normal))  # shared by the stretches as their lengths are
        found.add_sampled(_normals(record, _spread(low, count, taken, step), seed), count, divisor)
    return found


def _spread(low: int, count: int, taken: int, step: int) -> list[int]:
    """`taken` of the `count` points from `low` (`step` apart), spread evenly, the first and the last kept."""
    return [low + (i * (count - 1) // max(taken - 1, 1)) * step for i in range(taken)]


def _summary(points: list[float], divisor: float) -> Stats:
    """Every one of `points` (divided by `divisor`), summarised."""
    if divisor != 1:
        points = [value / divisor for value in points]
    found = Stats()
    for value in points:  # in time order, one at a time, as every aggregation here adds them
        found.total += value
    found.count, found.low, found.high = len(points), min(points), max(points)
    return found


def _bucketed(
    record: Record, start: int, end: int, interval: int, seed: str, divisor: float, method: str
) -> dict[int, float]:
    """`stats(...).value(method)` of the series for every `interval`-second bucket of `[start, end]` holding
    points, by bucket start, when no bucket holds more points than `stats` computes exactly: the series'
    values over the whole range are computed in one pass (each point's value does not depend on the range
    asked), and a bucket of one point is its value as `Stats` would give it, without building one."""
    step, wide = record["interval"] * US, interval * US
    first, last = -(-_first(record, start) // step) * step, end // step * step
    if last < first:
        return {}
    by_bucket: dict[int, list[float]] = {}
    for at, value in zip(range(first, last + step, step), values_in(record, first, last, seed), strict=True):
        by_bucket.setdefault(at // wide * wide, []).append(value)
    return {
        bucket: _one(points[0] / divisor, method) if len(points) == 1 else _summary(points, divisor).value(method)
        for bucket, points in by_bucket.items()
    }


def _one(value: float, method: str) -> float:
    """`Stats.value(method)` of one point: a total starts at 0.0 (so -0.0 counts as 0.0), an average divides
    it by 1."""
    if method in ("max", "min"):
        return value
    return 1.0 if method == "count" else 0.0 + value


def _stretches(
    overrides: list[dict[str, Any]], first: int, last: int, step: int
) -> list[tuple[int, int, float | None]]:
    """`[first, last]` (points `step` apart) cut where an override starts or ends: (first point, last point,
    the value of the last override covering it, or None where none does)."""
    cuts = {first, last + step}
    for override in overrides:
        for edge in (override["from"], override["to"]):
            if edge is not None and first < edge <= last:
                cuts.add(-(-edge // step) * step)
    edges = sorted(cuts)
    found = []
    for low, after in pairwise(edges):
        if low < after:
            value = next(
                (
                    float(o["value"])
                    for o in reversed(overrides)
                    if o["from"] <= low and (o["to"] is None or low < o["to"])
                ),
                None,
            )
            found.append((low, after - step, value))
    return found


def rollup(
    query: MetricQuery, records: list[Record], start: int, end: int, interval: int, seed: str, samples: int
) -> list[Point]:
    """One group's points: each series rolled up into `interval`-second buckets (by the query's rollup
    method; sum for counts, avg otherwise), then the buckets aggregated across series."""
    space = AGGREGATE[query.space]
    methods = [query.rollup or ("sum" if r["type"] == "count" and not query.as_rate else "avg") for r in records]
    divisors = [r["interval"] if query.as_rate and r["type"] == "count" else 1 for r in records]
    if samples > 1 and all(r["interval"] == interval for r in records):
        return _pointwise(query, records, start, end, interval, seed, methods, divisors)
    columns = [
        _rolled_series(r, start, end, interval, seed, samples, d, m)
        for r, d, m in zip(records, divisors, methods, strict=True)
    ]
    times: Iterable[int] = columns[0] if columns else ()
    if all(column.keys() == columns[0].keys() for column in columns[1:]):  # as most groups: one row a bucket
        rows: Iterable[Any] = zip(*(column.values() for column in columns))
    else:
        times = [bucket for bucket in buckets(start, end, interval) if any(bucket in c for c in columns)]
        rows = ([c[bucket] for c in columns if bucket in c] for bucket in times)
    return list(zip(times, map(round, map(space, rows), repeat(4))))


def _rolled_series(
    record: Record, start: int, end: int, interval: int, seed: str, samples: int, divisor: float, method: str
) -> dict[int, float]:
    """`stats(...).value(method)` of the series for every `interval`-second bucket of `[start, end]` holding
    points, by bucket start. A bucket wholly in the range whose points are all normal values (a float each)
    depends only on the series' shape and how it is rolled up: its value is remembered (`_summaries`), and
    those not yet known are computed together. The other buckets as before: in one pass over each run of
    them when no bucket holds more points than `stats` computes exactly (`_bucketed`), else one by one."""
    step, wide = record["interval"] * US, interval * US
    exact = interval // record["interval"] < samples
    whole = _normal_buckets(record, start, end, wide)
    known: dict[int, float | None] = {}
    if whole:
        most = (wide - 1) // step + 1  # points a bucket holds at most: past `samples`, some are sampled
        shape = (_shape(record, seed), step, wide, divisor, method, min(samples, most))
        known = _summaries.setdefault(shape, {})
        missing = [bucket for bucket in whole if bucket not in known]
        if missing:
            known.update(zip(missing, _summarised(record, missing, wide, seed, samples, divisor, method)))
            _summaries.grew(len(missing))
    found: dict[int, float] = {}
    run: list[int] = []  # consecutive buckets not remembered, computed as before
    for bucket in buckets(start, end, interval):
        if bucket in whole:
            if run:
                found.update(_unremembered(record, run, start, end, interval, seed, samples, divisor, method, exact))
                run = []
            value = known[bucket]
            if value is not None:
                found[bucket] = value
        else:
            run.append(bucket)
    if run:
        found.update(_unremembered(record, run, start, end, interval, seed, samples, divisor, method, exact))
    return found


def _normal_buckets(record: Record, start: int, end: int, wide: int) -> range | set[int]:
    """The starts of the `wide`-µs buckets wholly in `[start, end]` where the series has only normal values,
    each a float (a series' normal values are whole numbers only when it is flat at a whole base): no
    override or submitted point touches them, and it had points from their start on."""
    if not (record["daily"] or record["noise"] or isinstance(record["base"], float)):
        return range(0)
    since = record.get("since")
    low = -(-max(start, since if since is not None else start) // wide) * wide
    whole = range(low, (end + 1 - wide) // wide * wide + 1, wide)
    if not whole:
        return whole
    high = whole[-1] + wide - 1
    touched = {int(at) // wide * wide for at, _ in _submitted(record, low, high)}
    for override in record["overrides"]:
        first, last = max(override["from"], low), high if override["to"] is None else min(override["to"] - 1, high)
        if first <= last:
            touched.update(range(first // wide * wide, last // wide * wide + 1, wide))
    return whole if not touched else {bucket for bucket in whole if bucket not in touched}


def _summarised(
    record: Record, bucket_starts: list[int], wide: int, seed: str, samples: int, divisor: float, method: str
) -> list[float | None]:
    """`stats(...).value(method)` of whole buckets of normal values (None for one holding no point), their
    points computed in one batch: every point of a bucket holding at most `samples`, else `samples` of them
    spread evenly, as `stats` takes them."""
    step = record["interval"] * US
    times: list[int] = []
    sizes = []
    for bucket in bucket_starts:
        first = -(-bucket // step) * step
        count = (bucket + wide - 1) // step - first // step + 1
        taken = min(count, samples)
        times.extend(range(first, first + count * step, step) if taken == count else _spread(first, count, taken, step))
        sizes.append((count, taken))
    values = _normals(record, times, seed, remember=False)
    found: list[float | None] = []
    at = 0
    for count, taken in sizes:
        if count <= 0:
            found.append(None)
            continue
        part = values[at : at + taken]
        at += taken
        if taken == count:
            summary = _summary(part, divisor)
        else:
            summary = Stats()
            summary.add_sampled(part, count, divisor)
        found.append(summary.value(method))
    return found


def _unremembered(
    record: Record,
    run: list[int],
    start: int,
    end: int,
    interval: int,
    seed: str,
    samples: int,
    divisor: float,
    method: str,
    exact: bool,
) -> dict[int, float]:
    """`_rolled_series` of the consecutive buckets `run`, computed from the series as they are."""
    wide = interval * US
    if exact:
        return _bucketed(record, max(run[0], start), min(run[-1] + wide - 1, end), interval, seed, divisor, method)
    found = {}
    for bucket in run:
        summary = stats(record, max(bucket, start), min(bucket + wide - 1, end), seed, samples, divisor)
        if summary is not None:
            found[bucket] = summary.value(method)
    return found


def _pointwise(
    query: MetricQuery,
    records: list[Record],
    start: int,
    end: int,
    interval: int,
    seed: str,
    methods: list[str],
    divisors: list[float],
) -> list[Point]:
    """`rollup` when every bucket holds one point of each series (the series' own interval, as a range of an
    hour or two asks): each point is its bucket's value, as `_one` gives it, and the buckets are aggregated
    across series in one pass (remembered where every point is a normal value). Every series' points end at
    the same bucket, so the columns line up from the end; a series that began later only lacks the first."""
    step = interval * US
    first, last = -(-start // step) * step, end // step * step
    if first <= last and all(_normal_over(r, first, last) for r in records):
        return _remembered_points(query, records, range(first, last + step, step), seed, methods, divisors)
    columns = []
    for record, method, divisor in zip(records, methods, divisors, strict=True):
        begins = -(-_first(record, start) // step) * step
        values = values_in(record, begins, last, seed) if begins <= last else []
        columns.append(_each(values, method, divisor))
    longest = max(map(len, columns), default=0)
    if all(len(values) == longest for values in columns):
        rows: Iterable[Any] = zip(*columns)
    else:
        rows = ([c[at - longest + len(c)] for c in columns if at >= longest - len(c)] for at in range(longest))
    space = AGGREGATE[query.space]
    times = range(last - (longest - 1) * step, last + step, step)
    return [(at, round(space(values), 4)) for at, values in zip(times, rows)]


def _normal_over(record: Record, first: int, last: int) -> bool:
    """Whether every point of the series from `first` to `last` is a normal value (it has them all)."""
    since = record.get("since")
    return (
        (since is None or since <= first)
        and not _submitted(record, first, last)
        and not _overridden(record["overrides"], first, last)
    )


def _remembered_points(
    query: MetricQuery, records: list[Record], times: range, seed: str, methods: list[str], divisors: list[float]
) -> list[Point]:
    """`_pointwise` of series holding only normal values at `times`: a bucket's value depends only on the
    series' shapes and how they are aggregated, so it is remembered (`_rolled`) and only the buckets not yet
    asked about (the newest minute of a last hour asked again) are computed."""
    shape = (query.space, times.step, *[(_shape(r, seed), m, d) for r, m, d in zip(records, methods, divisors)])
    known = _rolled.setdefault(shape, {})
    missing = [at for at in times if at not in known]
    if missing:
        columns = [
            _each(_normals(record, missing, seed), method, divisor)
            for record, method, divisor in zip(records, methods, divisors, strict=True)
        ]
        space = AGGREGATE[query.space]
        for at, values in zip(missing, zip(*columns)):
            known[at] = round(space(values), 4)
        _rolled.grew(len(missing))
    return [(at, known[at]) for at in times]


def _each(values: list[float], method: str, divisor: float) -> list[float]:
    """`_one` of every point divided by `divisor` (a float even when the divisor is 1 and a value a whole
    number): each point's value as the only point of its bucket."""
    if method == "count":
        return [1.0] * len(values)
    if method in ("max", "min"):
        return [value / divisor for value in values]
    return [0.0 + value / divisor for value in values]  # a total starts at 0.0, so -0.0 counts as 0.0


def window_value(
    records: list[Record], start: int, end: int, space: str, time_aggregation: str, seed: str
) -> float | None:
    """A group's value over a monitor window `(start, end]`: the series aggregated across (by `space`) at
    each timestamp, then over the window (by `time_aggregation`); None without points. Past
    `WINDOW_EVALUATIONS` points, each series is summarised over the window first (sampled as `stats` does)
    and the summaries aggregated across series, which is the same for like aggregations of aligned series."""
    counts = [(end // (r["interval"] * US)) - (start // (r["interval"] * US)) for r in records]
    if sum(counts) <= WINDOW_EVALUATIONS:
        values = _across(records, start, end, space, seed)[1]
        return AGGREGATE[time_aggregation](values) if values else None
    samples = max(1, WINDOW_EVALUATIONS // len(records))
    summaries = [stats(record, start + 1, end, seed, samples) for record in records]
    found = [summary.value(time_aggregation) for summary in summaries if summary is not None]
    return AGGREGATE[space](found) if found else None


def _across(
    records: list[Record], start: int, end: int, space: str, seed: str, remember: bool = True
) -> tuple[Sequence[int], list[float]]:
    """The timestamps in `(start, end]` where a series has a point, in time order (a `range` when every series
    has a point at each), and at each the series' values there aggregated across by `space` (in the order of
    `records`)."""
    columns = []
    for record in records:
        step = record["interval"] * US
        first, last = max(start // step * step + step, _first(record, 0)), end // step * step
        if first <= last:
            columns.append((range(first, last + step, step), values_in(record, first, last, seed, remember)))
    space_of = AGGREGATE[space]
    if columns and all(times == columns[0][0] for times, _ in columns):  # one point of each series a timestamp
        return columns[0][0], [space_of(values) for values in zip(*(values for _, values in columns))]
    by_time: dict[int, list[float]] = {}
    for times, values in columns:
        for at, value in zip(times, values, strict=True):
            by_time.setdefault(at, []).append(value)
    found = sorted(by_time)
    return found, [space_of(by_time[at]) for at in found]


def window_values(
    records: list[Record], length: int, after: int, until: int, space: str, time_aggregation: str, seed: str
) -> tuple[Sequence[int], list[float | None]] | None:
    """`window_value` of every window `(end - length, end]` with `after < end <= until`: the ends where the
    points a window holds change (a point enters or leaves it; the windows up to the next such end hold the
    same points, so have the same value), in time order, and each one's value; all points computed in one
    pass. None when some of these windows would be sampled (`WINDOW_EVALUATIONS`), or a series' first point
    is off its interval, so that a window's points are not those of the pass."""
    steps = [r["interval"] * US for r in records]
    most = sum(-(-length // step) for step in steps)  # points a window of `length` holds at most
    if most > WINDOW_EVALUATIONS or any(
        r.get("since") is not None and r["since"] % step for r, step in zip(records, steps)
    ):
        return None
    if not any(until // step > after // step or (until - length) // step > (after - length) // step for step in steps):
        return [], []  # no point enters or leaves a window: nothing to compute
    times, values = _across(records, after - length, until, space, seed, remember=False)
    over = AGGREGATE[time_aggregation]
    if isinstance(times, range) and length % times.step == 0:  # windows end at points, holding `length / step`
        held, first = length // times.step, bisect.bisect_right(times, after)
        return times[first:], [over(values[max(at - held + 1, 0) : at + 1]) for at in range(first, len(times))]
    ends = sorted(
        {at for at in times if after < at <= until} | {at + length for at in times if after < at + length <= until}
    )
    found: list[float | None] = []
    low = high = 0  # the window holds times[low:high]
    for end in ends:
        while high < len(times) and times[high] <= end:
            high += 1
        while low < high and times[low] <= end - length:
            low += 1
        found.append(over(values[low:high]) if low < high else None)
    return ends, found


def window_range(
    records: list[Record], start: int, end: int, space: str, time_aggregation: str
) -> tuple[float, float, int] | None:
    """What `window_value` can answer over `(start, end]`, and over every later window of the same length that
    ends before the next point where an override starts or ends: (lowest, highest, that point). Each point of
    a series is an override's value or one its normal shape can take (base ± daily ± noise), and the window
    moves on with the last one's. None when a submitted point is in or ahead of the window, a series began
    inside it, the window may hold no point of a series, or (for `sum`) a varying number of points."""
    edge = 2**63
    lows, highs, steps = [], [], set()
    for record in records:
        step = record["interval"] * US
        since, points = record.get("since"), record.get("points")
        if end - start < step or (since is not None and since > start) or (points and points[-1][0] > start):
            return None
        swing = abs(record["daily"]) + abs(record["noise"])
        low, high = record["base"] - swing, record["base"] + swing
        if record["base"] >= 0:
            low, high = max(low, 0.0), max(high, 0.0)
        normal = (low - 1e-4, high + 1e-4)  # a point is rounded to 4 decimals
        first, last = start // step * step + step, end // step * step
        held = [
            normal if value is None else (value, value)
            for _, _, value in _stretches(record["overrides"], first, last, step)
        ]
        lows.append(min(low for low, _ in held))
        highs.append(max(high for _, high in held))
        for override in record["overrides"]:
            for at in (override["from"], override["to"]):
                if at is not None and -(-at // step) * step > last:  # the first point it changes
                    edge = min(edge, -(-at // step) * step)
        steps.add(step)
    if not records:
        return None
    if len(steps) > 1:  # some timestamps hold only some of the series
        low, high = (
            (sum(min(v, 0.0) for v in lows), sum(max(v, 0.0) for v in highs))
            if space == "sum"
            else (min(lows), max(highs))
        )
    else:  # every timestamp holds a point of each series
        low, high = {
            "sum": (sum(lows), sum(highs)),
            "avg": (sum(lows) / len(lows), sum(highs) / len(highs)),
            "max": (max(lows), max(highs)),
            "min": (min(lows), min(highs)),
        }[space]
    if time_aggregation == "sum":
        step = steps.pop()
        if steps or (end - start) % step:
            return None
        low, high = low * ((end - start) // step), high * ((end - start) // step)
    slack = 1e-9 * (abs(low) + abs(high))  # float rounding of the aggregations
    return low - slack, high + slack, edge


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
    since: int | None = None,
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
        "points": [],
        "since": since,
    }


def submit(
    world: World, metric: str, tags: list[str], points: list[Point], *, type: str, unit: str | None, interval: int
) -> str:
    """Writes submitted points into the series of `metric` with exactly `tags` (made when none has them, from
    its first point on, at base 0, with `type`, `unit` and `interval`). A point lands on the series point of
    its interval; a count adds to what was submitted there, anything else replaces it. Answers the series id."""
    collection = world[SERIES]
    wanted = sorted(tags)
    record = next((r for r in collection.by("metric", metric) if r["tags"] == wanted), None)
    if record is None:
        record_id = str(world.ids.next(SERIES))
        step = interval * US
        first = min(at for at, _ in points) // step * step
        record = new_series(record_id, metric, wanted, type=type, unit=unit, interval=interval, since=first)
        collection.add(record_id, record)
    step = record["interval"] * US
    merged = {at: value for at, value in record.get("points") or []}
    for at, value in points:
        slot = at // step * step
        merged[slot] = merged.get(slot, 0.0) + value if record["type"] == "count" else value
    kept = sorted([at, value] for at, value in merged.items())[-SUBMITTED_POINTS:]
    collection.change(record["id"], points=kept)
    return record["id"]
