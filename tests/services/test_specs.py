"""The cut API descriptions in tests/specs keep up with the operations soundstage implements: when these
fail, run scripts/cut_specs.py again (tests/specs/SOURCES.md says with what)."""

from __future__ import annotations

import pytest
from tests.schema import CUTS, load

from soundstage.services import SERVICES


def test_every_service_has_its_cuts() -> None:
    assert sorted(CUTS) == sorted(SERVICES)


@pytest.mark.parametrize("service", sorted(CUTS))
def test_each_cut_was_made_from_the_registry_as_it_is(service: str) -> None:
    listed = []
    for name in CUTS[service]:
        cut = load(name)
        listed += cut["x-soundstage-operations"]
        for operation, found in cut["x-soundstage-operations"].items():
            for path, method in found:
                assert method in cut["paths"][path], operation
    assert sorted(listed) == sorted(SERVICES[service].operations())


def test_only_these_operations_are_missing_from_the_descriptions() -> None:
    missing = [
        operation
        for names in CUTS.values()
        for name in names
        for operation, found in load(name)["x-soundstage-operations"].items()
        if not found
    ]
    assert missing == [
        "bookmarks.list",  # Slack's description is frozen since 2021, before bookmarks.*
        "files.completeUploadExternal",  # Slack's newer upload flow, after the description froze
        "files.getUploadURLExternal",
        "search.all",  # Slack serves it; its description never had it
        # Where a job's log redirect leads: on GitHub a signed link to its log storage, not the API
        "GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs/download",
        "GET /repos/{owner}/{repo}/git/refs",  # GitHub serves it, but describes only matching-refs
        "POST /graphql",  # GitHub's GraphQL API, described by its schema, not the REST description
        # Datadog's legacy monitor mute, which soundstage maps onto downtimes (the API describes neither)
        "POST /api/v1/monitor/{monitor_id}/mute",
        "POST /api/v1/monitor/{monitor_id}/unmute",
        "POST /v2/enqueue",  # PagerDuty's Events API v2, described apart from the REST API
    ]
