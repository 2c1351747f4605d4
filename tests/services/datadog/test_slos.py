"""SLOs: `GET /api/v1/slo` through datadog-api-client and raw httpx; the `slos:` records."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.errors import SpecError
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene_text

from .conftest import DatadogWorld

SCENE = """
name: dd-slos
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {datadog_user: $bot_dd}
seed:
  datadog:
    users:
      - {ref: bot_dd, email: stagebot@acme.test, name: Stage Bot}
      - {ref: maya_dd, email: maya@acme.test, name: Maya Chen}
    monitors:
      - ref: latency
        name: Orders p99 latency high
        type: query alert
        query: "avg(last_5m):avg:orders.latency.p99{service:orders} > 800"
        options: {thresholds: {critical: 800}}
    slos:
      - ref: availability
        name: Orders availability
        type: metric
        description: Share of good order requests
        tags: [service:orders, team:core]
        thresholds: [{timeframe: 30d, target: 99.9, warning: 99.95}, {timeframe: 7d, target: 99.5}]
        query: {numerator: "sum:orders.requests.ok{*}.as_count()", denominator: "sum:orders.requests{*}.as_count()"}
        creator: $maya_dd
        ago: 10d
      - {ref: latency_slo, name: Orders latency, type: monitor, monitor_ids: [$latency], tags: [service:orders],
         thresholds: [{timeframe: 7d, target: 99}]}
      - {ref: payments, name: Payments uptime, type: metric, tags: [service:payments],
         query: {numerator: "sum:payments.ok{*}", denominator: "sum:payments.all{*}"},
         thresholds: [{timeframe: 90d, target: 99.99}]}
"""
START = 1772460000


@pytest.fixture(scope="module")
def slos(stage: Any) -> DatadogWorld:
    return DatadogWorld(stage.world(SCENE))


def names(dd: DatadogWorld, **params: Any) -> list[str]:
    response = dd.raw("GET", "/api/v1/slo", params=params)
    assert response.status_code == 200, response.text
    return [s["name"] for s in response.json()["data"]]


def test_raw_list_shape(slos: DatadogWorld) -> None:
    body = slos.raw("GET", "/api/v1/slo", params={"ids": slos.ref("availability")}).json()
    assert body == {
        "data": [
            {
                "id": slos.ref("availability"),
                "name": "Orders availability",
                "type": "metric",
                "type_id": 1,
                "description": "Share of good order requests",
                "tags": ["service:orders", "team:core"],
                "thresholds": [
                    {
                        "timeframe": "30d",
                        "target": 99.9,
                        "warning": 99.95,
                        "target_display": "99.9",
                        "warning_display": "99.95",
                    },
                    {"timeframe": "7d", "target": 99.5, "target_display": "99.5"},
                ],
                "monitor_ids": [],
                "monitor_tags": [],
                "groups": [],
                "created_at": START - 10 * 86400,
                "modified_at": START - 10 * 86400,
                "timeframe": "30d",
                "target_threshold": 99.9,
                "warning_threshold": 99.95,
                "query": {
                    "numerator": "sum:orders.requests.ok{*}.as_count()",
                    "denominator": "sum:orders.requests{*}.as_count()",
                },
                "creator": {"email": "maya@acme.test", "handle": "maya@acme.test", "name": "Maya Chen"},
            }
        ],
        "error": None,
        "metadata": {"page": {"total_count": 3, "total_filtered_count": 1}},
    }
    assert len(slos.ref("availability")) == 32


def test_sdk_list(slos: DatadogWorld) -> None:
    from datadog_api_client.v1.api.service_level_objectives_api import ServiceLevelObjectivesApi

    with slos.client() as client:
        response = ServiceLevelObjectivesApi(client).list_slos(tags_query="service:orders")
    assert [s.name for s in response.data] == ["Orders availability", "Orders latency"]
    monitor_slo = response.data[1]
    assert str(monitor_slo.type) == "monitor" and monitor_slo.monitor_ids == [int(slos.ref("latency"))]
    assert str(monitor_slo.thresholds[0].timeframe) == "7d" and monitor_slo.thresholds[0].target == 99.0
    assert (str(monitor_slo.timeframe), monitor_slo.target_threshold) == ("7d", 99.0)
    assert "warning_threshold" not in monitor_slo.to_dict()  # its one threshold has no warning
    assert response.metadata.page.total_filtered_count == 2


def test_filters_and_paging(slos: DatadogWorld) -> None:
    assert names(slos) == ["Orders availability", "Orders latency", "Payments uptime"]
    assert names(slos, query="orders") == ["Orders availability", "Orders latency"]
    assert names(slos, tags_query="service:orders,team:core") == ["Orders availability"]
    assert names(slos, metrics_query="payments.ok") == ["Payments uptime"]
    assert names(slos, ids=f"{slos.ref('payments')},{slos.ref('latency_slo')}") == ["Orders latency", "Payments uptime"]
    assert names(slos, limit=1, offset=1) == ["Orders latency"]
    assert names(slos, offset=5) == []


@pytest.mark.parametrize(("params", "name"), [({"limit": "lots"}, "limit"), ({"offset": -1}, "offset")])
def test_bad_parameters(slos: DatadogWorld, params: dict[str, Any], name: str) -> None:
    response = slos.raw("GET", "/api/v1/slo", params=params)
    assert response.status_code == 400
    assert response.json() == {"errors": [f"The value provided for parameter '{name}' is invalid"]}


def failure(slos: str) -> SpecError:
    head = 'name: g\ntask: t\nclock: {start: "2026-03-02T14:00:00Z"}\nseed:\n  datadog:\n    slos:\n'
    with pytest.raises(SpecError) as caught:
        build_image(*read_scene_text(head + slos))
    return caught.value


def test_seed_errors() -> None:
    error = failure("      - {name: s, type: metric, thresholds: [{timeframe: 7d, target: 99}]}\n")
    assert error.message == "a metric SLO needs a query: {numerator, denominator}"
    assert error.field == "seed.datadog.slos[0].query"
    error = failure("      - {name: s, type: monitor, thresholds: [{timeframe: 7d, target: 99}]}\n")
    assert error.message == "a monitor SLO needs monitor_ids"
    error = failure(
        "      - {name: s, type: monitor, monitor_ids: [$nope], thresholds: [{timeframe: 7d, target: 9}]}\n"
    )
    assert error.message.startswith("unknown ref $nope") and error.field == "seed.datadog.slos[0].monitor_ids[0]"
    error = failure("      - {name: s, type: metric, thresholds: [{timeframe: 1d, target: 99}]}\n")
    assert error.field == "seed.datadog.slos[0].thresholds[0].timeframe"
