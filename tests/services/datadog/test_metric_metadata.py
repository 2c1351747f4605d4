"""Metric lists and metadata (`GET /api/v1/metrics`, `GET`/`PUT /api/v1/metrics/{metric_name}`,
`GET /api/v2/metrics`) through datadog-api-client and raw httpx."""

from __future__ import annotations

from .conftest import DatadogWorld, parsed

START = 1772460000  # 2026-03-02T14:00:00Z, epoch seconds
ALL = ["orders.latency.p99", "orders.requests", "payments.errors"]


def test_sdk_active_metrics(dd_shared: DatadogWorld) -> None:
    from datadog_api_client.v1.api.metrics_api import MetricsApi

    with dd_shared.client() as client:
        api = MetricsApi(client)
        listed = parsed(api.list_active_metrics(_from=START - 3600))
        assert (listed._from, listed.metrics) == (str(START - 3600), ALL)
        assert parsed(api.list_active_metrics(_from=START - 3600, host="web-2")).metrics == ["orders.latency.p99"]
        assert parsed(api.list_active_metrics(_from=START - 3600, tag_filter="service:payments")).metrics == [
            "payments.errors"
        ]
    later = dd_shared.raw("GET", "/api/v1/metrics", params={"from": START + 86400})
    assert (later.status_code, later.json()) == (200, {"from": str(START + 86400), "metrics": []})
    for params in ({}, {"from": "an hour ago"}):
        bad = dd_shared.raw("GET", "/api/v1/metrics", params=params)
        assert (bad.status_code, bad.json()) == (
            400,
            {"errors": ["The value provided for parameter 'from' is invalid"]},
        )


def test_raw_metadata(dd_shared: DatadogWorld) -> None:
    got = dd_shared.raw("GET", "/api/v1/metrics/orders.latency.p99")
    assert (got.status_code, got.json()) == (200, {"type": "gauge", "unit": "millisecond"})
    count = dd_shared.raw("GET", "/api/v1/metrics/orders.requests")
    assert count.json() == {"type": "count"}
    missing = dd_shared.raw("GET", "/api/v1/metrics/no.such.metric")
    assert (missing.status_code, missing.json()) == (404, {"errors": ["Metric not found"]})


def test_sdk_edit_metadata_shows_in_queries(dd: DatadogWorld) -> None:
    from datadog_api_client.v1.api.metrics_api import MetricsApi
    from datadog_api_client.v1.model.metric_metadata import MetricMetadata

    asked = {"from": START - 120, "to": START, "query": "sum:orders.requests{*}"}
    unset = dd.raw("GET", "/api/v1/query", params=asked).json()["series"]
    assert [("unit" in s, s["length"]) for s in unset] == [(False, 3)]
    with dd.client() as client:
        api = MetricsApi(client)
        edited = parsed(
            api.update_metric_metadata(
                "orders.requests", MetricMetadata(description="Order requests", unit="request", statsd_interval=10)
            )
        )
        assert edited.to_dict() == {
            "type": "count",
            "unit": "request",
            "description": "Order requests",
            "statsd_interval": 10,
        }
        assert parsed(api.get_metric_metadata("orders.requests")).to_dict() == edited.to_dict()
        again = parsed(api.update_metric_metadata("orders.requests", MetricMetadata(short_name="reqs")))
        assert (again.description, again.short_name) == ("Order requests", "reqs")
    # The same query asked again (its series unchanged) shows the unit edited since.
    series = dd.raw("GET", "/api/v1/query", params=asked).json()["series"]
    assert series[0]["unit"][0]["name"] == "request"
    assert {k: v for k, v in series[0].items() if k != "unit"} == unset[0]


def test_edit_metadata_errors(dd: DatadogWorld) -> None:
    for path, body, status, message in [
        ("/api/v1/metrics/no.such.metric", {"description": "x"}, 404, "Metric not found"),
        ("/api/v1/metrics/orders.requests", {"description": 3}, 400, "Invalid 'description': expected a string"),
        (
            "/api/v1/metrics/orders.requests",
            {"type": "histogram"},
            400,
            "Invalid 'type': expected one of gauge, rate, count, distribution",
        ),
        (
            "/api/v1/metrics/orders.requests",
            {"statsd_interval": 0},
            400,
            "Invalid 'statsd_interval': expected a positive integer",
        ),
    ]:
        response = dd.raw("PUT", path, json=body)
        assert (response.status_code, response.json()) == (status, {"errors": [message]})
    assert dd.raw("GET", "/api/v1/metrics/orders.requests").json() == {"type": "count"}


def test_v2_metric_list_pages(dd_shared: DatadogWorld) -> None:
    from datadog_api_client.v2.api.metrics_api import MetricsApi

    with dd_shared.client() as client:
        api = MetricsApi(client)
        first = parsed(api.list_tag_configurations(page_size=2))
        assert [m.id for m in first.data] == ALL[:2]
        assert [m.id for m in api.list_tag_configurations_with_pagination(page_size=1)] == ALL
        assert parsed(api.list_tag_configurations(filter_configured=True)).data == []
        assert [m.id for m in api.list_tag_configurations(filter_tags="host:web-1").data] == ALL[:2]
    raw = dd_shared.raw("GET", "/api/v2/metrics", params={"page[size]": 2}).json()
    assert raw["meta"]["pagination"]["next_cursor"] == raw["links"]["next"].split("page[cursor]=")[1].split("&")[0]
    assert raw["data"] == [
        {"type": "metrics", "id": "orders.latency.p99"},
        {"type": "metrics", "id": "orders.requests"},
    ]
    bad = dd_shared.raw("GET", "/api/v2/metrics", params={"page[size]": 0})
    assert (bad.status_code, bad.json()) == (
        400,
        {"errors": ["The value provided for parameter 'page[size]' is invalid"]},
    )
