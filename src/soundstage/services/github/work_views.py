"""The response objects of issues, labels, comments, pulls, reviews, deployments, releases and CI, built
from the work records with every field the schema requires (see `views` for users, repos, commits)."""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import views
from .store import node_id
from .views import HTML, stamp
from .work import Work

_NO_REACTIONS = ("+1", "-1", "laugh", "confused", "heart", "hooray", "eyes", "rocket")


def _user(base: str, work: Work, login: str | None) -> dict[str, Any] | None:
    record = work.user(login) if login else None
    return views.user(base, record) if record else None


def _stamp(us: int | None) -> str | None:
    return stamp(us) if us is not None else None


def _reactions(url: str) -> dict[str, Any]:
    return {"url": f"{url}/reactions", "total_count": 0, **{name: 0 for name in _NO_REACTIONS}}


def _association(work: Work, repo: str, login: str) -> str:
    return "OWNER" if repo.split("/")[0] == login else "MEMBER" if work.user(login) else "NONE"


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


def labels(base: str, work: Work, repo: str, names: list[str]) -> list[dict[str, Any]]:
    return [label(base, found) for found in (work.label(repo, n) for n in names) if found]


def issue(base: str, work: Work, record: Record) -> dict[str, Any]:
    """An issue; a pull request read through the issues API carries `pull_request` links."""
    repo, number = record["repository"], record["number"]
    url = f"{base}/repos/{repo}/issues/{number}"
    is_pull = "head" in record
    assignees = [u for u in (_user(base, work, login) for login in record["assignees"]) if u]
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
        "user": _user(base, work, record["user"]),
        "labels": labels(base, work, repo, record["labels"]),
        "state": record["state"],
        "locked": record["locked"],
        "assignee": assignees[0] if assignees else None,
        "assignees": assignees,
        "milestone": None,
        "comments": len(work.comments(repo, number)),
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "closed_at": _stamp(record["closed_at"]),
        "author_association": _association(work, repo, record["user"]),
        "active_lock_reason": record["active_lock_reason"],
        "body": record["body"],
        "closed_by": _user(base, work, record.get("closed_by")) if record["state"] == "closed" else None,
        "reactions": _reactions(url),
        "timeline_url": f"{url}/timeline",
        "performed_via_github_app": None,
        "state_reason": record.get("state_reason"),
    }
    if is_pull:
        pulls = f"{base}/repos/{repo}/pulls/{number}"
        body["draft"] = record["draft"]
        body["pull_request"] = {
            "url": pulls,
            "html_url": f"{HTML}/{repo}/pull/{number}",
            "diff_url": f"{HTML}/{repo}/pull/{number}.diff",
            "patch_url": f"{HTML}/{repo}/pull/{number}.patch",
            "merged_at": _stamp(record["merged_at"]),
        }
    return body


def comment(base: str, work: Work, record: Record) -> dict[str, Any]:
    repo = record["repository"]
    url = f"{base}/repos/{repo}/issues/comments/{record['id']}"
    return {
        "url": url,
        "html_url": f"{HTML}/{repo}/issues/{record['number']}#issuecomment-{record['id']}",
        "issue_url": f"{base}/repos/{repo}/issues/{record['number']}",
        "id": record["id"],
        "node_id": record["node_id"],
        "user": _user(base, work, record["user"]),
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "author_association": _association(work, repo, record["user"]),
        "body": record["body"],
        "reactions": _reactions(url),
        "performed_via_github_app": None,
    }


def _branch_end(base: str, work: Work, repo: str, branch: str, sha: str | None) -> dict[str, Any]:
    record = work.repos.repo(repo)
    owner = work.user(repo.split("/")[0])
    assert record is not None and owner is not None
    return {
        "label": f"{owner['login']}:{branch}",
        "ref": branch,
        "sha": sha or "",
        "user": views.user(base, owner),
        "repo": views.repository(base, record, owner, full=False, open_issues=work.open_items(repo)),
    }


def pull(base: str, work: Work, record: Record, full: bool = True) -> dict[str, Any]:
    """A pull-request (`full`, as `GET .../pulls/{n}` gives it) or a pull-request-simple (lists)."""
    repo, number = record["repository"], record["number"]
    url = f"{base}/repos/{repo}/pulls/{number}"
    issue_url = f"{base}/repos/{repo}/issues/{number}"
    html = f"{HTML}/{repo}/pull/{number}"
    head_sha = work.head_sha(record)
    base_sha = _base_sha(work, record)
    assignees = [u for u in (_user(base, work, login) for login in record["assignees"]) if u]
    statuses = f"{base}/repos/{repo}/statuses/{head_sha}"
    body: dict[str, Any] = {
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
        "user": _user(base, work, record["user"]),
        "body": record["body"],
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "closed_at": _stamp(record["closed_at"]),
        "merged_at": _stamp(record["merged_at"]),
        "merge_commit_sha": record["merge_commit_sha"],
        "assignee": assignees[0] if assignees else None,
        "assignees": assignees,
        "requested_reviewers": [],
        "requested_teams": [],
        "labels": labels(base, work, repo, record["labels"]),
        "milestone": None,
        "draft": record["draft"],
        "commits_url": f"{url}/commits",
        "review_comments_url": f"{url}/comments",
        "review_comment_url": f"{base}/repos/{repo}/pulls/comments{{/number}}",
        "comments_url": f"{issue_url}/comments",
        "statuses_url": statuses,
        "head": _branch_end(base, work, repo, record["head"], head_sha),
        "base": _branch_end(base, work, repo, record["base"], base_sha),
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
        "author_association": _association(work, repo, record["user"]),
        "auto_merge": None,
        "active_lock_reason": record["active_lock_reason"],
    }
    if full:
        changes = _changes(work, record, base_sha, head_sha)
        mergeable = work.mergeable(record)
        body.update(
            {
                "merged": record["merged"],
                "mergeable": mergeable,
                "rebaseable": mergeable,
                "mergeable_state": _mergeable_state(record, mergeable),
                "merged_by": _user(base, work, record["merged_by"]),
                "comments": len(work.comments(repo, number)),
                "review_comments": len(work.review_comments(record)),
                "maintainer_can_modify": record["maintainer_can_modify"],
                "commits": len(changes["commits"]),
                "additions": sum(f["additions"] for f in changes["files"]),
                "deletions": sum(f["deletions"] for f in changes["files"]),
                "changed_files": len(changes["files"]),
            }
        )
    return body


def _mergeable_state(record: Record, mergeable: bool | None) -> str:
    if record["state"] != "open":
        return "unknown"
    if mergeable is False:
        return "dirty"
    return "draft" if record["draft"] else "clean"


def _changes(work: Work, record: Record, base_sha: str | None, head_sha: str | None) -> dict[str, Any]:
    if base_sha is None or head_sha is None:
        return {"commits": [], "files": []}
    return work.repos.compare(base_sha, head_sha)


def _base_sha(work: Work, record: Record) -> str | None:
    """The base branch's commit while open; once merged or closed, the one it had then."""
    if record["state"] != "open":
        return record["base_sha"]
    return work.repos.branch_sha(record["repository"], record["base"]) or record["base_sha"]


def pull_changes(work: Work, record: Record) -> dict[str, Any]:
    """The commits and files of a pull: what head has that base lacks (at the merge, once merged)."""
    return _changes(work, record, _base_sha(work, record), work.head_sha(record))


def review(base: str, work: Work, record: Record) -> dict[str, Any]:
    repo, number = record["repository"], record["number"]
    pull_url = f"{base}/repos/{repo}/pulls/{number}"
    html = f"{HTML}/{repo}/pull/{number}#pullrequestreview-{record['id']}"
    return {
        "id": record["id"],
        "node_id": record["node_id"],
        "user": _user(base, work, record["user"]),
        "body": record["body"],
        "state": record["state"],
        "html_url": html,
        "pull_request_url": pull_url,
        "author_association": _association(work, repo, record["user"]),
        "_links": {"html": {"href": html}, "pull_request": {"href": pull_url}},
        "submitted_at": _stamp(record["submitted_at"]),
        "commit_id": record["commit_id"],
    }


def review_comment(base: str, work: Work, record: Record) -> dict[str, Any]:
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
        "user": _user(base, work, record["user"]),
        "body": record["body"],
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "html_url": html,
        "pull_request_url": pull_url,
        "author_association": _association(work, repo, record["user"]),
        "_links": {"self": {"href": url}, "html": {"href": html}, "pull_request": {"href": pull_url}},
        "line": record["line"],
        "original_line": record["line"],
        "side": record["side"],
        "subject_type": "line",
        "in_reply_to_id": record["in_reply_to_id"],
        "reactions": _reactions(url),
    }


def deployment(base: str, work: Work, record: Record) -> dict[str, Any]:
    repo = record["repository"]
    url = f"{base}/repos/{repo}/deployments/{record['id']}"
    return {
        "url": url,
        "id": record["id"],
        "node_id": record["node_id"],
        "sha": record["sha"],
        "ref": record["ref"],
        "task": record["task"],
        "payload": record["payload"],
        "original_environment": record["original_environment"],
        "environment": record["environment"],
        "description": record["description"],
        "creator": _user(base, work, record["creator"]),
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "statuses_url": f"{url}/statuses",
        "repository_url": f"{base}/repos/{repo}",
        "transient_environment": record["transient_environment"],
        "production_environment": record["production_environment"],
        "performed_via_github_app": None,
    }


def deployment_status(base: str, work: Work, record: Record) -> dict[str, Any]:
    repo = record["repository"]
    deployment_url = f"{base}/repos/{repo}/deployments/{record['deployment_id']}"
    return {
        "url": f"{deployment_url}/statuses/{record['id']}",
        "id": record["id"],
        "node_id": record["node_id"],
        "state": record["state"],
        "creator": _user(base, work, record["creator"]),
        "description": record["description"],
        "environment": record["environment"],
        "target_url": record["target_url"],
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "deployment_url": deployment_url,
        "repository_url": f"{base}/repos/{repo}",
        "environment_url": record["environment_url"],
        "log_url": record["log_url"],
        "performed_via_github_app": None,
    }


def release(base: str, work: Work, record: Record) -> dict[str, Any]:
    repo, tag = record["repository"], record["tag_name"]
    url = f"{base}/repos/{repo}/releases/{record['id']}"
    return {
        "url": url,
        "html_url": f"{HTML}/{repo}/releases/tag/{tag}",
        "assets_url": f"{url}/assets",
        "upload_url": f"https://uploads.github.com/repos/{repo}/releases/{record['id']}/assets{{?name,label}}",
        "tarball_url": f"{base}/repos/{repo}/tarball/{tag}",
        "zipball_url": f"{base}/repos/{repo}/zipball/{tag}",
        "id": record["id"],
        "node_id": record["node_id"],
        "tag_name": tag,
        "target_commitish": record["target_commitish"],
        "name": record["name"],
        "body": record["body"],
        "draft": record["draft"],
        "prerelease": record["prerelease"],
        "immutable": False,
        "created_at": stamp(record["created_at"]),
        "published_at": _stamp(record["published_at"]),
        "author": _user(base, work, record["author"]),
        "assets": [],
    }


def workflow_run(base: str, work: Work, record: Record) -> dict[str, Any]:
    repo = record["repository"]
    url = f"{base}/repos/{repo}/actions/runs/{record['id']}"
    repo_record = work.repos.repo(repo)
    owner = work.user(repo.split("/")[0])
    assert repo_record is not None and owner is not None
    minimal = views.repository(base, repo_record, owner, full=False, open_issues=work.open_items(repo))
    commit = work.repos.commit(record["head_sha"])
    actor = _user(base, work, record["actor"])
    return {
        "id": record["id"],
        "name": record["name"],
        "node_id": record["node_id"],
        "check_suite_id": record["check_suite_id"],
        "check_suite_node_id": node_id("CheckSuite", record["check_suite_id"]),
        "head_branch": record["head_branch"],
        "head_sha": record["head_sha"],
        "path": record["path"],
        "display_title": record["display_title"],
        "run_number": record["run_number"],
        "run_attempt": record["run_attempt"],
        "event": record["event"],
        "status": record["status"],
        "conclusion": record["conclusion"],
        "workflow_id": record["workflow_id"],
        "url": url,
        "html_url": f"{HTML}/{repo}/actions/runs/{record['id']}",
        "pull_requests": [],
        "referenced_workflows": [],
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "actor": actor,
        "triggering_actor": actor,
        "run_started_at": stamp(record["run_started_at"]),
        "jobs_url": f"{url}/jobs",
        "logs_url": f"{url}/logs",
        "check_suite_url": f"{base}/repos/{repo}/check-suites/{record['check_suite_id']}",
        "artifacts_url": f"{url}/artifacts",
        "cancel_url": f"{url}/cancel",
        "rerun_url": f"{url}/rerun",
        "previous_attempt_url": f"{url}/attempts/{record['run_attempt'] - 1}" if record["run_attempt"] > 1 else None,
        "workflow_url": f"{base}/repos/{repo}/actions/workflows/{record['workflow_id']}",
        "head_commit": _simple_commit(commit) if commit else None,
        "repository": minimal,
        "head_repository": minimal,
    }


def _simple_commit(commit: Record) -> dict[str, Any]:
    return {
        "id": commit["sha"],
        "tree_id": commit["tree"],
        "message": commit["message"],
        "timestamp": stamp(commit["committer"]["at"]),
        "author": {"name": commit["author"]["name"], "email": commit["author"]["email"]},
        "committer": {"name": commit["committer"]["name"], "email": commit["committer"]["email"]},
    }


_ACTIONS_APP = {
    "id": 15368,
    "slug": "github-actions",
    "node_id": "MDM6QXBwMTUzNjg=",
    "name": "GitHub Actions",
    "description": "Automate your workflow from idea to production",
    "external_url": "https://help.github.com/en/actions",
    "html_url": "https://github.com/apps/github-actions",
    "created_at": "2018-07-30T09:30:17Z",
    "updated_at": "2024-04-10T20:33:16Z",
    "permissions": {
        "actions": "write",
        "checks": "write",
        "contents": "write",
        "deployments": "write",
        "statuses": "write",
    },
    "events": ["check_run", "check_suite", "pull_request", "push", "workflow_dispatch"],
}


def _app(base: str) -> dict[str, Any]:
    owner = {
        "login": "github",
        "id": 9919,
        "node_id": "MDEyOk9yZ2FuaXphdGlvbjk5MTk=",
        "avatar_url": "https://avatars.githubusercontent.com/u/9919?v=4",
        "gravatar_id": "",
        "url": f"{base}/users/github",
        "html_url": "https://github.com/github",
        "followers_url": f"{base}/users/github/followers",
        "following_url": f"{base}/users/github/following{{/other_user}}",
        "gists_url": f"{base}/users/github/gists{{/gist_id}}",
        "starred_url": f"{base}/users/github/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{base}/users/github/subscriptions",
        "organizations_url": f"{base}/users/github/orgs",
        "repos_url": f"{base}/users/github/repos",
        "events_url": f"{base}/users/github/events{{/privacy}}",
        "received_events_url": f"{base}/users/github/received_events",
        "type": "Organization",
        "site_admin": False,
    }
    return {**_ACTIONS_APP, "owner": owner}


def check_run(base: str, work: Work, record: Record) -> dict[str, Any]:
    repo = record["repository"]
    url = f"{base}/repos/{repo}/check-runs/{record['id']}"
    html = f"{HTML}/{repo}/actions/runs/{record['run_id']}/job/{record['id']}"
    return {
        "id": record["id"],
        "head_sha": record["head_sha"],
        "node_id": record["node_id"],
        "external_id": record["external_id"],
        "url": url,
        "html_url": html,
        "details_url": html,
        "status": record["status"],
        "conclusion": record["conclusion"],
        "started_at": stamp(record["started_at"]),
        "completed_at": _stamp(record["completed_at"]),
        "output": {**record["output"], "annotations_count": 0, "annotations_url": f"{url}/annotations"},
        "name": record["name"],
        "check_suite": {"id": record["check_suite_id"]},
        "app": _app(base),
        "pull_requests": [],
    }


def status(base: str, work: Work, record: Record) -> dict[str, Any]:
    creator = work.user(record["creator"])
    return {
        "url": f"{base}/repos/{record['repository']}/statuses/{record['sha']}",
        "avatar_url": f"https://avatars.githubusercontent.com/u/{creator['id']}?v=4" if creator else None,
        "id": record["id"],
        "node_id": record["node_id"],
        "state": record["state"],
        "description": record["description"],
        "target_url": record["target_url"],
        "context": record["context"],
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
    }


def combined_status(base: str, work: Work, repo: str, sha: str, records: list[Record]) -> dict[str, Any]:
    """The latest status per context and their combined state (failure beats pending beats success)."""
    latest: dict[str, Record] = {}
    for record in records:
        latest[record["context"]] = record
    states = {r["state"] for r in latest.values()}
    state = (
        "failure" if states & {"error", "failure"} else "pending" if "pending" in states or not states else "success"
    )
    repo_record = work.repos.repo(repo)
    owner = work.user(repo.split("/")[0])
    assert repo_record is not None and owner is not None
    return {
        "state": state,
        "statuses": [status(base, work, r) for r in reversed(list(latest.values()))],
        "sha": sha,
        "total_count": len(latest),
        "repository": views.repository(base, repo_record, owner, full=False, open_issues=work.open_items(repo)),
        "commit_url": f"{base}/repos/{repo}/commits/{sha}",
        "url": f"{base}/repos/{repo}/commits/{sha}/status",
    }
