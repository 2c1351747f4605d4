"""Every directory operation's success body against PagerDuty's OpenAPI description: required keys,
types, nullability and enums, with schedules rendered. (`include[]` is left out: PagerDuty then answers
whole objects where the description only allows references.)"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import PagerDutyWorld
from .schema import problems, response_schema

RANGE = {"since": "2026-03-02T00:00:00Z", "until": "2026-03-09T00:00:00Z"}


def calls(pd: PagerDutyWorld) -> list[tuple[str, str, str, dict[str, Any]]]:
    """(spec path, request path, status, query) for each read."""
    return [
        ("/users/me", "/users/me", "200", {}),
        ("/users", "/users", "200", {}),
        ("/users/{id}", f"/users/{pd.ref('sam')}", "200", {}),
        ("/teams", "/teams", "200", {}),
        (
            "/services",
            "/services",
            "200",
            {},
        ),
        ("/services/{id}", f"/services/{pd.ref('orders_svc')}", "200", {}),
        (
            "/escalation_policies",
            "/escalation_policies",
            "200",
            {},
        ),
        (
            "/escalation_policies/{id}",
            f"/escalation_policies/{pd.ref('ep')}",
            "200",
            {},
        ),
        ("/schedules", "/schedules", "200", {"include[]": ["final_schedule"], **RANGE}),
        ("/schedules/{id}", f"/schedules/{pd.ref('primary')}", "200", RANGE),
        (
            "/oncalls",
            "/oncalls",
            "200",
            RANGE,
        ),
        ("/priorities", "/priorities", "200", {}),
    ]


# Nulls PagerDuty documents or answers although the description types them as plain values: the timeouts
# of a service without them ("Value is `null` if the feature is disabled"), the schedule, start and end
# of an on-call for a user the policy names directly, the end of a layer that does not end ("If `null`, the
# layer does not end"), and what an object was given none of: PagerDuty's own answers show a service's
# `description` and `support_hours`, a user's `job_title`, as null rather than leaving them out.
DOCUMENTED_NULLS = re.compile(
    r"\$\.(services\[\d+\]|service)\.(auto_resolve_timeout|acknowledgement_timeout)"
    r"|\$\.oncalls\[\d+\]\.(schedule|start|end)"
    r"|\$\.(schedules\[\d+\]|schedule)\.schedule_layers\[\d+\]\.end"
    r"|\$\.(services\[\d+\]|service)\.(description|support_hours|last_incident_timestamp)"
    r"|\$\.(users\[\d+\]|user)\.job_title"
    r"|\$\.maintenance_window\.description"
)


@pytest.mark.parametrize("index", range(12))
def test_reads_match_the_spec(pd_read: PagerDutyWorld, index: int) -> None:
    spec_path, path, status, params = calls(pd_read)[index]
    response = pd_read.raw("GET", path, params=params)
    assert response.status_code == int(status)
    found = problems(response.json(), response_schema("GET", spec_path, int(status)))
    assert [p for p in found if not (p.endswith("null where not nullable") and DOCUMENTED_NULLS.match(p))] == []


def test_maintenance_window_matches_the_spec(pd: PagerDutyWorld) -> None:
    window = {
        "type": "maintenance_window",
        "start_time": "2026-03-02T15:00:00Z",
        "end_time": "2026-03-02T16:00:00Z",
        "services": [{"id": pd.ref("billing_svc"), "type": "service_reference"}],
    }
    response = pd.raw(
        "POST",
        "/maintenance_windows",
        json={"maintenance_window": window},
        headers={"From": pd.email},
    )
    assert response.status_code == 201
    found = problems(response.json(), response_schema("POST", "/maintenance_windows", 201))
    assert [p for p in found if not (p.endswith("null where not nullable") and DOCUMENTED_NULLS.match(p))] == []
