"""Releases, workflow runs, check runs, commit statuses and deployments: one function per operation.

A rerun (of a run, of its failed jobs, of one job) queues a new attempt that completes two simulated minutes later as
`ci.finish_run` decides: as the first attempt ended (the code did not change), or passing from the attempt a flaky run
passes on. A job's log is a redirect to its plain text, as on GitHub. A deployment to `production` deploys its ref: the
repo's `production` commit moves there, which is what faults watch.
"""

from __future__ import annotations

import re
from typing import Any

from ...clock import US
from ...world import Record, World
from ..base import Reply
from . import ci, commits, deployments, repos, views_ci
from .calls import Call, created, ops, paginate
from .errors import DOCS, GitHubError, invalid, not_found, type_error
from .records import Records
from .store import CHECK_RUNS, DEPLOYMENT_STATUSES, DEPLOYMENTS, RELEASES, STATUSES, TAGS, WORKFLOW_RUNS

RERUN_TAKES = 120 * US
LOG_DOWNLOAD = "download"  # the last step of the path a job's log redirect leads to
_FAILED = ("failure", "cancelled", "timed_out")
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
    repo = call.repo()
    found = _newest(call.world[RELEASES].by("repository", repo["full_name"]))
    return paginate(call, found, lambda r: views_ci.release(call.base, call.records, r))


@ops("POST /repos/{owner}/{repo}/releases")
def create_release(call: Call) -> Any:
    repo = call.repo()
    full = repo["full_name"]
    tag = call.required_text("tag_name")
    target = call.text("target_commitish") or repo["default_branch"]
    name, text = call.text("name"), call.text("body")
    draft, prerelease = call.boolean("draft"), call.boolean("prerelease")
    if any(r["tag_name"] == tag for r in call.world[RELEASES].by("repository", full)):
        raise invalid("Release", "tag_name", "already_exists")
    tagged = repos.ref(call.records, full, TAGS + tag) is not None
    if not tagged and repos.resolve(call.records, full, target) is None:
        raise invalid("Release", "target_commitish")
    record = ci.add_release(
        call.records,
        full,
        tag,
        target,
        call.login,
        call.now(),
        name=name,
        body=text,
        draft=draft,
        prerelease=prerelease,
    )
    return created(views_ci.release(call.base, call.records, record))


@ops("GET /repos/{owner}/{repo}/releases/{release_id}")
def get_release(call: Call) -> Any:
    docs = f"{DOCS}/releases/releases#get-a-release"
    return views_ci.release(call.base, call.records, call.by_id(call.repo(), RELEASES, "release_id", docs))


@ops("GET /repos/{owner}/{repo}/releases/tags/{tag}")
def get_release_by_tag(call: Call) -> Any:
    """A published release by its tag: a draft has no tag yet, so GitHub answers 404 for it."""
    repo = call.repo()
    tag = call.params["tag"]
    found = [
        r for r in call.world[RELEASES].by("repository", repo["full_name"]) if r["tag_name"] == tag and not r["draft"]
    ]
    if not found:
        raise not_found(f"{DOCS}/releases/releases#get-a-release-by-tag-name")
    return views_ci.release(call.base, call.records, found[0])


@ops("GET /repos/{owner}/{repo}/tags")
def list_tags(call: Call) -> Any:
    repo = call.repo()
    full = repo["full_name"]
    found = sorted(repos.refs(call.records, full, "tags/"), key=lambda r: _version(r["ref"]), reverse=True)
    return paginate(
        call, found, lambda r: views_ci.tag(call.base, repo, r, repos.resolve(call.records, full, r["ref"]))
    )


def _version(ref: str) -> list[tuple[int, str]]:
    """A tag name's sort key: its runs of digits as numbers, so `v1.10.0` comes after `v1.9.0`."""
    return [(int(part), "") if part.isdigit() else (-1, part) for part in re.split(r"(\d+)", ref) if part]


@ops("GET /repos/{owner}/{repo}/releases/latest")
def latest_release(call: Call) -> Any:
    latest = ci.latest_release(call.records, call.repo()["full_name"])
    if latest is None:
        raise not_found(f"{DOCS}/releases/releases#get-the-latest-release")
    return views_ci.release(call.base, call.records, latest)


# -- workflow runs and checks ------------------------------------------------------------------------


@ops("GET /repos/{owner}/{repo}/actions/workflows")
def list_workflows(call: Call) -> Any:
    found = ci.workflows(call.records, call.repo()["full_name"])
    return _wrapped(call, found, "workflows", lambda w: views_ci.workflow(call.base, call.records, w))


def _workflow_of(call: Call, docs: str) -> Record:
    found = ci.workflow(call.records, call.repo()["full_name"], call.params["workflow_id"])
    if found is None:
        raise not_found(f"{DOCS}/actions/{docs}")
    return found


@ops("GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}")
def get_workflow(call: Call) -> Any:
    return views_ci.workflow(call.base, call.records, _workflow_of(call, "workflows#get-a-workflow"))


@ops("GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs")
def list_workflow_runs(call: Call) -> Any:
    found = _workflow_of(call, "workflow-runs#list-workflow-runs-for-a-workflow")
    return _runs(call, call.repo(), found["id"])


@ops("GET /repos/{owner}/{repo}/actions/runs")
def list_runs(call: Call) -> Any:
    return _runs(call, call.repo(), None)


def _runs(call: Call, repo: Record, workflow_id: int | None) -> Reply:
    """The repo's runs (of one workflow), newest first, by the filters both list operations take."""
    status = call.param("status")
    if status is not None and status not in _RUN_STATUSES + _CONCLUSIONS:
        raise GitHubError(422, "Validation Failed", [{"resource": "WorkflowRun", "field": "status", "code": "invalid"}])
    wanted = {k: call.param(k) for k in ("branch", "event", "head_sha", "actor") if call.param(k)}
    names = {"branch": "head_branch", "event": "event", "head_sha": "head_sha", "actor": "actor"}
    runs = [
        r
        for r in call.world[WORKFLOW_RUNS].by("repository", repo["full_name"])
        if all(r[names[k]] == v for k, v in wanted.items())
        and workflow_id in (None, r["workflow_id"])
        and (status is None or r["status"] == status or r["conclusion"] == status)
    ]
    return _wrapped(call, _newest(runs), "workflow_runs", lambda r: views_ci.workflow_run(call.base, call.records, r))


def _run_of(call: Call) -> Record:
    return call.by_id(call.repo(), WORKFLOW_RUNS, "run_id", f"{DOCS}/actions/workflow-runs#re-run-a-workflow")


@ops("GET /repos/{owner}/{repo}/actions/runs/{run_id}")
def get_run(call: Call) -> Any:
    return views_ci.workflow_run(call.base, call.records, _run_of(call))


@ops("POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun")
def rerun(call: Call) -> Any:
    return _rerun(call, _run_of(call), None)


@ops("POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun-failed-jobs")
def rerun_failed_jobs(call: Call) -> Any:
    run = _run_of(call)
    return _rerun(call, run, {j["id"] for j in ci.jobs(call.records, run) if j["conclusion"] in _FAILED})


@ops("POST /repos/{owner}/{repo}/actions/jobs/{job_id}/rerun")
def rerun_job(call: Call) -> Any:
    job = _job_of(call)
    run = call.world[WORKFLOW_RUNS].get(str(job["run_id"]))
    assert run is not None
    if job["run_attempt"] != run["run_attempt"]:  # a job of an earlier attempt is not the run's any more
        raise GitHubError(
            403,
            "This job cannot be re-run",
            documentation_url=f"{DOCS}/actions/workflow-runs#re-run-a-job-from-a-workflow-run",
        )
    return _rerun(call, run, {job["id"]})


def _rerun(call: Call, run: Record, only: set[int] | None) -> Reply:
    """A new attempt of `run`, finishing `RERUN_TAKES` later (`ci.finish_run` decides how)."""
    if run["status"] != "completed":
        raise GitHubError(
            403, "This workflow is already running", documentation_url=f"{DOCS}/actions/workflow-runs#re-run-a-workflow"
        )
    for name in ("enable_debug_logging", "enable_debugger"):
        call.boolean(name)
    run_id = run["id"]
    ci.rerun(call.records, run, call.now(), only)

    def finish(world: World) -> None:
        ci.finish_run(Records.live(world), run_id, world.now())

    call.world.schedule(call.now() + RERUN_TAKES, finish)
    return Reply(201, {})


# -- jobs and their logs -----------------------------------------------------------------------------


def _job_of(call: Call) -> Record:
    return call.by_id(call.repo(), CHECK_RUNS, "job_id", f"{DOCS}/actions/workflow-jobs#get-a-job-for-a-workflow-run")


@ops("GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs")
def list_jobs(call: Call) -> Any:
    run = _run_of(call)
    which = call.one_of("filter", ("latest", "all"), "latest", resource="WorkflowJob")
    found = ci.jobs(call.records, run) if which == "latest" else ci.all_jobs(call.records, run)
    return _wrapped(call, found, "jobs", lambda j: views_ci.job(call.base, call.records, j))


@ops("GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs")
def list_attempt_jobs(call: Call) -> Any:
    run = _run_of(call)
    raw = call.params["attempt_number"]
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= run["run_attempt"]:
        raise not_found(f"{DOCS}/actions/workflow-jobs#list-jobs-for-a-workflow-run-attempt")
    found = ci.jobs(call.records, run, int(raw))
    return _wrapped(call, found, "jobs", lambda j: views_ci.job(call.base, call.records, j))


@ops("GET /repos/{owner}/{repo}/actions/jobs/{job_id}")
def get_job(call: Call) -> Any:
    return views_ci.job(call.base, call.records, _job_of(call))


@ops("GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs")
def job_logs(call: Call) -> Any:
    """GitHub answers a redirect to a download of the log as plain text; a job still running has none yet."""
    repo = call.repo()
    job = _job_of(call)
    if job["log"] is None:
        raise not_found(f"{DOCS}/actions/workflow-jobs#download-job-logs-for-a-workflow-run")
    location = f"{call.base}/repos/{repo['full_name']}/actions/jobs/{job['id']}/logs/{LOG_DOWNLOAD}"
    return Reply(302, None, headers={"Location": location})


@ops("GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs/" + LOG_DOWNLOAD)
def download_job_log(call: Call) -> Any:
    """Where a job's log redirect leads (on GitHub, a signed link to its log storage): the log's lines,
    each stamped with its time as GitHub's runner writes them."""
    job = _job_of(call)
    if job["log"] is None:
        raise not_found(f"{DOCS}/actions/workflow-jobs#download-job-logs-for-a-workflow-run")
    return Reply(200, views_ci.log_text(job), headers={"Content-Type": "text/plain; charset=utf-8"})


@ops("GET /repos/{owner}/{repo}/commits/{ref}/check-runs")
def list_check_runs(call: Call) -> Any:
    repo = call.repo()
    sha = call.ref_sha(repo)
    name, status = call.param("check_name"), call.param("status")
    which = call.one_of("filter", ("latest", "all"), "latest", resource="CheckRun")
    checks = [
        c
        for c in call.world[CHECK_RUNS].by("head_sha", sha)
        if c["repository"] == repo["full_name"]
        and (name is None or c["name"] == name)
        and (status is None or c["status"] == status)
    ]
    if which == "latest":
        checks = ci.latest(call.records, checks)
    newest = sorted(checks, key=lambda r: (r["started_at"], r["id"]), reverse=True)
    return _wrapped(call, newest, "check_runs", lambda c: views_ci.check_run(call.base, call.records, c))


@ops("GET /repos/{owner}/{repo}/commits/{ref}/status")
def combined_status(call: Call) -> Any:
    repo = call.repo()
    sha = call.ref_sha(repo)
    found = [s for s in call.world[STATUSES].by("sha", sha) if s["repository"] == repo["full_name"]]
    return views_ci.combined_status(call.base, call.records, repo["full_name"], sha, found)


@ops("POST /repos/{owner}/{repo}/statuses/{sha}")
def create_status(call: Call) -> Any:
    repo = call.repo()
    state = call.fields.get("state")
    if state not in _COMMIT_STATES:
        code = "missing_field" if state is None else "invalid"
        raise GitHubError(422, "Validation Failed", [{"resource": "Status", "code": code, "field": "state"}])
    target_url, description = (call.text("target_url"), call.text("description"))
    context = call.text("context") or "default"
    sha = call.params["sha"]
    if commits.commit(call.records.objects, sha) is None or len(sha) != 40:
        raise GitHubError(
            422, f"No commit found for SHA: {sha}", documentation_url=f"{DOCS}/commits/statuses#create-a-commit-status"
        )
    record = ci.add_status(
        call.records,
        repo["full_name"],
        sha,
        state,
        context,
        call.login,
        call.now(),
        description=description,
        target_url=target_url,
    )
    return created(views_ci.status(call.base, call.records, record))


# -- deployments -------------------------------------------------------------------------------------


@ops("GET /repos/{owner}/{repo}/deployments")
def list_deployments(call: Call) -> Any:
    repo = call.repo()
    wanted = {k: call.param(k) for k in ("sha", "ref", "task", "environment") if call.param(k)}
    found = [
        d
        for d in call.world[DEPLOYMENTS].by("repository", repo["full_name"])
        if all(d[k] == v for k, v in wanted.items())
    ]
    return paginate(call, _newest(found), lambda d: views_ci.deployment(call.base, call.records, d))


@ops("POST /repos/{owner}/{repo}/deployments")
def create_deployment(call: Call) -> Any:
    repo = call.repo()
    ref = call.text("ref")
    if not ref:
        raise GitHubError(
            422, "Validation Failed", [{"resource": "Deployment", "code": "missing_field", "field": "ref"}]
        )
    environment = call.text("environment") or "production"
    task = call.text("task") or "deploy"
    description = call.text("description")
    payload = call.fields.get("payload", {})
    if not isinstance(payload, (dict, str)):
        raise type_error("payload", payload, "an object")
    sha = repos.resolve(call.records, repo["full_name"], ref)
    if sha is None:
        raise GitHubError(
            422, f"No ref found for: {ref}", documentation_url=f"{DOCS}/deployments/deployments#create-a-deployment"
        )
    record = deployments.create_deployment(
        call.records,
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
    return created(views_ci.deployment(call.base, call.records, record))


def _deployment_of(call: Call) -> Record:
    return call.by_id(call.repo(), DEPLOYMENTS, "deployment_id", f"{DOCS}/deployments/deployments#get-a-deployment")


@ops("GET /repos/{owner}/{repo}/deployments/{deployment_id}")
def get_deployment(call: Call) -> Any:
    return views_ci.deployment(call.base, call.records, _deployment_of(call))


@ops("GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses")
def list_deployment_statuses(call: Call) -> Any:
    deployment = _deployment_of(call)
    found = _newest(call.world[DEPLOYMENT_STATUSES].by("deployment_id", deployment["id"]))
    return paginate(call, found, lambda s: views_ci.deployment_status(call.base, call.records, s))


@ops("POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses")
def create_deployment_status(call: Call) -> Any:
    deployment = _deployment_of(call)
    state = call.fields.get("state")
    if state not in _DEPLOY_STATES:
        code = "missing_field" if state is None else "invalid"
        raise GitHubError(422, "Validation Failed", [{"resource": "DeploymentStatus", "code": code, "field": "state"}])
    extra = {
        name: call.text(name) for name in ("description", "environment", "target_url", "log_url", "environment_url")
    }
    record = deployments.add_deployment_status(call.records, deployment, state, call.login, call.now(), **extra)
    return created(views_ci.deployment_status(call.base, call.records, record))
