"""Junk input to every issue, pull, CI and search operation: always GitHub's 4xx, never a 500, and a
failed call leaves no record behind."""

from __future__ import annotations

import re
from typing import Any

import pytest

from soundstage.services.github import (
    handlers_ci,
    handlers_events,
    handlers_issues,
    handlers_milestones,
    handlers_pulls,
    handlers_reactions,
    handlers_reviewers,
    handlers_search,
)
from soundstage.services.github.calls import ops

from .conftest import GitHubWorld

MODULES = {
    module.__name__
    for module in (
        handlers_issues,
        handlers_pulls,
        handlers_ci,
        handlers_search,
        handlers_events,
        handlers_reactions,
        handlers_reviewers,
        handlers_milestones,
    )
}
OPERATIONS = sorted(name for name, handler in ops.handlers.items() if handler.__module__ in MODULES)
VALUES = {
    "owner": "acme",
    "repo": "orders",
    "issue_number": "4",
    "pull_number": "4",
    "comment_id": "1",
    "name": "bug",
    "run_id": "1",
    "ref": "main",
    "sha": "0" * 40,
    "deployment_id": "1",
    "review_id": "1",
    "release_id": "1",
    "tag": "v1.4.0",
    "event_id": "1",
    "reaction_id": "1",
    "milestone_number": "1",
    "job_id": "1",
    "attempt_number": "1",
    "workflow_id": "1",
}
BODIES: list[Any] = [
    {"title": 5, "body": ["x"], "labels": [{"x": 1}], "assignees": "maya", "state": 3, "event": 1},
    {"head": 1, "base": None, "merge_method": 7, "sha": 1, "ref": {}, "environment": 3, "comments": [1]},
    {"labels": None, "assignees": [None], "state_reason": "x", "lock_reason": 5, "payload": [], "draft": "yes"},
    {"line": "x", "path": 3, "commit_id": [], "in_reply_to": "nope", "description": {}, "color": "zz"},
    {"reviewers": "maya", "team_reviewers": 1, "content": 5, "milestone": {}, "due_on": 3},
    {"reviewers": [None], "content": "smile", "milestone": -1, "due_on": "later", "title": []},
    [1, 2],
    "text",
    3,
]


def records(world: GitHubWorld) -> dict[str, Any]:
    return {name: records for name, records in world.live.world.snapshot().items() if records}


@pytest.fixture(scope="module")
def acme(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(scene="merge-right-pr"))


def test_every_operation_is_covered() -> None:
    assert len(OPERATIONS) == 83


@pytest.mark.parametrize("operation", OPERATIONS)
def test_junk_gets_a_github_error(acme: GitHubWorld, operation: str) -> None:
    method, template = operation.split(" ", 1)
    path = re.sub(r"\{(\w+)\}", lambda m: VALUES[m.group(1)], template)
    for body in BODIES:
        before = records(acme)
        response = acme.raw(method, path, json=body, params={"state": ["open", "x"], "labels": ["a", "b"], "q": ["x"]})
        assert response.status_code < 500, (operation, body, response.text)
        if response.status_code >= 400:
            assert response.json()["status"] == str(response.status_code)
            assert records(acme) == before, (operation, body)
    junk_queries = (
        {"per_page": "-3", "page": "zz"},
        {"since": "yesterday"},
        {"q": 'repo:acme/orders "unclosed', "sort": "comments"},
        {"sort": "popularity", "direction": "asc", "status": "failure"},
        {"sort": "long-running", "head": "x:y:z", "assignee": "*"},
    )
    for junk in junk_queries:
        response = acme.raw(method, path, params=junk)
        assert response.status_code < 500, (operation, junk, response.text)
