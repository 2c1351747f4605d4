"""Creating and reading releases, and the tags they make, on the acme world (releases v1.3.0 and v1.4.0),
through githubkit, PyGithub and raw HTTP."""

from __future__ import annotations

from typing import Any

import pytest
from github import GithubException

from soundstage.services.github.store import REFS

from .conftest import GitHubWorld

DOCS = "https://docs.github.com/rest"


@pytest.fixture
def acme(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(scene="merge-right-pr"))


def test_seeded_releases_are_tagged(acme: GitHubWorld) -> None:
    kit = acme.kit()
    tags = kit.rest.repos.list_tags("acme", "orders").parsed_data
    refs = acme.live.world.refs
    assert [(t.name, t.commit.sha) for t in tags] == [
        ("v1.4.0", refs["release_commit"]),
        ("v1.3.0", refs["search_commit"]),
    ]
    assert tags[0].zipball_url == f"{acme.url}/repos/acme/orders/zipball/refs/tags/v1.4.0"
    assert tags[0].commit.url == f"{acme.url}/repos/acme/orders/commits/{refs['release_commit']}"
    assert [t.name for t in acme.py().get_repo("acme/orders").get_tags()] == ["v1.4.0", "v1.3.0"]
    assert kit.rest.repos.get_commit("acme", "orders", "v1.3.0").parsed_data.sha == refs["search_commit"]


def test_create_and_get_a_release(acme: GitHubWorld) -> None:
    kit = acme.kit()
    made = kit.rest.repos.create_release(
        "acme", "orders", tag_name="v1.10.0", name="1.10.0", body="Faster totals.", target_commitish="fix-totals-cache"
    )
    assert made.status_code == 201
    release = made.parsed_data
    assert (release.tag_name, release.name, release.body, release.draft, release.prerelease) == (
        "v1.10.0",
        "1.10.0",
        "Faster totals.",
        False,
        False,
    )
    assert (release.author.login, release.target_commitish) == ("stagebot", "fix-totals-cache")
    got = kit.rest.repos.get_release("acme", "orders", release.id).parsed_data
    assert (got.id, got.tag_name) == (release.id, "v1.10.0")
    tag = acme.state(REFS)["acme/orders:refs/tags/v1.10.0"]
    assert tag["sha"] == acme.live.world.refs["fix_commit"]
    assert [t.name for t in kit.rest.repos.list_tags("acme", "orders").parsed_data] == ["v1.10.0", "v1.4.0", "v1.3.0"]
    assert kit.rest.repos.get_latest_release("acme", "orders").parsed_data.tag_name == "v1.10.0"


def test_a_draft_makes_no_tag_and_pygithub_creates_releases(acme: GitHubWorld) -> None:
    repo = acme.py().get_repo("acme/orders")
    draft = repo.create_git_release("v2.0.0", "2.0.0", "Next.", draft=True)
    assert (draft.draft, draft.published_at) == (True, None)
    assert "acme/orders:refs/tags/v2.0.0" not in acme.state(REFS)
    assert repo.get_release(draft.id).tag_name == "v2.0.0"


def test_release_errors(acme: GitHubWorld) -> None:
    r = acme.raw("POST", "/repos/acme/orders/releases", json={"name": "x"})
    assert r.status_code == 422
    assert r.json()["message"] == 'Invalid request.\n\n"tag_name" wasn\'t supplied.'
    r = acme.raw("POST", "/repos/acme/orders/releases", json={"tag_name": "v1.4.0"})
    assert (r.status_code, r.json()["errors"]) == (
        422,
        [{"resource": "Release", "field": "tag_name", "code": "already_exists"}],
    )
    r = acme.raw("POST", "/repos/acme/orders/releases", json={"tag_name": "v9", "target_commitish": "nope"})
    assert (r.status_code, r.json()["errors"]) == (
        422,
        [{"resource": "Release", "field": "target_commitish", "code": "invalid"}],
    )
    r = acme.raw("POST", "/repos/acme/orders/releases", json={"tag_name": "v9", "draft": "yes"})
    assert r.json()["message"] == "Invalid request.\n\nFor 'draft', \"yes\" is not a boolean."
    with pytest.raises(GithubException) as missing:
        acme.py().get_repo("acme/orders").get_release(1)
    assert missing.value.status == 404
    r = acme.raw("GET", "/repos/acme/orders/releases/abc")
    assert r.json() == {
        "message": "Not Found",
        "documentation_url": f"{DOCS}/releases/releases#get-a-release",
        "status": "404",
    }
    assert "acme/orders:refs/tags/v9" not in acme.state(REFS)


def test_a_release_by_its_tag(acme: GitHubWorld) -> None:
    repo = acme.py().get_repo("acme/orders")
    assert repo.get_release("v1.3.0").tag_name == "v1.3.0"  # PyGithub reads a release named by tag this way
    kit = acme.kit()
    got = kit.rest.repos.get_release_by_tag("acme", "orders", "v1.4.0").parsed_data
    assert (got.tag_name, got.draft) == ("v1.4.0", False)
    assert got.id == kit.rest.repos.get_latest_release("acme", "orders").parsed_data.id
    repo.create_git_release("v2.0.0", "2.0.0", "Next.", draft=True)
    for tag in ("v2.0.0", "v9.9.9"):  # a draft is not published under its tag yet
        r = acme.raw("GET", f"/repos/acme/orders/releases/tags/{tag}")
        assert (r.status_code, r.json()) == (
            404,
            {
                "message": "Not Found",
                "documentation_url": f"{DOCS}/releases/releases#get-a-release-by-tag-name",
                "status": "404",
            },
        )
