"""Issues, labels, assignees, locks and comments on the acme world (issues #1-#3, pulls #4-#5), through
githubkit, PyGithub and raw HTTP."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from github import GithubException

from soundstage.services.github.store import ISSUES, LABELS, PULLS

from .conftest import GitHubWorld


def at(hour: int, minute: int = 0, second: int = 0) -> datetime:
    return datetime(2026, 3, 2, hour, minute, second, tzinfo=UTC)


@pytest.fixture
def acme(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(scene="merge-right-pr"))


def records(world: GitHubWorld) -> dict[str, Any]:
    """Every record of the live world, by collection (collections that were only looked into are empty)."""
    return {name: records for name, records in world.live.world.snapshot().items() if records}


def numbers(items: Any) -> list[int]:
    return [item.number for item in items]


def test_list_filters_and_sorts(acme: GitHubWorld) -> None:
    kit = acme.kit()

    def listed(**params: Any) -> list[int]:
        return numbers(kit.rest.issues.list_for_repo("acme", "orders", **params).parsed_data)

    assert listed() == [5, 4, 3, 2, 1]  # pull requests are issues too, newest first
    assert listed(labels="bug") == [2, 1]
    assert listed(labels="BUG,p1") == [1]
    assert listed(assignee="maya") == [1]
    assert listed(assignee="none") == [5, 4, 3, 2]
    assert listed(assignee="*") == [1]
    assert listed(creator="priya") == [3, 2]
    assert listed(sort="created", direction="asc") == [1, 2, 3, 4, 5]
    assert listed(state="closed") == []
    assert listed(since="2026-03-02T07:00:00Z") == [5, 4, 3]


def test_issue_fields(acme: GitHubWorld) -> None:
    kit = acme.kit()
    issue = kit.rest.issues.get("acme", "orders", 1).parsed_data
    assert issue.number == 1
    assert issue.title == "Wrong order totals for customers with several orders"
    assert issue.url == f"{acme.url}/repos/acme/orders/issues/1"
    assert issue.html_url == "https://github.com/acme/orders/issues/1"
    assert issue.repository_url == f"{acme.url}/repos/acme/orders"
    assert [(label.name, label.color) for label in issue.labels] == [("bug", "d73a4a"), ("p1", "b60205")]
    assert issue.user.login == "alex"
    assert [a.login for a in issue.assignees] == ["maya"]
    assert issue.state == "open"
    assert issue.comments == 0
    assert issue.created_at == at(4)
    assert issue.closed_at is None
    assert issue.node_id == "MDU6SXNzdWUzMTAwMDAwMDAx"
    assert issue.id == 3100000001


def test_pull_through_the_issues_api(acme: GitHubWorld) -> None:
    kit = acme.kit()
    issue = kit.rest.issues.get("acme", "orders", 4).parsed_data
    assert issue.pull_request.url == f"{acme.url}/repos/acme/orders/pulls/4"
    assert issue.html_url == "https://github.com/acme/orders/pull/4"
    assert issue.pull_request.merged_at is None


def test_create_issue_with_pygithub(acme: GitHubWorld) -> None:
    repo = acme.py().get_repo("acme/orders")
    issue = repo.create_issue(
        title="Totals wrong again", body="Seen on O-1", labels=["bug", "customer"], assignees=["maya", "omar"]
    )
    assert issue.number == 6
    assert issue.title == "Totals wrong again"
    assert [label.name for label in issue.labels] == ["bug", "customer"]
    assert [a.login for a in issue.assignees] == ["maya", "omar"]
    assert issue.user.login == "stagebot"
    assert issue.created_at == at(14, 0, 5)
    record = acme.state(ISSUES)["acme/orders#6"]
    assert record["labels"] == ["bug", "customer"]
    assert record["assignees"] == ["maya", "omar"]
    assert acme.state(LABELS)["acme/orders:customer"]["color"] == "ededed"
    # issues and pulls share the number sequence
    assert repo.get_issue(6).title == "Totals wrong again"


def test_close_and_reopen(acme: GitHubWorld) -> None:
    issue = acme.py().get_repo("acme/orders").get_issue(2)
    issue.edit(state="closed", state_reason="not_planned")
    assert (issue.state, issue.state_reason, issue.closed_by.login) == ("closed", "not_planned", "stagebot")
    assert issue.closed_at == at(14, 0, 10)
    issue.edit(state="open")
    assert (issue.state, issue.state_reason, issue.closed_at) == ("open", "reopened", None)
    record = acme.state(ISSUES)["acme/orders#2"]
    assert (record["state"], record["closed_by"]) == ("open", None)


def test_update_title_labels_assignees(acme: GitHubWorld) -> None:
    kit = acme.kit()
    issue = kit.rest.issues.update(
        "acme",
        "orders",
        3,
        data={"title": "Document the cache", "labels": ["docs", "enhancement"], "assignees": ["priya"]},
    ).parsed_data
    assert issue.title == "Document the cache"
    assert [label.name for label in issue.labels] == ["docs", "enhancement"]
    assert [a.login for a in issue.assignees] == ["priya"]
    assert issue.updated_at == at(14)


def test_labels_on_an_issue(acme: GitHubWorld) -> None:
    kit = acme.kit()
    added = kit.rest.issues.add_labels("acme", "orders", 2, data={"labels": ["P1", "docs"]}).parsed_data
    assert [label.name for label in added] == ["bug", "p1", "docs"]
    set_to = kit.rest.issues.set_labels("acme", "orders", 2, data={"labels": ["enhancement"]}).parsed_data
    assert [label.name for label in set_to] == ["enhancement"]
    left = kit.rest.issues.remove_label("acme", "orders", 1, "P1").parsed_data
    assert [label.name for label in left] == ["bug"]
    kit.rest.issues.remove_all_labels("acme", "orders", 1)
    assert acme.state(ISSUES)["acme/orders#1"]["labels"] == []
    listed = kit.rest.issues.list_labels_on_issue("acme", "orders", 2).parsed_data
    assert [label.name for label in listed] == ["enhancement"]
    missing = acme.raw("DELETE", "/repos/acme/orders/issues/2/labels/nope")
    assert missing.status_code == 404
    assert missing.json()["message"] == "Label does not exist"


def test_labels_with_pygithub_which_sends_a_bare_array(acme: GitHubWorld) -> None:
    issue = acme.py().get_repo("acme/orders").get_issue(2)
    issue.add_to_labels("docs")
    assert [label.name for label in issue.get_labels()] == ["bug", "docs"]
    issue.set_labels("enhancement")
    assert acme.state(ISSUES)["acme/orders#2"]["labels"] == ["enhancement"]
    # where an object is expected, an array is GitHub's 400
    response = acme.raw("PATCH", "/repos/acme/orders/issues/2", json=["title"])
    assert (response.status_code, response.json()["message"]) == (400, "Problems parsing JSON")


def test_assignees_and_lock(acme: GitHubWorld) -> None:
    kit = acme.kit()
    issue = kit.rest.issues.add_assignees("acme", "orders", 1, data={"assignees": ["omar"]}).parsed_data
    assert [a.login for a in issue.assignees] == ["maya", "omar"]
    issue = kit.rest.issues.remove_assignees("acme", "orders", 1, data={"assignees": ["maya"]}).parsed_data
    assert [a.login for a in issue.assignees] == ["omar"]
    locked = acme.raw("PUT", "/repos/acme/orders/issues/1/lock", json={"lock_reason": "resolved"})
    assert (locked.status_code, locked.content) == (204, b"")
    issue = kit.rest.issues.get("acme", "orders", 1).parsed_data
    assert (issue.locked, issue.active_lock_reason) == (True, "resolved")
    assert acme.raw("DELETE", "/repos/acme/orders/issues/1/lock").status_code == 204
    assert acme.state(ISSUES)["acme/orders#1"]["locked"] is False


def test_comments(acme: GitHubWorld) -> None:
    issue = acme.py().get_repo("acme/orders").get_issue(1)
    comment = issue.create_comment("Looking into it")
    assert comment.body == "Looking into it"
    assert comment.user.login == "stagebot"
    assert comment.url == f"{acme.url}/repos/acme/orders/issues/comments/{comment.id}"
    assert comment.html_url == f"https://github.com/acme/orders/issues/1#issuecomment-{comment.id}"
    assert comment.created_at == at(14, 0, 10)
    second = issue.create_comment("Fixed in #4")
    assert [c.body for c in issue.get_comments()] == ["Looking into it", "Fixed in #4"]
    comment.edit("Looking into it now")
    assert comment.body == "Looking into it now"
    second.delete()
    kit = acme.kit()
    listed = kit.rest.issues.list_comments("acme", "orders", 1).parsed_data
    assert [(c.id, c.body) for c in listed] == [(comment.id, "Looking into it now")]
    assert kit.rest.issues.get("acme", "orders", 1).parsed_data.comments == 1
    assert kit.rest.issues.get_comment("acme", "orders", comment.id).parsed_data.body == "Looking into it now"
    # a comment on a pull request goes through the issues API and does not change the pull record
    before = acme.state(PULLS)["acme/orders#5"]
    kit.rest.issues.create_comment("acme", "orders", 5, data={"body": "Not merging: it turns the cache off"})
    assert acme.state(PULLS)["acme/orders#5"] == before
    assert kit.rest.pulls.get("acme", "orders", 5).parsed_data.comments == 1


def test_repository_labels(acme: GitHubWorld) -> None:
    kit = acme.kit()
    names = [label.name for label in kit.rest.issues.list_labels_for_repo("acme", "orders").parsed_data]
    assert names == ["bug", "docs", "enhancement", "p1"]
    made = kit.rest.issues.create_label("acme", "orders", data={"name": "perf", "color": "FBCA04"}).parsed_data
    assert (made.name, made.color, made.description, made.default) == ("perf", "fbca04", None, False)
    assert made.url == f"{acme.url}/repos/acme/orders/labels/perf"
    again = acme.raw("POST", "/repos/acme/orders/labels", json={"name": "Bug"})
    assert again.status_code == 422
    assert again.json() == {
        "message": "Validation Failed",
        "errors": [{"resource": "Label", "code": "already_exists", "field": "name"}],
        "documentation_url": "https://docs.github.com/rest",
        "status": "422",
    }


def test_pagination_link_header(acme: GitHubWorld) -> None:
    response = acme.raw("GET", "/repos/acme/orders/issues", params={"per_page": 2})
    base = f"{acme.url}/repos/acme/orders/issues"
    assert response.headers["Link"] == (
        f'<{base}?per_page=2&page=2>; rel="next", <{base}?per_page=2&page=3>; rel="last"'
    )
    assert [i["number"] for i in response.json()] == [5, 4]
    issues = acme.py().get_repo("acme/orders").get_issues(state="all")
    assert issues.totalCount == 5
    assert [i.number for i in acme.py().get_repo("acme/orders").get_issues(labels=["bug"])] == [2, 1]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "expected"),
    [
        ("GET", "/repos/acme/orders/issues/99", None, 404, {"message": "Not Found"}),
        ("GET", "/repos/acme/orders/issues/abc", None, 404, {"message": "Not Found"}),
        ("GET", "/repos/acme/nope/issues", None, 404, {"message": "Not Found"}),
        (
            "POST",
            "/repos/acme/orders/issues",
            {"body": "no title"},
            422,
            {
                "message": "Validation Failed",
                "errors": [{"resource": "Issue", "code": "missing_field", "field": "title"}],
            },
        ),
        (
            "POST",
            "/repos/acme/orders/issues",
            {"title": "x", "assignees": ["ghost"]},
            422,
            {
                "message": "Validation Failed",
                "errors": [{"value": "ghost", "resource": "Issue", "field": "assignees", "code": "invalid"}],
            },
        ),
        (
            "POST",
            "/repos/acme/orders/issues",
            {"title": "x", "labels": "bug"},
            422,
            {"message": "Invalid request.\n\nFor 'labels', \"bug\" is not an array."},
        ),
        (
            "PATCH",
            "/repos/acme/orders/issues/1",
            {"state": "done"},
            422,
            {"message": "Validation Failed", "errors": [{"resource": "Issue", "field": "state", "code": "invalid"}]},
        ),
        (
            "POST",
            "/repos/acme/orders/issues/1/comments",
            {},
            422,
            {
                "message": "Validation Failed",
                "errors": [{"resource": "IssueComment", "code": "missing_field", "field": "body"}],
            },
        ),
        ("PATCH", "/repos/acme/orders/issues/comments/1", {"body": "x"}, 404, {"message": "Not Found"}),
    ],
)
def test_errors_change_nothing(
    acme: GitHubWorld, method: str, path: str, body: Any, status: int, expected: dict[str, Any]
) -> None:
    before = records(acme)
    response = acme.raw(method, path, json=body)
    assert response.status_code == status
    got = response.json()
    assert {k: got[k] for k in expected} == expected
    assert got["status"] == str(status)
    assert records(acme) == before


def test_bad_filter_and_json(acme: GitHubWorld) -> None:
    bad = acme.raw("GET", "/repos/acme/orders/issues", params={"state": "everything"})
    assert bad.status_code == 422
    assert bad.json()["errors"] == [{"resource": "Issue", "field": "state", "code": "invalid"}]
    broken = acme.raw(
        "POST", "/repos/acme/orders/issues", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert (broken.status_code, broken.json()["message"]) == (400, "Problems parsing JSON")
    with pytest.raises(GithubException) as caught:
        acme.py().get_repo("acme/orders").get_issue(42)
    assert caught.value.status == 404


def test_same_calls_same_ids(stage: Any) -> None:
    def run() -> tuple[Any, ...]:
        world = GitHubWorld(stage.world(scene="merge-right-pr"))
        kit = world.kit()
        issue = kit.rest.issues.create("acme", "orders", data={"title": "t"}).parsed_data
        comment = kit.rest.issues.create_comment("acme", "orders", 6, data={"body": "b"}).parsed_data
        return issue.id, issue.node_id, issue.created_at, comment.id, comment.node_id

    assert (
        run()
        == run()
        == (3100000004, "MDU6SXNzdWUzMTAwMDAwMDA0", at(14), 3900000001, "MDEyOklzc3VlQ29tbWVudDM5MDAwMDAwMDE=")
    )


def test_sort_by_comments_and_updated(acme: GitHubWorld) -> None:
    kit = acme.kit()
    kit.rest.issues.create_comment("acme", "orders", 2, data={"body": "one"})
    kit.rest.issues.create_comment("acme", "orders", 2, data={"body": "two"})
    kit.rest.issues.create_comment("acme", "orders", 5, data={"body": "three"})
    kit.rest.issues.update("acme", "orders", 3, data={"body": "How long are totals cached?"})

    def listed(**params: Any) -> list[int]:
        return numbers(kit.rest.issues.list_for_repo("acme", "orders", **params).parsed_data)

    assert listed(sort="comments") == [2, 5, 4, 3, 1]
    assert listed(sort="updated") == [3, 5, 4, 2, 1]
    pulls = kit.rest.pulls.list("acme", "orders", sort="popularity", direction="desc").parsed_data
    assert [p.number for p in pulls] == [5, 4]


def test_the_repository_counts_open_issues_and_pulls(acme: GitHubWorld) -> None:
    kit = acme.kit()
    before = kit.rest.repos.get("acme", "orders").parsed_data.open_issues_count
    open_items = [
        n
        for n, r in {**acme.state(ISSUES), **acme.state(PULLS)}.items()
        if r["repository"] == "acme/orders" and r["state"] == "open"
    ]
    assert before == len(open_items) > 0
    kit.rest.issues.update("acme", "orders", 1, data={"state": "closed"})
    assert acme.py().get_repo("acme/orders").open_issues_count == before - 1


def test_nested_repositories_count_open_items_too(acme: GitHubWorld) -> None:
    kit = acme.kit()
    expected = kit.rest.repos.get("acme", "orders").parsed_data.open_issues_count
    pull = kit.rest.pulls.get("acme", "orders", 4).parsed_data
    assert pull.base.repo.open_issues_count == expected


ISSUE_BODY_TOO_LONG = {
    "resource": "Issue",
    "code": "custom",
    "field": "body",
    "message": "body is too long (maximum is 65536 characters)",
}
COMMENT_TOO_LONG = {
    "resource": "IssueComment",
    "code": "unprocessable",
    "field": "data",
    "message": "Body is too long (maximum is 65536 characters)",
}


@pytest.mark.parametrize(
    ("method", "path", "body", "error"),
    [
        ("POST", "/repos/acme/orders/issues", {"title": "t", "body": "é" * 65_537}, ISSUE_BODY_TOO_LONG),
        ("PATCH", "/repos/acme/orders/issues/1", {"body": "x" * 65_537}, ISSUE_BODY_TOO_LONG),
        ("PATCH", "/repos/acme/orders/pulls/4", {"body": "x" * 65_537}, ISSUE_BODY_TOO_LONG),
        (
            "POST",
            "/repos/acme/orders/pulls",
            {"title": "t", "head": "h", "base": "main", "body": "x" * 65_537},
            ISSUE_BODY_TOO_LONG,
        ),
        ("POST", "/repos/acme/orders/issues/1/comments", {"body": "x" * 65_537}, COMMENT_TOO_LONG),
    ],
)
def test_a_body_over_65536_characters_is_refused(
    acme: GitHubWorld, method: str, path: str, body: dict[str, Any], error: dict[str, Any]
) -> None:
    before = records(acme)
    response = acme.raw(method, path, json=body)
    assert response.status_code == 422
    assert response.json()["errors"] == [error]
    assert response.json()["message"] == "Validation Failed"
    assert records(acme) == before


def test_a_body_of_65536_characters_is_kept(acme: GitHubWorld) -> None:
    kit = acme.kit()
    # 65,536 characters, not bytes: each é is two bytes of UTF-8.
    issue = kit.rest.issues.create("acme", "orders", data={"title": "t", "body": "é" * 65_536}).parsed_data
    assert len(issue.body) == 65_536
    comment = kit.rest.issues.create_comment("acme", "orders", issue.number, data={"body": "x" * 65_536})
    assert len(comment.parsed_data.body) == 65_536


def test_a_too_long_comment_edit_through_pygithub(acme: GitHubWorld) -> None:
    issue = acme.py().get_repo("acme/orders").get_issue(1)
    comment = issue.create_comment("short")
    with pytest.raises(GithubException) as raised:
        comment.edit("x" * 65_537)
    assert (raised.value.status, raised.value.data["errors"]) == (422, [COMMENT_TOO_LONG])
    assert acme.kit().rest.issues.get_comment("acme", "orders", comment.id).parsed_data.body == "short"
