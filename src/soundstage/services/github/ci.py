"""Workflow runs, their check runs, commit statuses and releases, without HTTP.

Every run is one workflow (`CI`, `.github/workflows/ci.yml`, unless the world file names another) with one
job, whose check run carries its log. A rerun queues a new attempt with new check runs (GitHub's job ids);
`finish_run` completes it: as the first attempt ended, or passing from the attempt a flaky run passes on.
"""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import commits, repos
from .records import Records
from .store import CHECK_RUNS, RELEASES, STATUSES, TAGS, WORKFLOW_RUNS

RUN_TAKES = 90_000_000  # a job's run time, in microseconds


def workflows(records: Records, repo: str) -> list[Record]:
    """A repo's workflows, by id: each workflow its runs name, as it was when its first run began (the world
    holds no workflow files, so a workflow is known by its runs)."""
    found: dict[int, Record] = {}
    for run in sorted(records[WORKFLOW_RUNS].by("repository", repo), key=lambda r: (r["created_at"], r["id"])):
        found.setdefault(
            run["workflow_id"],
            {
                "id": run["workflow_id"],
                "repository": repo,
                "name": run["name"],
                "path": run["path"],
                "created_at": run["created_at"],
            },
        )
    return [found[k] for k in sorted(found)]


def workflow(records: Records, repo: str, ident: str) -> Record | None:
    """A workflow by its id or its file's name (`ci.yml`), as GitHub's `workflow_id` takes either."""
    return next((w for w in workflows(records, repo) if ident in (str(w["id"]), w["path"].rpartition("/")[2])), None)


def add_run(
    records: Records,
    repo: str,
    branch: str,
    sha: str,
    actor: str,
    at: int,
    conclusion: str = "success",
    **fields: Any,
) -> Record:
    """A completed workflow run (`workflow`, default `CI`) on a push to `branch` (or `event`), with its one
    job's check run (`job`, default `build`) and its `log`; `passes_on_attempt` and `passing_log` make the
    failure flaky: that attempt and later ones pass."""
    ident, node = records.new_id("WorkflowRun")
    commit = commits.commit(records.objects, sha)
    workflow = fields.get("workflow") or "CI"
    path = f".github/workflows/{workflow.lower().replace(' ', '-')}.yml"
    # A workflow is its file: the runs of one path share its id, numbered as they first ran.
    known = (r["workflow_id"] for r in records[WORKFLOW_RUNS].by("repository", repo) if r["path"] == path)
    workflow_id = next(known, None) or records.new_id("Workflow")[0]
    run = {
        "id": ident,
        "node_id": node,
        "repository": repo,
        "name": workflow,
        "path": path,
        "workflow_id": workflow_id,
        "check_suite_id": 30_000_000_000 + ident % 1_000_000_000,
        "head_branch": branch,
        "head_sha": sha,
        "display_title": commit["message"].split("\n")[0] if commit else branch,
        "run_number": records.ids.next(f"github:run_number:{repo}"),
        "run_attempt": 1,
        "event": fields.get("event") or "push",
        "status": "completed",
        "conclusion": conclusion,
        "first_conclusion": conclusion,
        "passes_on_attempt": fields.get("passes_on_attempt"),
        "passing_log": fields.get("passing_log"),
        "actor": actor,
        "created_at": at,
        "updated_at": at + RUN_TAKES,
        "run_started_at": at,
    }
    records[WORKFLOW_RUNS].add(str(ident), run)
    _add_check_run(records, run, fields.get("job") or "build", at, fields.get("log"))
    return run


def _add_check_run(records: Records, run: Record, name: str, at: int, log: str | None) -> Record:
    """The check run of a run's job in its current attempt (GitHub's job id is its check run's id)."""
    ident, node = records.new_id("CheckRun")
    done = run["status"] == "completed"
    record = {
        "id": ident,
        "node_id": node,
        "repository": run["repository"],
        "run_id": run["id"],
        "run_attempt": run["run_attempt"],
        "check_suite_id": run["check_suite_id"],
        "head_sha": run["head_sha"],
        "name": name,
        "status": run["status"],
        "conclusion": run["conclusion"],
        "external_id": str(run["id"]),
        "started_at": at,
        "completed_at": at + RUN_TAKES if done else None,
        "output": {"title": None, "summary": None, "text": None},
        "log": log if log is not None or not done else _ended(name, run["conclusion"]),
    }
    return records[CHECK_RUNS].add(str(ident), record)


def _ended(job: str, conclusion: str) -> str:
    """The log of a job the world file gave none: one line saying how it ended."""
    return f"Job {job} completed with conclusion {conclusion}.\n"


def jobs(records: Records, run: Record, attempt: int | None = None) -> list[Record]:
    """The jobs (check runs) of one attempt of a run (default: the latest), in the order they were made."""
    wanted = run["run_attempt"] if attempt is None else attempt
    return sorted(
        (c for c in records[CHECK_RUNS].by("run_id", run["id"]) if c["run_attempt"] == wanted), key=lambda c: c["id"]
    )


def all_jobs(records: Records, run: Record) -> list[Record]:
    """The jobs of every attempt of a run, oldest attempt first."""
    return sorted(records[CHECK_RUNS].by("run_id", run["id"]), key=lambda c: (c["run_attempt"], c["id"]))


def latest(records: Records, checks: list[Record]) -> list[Record]:
    """Of some check runs, those of their run's latest attempt (GitHub's `filter=latest`)."""
    runs = {c["run_id"]: records[WORKFLOW_RUNS].get(str(c["run_id"])) for c in checks}
    return [c for c in checks if c["run_attempt"] == (runs[c["run_id"]] or {}).get("run_attempt")]


def rerun(records: Records, run: Record, at: int, only: set[int] | None = None) -> Record:
    """A new attempt of a run, queued now: its jobs start again, or with `only` (the job ids to run again)
    the others are carried into the attempt as they ended, as GitHub carries them."""
    before = jobs(records, run)
    run = records[WORKFLOW_RUNS].change(
        str(run["id"]),
        run_attempt=run["run_attempt"] + 1,
        status="queued",
        conclusion=None,
        updated_at=at,
        run_started_at=at,
    )
    for job in before:
        again = only is None or job["id"] in only
        ident, node = records.new_id("CheckRun")
        carried = {"started_at": job["started_at"], "completed_at": job["completed_at"]}
        fresh = {"status": "queued", "conclusion": None, "started_at": at, "completed_at": None, "log": None}
        records[CHECK_RUNS].add(
            str(ident),
            {**job, "id": ident, "node_id": node, "run_attempt": run["run_attempt"], **(fresh if again else carried)},
        )
    return run


def finish_run(records: Records, run_id: int, at: int) -> None:
    """Completes the latest attempt of a run: each job run again ends as it first did (the code did not
    change), or passes from the attempt a flaky run passes on; the run concludes as its worst job."""
    run = records[WORKFLOW_RUNS].get(str(run_id))
    assert run is not None
    passes = run["passes_on_attempt"] is not None and run["run_attempt"] >= run["passes_on_attempt"]
    ended = []
    for job in jobs(records, run):
        if job["status"] == "completed":
            ended.append(job["conclusion"])
            continue
        conclusion = "success" if passes else run["first_conclusion"]
        first = jobs(records, run, 1)
        log = run["passing_log"] if passes else next((j["log"] for j in first if j["name"] == job["name"]), None)
        records[CHECK_RUNS].change(
            str(job["id"]),
            status="completed",
            conclusion=conclusion,
            completed_at=at,
            log=log if log is not None else _ended(job["name"], conclusion),
        )
        ended.append(conclusion)
    worst = next((c for c in ended if c != "success"), "success")
    records[WORKFLOW_RUNS].change(str(run_id), status="completed", conclusion=worst, updated_at=at)


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


def latest_release(records: Records, repo: str) -> Record | None:
    """The release GitHub calls latest: the most recently published one that is neither a draft nor a
    prerelease."""
    published = [r for r in records[RELEASES].by("repository", repo) if not r["draft"] and not r["prerelease"]]
    return max(published, key=lambda r: (r["published_at"], r["id"]), default=None)


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
