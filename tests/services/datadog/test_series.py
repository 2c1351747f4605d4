"""Series values against their definition computed point by point: rolled-up buckets, monitor windows (one
by one and a day of them at once) and the range of values a monitor's evaluation can be spared for, over
seeded random series (bases, daily swings, noise, overrides, submitted points, late starts), ranges, rollups
and aggregators."""

from __future__ import annotations

import hashlib
import math
import random
from typing import Any

import pytest

from soundstage.clock import US
from soundstage.services.datadog import series
from soundstage.services.datadog.queries import parse_metric_query

SEED = "test-seed"
NOW = 1772460000 * US  # 2026-03-02T14:00:00Z
DAY = 86400 * US


def _point(record: dict[str, Any], at: int) -> float:
    """A point's value as the docs define it: submitted, else the last override covering it, else base + daily
    swing peaking at 14:00 UTC + noise × a hash in [-1, 1), floored at 0 when the base is, to 4 decimals."""
    submitted = [value for time, value in record["points"] if time == at]
    if submitted:
        return float(submitted[-1])
    for override in reversed(record["overrides"]):
        if override["from"] <= at and (override["to"] is None or at < override["to"]):
            return float(override["value"])
    key = f"{SEED}\x00{record['metric']}\x00{','.join(record['tags'])}\x00{at // US}".encode()
    noise = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") / 2**63 - 1
    value = record["base"] + record["daily"] * math.cos(2 * math.pi * ((at - 14 * 3600 * US) % DAY) / DAY)
    value += record["noise"] * noise
    return round(max(value, 0.0) if record["base"] >= 0 else value, 4)


def _times(record: dict[str, Any], low: int, high: int) -> list[int]:
    """The series' point times in `[low, high]`."""
    step = record["interval"] * US
    first = -(-max(low, record["since"] or 0) // step) * step
    return list(range(first, high + 1, step))


def _aggregate(method: str, values: list[float]) -> float:
    total = 0.0
    for value in values:  # in time order, as the points come
        total += value
    found = {"avg": total / len(values), "sum": total, "min": min(values), "max": max(values)}
    return found[method] if method in found else float(len(values))


def _series(rng: random.Random, index: int, submitted: bool = True, interval: int | None = None) -> dict[str, Any]:
    interval = rng.choice([20, 60, 60, 300]) if interval is None else interval
    step = interval * US
    base = rng.choice([0, 2, 180, 420, -5])
    record = series.new_series(
        str(index),
        "m",
        [f"host:h-{index}"],
        type=rng.choice(["gauge", "count"]),
        base=base,
        noise=rng.choice([0, 1, 20, abs(base) * 0.05]),
        daily=rng.choice([0, 40]),
        interval=interval,
        since=rng.choice([None, None, NOW - rng.randrange(DAY) // step * step]) if submitted else None,
    )
    for _ in range(rng.randrange(3)):
        start = NOW - rng.randrange(2 * DAY)
        end = rng.choice([None, start + rng.randrange(1, 6 * 3600 * US)])
        record["overrides"].append({"from": start, "to": end, "value": rng.choice([0, 50, 1400, 2.5])})
    times = sorted({NOW - rng.randrange(2 * DAY) // step * step for _ in range(rng.randrange(40) if submitted else 0)})
    record["points"] = [[at, float(rng.randrange(-10, 3000))] for at in times]
    return record


def _rolled_up(
    query: Any, records: list[dict[str, Any]], start: int, end: int, interval: int
) -> list[tuple[int, float]]:
    """Each bucket's points aggregated by the query's rollup method, then across series, point by point."""
    expected = []
    for bucket in series.buckets(start, end, interval):
        values = []
        for record in records:
            times = _times(record, max(bucket, start), min(bucket + interval * US - 1, end))
            if times:
                rate = query.as_rate and record["type"] == "count"
                points = [_point(record, at) / (record["interval"] if rate else 1) for at in times]
                by = query.rollup or ("sum" if record["type"] == "count" and not query.as_rate else "avg")
                values.append(_aggregate(by, points))
        if values:
            expected.append((bucket, round(series.AGGREGATE[query.space](values), 4)))
    return expected


def _random_query(rng: random.Random) -> Any:
    space = rng.choice(["avg", "sum", "min", "max"])
    method = rng.choice(["avg", "sum", "min", "max", "count", None])
    suffix = rng.choice(["", ".as_rate()", ".as_count()"])
    rollup = f".rollup({method})" if method else ""
    return parse_metric_query(f"{space}:m{{*}}{suffix}{rollup}")


def test_rolled_up_buckets_are_their_points_aggregated() -> None:
    rng = random.Random(14)
    for case in range(150):
        records = [_series(rng, i) for i in range(rng.randrange(1, 5))]
        query = _random_query(rng)
        interval = rng.choice([20, 60, 120, 300, 3600, 7200])
        end = NOW - rng.randrange(DAY)
        start = end - rng.randrange(1, DAY // 2)
        # Samples enough for every point: each bucket is computed from all of its points.
        found = series.rollup(query, records, start, end, interval, SEED, samples=10**9)
        expected = _rolled_up(query, records, start, end, interval)
        assert repr(found) == repr(expected), (case, query.text, start, end, interval)  # -0.0 and 5.0, not 5


def test_buckets_of_one_point_a_series_are_their_points() -> None:
    """Ranges of an hour or two at the series' own interval (one point of each series a bucket, the buckets of
    normal values remembered across requests and worlds): overrides covering part of the range, submitted
    points in it, series that began inside it, counts as rates, every rollup method, ranges off the interval;
    the same series shapes come back with and without overrides, and the ranges overlap earlier ones."""
    rng = random.Random(16)
    for case in range(400):
        interval = rng.choice([20, 60, 300])
        step = interval * US
        end = NOW - rng.randrange(DAY // 4)
        start = end - rng.randrange(1, 3 * 3600 * US)
        records = [_series(rng, i, submitted=False, interval=interval) for i in range(rng.randrange(1, 4))]
        for record in records:
            record["overrides"] = []
            if rng.random() < 0.25:  # partly covering the range: from inside it, or ending inside it
                inside = rng.randrange(start, end + 1)
                record["overrides"].append(
                    rng.choice(
                        [
                            {"from": inside, "to": None, "value": rng.choice([1500, -0.0])},
                            {"from": start - DAY, "to": inside, "value": 7.5},
                        ]
                    )
                )
            if rng.random() < 0.2:
                record["points"] = [[rng.randrange(start, end + 1) // step * step, float(rng.randrange(3000))]]
            if rng.random() < 0.15:
                record["since"] = rng.randrange(start, end + 1) // step * step
        query = _random_query(rng)
        expected = _rolled_up(query, records, start, end, interval)
        for samples in (series.EXACT_POINTS, 10**9):
            found = series.rollup(query, records, start, end, interval, SEED, samples=samples)
            assert repr(found) == repr(expected), (case, query.text, start, end, interval, samples)  # -0.0 too


def test_a_monitor_window_is_its_points_aggregated() -> None:
    rng = random.Random(15)
    for case in range(150):
        records = [_series(rng, i) for i in range(rng.randrange(1, 5))]
        space, over = rng.choice(["avg", "sum", "min", "max"]), rng.choice(["avg", "sum", "min", "max"])
        end = NOW - rng.randrange(DAY)
        start = end - rng.choice([60, 300, 600, 3600, 4 * 3600]) * US
        by_time: dict[int, list[float]] = {}
        for record in records:
            for at in _times(record, start + 1, end):
                by_time.setdefault(at, []).append(_point(record, at))
        at_times = [series.AGGREGATE[space](by_time[at]) for at in sorted(by_time)]
        expected = series.AGGREGATE[over](at_times) if at_times else None
        assert series.window_value(records, start, end, space, over, SEED) == expected, case


@pytest.mark.parametrize("space", ["avg", "sum", "min", "max"])
@pytest.mark.parametrize("over", ["avg", "sum", "min", "max"])
def test_a_window_stays_in_its_range(space: str, over: str) -> None:
    rng = random.Random(f"{space}{over}")
    told = overridden = 0
    for _ in range(100):
        records = [_series(rng, i, submitted=False) for i in range(rng.randrange(1, 4))]
        end = NOW - rng.randrange(DAY)
        start = end - rng.choice([300, 600, 3600]) * US
        found = series.window_range(records, start, end, space, over)
        if found is None:
            continue
        told += 1
        overridden += any(
            o["from"] <= end and (o["to"] is None or o["to"] > start) for r in records for o in r["overrides"]
        )
        low, high, edge = found
        assert edge > end
        for later in range(end, min(edge, end + 3 * 3600 * US), 600 * US):  # until an override starts or ends
            value = series.window_value(records, later - (end - start), later, space, over, SEED)
            assert value is not None and low <= value <= high
    assert told >= 30 and overridden >= 5  # the cases above do hold windows with and without overrides


def test_the_range_of_a_window() -> None:
    record = series.new_series("1", "m", ["host:a"], base=100, noise=5)
    window = (NOW - 600 * US, NOW)
    assert series.window_range([record], *window, "avg", "avg") == (
        pytest.approx(95 - 1e-4),
        pytest.approx(105 + 1e-4),
        2**63,
    )
    covered = {**record, "overrides": [{"from": NOW - 60 * US, "to": None, "value": 1}]}
    ahead = {**record, "overrides": [{"from": NOW + 120 * US, "to": None, "value": 1}]}
    ending = {**record, "overrides": [{"from": NOW - DAY, "to": NOW + 90 * US, "value": 3100}]}
    past = {**record, "overrides": [{"from": NOW - DAY, "to": NOW - 600 * US, "value": 1}]}
    submitted = {**record, "points": [[NOW - 60 * US, 1.0]]}
    # An override in the window adds its value to the range, and the range holds until an override starts or
    # ends (at the first point it changes).
    assert series.window_range([covered], *window, "avg", "avg") == (pytest.approx(1), pytest.approx(105 + 1e-4), 2**63)
    assert series.window_range([ahead], *window, "avg", "avg")[2] == NOW + 120 * US  # type: ignore[index]
    assert series.window_range([ending], *window, "avg", "avg") == (
        pytest.approx(3100),
        pytest.approx(3100),
        NOW + 120 * US,
    )
    assert series.window_range([past], *window, "avg", "avg") == series.window_range([record], *window, "avg", "avg")
    assert series.window_range([submitted], *window, "avg", "avg") is None
    # Series with a point at every timestamp: their average at each lies between their lows' and highs' averages.
    assert series.window_range([record, ending], *window, "avg", "avg")[:2] == (  # type: ignore[index]
        pytest.approx((95 - 1e-4 + 3100) / 2),
        pytest.approx((105 + 1e-4 + 3100) / 2),
    )
    assert series.window_range([record, ending], *window, "min", "avg")[:2] == (  # type: ignore[index]
        pytest.approx(95 - 1e-4),
        pytest.approx(105 + 1e-4),
    )
    # A sum over a window that is not a whole number of intervals counts a varying number of points.
    assert series.window_range([record], NOW - 90 * US, NOW, "avg", "sum") is None
    assert series.window_range([record], NOW - 30 * US, NOW, "avg", "avg") is None  # may hold no point


def test_windows_computed_in_one_pass_are_each_windows_value() -> None:
    rng = random.Random(17)
    told = 0
    for case in range(120):
        records = [_series(rng, i, submitted=rng.random() < 0.3) for i in range(rng.randrange(1, 4))]
        space, over = rng.choice(["avg", "sum", "min", "max"]), rng.choice(["avg", "sum", "min", "max"])
        length = rng.choice([60, 90, 300, 600, 3600]) * US
        after = NOW - rng.randrange(DAY)
        until = after + rng.randrange(6 * 3600 * US)
        found = series.window_values(records, length, after, until, space, over, SEED)
        if found is None:
            continue
        told += 1
        ends, values = found
        assert list(ends) == sorted(set(ends)) and all(after < end <= until for end in ends), case
        for end, value in zip(ends, values, strict=True):
            assert repr(value) == repr(series.window_value(records, end - length, end, space, over, SEED)), case
        # Between two ends a window holds the same points as at the first of them.
        for _ in range(5):
            end = rng.randrange(after, until + 1)
            before = [value for at, value in zip(ends, values) if at <= end]
            expected = before[-1] if before else series.window_value(records, after - length, after, space, over, SEED)
            assert repr(series.window_value(records, end - length, end, space, over, SEED)) == repr(expected), case
    assert told >= 100
    many = [series.new_series(str(i), "m", [f"host:{i}"], interval=20) for i in range(12)]
    assert series.window_values(many, 3600 * US, NOW, NOW + DAY, "avg", "avg", SEED) is None  # each window sampled


def _stats_by_bucket(
    query: Any, records: list[dict[str, Any]], start: int, end: int, interval: int, samples: int
) -> list[tuple[int, float]]:
    """Each bucket of each series summarised on its own by `stats` (exactly, or sampled past `samples` points,
    as a bucket is defined to be), then aggregated across series."""
    expected = []
    for bucket in series.buckets(start, end, interval):
        values = []
        for record in records:
            divisor = record["interval"] if query.as_rate and record["type"] == "count" else 1
            by = query.rollup or ("sum" if record["type"] == "count" and not query.as_rate else "avg")
            summary = series.stats(
                record, max(bucket, start), min(bucket + interval * US - 1, end), SEED, samples, divisor
            )
            if summary is not None:
                values.append(summary.value(by))
        if values:
            expected.append((bucket, round(series.AGGREGATE[query.space](values), 4)))
    return expected


def test_days_and_months_rolled_up_are_their_buckets_summarised() -> None:
    """Ranges of a day or a month, at the intervals Datadog picks and coarser: every bucket's value, whether
    remembered from an earlier range (the same range again, one a minute later, another world of the same
    series) or computed, is its points aggregated (sampled past `samples`, as `stats` does), with overrides,
    submitted points and late starts in the range, flat series at whole and fractional bases, every
    aggregator, rollup method, counts as rates."""
    rng = random.Random(17)
    for case in range(60):
        records = [_series(rng, i) for i in range(rng.randrange(1, 4))]
        for record in records:
            if rng.random() < 0.2:  # flat: whole numbers at a whole base, floats at a fractional one
                record.update(noise=0, daily=0, base=rng.choice([3, 2.5]))
        query = _random_query(rng)
        span = rng.choice([DAY, 30 * DAY])
        end = NOW - rng.randrange(DAY)
        start = end - span + rng.randrange(3600) * US
        interval = rng.choice([series.default_interval(end - start, records), 3600, 7200, 14400])
        samples = rng.choice([1, 10, 16, series.EXACT_POINTS])
        expected = _stats_by_bucket(query, records, start, end, interval, samples)
        for again in range(2):
            found = series.rollup(query, records, start, end, interval, SEED, samples=samples)
            assert repr(found) == repr(expected), (case, again, query.text, start, end, interval, samples)
        later = (start + 60 * US, end + 60 * US)
        found = series.rollup(query, records, *later, interval, SEED, samples=samples)
        assert repr(found) == repr(_stats_by_bucket(query, records, *later, interval, samples)), case


def test_a_day_rolled_up_exactly_is_its_points_aggregated() -> None:
    rng = random.Random(18)
    for case in range(25):
        records = [_series(rng, i) for i in range(rng.randrange(1, 3))]
        for record in records:
            if not (record["noise"] or record["daily"]):  # a flat whole base keeps whole numbers, not modelled here
                record["base"] += 0.5
        query = _random_query(rng)
        end = NOW - rng.randrange(DAY)
        start = end - DAY + rng.randrange(3600) * US
        interval = rng.choice([300, 600, 3600])
        expected = _rolled_up(query, records, start, end, interval)
        for again in range(2):  # computed, then remembered
            found = series.rollup(query, records, start, end, interval, SEED, samples=10**9)
            assert repr(found) == repr(expected), (case, again, query.text, start, end, interval)


def test_a_sampled_bucket_is_its_points_spread_evenly() -> None:
    """`stats` past `samples` points of normal values: `samples` points, the first and last of the range and
    the others evenly between, stand for all of them."""
    rng = random.Random(19)
    for case in range(40):
        record = _series(rng, 0, submitted=False)
        record["overrides"] = []
        step = record["interval"] * US
        start = NOW - rng.randrange(30 * DAY)
        end = start + rng.randrange(200, 2000) * step
        samples = rng.choice([1, 2, 10, 60])
        divisor = rng.choice([1, record["interval"]])
        times = _times(record, start, end)
        taken = [times[i * (len(times) - 1) // max(samples - 1, 1)] for i in range(samples)]
        values = [_point(record, at) for at in taken]
        summary = series.stats(record, start, end, SEED, samples, divisor)
        assert summary is not None
        assert (summary.count, summary.low, summary.high) == (len(times), min(values) / divisor, max(values) / divisor)
        assert summary.total == 0.0 + sum(values) / divisor * len(times) / samples, case


def test_flat_series_at_equal_bases_of_other_types_keep_their_own_values() -> None:
    """Normal values are remembered by series shape across worlds: a flat series at 400 shows whole numbers,
    one at 400.0 floats, one at -0.0 negative zeros, whichever was asked first."""
    query = parse_metric_query("max:m{*}.rollup(max)")
    for base in (400, 400.0, -0.0, 0):
        record = series.new_series("1", "m", ["host:a"], base=base)
        # A point its own bucket divides by 1 (a float); five points a bucket keep the values' type.
        for interval, shown in ((60, base / 1), (300, base)):
            points = series.rollup(query, [record], NOW - DAY, NOW - 1, interval, SEED, series.EXACT_POINTS)
            assert {repr(value) for _, value in points} == {repr(shown)}, (base, interval)
