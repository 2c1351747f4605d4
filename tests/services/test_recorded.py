"""Soundstage's answers against real recorded responses, operation by operation (tests/services/recorded_coverage.py
says how): each service keeps at least its floor of the real key paths, has no more format mismatches than
its ceiling, lacks none of its required key paths, and its generated coverage page is up to date. The floor
and ceiling are a ratchet: they are the figures measured when they were last set, in the data file
(tests/services/recorded/<service>.json); raise them as soundstage gets closer to the real thing."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from tests.services.keypaths import compare, key_paths
from tests.services.recorded_coverage import DOCS, REGENERATE, SERVICES, Measure, measure, recorded, render

from soundstage.services import SERVICES as REGISTRY


@cache
def _measured(stage: Any, service: str) -> Measure:
    return measure(stage, service)


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


@pytest.mark.parametrize("service", SERVICES)
def test_every_call_succeeds_and_answers_every_recorded_operation(stage: Any, service: str) -> None:
    measured = _measured(stage, service)
    assert (measured.failures, measured.unanswered) == ([], [])


@pytest.mark.parametrize("service", SERVICES)
def test_coverage_holds_its_floor(stage: Any, service: str) -> None:
    measured = _measured(stage, service)
    assert measured.average >= measured.data["floor"], f"{service}: {measured.average:.2%} < floor"
    assert measured.mismatches <= measured.data["max_mismatches"]
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
    assert page.read_text() == render(_measured(stage, service)), f"run {REGENERATE}"
