"""Datadog's rate limits in simulated time: `rate_limits: {datadog: true}` (the published per-endpoint
limits) or limits per operation; 429 `{"errors": ["Rate limit exceeded"]}` with the `X-RateLimit-*` headers."""

from __future__ import annotations

import time
from collections import deque
from types import SimpleNamespace

import pytest
import urllib3.util.retry
from datadog_api_client import ApiClient
from datadog_api_client.exceptions import ApiException
from datadog_api_client.v1.api.monitors_api import MonitorsApi

from soundstage.errors import SpecError
from soundstage.services.datadog.limits import limit_name
from soundstage.services.datadog.store import MONITORS
from soundstage.services.limits import RateLimits
from soundstage.stage.models import read_scene_text

from .conftest import SCENE, DatadogWorld

QUERY = {"from": "1772456400", "to": "1772460000", "query": "avg:orders.latency.p99{*}"}


def _limited(stage, limits: str) -> DatadogWorld:
    return DatadogWorld(stage.world(SCENE.replace("task: test\n", f"task: test\nrate_limits: {limits}\n")))


def _limit_headers(response) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k.startswith("x-ratelimit-")}


def test_limit_per_operation(stage):
    dd = _limited(stage, '{datadog: {"GET /api/v1/monitor": 2/1m}}')
    first, second = dd.raw("GET", "/api/v1/monitor"), dd.raw("GET", "/api/v1/monitor")
    assert (first.status_code, second.status_code) == (200, 200)
    assert _limit_headers(first) == {
        "x-ratelimit-limit": "2",
        "x-ratelimit-period": "60",
        "x-ratelimit-remaining": "1",
        "x-ratelimit-reset": "60",
        "x-ratelimit-name": "get_monitor",
    }
    assert _limit_headers(second)["x-ratelimit-remaining"] == "0"
    refused = dd.raw("GET", "/api/v1/monitor")
    assert (refused.status_code, refused.json()) == (429, {"errors": ["Rate limit exceeded"]})
    assert _limit_headers(refused) == {
        "x-ratelimit-limit": "2",
        "x-ratelimit-period": "60",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": "50",  # calls at 0 s and 5 s: the first leaves the window at 60 s
        "x-ratelimit-name": "get_monitor",
    }
    hosts = dd.raw("GET", "/api/v1/hosts")  # other operations are not limited
    assert (hosts.status_code, _limit_headers(hosts)) == (200, {})
    call = dd.live.trace()[-2]
    assert (call["status"], call["error"], call["operation"]) == (429, True, "GET /api/v1/monitor")
    dd.live.advance("1m")
    assert dd.raw("GET", "/api/v1/monitor").status_code == 200


def test_refused_call_changes_nothing(stage):
    dd = _limited(stage, '{datadog: {"POST /api/v1/monitor": 1/1h}}')
    body = {"name": "CPU", "type": "metric alert", "query": "avg(last_5m):avg:system.cpu.user{*} > 90"}
    assert dd.raw("POST", "/api/v1/monitor", json=body).status_code == 200
    before = len(dd.live.world[MONITORS])
    refused = dd.raw("POST", "/api/v1/monitor", json={**body, "name": "CPU 2"})
    assert (refused.status_code, refused.headers["x-ratelimit-reset"]) == (429, "3595")
    assert len(dd.live.world[MONITORS]) == before


def test_errors_of_a_limited_operation_carry_the_headers(stage):
    dd = _limited(stage, "{datadog: true}")
    bad = dd.raw("GET", "/api/v1/query")  # no from/to/query: Datadog's 400, counted all the same
    assert bad.status_code == 400
    assert _limit_headers(bad) == {
        "x-ratelimit-limit": "1600",
        "x-ratelimit-period": "3600",
        "x-ratelimit-remaining": "1599",
        "x-ratelimit-reset": "3600",
        "x-ratelimit-name": "get_query",
    }


def test_true_is_the_published_limits(stage):
    dd = _limited(stage, "{datadog: true}")
    query = dd.raw("GET", "/api/v1/query", params=QUERY)
    assert (query.status_code, query.headers["x-ratelimit-limit"], query.headers["x-ratelimit-period"]) == (
        200,
        "1600",
        "3600",
    )
    monitors = dd.raw("GET", "/api/v1/monitor")
    assert (monitors.status_code, _limit_headers(monitors)) == (200, {})  # no published limit
    # 300 log searches an hour: fill the window as 300 calls at this instant would.
    world = dd.live.world
    world.part(RateLimits).windows["datadog"]["POST /api/v2/logs/events/search"] = deque([world.now()] * 300)
    refused = dd.raw("POST", "/api/v2/logs/events/search", json={})
    assert (refused.status_code, refused.json()) == (429, {"errors": ["Rate limit exceeded"]})
    assert _limit_headers(refused) == {
        "x-ratelimit-limit": "300",
        "x-ratelimit-period": "3600",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": "3600",
        "x-ratelimit-name": "post_logs_events_search",
    }
    assert dd.raw("GET", "/api/v2/logs/events").headers["x-ratelimit-remaining"] == "299"  # its own window


def test_sdk_raises_the_429(stage):
    dd = _limited(stage, '{datadog: {"*": 1/1m}}')
    with dd.client() as client:
        api = MonitorsApi(client)
        assert [m.name for m in api.list_monitors()][:1] == ["Orders p99 latency high"]
        with pytest.raises(ApiException) as refused:
            api.list_monitors()
    assert refused.value.status == 429
    assert {k.lower(): v for k, v in refused.value.headers.items()}["x-ratelimit-reset"] == "55"
    assert refused.value.body == {"errors": ["Rate limit exceeded"]}


def test_sdk_retry_waits_the_reset(stage, monkeypatch):
    # 1 call in 6 s with the clock moving 5 s a call: the refusal says 1 s, the client sleeps 1 s (real
    # time, recorded here instead of slept), and its retry comes 5 s later in simulated time, when the
    # window has a place again.
    slept: list[float] = []
    monkeypatch.setattr(urllib3.util.retry, "time", SimpleNamespace(sleep=slept.append, time=time.time))
    dd = _limited(stage, '{datadog: {"GET /api/v1/monitor": 1/6s}}')
    configuration = dd.configuration()
    configuration.enable_retry = True
    with ApiClient(configuration) as client:
        api = MonitorsApi(client)
        api.list_monitors()
        assert len(api.list_monitors()) == 3
    assert slept == [1]
    assert [(c["status"], c["operation"]) for c in dd.live.trace()[-3:]] == [
        (200, "GET /api/v1/monitor"),
        (429, "GET /api/v1/monitor"),
        (200, "GET /api/v1/monitor"),
    ]


def test_limit_name():
    assert [limit_name(o) for o in ("GET /api/v1/monitor/{monitor_id}", "POST /api/v2/logs/events/search")] == [
        "get_monitor_monitor_id",
        "post_logs_events_search",
    ]


def test_unknown_operation_is_a_scene_error():
    text = 'name: x\ntask: t\nworld: acme\nrate_limits:\n  datadog:\n    "GET /api/v1/monitors": 5/1m\n'
    with pytest.raises(SpecError) as caught:
        read_scene_text(text, "scene.yaml")
    assert str(caught.value) == (
        "scene.yaml:6: rate_limits.datadog.GET /api/v1/monitors: expected * or a datadog operation soundstage "
        "implements, found 'GET /api/v1/monitors' (did you mean 'GET /api/v1/monitor'?)"
    )
