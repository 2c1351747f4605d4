"""The `pagerduty.incident` state check on a hand-made state.

The attempt starts at 14:00. #2 (Billing) was resolved at 12:30, before it. #3 (Orders API) was triggered
at 13:35 and acknowledged at 13:40, before the start; the agent resolved it at 14:10 (seq 2, 3). #4
(Billing, low urgency) was triggered by a fault at 14:02 and acknowledged by Maya at 14:05.
"""

from __future__ import annotations

import pytest

from soundstage.checks import Attempt, CheckSpecError
from soundstage.clock import parse_time
from soundstage.services.pagerduty.store import INCIDENTS, LOG_ENTRIES, USERS

REFS = {
    "latency": "PLAT001",
    "disk": "PDISK01",
    "orders_svc": "PORDERS",
    "billing_svc": "PBILL01",
    "maya": "PMAYA01",
    "lee": "PLEE001",
}


def at(text: str) -> int:
    return parse_time(f"2026-03-02T{text}Z")


def entry(incident: str, kind: str, time: str) -> dict:
    return {"id": f"Q{incident}{kind[:3]}", "incident": incident, "type": kind, "created_at": at(time)}


STATE = {
    USERS: [
        {"id": "PMAYA01", "name": "Maya Chen", "email": "maya@acme.test"},
        {"id": "PLEE001", "name": "Lee Park", "email": "lee@acme.test"},
    ],
    INCIDENTS: [
        {
            "id": "POLD001",
            "incident_number": 2,
            "title": "Billing queue backed up",
            "service": "PBILL01",
            "status": "resolved",
            "urgency": "high",
            "assignments": [],
            "created_at": at("11:00:00"),
            "resolved_at": at("12:30:00"),
        },
        {
            "id": "PLAT001",
            "incident_number": 3,
            "title": "Orders p99 latency above 800ms",
            "service": "PORDERS",
            "status": "resolved",
            "urgency": "high",
            "assignments": [],
            "created_at": at("13:35:00"),
            "resolved_at": at("14:10:00"),
        },
        {
            "id": "PDISK01",
            "incident_number": 4,
            "title": "Disk full on billing-db-1",
            "service": "PBILL01",
            "status": "acknowledged",
            "urgency": "low",
            "assignments": [{"at": at("14:02:00"), "assignee": "PMAYA01"}],
            "created_at": at("14:02:00"),
            "resolved_at": None,
        },
    ],
    LOG_ENTRIES: [
        entry("POLD001", "trigger_log_entry", "11:00:00"),
        entry("POLD001", "resolve_log_entry", "12:30:00"),
        entry("PLAT001", "trigger_log_entry", "13:35:00"),
        entry("PLAT001", "acknowledge_log_entry", "13:40:00"),
        entry("PLAT001", "resolve_log_entry", "14:10:00"),
        entry("PDISK01", "trigger_log_entry", "14:02:00"),
        entry("PDISK01", "acknowledge_log_entry", "14:05:00"),
    ],
}


@pytest.fixture
def attempt(log) -> Attempt:
    resolve = log.call("PUT", "/incidents/PLAT001", service="pagerduty", body={"incident": {"status": "resolved"}})  # 2
    log.write(INCIDENTS, "changed", "PLAT001", by=resolve, fields=["status", "resolved_at"])  # 3
    latency = STATE[INCIDENTS][1]
    changed = {"id": "PLAT001", "record": latency, "changes": {"status": {"from": "acknowledged", "to": "resolved"}}}
    diff = {INCIDENTS: {"added": [], "removed": [], "changed": [changed]}}
    return Attempt(log.events, STATE, diff, None, REFS, "Handle the page.")


def check(result, attempt, **args):
    return result({"state": {"pagerduty.incident": args}}, attempt)


# -- one incident ------------------------------------------------------------------------------------


def test_status_of_one_incident_by_ref_or_number(result, attempt):
    r = check(result, attempt, incident="$latency", status="resolved")
    assert (r.passed, r.kind, r.evidence) == (True, "state:pagerduty.incident", [2, 3])
    assert r.expected == "incident PLAT001 ($latency) resolved"
    assert r.actual == '#3 PLAT001 ("Orders p99 latency above 800ms") is resolved'
    r = check(result, attempt, incident="4", status="resolved")
    assert (r.passed, r.actual) == (False, '#4 PDISK01 ("Disk full on billing-db-1"): it is acknowledged')


def test_unknown_incident(result, attempt):
    r = check(result, attempt, incident="PNOPE00", status="resolved")
    assert (r.passed, r.actual) == (False, "there is no incident PNOPE00")
    # "²".isdigit(), but int("²") failed: the check raised instead of failing
    r = check(result, attempt, incident="²", status="resolved")
    assert (r.passed, r.actual) == (False, "there is no incident ²")


def test_assignees_are_exact(result, attempt):
    r = check(result, attempt, incident="$disk", assignees=["$maya"])
    assert (r.passed, r.expected) == (True, "incident PDISK01 ($disk) assigned to exactly Maya Chen")
    assert check(result, attempt, incident="$disk", assignees=["maya@acme.test"]).passed is True
    r = check(result, attempt, incident="$disk", assignees=["$maya", "$lee"])
    assert (r.passed, r.actual) == (False, '#4 PDISK01 ("Disk full on billing-db-1"): it is assigned to Maya Chen')
    assert r.expected == "incident PDISK01 ($disk) assigned to exactly Lee Park and Maya Chen"
    r = check(result, attempt, incident="$latency", assignees=[])
    assert (r.passed, r.expected) == (True, "incident PLAT001 ($latency) assigned to exactly nobody")
    r = check(result, attempt, incident="$disk", assignees=[])
    assert (r.passed, r.actual) == (False, '#4 PDISK01 ("Disk full on billing-db-1"): it is assigned to Maya Chen')


def test_urgency(result, attempt):
    assert check(result, attempt, incident="$disk", urgency="low").passed is True
    r = check(result, attempt, incident="$disk", urgency="high")
    assert (r.passed, r.actual) == (False, '#4 PDISK01 ("Disk full on billing-db-1"): its urgency is low')


def test_acknowledged_within_counts_from_the_start_for_older_incidents(result, attempt):
    # #3 was acknowledged before the start; only its resolution at 14:10 counts, 10 minutes in.
    assert check(result, attempt, incident="$latency", acknowledged_within="10m").passed is True
    r = check(result, attempt, incident="$latency", acknowledged_within="5m")
    assert (r.passed, r.expected) == (False, "incident PLAT001 ($latency) acknowledged within 5m")
    assert r.actual == '#3 PLAT001 ("Orders p99 latency above 800ms"): it was acknowledged after 10m'
    # #4 began during the attempt: counted from its creation at 14:02, acknowledged 3 minutes later.
    assert check(result, attempt, incident="$disk", acknowledged_within="3m").passed is True
    assert check(result, attempt, incident="$disk", acknowledged_within="2m").passed is False


def test_resolved_within(result, attempt):
    assert check(result, attempt, incident="$latency", resolved_within="10m").passed is True
    r = check(result, attempt, incident="$latency", resolved_within="9m")
    assert (r.passed, r.actual) == (False, '#3 PLAT001 ("Orders p99 latency above 800ms"): it was resolved after 10m')
    r = check(result, attempt, incident="$disk", resolved_within="1h")
    assert (r.passed, r.actual) == (False, '#4 PDISK01 ("Disk full on billing-db-1"): it was not resolved since')
    r = check(result, attempt, incident="2", resolved_within="1h")
    assert (r.passed, r.actual) == (False, '#2 POLD001 ("Billing queue backed up"): it was not resolved since')


# -- incidents matching ------------------------------------------------------------------------------


def test_matching_service_and_title(result, attempt):
    r = check(result, attempt, service="$billing_svc", status="resolved")
    assert (r.passed, r.evidence) == (True, [])
    assert r.expected == "at least one incident on PBILL01 ($billing_svc) resolved"
    assert r.actual == '1 incident matched: #2 POLD001 ("Billing queue backed up")'
    r = check(result, attempt, title_contains="LATENCY", status="resolved")
    assert (r.passed, r.evidence) == (True, [2, 3])
    r = check(result, attempt, service="$billing_svc", count=2)
    assert (r.passed, r.expected) == (True, "exactly 2 incidents on PBILL01 ($billing_svc)")
    assert check(result, attempt, service="$billing_svc", count_gte=3).passed is False


def test_title_ignore_case_false(result, attempt):
    r = check(result, attempt, title_contains="LATENCY", ignore_case=False)
    assert (r.passed, r.expected) == (False, 'at least one incident whose title contains "LATENCY", case-sensitive')
    assert check(result, attempt, title_contains="latency", ignore_case=False).passed is True


def test_no_match_names_the_closest(result, attempt):
    r = check(result, attempt, service="$orders_svc", title_contains="disk")
    assert r.passed is False
    assert r.actual == (
        'none of 1 incident matched; closest: #3 PLAT001 ("Orders p99 latency above 800ms"), '
        'but its title is "Orders p99 latency above 800ms"'
    )
    r = check(result, attempt, service="PNOPE00")
    assert (r.passed, r.actual) == (False, "there are no incidents on PNOPE00")
    r = check(result, attempt, service="$orders_svc", status="triggered", count=0)
    assert (r.passed, r.expected) == (True, "no incidents on PORDERS ($orders_svc) triggered")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"incident": "$latency", "count": 1}, "count and count_gte apply to the incidents matching"),
        ({"service": "$orders_svc", "count": 1, "count_gte": 1}, "give count or count_gte, not both"),
        ({"incident": "$latency", "resolved_within": "soon"}, "expected a duration like 30s, 5m or 2h, found 'soon'"),
        ({"incident": "$latency", "status": "open"}, "status"),
    ],
)
def test_argument_errors(args, message):
    with pytest.raises(CheckSpecError) as caught:
        from soundstage.checks import parse_checks

        parse_checks([{"id": "c", "state": {"pagerduty.incident": args}}], REFS)
    assert message in str(caught.value)
