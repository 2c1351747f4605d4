"""Milestones of the acme world (`1.5.0`, which issue #1 is in), through githubkit, PyGithub and raw HTTP."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.services.github.store import ISSUES, MILESTONES

from .conftest import GitHubWorld


@pytest.fixture
def acme(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(scene="merge-right-pr"))


def test_the_seeded_milestone(acme: GitHubWorld) -> None:
    kit = acme.kit()
    (milestone,) = kit.rest.issues.list_milestones("acme", "orders").parsed_data
    assert (milestone.number, milestone.title, milestone.description) == (1, "1.5.0", "Order totals and search fixes")
    assert (milestone.state, milestone.open_issues, milestone.closed_issues) == ("open", 1, 0)
    assert milestone.creator is not None and milestone.creator.login == "priya"
    assert milestone.due_on is not None and milestone.due_on.isoformat() == "2026-03-16T14:00:00+00:00"
    assert milestone.created_at.isoformat() == "2026-01-31T14:00:00+00:00"
    assert (milestone.url, milestone.html_url) == (
        f"{acme.url}/repos/acme/orders/milestones/1",
        "https://github.com/acme/orders/milestone/1",
    )
    issue = kit.rest.issues.get("acme", "orders", 1).parsed_data
    assert issue.milestone is not None and (issue.milestone.number, issue.milestone.title) == (1, "1.5.0")
    assert acme.raw("GET", "/repos/acme/orders/issues/2").json()["milestone"] is None
    events = acme.raw("GET", "/repos/acme/orders/issues/1/events").json()
    assert [(e["event"], e.get("milestone")) for e in events][-1] == ("milestoned", {"title": "1.5.0"})
    py = acme.py().get_repo("acme/orders")
    assert [(m.number, m.title, m.open_issues) for m in py.get_milestones()] == [(1, "1.5.0", 1)]
    assert py.get_milestone(1).title == "1.5.0"


def test_create_assign_filter_and_count(acme: GitHubWorld) -> None:
    kit = acme.kit()
    made = kit.rest.issues.create_milestone(
        "acme", "orders", data={"title": "1.6.0", "description": "Search", "due_on": "2026-04-01T00:00:00Z"}
    )
    assert made.status_code == 201
    assert (made.parsed_data.number, made.parsed_data.open_issues) == (2, 0)
    kit.rest.issues.update("acme", "orders", 2, data={"milestone": 2})
    acme.raw("PATCH", "/repos/acme/orders/issues/3", json={"milestone": "2"})  # digits are a number too
    acme.raw("PATCH", "/repos/acme/orders/issues/3", json={"state": "closed"})
    py = acme.py().get_repo("acme/orders")
    created = py.create_issue("Search by email", milestone=py.get_milestone(2))
    assert created.milestone.title == "1.6.0"
    second = acme.raw("GET", "/repos/acme/orders/milestones/2").json()
    assert (second["open_issues"], second["closed_issues"]) == (2, 1)

    def listed(**params: Any) -> list[int]:
        return [
            i["number"] for i in acme.raw("GET", "/repos/acme/orders/issues", params={"state": "all", **params}).json()
        ]

    assert listed(milestone="2") == [created.number, 3, 2]
    assert listed(milestone="1") == [1]
    assert listed(milestone="*") == [created.number, 3, 2, 1]
    assert listed(milestone="none") == [5, 4]
    # Leaving a milestone: null.
    acme.raw("PATCH", "/repos/acme/orders/issues/2", json={"milestone": None})
    events = acme.raw("GET", "/repos/acme/orders/issues/2/events").json()
    assert [(e["event"], e["milestone"]["title"]) for e in events if "milestone" in e] == [
        ("milestoned", "1.6.0"),
        ("demilestoned", "1.6.0"),
    ]
    # Lists: open by default, soonest due first; `completeness` sorts by the share closed.
    kit.rest.issues.create_milestone("acme", "orders", data={"title": "Someday"})
    kit.rest.issues.create_milestone("acme", "orders", data={"title": "Old", "state": "closed"})
    titles = [m.title for m in kit.rest.issues.list_milestones("acme", "orders").parsed_data]
    assert titles == ["1.5.0", "1.6.0", "Someday"]
    every = [
        m["title"]
        for m in acme.raw(
            "GET", "/repos/acme/orders/milestones", params={"state": "all", "sort": "completeness", "direction": "desc"}
        ).json()
    ]
    assert every == ["1.6.0", "Old", "Someday", "1.5.0"]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            {"title": "1.5.0"},
            {
                "message": "Validation Failed",
                "errors": [{"resource": "Milestone", "code": "already_exists", "field": "title"}],
            },
        ),
        ({}, {"message": 'Invalid request.\n\n"title" wasn\'t supplied.'}),
        (
            {"title": "x", "state": "done"},
            {
                "message": "Validation Failed",
                "errors": [{"resource": "Milestone", "code": "invalid", "field": "state"}],
            },
        ),
        (
            {"title": "x", "due_on": "soon"},
            {
                "message": "Validation Failed",
                "errors": [{"resource": "Milestone", "code": "invalid", "field": "due_on"}],
            },
        ),
    ],
)
def test_refused_milestones_change_nothing(acme: GitHubWorld, body: dict[str, Any], expected: dict[str, Any]) -> None:
    before = acme.state(MILESTONES)
    r = acme.raw("POST", "/repos/acme/orders/milestones", json=body)
    assert (r.status_code, r.json()) == (
        422,
        {**expected, "documentation_url": "https://docs.github.com/rest", "status": "422"},
    )
    assert acme.state(MILESTONES) == before


@pytest.mark.parametrize("value", [99, "abc", True, 1.5])
def test_an_unknown_milestone_is_refused(acme: GitHubWorld, value: Any) -> None:
    before = acme.state(ISSUES)
    for method, path in (("PATCH", "/repos/acme/orders/issues/2"), ("POST", "/repos/acme/orders/issues")):
        r = acme.raw(method, path, json={"title": "x", "milestone": value})
        assert (r.status_code, r.json()["errors"]) == (
            422,
            [{"value": value, "resource": "Issue", "field": "milestone", "code": "invalid"}],
        )
    assert acme.state(ISSUES) == before
    missing = acme.raw("GET", "/repos/acme/orders/milestones/9")
    assert (missing.status_code, missing.json()["documentation_url"]) == (
        404,
        "https://docs.github.com/rest/issues/milestones#get-a-milestone",
    )


def test_world_file_errors(stage: Any) -> None:
    from tests.services.github.conftest import SCENE

    twice = SCENE.replace("        labels:\n", "        milestones: [{title: v1}, {title: v1}]\n        labels:\n", 1)
    with pytest.raises(Exception, match="milestone 'v1' is defined twice in acme/orders"):
        stage.world(twice)
    unknown = SCENE.replace("        labels:\n", "        issues: [{title: x, milestone: v9}]\n        labels:\n", 1)
    with pytest.raises(Exception, match="acme/orders has no milestone 'v9'"):
        stage.world(unknown)


def test_issue_types_of_an_organization(acme: GitHubWorld) -> None:
    kit = acme.kit()
    issue = kit.rest.issues.get("acme", "orders", 1).parsed_data
    assert issue.type is not None
    assert (issue.type.name, issue.type.description, issue.type.color, issue.type.is_enabled) == (
        "Bug",
        "An unexpected problem or behavior",
        "red",
        True,
    )
    raw = acme.raw("GET", "/repos/acme/orders/issues/1").json()["type"]
    # The organization's three types are made together: Task, Bug, Feature.
    assert (raw["id"], raw["created_at"]) == (1386002, "2025-01-26T14:00:00Z")
    assert acme.raw("GET", "/repos/acme/orders/issues/2").json()["type"] is None
    assert acme.raw("GET", "/repos/acme/orders/issues/4").json()["type"] is None  # a pull has none


def test_a_user_repo_has_no_issue_types(stage: Any) -> None:
    from tests.services.github.conftest import SCENE

    typed = SCENE.replace("files: {notes.txt:", "issues: [{title: x, type: Bug}], files: {notes.txt:", 1)
    with pytest.raises(Exception, match="maya/notes is not an organization's repo: its issues have no types"):
        stage.world(typed)


def test_graphql_shows_the_milestone(acme: GitHubWorld) -> None:
    query = (
        '{repository(owner: "acme", name: "orders") {issue(number: 1) {milestone {number title description dueOn}}}}'
    )
    r = acme.raw("POST", "/graphql", json={"query": query})
    assert r.json() == {
        "data": {
            "repository": {
                "issue": {
                    "milestone": {
                        "number": 1,
                        "title": "1.5.0",
                        "description": "Order totals and search fixes",
                        "dueOn": "2026-03-16T14:00:00Z",
                    }
                }
            }
        }
    }
