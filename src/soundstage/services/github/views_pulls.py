"""The response objects of pull requests, reviews and review comments."""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import issues, pulls, repos, views
from . import reactions as reactions_of
from .records import Records
from .views import HTML, association, maybe_stamp, reactions, stamp, user_by_login
from .views_issues import label, milestone_of


# Rendered pull-request-simples by everything they show, bounded (emptied when full). Records are never
# changed in place (world.py), and the users and repository embedded are `views`' shared renders of their
# records, so the same pull record, shas, labels and embedded objects render the same answer. Each entry
# holds the records it was made of (the embedded views are in the answer), so their ids stay theirs.
_RENDERED_MAX = 4096
_SIMPLE: dict[tuple[Any, ...], tuple[tuple[Record, ...], dict[str, Any]]] = {}


def pull(base: str, records: Records, record: Record, full: bool = True) -> dict[str, Any]:
    """A pull-request (`full`, as `GET .../pulls/{n}` gives it) or a pull-request-simple (lists)."""
    simple = _simple(base, records, record)
    if not full:
        return simple
    repo, number = record["repository"], record["number"]
    changes = pulls.changes(records, record)
    mergeable = pulls.mergeable(records, record)
    return {
        **simple,
        "merged": record["merged"],
        "mergeable": mergeable,
        "rebaseable": mergeable,
        "mergeable_state": _mergeable_state(record, mergeable),
        "merged_by": user_by_login(base, records, record["merged_by"]),
        "comments": len(issues.comments(records, repo, number)),
        "review_comments": len(pulls.review_comments(records, record)),
        "maintainer_can_modify": record["maintainer_can_modify"],
        "commits": len(changes["commits"]),
        "additions": sum(f["additions"] for f in changes["files"]),
        "deletions": sum(f["deletions"] for f in changes["files"]),
        "changed_files": len(changes["files"]),
    }


def _simple(base: str, records: Records, record: Record) -> dict[str, Any]:
    repo = record["repository"]
    head_sha = pulls.head_sha(records, record)
    base_sha = pulls.base_sha(records, record)
    author = user_by_login(base, records, record["user"])
    assignees = [u for u in (user_by_login(base, records, login) for login in record["assignees"]) if u]
    reviewers = requested_reviewers(base, records, record)
    found = [label for label in (issues.label(records, repo, name) for name in record["labels"]) if label]
    milestone = milestone_of(base, records, record)
    owner = repos.user(records, repo.split("/")[0])
    assert owner is not None
    ends = {"user": views.user(base, owner), "repo": views.minimal_repository(base, records, repo)}
    if milestone is not None:  # its issue counts change with other items: rendered every time
        return _render(base, records, record, head_sha, base_sha, author, assignees, reviewers, found, milestone, ends)
    key = (
        base, id(record), head_sha, base_sha, id(author), *map(id, assignees), None, *map(id, reviewers), None,
        *map(id, found), id(ends["user"]), id(ends["repo"]),
    )
    rendered = _SIMPLE.get(key)
    if rendered is None:
        if len(_SIMPLE) >= _RENDERED_MAX:
            _SIMPLE.clear()
        body = _render(base, records, record, head_sha, base_sha, author, assignees, reviewers, found, None, ends)
        rendered = _SIMPLE[key] = ((record, *found), body)
    return rendered[1]


def _render(
    base: str,
    records: Records,
    record: Record,
    head_sha: str | None,
    base_sha: str | None,
    author: dict[str, Any] | None,
    assignees: list[dict[str, Any]],
    reviewers: list[dict[str, Any]],
    found_labels: list[Record],
    milestone: dict[str, Any] | None,
    ends: dict[str, Any],
) -> dict[str, Any]:
    """A pull-request-simple from the objects it embeds; `ends`: the user and repository of both branches."""
    repo, number = record["repository"], record["number"]
    url = f"{base}/repos/{repo}/pulls/{number}"
    issue_url = f"{base}/repos/{repo}/issues/{number}"
    html = f"{HTML}/{repo}/pull/{number}"
    statuses = f"{base}/repos/{repo}/statuses/{head_sha}"
    login = ends["user"]["login"]
    return {
        "url": url,
        "id": record["id"],
        "node_id": record["node_id"],
        "html_url": html,
        "diff_url": f"{html}.diff",
        "patch_url": f"{html}.patch",
        "issue_url": issue_url,
        "number": number,
        "state": record["state"],
        "locked": record["locked"],
        "title": record["title"],
        "user": author,
        "body": record["body"],
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "closed_at": maybe_stamp(record["closed_at"]),
        "merged_at": maybe_stamp(record["merged_at"]),
        "merge_commit_sha": record["merge_commit_sha"],
        "assignee": assignees[0] if assignees else None,
        "assignees": assignees,
        "requested_reviewers": reviewers,
        "requested_teams": [],  # the world has no teams
        "labels": [label(base, found) for found in found_labels],
        "milestone": milestone,
        "draft": record["draft"],
        "commits_url": f"{url}/commits",
        "review_comments_url": f"{url}/comments",
        "review_comment_url": f"{base}/repos/{repo}/pulls/comments{{/number}}",
        "comments_url": f"{issue_url}/comments",
        "statuses_url": statuses,
        "head": {"label": f"{login}:{record['head']}", "ref": record["head"], "sha": head_sha or "", **ends},
        "base": {"label": f"{login}:{record['base']}", "ref": record["base"], "sha": base_sha or "", **ends},
        "_links": {
            "self": {"href": url},
            "html": {"href": html},
            "issue": {"href": issue_url},
            "comments": {"href": f"{issue_url}/comments"},
            "review_comments": {"href": f"{url}/comments"},
            "review_comment": {"href": f"{base}/repos/{repo}/pulls/comments{{/number}}"},
            "commits": {"href": f"{url}/commits"},
            "statuses": {"href": statuses},
        },
        "author_association": association(records, repo, record["user"]),
        "auto_merge": None,
        "active_lock_reason": record["active_lock_reason"],
    }


def requested_reviewers(base: str, records: Records, record: Record) -> list[dict[str, Any]]:
    return [u for u in (user_by_login(base, records, login) for login in record["requested_reviewers"]) if u]


def _mergeable_state(record: Record, mergeable: bool | None) -> str:
    if record["state"] != "open":
        return "unknown"
    if mergeable is False:
        return "dirty"
    return "draft" if record["draft"] else "clean"


def review(base: str, records: Records, record: Record) -> dict[str, Any]:
    repo, number = record["repository"], record["number"]
    pull_url = f"{base}/repos/{repo}/pulls/{number}"
    html = f"{HTML}/{repo}/pull/{number}#pullrequestreview-{record['id']}"
    return {
        "id": record["id"],
        "node_id": record["node_id"],
        "user": user_by_login(base, records, record["user"]),
        "body": record["body"],
        "state": record["state"],
        "html_url": html,
        "pull_request_url": pull_url,
        "author_association": association(records, repo, record["user"]),
        "_links": {"html": {"href": html}, "pull_request": {"href": pull_url}},
        "submitted_at": maybe_stamp(record["submitted_at"]),
        "commit_id": record["commit_id"],
    }


def review_comment(base: str, records: Records, record: Record) -> dict[str, Any]:
    repo, number = record["repository"], record["number"]
    url = f"{base}/repos/{repo}/pulls/comments/{record['id']}"
    pull_url = f"{base}/repos/{repo}/pulls/{number}"
    html = f"{HTML}/{repo}/pull/{number}#discussion_r{record['id']}"
    return {
        "url": url,
        "pull_request_review_id": record["pull_request_review_id"],
        "id": record["id"],
        "node_id": record["node_id"],
        "diff_hunk": record["diff_hunk"],
        "path": record["path"],
        "commit_id": record["commit_id"],
        "original_commit_id": record["commit_id"],
        "user": user_by_login(base, records, record["user"]),
        "body": record["body"],
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "html_url": html,
        "pull_request_url": pull_url,
        "author_association": association(records, repo, record["user"]),
        "_links": {"self": {"href": url}, "html": {"href": html}, "pull_request": {"href": pull_url}},
        "position": record["position"],
        "original_position": record["position"],
        "start_line": record["start_line"],
        "original_start_line": record["start_line"],
        "start_side": record["start_side"],
        "line": record["line"],
        "original_line": record["line"],
        "side": record["side"],
        "subject_type": record["subject_type"],
        "in_reply_to_id": record["in_reply_to_id"],
        "reactions": reactions(url, records, reactions_of.review_comment_subject(record["id"])),
    }
