"""Workflow runs, check runs, commit statuses and releases on the acme world (one seeded `CI` run per
branch head: main, fix-totals-cache, cache-off), through githubkit, PyGithub and raw HTTP."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from soundstage.services.github import ci
from soundstage.services.github.records import Records

from .conftest import GitHubWorld


@pytest.fixture
def acme(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(scene="merge-right-pr"))


def ref(world: GitHubWorld, name: str) -> str:
    return world.live.world.refs[name]


def test_list_runs(acme: GitHubWorld) -> None:
    kit = acme.kit()
    runs = kit.rest.actions.list_workflow_runs_for_repo("acme", "orders").parsed_data
    assert runs.total_count == 3
    assert [(r.head_branch, r.status, r.conclusion, r.run_number) for r in runs.workflow_runs] == [
        ("cache-off", "completed", "success", 3),
        ("fix-totals-cache", "completed", "success", 2),
        ("main", "completed", "success", 1),
    ]
    main = runs.workflow_runs[2]
    assert main.head_sha == ref(acme, "release_commit")
    assert (main.name, main.path, main.event, main.display_title) == (
        "CI",
        ".github/workflows/ci.yml",
        "push",
        "Release 1.4.0",
    )
    assert main.actor.login == "maya"
    assert main.url == f"{acme.url}/repos/acme/orders/actions/runs/{main.id}"
    assert main.head_commit.id == ref(acme, "release_commit")
    only = kit.rest.actions.list_workflow_runs_for_repo("acme", "orders", branch="main").parsed_data
    assert [r.id for r in only.workflow_runs] == [main.id]
    assert kit.rest.actions.list_workflow_runs_for_repo("acme", "orders", status="failure").parsed_data.total_count == 0
    page = acme.raw("GET", "/repos/acme/orders/actions/runs", params={"per_page": 1})
    assert page.json()["total_count"] == 3 and len(page.json()["workflow_runs"]) == 1
    assert 'rel="last"' in page.headers["Link"]


def test_rerun_queues_then_completes(acme: GitHubWorld) -> None:
    kit = acme.kit()
    run = kit.rest.actions.list_workflow_runs_for_repo("acme", "orders", branch="main").parsed_data.workflow_runs[0]
    response = acme.raw("POST", f"/repos/acme/orders/actions/runs/{run.id}/rerun")
    assert (response.status_code, response.json()) == (201, {})
    again = kit.rest.actions.get_workflow_run("acme", "orders", run.id).parsed_data
    assert (again.status, again.conclusion, again.run_attempt) == ("queued", None, 2)
    assert again.previous_attempt_url == f"{acme.url}/repos/acme/orders/actions/runs/{run.id}/attempts/1"
    busy = acme.raw("POST", f"/repos/acme/orders/actions/runs/{run.id}/rerun")
    assert (busy.status_code, busy.json()["message"]) == (403, "This workflow is already running")
    checks = kit.rest.checks.list_for_ref("acme", "orders", "main").parsed_data.check_runs
    assert [(c.status, c.conclusion) for c in checks] == [("queued", None)]
    acme.live.advance("2m")
    done = kit.rest.actions.get_workflow_run("acme", "orders", run.id).parsed_data
    assert (done.status, done.conclusion) == ("completed", "success")
    checks = kit.rest.checks.list_for_ref("acme", "orders", "main").parsed_data.check_runs
    assert [(c.status, c.conclusion) for c in checks] == [("completed", "success")]
    assert acme.raw("POST", "/repos/acme/orders/actions/runs/12/rerun").status_code == 404


def test_check_runs(acme: GitHubWorld) -> None:
    kit = acme.kit()
    found = kit.rest.checks.list_for_ref("acme", "orders", "fix-totals-cache").parsed_data
    assert found.total_count == 1
    check = found.check_runs[0]
    assert (check.name, check.status, check.conclusion, check.head_sha) == (
        "build",
        "completed",
        "success",
        ref(acme, "fix_commit"),
    )
    assert check.app.slug == "github-actions"
    assert check.completed_at == datetime(2026, 3, 2, 12, 2, 30, tzinfo=UTC)
    by_sha = kit.rest.checks.list_for_ref("acme", "orders", ref(acme, "fix_commit")).parsed_data
    assert [c.id for c in by_sha.check_runs] == [check.id]
    assert kit.rest.checks.list_for_ref("acme", "orders", "main", check_name="lint").parsed_data.total_count == 0
    missing = acme.raw("GET", "/repos/acme/orders/commits/nope/check-runs")
    assert (missing.status_code, missing.json()["message"]) == (422, "No commit found for SHA: nope")
    commit = acme.py().get_repo("acme/orders").get_commit(ref(acme, "fix_commit"))
    assert [c.conclusion for c in commit.get_check_runs()] == ["success"]


def test_commit_statuses(acme: GitHubWorld) -> None:
    kit = acme.kit()
    sha = ref(acme, "release_commit")
    empty = kit.rest.repos.get_combined_status_for_ref("acme", "orders", "main").parsed_data
    assert (empty.state, empty.total_count, empty.sha) == ("pending", 0, sha)
    commit = acme.py().get_repo("acme/orders").get_commit(sha)
    made = commit.create_status(
        "pending", target_url="https://ci.acme.test/1", description="running", context="ci/tests"
    )
    assert (made.creator.login, made.state) == ("stagebot", "pending")
    lint = kit.rest.repos.create_commit_status("acme", "orders", sha, state="pending", context="ci/lint").parsed_data
    assert lint.creator is not None and lint.creator.login == "stagebot"
    commit.create_status("success", description="passed", context="ci/tests")
    commit.create_status("success", context="ci/lint")
    combined = kit.rest.repos.get_combined_status_for_ref("acme", "orders", "main").parsed_data
    assert (combined.state, combined.total_count) == ("success", 2)
    assert [(s.context, s.state, s.description) for s in combined.statuses] == [
        ("ci/lint", "success", None),
        ("ci/tests", "success", "passed"),
    ]
    assert combined.repository.full_name == "acme/orders"
    listed = acme.raw("GET", "/repos/acme/orders/commits/main/status").json()["statuses"]
    assert ["creator" in s for s in listed] == [False, False]  # a simple-commit-status has none
    commit.create_status("failure", context="ci/lint")
    assert commit.get_combined_status().state == "failure"
    bad = acme.raw("POST", f"/repos/acme/orders/statuses/{sha}", json={"state": "green"})
    assert bad.json()["errors"] == [{"resource": "Status", "code": "invalid", "field": "state"}]
    unknown = acme.raw("POST", f"/repos/acme/orders/statuses/{'0' * 40}", json={"state": "success"})
    assert unknown.status_code == 422


def test_releases(acme: GitHubWorld) -> None:
    kit = acme.kit()
    # the world file's releases: v1.3.0 nine days and v1.4.0 two days before the clock start
    latest = kit.rest.repos.get_latest_release("acme", "orders").parsed_data
    assert (latest.tag_name, latest.name, latest.author.login, latest.target_commitish) == (
        "v1.4.0",
        "1.4.0",
        "alex",
        ref(acme, "release_commit"),
    )
    assert latest.published_at == datetime(2026, 2, 28, 14, 0, 0, tzinfo=UTC)
    assert latest.html_url == "https://github.com/acme/orders/releases/tag/v1.4.0"
    world = acme.live.world
    ci.add_release(Records.live(world), "acme/orders", "v1.5.0-rc1", "main", "maya", world.now(), prerelease=True)
    listed = kit.rest.repos.list_releases("acme", "orders").parsed_data
    assert [r.tag_name for r in listed] == ["v1.5.0-rc1", "v1.4.0", "v1.3.0"]
    assert acme.py().get_repo("acme/orders").get_latest_release().tag_name == "v1.4.0"  # not the prerelease
    none = acme.raw("GET", "/repos/acme/orders-web/releases/latest")
    assert (none.status_code, none.json()["message"]) == (404, "Not Found")


RUNS = """
name: ci-runs
task: t
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {github_user: $bot_gh}
seed:
  github:
    users:
      - {ref: bot_gh, login: stagebot}
      - {ref: maya_gh, login: maya, email: maya@acme.test}
    repos:
      - full_name: acme/app
        files: {app.py: "x = 1\\n"}
        commits:
          - {ref: flaky_commit, message: Retry the payment client, author: $maya_gh, files: {app.py: "x = 2\\n"}}
          - {ref: broken_commit, message: Rename totals, parent: $flaky_commit, files: {app.py: "x = 3\\n"}}
        branches: {main: $flaky_commit, retry: $flaky_commit, rename: $broken_commit}
        runs:
          - ref: flaky_run
            branch: retry
            event: pull_request
            job: test
            conclusion: failure
            log: |
              ##[group]Run pytest
              tests/test_payments.py::test_charge FAILED
              E   ConnectionResetError: [Errno 104] Connection reset by peer
              ##[error]Process completed with exit code 1.
            flaky: {passes_on_attempt: 2, log: "tests passed\\n"}
          - ref: broken_run
            branch: rename
            workflow: Tests
            job: test
            conclusion: failure
            ago: 30m
            log: |
              E   AttributeError: module 'app' has no attribute 'order_total'
"""


@pytest.fixture
def runs(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(RUNS))


def test_seeded_runs_fail_with_their_logs(runs: GitHubWorld) -> None:
    kit = runs.kit()
    listed = kit.rest.actions.list_workflow_runs_for_repo("acme", "app").parsed_data.workflow_runs
    assert [(r.name, r.head_branch, r.event, r.conclusion, r.run_number) for r in listed] == [
        ("Tests", "rename", "push", "failure", 3),  # 30 minutes before the start: the last to run
        ("CI", "retry", "pull_request", "failure", 2),
        ("CI", "main", "push", "success", 1),  # the head no listed run ran on gets the default run
    ]
    assert listed[0].path == ".github/workflows/tests.yml" and listed[0].id == int(runs.live.world.refs["broken_run"])
    flaky = int(runs.live.world.refs["flaky_run"])
    jobs = kit.rest.actions.list_jobs_for_workflow_run("acme", "app", flaky).parsed_data
    assert jobs.total_count == 1
    job = jobs.jobs[0]
    assert (job.name, job.conclusion, job.run_attempt, job.workflow_name, job.head_branch) == (
        "test",
        "failure",
        1,
        "CI",
        "retry",
    )
    assert [(s.name, s.conclusion) for s in job.steps or []] == [
        ("Set up job", "success"),
        ("Run test", "failure"),
        ("Complete job", "success"),
    ]
    assert kit.rest.actions.get_job_for_workflow_run("acme", "app", job.id).parsed_data.id == job.id
    check = kit.rest.checks.list_for_ref("acme", "app", "retry").parsed_data.check_runs[0]
    assert (check.id, check.name, check.conclusion) == (job.id, "test", "failure")  # a job is its check run
    redirect = runs.raw("GET", f"/repos/acme/app/actions/jobs/{job.id}/logs")
    location = f"{runs.url}/repos/acme/app/actions/jobs/{job.id}/logs/download"
    assert (redirect.status_code, redirect.headers["Location"], redirect.content) == (302, location, b"")
    log = runs.live.http.get(location, headers={"User-Agent": "curl"})  # as a signed link, it needs no token
    assert log.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert log.text.splitlines() == [
        "2026-03-02T12:01:00.0000000Z ##[group]Run pytest",
        "2026-03-02T12:01:00.1000000Z tests/test_payments.py::test_charge FAILED",
        "2026-03-02T12:01:00.2000000Z E   ConnectionResetError: [Errno 104] Connection reset by peer",
        "2026-03-02T12:01:00.3000000Z ##[error]Process completed with exit code 1.",
    ]
    followed = kit.rest.actions.download_job_logs_for_workflow_run("acme", "app", job.id)
    assert "ConnectionResetError" in followed.text
    py_job = runs.py().get_repo("acme/app").get_workflow_run(flaky).jobs()[0]
    assert py_job.logs_url() == location
    default = kit.rest.actions.list_jobs_for_workflow_run("acme", "app", listed[2].id).parsed_data.jobs[0]
    assert runs.raw("GET", f"/repos/acme/app/actions/jobs/{default.id}/logs/download").text.endswith(
        "Job build completed with conclusion success.\n"
    )


def test_a_flaky_run_passes_when_run_again_and_a_real_failure_does_not(runs: GitHubWorld) -> None:
    kit = runs.kit()
    flaky, broken = (int(runs.live.world.refs[r]) for r in ("flaky_run", "broken_run"))
    assert runs.raw("POST", f"/repos/acme/app/actions/runs/{flaky}/rerun-failed-jobs").status_code == 201
    assert runs.py().get_repo("acme/app").get_workflow_run(broken).rerun_failed_jobs()
    queued = kit.rest.actions.get_workflow_run("acme", "app", flaky).parsed_data
    assert (queued.status, queued.run_attempt) == ("queued", 2)
    pending = kit.rest.actions.list_jobs_for_workflow_run("acme", "app", flaky).parsed_data.jobs[0]
    assert (pending.status, pending.conclusion, pending.run_attempt) == ("queued", None, 2)
    assert runs.raw("GET", f"/repos/acme/app/actions/jobs/{pending.id}/logs").status_code == 404  # none yet
    runs.live.advance("2m")
    done = kit.rest.actions.get_workflow_run("acme", "app", flaky).parsed_data
    assert (done.status, done.conclusion) == ("completed", "success")
    again = kit.rest.actions.get_workflow_run("acme", "app", broken).parsed_data
    assert (again.conclusion, again.run_attempt) == ("failure", 2)
    every = kit.rest.actions.list_jobs_for_workflow_run("acme", "app", flaky, filter_="all").parsed_data.jobs
    assert [(j.run_attempt, j.conclusion) for j in every] == [(1, "failure"), (2, "success")]
    first = kit.rest.actions.list_jobs_for_workflow_run_attempt("acme", "app", flaky, 1).parsed_data.jobs
    assert [j.id for j in first] == [every[0].id]
    passed = runs.raw("GET", f"/repos/acme/app/actions/jobs/{every[1].id}/logs/download").text
    assert passed.endswith(" tests passed\n")
    broken_job = kit.rest.actions.list_jobs_for_workflow_run("acme", "app", broken).parsed_data.jobs[0]
    assert "AttributeError" in runs.raw("GET", f"/repos/acme/app/actions/jobs/{broken_job.id}/logs/download").text
    latest = kit.rest.checks.list_for_ref("acme", "app", "retry", check_name="test").parsed_data.check_runs
    assert [(c.conclusion, c.id) for c in latest] == [("success", every[1].id)]
    every_check = kit.rest.checks.list_for_ref("acme", "app", "retry", check_name="test", filter_="all").parsed_data
    assert every_check.total_count == 2
    old = runs.raw("POST", f"/repos/acme/app/actions/jobs/{every[0].id}/rerun")
    assert (old.status_code, old.json()["message"]) == (403, "This job cannot be re-run")
    assert runs.raw("POST", f"/repos/acme/app/actions/jobs/{every[1].id}/rerun").status_code == 201
    assert runs.raw("GET", f"/repos/acme/app/actions/runs/{flaky}/attempts/4/jobs").status_code == 404
    bad = runs.raw("GET", f"/repos/acme/app/actions/runs/{flaky}/jobs", params={"filter": "newest"})
    assert bad.status_code == 422


def test_workflows_are_known_by_their_runs(runs: GitHubWorld) -> None:
    """`gh run list` names each run's workflow from `GET .../actions/workflows`, a page at a time."""
    kit = runs.kit()
    listed = kit.rest.actions.list_repo_workflows("acme", "app").parsed_data
    assert listed.total_count == 2
    assert [(w.id, w.name, w.path, w.state) for w in listed.workflows] == [
        (160000001, "CI", ".github/workflows/ci.yml", "active"),
        (160000002, "Tests", ".github/workflows/tests.yml", "active"),
    ]
    tests = runs.raw("GET", "/repos/acme/app/actions/workflows/160000002").json()
    assert tests == {
        "id": 160000002,
        "node_id": "MDg6V29ya2Zsb3cxNjAwMDAwMDI=",
        "name": "Tests",
        "path": ".github/workflows/tests.yml",
        "state": "active",
        "created_at": "2026-03-02T13:30:00.000Z",
        "updated_at": "2026-03-02T13:30:00.000Z",
        "url": f"{runs.url}/repos/acme/app/actions/workflows/160000002",
        "html_url": "https://github.com/acme/app/blob/main/.github/workflows/tests.yml",
        "badge_url": "https://github.com/acme/app/workflows/Tests/badge.svg",
    }
    assert runs.raw("GET", "/repos/acme/app/actions/workflows/tests.yml").json() == tests  # by its file's name
    page = runs.raw("GET", "/repos/acme/app/actions/workflows", params={"per_page": 1, "page": 2})
    assert (page.json()["total_count"], [w["name"] for w in page.json()["workflows"]]) == (2, ["Tests"])
    assert page.headers["Link"] == (
        f'<{runs.url}/repos/acme/app/actions/workflows?per_page=1&page=1>; rel="prev", '
        f'<{runs.url}/repos/acme/app/actions/workflows?per_page=1&page=1>; rel="first"'
    )
    py = runs.py().get_repo("acme/app")
    assert [(w.id, w.name) for w in py.get_workflows()] == [(160000001, "CI"), (160000002, "Tests")]
    assert py.get_workflow("ci.yml").name == "CI"
    for missing in ("160000003", "deploy.yml", "Tests"):
        gone = runs.raw("GET", f"/repos/acme/app/actions/workflows/{missing}")
        assert (gone.status_code, gone.json()["message"]) == (404, "Not Found")


def test_the_runs_of_one_workflow(runs: GitHubWorld) -> None:
    kit = runs.kit()
    found = kit.rest.actions.list_workflow_runs("acme", "app", "tests.yml").parsed_data
    assert [(r.name, r.head_branch, r.workflow_id) for r in found.workflow_runs] == [("Tests", "rename", 160000002)]
    ci_runs = kit.rest.actions.list_workflow_runs("acme", "app", 160000001, branch="main").parsed_data
    assert [(r.name, r.head_branch) for r in ci_runs.workflow_runs] == [("CI", "main")]
    py = runs.py().get_repo("acme/app").get_workflow(160000001)
    assert sorted(r.head_branch for r in py.get_runs()) == ["main", "retry"]
    assert runs.raw("GET", "/repos/acme/app/actions/workflows/9/runs").status_code == 404
