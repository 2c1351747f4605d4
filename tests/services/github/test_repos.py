"""Accounts, repositories, branches, commits and comparisons through githubkit and PyGithub."""

from __future__ import annotations

import pytest
from github import GithubException
from githubkit.exception import RequestFailed
from tests.services.github.conftest import SCENE, GitHubWorld

INITIAL = "Initial commit"


def test_authenticated_user(gh):
    kit = gh.kit()
    me = kit.rest.users.get_authenticated().parsed_data
    assert (me.login, me.id, me.type, me.name, me.email) == ("stagebot", 90000001, "Bot", "Stage Bot", "bot@acme.test")
    assert me.node_id == "MDM6Qm90OTAwMDAwMDE="
    assert me.url == f"{gh.url}/users/stagebot"
    assert me.created_at.isoformat() == "2025-01-26T14:00:00+00:00"
    assert gh.py().get_user().login == "stagebot"


def test_users_and_organizations(gh):
    kit = gh.kit()
    assert kit.rest.users.get_by_username("maya").parsed_data.public_repos == 1
    org = kit.rest.users.get_by_username("acme").parsed_data
    assert (org.type, org.public_repos) == ("Organization", 1)
    r = gh.raw("GET", "/users/nobody")
    assert (r.status_code, r.json()["message"]) == (404, "Not Found")


def test_get_an_organization(gh):
    kit = gh.kit()
    org = kit.rest.orgs.get("acme").parsed_data
    assert (org.login, org.type, org.public_repos, org.html_url) == (
        "acme",
        "Organization",
        1,
        "https://github.com/acme",
    )
    assert org.url == f"{gh.url}/orgs/acme"
    assert org.repos_url == f"{gh.url}/orgs/acme/repos"
    assert gh.py().get_organization("acme").login == "acme"
    r = gh.raw("GET", "/orgs/acme")
    assert r.headers["x-accepted-oauth-scopes"] == "admin:org, read:org, repo, user, write:org"
    docs = "https://docs.github.com/rest/orgs/orgs#get-an-organization"
    for name in ("maya", "nobody"):  # a user is no organization
        r = gh.raw("GET", f"/orgs/{name}")
        assert (r.status_code, r.json()) == (404, {"message": "Not Found", "documentation_url": docs, "status": "404"})


def test_get_repo(gh):
    kit = gh.kit()
    repo = kit.rest.repos.get("acme", "orders").parsed_data
    assert (repo.full_name, repo.name, repo.private, repo.default_branch) == ("acme/orders", "orders", False, "main")
    assert repo.description == "The orders API"
    assert repo.owner.login == "acme" and repo.owner.type == "Organization"
    assert repo.url == f"{gh.url}/repos/acme/orders"
    assert repo.contents_url == f"{gh.url}/repos/acme/orders/contents/{{+path}}"
    assert repo.pushed_at.isoformat() == "2026-03-02T13:00:00+00:00"  # the last seeded commit
    py = gh.py().get_repo("acme/orders")
    assert (py.id, py.full_name, py.url) == (700000001, "acme/orders", f"{gh.url}/repos/acme/orders")


def test_repo_lists(gh):
    kit = gh.kit()
    mine = [r.full_name for r in kit.rest.repos.list_for_authenticated_user().parsed_data]
    assert mine == ["acme/empty", "acme/orders", "maya/notes"]
    org = [r.full_name for r in kit.rest.repos.list_for_org("acme").parsed_data]
    assert org == ["acme/orders", "acme/empty"]
    assert [r.full_name for r in gh.py().get_user().get_repos()] == ["acme/empty", "acme/orders", "maya/notes"]
    assert gh.raw("GET", "/orgs/maya/repos").status_code == 404  # a user, not an organization
    assert [r.full_name for r in kit.rest.repos.list_for_user("maya").parsed_data] == ["maya/notes"]
    assert [r.full_name for r in gh.py().get_user("acme").get_repos()] == ["acme/empty", "acme/orders"]
    assert gh.raw("GET", "/users/nobody/repos").status_code == 404


def test_rate_limit(gh):
    kit = gh.kit()
    overview = kit.rest.rate_limit.get().parsed_data
    core = overview.resources.core
    assert (core.limit, core.used, core.reset) == (5000, 0, 1772463600)
    now = 1772460005  # the second call: the clock moves 5s a call
    assert {
        name: (r["limit"], r["reset"] - now) for name, r in gh.raw("GET", "/rate_limit").json()["resources"].items()
    } == {
        "core": (5000, 3595),  # the end of the simulated hour
        "search": (30, 60),
        "graphql": (5000, 3600),
        "integration_manifest": (5000, 3600),
        "source_import": (100, 60),
        "code_scanning_upload": (1000, 3600),
        "code_scanning_autofix": (10, 60),
        "actions_runner_registration": (10000, 3600),
        "scim": (15000, 3600),
        "dependency_snapshots": (100, 60),
        "audit_log": (1750, 3600),
        "audit_log_streaming": (15, 3600),
        "code_search": (10, 60),
    }
    assert overview.resources.code_search.limit == 10
    assert gh.py().get_rate_limit().resources.search.limit == 30
    again = gh.raw("GET", "/rate_limit")
    assert again.json()["rate"]["used"] == 0  # it does not count itself
    assert again.headers["x-ratelimit-used"] == "0"


def test_branches(gh):
    kit = gh.kit()
    listed = kit.rest.repos.list_branches("acme", "orders").parsed_data
    assert [(b.name, b.protected) for b in listed] == [("feature", False), ("main", False)]
    main = kit.rest.repos.get_branch("acme", "orders", "main").parsed_data
    assert main.commit.commit.message == "Document caching"
    assert main.commit.sha == listed[1].commit.sha
    assert gh.py().get_repo("acme/orders").get_branch("feature").commit.commit.message == "Cache order totals"
    r = gh.raw("GET", "/repos/acme/orders/branches/nope")
    assert (r.status_code, r.json()["message"]) == (404, "Branch not found")


def test_list_commits_and_filters(gh):
    kit = gh.kit()
    commits = kit.rest.repos.list_commits("acme", "orders").parsed_data
    assert [c.commit.message for c in commits] == ["Document caching", "Cache order totals", INITIAL]
    assert commits[1].author.login == "maya"
    assert commits[1].commit.author.email == "maya@acme.test"
    assert commits[1].commit.author.date.isoformat() == "2026-03-02T12:00:00+00:00"
    assert commits[2].author.login == "acme"  # the owner made the first commit
    assert commits[0].parents[0].sha == commits[1].sha
    by_path = kit.rest.repos.list_commits("acme", "orders", path="src/app.py").parsed_data
    assert [c.commit.message for c in by_path] == ["Cache order totals", INITIAL]
    by_dir = kit.rest.repos.list_commits("acme", "orders", path="docs").parsed_data
    assert [c.commit.message for c in by_dir] == ["Document caching"]
    since = kit.rest.repos.list_commits("acme", "orders", since="2026-03-02T12:00:00Z").parsed_data
    assert [c.commit.message for c in since] == ["Document caching", "Cache order totals"]
    feature = kit.rest.repos.list_commits("acme", "orders", sha="feature").parsed_data
    assert [c.commit.message for c in feature] == ["Cache order totals", INITIAL]
    assert [c.commit.message for c in kit.rest.repos.list_commits("acme", "orders", author="maya").parsed_data] == [
        "Cache order totals"
    ]
    assert gh.py().get_repo("acme/orders").get_commits(path="src/app.py").totalCount == 2


def test_list_commits_errors(gh):
    r = gh.raw("GET", "/repos/acme/empty/commits")
    assert (r.status_code, r.json()["message"]) == (409, "Git Repository is empty.")
    r = gh.raw("GET", "/repos/acme/orders/commits", params={"sha": "nope"})
    assert (r.status_code, r.json()["message"]) == (404, "No commit found for SHA: nope")


def test_get_commit(gh):
    kit = gh.kit()
    commit = kit.rest.repos.get_commit("acme", "orders", "feature").parsed_data
    assert commit.commit.message == "Cache order totals"
    assert commit.stats.additions == 1 and commit.stats.deletions == 0
    [changed] = commit.files
    assert (changed.filename, changed.status, changed.additions) == ("src/app.py", "modified", 1)
    assert changed.patch == "@@ -1,2 +1,3 @@\n+cache_totals=True\n def total(order):\n     return sum(order)"
    short = kit.rest.repos.get_commit("acme", "orders", commit.sha[:7]).parsed_data
    assert short.sha == commit.sha
    py = gh.py().get_repo("acme/orders").get_commit(commit.sha)
    assert [f.filename for f in py.files] == ["src/app.py"]
    r = gh.raw("GET", "/repos/acme/orders/commits/nope")
    assert (r.status_code, r.json()["message"]) == (422, "No commit found for SHA: nope")


def test_compare(gh):
    kit = gh.kit()
    ahead = kit.rest.repos.compare_commits("acme", "orders", "feature...main").parsed_data
    assert (ahead.status, ahead.ahead_by, ahead.behind_by, ahead.total_commits) == ("ahead", 1, 0, 1)
    assert [c.commit.message for c in ahead.commits] == ["Document caching"]
    assert [(f.filename, f.status) for f in ahead.files] == [("docs/cache.md", "added")]
    assert ahead.merge_base_commit.commit.message == "Cache order totals"
    behind = kit.rest.repos.compare_commits("acme", "orders", "main...feature").parsed_data
    assert (behind.status, behind.ahead_by, behind.behind_by, behind.files) == ("behind", 0, 1, [])
    same = gh.py().get_repo("acme/orders").compare("main", "main")
    assert (same.status, same.total_commits) == ("identical", 0)
    for bad in ("main..feature", "main...nope"):
        r = gh.raw("GET", f"/repos/acme/orders/compare/{bad}")
        assert (r.status_code, r.json()["message"]) == (404, "Not Found")


def test_compare_diverged_branch_names_with_slashes(gh):
    kit = gh.kit()
    kit.rest.git.create_ref(
        "acme",
        "orders",
        ref="refs/heads/fix/totals",
        sha=kit.rest.repos.get_branch("acme", "orders", "feature").parsed_data.commit.sha,
    )
    py = gh.py().get_repo("acme/orders")
    py.create_file("fix.txt", "Fix", "fixed\n", branch="fix/totals")
    result = kit.rest.repos.compare_commits("acme", "orders", "main...fix/totals").parsed_data
    assert (result.status, result.ahead_by, result.behind_by) == ("diverged", 1, 1)
    assert kit.rest.repos.get_branch("acme", "orders", "fix/totals").parsed_data.name == "fix/totals"


def test_missing_repo_everywhere(gh):
    for path in (
        "/repos/acme/nope",
        "/repos/acme/nope/branches",
        "/repos/acme/nope/commits",
        "/repos/acme/nope/contents/x",
    ):
        r = gh.raw("GET", path)
        assert (r.status_code, r.json()["message"]) == (404, "Not Found"), path
    with pytest.raises(GithubException) as failed:
        gh.py().get_repo("acme/nope")
    assert failed.value.status == 404
    kit = gh.kit()
    with pytest.raises(RequestFailed):
        kit.rest.repos.list_branches("acme", "nope")


def test_license_topics_organization_and_custom_properties(stage):
    scene = SCENE.replace(
        "description: The orders API\n",
        "description: The orders API\n        license: Apache-2.0\n        topics: [orders, api]\n",
    )
    gh = GitHubWorld(stage.world(scene))
    kit = gh.kit()
    repo = kit.rest.repos.get("acme", "orders").parsed_data
    assert repo.license_ is not None
    assert (repo.license_.key, repo.license_.name, repo.license_.spdx_id) == (
        "apache-2.0",
        "Apache License 2.0",
        "Apache-2.0",
    )
    assert (repo.license_.url, repo.license_.node_id) == (f"{gh.url}/licenses/apache-2.0", "MDc6TGljZW5zZTI=")
    assert repo.topics == ["orders", "api"]
    assert repo.organization is not None and (repo.organization.login, repo.organization.type) == (
        "acme",
        "Organization",
    )
    assert repo.custom_properties.model_dump() == {}
    listed = gh.raw("GET", "/orgs/acme/repos").json()
    assert [(r["full_name"], r["license"] and r["license"]["spdx_id"], "organization" in r) for r in listed] == [
        ("acme/orders", "Apache-2.0", False),
        ("acme/empty", None, False),
    ]
    py = gh.py().get_repo("acme/orders")
    assert (py.license.spdx_id, py.organization.login, py.topics) == ("Apache-2.0", "acme", ["orders", "api"])
    # A user's repo has no organization; a repo without a license has none.
    notes = gh.raw("GET", "/repos/maya/notes").json()
    assert (notes["organization"], notes["license"], notes["topics"], notes["custom_properties"]) == (
        None,
        None,
        [],
        {},
    )


def test_unknown_license_is_refused(stage):
    scene = SCENE.replace("description: The orders API\n", "description: The orders API\n        license: WTFPL\n")
    with pytest.raises(Exception, match="unknown license 'WTFPL'"):
        stage.world(scene)
