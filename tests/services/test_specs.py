"""The cut API descriptions in tests/specs keep up with the operations soundstage implements: when these
fail, run scripts/cut_specs.py again (tests/specs/SOURCES.md says with what)."""

from __future__ import annotations

import pytest

from soundstage.services import SERVICES
from tests.schema import load

CUTS = {"slack": "slack_web_openapi_v2.json", "pagerduty": "pagerduty_rest_openapiv3.json"}


@pytest.mark.parametrize("service", sorted(CUTS))
def test_each_cut_was_made_from_the_registry_as_it_is(service: str) -> None:
    cut = load(CUTS[service])
    assert sorted(cut["x-soundstage-operations"]) == sorted(SERVICES[service].operations())
    for operation, found in cut["x-soundstage-operations"].items():
        for path, method in found:
            assert method in cut["paths"][path], operation


def test_only_bookmarks_are_missing_from_the_descriptions() -> None:
    # Slack's description is frozen since 2021, before bookmarks.*.
    missing = [op for name in CUTS.values() for op, found in load(name)["x-soundstage-operations"].items() if not found]
    assert missing == ["bookmarks.list"]
