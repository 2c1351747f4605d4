"""Metric submission (`POST /api/v2/series`) through datadog-api-client and raw httpx: points written into
the world's series, seen by later queries; Datadog's window for points; errors."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.services.datadog.store import SERIES

from .conftest import DatadogWorld, parsed

START = 1772460000  # 2026-03-02T14:00:00Z, epoch seconds


def _points(dd: DatadogWorld, query: str, start: int, end: int) -> list[list[Any]]:
    series = dd.raw("GET", "/api/v1/query", params={"from": start, "to": end, "query": query}).json()["series"]
    return [[int(t) // 1000, v] for t, v in series[0]["pointlist"]] if series else []


def _submit(dd: DatadogWorld, *series: dict[str, Any]) -> Any:
    return dd.raw("POST", "/api/v2/series", json={"series": list(series)})


def test_sdk_submit_a_new_metric(dd: DatadogWorld) -> None:
    from datadog_api_client.v2.api.metrics_api import MetricsApi
    from datadog_api_client.v2.model.metric_intake_type import MetricIntakeType
    from datadog_api_client.v2.model.metric_payload import MetricPayload
    from datadog_api_client.v2.model.metric_point import MetricPoint
    from datadog_api_client.v2.model.metric_resource import MetricResource
    from datadog_api_client.v2.model.metric_series import MetricSeries

    payload = MetricPayload(
        series=[
            MetricSeries(
                metric="orders.queue.depth",
                type=MetricIntakeType.GAUGE,
                points=[MetricPoint(timestamp=START - 120, value=7.0), MetricPoint(timestamp=START - 50, value=9.5)],
                resources=[MetricResource(name="web-1", type="host")],
                tags=["service:orders"],
                unit="request",
            )
        ]
    )
    with dd.client() as client:
        assert parsed(MetricsApi(client).submit_metrics(body=payload)).to_dict() == {"errors": []}
    # No points before the first submitted one; between and after them, the series' base (0).
    assert _points(dd, "avg:orders.queue.depth{host:web-1}", START - 600, START) == [
        [START - 120, 7.0],
        [START - 60, 9.5],
        [START, 0.0],
    ]
    assert dd.raw("GET", "/api/v1/metrics/orders.queue.depth").json() == {"type": "gauge", "unit": "request"}
    listed = dd.raw("GET", "/api/v1/metrics", params={"from": START - 60, "host": "web-1"}).json()["metrics"]
    assert listed == ["orders.latency.p99", "orders.requests", "orders.queue.depth"]


def test_points_replace_a_seeded_series_point(dd: DatadogWorld) -> None:
    tags = ["service:orders", "env:prod", "host:web-1"]
    before = _points(dd, "avg:orders.latency.p99{host:web-1}", START - 180, START)
    response = _submit(
        dd, {"metric": "orders.latency.p99", "tags": tags, "points": [{"timestamp": START - 60, "value": 2500}]}
    )
    assert (response.status_code, response.json()) == (202, {"errors": []})
    after = _points(dd, "avg:orders.latency.p99{host:web-1}", START - 180, START)
    assert after == [before[0], before[1], [START - 60, 2500.0], before[3]]
    assert len(dd.live.world[SERIES].by("metric", "orders.latency.p99")) == 2


def test_counts_add_up_and_old_points_are_dropped(dd: DatadogWorld) -> None:
    point = {"metric": "checkout.clicks", "type": 1, "tags": ["env:prod"]}
    _submit(dd, {**point, "points": [{"timestamp": START - 30, "value": 3}]})
    _submit(dd, {**point, "points": [{"timestamp": START - 10, "value": 4}, {"timestamp": START - 7200, "value": 99}]})
    assert _points(dd, "sum:checkout.clicks{*}", START - 120, START) == [[START - 60, 7.0], [START, 0.0]]
    late = _submit(dd, {"metric": "too.old", "points": [{"timestamp": START - 7200, "value": 1}]})
    assert (late.status_code, late.json()) == (202, {"errors": []})
    assert dd.live.world[SERIES].by("metric", "too.old") == []


def test_needs_only_the_api_key(dd: DatadogWorld) -> None:
    body = {"series": [{"metric": "a.b", "points": [{"timestamp": START, "value": 1}]}]}
    response = dd.raw("POST", "/api/v2/series", keys=False, headers={"DD-API-KEY": dd.api_key}, json=body)
    assert response.status_code == 202
    refused = dd.raw("POST", "/api/v2/series", keys=False, json=body)
    assert (refused.status_code, refused.json()) == (403, {"errors": ["Forbidden"]})


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "Invalid 'series': expected a non-empty array"),
        (
            {"series": [{"metric": "9lives", "points": [{"timestamp": START, "value": 1}]}]},
            "Invalid 'series[0].metric': expected a metric name",
        ),
        ({"series": [{"metric": "a.b", "points": []}]}, "Invalid 'series[0].points': expected a non-empty array"),
        (
            {"series": [{"metric": "a.b", "points": [{"timestamp": "now", "value": 1}]}]},
            "Invalid 'series[0].points': expected {timestamp, value} numbers",
        ),
        (
            {"series": [{"metric": "a.b", "type": 7, "points": [{"timestamp": START, "value": 1}]}]},
            "Invalid 'series[0].type': expected 0, 1, 2 or 3",
        ),
        (
            {"series": [{"metric": "a.b", "tags": ["a b"], "points": [{"timestamp": START, "value": 1}]}]},
            "Invalid 'series[0].tags': expected an array of tags",
        ),
    ],
)
def test_errors(dd: DatadogWorld, body: dict[str, Any], message: str) -> None:
    count = len(dd.live.world[SERIES])
    response = dd.raw("POST", "/api/v2/series", json=body)
    assert (response.status_code, response.json()) == (400, {"errors": [message]})
    assert len(dd.live.world[SERIES]) == count
