"""Releases, workflow runs, check runs, commit statuses and deployments: one function per operation.

A rerun queues a new attempt that completes two simulated minutes later with the run's earlier
conclusion (the code did not change). A deployment to `production` deploys its ref: the repo's
`production` commit moves there, which is what faults watch.
"""

from __future__ import annotations

from typing import Any

from ...clock import US
from ...world import Record, World
from . import work_views
from .errors import GitHubError, not_found
from .handlers_issues import param, type_error
from .handlers_repos import repo_of, text_arg, work_of
from .router import Call, Reply, created, ops, paginate
from .store import Repos
from .work import (
    CHECK_RUNS,
    DEPLOYMENT_STATUSES,
    DEPLOYMENTS,
    RELEASES,
    STATUSES,
    WORKFLOW_RUNS,
    Work,
)

DOCS = "https://docs.github.com/rest"
RERUN_TAKES = 120 * US
_RUN_STATUSES = ("queued", "in_progress", "completed", "waiting", "requested", "pending")
_CONCLUSIONS = ("success", "failure", "neutral", "cancelled", "skipped", "timed_out", "action_required", "stale")
_COMMIT_STATES = ("error", "failure", "pending", "success")
_DEPLOY_STATES = ("error", "failure", "inactive", "in_progress", "queued", "pending", "success")


def _wrapped(call: Call, items: list[Record], name: str, view: Any) -> Reply:
    """A page of `items` inside `{total_count, <name>: [...]}` with the `Link` header."""
    reply = paginate(call, items, view)
    reply.body = {"total_count": len(items), name: reply.body}
    return reply


def _newest(records: list[Record]) -> list[Record]:
    return sorted(records, key=lambda r: (r["created_at"], r["id"]), reverse=True)


# -- releases ----------------------------------------------------------------------------------------


@ops("GET /repos/{owner}/{repo}/releases")
def list_releases(call: Call) -> Any:
    repo = repo_of(call)
    work = work_of(call)
    records = _newest(call.world[RELEASES].by("repository", repo["full_name"]))
    return paginate(call, records, lambda r: work_views.release(call.base, work, r))


@ops("GET /repos/{owner}/{repo}/releases/latest")
def latest_release(call: Call) -> Any:
    repo = repo_of(call)
    published = [
        r for r in call.world[RELEASES].by("repository", repo["full_name"]) if not r["draft"] and not r["prerelease"]
    ]
    if not published:
        raise not_found(f"{DOCS}/releases/releases#get-the-latest-release")
    latest = max(published, key=lambda r: (r["published_at"], r["id"]))
    return work_views.release(call.base, work_of(call), latest)


# -- workflow runs and checks ------------------------------------------------------------------------


@ops("GET /repos/{owner}/{repo}/actions/runs")
def list_runs(call: Call) -> Any:
    repo = repo_of(call)
    status = param(call, "status")
    if status is not None and status not in _RUN_STATUSES + _CONCLUSIONS:
        raise GitHubError(422, "Validation Failed", [{"resource": "WorkflowRun", "field": "status", "code": "invalid"}])
    wanted = {k: param(call, k) for k in ("branch", "event", "head_sha", "actor") if param(call, k)}
    names = {"branch": "head_branch", "event": "event", "head_sha": "head_sha", "actor": "actor"}
    runs = [
        r
        for r in call.world[WORKFLOW_RUNS].by("repository", repo["full_name"])
        if all(r[names[k]] == v for k, v in wanted.items())
        and (status is None or r["status"] == status or r["conclusion"] == status)
    ]
    work = work_of(call)
    return _wrapped(call, _newest(runs), "workflow_runs", lambda r: work_views.workflow_run(call.base, work, r))


def _by_id(call: Call, collection: str, param: str, docs: str) -> Record:
    """The record of the path's numeric id in `collection`, if it belongs to the path's repository; else 404."""
    repo = repo_of(call)
    raw = call.params[param]
    record = call.world[collection].get(raw) if raw.isdigit() else None
    if record is None or record["repository"] != repo["full_name"]:
        raise not_found(f"{DOCS}/{docs}")
    return record


def _run_of(call: Call) -> Record:
    return _by_id(call, WORKFLOW_RUNS, "run_id", "actions/workflow-runs#re-run-a-workflow")


@ops("GET /repos/{owner}/{repo}/actions/runs/{run_id}")
def get_run(call: Call) -> Any:
    return work_views.workflow_run(call.base, work_of(call), _run_of(call))


@ops("POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun")
def rerun(call: Call) -> Any:
    run = _run_of(call)
    if run["status"] != "completed":
        raise GitHubError(
            403, "This workflow is already running", documentation_url=f"{DOCS}/actions/workflow-runs#re-run-a-workflow"
        )
    conclusion, run_id = run["conclusion"], run["id"]
    work_of(call).rerun(run, call.now())

    def finish(world: World) -> None:
        Work(world.__getitem__, world.ids).finish_run(run_id, conclusion, world.now())

    call.world.schedule(call.now() + RERUN_TAKES, finish)
    return Reply(201, {})


def _commit_of(call: Call, repo: Record) -> str:
    ref = call.params["ref"]
    sha = Repos(call.world.__getitem__).resolve(repo["full_name"], ref)
    if sha is None:
        raise GitHubError(
            422, f"No commit found for SHA: {ref}", documentation_url=f"{DOCS}/commits/commits#get-a-commit"
        )
    return sha


@ops("GET /repos/{owner}/{repo}/commits/{ref}/check-runs")
def list_check_runs(call: Call) -> Any:
    repo = repo_of(call)
    sha = _commit_of(call, repo)
    name, status = param(call, "check_name"), param(call, "status")
    checks = [
        c
        for c in call.world[CHECK_RUNS].by("head_sha", sha)
        if c["repository"] == repo["full_name"]
        and (name is None or c["name"] == name)
        and (status is None or c["status"] == status)
    ]
    work = work_of(call)
    return _wrapped(call, _newest_checks(checks), "check_runs", lambda c: work_views.check_run(call.base, work, c))


def _newest_checks(records: list[Record]) -> list[Record]:
    return sorted(records, key=lambda r: (r["started_at"], r["id"]), reverse=True)


@ops("GET /repos/{owner}/{repo}/commits/{ref}/status")
def combined_status(call: Call) -> Any:
    repo = repo_of(call)
    sha = _commit_of(call, repo)
    records = [s for s in call.world[STATUSES].by("sha", sha) if s["repository"] == repo["full_name"]]
    return work_views.combined_status(call.base, work_of(call), repo["full_name"], sha, records)


@ops("POST /repos/{owner}/{repo}/statuses/{sha}")
def create_status(call: Call) -> Any:
    repo = repo_of(call)
    body = call.fields
    state = body.get("state")
    if state not in _COMMIT_STATES:
        code = "missing_field" if state is None else "invalid"
        raise GitHubError(422, "Validation Failed", [{"resource": "Status", "code": code, "field": "state"}])
    target_url, description = (text_arg(call, "target_url"), text_arg(call, "description"))
    context = text_arg(call, "context") or "default"
    sha = call.params["sha"]
    if Repos(call.world.__getitem__).commit(sha) is None or len(sha) != 40:
        raise GitHubError(
            422, f"No commit found for SHA: {sha}", documentation_url=f"{DOCS}/commits/statuses#create-a-commit-status"
        )
    work = work_of(call)
    record = work.add_status(
        repo["full_name"], sha, state, context, call.login, call.now(), description=description, target_url=target_url
    )
    return created(work_views.status(call.base, work, record))


# -- deployments -------------------------------------------------------------------------------------


@ops("GET /repos/{owner}/{repo}/deployments")
def list_deployments(call: Call) -> Any:
    repo = repo_of(call)
    wanted = {k: param(call, k) for k in ("sha", "ref", "task", "environment") if param(call, k)}
    records = [
        d
        for d in call.world[DEPLOYMENTS].by("repository", repo["full_name"])
        if all(d[k] == v for k, v in wanted.items())
    ]
    work = work_of(call)
    return paginate(call, _newest(records), lambda d: work_views.deployment(call.base, work, d))


@ops("POST /repos/{owner}/{repo}/deployments")
def create_deployment(call: Call) -> Any:
    repo = repo_of(call)
    body = call.fields
    ref = text_arg(call, "ref")
    if not ref:
        raise GitHubError(
            422, "Validation Failed", [{"resource": "Deployment", "code": "missing_field", "field": "ref"}]
        )
    environment = text_arg(call, "environment") or "production"
    task = text_arg(call, "task") or "deploy"
    description = text_arg(call, "description")
    payload = body.get("payload", {})
    if not isinstance(payload, (dict, str)):
        raise type_error("payload", payload, "an object")
    sha = Repos(call.world.__getitem__).resolve(repo["full_name"], ref)
    if sha is None:
        raise GitHubError(
            422, f"No ref found for: {ref}", documentation_url=f"{DOCS}/deployments/deployments#create-a-deployment"
        )
    work = work_of(call)
    record = work.create_deployment(
        repo["full_name"],
        sha,
        ref,
        environment,
        call.login,
        call.now(),
        task=task,
        payload=payload,
        description=description,
    )
    return created(work_views.deployment(call.base, work, record))


def _deployment_of(call: Call) -> Record:
    return _by_id(call, DEPLOYMENTS, "deployment_id", "deployments/deployments#get-a-deployment")


@ops("GET /repos/{owner}/{repo}/deployments/{deployment_id}")
def get_deployment(call: Call) -> Any:
    return work_views.deployment(call.base, work_of(call), _deployment_of(call))


@ops("GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses")
def list_deployment_statuses(call: Call) -> Any:
    deployment = _deployment_of(call)
    records = _newest(call.world[DEPLOYMENT_STATUSES].by("deployment_id", deployment["id"]))
    work = work_of(call)
    return paginate(call, records, lambda s: work_views.deployment_status(call.base, work, s))


@ops("POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses")
def create_deployment_status(call: Call) -> Any:
    deployment = _deployment_of(call)
    state = call.fields.get("state")
    if state not in _DEPLOY_STATES:
        code = "missing_field" if state is None else "invalid"
        raise GitHubError(422, "Validation Failed", [{"resource": "DeploymentStatus", "code": code, "field": "state"}])
    extra = {
        name: text_arg(call, name)
        for name in ("description", "environment", "target_url", "log_url", "environment_url")
    }
    work = work_of(call)
    record = work.add_deployment_status(deployment, state, call.login, call.now(), **extra)
    return created(work_views.deployment_status(call.base, work, record))
