"""The response objects of deployments and their statuses, releases, workflow runs, check runs and
commit statuses."""

from __future__ import annotations

import base64
from typing import Any
from urllib.parse import quote

from ...world import Record
from . import commits, repos
from .records import Records, node_id
from .store import WORKFLOW_RUNS
from .views import HTML, maybe_stamp, minimal_repository, stamp, user_by_login


def deployment(base: str, records: Records, record: Record) -> dict[str, Any]:
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
        "creator": user_by_login(base, records, record["creator"]),
        "created_at": stamp(record["created_at"]),
        "updated_at": stamp(record["updated_at"]),
        "statuses_url": f"{url}/statuses",
        "repository_url": f"{base}/repos/{repo}",
        "transient_environment": record["transient_environment"],
        "production_environment": record["production_environment"],
        "performed_via_github_app": None,
    }


def deployment_status(base: str, records: Records, record: Record) -> dict[str, Any]:
    repo = record["repository"]
    deployment_url = f"{base}/repos/{repo}/deployments/{record['deployment_id']}"
    return {
        "url": f"{deployment_url}/statuses/{record['id']}",
        "id": record["id"],
        "node_id": record["node_id"],
        "state": record["state"],
        "creator": user_by_login(base, records, record["creator"]),
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


def release(base: str, records: Records, record: Record) -> dict[str, Any]:
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
        "published_at": maybe_stamp(record["published_at"]),
        "author": user_by_login(base, records, record["author"]),
        "assets": [],
    }


def tag(base: str, repo: Record, ref: Record, sha: str | None) -> dict[str, Any]:
    """A tag of `GET .../tags`: its name, the commit it names (`sha`, an annotated tag's peeled) and archives;
    the node id of its ref."""
    full, name = repo["full_name"], ref["ref"].removeprefix("refs/tags/")
    return {
        "name": name,
        "zipball_url": f"{base}/repos/{full}/zipball/refs/tags/{name}",
        "tarball_url": f"{base}/repos/{full}/tarball/refs/tags/{name}",
        "commit": {"sha": sha, "url": f"{base}/repos/{full}/commits/{sha}"},
        "node_id": base64.b64encode(f"03:Ref{repo['id']}:{ref['ref']}".encode()).decode(),
    }


def workflow(base: str, records: Records, record: Record) -> dict[str, Any]:
    """A workflow, its times with milliseconds as GitHub gives them."""
    repo = repos.repo(records, record["repository"])
    assert repo is not None
    full, at = repo["full_name"], stamp(record["created_at"]).removesuffix("Z") + ".000Z"
    return {
        "id": record["id"],
        "node_id": node_id("Workflow", record["id"]),
        "name": record["name"],
        "path": record["path"],
        "state": "active",
        "created_at": at,
        "updated_at": at,
        "url": f"{base}/repos/{full}/actions/workflows/{record['id']}",
        "html_url": f"{HTML}/{full}/blob/{repo['default_branch']}/{record['path']}",
        "badge_url": f"{HTML}/{full}/workflows/{quote(record['name'])}/badge.svg",
    }


def workflow_run(base: str, records: Records, record: Record) -> dict[str, Any]:
    repo = record["repository"]
    url = f"{base}/repos/{repo}/actions/runs/{record['id']}"
    minimal = minimal_repository(base, records, repo)
    commit = commits.commit(records.objects, record["head_sha"])
    actor = user_by_login(base, records, record["actor"])
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


def check_run(base: str, records: Records, record: Record) -> dict[str, Any]:
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
        "completed_at": maybe_stamp(record["completed_at"]),
        "output": {**record["output"], "annotations_count": 0, "annotations_url": f"{url}/annotations"},
        "name": record["name"],
        "check_suite": {"id": record["check_suite_id"]},
        "app": _app(base),
        "pull_requests": [],
    }


def job(base: str, records: Records, record: Record) -> dict[str, Any]:
    """A check run as the workflow job it is (GitHub gives both the same id): its steps are setting up,
    running the job, and completing."""
    repo = record["repository"]
    run = records[WORKFLOW_RUNS].get(str(record["run_id"]))
    assert run is not None
    done = record["status"] == "completed"
    started, ended = record["started_at"], record["completed_at"]
    steps = [("Set up job", "success"), (f"Run {record['name']}", record["conclusion"]), ("Complete job", "success")]
    return {
        "id": record["id"],
        "run_id": record["run_id"],
        "workflow_name": run["name"],
        "head_branch": run["head_branch"],
        "run_url": f"{base}/repos/{repo}/actions/runs/{record['run_id']}",
        "run_attempt": record["run_attempt"],
        "node_id": record["node_id"],
        "head_sha": record["head_sha"],
        "url": f"{base}/repos/{repo}/actions/jobs/{record['id']}",
        "html_url": f"{HTML}/{repo}/actions/runs/{record['run_id']}/job/{record['id']}",
        "status": record["status"],
        "conclusion": record["conclusion"],
        "created_at": stamp(started),
        "started_at": stamp(started),
        "completed_at": maybe_stamp(ended),
        "name": record["name"],
        "steps": [
            {
                "name": name,
                "status": record["status"] if done else "queued",
                "conclusion": conclusion if done else None,
                "number": number,
                "started_at": stamp(started) if done else None,
                "completed_at": maybe_stamp(ended),
            }
            for number, (name, conclusion) in enumerate(steps, 1)
        ],
        "check_run_url": f"{base}/repos/{repo}/check-runs/{record['id']}",
        "labels": ["ubuntu-latest"],
        "runner_id": 1 if done else None,
        "runner_name": "GitHub Actions 1" if done else None,
        "runner_group_id": 2 if done else None,
        "runner_group_name": "GitHub Actions" if done else None,
    }


def log_text(record: Record) -> str:
    """A job's log as GitHub's runner writes it: each line stamped with its time, 7 digits of fraction,
    a tenth of a second apart from the job's start."""
    lines = record["log"].splitlines()
    return "".join(f"{_log_stamp(record['started_at'] + k * 100_000)} {line}\n" for k, line in enumerate(lines))


def _log_stamp(at: int) -> str:
    seconds, micros = divmod(at, 1_000_000)
    return f"{stamp(seconds * 1_000_000)[:-1]}.{micros:06d}0Z"


def status(base: str, records: Records, record: Record, simple: bool = False) -> dict[str, Any]:
    """A status; `simple` as a combined status lists it (a simple-commit-status: no `creator`)."""
    creator = repos.user(records, record["creator"])
    view = {
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
    if not simple:
        view["creator"] = user_by_login(base, records, record["creator"])
    return view


def combined_status(base: str, records: Records, repo: str, sha: str, statuses: list[Record]) -> dict[str, Any]:
    """The latest status per context and their combined state (failure beats pending beats success)."""
    latest: dict[str, Record] = {}
    for record in statuses:
        latest[record["context"]] = record
    states = {r["state"] for r in latest.values()}
    state = (
        "failure" if states & {"error", "failure"} else "pending" if "pending" in states or not states else "success"
    )
    return {
        "state": state,
        "statuses": [status(base, records, r, simple=True) for r in reversed(list(latest.values()))],
        "sha": sha,
        "total_count": len(latest),
        "repository": minimal_repository(base, records, repo),
        "commit_url": f"{base}/repos/{repo}/commits/{sha}",
        "url": f"{base}/repos/{repo}/commits/{sha}/status",
    }
