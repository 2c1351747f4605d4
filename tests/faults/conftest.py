"""A fault scene on the acme world: the totals cache keyed by customer id is in production (the commit
`bad_commit` of acme/orders, part of the release deployed), so orders latency is high, the latency monitor
alerts and the orders service is paged. Merging `fix_pull` (deploy on merge) or deploying a commit without
the line removes the cause."""

from __future__ import annotations

import ssl
from typing import Any

import httpx
import pytest

BAD_LINE = 'cache.get(order["customer_id"])'
SCENE = f"""
name: fault-test
world: acme
task: Fix the latency.
agent: {{github_user: $bot_gh, pagerduty_user: $bot_pd, datadog_user: $bot_dd, slack_user: $bot}}
people:
  - ref: maya
    slack_user: $maya
    persona: SRE.
    on: {{fault_resolved: bad_deploy, say: "Latency is back to normal, thanks.", in: $incidents}}
faults:
  - id: bad_deploy
    active_while: {{github.file_at: {{repo: acme/orders, ref: production, path: src/app.py, contains: '{BAD_LINE}'}}}}
    effects:
      - datadog.monitor: {{monitor: $latency, state: Alert}}
      - pagerduty.incident: {{service: $orders_svc, title: "Orders p99 latency above 800ms", urgency: high}}
      - metric: {{name: orders.latency.p99, value: 2400, normal: 180}}
    recover_after: 2m
checks:
  - {{id: resolved, state: {{fault_resolved: {{fault: bad_deploy}}}}}}
  - {{id: no_writes, state: {{writes: {{max: 0}}}}}}
  - {{id: no_changes, state: {{diff: {{collection: datadog.monitors, count: 0}}}}}}
"""


class FaultWorld:
    """A live world of the fault scene, seen through the official clients and raw httpx."""

    def __init__(self, live: Any) -> None:
        self.live = live
        self.env: dict[str, str] = live.env

    def ref(self, name: str) -> str:
        return self.live.world.refs[name]

    def github(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.env['GITHUB_TOKEN']}", "Accept": "application/vnd.github+json"}
        return self.live.http.request(method, self.env["GITHUB_API_URL"] + path, headers=headers, **kwargs)

    def monitor_state(self) -> str:
        from datadog_api_client import ApiClient, Configuration
        from datadog_api_client.v1.api.monitors_api import MonitorsApi

        keys = {"apiKeyAuth": self.env["DD_API_KEY"], "appKeyAuth": self.env["DD_APP_KEY"]}
        with ApiClient(Configuration(host=self.env["DATADOG_API_URL"], api_key=keys)) as client:
            return str(MonitorsApi(client).get_monitor(int(self.ref("latency"))).overall_state)

    def pagerduty(self) -> Any:
        import pagerduty

        return pagerduty.RestApiV2Client(
            self.env["PAGERDUTY_TOKEN"],
            default_from=self.env["PAGERDUTY_FROM"],
            base_url=self.env["PAGERDUTY_API_URL"],
            verify=ssl.create_default_context(cafile=self.env["SSL_CERT_FILE"]),
        )

    def open_incidents(self) -> list[dict[str, Any]]:
        return list(
            self.pagerduty().iter_all(
                "incidents", params={"service_ids[]": [self.ref("orders_svc")], "statuses[]": ["triggered"]}
            )
        )

    def faults(self, after: int = 0) -> list[tuple[int, str, str, str]]:
        """The fault events: (seq, kind, t, fault)."""
        return [
            (e["seq"], e["kind"], e["t"], e["fault"])
            for e in self.live.events(after)
            if e["kind"] in ("fault_started", "fault_resolved")
        ]

    def checks(self) -> dict[str, Any]:
        response = self.live.http.get(f"{self.live.control}/checks")
        assert response.status_code == 200, response.text
        return {c["id"]: c for c in response.json()["checks"]}

    def merge_fix(self) -> int:
        """Merges `fix_pull` into main (which deploys it); answers the seq of the merge call."""
        number = next(
            p["number"]
            for p in self.github("GET", "/repos/acme/orders/pulls").json()
            if p["head"]["ref"] == "fix-totals-cache"
        )
        response = self.github("PUT", f"/repos/acme/orders/pulls/{number}/merge", json={"merge_method": "merge"})
        assert response.status_code == 200, response.text
        return next(e["seq"] for e in reversed(self.live.events()) if e["kind"] == "call")


@pytest.fixture
def faulty(stage: Any) -> FaultWorld:
    """A fresh live world (acme's production release has the bad line, so the fault is active from the start)."""
    return FaultWorld(stage.world(SCENE))
