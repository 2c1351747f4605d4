"""The Events API v2 (`POST /v2/enqueue` under the PagerDuty prefix) through the `pagerduty` package's
EventsApiV2Client and raw HTTPS: triggers open incidents with an alert, dedup keys deduplicate,
acknowledge and resolve act through the service, and bad events get the Events API's 400."""

from __future__ import annotations

from typing import Any

import pagerduty
import pytest

from soundstage.services.pagerduty.store import ALERTS, INCIDENTS, LOG_ENTRIES

from .conftest import ORDERS_KEY, PagerDutyWorld


def events_client(pd: PagerDutyWorld, key: str = ORDERS_KEY) -> Any:
    return pagerduty.EventsApiV2Client(key, base_url=pd.url, verify=pd.context())


def enqueue(pd: PagerDutyWorld, event: dict[str, Any]) -> Any:
    """A raw event, with no Authorization header (the routing key is the credential)."""
    return pd.raw("POST", "/v2/enqueue", token=None, json=event)


def invalid_event(*errors: str) -> dict[str, Any]:
    return {"status": "invalid event", "message": "Event object is invalid", "errors": list(errors)}


TRIGGER = {
    "routing_key": ORDERS_KEY,
    "event_action": "trigger",
    "payload": {"summary": "Orders p99 above 2s", "source": "datadog", "severity": "critical"},
}


def test_trigger_acknowledge_resolve_through_the_client(pd: PagerDutyWorld) -> None:
    events = events_client(pd)
    key = events.trigger("Orders p99 above 2s", "datadog", custom_details={"p99": 2400}, dedup_key="orders-p99")
    assert key == "orders-p99"
    (incident,) = pd.live.world[INCIDENTS].by("incident_key", "orders-p99")
    assert (incident["title"], incident["status"], incident["service"], incident["last_status_change_by"]) == (
        "Orders p99 above 2s",
        "triggered",
        pd.ref("orders_svc"),
        {"type": "service_reference", "id": pd.ref("orders_svc")},
    )
    (alert,) = pd.live.world[ALERTS].by("incident", incident["id"])
    assert (alert["summary"], alert["severity"], alert["source"], alert["details"], alert["alert_key"]) == (
        "Orders p99 above 2s",
        "critical",
        "datadog",
        {"p99": 2400},
        "orders-p99",
    )
    # The REST API shows what the event opened: the incident, assigned through the policy, and its alert.
    client = pd.client()
    shown = client.rget(f"incidents/{incident['id']}")
    assert (shown["status"], shown["assigned_via"], shown["alert_counts"]["all"]) == (
        "triggered",
        "escalation_policy",
        1,
    )
    alerts = client.list_all(f"incidents/{incident['id']}/alerts")
    assert (
        alerts[0]["integration"]["id"]
        == pd.live.world["pagerduty.services"].get(pd.ref("orders_svc"))["integrations"][0]["id"]
    )
    assert events.acknowledge("orders-p99") == "orders-p99"
    acknowledged = client.rget(f"incidents/{incident['id']}")
    assert acknowledged["status"] == "acknowledged"
    assert [(a["acknowledger"]["type"], a["acknowledger"]["id"]) for a in acknowledged["acknowledgements"]] == [
        ("service_reference", pd.ref("orders_svc"))
    ]
    events.resolve("orders-p99")
    resolved = pd.live.world[INCIDENTS].get(incident["id"])
    assert (resolved["status"], resolved["last_status_change_by"]["type"]) == ("resolved", "service_reference")
    assert pd.live.world[ALERTS].get(alert["id"])["status"] == "resolved"
    logged = [e["type"] for e in pd.live.world[LOG_ENTRIES].by("incident", incident["id"])]
    assert logged[0] == "trigger_log_entry" and logged[-2:] == ["acknowledge_log_entry", "resolve_log_entry"]
    assert [c["operation"] for c in pd.live.trace()][:4] == [
        "POST /v2/enqueue",
        "GET /incidents/{id}",
        "GET /incidents/{id}/alerts",
        "POST /v2/enqueue",
    ]


def test_raw_answers_and_deduplication(pd: PagerDutyWorld) -> None:
    first = enqueue(pd, {**TRIGGER, "dedup_key": "k1"})
    assert (first.status_code, first.json()) == (
        202,
        {"status": "success", "message": "Event processed", "dedup_key": "k1"},
    )
    again = enqueue(pd, {**TRIGGER, "dedup_key": "k1", "payload": {**TRIGGER["payload"], "summary": "Still slow"}})
    assert again.status_code == 202
    (incident,) = pd.live.world[INCIDENTS].by("incident_key", "k1")
    assert len(pd.live.world[ALERTS].by("incident", incident["id"])) == 1  # deduplicated into the open alert
    generated = enqueue(pd, TRIGGER).json()["dedup_key"]
    assert len(generated) == 32 and pd.live.world[INCIDENTS].by("incident_key", generated)
    # Acknowledging or resolving a key with no open incident is accepted and does nothing.
    before = len(pd.live.world[INCIDENTS])
    for action in ("acknowledge", "resolve"):
        nothing = enqueue(pd, {"routing_key": ORDERS_KEY, "event_action": action, "dedup_key": "nope"})
        assert (nothing.status_code, nothing.json()["dedup_key"]) == (202, "nope")
    assert len(pd.live.world[INCIDENTS]) == before
    # Once resolved, the same key opens a new incident.
    enqueue(pd, {"routing_key": ORDERS_KEY, "event_action": "resolve", "dedup_key": "k1"})
    enqueue(pd, {**TRIGGER, "dedup_key": "k1"})
    assert [i["status"] for i in pd.live.world[INCIDENTS].by("incident_key", "k1")] == ["resolved", "triggered"]


def test_a_service_in_maintenance_opens_nothing(pd: PagerDutyWorld) -> None:
    window = {
        "maintenance_window": {
            "type": "maintenance_window",
            "start_time": "2026-03-02T14:00:00Z",
            "end_time": "2026-03-02T16:00:00Z",
            "services": [{"id": pd.ref("orders_svc"), "type": "service_reference"}],
        }
    }
    assert pd.raw("POST", "/maintenance_windows", headers={"From": pd.email}, json=window).status_code == 201
    assert enqueue(pd, {**TRIGGER, "dedup_key": "quiet"}).status_code == 202
    assert pd.live.world[INCIDENTS].by("incident_key", "quiet") == []


@pytest.mark.parametrize(
    ("event", "errors"),
    [
        ({**TRIGGER, "routing_key": "short"}, ["Length of 'routing_key' is incorrect (should be 32 characters)"]),
        (
            {**TRIGGER, "routing_key": "e+23rschqsESqk9Q6_-g"},
            [
                "Length of 'routing_key' is incorrect (should be 32 characters)",
                "'routing_key' cannot contain non-alphanumeric characters.",
            ],
        ),
        ({**TRIGGER, "routing_key": "0" * 32}, ["Invalid routing key"]),
        ({"event_action": "trigger"}, ["'routing_key' is missing or blank"]),
        (
            {**TRIGGER, "event_action": "open"},
            ["'event_action' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')"],
        ),
        ({"routing_key": ORDERS_KEY, "event_action": "resolve"}, ["'dedup_key' is missing or blank"]),
        ({**TRIGGER, "payload": None}, ["'payload' is missing or is not an object"]),
        (
            {**TRIGGER, "payload": {"severity": "fatal"}},
            [
                "'payload.summary' is missing or blank",
                "'payload.source' is missing or blank",
                (
                    "'payload.severity' is invalid "
                    "(must be one of the following: 'critical', 'warning', 'error' or 'info')"
                ),
            ],
        ),
        ({**TRIGGER, "dedup_key": 5}, ["'dedup_key' must be a string"]),
    ],
)
def test_invalid_events(pd_read: PagerDutyWorld, event: dict[str, Any], errors: list[str]) -> None:
    before = len(pd_read.live.world[INCIDENTS])
    response = enqueue(pd_read, event)
    assert (response.status_code, response.json()) == (400, invalid_event(*errors))
    assert len(pd_read.live.world[INCIDENTS]) == before


def test_keys_are_not_interchangeable(pd_read: PagerDutyWorld) -> None:
    """A REST token is no routing key, and a routing key opens no REST call."""
    as_key = enqueue(pd_read, {**TRIGGER, "routing_key": pd_read.token})
    assert (as_key.status_code, as_key.json()["status"]) == (400, "invalid event")
    rest = pd_read.raw("GET", "/incidents", token=ORDERS_KEY)
    assert (rest.status_code, rest.json()) == (401, {"error": {"message": "Authentication failed", "code": 2006}})
    keyless = pd_read.live.stage.https.post(pd_read.url.split("/w/")[0] + "/pagerduty/v2/enqueue", json=TRIGGER)
    assert (keyless.status_code, keyless.json()) == (400, invalid_event("Invalid routing key"))
    with pytest.raises(pagerduty.HttpError) as refused:
        events_client(pd_read, "1" * 32).trigger("x", "y")
    assert refused.value.response.status_code == 400
