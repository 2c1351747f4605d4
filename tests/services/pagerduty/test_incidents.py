"""Incidents over HTTPS through the official client and raw httpx: listing with filters and paging,
showing, creating, updating one and many, the lifecycle and its errors, and determinism."""

from __future__ import annotations

import re
from typing import Any

import pagerduty
import pytest

from soundstage.services.pagerduty.store import INCIDENTS, LOG_ENTRIES

from .conftest import PagerDutyWorld
from .incident_scene import INCIDENT_SCENE
from .schema import problems, response_schema

# Where PagerDuty's API (and the description's own examples) differ from its schemas; see views_incidents.
KNOWN = re.compile(
    r"\.(priority|resolved_at|resolve_reason|alert_grouping): null where not nullable$|"
    r"\.body\.details: expected object|"
    r"'acknowledge_log_entry' not in \['acknowledgement_log_entry'\]$"
)


def spec_problems(body: Any, method: str, path: str, status: int = 200) -> list[str]:
    return [p for p in problems(body, response_schema(method, path, status)) if not KNOWN.search(p)]


NOT_FOUND = {"error": {"message": "Not Found", "code": 2100}}


def invalid(*errors: str) -> dict[str, Any]:
    return {
        "error": {
            "message": "Invalid Input Provided",
            "code": 2001,
            "errors": list(errors),
        }
    }


def refused(*errors: str) -> dict[str, Any]:
    return {
        "error": {
            "message": "Arguments Caused Error",
            "code": 2002,
            "errors": list(errors),
        }
    }


@pytest.fixture(scope="module")
def pd_inc(stage: Any) -> PagerDutyWorld:
    """One world shared by this module's read-only tests."""
    return PagerDutyWorld(stage.world(INCIDENT_SCENE))


@pytest.fixture
def pdw(stage: Any) -> PagerDutyWorld:
    """A fresh world for tests that write or move the clock."""
    return PagerDutyWorld(stage.world(INCIDENT_SCENE))


def numbers(incidents: list[dict[str, Any]]) -> list[int]:
    return [i["incident_number"] for i in incidents]


def service_ref(pd: PagerDutyWorld, ref: str) -> dict[str, str]:
    return {"id": pd.ref(ref), "type": "service_reference"}


# -- list --------------------------------------------------------------------------------------------


def test_list_all_through_the_client_covers_the_last_30_days(
    pd_inc: PagerDutyWorld,
) -> None:
    incidents = pd_inc.client().list_all("incidents")
    assert [(i["incident_number"], i["status"], i["title"]) for i in incidents] == [
        (2, "resolved", "Billing queue backed up"),
        (3, "acknowledged", "Orders p99 latency above 800ms"),
        (4, "triggered", "Disk full on billing-db-1"),
    ]


def test_list_all_dates_and_filters(pd_inc: PagerDutyWorld) -> None:
    client = pd_inc.client()
    assert numbers(client.list_all("incidents", params={"date_range": "all"})) == [
        1,
        2,
        3,
        4,
    ]
    everything = {"date_range": "all"}
    cases: list[tuple[dict[str, Any], list[int]]] = [
        ({"statuses": ["triggered", "acknowledged"]}, [3, 4]),
        ({"service_ids": [pd_inc.ref("billing_svc")]}, [2, 4]),
        ({"team_ids": [pd_inc.ref("sre")]}, [1, 3]),
        ({"user_ids": [pd_inc.ref("maya")]}, [3, 4]),
        ({"urgencies": ["low"]}, [4]),
        ({"incident_key": "orders-latency"}, [3]),
        ({"sort_by": "incident_number:desc"}, [4, 3, 2, 1]),
        ({"sort_by": ["urgency:desc", "incident_number:asc"]}, [4, 1, 2, 3]),
        ({"date_range": None, "since": "2026-03-02T13:00:00Z", "until": "2026-03-02T13:56:00Z"}, [3, 4]),
    ]
    for params, expected in cases:
        assert numbers(client.list_all("incidents", params={**everything, **params})) == expected, params


def test_list_raw_pages_and_shapes(pd_inc: PagerDutyWorld) -> None:
    response = pd_inc.raw(
        "GET",
        "/incidents",
        params={"limit": 2, "offset": 1, "total": "true", "date_range": "all"},
    )
    assert response.status_code == 200
    body = response.json()
    assert (
        numbers(body["incidents"]),
        body["limit"],
        body["offset"],
        body["more"],
        body["total"],
    ) == ([2, 3], 2, 1, True, 4)
    assert spec_problems(body, "GET", "/incidents") == []
    assert "body" not in body["incidents"][0]
    with_body = pd_inc.raw("GET", "/incidents", params={"include[]": "body", "statuses[]": "acknowledged"}).json()
    assert with_body["incidents"][0]["body"] == {
        "type": "incident_body",
        "details": "p99 latency has been above 800ms for 10 minutes.",
    }


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        (
            {"statuses[]": "open"},
            invalid("statuses must be any of triggered, acknowledged, resolved."),
        ),
        ({"urgencies[]": "medium"}, invalid("urgencies must be any of high, low.")),
        (
            {"sort_by": "title"},
            invalid("sort_by must be one of incident_number, created_at, resolved_at, urgency, with :asc or :desc."),
        ),
        (
            {"since": "yesterday"},
            {
                "error": {
                    "message": "Invalid 'since' or 'until' Parameter Values",
                    "code": 2004,
                    "errors": ["since is not a valid date."],
                }
            },
        ),
        (
            {"since": "2026-03-02T14:00:00Z", "until": "2026-03-01T00:00:00Z"},
            {"error": {"message": "Invalid Query Date Range", "code": 2005, "errors": ["since must be before until."]}},
        ),
    ],
)
def test_list_errors(pd_inc: PagerDutyWorld, params: dict[str, str], expected: dict[str, Any]) -> None:
    response = pd_inc.raw("GET", "/incidents", params=params)
    assert (response.status_code, response.json()) == (400, expected)


def test_iter_all_pages_through_many_incidents(stage: Any) -> None:
    many = "".join(
        f"      - {{title: Flapping check {n}, service: $billing_svc, status: resolved, ago: {200 - n}m}}\n"
        for n in range(130)
    )
    pd = PagerDutyWorld(stage.world(INCIDENT_SCENE.replace("    incidents:\n", "    incidents:\n" + many)))
    found = list(pd.client().iter_all("incidents"))
    assert len(found) == 133
    assert numbers(found) == list(range(2, 135))
    assert found[-1]["title"] == "Disk full on billing-db-1"
    calls = [c for c in pd.live.trace() if c.get("path") == "/incidents"]
    assert [c["query"]["offset"] for c in calls] == ["0", "100"]


def test_an_incident_opened_this_very_moment_is_listed(stage: Any) -> None:
    # The world's first call comes at the clock start, when the seeded incident was triggered.
    now = "      - {title: Orders API down, service: $orders_svc, ago: 0s}\n"
    pd = PagerDutyWorld(stage.world(INCIDENT_SCENE.replace("    incidents:\n", "    incidents:\n" + now)))
    found = pd.client().list_all("incidents", params={"statuses": ["triggered"]})
    assert [i["title"] for i in found] == ["Disk full on billing-db-1", "Orders API down"]
    assert pd.live.trace()[0]["t"] == found[-1]["created_at"] == "2026-03-02T14:00:00Z"


# -- show --------------------------------------------------------------------------------------------


def test_get_by_id_and_by_number(pd_inc: PagerDutyWorld) -> None:
    client = pd_inc.client()
    incident = client.rget(f"incidents/{pd_inc.ref('latency')}")
    assert client.rget("incidents/3") == incident
    maya = pd_inc.ref("maya")
    assert {
        "summary": incident["summary"],
        "status": incident["status"],
        "urgency": incident["urgency"],
        "created_at": incident["created_at"],
        "last_status_change_at": incident["last_status_change_at"],
        "assignments": [(a["at"], a["assignee"]["id"]) for a in incident["assignments"]],
        "acknowledgements": [(a["at"], a["acknowledger"]["id"]) for a in incident["acknowledgements"]],
        "pending_actions": incident["pending_actions"],
        "priority": incident["priority"]["name"],
        "alert_counts": incident["alert_counts"],
        "service": incident["service"]["summary"],
        "teams": [t["summary"] for t in incident["teams"]],
        "escalation_policy": incident["escalation_policy"]["summary"],
        "resolved_at": incident["resolved_at"],
        "first_trigger_log_entry": incident["first_trigger_log_entry"]["type"],
    } == {
        "summary": "[#3] Orders p99 latency above 800ms",
        "status": "acknowledged",
        "urgency": "high",
        "created_at": "2026-03-02T13:35:00Z",
        "last_status_change_at": "2026-03-02T13:40:00Z",
        "assignments": [("2026-03-02T13:35:00Z", maya)],
        "acknowledgements": [("2026-03-02T13:40:00Z", maya)],
        "pending_actions": [{"type": "unacknowledge", "at": "2026-03-02T14:10:00Z"}],
        "priority": "P1",
        "alert_counts": {"all": 1, "triggered": 1, "resolved": 0},
        "service": "Orders API",
        "teams": ["SRE"],
        "escalation_policy": "SRE escalation",
        "resolved_at": None,
        "first_trigger_log_entry": "trigger_log_entry_reference",
    }
    assert incident["self"] == f"{pd_inc.url}/incidents/{pd_inc.ref('latency')}"
    assert incident["html_url"] == f"https://acme.pagerduty.com/incidents/{pd_inc.ref('latency')}"


def test_get_raw_matches_the_schema_and_404s(pd_inc: PagerDutyWorld) -> None:
    response = pd_inc.raw("GET", f"/incidents/{pd_inc.ref('old')}")
    assert response.status_code == 200
    assert spec_problems(response.json(), "GET", "/incidents/{id}") == []
    old = response.json()["incident"]
    assert (old["status"], old["assignments"], old["resolved_at"]) == (
        "resolved",
        [],
        "2026-03-02T12:30:00Z",
    )
    assert old["last_status_change_by"]["id"] == pd_inc.ref("maya")
    assert (old["resolve_reason"], old["alert_grouping"], old["custom_fields"], "conference_bridge" in old) == (
        None,
        None,
        [],
        False,
    )
    bridged = pd_inc.raw("GET", f"/incidents/{pd_inc.ref('old')}", params={"include[]": "conference_bridge"})
    assert bridged.json()["incident"]["conference_bridge"] == {"conference_number": None, "conference_url": None}
    missing = pd_inc.raw("GET", "/incidents/PNOPE00")
    assert (missing.status_code, missing.json()) == (404, NOT_FOUND)
    with pytest.raises(pagerduty.HttpError) as caught:
        pd_inc.client().rget("incidents/999")
    assert caught.value.response.status_code == 404


def test_include_expands_related_objects(pd_inc: PagerDutyWorld) -> None:
    include = [
        "assignees",
        "acknowledgers",
        "agents",
        "services",
        "teams",
        "escalation_policies",
        "first_trigger_log_entries",
    ]
    incident = pd_inc.client().rget(f"incidents/{pd_inc.ref('latency')}", params={"include": include})
    assert {
        "assignee": incident["assignments"][0]["assignee"]["type"],
        "email": incident["assignments"][0]["assignee"]["email"],
        "acknowledger": incident["acknowledgements"][0]["acknowledger"]["type"],
        "agent": incident["last_status_change_by"]["type"],
        "service": incident["service"]["type"],
        "team": incident["teams"][0]["type"],
        "policy": incident["escalation_policy"]["type"],
        "trigger": incident["first_trigger_log_entry"]["type"],
    } == {
        "assignee": "user",
        "email": "maya@acme.test",
        "acknowledger": "user",
        "agent": "user",
        "service": "service",
        "team": "team",
        "policy": "escalation_policy",
        "trigger": "trigger_log_entry",
    }
    # Whole services carry null timeouts, as PagerDuty's do, which the description does not allow for.
    checked = [name for name in include if name not in ("services", "agents")]
    raw = pd_inc.raw("GET", "/incidents", params=[("include[]", name) for name in checked])
    assert spec_problems(raw.json(), "GET", "/incidents") == []
    assert raw.json()["incidents"][0]["escalation_policy"]["type"] == "escalation_policy"


# -- create ------------------------------------------------------------------------------------------


def test_create_assigns_from_the_escalation_policy(pdw: PagerDutyWorld) -> None:
    client = pdw.client()
    created = client.rpost(
        "incidents",
        json={
            "type": "incident",
            "title": "Checkout errors",
            "service": service_ref(pdw, "orders_svc"),
            "urgency": "low",
            "priority": {"id": pdw.ref("p2"), "type": "priority_reference"},
            "body": {"type": "incident_body", "details": "5xx on /checkout"},
            "incident_key": "checkout-5xx",
        },
    )
    assert (
        created["incident_number"],
        created["status"],
        created["urgency"],
        created["incident_key"],
    ) == (
        5,
        "triggered",
        "low",
        "checkout-5xx",
    )
    assert [a["assignee"]["id"] for a in created["assignments"]] == [pdw.ref("maya")]
    assert (
        created["assigned_via"],
        created["priority"]["name"],
        created["body"]["details"],
    ) == (
        "escalation_policy",
        "P2",
        "5xx on /checkout",
    )
    assert created["created_at"] == "2026-03-02T14:00:00Z"
    assert created["pending_actions"] == [{"type": "escalate", "at": "2026-03-02T14:30:00Z"}]
    log = client.rget(f"incidents/{created['id']}/log_entries")
    assert [(e["type"], e["summary"], e["agent"]["id"]) for e in log] == [
        ("assign_log_entry", "Assigned to Maya Chen.", pdw.ref("maya")),
        ("trigger_log_entry", "Triggered through the API.", pdw.ref("maya")),
    ]
    writes = [e for e in pdw.live.events() if e["kind"] == "write"]
    assert {(w["collection"], w["op"]) for w in writes} == {
        (INCIDENTS, "added"),
        (INCIDENTS, "changed"),
        (LOG_ENTRIES, "added"),
    }


def test_the_urgency_follows_the_support_hours_of_the_service(pdw: PagerDutyWorld) -> None:
    """The Orders API is of high urgency on weekdays 09:00-17:00 UTC and of low urgency outside them."""
    client = pdw.client()

    def urgency(title: str) -> str:
        body = {"type": "incident", "title": title, "service": service_ref(pdw, "orders_svc")}
        return str(client.rpost("incidents", json=body)["urgency"])

    assert urgency("Monday 14:00") == "high"
    pdw.advance("3h")
    assert urgency("Monday 17:00") == "low"
    pdw.advance("16h")
    assert urgency("Tuesday 09:00") == "high"


def test_create_raw_with_assignments_or_a_policy(pdw: PagerDutyWorld) -> None:
    headers = {"From": pdw.email}
    direct = pdw.raw(
        "POST",
        "/incidents",
        headers=headers,
        json={
            "incident": {
                "type": "incident",
                "title": "Direct",
                "service": service_ref(pdw, "billing_svc"),
                "assignments": [{"assignee": {"id": pdw.ref("sam"), "type": "user_reference"}}],
            }
        },
    )
    assert direct.status_code == 201
    assert spec_problems(direct.json(), "POST", "/incidents", 201) == []
    body = direct.json()["incident"]
    assert (
        [a["assignee"]["id"] for a in body["assignments"]],
        body["assigned_via"],
        body["pending_actions"],
    ) == (
        [pdw.ref("sam")],
        "direct_assignment",
        [],
    )
    via_policy = pdw.raw(
        "POST",
        "/incidents",
        headers=headers,
        json={
            "incident": {
                "type": "incident",
                "title": "Policy",
                "service": service_ref(pdw, "billing_svc"),
                "escalation_policy": {
                    "id": pdw.ref("ep"),
                    "type": "escalation_policy_reference",
                },
            }
        },
    )
    assert [a["assignee"]["id"] for a in via_policy.json()["incident"]["assignments"]] == [pdw.ref("maya")]


def test_create_refuses_a_duplicate_open_key_until_resolved(
    pdw: PagerDutyWorld,
) -> None:
    headers = {"From": pdw.email}
    incident = {
        "type": "incident",
        "title": "Again",
        "service": service_ref(pdw, "orders_svc"),
        "incident_key": "orders-latency",
    }
    response = pdw.raw("POST", "/incidents", headers=headers, json={"incident": incident})
    assert (response.status_code, response.json()) == (
        400,
        refused("Open incident with matching dedup key already exists on this service"),
    )
    other_service = {**incident, "service": service_ref(pdw, "billing_svc")}
    assert pdw.raw("POST", "/incidents", headers=headers, json={"incident": other_service}).status_code == 201
    pdw.client().rput(
        f"incidents/{pdw.ref('latency')}",
        json={"type": "incident_reference", "status": "resolved"},
    )
    assert pdw.raw("POST", "/incidents", headers=headers, json={"incident": incident}).status_code == 201


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"type": "incident_reference"}, invalid("incident type must be incident.")),
        ({"title": ""}, invalid("title must be a non-empty string.")),
        ({"title": None}, invalid("title is required.")),
        (
            {"service": {"id": "PNOPE00", "type": "service_reference"}},
            invalid("Service not found."),
        ),
        ({"service": "orders"}, invalid("service must be a reference with an id.")),
        ({"urgency": "urgent"}, invalid("urgency must be one of high, low.")),
        (
            {"priority": {"id": "PNOPE00", "type": "priority_reference"}},
            invalid("Priority not found."),
        ),
        (
            {"body": {"details": "x"}},
            invalid("body must be an object of type incident_body."),
        ),
        (
            {"assignments": [{"assignee": {"id": "PNOPE00", "type": "user_reference"}}]},
            invalid("Assignee PNOPE00 was not found."),
        ),
    ],
)
def test_create_errors(pd_inc: PagerDutyWorld, change: dict[str, Any], expected: dict[str, Any]) -> None:
    incident = {
        "type": "incident",
        "title": "Broken",
        "service": service_ref(pd_inc, "orders_svc"),
        **change,
    }
    response = pd_inc.raw(
        "POST",
        "/incidents",
        headers={"From": pd_inc.email},
        json={"incident": incident},
    )
    assert (response.status_code, response.json()) == (400, expected)


def test_create_with_both_assignments_and_policy_and_without_from(
    pd_inc: PagerDutyWorld,
) -> None:
    both = {
        "type": "incident",
        "title": "Both",
        "service": service_ref(pd_inc, "orders_svc"),
        "assignments": [{"assignee": {"id": pd_inc.ref("sam"), "type": "user_reference"}}],
        "escalation_policy": {
            "id": pd_inc.ref("ep"),
            "type": "escalation_policy_reference",
        },
    }
    response = pd_inc.raw("POST", "/incidents", headers={"From": pd_inc.email}, json={"incident": both})
    assert (response.status_code, response.json()) == (
        400,
        invalid("Assignments cannot be specified if an escalation policy is given."),
    )
    anonymous = pd_inc.raw("POST", "/incidents", json={"incident": {**both, "escalation_policy": None}})
    assert anonymous.status_code == 400
    assert anonymous.json() == pd_inc.raw("PUT", f"/incidents/{pd_inc.ref('fresh')}", json={}).json()
    assert not [i for i in pd_inc.live.world[INCIDENTS] if i["title"] == "Both"]


# -- update ------------------------------------------------------------------------------------------


def test_acknowledge_then_resolve_through_the_client(pdw: PagerDutyWorld) -> None:
    client = pdw.client()
    fresh = pdw.ref("fresh")
    acked = client.rput(
        f"incidents/{fresh}",
        json={"type": "incident_reference", "status": "acknowledged"},
    )
    assert (
        acked["status"],
        acked["last_status_change_at"],
        acked["pending_actions"],
    ) == (
        "acknowledged",
        "2026-03-02T14:00:00Z",
        [],
    )
    assert [a["acknowledger"]["id"] for a in acked["acknowledgements"]] == [pdw.ref("maya")]
    resolved = client.rput(
        f"incidents/{fresh}",
        json={
            "type": "incident_reference",
            "status": "resolved",
            "resolution": "Rotated logs.",
        },
    )
    assert (resolved["status"], resolved["resolved_at"], resolved["assignments"]) == (
        "resolved",
        "2026-03-02T14:00:05Z",
        [],
    )
    log = client.rget(f"incidents/{fresh}/log_entries")
    assert [(e["type"], e["summary"], e.get("note")) for e in log[:2]] == [
        ("resolve_log_entry", "Resolved by Maya Chen.", "Rotated logs."),
        ("acknowledge_log_entry", "Acknowledged by Maya Chen.", None),
    ]
    alerts = client.rget(f"incidents/{fresh}/alerts")
    assert [a["status"] for a in alerts] == ["resolved"]


def test_lifecycle_errors(pdw: PagerDutyWorld) -> None:
    headers = {"From": pdw.email}

    def put(ref: str, **fields: Any) -> Any:
        return pdw.raw(
            "PUT",
            f"/incidents/{pdw.ref(ref)}",
            headers=headers,
            json={"incident": {"type": "incident_reference", **fields}},
        )

    cases = [
        (put("old", status="resolved"), refused("Incident Already Resolved")),
        (put("old", escalation_level=2), refused("Incident Already Resolved")),
        (
            put("latency", status="triggered"),
            refused("An acknowledged incident cannot be set back to triggered."),
        ),
        (
            put("latency", status="closed"),
            invalid("status must be one of triggered, acknowledged, resolved."),
        ),
        (
            put("latency", escalation_level=3),
            invalid("escalation_level must be an integer from 1 to 2."),
        ),
        (put("latency", priority="P9"), invalid("Priority 'P9' was not found.")),
        (put("latency", title=""), invalid("title must be a non-empty string.")),
    ]
    for response, expected in cases:
        assert (response.status_code, response.json()) == (400, expected)
    untyped = pdw.raw(
        "PUT",
        f"/incidents/{pdw.ref('latency')}",
        headers=headers,
        json={"incident": {"status": "resolved"}},
    )
    assert untyped.json() == invalid("incident type must be incident or incident_reference.")
    missing = pdw.raw(
        "PUT",
        "/incidents/PNOPE00",
        headers=headers,
        json={"incident": {"type": "incident_reference"}},
    )
    assert (missing.status_code, missing.json()) == (404, NOT_FOUND)
    assert not [e for e in pdw.live.events() if e["kind"] == "write"]


def test_conference_bridge_set_on_create_and_update(pdw: PagerDutyWorld) -> None:
    """Shown with `include[]=conference_bridge`; an update changes it, an update without it keeps it."""
    client = pdw.client()
    bridge = {"conference_number": "+1 415-555-1212,,,,1234#", "conference_url": "https://meet.acme.test/orders"}
    created = client.rpost(
        "incidents",
        json={
            "type": "incident",
            "title": "Checkout down",
            "service": service_ref(pdw, "orders_svc"),
            "conference_bridge": bridge,
        },
    )
    shown = {"include[]": "conference_bridge"}
    assert client.rget(f"incidents/{created['id']}", params=shown)["conference_bridge"] == bridge
    assert "conference_bridge" not in client.rget(f"incidents/{created['id']}")
    latency = pdw.ref("latency")
    moved = {"conference_url": "https://meet.acme.test/latency"}
    client.rput(f"incidents/{latency}", json={"type": "incident_reference", "conference_bridge": moved})
    client.rput(f"incidents/{latency}", json={"type": "incident_reference", "title": "Orders p99 above 1s"})
    listed = pdw.raw("GET", "/incidents", params={**shown, "incident_key": "orders-latency"}).json()["incidents"]
    assert [i["conference_bridge"] for i in listed] == [
        {"conference_number": None, "conference_url": "https://meet.acme.test/latency"}
    ]
    headers = {"From": pdw.email}
    for bad, message in [
        ("+1 415", "conference_bridge must be an object with conference_number and conference_url."),
        ({"dial_in": "x"}, "conference_bridge must be an object with conference_number and conference_url."),
        ({"conference_url": 7}, "conference_number and conference_url must be strings."),
    ]:
        body = {"incident": {"type": "incident_reference", "conference_bridge": bad}}
        response = pdw.raw("PUT", f"/incidents/{latency}", headers=headers, json=body)
        assert (response.status_code, response.json()) == (400, invalid(message))


def test_reassign_escalate_and_change_fields(pdw: PagerDutyWorld) -> None:
    client = pdw.client()
    latency = pdw.ref("latency")
    sam, lee = pdw.ref("sam"), pdw.ref("lee")
    reassigned = client.rput(
        f"incidents/{latency}",
        json={
            "type": "incident_reference",
            "assignments": [{"assignee": {"id": sam, "type": "user_reference"}}],
        },
    )
    assert (
        [a["assignee"]["id"] for a in reassigned["assignments"]],
        reassigned["status"],
        reassigned["assigned_via"],
    ) == (
        [sam],
        "triggered",
        "direct_assignment",
    )
    escalated = client.rput(
        f"incidents/{latency}",
        json={"type": "incident_reference", "escalation_level": 2},
    )
    assert (
        [a["assignee"]["id"] for a in escalated["assignments"]],
        escalated["assigned_via"],
    ) == ([lee], "escalation_policy")
    assert escalated["pending_actions"] == []  # the last level does not escalate further
    changed = client.rput(
        f"incidents/{latency}",
        json={
            "type": "incident",
            "priority": "P2",
            "urgency": "low",
            "title": "Orders slow",
        },
    )
    assert (
        changed["priority"]["name"],
        changed["urgency"],
        changed["title"],
        changed["summary"],
    ) == (
        "P2",
        "low",
        "Orders slow",
        "[#3] Orders slow",
    )
    cleared = client.rput(f"incidents/{latency}", json={"type": "incident", "priority": None})
    assert cleared["priority"] is None
    log = client.rget(f"incidents/{latency}/log_entries", params={"is_overview": "true"})
    assert [(e["type"], e["summary"]) for e in log[:3]] == [
        ("urgency_change_log_entry", "Urgency changed from high to low by Maya Chen."),
        (
            "escalate_log_entry",
            "Escalated to level 2 by Maya Chen: assigned to Lee Park.",
        ),
        ("assign_log_entry", "Reassigned to Sam Ortiz by Maya Chen."),
    ]
    assert [u["id"] for u in log[1]["assignees"]] == [lee]


def test_reopen_a_resolved_incident(pdw: PagerDutyWorld) -> None:
    client = pdw.client()
    triggered = client.rput(
        f"incidents/{pdw.ref('ancient')}", json={"type": "incident_reference", "status": "triggered"}
    )
    assert (
        triggered["status"],
        [a["assignee"]["id"] for a in triggered["assignments"]],
        triggered["assigned_via"],
    ) == (
        "triggered",
        [pdw.ref("maya")],
        "escalation_policy",
    )
    assert triggered["pending_actions"] == [{"type": "escalate", "at": "2026-03-02T14:30:00Z"}]
    reopened = client.rput(
        f"incidents/{pdw.ref('old')}",
        json={"type": "incident_reference", "status": "acknowledged"},
    )
    assert (
        reopened["status"],
        reopened["resolved_at"],
        [a["assignee"]["id"] for a in reopened["assignments"]],
    ) == (
        "acknowledged",
        None,
        [pdw.ref("maya")],
    )


def test_bulk_update_checks_everything_first(pdw: PagerDutyWorld) -> None:
    client = pdw.client()
    latency, fresh = pdw.ref("latency"), pdw.ref("fresh")
    bad = pdw.raw(
        "PUT",
        "/incidents",
        headers={"From": pdw.email},
        json={
            "incidents": [
                {"id": fresh, "type": "incident_reference", "status": "resolved"},
                {"id": "PNOPE00", "type": "incident_reference"},
            ]
        },
    )
    assert (bad.status_code, bad.json()) == (404, NOT_FOUND)
    assert pdw.live.world[INCIDENTS].get(fresh)["status"] == "triggered"
    updated = client.rput(
        "incidents",
        json=[
            {"id": fresh, "type": "incident_reference", "status": "acknowledged"},
            {"id": latency, "type": "incident_reference", "status": "resolved"},
        ],
    )
    assert [(i["id"], i["status"]) for i in updated] == [
        (fresh, "acknowledged"),
        (latency, "resolved"),
    ]
    raw = pdw.raw(
        "PUT",
        "/incidents",
        headers={"From": pdw.email},
        json={"incidents": [{"id": fresh, "type": "incident", "status": "resolved"}]},
    )
    assert raw.status_code == 200
    assert spec_problems(raw.json(), "PUT", "/incidents") == []
    assert (raw.json()["limit"], raw.json()["more"]) == (1, False)
    empty = pdw.raw("PUT", "/incidents", headers={"From": pdw.email}, json={"incidents": []})
    assert empty.json() == invalid("incidents must be a non-empty array of incident objects.")


# -- time --------------------------------------------------------------------------------------------


def test_unacknowledged_incidents_escalate_and_acknowledgements_time_out(
    pdw: PagerDutyWorld,
) -> None:
    client = pdw.client()
    pdw.advance("10m")  # 14:10: the latency incident's acknowledgement times out
    latency = client.rget(f"incidents/{pdw.ref('latency')}")
    assert (
        latency["status"],
        latency["acknowledgements"],
        latency["pending_actions"],
    ) == (
        "triggered",
        [],
        [{"type": "escalate", "at": "2026-03-02T14:40:00Z"}],
    )
    pdw.advance("15m")  # 14:25: nobody acknowledged the fresh incident, so it escalates to Lee
    fresh = client.rget(f"incidents/{pdw.ref('fresh')}")
    assert (
        [a["assignee"]["id"] for a in fresh["assignments"]],
        fresh["pending_actions"],
    ) == ([pdw.ref("lee")], [])
    log = client.rget(f"incidents/{pdw.ref('fresh')}/log_entries")
    assert [(e["type"], e["created_at"], e["agent"]["type"], e["channel"]["type"]) for e in log[:1]] == [
        ("escalate_log_entry", "2026-03-02T14:25:00Z", "service_reference", "timeout")
    ]
    entries = client.rget(f"incidents/{pdw.ref('latency')}/log_entries")
    assert [(e["type"], e["summary"], e["created_at"]) for e in entries[:1]] == [
        (
            "unacknowledge_log_entry",
            "Unacknowledged due to acknowledgement timeout.",
            "2026-03-02T14:10:00Z",
        )
    ]


def test_same_scene_and_calls_give_the_same_records(stage: Any) -> None:
    def run() -> dict[str, Any]:
        pd = PagerDutyWorld(stage.world(INCIDENT_SCENE))
        client = pd.client()
        created = client.rpost(
            "incidents",
            json={
                "type": "incident",
                "title": "Same",
                "service": service_ref(pd, "orders_svc"),
            },
        )
        client.rput(
            f"incidents/{created['id']}",
            json={"type": "incident_reference", "status": "acknowledged"},
        )
        client.rpost(f"incidents/{created['id']}/notes", json={"content": "Same note"})
        pd.advance("1h")
        state = pd.live.state()
        return {name: state[name] for name in state if name.startswith("pagerduty.")}

    assert run() == run()
