"""Datadog state checks on hand-made states: `datadog.monitor` and `datadog.downtime`.

Monitor 1000001 (`$latency`) is in Alert and muted by downtime `d1` (the agent's, seq 3: active from 14:00
for an hour); 1000002 is OK and tagged team:payments, which the canceled downtime `d2` named. The attempt
ends at 14:00:20 (seq 4).
"""

from __future__ import annotations

import pytest

from soundstage.checks import Attempt, CheckSpecError
from soundstage.clock import US, parse_time
from soundstage.services.datadog.store import DOWNTIMES, MONITORS

T0 = parse_time("2026-03-02T14:00:00Z")
REFS = {"latency": "1000001", "maint": "d1"}
STATE = {
    MONITORS: [
        {"id": 1000001, "name": "Orders p99 latency high", "tags": ["service:orders"], "overall_state": "Alert"},
        {"id": 1000002, "name": "Payments errors", "tags": ["team:payments"], "overall_state": "OK"},
    ],
    DOWNTIMES: [
        {
            "id": "d1",
            "scope": "*",
            "monitor_identifier": {"monitor_id": 1000001},
            "schedule": {"start": T0, "end": T0 + 3600 * US},
            "canceled": None,
        },
        {
            "id": "d2",
            "scope": "env:prod",
            "monitor_identifier": {"monitor_tags": ["team:payments"]},
            "schedule": {"start": T0 - 3600 * US, "end": None},
            "canceled": T0 - 60 * US,
        },
    ],
}


@pytest.fixture
def attempt(log) -> Attempt:
    create = log.call("POST", "/api/v2/downtime", service="datadog")  # 2
    log.write(DOWNTIMES, "added", "d1", by=create)  # 3
    log.finish("Muted the latency monitor.")  # 4
    keys = {MONITORS: ["1000001", "1000002"], DOWNTIMES: ["d1", "d2"]}
    return Attempt(log.events, STATE, {}, None, REFS, "Mute it.", keys=keys)


def check(result, attempt, name, **args):
    return result({"state": {name: args}}, attempt)


def test_monitor_state_and_muted_pass(result, attempt):
    r = check(result, attempt, "datadog.monitor", monitor="$latency", state="Alert", muted=True)
    assert (r.passed, r.kind, r.evidence) == (True, "state:datadog.monitor", [2, 3])
    assert r.expected == "monitor 1000001 ($latency) in state Alert and muted at the end"
    assert r.actual == '1000001 ($latency) "Orders p99 latency high" is Alert and muted by 1 active downtime'


def test_monitor_by_name_fails_with_what_it_is(result, attempt):
    r = check(result, attempt, "datadog.monitor", monitor="Payments errors", state="Alert")
    assert (r.passed, r.evidence) == (False, [])
    assert r.actual == '1000002 "Payments errors" is OK and not muted'
    r = check(result, attempt, "datadog.monitor", monitor=1000002, muted=False)
    assert r.passed is True


def test_monitor_missing(result, attempt):
    r = check(result, attempt, "datadog.monitor", monitor="Nope", state="OK")
    assert r.passed is False
    assert r.actual == 'there is no monitor Nope (there are "Orders p99 latency high" and "Payments errors")'


def test_monitor_needs_state_or_muted(result, attempt):
    with pytest.raises(CheckSpecError):
        check(result, attempt, "datadog.monitor", monitor="$latency")
    with pytest.raises(CheckSpecError):
        check(result, attempt, "datadog.monitor", monitor="$latency", state="Broken")


def test_downtime_passes_with_enough_left(result, attempt):
    r = check(result, attempt, "datadog.downtime", monitor="$latency", remaining_gte="30m", duration_lte="1h")
    assert (r.passed, r.evidence) == (True, [2, 3])
    assert r.expected == (
        "an active downtime covering monitor 1000001 ($latency) at the end with at least 30m left and at most 1h in all"
    )
    assert r.actual == 'downtime d1 (scope "*") of 1h with 3580s left'


def test_downtime_fails_on_limits(result, attempt):
    r = check(result, attempt, "datadog.downtime", monitor="$latency", remaining_gte="2h")
    assert (r.passed, r.actual) == (False, 'downtime d1 (scope "*") of 1h with 3580s left')
    r = check(result, attempt, "datadog.downtime", monitor="$latency", duration_lte="30m")
    assert r.passed is False


def test_downtime_canceled_does_not_cover(result, attempt):
    r = check(result, attempt, "datadog.downtime", monitor="Payments errors")
    assert (r.passed, r.actual) == (False, 'no active downtime covers 1000002 "Payments errors"')


def test_downtime_bad_duration(result, attempt):
    with pytest.raises(CheckSpecError):
        check(result, attempt, "datadog.downtime", monitor="$latency", remaining_gte="soon")
