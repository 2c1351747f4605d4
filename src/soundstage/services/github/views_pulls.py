"""The response objects of pull requests, reviews and review comments."""

from __future__ import annotations

from typing import Any

from ...world import Record
from ..versions import Kept
from . import issues, pulls, repos, views, wire
from . import reactions as reactions_of
from .records import Records
from .store import LABELS, REFS, USERS
from .versions import version
from .views import HTML, association, maybe_stamp, reactions, stamp, user_by_login
from .views_issues import labels, milestone_of

# Rendered pull-request-simples, bounded (emptied when full). Records are never changed in place (world.py),
# and a simple shows its pull record, the refs of its branches while open, users, labels, and the repository
# and its owner as `views` renders them (shared objects): so it is kept by the pull record, the versions of
# the refs, users and labels (`versions`) and the repository object embedded. Each entry holds its pull record
# and tokens, and the embedded objects are in the answer, so their ids stay theirs. A pull with a milestone
# is rendered every time: the milestone's issue counts change with other items.
_SIMPLE: Kept[tuple[Any, ...], tuple[Record, dict[str, Any]]] = Kept(4096)


class Simples:
    """Renders the pull-request-simples of one answer; what they share (the versions of the records they show,
    each repository's objects) is looked up once for the whole answer."""

    __slots__ = ("_ends", "base", "labels", "records", "refs", "users")

    def __init__(self, base: str, records: Records) -> None:
        self.base, self.records = base, records
        self.refs = version(records, REFS)
        self.users = version(records, USERS)
        self.labels = version(records, LABELS)
        self._ends: dict[str, dict[str, Any]] = {}

    def __call__(self, record: Record) -> dict[str, Any]:
        base, records = self.base, self.records
        ends = self.ends(record["repository"])
        milestone = milestone_of(base, records, record)
        if milestone is not None:
            return _render(base, records, record, milestone, ends)
        refs = self.refs if record["state"] == "open" else None  # a closed pull keeps the shas it had
        key = (base, id(record), refs, self.users, self.labels, id(ends["repo"]))
        rendered = _SIMPLE.get(key)
        if rendered is None:
            rendered = _SIMPLE.keep(key, (record, wire.share(_render(base, records, record, None, ends))))
        return rendered[1]

    def ends(self, repo: str) -> dict[str, Any]:
        """The user and repository objects both branches of `repo`'s pulls embed."""
        found = self._ends.get(repo)
        if found is None:
            owner = repos.user(self.records, repo.split("/")[0])
            assert owner is not None
            repository = views.minimal_repository(self.base, self.records, repo)
            found = self._ends[repo] = {"user": views.user(self.base, owner), "repo": repository}
        return found


def pull(base: str, records: Records, record: Record, full: bool = True) -> dict[str, Any]:
    """A pull-request (`full`, as `GET .../pulls/{n}` gives it) or a pull-request-simple (lists)."""
    simple = Simples(base, records)(record)
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


def _render(
    base: str, records: Records, record: Record, milestone: dict[str, Any] | None, ends: dict[str, Any]
) -> dict[str, Any]:
    """A pull-request-simple; `ends`: the user and repository of both branches."""
    head_sha = pulls.head_sha(records, record)
    base_sha = pulls.base_sha(records, record)
    assignees = [u for u in (user_by_login(base, records, login) for login in record["assignees"]) if u]
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
        "user": user_by_login(base, records, record["user"]),
        "body": record["body"],
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "closed_at": maybe_stamp(record["closed_at"]),
        "merged_at": maybe_stamp(record["merged_at"]),
        "merge_commit_sha": record["merge_commit_sha"],
        "assignee": assignees[0] if assignees else None,
        "assignees": assignees,
        "requested_reviewers": requested_reviewers(base, records, record),
        "requested_teams": [],  # the world has no teams
        "labels": labels(base, records, repo, record["labels"]),
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
