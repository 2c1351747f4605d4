"""PagerDuty test scenes and helpers: live worlds on the shared test server, reached over HTTPS the way an
agent reaches them, through the official `pagerduty` client and raw httpx."""

from __future__ import annotations

import ssl
from typing import Any

import httpx
import pytest

ACCEPT = "application/vnd.pagerduty+json;version=2"
ORDERS_KEY = "ordersroutingkeyordersroutingkey"  # the routing key of the Orders API's Events API integration

# The clock starts on Monday 2026-03-02 14:00 UTC. The weekly rotation hands over on Mondays at 09:00
# UTC: Sam's turn began 2026-02-23, Maya's 2026-03-02, Sam's again 2026-03-09. Lee overrides it on
# 2026-03-03 from 00:00 to 06:00, and is the policy's second level. The Orders API's new incidents are of
# high urgency on weekdays from 09:00 to 17:00 UTC (its support hours), of low urgency outside them.
SCENE = """
name: pagerduty-test
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {pagerduty_user: $maya}
seed:
  pagerduty:
    teams:
      - {ref: sre, name: SRE, description: Site reliability}
    users:
      - {ref: maya, name: Maya Chen, email: maya@acme.test, role: admin, job_title: SRE, teams: [$sre], color: purple}
      - {ref: sam, name: Sam Ortiz, email: sam@acme.test, time_zone: America/New_York, teams: [$sre], color: green}
      - {ref: lee, name: Lee Park, email: lee@acme.test, role: limited_user, color: red}
    schedules:
      - ref: primary
        name: SRE primary
        time_zone: Etc/UTC
        description: Weekly SRE rotation
        teams: [$sre]
        schedule_layers:
          - {name: Weekly, start: "2026-02-23T09:00:00Z", rotation_turn_length: 7d, users: [$sam, $maya]}
        overrides:
          - {start: "2026-03-03T00:00:00Z", end: "2026-03-03T06:00:00Z", user: $lee}
    escalation_policies:
      - ref: ep
        name: SRE escalation
        description: Primary, then Lee
        num_loops: 1
        teams: [$sre]
        escalation_rules:
          - {escalation_delay_in_minutes: 30, targets: [$primary]}
          - {escalation_delay_in_minutes: 15, targets: [$lee]}
    services:
      - {ref: orders_svc, name: Orders API, description: The orders API, escalation_policy: $ep, teams: [$sre],
         acknowledgement_timeout: 1800, auto_resolve_timeout: 14400, integration_key: ordersroutingkeyordersroutingkey,
         incident_urgency_rule: {type: use_support_hours, during_support_hours: {urgency: high},
                                 outside_support_hours: {urgency: low}},
         support_hours: {days_of_week: [1, 2, 3, 4, 5], start_time: "09:00:00", end_time: "17:00:00"}}
      - {ref: billing_svc, name: Billing, escalation_policy: $ep}
"""


class PagerDutyWorld:
    """A live world seen through the PagerDuty clients."""

    def __init__(self, live: Any) -> None:
        self.live = live
        self.url: str = live.env["PAGERDUTY_API_URL"]
        self.token: str = live.env["PAGERDUTY_TOKEN"]
        self.email: str = live.env["PAGERDUTY_FROM"]
        self.ca: str = live.env["SSL_CERT_FILE"]

    def ref(self, name: str) -> str:
        return self.live.world.refs[name]

    def client(self, token: str | None = None, default_from: str | None = "") -> Any:
        """The official client (`pagerduty.RestApiV2Client`), verifying TLS against the world's CA bundle."""
        import pagerduty

        return pagerduty.RestApiV2Client(
            token or self.token,
            default_from=self.email if default_from == "" else default_from,
            base_url=self.url,
            verify=self.context(),
        )

    def context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.ca)

    def raw(self, method: str, path: str, token: str | None = "", **kwargs: Any) -> httpx.Response:
        """A plain HTTPS request with `Authorization: Token token=...` (None: no Authorization at all)."""
        headers = {"Accept": ACCEPT, **kwargs.pop("headers", {})}
        if token is not None:
            headers.setdefault("Authorization", f"Token token={token or self.token}")
        return self.live.stage.https.request(method, self.url + path, headers=headers, **kwargs)

    def advance(self, duration: str) -> None:
        self.live.advance(duration)


@pytest.fixture
def pd(stage: Any) -> PagerDutyWorld:
    """A fresh world for tests that write or move the clock."""
    return PagerDutyWorld(stage.world(SCENE))


@pytest.fixture(scope="module")
def pd_read(stage: Any) -> PagerDutyWorld:
    """One world shared by a module's read-only tests."""
    return PagerDutyWorld(stage.world(SCENE))
