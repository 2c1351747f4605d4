"""Workflow runs, their check runs, commit statuses and releases, without HTTP.

Every run is the repo's `CI` workflow (`.github/workflows/ci.yml`) with one `build` check run. A rerun
queues a new attempt; `finish_run` completes it.
"""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import commits, repos
from .records import Records
from .store import CHECK_RUNS, RELEASES, STATUSES, TAGS, WORKFLOW_RUNS


def add_run(
    records: Records, repo: str, branch: str, sha: str, actor: str, at: int, conclusion: str = "success"
) -> Record:
    """A completed `CI` workflow run on a push to `branch`, with its one `build` check run."""
    ident, node = records.new_id("WorkflowRun")
    commit = commits.commit(records.objects, sha)
    run = {
        "id": ident,
        "node_id": node,
        "repository": repo,
        "name": "CI",
        "path": ".github/workflows/ci.yml",
        "workflow_id": 160_000_000 + sum(map(ord, repo)),
        "check_suite_id": 30_000_000_000 + ident % 1_000_000_000,
        "head_branch": branch,
        "head_sha": sha,
        "display_title": commit["message"].split("\n")[0] if commit else branch,
        "run_number": records.ids.next(f"github:run_number:{repo}"),
        "run_attempt": 1,
        "event": "push",
        "status": "completed",
        "conclusion": conclusion,
        "actor": actor,
        "created_at": at,
        "updated_at": at + 90_000_000,
        "run_started_at": at,
    }
    records[WORKFLOW_RUNS].add(str(ident), run)
    _add_check_run(records, run, at)
    return run


def _add_check_run(records: Records, run: Record, at: int) -> Record:
    ident, node = records.new_id("CheckRun")
    done = run["status"] == "completed"
    record = {
        "id": ident,
        "node_id": node,
        "repository": run["repository"],
        "run_id": run["id"],
        "check_suite_id": run["check_suite_id"],
        "head_sha": run["head_sha"],
        "name": "build",
        "status": run["status"],
        "conclusion": run["conclusion"],
        "external_id": str(run["id"]),
        "started_at": at,
        "completed_at": at + 90_000_000 if done else None,
        "output": {"title": None, "summary": None, "text": None},
    }
    return records[CHECK_RUNS].add(str(ident), record)


def rerun(records: Records, run: Record, at: int) -> Record:
    """A new attempt of a run: queued now; its check run starts again."""
    run = records[WORKFLOW_RUNS].change(
        str(run["id"]),
        run_attempt=run["run_attempt"] + 1,
        status="queued",
        conclusion=None,
        updated_at=at,
        run_started_at=at,
    )
    for check in records[CHECK_RUNS].by("run_id", run["id"]):
        records[CHECK_RUNS].change(str(check["id"]), status="queued", conclusion=None, started_at=at, completed_at=None)
    return run


def finish_run(records: Records, run_id: int, conclusion: str, at: int) -> None:
    """Completes a run and its check runs."""
    records[WORKFLOW_RUNS].change(str(run_id), status="completed", conclusion=conclusion, updated_at=at)
    for check in records[CHECK_RUNS].by("run_id", run_id):
        records[CHECK_RUNS].change(str(check["id"]), status="completed", conclusion=conclusion, completed_at=at)


def add_status(
    records: Records, repo: str, sha: str, state: str, context: str, login: str, at: int, **fields: Any
) -> Record:
    ident, node = records.new_id("StatusContext")
    record = {
        "id": ident,
        "node_id": node,
        "repository": repo,
        "sha": sha,
        "state": state,
        "context": context,
        "description": fields.get("description"),
        "target_url": fields.get("target_url"),
        "creator": login,
        "created_at": at,
        "updated_at": at,
    }
    return records[STATUSES].add(str(ident), record)


def add_release(records: Records, repo: str, tag: str, target: str, login: str, at: int, **fields: Any) -> Record:
    """A release; one that is not a draft tags `target` (a branch or a commit) with `tag_name` unless the
    tag exists already, as publishing a release does."""
    ident, node = records.new_id("Release")
    sha = repos.resolve(records, repo, target)
    if not fields.get("draft") and sha is not None and repos.ref(records, repo, TAGS + tag) is None:
        repos.set_ref(records, repo, TAGS + tag, sha)
    record = {
        "id": ident,
        "node_id": node,
        "repository": repo,
        "tag_name": tag,
        "target_commitish": target,
        "name": fields.get("name") or tag,
        "body": fields.get("body"),
        "draft": bool(fields.get("draft")),
        "prerelease": bool(fields.get("prerelease")),
        "author": login,
        "created_at": at,
        "published_at": None if fields.get("draft") else at,
    }
    return records[RELEASES].add(str(ident), record)
