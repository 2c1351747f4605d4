"""Datadog test scenes and helpers: live worlds on the shared test server, driven by datadog-api-client
and raw httpx."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from soundstage.services.datadog import series

BOT_ID = "1b8c2d3e-4f50-4a61-8b72-9c83d4e5f601"
SCENE = f"""
name: datadog-test
task: test
clock: {{start: "2026-03-02T14:00:00Z", tick: 5s}}
agent: {{datadog_user: "{BOT_ID}"}}
seed:
  datadog:
    users:
      - {{ref: bot_dd, id: "{BOT_ID}", handle: stagebot@acme.test, email: stagebot@acme.test, name: Stage Bot}}
    metrics:
      - ref: p99_web1
        metric: orders.latency.p99
        tags: [service:orders, env:prod, host:web-1]
        unit: millisecond
        base: 420
        noise: 5%
        daily: 40
      - {{ref: p99_web2, metric: orders.latency.p99, tags: [service:orders, env:prod, host:web-2], \
base: 380, noise: 20}}
      - {{metric: orders.requests, type: count, tags: [service:orders, env:prod, host:web-1], base: 1200, noise: 10%}}
      - {{metric: payments.errors, type: count, tags: [service:payments, env:prod], base: 2, \
overrides: [{{from: -1h, value: 50}}]}}
    monitors:
      - ref: latency
        name: Orders p99 latency high
        type: query alert
        query: "avg(last_5m):avg:orders.latency.p99{{service:orders}} > 800"
        message: "p99 is high @slack-orders"
        tags: [service:orders, team:core]
        priority: 2
        options: {{thresholds: {{critical: 800, warning: 600}}, notify_no_data: false}}
      - ref: by_host
        name: Orders latency by host
        type: metric alert
        query: "max(last_10m):avg:orders.latency.p99{{env:prod}} by {{host}} > 900"
        tags: [service:orders, team:core]
        options: {{thresholds: {{critical: 900}}}}
      - ref: payments
        name: Payments errors
        type: query alert
        query: "sum(last_5m):sum:payments.errors{{service:payments}} > 100"
        tags: [service:payments, team:payments]
        options: {{thresholds: {{critical: 100}}}}
    hosts:
      - {{name: web-1, aliases: [i-0a1b2c], apps: [nginx, python], tags: [service:orders, env:prod]}}
      - {{name: web-2, apps: [nginx], tags: {{Datadog: [service:orders], Amazon Web Services: [env:prod]}}}}
      - {{name: db-1, apps: [postgres], tags: [service:db, env:prod], up: false, last_reported: 3h}}
    downtimes:
      - ref: maintenance
        scope: "env:prod"
        monitor_identifier: {{monitor_tags: [team:payments]}}
        schedule: {{start: 2h, end: 3h}}
        message: Payments maintenance window
"""


class DatadogWorld:
    """A live world seen through the Datadog clients."""

    def __init__(self, live: Any) -> None:
        self.live = live
        self.url: str = live.env["DATADOG_API_URL"]
        self.api_key: str = live.env["DD_API_KEY"]
        self.app_key: str = live.env["DD_APP_KEY"]

    def configuration(self) -> Any:
        from datadog_api_client import Configuration

        return Configuration(host=self.url, api_key={"apiKeyAuth": self.api_key, "appKeyAuth": self.app_key})

    def client(self) -> Any:
        """An `ApiClient` to use in a `with` block."""
        from datadog_api_client import ApiClient

        return ApiClient(self.configuration())

    def raw(self, method: str, path: str, keys: bool = True, **kwargs: Any) -> httpx.Response:
        """A raw call; `keys=False` sends neither key (pass headers to send your own)."""
        headers = {"Accept": "application/json", **kwargs.pop("headers", {})}
        if keys:
            headers.setdefault("DD-API-KEY", self.api_key)
            headers.setdefault("DD-APPLICATION-KEY", self.app_key)
        return self.live.http.request(method, self.url + path, headers=headers, **kwargs)

    def checks(self, **given: dict[str, Any]) -> dict[str, bool | None]:
        """Each check's result on the live world now: `checks(alert={"state": {...}})` -> `{"alert": True}`."""
        body = {"checks": [{"id": name, **check} for name, check in given.items()]}
        response = self.live.http.post(f"{self.live.control}/checks", json=body)
        assert response.status_code == 200, response.text
        return {c["id"]: c["passed"] for c in response.json()["checks"]}

    def ref(self, name: str) -> str:
        return self.live.world.refs[name]

    def record(self, collection: str, record_id: str) -> dict[str, Any]:
        return dict(self.live.world[collection].get(record_id) or {})


@pytest.fixture
def dd(stage: Any) -> DatadogWorld:
    """A fresh world per test (for tests that write or move the clock)."""
    return DatadogWorld(stage.world(SCENE))


@pytest.fixture(scope="module")
def dd_shared(stage: Any) -> Iterator[DatadogWorld]:
    """One world for a module's read-only tests."""
    yield DatadogWorld(stage.world(SCENE))


class Evaluations:
    """Counts the raw metric points the server computes (its thread shares this process's modules)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        normals = series._normals

        def counted(record: Any, times: Any, seed: str, remember: bool = True) -> list[float]:
            found = normals(record, times, seed, remember)
            self.count += len(found)
            return found

        monkeypatch.setattr(series, "_normals", counted)


@pytest.fixture
def evaluations(monkeypatch: pytest.MonkeyPatch) -> Evaluations:
    return Evaluations(monkeypatch)


def parsed(model: Any) -> Any:
    """`model` (or each model of a list), after checking that datadog-api-client read all of it against its
    schema: an object it could not read is kept as unparsed, which a strict client would reject."""
    for item in model if isinstance(model, list) else [model]:
        assert not item._unparsed, item
    return model
