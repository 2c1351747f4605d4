"""Soundstage's answers against real recorded responses, operation by operation (tests/services/recorded_coverage.py
says how), in the world of each service's tests and in the shipped world: each service keeps at least 95% of
the real key paths and its floor in each, has no more format mismatches than its ceiling, lacks none of its
required key paths, and its generated coverage page is up to date. The floors and ceilings are a ratchet: they
are the figures measured when they were last set, in the data file (tests/services/recorded/<service>.json);
raise them as soundstage gets closer to the real thing."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from tests.services.keypaths import compare, key_paths
from tests.services.recorded_coverage import (
    DOCS,
    REGENERATE,
    SERVICES,
    SHIPPED,
    WORLDS,
    Answers,
    Measure,
    measure,
    recorded,
    render,
)

from soundstage.services import SERVICES as REGISTRY

MINIMUM = 0.95  # of the real key paths, in every measure of every service with recorded responses
MEASURES = [(service, world) for service in SERVICES for world in WORLDS]


@cache
def _measured(stage: Any, service: str, world: str) -> Measure:
    if service in SHIPPED and world == "neutral":  # the same calls in the same world
        return Measure(**{**vars(_measured(stage, service, "tailored")), "world": world})
    return measure(stage, service, world)


def test_keypaths_and_formats() -> None:
    answer = {
        "ok": True,
        "channel": {"topic": {"value": "", "last_set": 1772460000}, "created": "2026-03-02T14:00:00Z"},
        "items": [{"id": "b7d2f6a0-0c1e-4e43-9a7e-2f1d6c5e8a90"}, {"id": None, "ts": "1772460000.000100"}],
        "tags": {"env:prod": 1},
    }
    assert key_paths(answer) == {
        "channel": ["object"],
        "channel.created": ["string:iso8601-Z"],
        "channel.topic": ["object"],
        "channel.topic.last_set": ["integer"],
        "channel.topic.value": ["string:empty"],
        "items": ["array"],
        "items[]": ["object"],
        "items[].id": ["null", "string:uuid"],
        "items[].ts": ["string:slack-ts"],
        "ok": ["boolean"],
        "tags": ["object"],
        "tags.{}": ["integer"],
    }
    real = {
        "ok": ["boolean"],
        "channel.created": ["integer"],
        "items[].id": ["string:uuid"],
        "team.id": ["string:text"],
    }
    result = compare(real, answer, ["team"])
    assert (result.real, result.covered) == (
        ["ok", "channel.created", "items[].id"],
        ["ok", "channel.created", "items[].id"],
    )
    assert result.mismatches == ["channel.created: real ['integer'], soundstage ['string:iso8601-Z']"]
    assert result.share == 1.0
    assert compare(real, {"ok": 1.5}, []).missing == ["channel.created", "items[].id", "team.id"]
    # Missing under a null or an empty list: the answer had nothing to show there.
    unfilled = compare(real, {"ok": True, "channel": None, "items": [], "team": {}}, [])
    assert (unfilled.missing, unfilled.unfilled) == (
        ["channel.created", "items[].id", "team.id"],
        ["channel.created", "items[].id"],
    )


@pytest.mark.parametrize("service", SERVICES)
def test_the_facts_are_of_operations_soundstage_implements(service: str) -> None:
    data = recorded(service)
    assert data["service"] == service
    assert set(data["operations"]) <= set(REGISTRY[service].operations())


@pytest.mark.parametrize(("service", "world"), MEASURES)
def test_every_call_succeeds_and_answers_every_recorded_operation(stage: Any, service: str, world: str) -> None:
    measured = _measured(stage, service, world)
    assert (measured.failures, measured.unanswered) == ([], [])


@pytest.mark.parametrize(("service", "world"), MEASURES)
def test_coverage_holds_its_floor(stage: Any, service: str, world: str) -> None:
    measured = _measured(stage, service, world)
    assert measured.average >= max(MINIMUM, measured.floor), f"{service}, {world}: {measured.average:.2%}"
    assert measured.mismatches <= measured.max_mismatches
    missing_required = [
        f"{operation}: {path}"
        for operation, comparison in measured.comparisons.items()
        for path in measured.data["required"]
        if path in comparison.real and path not in comparison.covered
    ]
    assert missing_required == []


@pytest.mark.parametrize("service", SERVICES)
def test_the_coverage_page_is_up_to_date(stage: Any, service: str) -> None:
    page = DOCS / f"{service}-coverage.md"
    measures = [_measured(stage, service, world) for world in WORLDS]
    assert page.read_text() == render(measures), f"run {REGENERATE}"


def test_an_operation_is_measured_on_one_call_not_the_richest() -> None:
    answers = Answers({}, [])
    answers.keep("users.info", 200, '{"ok": true, "user": {"id": "U1"}}', measured=False)
    answers.keep("users.info", 200, '{"ok": true, "user": {"id": "U1", "name": "maya", "tz": "Etc/UTC"}}', False)
    answers.keep("users.info", 200, '{"ok": true, "user": {"id": "U2"}}')
    assert (answers.bodies, answers.failures) == ({"users.info": {"ok": True, "user": {"id": "U2"}}}, [])
    answers.keep("users.info", 200, '{"ok": true}')
    assert answers.failures == ["users.info: measured twice"]
