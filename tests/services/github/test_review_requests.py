"""Review requests on pull requests of the acme world (pull #4 `fix-totals-cache` by maya), through
githubkit, PyGithub and raw HTTP."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.services.github.store import PULLS

from .conftest import GitHubWorld

DOCS = "https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request"
PATH = "/repos/acme/orders/pulls/4/requested_reviewers"


@pytest.fixture
def acme(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(scene="merge-right-pr"))


def logins(users: Any) -> list[str]:
    return [u["login"] for u in users]


def test_request_list_and_remove(acme: GitHubWorld) -> None:
    kit = acme.kit()
    pull = kit.rest.pulls.request_reviewers("acme", "orders", 4, data={"reviewers": ["omar", "priya"]}).parsed_data
    assert ([u.login for u in pull.requested_reviewers or []], pull.requested_teams) == (["omar", "priya"], [])
    asked = kit.rest.pulls.list_requested_reviewers("acme", "orders", 4).parsed_data
    assert ([u.login for u in asked.users], asked.teams) == (["omar", "priya"], [])
    # Asking again adds nobody twice; the full pull shows the requests too.
    again = acme.raw("POST", PATH, json={"reviewers": ["priya", "alex"]})
    assert (again.status_code, logins(again.json()["requested_reviewers"])) == (201, ["omar", "priya", "alex"])
    full = acme.raw("GET", "/repos/acme/orders/pulls/4").json()
    assert logins(full["requested_reviewers"]) == ["omar", "priya", "alex"]
    removed = kit.rest.pulls.remove_requested_reviewers("acme", "orders", 4, data={"reviewers": ["priya", "nobody"]})
    assert [u.login for u in removed.parsed_data.requested_reviewers or []] == ["omar", "alex"]
    py = acme.py().get_repo("acme/orders").get_pull(4)
    users, teams = py.get_review_requests()
    assert ([u.login for u in users], list(teams)) == (["omar", "alex"], [])
    py.delete_review_request(reviewers=["alex"])
    py.create_review_request(reviewers=["priya"])
    listed = acme.raw("GET", PATH).json()
    assert (logins(listed["users"]), listed["teams"]) == (["omar", "priya"], [])
    events = acme.raw("GET", "/repos/acme/orders/issues/4/events").json()
    assert [(e["event"], e["requested_reviewer"]["login"], e["review_requester"]["login"]) for e in events] == [
        ("review_requested", "omar", "stagebot"),
        ("review_requested", "priya", "stagebot"),
        ("review_requested", "alex", "stagebot"),
        ("review_request_removed", "priya", "stagebot"),
        ("review_request_removed", "alex", "stagebot"),
        ("review_requested", "priya", "stagebot"),
    ]


def test_a_review_by_a_requested_reviewer_fulfils_the_request(acme: GitHubWorld) -> None:
    acme.raw("POST", PATH, json={"reviewers": ["stagebot", "omar"]})
    pending = acme.raw("POST", "/repos/acme/orders/pulls/4/reviews", json={"body": "Draft"})
    assert pending.status_code == 200 and pending.json()["state"] == "PENDING"
    assert logins(acme.raw("GET", PATH).json()["users"]) == ["stagebot", "omar"]  # a pending review is no review yet
    acme.raw("DELETE", f"/repos/acme/orders/pulls/4/reviews/{pending.json()['id']}")
    done = acme.raw("POST", "/repos/acme/orders/pulls/4/reviews", json={"event": "APPROVE"})
    assert done.status_code == 200
    assert logins(acme.raw("GET", PATH).json()["users"]) == ["omar"]
    assert [e["event"] for e in acme.raw("GET", "/repos/acme/orders/issues/4/events").json()] == [
        "review_requested"
    ] * 2


@pytest.mark.parametrize(
    ("body", "message", "docs"),
    [
        ({"reviewers": ["maya"]}, "Review cannot be requested from pull request author.", DOCS),
        (
            {"reviewers": ["omar", "nobody"]},
            (
                "Reviews may only be requested from collaborators. "
                "One or more of the users or teams you specified is not a collaborator of the acme/orders repository."
            ),
            DOCS,
        ),
        (
            {"reviewers": ["acme"]},  # an organization
            (
                "Reviews may only be requested from collaborators. "
                "One or more of the users or teams you specified is not a collaborator of the acme/orders repository."
            ),
            DOCS,
        ),
        (
            {"team_reviewers": ["backend"]},
            (
                "Reviews may only be requested from collaborators. "
                "One or more of the users or teams you specified is not a collaborator of the acme/orders repository."
            ),
            DOCS,
        ),
        ({}, 'Invalid request.\n\nNo subschema in "anyOf" matched.', "https://docs.github.com/rest"),
        (
            {"reviewers": "omar"},
            "Invalid request.\n\nFor 'reviewers', \"omar\" is not an array.",
            "https://docs.github.com/rest",
        ),
    ],
)
def test_refused_requests_change_nothing(acme: GitHubWorld, body: dict[str, Any], message: str, docs: str) -> None:
    before = acme.state(PULLS)
    r = acme.raw("POST", PATH, json=body)
    assert (r.status_code, r.json()) == (422, {"message": message, "documentation_url": docs, "status": "422"})
    assert acme.state(PULLS) == before


def test_removing_needs_reviewers_and_a_pull(acme: GitHubWorld) -> None:
    r = acme.raw("DELETE", PATH, json={"team_reviewers": []})
    assert (r.status_code, r.json()["message"]) == (422, 'Invalid request.\n\n"reviewers" wasn\'t supplied.')
    for method in ("GET", "POST", "DELETE"):
        r = acme.raw(method, "/repos/acme/orders/pulls/1/requested_reviewers", json={"reviewers": ["omar"]})
        assert (r.status_code, r.json()["message"]) == (404, "Not Found")  # #1 is an issue
