"""Deployments: creating one to production deploys its ref; merging into the default branch of a
`deploy_on_merge` repo deploys; other merges and environments do not."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.services.github.store import DEPLOYMENTS, ISSUES, PULLS, REPOS

from .conftest import GitHubWorld

NO_DEPLOY = """
name: no-deploy
task: test
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {github_user: $bot_gh}
seed:
  github:
    users:
      - {ref: bot_gh, login: stagebot}
      - {ref: maya_gh, login: maya}
    repos:
      - full_name: acme/site
        files: {index.html: "<h1>Acme</h1>\\n"}
        commits:
          - {ref: new_page, message: "Add pricing", author: $maya_gh, files: {pricing.html: "<h1>Pricing</h1>\\n"}}
        branches: {main: $new_page, pricing: $new_page, release: $new_page}
        issues:
          - {ref: ask, title: Add a pricing page, user: $maya_gh}
        pulls:
          - {ref: stale, title: Old pricing idea, head: pricing, base: main, state: closed}
"""


@pytest.fixture
def acme(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(scene="merge-right-pr"))


def ref(world: GitHubWorld, name: str) -> str:
    return world.live.world.refs[name]


def production(world: GitHubWorld, repo: str = "acme/orders") -> str:
    return world.live.world[REPOS].get(repo)["production"]


def test_deployment_to_production_deploys(acme: GitHubWorld) -> None:
    assert production(acme) == ref(acme, "release_commit")
    kit = acme.kit()
    made = kit.rest.repos.create_deployment(
        "acme", "orders", data={"ref": "fix-totals-cache", "environment": "production", "description": "hotfix"}
    ).parsed_data
    assert (made.sha, made.ref, made.environment, made.task, made.description) == (
        ref(acme, "fix_commit"),
        "fix-totals-cache",
        "production",
        "deploy",
        "hotfix",
    )
    assert (made.production_environment, made.creator.login) == (True, "stagebot")
    assert made.statuses_url == f"{acme.url}/repos/acme/orders/deployments/{made.id}/statuses"
    assert production(acme) == ref(acme, "fix_commit")
    status = kit.rest.repos.create_deployment_status(
        "acme", "orders", made.id, data={"state": "success", "log_url": "https://ci.acme.test/d/1"}
    ).parsed_data
    assert (status.state, status.creator.login, status.environment, status.log_url) == (
        "success",
        "stagebot",
        "production",
        "https://ci.acme.test/d/1",
    )
    listed = kit.rest.repos.list_deployment_statuses("acme", "orders", made.id).parsed_data
    assert [s.id for s in listed] == [status.id]


def test_staging_and_rollback_with_pygithub(acme: GitHubWorld) -> None:
    repo = acme.py().get_repo("acme/orders")
    staging = repo.create_deployment(ref="cache-off", environment="staging", required_contexts=[])
    assert (staging.environment, staging.sha) == ("staging", ref(acme, "cache_off_commit"))
    assert production(acme) == ref(acme, "release_commit")
    rollback = repo.create_deployment(ref=ref(acme, "search_commit"), environment="production", required_contexts=[])
    assert production(acme) == ref(acme, "search_commit")
    assert [d.id for d in repo.get_deployments()] == [rollback.id, staging.id]
    assert [d.id for d in repo.get_deployments(environment="staging")] == [staging.id]
    rollback.create_status("in_progress", description="rolling back")
    assert [s.state for s in rollback.get_statuses()] == ["in_progress"]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({}, 422, "Validation Failed"),
        ({"ref": "nope"}, 422, "No ref found for: nope"),
        ({"ref": "main", "payload": 3}, 422, "Invalid request.\n\nFor 'payload', 3 is not an object."),
    ],
)
def test_deployment_errors(acme: GitHubWorld, body: dict[str, Any], status: int, message: str) -> None:
    response = acme.raw("POST", "/repos/acme/orders/deployments", json=body)
    assert (response.status_code, response.json()["message"]) == (status, message)
    assert len(acme.live.world[DEPLOYMENTS]) == 0
    assert production(acme) == ref(acme, "release_commit")
    bad_state = acme.raw("POST", "/repos/acme/orders/deployments/1/statuses", json={"state": "success"})
    assert bad_state.status_code == 404


def test_merge_without_deploy_on_merge(stage: Any) -> None:
    site = GitHubWorld(stage.world(NO_DEPLOY))
    world = site.live.world
    assert world[PULLS].get("acme/site#2")["state"] == "closed"
    first = world.refs["new_page"]
    repo = site.py().get_repo("acme/site")
    repo.update_file(
        "pricing.html",
        "Prices",
        "<h1>Prices</h1>\n",
        repo.get_contents("pricing.html", ref="pricing").sha,
        branch="pricing",
    )
    pull = repo.create_pull(base="release", head="pricing", title="Prices", body="Fixes #1")
    pull.merge()
    # merged into a branch that is not the default one: the issue stays open, nothing is deployed
    assert world[ISSUES].get("acme/site#1")["state"] == "open"
    assert production(site, "acme/site") == first
    second = repo.create_pull(base="main", head="pricing", title="Prices on main", body="closes #1")
    second.merge(merge_method="squash")
    assert world[ISSUES].get("acme/site#1")["state"] == "closed"
    assert production(site, "acme/site") == first  # the repo does not deploy on merge
    assert len(world[DEPLOYMENTS]) == 0
