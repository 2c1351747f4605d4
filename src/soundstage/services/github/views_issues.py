"""The response objects of issues, labels and issue comments (a pull request read through the issues API
is an issue with `pull_request` links)."""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import issue_types, issues, milestones
from . import reactions as reactions_of
from .records import Records
from .views import HTML, association, maybe_stamp, reactions, stamp, user_by_login


def label(base: str, record: Record) -> dict[str, Any]:
    return {
        "id": record["id"],
        "node_id": record["node_id"],
        "url": f"{base}/repos/{record['repository']}/labels/{record['name']}",
        "name": record["name"],
        "color": record["color"],
        "default": record["default"],
        "description": record["description"],
        "archived_at": None,
        "archived_by": None,
    }


def labels(base: str, records: Records, repo: str, names: list[str]) -> list[dict[str, Any]]:
    return [label(base, found) for found in (issues.label(records, repo, n) for n in names) if found]


def milestone(base: str, records: Records, record: Record) -> dict[str, Any]:
    repo, number = record["repository"], record["number"]
    url = f"{base}/repos/{repo}/milestones/{number}"
    open_issues, closed_issues = milestones.counts(records, record)
    return {
        "url": url,
        "html_url": f"{HTML}/{repo}/milestone/{number}",
        "labels_url": f"{url}/labels",
        "id": record["id"],
        "node_id": record["node_id"],
        "number": number,
        "state": record["state"],
        "title": record["title"],
        "description": record["description"],
        "creator": user_by_login(base, records, record["creator"]),
        "open_issues": open_issues,
        "closed_issues": closed_issues,
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "closed_at": maybe_stamp(record["closed_at"]),
        "due_on": maybe_stamp(record["due_on"]),
    }


def milestone_of(base: str, records: Records, item: Record) -> dict[str, Any] | None:
    """The milestone of an issue or pull, None for none."""
    number = item.get("milestone")
    found = milestones.milestone(records, item["repository"], number) if number else None
    return milestone(base, records, found) if found else None


def issue_type_of(records: Records, item: Record) -> dict[str, Any] | None:
    """The issue-type of an issue, None for none (and for a pull, which has no type)."""
    name = item.get("type")
    found = issue_types.issue_type(records, item["repository"].split("/")[0], name) if name else None
    if found is None:
        return None
    fields = ("id", "node_id", "name", "description", "color", "created_at", "updated_at", "is_enabled")
    shown = {field: found[field] for field in fields}
    return {**shown, "created_at": stamp(found["created_at"]), "updated_at": stamp(found["updated_at"])}


def issue(base: str, records: Records, record: Record) -> dict[str, Any]:
    """An issue; a pull request read through the issues API carries `pull_request` links."""
    repo, number = record["repository"], record["number"]
    url = f"{base}/repos/{repo}/issues/{number}"
    is_pull = "head" in record
    assignees = [u for u in (user_by_login(base, records, login) for login in record["assignees"]) if u]
    body: dict[str, Any] = {
        "url": url,
        "repository_url": f"{base}/repos/{repo}",
        "labels_url": f"{url}/labels{{/name}}",
        "comments_url": f"{url}/comments",
        "events_url": f"{url}/events",
        "html_url": f"{HTML}/{repo}/{'pull' if is_pull else 'issues'}/{number}",
        "id": record["id"],
        "node_id": record["node_id"],
        "number": number,
        "title": record["title"],
        "user": user_by_login(base, records, record["user"]),
        "labels": labels(base, records, repo, record["labels"]),
        "state": record["state"],
        "locked": record["locked"],
        "assignee": assignees[0] if assignees else None,
        "assignees": assignees,
        "milestone": milestone_of(base, records, record),
        "comments": len(issues.comments(records, repo, number)),
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "closed_at": maybe_stamp(record["closed_at"]),
        "author_association": association(records, repo, record["user"]),
        "active_lock_reason": record["active_lock_reason"],
        "body": record["body"],
        "closed_by": user_by_login(base, records, record.get("closed_by")) if record["state"] == "closed" else None,
        "reactions": reactions(url, records, reactions_of.issue_subject(repo, number)),
        "timeline_url": f"{url}/timeline",
        "performed_via_github_app": None,
        "state_reason": record.get("state_reason"),
        "type": issue_type_of(records, record),
        # The world has no sub-issues or dependencies: GitHub's answer for such an issue.
        "sub_issues_summary": {"total": 0, "completed": 0, "percent_completed": 0},
        "issue_dependencies_summary": {"blocked_by": 0, "blocking": 0, "total_blocked_by": 0, "total_blocking": 0},
    }
    if is_pull:
        pulls = f"{base}/repos/{repo}/pulls/{number}"
        body["draft"] = record["draft"]
        body["pull_request"] = {
            "url": pulls,
            "html_url": f"{HTML}/{repo}/pull/{number}",
            "diff_url": f"{HTML}/{repo}/pull/{number}.diff",
            "patch_url": f"{HTML}/{repo}/pull/{number}.patch",
            "merged_at": maybe_stamp(record["merged_at"]),
        }
    return body


def comment(base: str, records: Records, record: Record) -> dict[str, Any]:
    repo = record["repository"]
    url = f"{base}/repos/{repo}/issues/comments/{record['id']}"
    return {
        "url": url,
        "html_url": f"{HTML}/{repo}/issues/{record['number']}#issuecomment-{record['id']}",
        "issue_url": f"{base}/repos/{repo}/issues/{record['number']}",
        "id": record["id"],
        "node_id": record["node_id"],
        "user": user_by_login(base, records, record["user"]),
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "author_association": association(records, repo, record["user"]),
        "body": record["body"],
        "reactions": reactions(url, records, reactions_of.comment_subject(record["id"])),
        "performed_via_github_app": None,
    }
