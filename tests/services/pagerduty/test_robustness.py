"""Junk input to every PagerDuty operation: always PagerDuty's 4xx (`{"error": {"message", "code", ...}}`) or a
2xx where the junk is legitimately ignored, never a 500, and a call that failed leaves the world's records as
they were."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.services.pagerduty.calls import ops
from soundstage.services.pagerduty.store import LOG_ENTRIES, SERVICES

from ..junk import Sweep, fill
from .conftest import ACCEPT, PagerDutyWorld
from .incident_scene import INCIDENT_SCENE

OPERATIONS = sorted(ops.handlers)
USER = {"id": "{sam}", "type": "user_reference"}
PRIORITY = {"id": "{p1}", "type": "priority_reference"}
# A valid body per operation that reads one; every field of it is then replaced with each junk value.
TEMPLATES: dict[str, Any] = {
    "POST /incidents": {
        "incident": {
            "type": "incident",
            "title": "t",
            "service": {"id": "{orders_svc}", "type": "service_reference"},
            "urgency": "high",
            "priority": PRIORITY,
            "body": {"type": "incident_body", "details": "x"},
            "incident_key": "k",
            "assignments": [{"assignee": USER}],
        }
    },
    "PUT /incidents": {
        "incidents": [
            {"id": "{id}", "type": "incident_reference", "status": "acknowledged", "urgency": "low"},
            {"id": "{fresh}", "type": "incident_reference", "escalation_level": 2, "title": "t"},
        ]
    },
    "PUT /incidents/{id}": {
        "incident": {
            "type": "incident_reference",
            "status": "resolved",
            "title": "t",
            "urgency": "low",
            "resolution": "r",
            "priority": PRIORITY,
            "escalation_level": 2,
            "escalation_policy": {"id": "{ep}", "type": "escalation_policy_reference"},
        }
    },
    "PUT /incidents/{id}/merge": {"source_incidents": [{"id": "{fresh}", "type": "incident_reference"}]},
    "POST /incidents/{id}/notes": {"note": {"content": "x"}},
    "POST /incidents/{id}/responder_requests": {
        "requester_id": "{maya}",
        "message": "m",
        "responder_request_targets": [{"responder_request_target": USER}],
    },
    "POST /incidents/{id}/snooze": {"duration": 3600},
    "POST /incidents/{id}/status_updates": {"message": "m", "subject": "s", "html_message": "<p>m</p>"},
    "POST /v2/enqueue": {
        "routing_key": "{routing_key}",
        "event_action": "trigger",
        "dedup_key": "k",
        "payload": {"summary": "s", "source": "x", "severity": "critical", "custom_details": {"a": 1}},
    },
    "POST /maintenance_windows": {
        "maintenance_window": {
            "type": "maintenance_window",
            "start_time": "2026-03-02T15:00:00Z",
            "end_time": "2026-03-02T16:00:00Z",
            "description": "d",
            "services": [{"id": "{orders_svc}", "type": "service_reference"}],
        }
    },
}
QUERIES: list[dict[str, Any]] = [
    {"offset": ["1", "2"], "limit": ["1", "2"], "total": ["true", "false"]},
    {"offset": "-1", "limit": "-5", "total": "maybe"},
    {"offset": str(2**70), "limit": "1e308"},
    {"limit": "²", "offset": "١"},
    {"since": "yesterday", "until": "-1", "time_zone": "Mars/Olympus"},
    {"since": "2026-03-02T15:00:00Z", "until": "2026-03-01T00:00:00Z"},
    {"since": "99999-01-01", "until": "0000-00-00"},
    {"since": "2026-03-02T14:00:00+99:00", "until": str(2**70)},
    {"since": "1970-01-01T00:00:00Z", "until": "9999-12-31T23:59:59Z"},
    {"since": ["2026-03-01T00:00:00Z", "x"], "until": ["2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z"]},
    {"statuses[]": ["bogus", "triggered"], "urgencies[]": "extreme", "sort_by": "nonsense:sideways", "date_range": "x"},
    {"statuses": "triggered", "service_ids": "x", "team_ids": "y", "user_ids": "z", "include": "users"},
    {"include[]": ["nonsense", "users", "assignees"], "service_ids[]": ["", "PXXXXXX"]},
    {"sort_by": ["created_at:desc", "x", "y", "z"], "query": "", "is_overview": "maybe", "earliest": "maybe"},
    {"escalation_policy_ids[]": "%00", "schedule_ids[]": "x" * 500, "user_ids[]": "-1", "team_ids[]": "0"},
    {"time_zone": "", "query": "(((", "incident_key": "5", "limit": "0", "alert_key": ""},
    {"time_zone": "Etc/GMT+99", "date_range": "all", "sort_by": "incident_number:asc,created_at:desc"},
    {"sort_by": "created_at:sideways", "is_overview": "true", "include[]": "channels", "statuses[]": ""},
    {"until": "2026-03-02T14:00:00Z", "since": "", "time_zone": "America/New_York"},
]


def is_envelope(body: Any) -> bool:
    """PagerDuty's `{"error": {"message": str, "code": int, "errors": [str, ...] (optional)}}`."""
    error = body.get("error") if isinstance(body, dict) else None
    if list(body) != ["error"] or not isinstance(error, dict) or set(error) - {"message", "code", "errors"}:
        return False
    errors = error.get("errors", [])
    return (
        isinstance(error.get("message"), str)
        and isinstance(error.get("code"), int)
        and isinstance(errors, list)
        and all(isinstance(e, str) for e in errors)
    )


def is_event_refusal(body: Any) -> bool:
    """The Events API's `{"status": "invalid event", "message": str, "errors": [str, ...]}`."""
    return (
        isinstance(body, dict)
        and set(body) == {"status", "message", "errors"}
        and body["status"] == "invalid event"
        and isinstance(body["message"], str)
        and isinstance(body["errors"], list)
        and all(isinstance(e, str) for e in body["errors"])
    )


def sweep(pd: PagerDutyWorld, operation: str = "") -> Sweep:
    headers = {"Accept": ACCEPT, "Authorization": f"Token token={pd.token}", "From": pd.email}
    envelope = is_event_refusal if operation == "POST /v2/enqueue" else is_envelope
    return Sweep(pd.live.stage.https, pd.url, headers, pd.live.world, envelope)


_FIRST_SEGMENT = {
    "incidents": "latency",
    "escalation_policies": "ep",
    "schedules": "primary",
    "services": "orders_svc",
    "users": "maya",
}


def real_ids(pd: PagerDutyWorld, operation: str) -> dict[str, str]:
    """Path parameters (and the `{name}`s of the templates) naming seeded records."""
    refs = ("latency", "fresh", "orders_svc", "ep", "maya", "sam", "p1")
    segment = operation.split(" ", 1)[1].split("/")[1]
    entry = next(iter(pd.live.world[LOG_ENTRIES]))
    found = {name: pd.ref(name) for name in refs}
    the_id = entry["id"] if segment == "log_entries" else pd.ref(_FIRST_SEGMENT.get(segment, "latency"))
    integration = pd.live.world[SERVICES].get(pd.ref("orders_svc"))["integrations"][0]
    return {
        **found,
        "id": the_id,
        "alert_id": pd.ref("latency_alert"),
        "integration_id": integration["id"],
        "routing_key": integration["integration_key"],
    }


@pytest.fixture(scope="module")
def shared(stage: Any) -> PagerDutyWorld:
    return PagerDutyWorld(stage.world(INCIDENT_SCENE))


def test_every_operation_is_covered() -> None:
    assert len(OPERATIONS) == 32
    assert set(TEMPLATES) <= set(OPERATIONS)


@pytest.mark.parametrize("operation", [o for o in OPERATIONS if "{" in o])
def test_junk_ids_get_a_pagerduty_error(shared: PagerDutyWorld, operation: str) -> None:
    sweep(shared, operation).junk_ids(operation, real_ids(shared, operation), TEMPLATES.get(operation, {}), QUERIES)


@pytest.mark.parametrize("operation", OPERATIONS)
def test_junk_gets_a_pagerduty_error(stage: Any, operation: str) -> None:
    pd = PagerDutyWorld(stage.world(INCIDENT_SCENE))
    params = real_ids(pd, operation)
    sweep(pd, operation).operation(operation, params, TEMPLATES.get(operation, {}), QUERIES)
    sweep(pd).readable(OPERATIONS, params)


@pytest.mark.parametrize("operation", sorted(TEMPLATES))
def test_the_valid_body_succeeds(stage: Any, operation: str) -> None:
    """The templates the junk is made from are themselves accepted (else the sweep would test little)."""
    pd = PagerDutyWorld(stage.world(INCIDENT_SCENE))
    params = real_ids(pd, operation)
    method, template = operation.split(" ", 1)
    response = sweep(pd, operation).send(method, fill(template, params), json=fill(TEMPLATES[operation], params))
    assert response.status_code < 300, response.text


# -- the bugs the sweep found, one focused test each ----------------------------------------------------


def test_non_ascii_digits_are_no_incident_number(shared: PagerDutyWorld) -> None:
    """`"²".isdigit()` is true but `int("²")` fails: an incident path with it, or such a `limit`, was a 500."""
    response = shared.raw("GET", "/incidents/²")
    assert (response.status_code, response.json()) == (404, {"error": {"message": "Not Found", "code": 2100}})
    response = shared.raw("GET", f"/incidents/{shared.ref('latency')}/related_change_events", params={"limit": "²"})
    assert (response.status_code, response.json()) == (
        400,
        {
            "error": {
                "message": "Invalid Input Provided",
                "code": 2001,
                "errors": ["limit must be a non-negative integer."],
            }
        },
    )
