"""Whether monitors can be deleted (`GET /api/v1/monitor/can_delete`) through datadog-api-client and raw httpx:
the SLOs and composite monitors that use a monitor, Datadog's 409 and 400."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DatadogWorld, parsed

SCENE = """
name: dd-monitor-usage
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
seed:
  datadog:
    monitors:
      - {ref: latency, name: Orders latency, query: "avg(last_5m):avg:orders.latency.p99{*} > 800"}
      - {ref: errors, name: Orders errors, query: "sum(last_5m):sum:orders.errors{*} > 10"}
      - {ref: free, name: Unused, query: "avg(last_5m):avg:orders.queue{*} > 5"}
      - {ref: both, name: Latency and errors, type: composite, query: "1000001 && !1000002"}
    slos:
      - {ref: slo, id: 0123456789abcdef0123456789abcdef, name: Orders latency SLO, type: monitor,
         monitor_ids: [$latency], thresholds: [{timeframe: 7d, target: 99}]}
"""


@pytest.fixture(scope="module")
def usage(stage: Any) -> DatadogWorld:
    return DatadogWorld(stage.world(SCENE))


def test_sdk_all_free(usage: DatadogWorld) -> None:
    from datadog_api_client.v1.api.monitors_api import MonitorsApi

    with usage.client() as client:
        answer = parsed(MonitorsApi(client).check_can_delete_monitor(monitor_ids=[1000003, 1000004]))
    assert answer.to_dict() == {"data": {"ok": [1000003, 1000004]}, "errors": None}


def test_raw_used_monitors_are_a_conflict(usage: DatadogWorld) -> None:
    response = usage.raw("GET", "/api/v1/monitor/can_delete", params={"monitor_ids": "1000001,1000002,1000003"})
    assert (response.status_code, response.json()) == (
        409,
        {
            "data": {"ok": [1000003]},
            "errors": {
                "1000001": [
                    (
                        "monitor [1000001,Orders latency] is referenced in slos: "
                        "[0123456789abcdef0123456789abcdef,Orders latency SLO]"
                    ),
                    (
                        "monitor [1000001,Orders latency] is referenced in composite monitors: "
                        "[1000004,Latency and errors]"
                    ),
                ],
                "1000002": [
                    "monitor [1000002,Orders errors] is referenced in composite monitors: [1000004,Latency and errors]"
                ],
            },
        },
    )


def test_sdk_conflict_body(usage: DatadogWorld) -> None:
    from datadog_api_client.exceptions import ApiException
    from datadog_api_client.v1.api.monitors_api import MonitorsApi

    with usage.client() as client, pytest.raises(ApiException) as conflict:
        MonitorsApi(client).check_can_delete_monitor(monitor_ids=[1000002])
    assert conflict.value.status == 409


@pytest.mark.parametrize("ids", [None, "", "abc", "1,x", "99999999999999999999"])
def test_bad_ids(usage: DatadogWorld, ids: str | None) -> None:
    params = {} if ids is None else {"monitor_ids": ids}
    response = usage.raw("GET", "/api/v1/monitor/can_delete", params=params)
    assert (response.status_code, response.json()) == (
        400,
        {"errors": ["The value provided for parameter 'monitor_ids' is invalid"]},
    )
