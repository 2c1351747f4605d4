"""Faults as written: the model, refs, the condition, the records the effects name and unique ids; every
error names the file, line and field."""

from __future__ import annotations

import pytest

from soundstage.errors import SpecError
from soundstage.services.datadog.effects import MetricStep, MonitorHold
from soundstage.services.pagerduty.effects import Page
from soundstage.spec.loader import SpecErrors
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene_text

HEAD = "name: x\ntask: t\nworld: acme\nfaults:\n"
GOOD = (
    "  - id: slow\n"
    "    active_while: {github.file_at: {repo: acme/orders, ref: production, path: src/app.py, contains: cache}}\n"
    "    effects:\n"
    "      - datadog.monitor: {monitor: $latency, state: Warn}\n"
    "      - pagerduty.incident: {service: $orders_svc, title: Slow, urgency: low, details: Why}\n"
    "      - metric: {name: orders.latency.p99, value: 900, tags: [host:web-1]}\n"
    "    recover_after: 90s\n"
)


def _error(text: str) -> str:
    try:
        build_image(*read_scene_text(text, "scene.yaml"))
    except SpecErrors as exc:
        return "\n".join(str(e) for e in exc.errors)
    except SpecError as exc:
        return str(exc)
    raise AssertionError("no error")


def test_a_fault_is_resolved_when_the_image_is_built() -> None:
    image = build_image(*read_scene_text(HEAD + GOOD, "scene.yaml"))
    (fault,) = image.faults
    assert (fault.id, fault.condition.name, fault.recover_after) == ("slow", "github.file_at", 90_000_000)
    assert fault.effects == (
        MonitorHold(image.refs["latency"], "Warn"),
        Page(image.refs["orders_svc"], "Slow", "low", "Why"),
        MetricStep("orders.latency.p99", ("host:web-1",), 900.0, None),
    )


def test_recover_after_defaults_to_zero() -> None:
    image = build_image(*read_scene_text(HEAD + GOOD.replace("    recover_after: 90s\n", ""), "scene.yaml"))
    assert image.faults[0].recover_after == 0


@pytest.mark.parametrize(
    ("old", "new", "error"),
    [
        ("$latency", "$nothing", "scene.yaml:8: faults[0].effects[0].datadog.monitor.monitor: unknown ref $nothing"),
        (
            "$latency",
            "$orders_svc",
            (
                "scene.yaml:8: faults[0].effects[0].datadog.monitor.monitor: $orders_svc names a "
                "record of pagerduty.services, expected one of datadog.monitors"
            ),
        ),
        ("$latency", "42", "scene.yaml:8: faults[0].effects[0].datadog.monitor.monitor: no Datadog monitor 42"),
        (
            "$orders_svc",
            "PNOPE00",
            "scene.yaml:9: faults[0].effects[1].pagerduty.incident.service: no PagerDuty service PNOPE00",
        ),
        ("github.file_at", "github.file", "scene.yaml:6: faults[0].active_while: unknown state check 'github.file'"),
        (
            "contains: cache",
            "contain: cache",
            "scene.yaml:6: faults[0].active_while.github.file_at.contain: unknown field 'contain'",
        ),
        (
            "repo: acme/orders",
            "repo: $nope",
            "scene.yaml:6: faults[0].active_while.github.file_at.repo: unknown ref $nope",
        ),
        (
            "state: Warn",
            "state: Red",
            (
                "scene.yaml:8: faults[0].effects[0].datadog.monitor.state: "
                "expected 'Alert', 'Warn' or 'No Data', found 'Red'"
            ),
        ),
        ("90s", "soon", "scene.yaml:11: faults[0].recover_after: expected a duration like 30s, 5m or 2h, found 'soon'"),
        (
            "      - metric:",
            "      - metrics:",
            (
                "scene.yaml:10: faults[0].effects[2]: an effect is a mapping with exactly "
                "one of: datadog.monitor, metric, pagerduty.incident; found metrics"
            ),
        ),
    ],
)
def test_errors_name_the_file_line_and_field(old: str, new: str, error: str) -> None:
    assert _error(HEAD + GOOD.replace(old, new)).startswith(error)


def test_fault_ids_are_unique() -> None:
    assert (
        _error(HEAD + GOOD + GOOD) == "scene.yaml:12: faults[1].id: fault id 'slow' is used twice (first at faults[0])"
    )


@pytest.mark.parametrize(
    ("tail", "error"),
    [
        (
            "checks:\n  - {id: fixed, state: {fault_resolved: {fault: slwo}}}\n",
            (
                "scene.yaml:13: checks[0].state.fault_resolved.fault: "
                "fault 'slwo' is not one of the scene's faults (declared: slow); did you mean 'slow'?"
            ),
        ),
        (
            'checks:\n  - {id: first, before: [{fault_resolved: slwo}, {called: "*"}]}\n',
            (
                "scene.yaml:13: checks[0].before[0].fault_resolved: "
                "fault 'slwo' is not one of the scene's faults (declared: slow); did you mean 'slow'?"
            ),
        ),
        (
            (
                "checks:\n  - {id: soon, within: {milestone: {state: {fault_resolved: {fault: slwo}}}, "
                'after: {called: "*"}, limit: 1h}}\n'
            ),
            (
                "scene.yaml:13: checks[0].within.milestone.state.fault_resolved.fault: "
                "fault 'slwo' is not one of the scene's faults (declared: slow); did you mean 'slow'?"
            ),
        ),
        (
            (
                "people:\n"
                "  - {ref: maya, slack_user: $maya, on: {fault_resolved: slwo, say: Back to normal., in: $incidents}}\n"
            ),
            (
                "scene.yaml:13: people[0].on[0]: "
                "fault 'slwo' is not one of the scene's faults (declared: slow); did you mean 'slow'?"
            ),
        ),
    ],
)
def test_a_fault_named_by_a_check_or_a_person_is_declared(tail: str, error: str) -> None:
    assert _error(HEAD + GOOD + tail) == error


def test_a_declared_fault_may_be_named_everywhere() -> None:
    tail = (
        "checks:\n"
        "  - {id: fixed, state: {fault_resolved: {fault: slow}}}\n"
        '  - {id: first, before: [{fault_resolved: slow}, {called: "*"}]}\n'
        "people:\n"
        "  - {ref: maya, slack_user: $maya, on: {fault_resolved: slow, say: Back to normal., in: $incidents}}\n"
    )
    assert [c.id for c in build_image(*read_scene_text(HEAD + GOOD + tail, "scene.yaml")).checks] == ["fixed", "first"]
