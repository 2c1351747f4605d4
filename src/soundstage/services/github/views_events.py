"""The response objects of issue events (`GET .../issues/{n}/events`, `GET .../issues/events`) and of
an issue's timeline, where comments, reviews and a pull's commits stand among the events."""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import events, issues, pulls, repos
from .records import Records, node_id
from .views import repository_of, stamp, user_by_login
from .views_git import git_commit
from .views_issues import comment, issue
from .views_pulls import review, review_comment


def event(base: str, records: Records, record: Record, with_issue: bool = False) -> dict[str, Any]:
    """An issue-event; `with_issue` (the repo's list) also carries the issue it happened to."""
    repo, sha = record["repository"], record["commit_id"]
    body: dict[str, Any] = {
        "id": record["id"],
        "node_id": record["node_id"],
        "url": f"{base}/repos/{repo}/issues/events/{record['id']}",
        "actor": user_by_login(base, records, record["actor"]),
        "event": record["event"],
        "commit_id": sha,
        "commit_url": f"{base}/repos/{repo}/commits/{sha}" if sha else None,
        "created_at": stamp(record["created_at"]),
        "performed_via_github_app": None,
    }
    kind = record["event"]
    if "label" in record:
        body["label"] = dict(record["label"])
    if "assignee" in record:
        body["assignee"] = user_by_login(base, records, record["assignee"])
        body["assigner"] = body["actor"]
    if "requested_reviewer" in record:
        body["review_requester"] = body["actor"]
        body["requested_reviewer"] = user_by_login(base, records, record["requested_reviewer"])
    if kind == "renamed":
        body["rename"] = dict(record["rename"])
    if kind in ("milestoned", "demilestoned"):
        body["milestone"] = {"title": record["milestone"]}
    if kind in ("locked", "unlocked"):
        body["lock_reason"] = record["lock_reason"]
    if kind in ("closed", "reopened"):
        body["state_reason"] = record["state_reason"]
    if with_issue:
        item = issues.item(records, repo, record["number"])
        body["issue"] = issue(base, records, item[1]) if item else None
    return body


def _cross_reference(base: str, records: Records, at: int, login: str, source: Record) -> dict[str, Any]:
    repo = repository_of(base, records, _repo(records, source), full=False)
    return {
        "actor": user_by_login(base, records, login),
        "created_at": stamp(at),
        "updated_at": stamp(at),
        "source": {"type": "issue", "issue": {**issue(base, records, source), "repository": repo}},
        "event": "cross-referenced",
    }


def _repo(records: Records, item: Record) -> Record:
    found = repos.repo(records, item["repository"])
    assert found is not None
    return found


def _threads(base: str, records: Records, pull: Record) -> list[tuple[int, dict[str, Any]]]:
    """A pull's review comments as GitHub's timeline groups them: one `line-commented` per thread (a
    comment and its replies), at its first comment's time."""
    threads: dict[int, list[Record]] = {}
    for c in pulls.review_comments(records, pull):
        threads.setdefault(c["in_reply_to_id"] or c["id"], []).append(c)
    return [
        (
            found[0]["created_at"],
            {
                "node_id": node_id("PullRequestReviewThread", root),
                "comments": [review_comment(base, records, c) for c in found],
                "event": "line-commented",
            },
        )
        for root, found in threads.items()
    ]


def timeline(base: str, records: Records, item: Record) -> list[dict[str, Any]]:
    """An issue's or pull's timeline, oldest first: its events, where other items mention it
    (`cross-referenced`), its comments (`commented`) and, for a pull, its commits (`committed`, at their
    author's time), submitted reviews (`reviewed`) and review threads (`line-commented`)."""
    repo, number = item["repository"], item["number"]
    entries: list[tuple[int, int, dict[str, Any]]] = [
        (e["created_at"], 1, event(base, records, e)) for e in events.of_item(records, repo, number)
    ]
    for at, login, source in events.cross_references(records, item):
        entries.append((at, 1, _cross_reference(base, records, at, login, source)))
    for c in issues.comments(records, repo, number):
        actor = user_by_login(base, records, c["user"])
        entries.append((c["created_at"], 2, {**comment(base, records, c), "event": "commented", "actor": actor}))
    if "head" in item:
        for c in pulls.changes(records, item)["commits"]:
            entries.append((c["author"]["at"], 0, {**git_commit(base, repo, c), "event": "committed"}))
        for r in pulls.reviews(records, item):
            if r["submitted_at"] is not None:
                entries.append((r["submitted_at"], 3, {**review(base, records, r), "event": "reviewed"}))
        entries += [(at, 4, thread) for at, thread in _threads(base, records, item)]
    return [body for _, _, body in sorted(entries, key=lambda entry: (entry[0], entry[1]))]
