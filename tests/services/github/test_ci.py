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
    made = commit.create_status("pending", target_url="https://ci.acme.test/1", description="running", context="ci/tests")
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
