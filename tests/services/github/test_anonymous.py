"""Reads with no credential at all: under the world's own URL GitHub serves public repos, users and
organizations to anyone (60 calls an hour, counted apart); everything else is still refused, and a call
that is not the world's never reaches it."""

from __future__ import annotations

import httpx
import pytest
from github import Github, GithubException
from githubkit import GitHub, UnauthAuthStrategy

from soundstage.services.github.store import ISSUES

from .conftest import SCENE, GitHubWorld

DOCS = "https://docs.github.com/rest"


def anonymous(gh: GitHubWorld, method: str, path: str, **kwargs) -> httpx.Response:
    return gh.raw(method, path, token=None, **kwargs)


def test_a_public_repo_is_read_by_anyone(gh):
    r = anonymous(gh, "GET", "/repos/acme/orders")
    assert (r.status_code, r.json()["full_name"]) == (200, "acme/orders")
    assert (r.headers["x-ratelimit-limit"], r.headers["x-ratelimit-used"], r.headers["x-ratelimit-remaining"]) == (
        "60",
        "1",
        "59",
    )
    assert "x-oauth-scopes" not in r.headers
    assert r.headers["cache-control"] == "public, max-age=60, s-maxage=60"
    call = gh.live.trace()[-1]
    assert (call["operation"], call["status"], call["actor"]) == ("GET /repos/{owner}/{repo}", 200, None)
    assert gh.raw("GET", "/user").headers["x-ratelimit-used"] == "1"  # the agent's own count is apart
    assert anonymous(gh, "GET", "/rate_limit").json()["rate"] == {
        "limit": 60,
        "used": 1,
        "remaining": 59,
        "reset": 1772463600,
    }


def test_the_sdks_read_without_a_token(gh):
    assert Github(base_url=gh.url).get_repo("acme/orders").default_branch == "main"
    kit = GitHub(UnauthAuthStrategy(), base_url=gh.url, http_cache=False)
    assert kit.rest.repos.get_content("acme", "orders", "README.md").parsed_data.name == "README.md"
    assert [r.full_name for r in kit.rest.repos.list_for_user("acme").parsed_data] == ["acme/orders"]  # not acme/empty


def test_private_repos_and_the_callers_own_are_not_for_anyone(gh):
    r = anonymous(gh, "GET", "/repos/acme/empty")
    assert (r.status_code, r.json()["message"]) == (404, "Not Found")
    with pytest.raises(GithubException) as refused:
        _ = Github(base_url=gh.url).get_user().login
    assert refused.value.status == 401
    for path in ("/user", "/user/repos", "/search/code?q=total"):
        r = anonymous(gh, "GET", path)
        assert (r.status_code, r.json()) == (
            401,
            {"message": "Requires authentication", "documentation_url": DOCS, "status": "401"},
        )
    r = anonymous(gh, "GET", "/search/issues", params={"q": "repo:acme/empty bug"})
    assert r.status_code == 422
    assert [c["status"] for c in gh.live.trace()] == [404, 401, 401, 401, 401, 422]


def test_anything_but_a_read_with_no_credential_never_reaches_the_world(gh, stage):
    world = gh.live.world
    other = GitHubWorld(stage.world(SCENE))
    before = (world.log.last_seq, world.now())
    for method, path, headers in (
        ("POST", "/repos/acme/orders/issues", {}),
        ("GET", "/repos/acme/orders", {"Authorization": "token ghp_unknown"}),
        ("GET", "/repos/acme/orders", {"Authorization": f"token {other.token}"}),
        ("GET", "/repos/acme/orders", {"Authorization": "Basic %%%"}),
    ):
        r = gh.raw(method, path, token=None, headers=headers, json={"title": "t"} if method == "POST" else None)
        assert r.status_code == 401, (method, path, headers)
    r = httpx.get(f"{stage.url}/github/repos/acme/orders", headers={"User-Agent": "t"})  # no world in the URL
    assert r.status_code == 401
    assert (world.log.last_seq, world.now(), gh.state(ISSUES)) == (*before, {})
