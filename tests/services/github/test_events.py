"""Issue events and timelines on the acme world (issues #1-#3, pulls #4-#5): what the engine records as
things happen, read through githubkit, PyGithub and raw HTTP."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from .conftest import GitHubWorld

DOCS = "https://docs.github.com/rest/issues/events#get-an-issue-event"


@pytest.fixture
def acme(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(scene="merge-right-pr"))


def kinds(items: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
    """Each event's kind with its detail: the label, assignee, title change or commit it names."""
    shown = []
    for e in items:
        detail = (
            (e.get("label") or {}).get("name")
            or (e.get("assignee") or {}).get("login")
            or (e.get("requested_reviewer") or {}).get("login")
            or (e.get("milestone") or {}).get("title")
            or (e.get("rename") and f"{e['rename']['from']} -> {e['rename']['to']}")
            or e.get("state_reason")
            or e.get("lock_reason")
            or (e.get("commit_id") and e["commit_id"][:7])
        )
        shown.append((e["event"], detail))
    return shown


def test_changes_are_recorded_as_events(acme: GitHubWorld) -> None:
    issue = acme.raw(
        "POST", "/repos/acme/orders/issues", json={"title": "Slow search", "labels": ["bug"], "assignees": ["maya"]}
    ).json()
    path = f"/repos/acme/orders/issues/{issue['number']}"
    acme.raw("PATCH", path, json={"title": "Search is slow", "state": "closed", "state_reason": "not_planned"})
    acme.raw("PATCH", path, json={"state": "open"})
    acme.raw("DELETE", f"{path}/labels/bug")
    acme.raw("POST", f"{path}/assignees", json={"assignees": ["omar"]})
    acme.raw("DELETE", f"{path}/assignees", json={"assignees": ["maya"]})
    acme.raw("PUT", f"{path}/lock", json={"lock_reason": "resolved"})
    acme.raw("DELETE", f"{path}/lock")
    listed = acme.raw("GET", f"{path}/events").json()
    assert kinds(listed) == [
        ("labeled", "bug"),
        ("assigned", "maya"),
        ("renamed", "Slow search -> Search is slow"),
        ("closed", "not_planned"),
        ("reopened", "reopened"),
        ("unlabeled", "bug"),
        ("assigned", "omar"),
        ("unassigned", "maya"),
        ("locked", "resolved"),
        ("unlocked", None),
    ]
    first = listed[0]
    assert first == {
        "id": first["id"],
        "node_id": first["node_id"],
        "url": f"{acme.url}/repos/acme/orders/issues/events/{first['id']}",
        "actor": first["actor"],
        "event": "labeled",
        "commit_id": None,
        "commit_url": None,
        "created_at": issue["created_at"],
        "performed_via_github_app": None,
        "label": {"name": "bug", "color": "d73a4a"},
    }
    assert first["actor"]["login"] == "stagebot"
    assert [e["id"] for e in listed] == list(range(first["id"], first["id"] + 10))
    assert listed[1]["assigner"]["login"] == "stagebot" and listed[1]["assignee"]["login"] == "maya"
    assert listed[3]["created_at"] > listed[1]["created_at"]  # each from the call that did it
    # The node id names the event's type, as GitHub's do: `0<len>:<Type><id>`.
    assert base64.b64decode(listed[2]["node_id"]).decode() == f"017:RenamedTitleEvent{listed[2]['id']}"


def test_clients_read_events_and_pages(acme: GitHubWorld) -> None:
    kit = acme.kit()
    kit.rest.issues.add_labels("acme", "orders", 2, data={"labels": ["p1", "docs"]})
    events = kit.rest.issues.list_events("acme", "orders", 2).parsed_data
    assert [(e.event, e.actor.login if e.actor else None) for e in events] == [
        ("labeled", "priya"),  # the seeded issue was opened with `bug`
        ("labeled", "stagebot"),
        ("labeled", "stagebot"),
    ]
    kit.rest.issues.update("acme", "orders", 2, data={"state": "closed"})
    # GitHub's description (and so githubkit) leaves state changes out of an issue's event list, though
    # GitHub lists them there: githubkit cannot read the list once it has one.
    response = kit.rest.issues.list_events("acme", "orders", 2)
    assert [e["event"] for e in response.json()] == ["labeled", "labeled", "labeled", "closed"]
    py = acme.py().get_repo("acme/orders")
    got = [(e.event, e.label.name if e.label else None) for e in py.get_issue(2).get_events()]
    assert got == [("labeled", "bug"), ("labeled", "p1"), ("labeled", "docs"), ("closed", None)]
    page = acme.raw("GET", "/repos/acme/orders/issues/2/events", params={"per_page": 3})
    assert [e["event"] for e in page.json()] == ["labeled", "labeled", "labeled"]
    assert 'rel="next"' in page.headers["link"]
    # The repo's list: newest first, each with its issue.
    repo_events = kit.rest.issues.list_events_for_repo("acme", "orders").parsed_data
    assert [(e.event, e.issue.number if e.issue else None) for e in repo_events][:3] == [
        ("closed", 2),
        ("labeled", 2),
        ("labeled", 2),
    ]
    one = kit.rest.issues.get_event("acme", "orders", repo_events[0].id).parsed_data
    assert (one.id, one.event, one.issue.title if one.issue else None) == (
        repo_events[0].id,
        "closed",
        "Order search is case-sensitive",
    )
    assert [e.event for e in py.get_issues_events()][:1] == ["closed"]


def test_seeded_items_have_their_opening_events(acme: GitHubWorld) -> None:
    # Issue #1 was opened with two labels, an assignee and a milestone, by alex.
    listed = acme.raw("GET", "/repos/acme/orders/issues/1/events").json()
    assert kinds(listed) == [("labeled", "bug"), ("labeled", "p1"), ("assigned", "maya"), ("milestoned", "1.5.0")]
    assert {e["actor"]["login"] for e in listed} == {"alex"}


def test_merging_records_referenced_merged_closed_and_closes_named_issues(acme: GitHubWorld) -> None:
    pulls = acme.raw("GET", "/repos/acme/orders/pulls").json()
    fix = next(p for p in pulls if p["head"]["ref"] == "fix-totals-cache")
    merged = acme.raw("PUT", f"/repos/acme/orders/pulls/{fix['number']}/merge", json={}).json()
    sha = merged["sha"]
    listed = acme.raw("GET", f"/repos/acme/orders/issues/{fix['number']}/events").json()
    assert [(e["event"], e["commit_id"]) for e in listed] == [("referenced", sha), ("merged", sha), ("closed", None)]
    assert listed[1]["commit_url"] == f"{acme.url}/repos/acme/orders/commits/{sha}"
    closed = acme.raw("GET", "/repos/acme/orders/issues/1/events").json()[-1]
    assert (closed["event"], closed["commit_id"], closed["state_reason"]) == ("closed", sha, "completed")


def test_timeline(acme: GitHubWorld) -> None:
    pulls = acme.raw("GET", "/repos/acme/orders/pulls").json()
    fix = next(p for p in pulls if p["head"]["ref"] == "fix-totals-cache")
    number = fix["number"]
    acme.raw("POST", f"/repos/acme/orders/issues/{number}/comments", json={"body": "Looks right"})
    acme.raw("POST", f"/repos/acme/orders/pulls/{number}/reviews", json={"event": "COMMENT", "body": "Fine"})
    acme.raw("POST", f"/repos/acme/orders/issues/{number}/labels", json={"labels": ["bug"]})
    kit = acme.kit()
    items = kit.rest.issues.list_events_for_timeline("acme", "orders", number).parsed_data
    raw = acme.raw("GET", f"/repos/acme/orders/issues/{number}/timeline").json()
    assert [e["event"] for e in raw] == ["committed"] * (len(raw) - 3) + ["commented", "reviewed", "labeled"]
    assert len(items) == len(raw)
    commit = raw[0]
    assert set(commit) == {
        "sha",
        "node_id",
        "url",
        "html_url",
        "author",
        "committer",
        "tree",
        "message",
        "parents",
        "verification",
        "event",
    }
    commented, reviewed, labeled = raw[-3:]
    assert (commented["body"], commented["actor"]["login"], commented["user"]["login"]) == (
        "Looks right",
        "stagebot",
        "stagebot",
    )
    assert (reviewed["state"], reviewed["body"], reviewed["user"]["login"]) == ("COMMENTED", "Fine", "stagebot")
    assert labeled["label"] == {"name": "bug", "color": "d73a4a"}
    py = acme.py().get_repo("acme/orders").get_issue(number)
    assert [e.event for e in py.get_timeline()] == [e["event"] for e in raw]


def test_missing_things_are_404(acme: GitHubWorld) -> None:
    for path, docs in (
        ("/repos/acme/orders/issues/99/events", "https://docs.github.com/rest/issues/issues#get-an-issue"),
        ("/repos/acme/orders/issues/99/timeline", "https://docs.github.com/rest/issues/issues#get-an-issue"),
        ("/repos/acme/orders/issues/events/1", DOCS),
        ("/repos/acme/orders/issues/events/abc", DOCS),
        ("/repos/acme/nope/issues/events", "https://docs.github.com/rest/repos/repos#get-a-repository"),
    ):
        r = acme.raw("GET", path)
        assert (r.status_code, r.json()) == (
            404,
            {"message": "Not Found", "documentation_url": docs, "status": "404"},
        ), path


def test_timeline_cross_references_and_review_threads(acme: GitHubWorld) -> None:
    # Pulls #4 (`Fixes #1`) and #5 (`Quick fix for #1`) mention issue #1 in their bodies.
    raw = acme.raw("GET", "/repos/acme/orders/issues/1/timeline").json()
    refs = [e for e in raw if e["event"] == "cross-referenced"]
    assert [(e["source"]["type"], e["source"]["issue"]["number"], e["actor"]["login"]) for e in refs] == [
        ("issue", 4, "maya"),
        ("issue", 5, "omar"),
    ]
    pulls = {p["number"]: p for p in acme.raw("GET", "/repos/acme/orders/pulls", params={"state": "all"}).json()}
    assert [(e["created_at"], e["updated_at"]) for e in refs] == [(pulls[n]["created_at"],) * 2 for n in (4, 5)]
    assert refs[0]["source"]["issue"]["repository"]["full_name"] == "acme/orders"
    assert refs[0]["source"]["issue"]["pull_request"]["url"] == f"{acme.url}/repos/acme/orders/pulls/4"
    # A comment mentioning #2 cross-references it; `&#2` and `x#2` are no mentions.
    acme.raw("POST", "/repos/acme/orders/issues/3/comments", json={"body": "Like #2, not x#2 or &#2;"})
    two = [
        e for e in acme.raw("GET", "/repos/acme/orders/issues/2/timeline").json() if e["event"] == "cross-referenced"
    ]
    assert [(e["source"]["issue"]["number"], e["actor"]["login"]) for e in two] == [(3, "stagebot")]
    # A review comment and its reply are one thread.
    kit = acme.kit()
    before = kit.rest.issues.list_events_for_timeline("acme", "orders", 4).parsed_data
    assert len(before) == len(acme.raw("GET", "/repos/acme/orders/issues/4/timeline").json())
    head = acme.raw("GET", "/repos/acme/orders/pulls/4").json()["head"]["sha"]
    path = acme.raw("GET", "/repos/acme/orders/pulls/4/files").json()[0]["filename"]
    first = acme.raw(
        "POST",
        "/repos/acme/orders/pulls/4/comments",
        json={"body": "Why?", "commit_id": head, "path": path, "subject_type": "file"},
    ).json()
    acme.raw("POST", f"/repos/acme/orders/pulls/4/comments/{first['id']}/replies", json={"body": "Because."})
    threads = [
        e for e in acme.raw("GET", "/repos/acme/orders/issues/4/timeline").json() if e["event"] == "line-commented"
    ]
    assert [[c["body"] for c in t["comments"]] for t in threads] == [["Why?", "Because."]]
    assert base64.b64decode(threads[0]["node_id"]).decode() == f"023:PullRequestReviewThread{first['id']}"
    # GitHub names a thread's event `line-commented` (as its recorded answers show); githubkit expects
    # `line_commented` and so cannot parse such a timeline: read its JSON.
    response = kit.rest.issues.list_events_for_timeline("acme", "orders", 4)
    assert [e["event"] for e in response.json()].count("line-commented") == 1
    assert [e.event for e in acme.py().get_repo("acme/orders").get_issue(1).get_timeline()].count(
        "cross-referenced"
    ) == 2
