"""Reactions to issues, issue comments and review comments on the acme world (issue #1, pull #4),
through githubkit, PyGithub and raw HTTP."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from soundstage.services.github.store import REACTIONS

from .conftest import GitHubWorld

MEMBERS = '["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"]'


@pytest.fixture
def acme(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(scene="merge-right-pr"))


def rollup(body: dict[str, Any]) -> dict[str, int]:
    return {k: v for k, v in body["reactions"].items() if k != "url" and v}


def test_issue_reactions(acme: GitHubWorld) -> None:
    kit = acme.kit()
    made = kit.rest.reactions.create_for_issue("acme", "orders", 1, data={"content": "heart"})
    assert made.status_code == 201
    reaction = made.parsed_data
    assert (reaction.content, reaction.user.login if reaction.user else None) == ("heart", "stagebot")
    assert base64.b64decode(reaction.node_id).decode() == f"08:Reaction{reaction.id}"
    assert reaction.created_at.isoformat().startswith("2026-03-02T14:")
    again = acme.raw("POST", "/repos/acme/orders/issues/1/reactions", json={"content": "heart"})
    assert (again.status_code, again.json()["id"]) == (200, reaction.id)  # the same reaction, not a new one
    acme.raw("POST", "/repos/acme/orders/issues/1/reactions", json={"content": "+1"})
    issue = acme.raw("GET", "/repos/acme/orders/issues/1").json()
    assert rollup(issue) == {"total_count": 2, "heart": 1, "+1": 1}
    assert issue["reactions"]["url"] == f"{acme.url}/repos/acme/orders/issues/1/reactions"
    listed = kit.rest.reactions.list_for_issue("acme", "orders", 1).parsed_data
    assert [r.content for r in listed] == ["heart", "+1"]
    only = acme.raw("GET", "/repos/acme/orders/issues/1/reactions", params={"content": "+1"}).json()
    assert [r["content"] for r in only] == ["+1"]
    py = acme.py().get_repo("acme/orders").get_issue(1)
    assert [(r.content, r.user.login) for r in py.get_reactions()] == [("heart", "stagebot"), ("+1", "stagebot")]
    made_py = py.create_reaction("rocket")
    assert py.delete_reaction(made_py.id) is True
    kit.rest.reactions.delete_for_issue("acme", "orders", 1, reaction.id)
    assert rollup(acme.raw("GET", "/repos/acme/orders/issues/1").json()) == {"total_count": 1, "+1": 1}


def test_comment_and_review_comment_reactions(acme: GitHubWorld) -> None:
    comment = acme.raw("POST", "/repos/acme/orders/issues/1/comments", json={"body": "Seen"}).json()
    path = f"/repos/acme/orders/issues/comments/{comment['id']}/reactions"
    kit = acme.kit()
    made = kit.rest.reactions.create_for_issue_comment("acme", "orders", comment["id"], data={"content": "eyes"})
    assert made.status_code == 201
    assert rollup(acme.raw("GET", f"/repos/acme/orders/issues/comments/{comment['id']}").json()) == {
        "total_count": 1,
        "eyes": 1,
    }
    assert [
        r.content for r in kit.rest.reactions.list_for_issue_comment("acme", "orders", comment["id"]).parsed_data
    ] == ["eyes"]
    # Reactions are on what they name: the issue itself has none.
    assert acme.raw("GET", "/repos/acme/orders/issues/1/reactions").json() == []
    wrong = acme.raw("DELETE", f"/repos/acme/orders/issues/1/reactions/{made.parsed_data.id}")
    assert wrong.status_code == 404
    assert acme.raw("DELETE", f"{path}/{made.parsed_data.id}").status_code == 204
    assert acme.raw("GET", path).json() == []
    # A review comment on pull #4.
    head = acme.raw("GET", "/repos/acme/orders/pulls/4").json()["head"]["sha"]
    files = acme.raw("GET", "/repos/acme/orders/pulls/4/files").json()
    review_comment = acme.raw(
        "POST",
        "/repos/acme/orders/pulls/4/comments",
        json={"body": "Why?", "commit_id": head, "path": files[0]["filename"], "subject_type": "file"},
    ).json()
    py_comment = acme.py().get_repo("acme/orders").get_pull(4).get_review_comment(review_comment["id"])
    py_comment.create_reaction("hooray")
    rc_path = f"/repos/acme/orders/pulls/comments/{review_comment['id']}/reactions"
    assert [r["content"] for r in acme.raw("GET", rc_path).json()] == ["hooray"]
    assert rollup(acme.raw("GET", f"/repos/acme/orders/pulls/comments/{review_comment['id']}").json()) == {
        "total_count": 1,
        "hooray": 1,
    }
    listed = kit.rest.reactions.list_for_pull_request_review_comment("acme", "orders", review_comment["id"]).parsed_data
    kit.rest.reactions.delete_for_pull_request_comment("acme", "orders", review_comment["id"], listed[0].id)
    assert acme.raw("GET", rc_path).json() == []


def test_deleting_a_comment_deletes_its_reactions(acme: GitHubWorld) -> None:
    comment = acme.raw("POST", "/repos/acme/orders/issues/1/comments", json={"body": "Seen"}).json()
    acme.raw("POST", f"/repos/acme/orders/issues/comments/{comment['id']}/reactions", json={"content": "laugh"})
    assert len(acme.state(REACTIONS)) == 1
    acme.raw("DELETE", f"/repos/acme/orders/issues/comments/{comment['id']}")
    assert acme.state(REACTIONS) == {}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"content": "smile"}, f'Invalid request.\n\n"smile" is not a member of {MEMBERS}.'),
        ({}, 'Invalid request.\n\n"content" wasn\'t supplied.'),
        ({"content": 1}, "Invalid request.\n\nFor 'content', 1 is not a string."),
    ],
)
def test_refused_reactions_change_nothing(acme: GitHubWorld, body: dict[str, Any], message: str) -> None:
    r = acme.raw("POST", "/repos/acme/orders/issues/1/reactions", json=body)
    assert (r.status_code, r.json()) == (
        422,
        {"message": message, "documentation_url": "https://docs.github.com/rest", "status": "422"},
    )
    assert acme.state(REACTIONS) == {}


def test_missing_subjects_and_filters(acme: GitHubWorld) -> None:
    for path in (
        "/repos/acme/orders/issues/99/reactions",
        "/repos/acme/orders/issues/comments/1/reactions",
        "/repos/acme/orders/pulls/comments/1/reactions",
        "/repos/acme/orders/issues/1/reactions/1",
    ):
        method = "DELETE" if path.endswith("/1") and "reactions/" in path else "GET"
        assert acme.raw(method, path).status_code == 404, path
    bad = acme.raw("GET", "/repos/acme/orders/issues/1/reactions", params={"content": "smile"})
    assert (bad.status_code, bad.json()["errors"]) == (
        422,
        [{"resource": "Reaction", "field": "content", "code": "invalid"}],
    )
