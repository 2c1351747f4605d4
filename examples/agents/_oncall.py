"""Steps the scripted on-call agents share: their own page in PagerDuty, its status, reassigning it, and
waiting for a Datadog monitor while moving the world's clock on."""

from __future__ import annotations

import os
import re

import pagerduty
from _colleagues import advance
from datadog_api_client import ApiClient, Configuration
from datadog_api_client.v1.api.monitors_api import MonitorsApi


def my_incident(pd: pagerduty.RestApiV2Client, *statuses: str) -> dict:
    """The first incident assigned to the agent's own PagerDuty user in one of `statuses`."""
    me = pd.rget("/users/me")
    return next(pd.iter_all("incidents", params={"statuses": list(statuses), "user_ids": [me["id"]]}))


def set_status(pd: pagerduty.RestApiV2Client, incident: dict, status: str) -> None:
    pd.rput(f"/incidents/{incident['id']}", json={"incident": {"type": "incident_reference", "status": status}})


def reassign(pd: pagerduty.RestApiV2Client, incident: dict, email: str) -> None:
    """Makes the PagerDuty user with `email` the incident's only assignee."""
    user = next(pd.iter_all("users", params={"query": email}))
    assignment = {"assignee": {"id": user["id"], "type": "user_reference"}}
    pd.rput(
        f"/incidents/{incident['id']}", json={"incident": {"type": "incident_reference", "assignments": [assignment]}}
    )


def wait_for_monitor(name: str, state: str = "OK", attempts: int = 15) -> bool:
    """Whether the Datadog monitor `name` reached `state`, checking once a simulated minute."""
    with ApiClient(Configuration(host=os.environ["DATADOG_API_URL"])) as api:  # keys from DD_API_KEY, DD_APP_KEY
        monitors = MonitorsApi(api)
        monitor = next(m for m in monitors.list_monitors(name=name))
        for _ in range(attempts):
            if str(monitors.get_monitor(monitor.id).overall_state) == state:
                return True
            advance("1m")
    return False


def paging_storm(pd: pagerduty.RestApiV2Client) -> list[dict]:
    """The largest group of the agent's triggered incidents that share a title but for the host in
    brackets at its end (`... (web-1)`), oldest first."""
    groups: dict[str, list[dict]] = {}
    for incident in pd.iter_all(
        "incidents", params={"statuses": ["triggered"], "user_ids": [pd.rget("/users/me")["id"]]}
    ):
        groups.setdefault(re.sub(r"\s*\([^)]*\)$", "", incident["title"]), []).append(incident)
    return sorted(max(groups.values(), key=len), key=lambda i: (i["created_at"], i["incident_number"]))
