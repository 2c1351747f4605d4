"""Building the directory part of the `pagerduty:` section: records, refs, defaults, moments relative to
the clock start, and errors that name the field."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from soundstage.clock import parse_time
from soundstage.errors import SpecError
from soundstage.services.pagerduty.store import (
    ESCALATION_POLICIES,
    MAINTENANCE_WINDOWS,
    PRIORITIES,
    SCHEDULES,
    SERVICES,
    USERS,
)
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene_text

HEAD = """
name: pd-seed-test
task: test
clock: {start: "2026-03-02T14:00:00Z"}
seed:
  pagerduty:
"""
START = parse_time("2026-03-02T14:00:00Z")
DAY = 86400 * 1_000_000

DIRECTORY = """
users:
  - {ref: ana, name: Ana, email: ana@acme.test}
  - {ref: ben, name: Ben, email: ben@acme.test}
schedules:
  - ref: rota
    name: Rota
    schedule_layers:
      - {users: [$ana, $ben], rotation_turn_length: 1d}
    overrides: [{start: "+1h", end: "+2h", user: $ben}]
escalation_policies:
  - {ref: ep, name: EP, escalation_rules: [{targets: [$rota, $ana]}]}
services:
  - {ref: svc, name: Svc, escalation_policy: $ep}
maintenance_windows:
  - {services: [$svc], start: "-1h", end: "+1h", description: Upgrade}
"""


def build(pagerduty: str) -> Any:
    text = HEAD + textwrap.indent(textwrap.dedent(pagerduty).strip("\n"), "    ") + "\n"
    return build_image(*read_scene_text(text))


def test_records_defaults_and_moments() -> None:
    image = build(DIRECTORY)
    refs, collections = image.refs, image.collections
    ana = collections[USERS].get(refs["ana"])
    assert (ana["role"], ana["time_zone"], ana["teams"]) == ("user", "Etc/UTC", [])
    assert ana["contact_methods"][0]["address"] == "ana@acme.test"
    layer = collections[SCHEDULES].get(refs["rota"])["schedule_layers"][0]
    assert (layer["name"], layer["start"], layer["rotation_virtual_start"]) == (
        "Layer 1",
        START - 28 * DAY,
        START - 28 * DAY,
    )
    assert (layer["rotation_turn_length_seconds"], layer["users"], layer["end"]) == (
        86400,
        [refs["ana"], refs["ben"]],
        None,
    )
    override = collections[SCHEDULES].get(refs["rota"])["overrides"][0]
    assert (override["start"], override["end"]) == (
        START + 3600 * 1_000_000,
        START + 7200 * 1_000_000,
    )
    rules = collections[ESCALATION_POLICIES].get(refs["ep"])["escalation_rules"]
    assert rules[0]["targets"] == [
        {"id": refs["rota"], "type": "schedule"},
        {"id": refs["ana"], "type": "user"},
    ]
    assert rules[0]["escalation_delay_in_minutes"] == 30
    service = collections[SERVICES].get(refs["svc"])
    assert (
        service["status"],
        service["escalation_policy"],
        service["incident_urgency_rule"],
    ) == (
        "active",
        refs["ep"],
        {"type": "constant", "urgency": "high"},
    )
    (window,) = collections[MAINTENANCE_WINDOWS]
    assert (window["start_time"], window["end_time"], window["services"]) == (
        START - 3600 * 1_000_000,
        START + 3600 * 1_000_000,
        [refs["svc"]],
    )
    assert [p["name"] for p in collections[PRIORITIES]] == [
        "P1",
        "P2",
        "P3",
        "P4",
        "P5",
    ]


def test_given_priorities_replace_the_defaults() -> None:
    image = build("priorities: [{ref: sev1, name: SEV-1, description: Everything is down}, {name: SEV-2}]")
    priorities = list(image.collections[PRIORITIES])
    assert [(p["name"], p["order"]) for p in priorities] == [("SEV-1", 1), ("SEV-2", 2)]
    assert priorities[0]["id"] == image.refs["sev1"]


def test_same_text_same_ids() -> None:
    first, second = build(DIRECTORY), build(DIRECTORY)
    assert first.refs == second.refs
    assert [dict(r) for r in first.collections[USERS]] == [dict(r) for r in second.collections[USERS]]


@pytest.mark.parametrize(
    ("pagerduty", "message", "field"),
    [
        ("users: [{name: A}]", "required field is missing", "seed.pagerduty.users[0].email"),
        (
            "users: [{name: A, email: a@x.test}, {name: B, email: a@x.test}]",
            "email a@x.test is already used by another PagerDuty user",
            "seed.pagerduty.users[1].email",
        ),
        (
            "services: [{name: S, escalation_policy: $nope}]",
            "unknown ref $nope",
            "seed.pagerduty.services[0].escalation_policy",
        ),
        (
            "users: [{ref: a, name: A, email: a@x.test}]\nservices: [{name: S, escalation_policy: $a}]",
            "$a names a record of pagerduty.users, expected one of pagerduty.escalation_policies",
            "seed.pagerduty.services[0].escalation_policy",
        ),
        (
            "teams: [{ref: t, name: T}]\nescalation_policies: [{name: E, escalation_rules: [{targets: [$t]}]}]",
            "$t is neither a PagerDuty user nor a schedule",
            "seed.pagerduty.escalation_policies[0].escalation_rules[0].targets[0]",
        ),
        (
            (
                "users: [{ref: a, name: A, email: a@x.test}]\n"
                "schedules: [{name: S, schedule_layers: [{users: [$a], start: -1d, end: -2d}]}]"
            ),
            "a layer must end after it starts",
            "seed.pagerduty.schedules[0].schedule_layers[0].end",
        ),
        (
            "users: [{name: A, email: a@x.test, time_zone: Mars/Base}]",
            "IANA time zone",
            "seed.pagerduty.users[0].time_zone",
        ),
        (
            (
                "users: [{ref: a, name: A, email: a@x.test}]\n"
                "schedules: [{name: S, schedule_layers: [{users: [$a], rotation_turn_length: 1d,"
                " rotation_turn_length_seconds: 60}]}]"
            ),
            "not both",
            "seed.pagerduty.schedules[0].schedule_layers[0]",
        ),
        (
            (
                "users: [{ref: a, name: A, email: a@x.test}]\nschedules: [{name: S, schedule_layers: [{users: [$a],"
                " restrictions: [{type: weekly_restriction, start_time_of_day: '09:00:00', duration_seconds: 60}]}]}]"
            ),
            "a weekly_restriction needs start_day_of_week",
            "seed.pagerduty.schedules[0].schedule_layers[0].restrictions[0]",
        ),
        (
            (
                "services: [{name: S, escalation_policy: PXXXXXX, incident_urgency_rule: {type: use_support_hours,"
                " during_support_hours: {urgency: high}, outside_support_hours: {urgency: low}}}]"
            ),
            "give support_hours exactly when incident_urgency_rule is use_support_hours",
            "seed.pagerduty.services[0]",
        ),
        (
            "services: [{name: S, escalation_policy: PXXXXXX, incident_urgency_rule: {type: use_support_hours}}]",
            "needs during_support_hours and outside_support_hours",
            "seed.pagerduty.services[0].incident_urgency_rule",
        ),
        (
            (
                "services: [{name: S, escalation_policy: PXXXXXX, support_hours: {days_of_week: [1],"
                " start_time: '17:00:00', end_time: '09:00:00'}}]"
            ),
            "support hours must end after they start",
            "seed.pagerduty.services[0].support_hours",
        ),
        (
            "maintenance_windows: [{services: [PXXXXXX], start: -1h, end: +1h}]",
            "is not a record of",
            "seed.pagerduty.maintenance_windows[0].services[0]",
        ),
        (
            "maintenance_windows: [{services: [P1], start: soon, end: +1h}]",
            "offset from the clock start",
            "seed.pagerduty.maintenance_windows[0].start",
        ),
    ],
)
def test_errors_name_the_field(pagerduty: str, message: str, field: str) -> None:
    with pytest.raises(SpecError) as caught:
        build(pagerduty)
    assert message in caught.value.message
    assert caught.value.field == field
