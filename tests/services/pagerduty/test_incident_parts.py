"""What hangs off an incident, over HTTPS through the official client and raw httpx: notes, alerts, log
entries, merging, snoozing, responder requests, status updates and related change events."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.services.pagerduty.store import INCIDENTS, SERVICES

from .conftest import PagerDutyWorld
from .incident_scene import INCIDENT_SCENE
from .test_incidents import NOT_FOUND, invalid, refused, spec_problems


@pytest.fixture(scope="module")
def pd_inc(stage: Any) -> PagerDutyWorld:
    return PagerDutyWorld(stage.world(INCIDENT_SCENE))


@pytest.fixture
def pdw(stage: Any) -> PagerDutyWorld:
    return PagerDutyWorld(stage.world(INCIDENT_SCENE))


def ref(pd: PagerDutyWorld, name: str) -> dict[str, str]:
    return {"id": pd.ref(name), "type": "incident_reference"}


# -- notes -------------------------------------------------------------------------------------------


def test_notes_list_and_add(pdw: PagerDutyWorld) -> None:
    client = pdw.client()
    latency = pdw.ref("latency")
    note = client.rpost(f"incidents/{latency}/notes", json={"content": "Rolled back 8f3c2e1."})
    assert (note["content"], note["user"]["id"], note["created_at"], note["channel"]) == (
        "Rolled back 8f3c2e1.",
        pdw.ref("maya"),
        "2026-03-02T14:00:00Z",
        {"summary": "The PagerDuty website or APIs"},
    )
    notes = client.rget(f"incidents/{latency}/notes")
    assert [(n["id"], n["content"], n["created_at"]) for n in notes] == [
        (pdw.ref("first_note"), "Looking at the last deploy.", "2026-03-02T13:42:00Z"),
        (note["id"], "Rolled back 8f3c2e1.", "2026-03-02T14:00:00Z"),
    ]
    raw = pdw.raw("GET", f"/incidents/{latency}/notes")
    assert spec_problems(raw.json(), "GET", "/incidents/{id}/notes") == []
    log = client.rget(f"incidents/{latency}/log_entries", params={"limit": 1})
    assert [(e["type"], e["channel"], e["agent"]["id"]) for e in log[:1]] == [
        ("annotate_log_entry", {"type": "note", "summary": "Rolled back 8f3c2e1."}, pdw.ref("maya"))
    ]


def test_note_errors(pd_inc: PagerDutyWorld) -> None:
    latency = pd_inc.ref("latency")
    headers = {"From": pd_inc.email}
    empty = pd_inc.raw("POST", f"/incidents/{latency}/notes", headers=headers, json={"note": {"content": " "}})
    assert (empty.status_code, empty.json()) == (400, invalid("content must be a non-empty string."))
    unwrapped = pd_inc.raw("POST", f"/incidents/{latency}/notes", headers=headers, json={"content": "x"})
    assert (unwrapped.status_code, unwrapped.json()) == (400, invalid("note must be an object."))
    anonymous = pd_inc.raw("POST", f"/incidents/{latency}/notes", json={"note": {"content": "x"}})
    assert anonymous.status_code == 400 and anonymous.json()["error"]["message"].startswith("You must specify")
    missing = pd_inc.raw("GET", "/incidents/PNOPE00/notes")
    assert (missing.status_code, missing.json()) == (404, NOT_FOUND)


# -- alerts ------------------------------------------------------------------------------------------


def test_alerts(pd_inc: PagerDutyWorld) -> None:
    client = pd_inc.client()
    latency = pd_inc.ref("latency")
    alerts = client.list_all(f"incidents/{latency}/alerts")
    assert [
        (a["id"], a["summary"], a["status"], a["severity"], a["alert_key"], a["body"]["details"], a["created_at"])
        for a in alerts
    ] == [
        (
            pd_inc.ref("latency_alert"),
            "p99 latency 2.4s",
            "triggered",
            "critical",
            "orders-latency",
            {"monitor": "orders p99 latency"},
            "2026-03-02T13:35:00Z",
        )
    ]
    one = client.rget(f"incidents/{latency}/alerts/{alerts[0]['id']}")
    assert one == alerts[0]
    integration = pd_inc.live.world[SERVICES].get(pd_inc.ref("orders_svc"))["integrations"][0]
    assert (one["integration"]["id"], one["integration"]["summary"]) == (integration["id"], "Events API V2")
    old = client.list_all(f"incidents/{pd_inc.ref('old')}/alerts", params={"statuses": ["resolved"]})
    assert [(a["summary"], a["status"]) for a in old] == [("Billing queue backed up", "resolved")]
    assert client.list_all(f"incidents/{pd_inc.ref('old')}/alerts", params={"statuses": ["triggered"]}) == []
    raw = pd_inc.raw("GET", f"/incidents/{latency}/alerts", params={"sort_by": "created_at:desc"})
    assert spec_problems(raw.json(), "GET", "/incidents/{id}/alerts") == []
    elsewhere = pd_inc.raw("GET", f"/incidents/{pd_inc.ref('old')}/alerts/{alerts[0]['id']}")
    assert (elsewhere.status_code, elsewhere.json()) == (404, NOT_FOUND)
    bad = pd_inc.raw("GET", f"/incidents/{latency}/alerts", params={"statuses[]": "acknowledged"})
    assert bad.json() == invalid("statuses must be any of triggered, resolved.")


# -- log entries -------------------------------------------------------------------------------------


def test_incident_log_entries_newest_first(pd_inc: PagerDutyWorld) -> None:
    client = pd_inc.client()
    latency, maya, orders = pd_inc.ref("latency"), pd_inc.ref("maya"), pd_inc.ref("orders_svc")
    entries = client.list_all(f"incidents/{latency}/log_entries")
    assert [(e["type"], e["summary"], e["created_at"], e["agent"]["id"], e["channel"]["type"]) for e in entries] == [
        ("annotate_log_entry", "Note added.", "2026-03-02T13:42:00Z", maya, "note"),
        ("acknowledge_log_entry", "Acknowledged by Maya Chen.", "2026-03-02T13:40:00Z", maya, "website"),
        ("assign_log_entry", "Assigned to Maya Chen.", "2026-03-02T13:35:00Z", orders, "api"),
        ("trigger_log_entry", "Triggered through the API.", "2026-03-02T13:35:00Z", orders, "api"),
    ]
    assert entries[1]["acknowledgement_timeout"] == 1800
    assert [u["id"] for u in entries[2]["assignees"]] == [maya]
    assert entries[3]["event_details"] == {"description": "Orders p99 latency above 800ms"}
    assert [t["summary"] for t in entries[0]["teams"]] == ["SRE"]
    overview = client.list_all(f"incidents/{latency}/log_entries", params={"is_overview": True})
    assert [e["type"] for e in overview] == ["acknowledge_log_entry", "assign_log_entry", "trigger_log_entry"]
    windowed = client.list_all(
        f"incidents/{latency}/log_entries", params={"since": "2026-03-02T13:36:00Z", "until": "2026-03-02T13:41:00Z"}
    )
    assert [e["type"] for e in windowed] == ["acknowledge_log_entry"]
    one = client.rget(f"log_entries/{entries[0]['id']}")
    assert one == entries[0]
    assert one["self"] == f"{pd_inc.url}/log_entries/{entries[0]['id']}"
    assert one["html_url"] == f"https://acme.pagerduty.com/incidents/{latency}/log_entries/{entries[0]['id']}"


def test_account_log_entries(pd_inc: PagerDutyWorld) -> None:
    client = pd_inc.client()
    entries = client.list_all("log_entries")
    assert len(entries) == 11
    assert [e["incident"]["summary"] for e in entries[:2]] == ["[#4] Disk full on billing-db-1"] * 2
    sre = client.list_all("log_entries", params={"team_ids": [pd_inc.ref("sre")]})
    assert {e["incident"]["summary"] for e in sre} == {
        "[#1] Orders database failover",
        "[#3] Orders p99 latency above 800ms",
    }
    raw = pd_inc.raw("GET", "/log_entries", params={"limit": 5})
    assert (len(raw.json()["log_entries"]), raw.json()["more"]) == (5, True)
    assert spec_problems(raw.json(), "GET", "/log_entries") == []
    missing = pd_inc.raw("GET", "/log_entries/QNOPE000000000")
    assert (missing.status_code, missing.json()) == (404, NOT_FOUND)


# -- merge -------------------------------------------------------------------------------------------


def test_merge_moves_alerts_and_resolves_the_sources(pdw: PagerDutyWorld) -> None:
    client = pdw.client()
    latency, fresh = pdw.ref("latency"), pdw.ref("fresh")
    merged = client.rput(f"incidents/{latency}/merge", json=[ref(pdw, "fresh")])
    assert (merged["id"], merged["type"]) == (latency, "incident_reference")
    alerts = client.list_all(f"incidents/{latency}/alerts")
    assert [a["summary"] for a in alerts] == ["p99 latency 2.4s", "Disk full on billing-db-1"]
    source = client.rget(f"incidents/{fresh}")
    assert (source["status"], source["resolve_reason"]["incident"]["id"], source["alert_counts"]["all"]) == (
        "resolved",
        latency,
        0,
    )
    target = client.rget(f"incidents/{latency}")
    assert target["alert_counts"] == {"all": 2, "triggered": 2, "resolved": 0}  # moved alerts stay triggered


def test_merge_errors(pdw: PagerDutyWorld) -> None:
    headers = {"From": pdw.email}
    latency = pdw.ref("latency")

    def merge(target: str, *sources: str) -> Any:
        return pdw.raw(
            "PUT",
            f"/incidents/{target}/merge",
            headers=headers,
            json={"source_incidents": [ref(pdw, s) for s in sources]},
        )

    cases = [
        (merge(latency, "latency"), 400, refused("An incident cannot be merged into itself.")),
        (merge(latency, "old"), 400, refused(f"Incident {pdw.ref('old')} is resolved and cannot be merged.")),
        (merge(pdw.ref("old"), "fresh"), 400, refused("Incident Already Resolved")),
        (merge(latency), 400, invalid("source_incidents must be a non-empty array of incident references.")),
    ]
    for response, status, body in cases:
        assert (response.status_code, response.json()) == (status, body)
    unknown = pdw.raw(
        "PUT",
        f"/incidents/{latency}/merge",
        headers=headers,
        json={"source_incidents": [{"id": "PNOPE00", "type": "incident_reference"}]},
    )
    assert (unknown.status_code, unknown.json()) == (404, NOT_FOUND)
    assert not [e for e in pdw.live.events() if e["kind"] == "write"]


# -- snooze ------------------------------------------------------------------------------------------


def test_snooze_returns_to_triggered_when_it_ends(pdw: PagerDutyWorld) -> None:
    client = pdw.client()
    latency = pdw.ref("latency")
    snoozed = client.rpost(f"incidents/{latency}/snooze", json={"duration": 3600})
    assert (snoozed["status"], snoozed["pending_actions"]) == (
        "acknowledged",
        [{"type": "unacknowledge", "at": "2026-03-02T15:00:00Z"}],
    )
    pdw.advance("30m")  # past the acknowledgement timeout: the snooze replaced it
    assert client.rget(f"incidents/{latency}")["status"] == "acknowledged"
    pdw.advance("30m")
    back = client.rget(f"incidents/{latency}")
    assert (back["status"], back["last_status_change_at"]) == ("triggered", "2026-03-02T15:00:00Z")
    log = client.rget(f"incidents/{latency}/log_entries", params={"limit": 2})
    assert [(e["type"], e["summary"]) for e in log[:2]] == [
        ("unacknowledge_log_entry", "Unacknowledged due to snooze timeout."),
        ("snooze_log_entry", "Snoozed for 1h by Maya Chen."),
    ]
    assert log[1]["changed_actions"] == [{"type": "unacknowledge", "at": "2026-03-02T15:00:00Z"}]


def test_snooze_errors(pd_inc: PagerDutyWorld) -> None:
    headers = {"From": pd_inc.email}
    cases = [
        ("fresh", {"duration": 60}, refused("Only acknowledged incidents can be snoozed.")),
        ("latency", {"duration": 0}, invalid("duration must be an integer number of seconds from 1 to 604800.")),
        ("latency", {"duration": "1h"}, invalid("duration must be an integer number of seconds from 1 to 604800.")),
    ]
    for name, body, expected in cases:
        response = pd_inc.raw("POST", f"/incidents/{pd_inc.ref(name)}/snooze", headers=headers, json=body)
        assert (response.status_code, response.json()) == (400, expected)


# -- responder requests and status updates -----------------------------------------------------------


def test_responder_request(pdw: PagerDutyWorld) -> None:
    client = pdw.client()
    latency, maya, lee = pdw.ref("latency"), pdw.ref("maya"), pdw.ref("lee")
    request = client.rpost(
        f"incidents/{latency}/responder_requests",
        json={
            "requester_id": maya,
            "message": "Join the bridge",
            "responder_request_targets": [
                {"responder_request_target": {"id": lee, "type": "user_reference"}},
                {"responder_request_target": {"id": pdw.ref("ep"), "type": "escalation_policy_reference"}},
            ],
        },
    )
    assert (request["requester"]["id"], request["message"], request["requested_at"]) == (
        maya,
        "Join the bridge",
        "2026-03-02T14:00:00Z",
    )
    targets = [t["responder_request_target"] for t in request["responder_request_targets"]]
    assert [(t["type"], t["id"], [r["user"]["id"] for r in t["incidents_responders"]]) for t in targets] == [
        ("user", lee, [lee]),
        ("escalation_policy", pdw.ref("ep"), [maya]),
    ]
    incident = client.rget(f"incidents/{latency}")
    assert [(r["user"]["id"], r["state"]) for r in incident["incidents_responders"]] == [
        (lee, "pending"),
        (maya, "pending"),
    ]
    responder = incident["incidents_responders"][0]
    assert responder["user"] == {
        "id": lee,
        "type": "user_reference",
        "summary": "Lee Park",
        "self": f"{pdw.url}/users/{lee}",
        "html_url": f"https://acme.pagerduty.com/users/{lee}",
        # of lee@acme.test
        "avatar_url": "https://secure.gravatar.com/avatar/bce32127e52ea4ba536e9546fbae5216.png?d=mm&r=PG",
    }
    assert responder["user"]["avatar_url"] == client.rget(f"users/{lee}")["avatar_url"]
    assert responder["requester"]["avatar_url"] == client.rget(f"users/{maya}")["avatar_url"]
    bad = pdw.raw(
        "POST",
        f"/incidents/{latency}/responder_requests",
        json={"requester_id": "PNOPE00", "message": "x", "responder_request_targets": []},
    )
    assert (bad.status_code, bad.json()) == (400, invalid("requester_id must be the id of a user."))


def test_status_update(pdw: PagerDutyWorld) -> None:
    client = pdw.client()
    latency = pdw.ref("latency")
    update = client.rpost(
        f"incidents/{latency}/status_updates", json={"message": "Rolled back; watching.", "subject": "Orders"}
    )
    assert (update["message"], update["subject"], update["sender"]["id"], update["created_at"]) == (
        "Rolled back; watching.",
        "Orders",
        pdw.ref("maya"),
        "2026-03-02T14:00:00Z",
    )
    assert update["html_message"] is None  # StatusUpdate's keys are always there, null when not given
    record = pdw.live.world[INCIDENTS].get(latency)
    assert [u["message"] for u in record["status_updates"]] == ["Rolled back; watching."]
    empty = pdw.raw("POST", f"/incidents/{latency}/status_updates", headers={"From": pdw.email}, json={})
    assert (empty.status_code, empty.json()) == (400, invalid("message is required."))


# -- change events -----------------------------------------------------------------------------------


def test_related_change_events(pd_inc: PagerDutyWorld) -> None:
    client = pd_inc.client()
    events = client.rget(f"incidents/{pd_inc.ref('latency')}/related_change_events")
    assert [
        (e["id"], e["summary"], e["timestamp"], e["source"], e["custom_details"], e["correlation_reason"])
        for e in events
    ] == [
        (
            pd_inc.ref("deploy"),
            "Deploy orders 8f3c2e1",
            "2026-03-02T13:20:00Z",
            "github",
            {"sha": "8f3c2e1"},
            {"reason": "most_recent"},
        )
    ]
    assert events[0]["links"] == [{"href": "https://github.com/acme/orders/commit/8f3c2e1", "text": "View commit"}]
    assert [s["id"] for s in events[0]["services"]] == [pd_inc.ref("orders_svc")]
    integration = pd_inc.live.world[SERVICES].get(pd_inc.ref("orders_svc"))["integrations"][0]
    assert (events[0]["integration"]["id"], events[0]["integration"]["type"]) == (
        integration["id"],
        "events_api_v2_inbound_integration_reference",
    )
    # The billing deploy came two hours before the start: before the disk filled, not before the old queue incident.
    assert [e["summary"] for e in client.rget(f"incidents/{pd_inc.ref('fresh')}/related_change_events")] == [
        "Deploy billing 77aa01"
    ]
    assert client.rget(f"incidents/{pd_inc.ref('old')}/related_change_events") == []
    raw = pd_inc.raw("GET", f"/incidents/{pd_inc.ref('fresh')}/related_change_events", params={"limit": 0})
    assert raw.json() == {"change_events": [], "limit": 0, "offset": None, "total": None, "more": False}
    assert (
        spec_problems(
            pd_inc.raw("GET", f"/incidents/{pd_inc.ref('latency')}/related_change_events").json(),
            "GET",
            "/incidents/{id}/related_change_events",
        )
        == []
    )
