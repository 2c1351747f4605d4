"""Metric queries with formulas (`POST /api/v2/query/timeseries`, `POST /api/v2/query/scalar`) through
datadog-api-client and raw httpx: the same points as `GET /api/v1/query`, formulas, groups, limits, errors."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DatadogWorld, parsed

START = 1772460000  # 2026-03-02T14:00:00Z, epoch seconds
MS = 1000
LATENCY_UNIT = [
    {"family": "time", "name": "millisecond", "plural": "milliseconds", "scale_factor": 0.001, "short_name": "ms"},
    None,
]


def _body(kind: str, queries: list[dict[str, Any]], start: int, end: int, **more: Any) -> dict[str, Any]:
    return {"data": {"type": kind, "attributes": {"queries": queries, "from": start * MS, "to": end * MS, **more}}}


def _metric(name: str, query: str, **more: Any) -> dict[str, Any]:
    return {"data_source": "metrics", "name": name, "query": query, **more}


def _v1(dd: DatadogWorld, query: str, start: int, end: int) -> list[dict[str, Any]]:
    return dd.raw("GET", "/api/v1/query", params={"from": start, "to": end, "query": query}).json()["series"]


def test_raw_timeseries_matches_v1(dd_shared: DatadogWorld) -> None:
    query = "avg:orders.latency.p99{service:orders} by {host}"
    body = _body("timeseries_request", [_metric("a", query)], START - 300, START + 1, interval=60_000)
    response = dd_shared.raw("POST", "/api/v2/query/timeseries", json=body)
    assert response.status_code == 200
    data = response.json()["data"]
    assert (data["id"], data["type"]) == ("0", "timeseries_response")
    attributes = data["attributes"]
    assert attributes["series"] == [
        {"group_tags": ["host:web-1"], "query_index": 0, "unit": LATENCY_UNIT},
        {"group_tags": ["host:web-2"], "query_index": 0, "unit": LATENCY_UNIT},
    ]
    v1 = _v1(dd_shared, query, START - 300, START)
    assert attributes["times"] == [int(t) for t, _ in v1[0]["pointlist"]]
    assert attributes["values"] == [[v for _, v in s["pointlist"]] for s in v1]


def test_sdk_timeseries_formula(dd_shared: DatadogWorld) -> None:
    from datadog_api_client.v2.api.metrics_api import MetricsApi
    from datadog_api_client.v2.model.formula_limit import FormulaLimit
    from datadog_api_client.v2.model.metrics_data_source import MetricsDataSource
    from datadog_api_client.v2.model.metrics_timeseries_query import MetricsTimeseriesQuery
    from datadog_api_client.v2.model.query_formula import QueryFormula
    from datadog_api_client.v2.model.query_sort_order import QuerySortOrder
    from datadog_api_client.v2.model.timeseries_formula_query_request import TimeseriesFormulaQueryRequest
    from datadog_api_client.v2.model.timeseries_formula_request import TimeseriesFormulaRequest
    from datadog_api_client.v2.model.timeseries_formula_request_attributes import TimeseriesFormulaRequestAttributes
    from datadog_api_client.v2.model.timeseries_formula_request_queries import TimeseriesFormulaRequestQueries
    from datadog_api_client.v2.model.timeseries_formula_request_type import TimeseriesFormulaRequestType

    request = TimeseriesFormulaQueryRequest(
        data=TimeseriesFormulaRequest(
            type=TimeseriesFormulaRequestType.TIMESERIES_REQUEST,
            attributes=TimeseriesFormulaRequestAttributes(
                _from=(START - 180) * MS,
                to=START * MS,
                queries=TimeseriesFormulaRequestQueries(
                    [
                        MetricsTimeseriesQuery(
                            data_source=MetricsDataSource.METRICS, name="errors", query="sum:payments.errors{*}"
                        ),
                        MetricsTimeseriesQuery(
                            data_source=MetricsDataSource.METRICS,
                            name="latency",
                            query="max:orders.latency.p99{*} by {host}",
                        ),
                    ]
                ),
                formulas=[
                    QueryFormula(formula="errors * 2 + 1"),
                    QueryFormula(formula="latency - latency", limit=FormulaLimit(count=1, order=QuerySortOrder.DESC)),
                ],
            ),
        )
    )
    with dd_shared.client() as client:
        answer = parsed(MetricsApi(client).query_timeseries_data(request))
    # errors: 50 a minute (an override); of latency's two hosts, the limit keeps one
    assert answer.to_dict()["data"]["attributes"] == {
        "series": [
            {"group_tags": [], "query_index": 0, "unit": None},
            {"group_tags": ["host:web-1"], "query_index": 1, "unit": None},
        ],
        "times": [(START - 180 + 60 * i) * MS for i in range(3)],
        "values": [[101.0] * 3, [0.0] * 3],
    }


def test_sdk_scalar(dd_shared: DatadogWorld) -> None:
    from datadog_api_client.v2.api.metrics_api import MetricsApi
    from datadog_api_client.v2.model.metrics_aggregator import MetricsAggregator
    from datadog_api_client.v2.model.metrics_data_source import MetricsDataSource
    from datadog_api_client.v2.model.metrics_scalar_query import MetricsScalarQuery
    from datadog_api_client.v2.model.scalar_formula_query_request import ScalarFormulaQueryRequest
    from datadog_api_client.v2.model.scalar_formula_request import ScalarFormulaRequest
    from datadog_api_client.v2.model.scalar_formula_request_attributes import ScalarFormulaRequestAttributes
    from datadog_api_client.v2.model.scalar_formula_request_queries import ScalarFormulaRequestQueries
    from datadog_api_client.v2.model.scalar_formula_request_type import ScalarFormulaRequestType

    def query(name: str, text: str, aggregator: MetricsAggregator) -> Any:
        return MetricsScalarQuery(data_source=MetricsDataSource.METRICS, name=name, query=text, aggregator=aggregator)

    request = ScalarFormulaQueryRequest(
        data=ScalarFormulaRequest(
            type=ScalarFormulaRequestType.SCALAR_REQUEST,
            attributes=ScalarFormulaRequestAttributes(
                _from=(START - 600) * MS,
                to=START * MS,
                queries=ScalarFormulaRequestQueries(
                    [
                        query("total", "sum:payments.errors{*}", MetricsAggregator.SUM),
                        query("worst", "avg:orders.latency.p99{*} by {host}", MetricsAggregator.MAX),
                    ]
                ),
            ),
        )
    )
    with dd_shared.client() as client:
        answer = parsed(MetricsApi(client).query_scalar_data(request))
    columns = answer.to_dict()["data"]["attributes"]["columns"]
    v1 = _v1(dd_shared, "avg:orders.latency.p99{*} by {host}", START - 600, START - 1)
    assert columns == [
        {"name": "host", "type": "group", "values": [[], ["web-1"], ["web-2"]]},
        {"name": "total", "type": "number", "values": [500.0, None, None], "meta": {"unit": None}},
        {
            "name": "worst",
            "type": "number",
            "values": [None, *(max(v for _, v in s["pointlist"]) for s in v1)],
            "meta": {"unit": LATENCY_UNIT},
        },
    ]


def test_raw_scalar_formula_over_groups(dd_shared: DatadogWorld) -> None:
    queries = [
        _metric("a", "avg:orders.latency.p99{*} by {host}", aggregator="last"),
        _metric("b", "sum:payments.errors{*}", aggregator="avg"),
    ]
    body = _body("scalar_request", queries, START - 120, START, formulas=[{"formula": "a / b"}])
    columns = dd_shared.raw("POST", "/api/v2/query/scalar", json=body).json()["data"]["attributes"]["columns"]
    v1 = _v1(dd_shared, "avg:orders.latency.p99{*} by {host}", START - 120, START - 1)
    assert columns == [
        {"name": "host", "type": "group", "values": [["web-1"], ["web-2"]]},
        {"name": "a / b", "type": "number", "values": [s["pointlist"][-1][1] / 50 for s in v1], "meta": {"unit": None}},
    ]


def test_nothing_after_now(dd_shared: DatadogWorld) -> None:
    body = _body("timeseries_request", [_metric("a", "avg:orders.latency.p99{*}")], START + 3600, START + 7200)
    attributes = dd_shared.raw("POST", "/api/v2/query/timeseries", json=body).json()["data"]["attributes"]
    assert attributes == {"series": [], "times": [], "values": []}


@pytest.mark.parametrize(
    ("path", "change", "message"),
    [
        (
            "timeseries",
            {"type": "timeseries_rquest"},
            'API input validation failed: Invalid type. Expected "timeseries_request".',
        ),
        (
            "scalar",
            {"type": "timeseries_request"},
            'API input validation failed: Invalid type. Expected "scalar_request".',
        ),
        (
            "timeseries",
            {"to": 0},
            "API input validation failed: to must be an integer of epoch milliseconds after from",
        ),
        ("timeseries", {"queries": []}, "API input validation failed: queries must be a non-empty array"),
        (
            "timeseries",
            {"queries": [{"data_source": "logs", "name": "a", "query": "x"}]},
            "Unsupported data source 'logs': only metrics queries are answered",
        ),
        (
            "timeseries",
            {"queries": [_metric("a", "avg:orders.latency.p99")]},
            (
                "Error parsing query: unable to parse avg:orders.latency.p99: expected a scope in braces after "
                "'orders.latency.p99', like {*} or {service:orders}"
            ),
        ),
        (
            "timeseries",
            {"formulas": [{"formula": "a + c"}]},
            "Invalid formula: unknown query name 'c' in formula 'a + c'",
        ),
        (
            "timeseries",
            {"formulas": [{"formula": "abs(a)"}]},
            "Invalid formula: unsupported formula 'abs(a)': only + - * / over query names and numbers",
        ),
        (
            "scalar",
            {"queries": [_metric("a", "avg:orders.latency.p99{*}", aggregator="percentile")]},
            "Unsupported aggregator 'percentile': one of avg, min, max, sum, last, mean",
        ),
    ],
)
def test_errors(dd_shared: DatadogWorld, path: str, change: dict[str, Any], message: str) -> None:
    kind = f"{path}_request"
    body = _body(kind, [_metric("a", "avg:orders.latency.p99{*}")], START - 60, START)
    if "type" in change:
        body["data"]["type"] = change.pop("type")
    body["data"]["attributes"].update(change)
    response = dd_shared.raw("POST", f"/api/v2/query/{path}", json=body)
    assert (response.status_code, response.json()) == (400, {"errors": [message]})
