"""Building `incidents[]` and `change_events[]` from world files: records, numbers, the history each
incident's fields imply, refs, and errors naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.clock import parse_time
from soundstage.errors import SpecError
from soundstage.services.pagerduty.store import ALERTS, CHANGE_EVENTS, INCIDENTS, LOG_ENTRIES, NOTES
from soundstage.stage.image import ImageCache

from .conftest import SCENE, PagerDutyWorld
from .incident_scene import INCIDENT_SCENE


def at(text: str) -> int:
    return parse_time(f"2026-03-02T{text}Z")


def test_seeded_incident_record(stage: Any) -> None:
    pd = PagerDutyWorld(stage.world(INCIDENT_SCENE))
    world = pd.live.world
    latency = world[INCIDENTS].get(pd.ref("latency"))
    maya = pd.ref("maya")
    trigger = world[LOG_ENTRIES].by("incident", latency["id"])[0]
    assert dict(latency) == {
        "id": pd.ref("latency"),
        "incident_number": 3,
        "title": "Orders p99 latency above 800ms",
        "service": pd.ref("orders_svc"),
        "escalation_policy": pd.ref("ep"),
        "teams": [pd.ref("sre")],
        "status": "acknowledged",
        "urgency": "high",
        "priority": pd.ref("p1"),
        "details": "p99 latency has been above 800ms for 10 minutes.",
        "incident_key": "orders-latency",
        "escalation_level": 1,
        "assigned_via": "escalation_policy",
        "assignments": [{"at": at("13:35:00"), "assignee": maya}],
        "acknowledgements": [{"at": at("13:40:00"), "acknowledger": maya}],
        "created_at": at("13:35:00"),
        "updated_at": at("13:40:00"),
        "last_status_change_at": at("13:40:00"),
        "last_status_change_by": {"type": "user_reference", "id": maya},
        "resolved_at": None,
        "resolution": None,
        "merged_into": None,
        "conference_bridge": None,
        "pending_actions": [{"type": "unacknowledge", "at": at("14:10:00")}],
        "snoozed_until": None,
        "responder_requests": [],
        "status_updates": [],
        "first_trigger_log_entry": trigger["id"],
    }
    assert trigger["type"] == "trigger_log_entry" and trigger["id"].startswith("Q") and len(trigger["id"]) == 14
    old = world[INCIDENTS].get(pd.ref("old"))
    assert (old["status"], old["resolved_at"], old["resolution"], old["assignments"]) == (
        "resolved",
        at("12:30:00"),
        "Drained the queue.",
        [],
    )
    ancient = world[INCIDENTS].get(pd.ref("ancient"))
    resolve = world[LOG_ENTRIES].by("incident", ancient["id"])[-1]
    assert (resolve["type"], resolve["agent"]) == (
        "resolve_log_entry",
        {"type": "service_reference", "id": pd.ref("orders_svc")},
    )
    deploy = world[CHANGE_EVENTS].get(pd.ref("deploy"))
    assert (deploy["service"], deploy["timestamp"], len(deploy["id"])) == (pd.ref("orders_svc"), at("13:20:00"), 26)


def test_seeding_is_deterministic(stage: Any) -> None:
    first = PagerDutyWorld(stage.world(INCIDENT_SCENE)).live.state()
    second = PagerDutyWorld(stage.world(INCIDENT_SCENE)).live.state()
    names = [
        INCIDENTS,
        ALERTS,
        NOTES,
        LOG_ENTRIES,
        CHANGE_EVENTS,
    ]
    assert [first[n] for n in names] == [second[n] for n in names]


def test_record_diff_and_writes_checks_read_incidents(stage: Any) -> None:
    pd = PagerDutyWorld(stage.world(INCIDENT_SCENE))
    pd.client().rput(f"incidents/{pd.ref('fresh')}", json={"type": "incident_reference", "status": "acknowledged"})
    checks = [
        {
            "id": "record",
            "state": {
                "record": {
                    "collection": "pagerduty.incidents",
                    "where": {"title": "disk full", "status": "acknowledged"},
                }
            },
        },
        {
            "id": "diff",
            "state": {
                "diff": {
                    "collection": "pagerduty.incidents",
                    "change": "changed",
                    "changes": {"status": {"from": "triggered", "to": "acknowledged"}},
                    "count": 1,
                }
            },
        },
        {"id": "writes", "state": {"writes": {"collection": "pagerduty.incidents", "min": 1, "max": 1}}},
        {"id": "no_alert_writes", "state": {"writes": {"collection": "pagerduty.alerts", "max": 0}}},
        {
            "id": "incident",
            "state": {
                "pagerduty.incident": {
                    "incident": "$fresh",
                    "status": "acknowledged",
                    "assignees": ["$maya"],
                    "acknowledged_within": "1m",
                }
            },
        },
        {
            "id": "late",
            "state": {"pagerduty.incident": {"service": "$orders_svc", "status": "acknowledged", "count": 0}},
        },
    ]
    response = pd.live.http.post(f"{pd.live.control}/checks", json={"checks": checks})
    assert response.status_code == 200
    assert [(c["id"], c["passed"]) for c in response.json()["checks"]] == [
        ("record", True),
        ("diff", True),
        ("writes", True),
        ("no_alert_writes", True),
        ("incident", True),
        ("late", False),
    ]


def scene(incidents: str) -> str:
    return SCENE + "    incidents:\n" + incidents


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("      - {title: t, service: $nobody}\n", "incidents[0].service: unknown ref $nobody"),
        (
            "      - {title: t, service: $maya}\n",
            "$maya names a record of pagerduty.users, expected one of pagerduty.services",
        ),
        (
            "      - {title: t, service: $orders_svc, assignees: [$ep]}\n",
            "incidents[0].assignees[0]: $ep names a record of",
        ),
        (
            "      - {title: t, service: $orders_svc, priority: P7}\n",
            "incidents[0].priority: no priority named 'P7' (priorities: P1, P2, P3, P4, P5)",
        ),
        (
            "      - {title: t, service: $orders_svc, escalation_level: 3}\n",
            "incidents[0].escalation_level: the service's escalation policy has 2 level(s)",
        ),
        (
            "      - {title: t, service: $orders_svc, acknowledged_ago: 1m}\n",
            "incidents[0].acknowledged_ago: a triggered incident has no acknowledged_ago",
        ),
        (
            "      - {title: t, service: $orders_svc, status: acknowledged, ago: 5m, acknowledged_ago: 10m}\n",
            "incidents[0].acknowledged_ago: acknowledged_ago must be at most ago",
        ),
        (
            "      - {title: t, service: $orders_svc, status: resolved, ago: 5m, resolved_ago: 6m}\n",
            "incidents[0].resolved_ago: resolved_ago must be at most acknowledged_ago and ago",
        ),
        (
            "      - {title: t, service: $orders_svc, status: acknowledged, ago: 40d}\n",
            "incidents[0].status: nobody is assigned to acknowledge this incident; give assignees",
        ),
        ("      - {title: t, service: $orders_svc, status: open}\n", "incidents[0].status"),
        (
            "      - {title: t, service: $orders_svc, notes: [{content: x, user: $ghost}]}\n",
            "incidents[0].notes[0].user: unknown ref $ghost",
        ),
    ],
)
def test_seed_errors(entry: str, message: str) -> None:
    with pytest.raises(SpecError) as caught:
        ImageCache().load(scene_yaml=scene(entry))
    assert message in str(caught.value)


def test_change_event_errors() -> None:
    with pytest.raises(SpecError) as caught:
        ImageCache().load(scene_yaml=SCENE + "    change_events: [{summary: s, service: $sre}]\n")
    assert (
        "change_events[0].service: $sre names a record of pagerduty.teams, expected one of pagerduty.services"
        in str(caught.value)
    )
