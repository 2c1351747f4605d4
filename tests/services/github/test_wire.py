"""The wire: authentication, User-Agent, API versions, envelopes, rate-limit headers, Link pagination,
unknown routes, bad JSON, and the trace."""

from __future__ import annotations

import base64

import pytest
from github import (
    Auth,
    BadCredentialsException,
    Github,
    UnknownObjectException,
)
from githubkit import GitHub
from githubkit.exception import RequestFailed

DOCS = "https://docs.github.com/rest"


def test_missing_token_requires_authentication(gh):
    r = gh.raw("GET", "/user", token=None)
    assert r.status_code == 401
    assert r.json() == {"message": "Requires authentication", "documentation_url": DOCS, "status": "401"}


def test_unknown_token_is_bad_credentials(gh):
    r = gh.raw("GET", "/repos/acme/orders", token="ghp_nope")
    assert r.status_code == 401
    assert r.json() == {"message": "Bad credentials", "documentation_url": DOCS, "status": "401"}
    with pytest.raises(BadCredentialsException):
        Github(auth=Auth.Token("ghp_nope"), base_url=gh.url).get_repo("acme/orders")
    client = GitHub("ghp_nope", base_url=gh.url, http_cache=False)
    with pytest.raises(RequestFailed) as failed:
        client.rest.users.get_authenticated()
    assert failed.value.response.status_code == 401


def test_bearer_and_basic_carry_the_token(gh):
    assert gh.raw("GET", "/user", headers={"Authorization": f"Bearer {gh.token}"}).json()["login"] == "stagebot"
    basic = base64.b64encode(f"stagebot:{gh.token}".encode()).decode()
    assert gh.raw("GET", "/user", headers={"Authorization": f"Basic {basic}"}).json()["login"] == "stagebot"
    as_user = base64.b64encode(f"{gh.token}:x-oauth-basic".encode()).decode()
    assert gh.raw("GET", "/user", headers={"Authorization": f"Basic {as_user}"}).json()["login"] == "stagebot"


def test_the_token_alone_finds_the_world(gh, stage):
    import httpx

    r = httpx.get(f"{stage.url}/github/user", headers={"Authorization": f"token {gh.token}", "User-Agent": "t"})
    assert r.status_code == 200
    assert r.json()["url"] == f"{stage.url}/github/users/stagebot"


def test_a_request_without_user_agent_is_forbidden(gh):
    r = gh.raw("GET", "/user", headers={"User-Agent": ""})
    assert r.status_code == 403
    assert r.text.startswith(
        "Request forbidden by administrative rules. Please make sure your request has a User-Agent"
    )


def test_api_versions(gh):
    for version in ("2022-11-28", "2026-03-10"):
        assert gh.raw("GET", "/user", headers={"X-GitHub-Api-Version": version}).status_code == 200
    r = gh.raw("GET", "/user", headers={"X-GitHub-Api-Version": "2099-01-01"})
    assert r.status_code == 400
    assert (
        r.json()["message"] == "Invalid API version provided: 2099-01-01. Supported versions: 2022-11-28, 2026-03-10."
    )
    assert r.json()["status"] == "400"


def test_rate_limit_and_scope_headers_on_every_answer(gh):
    first = gh.raw("GET", "/user")
    second = gh.raw("GET", "/repos/acme/nope")
    assert second.status_code == 404
    for r, used in ((first, 1), (second, 2)):
        assert r.headers["x-ratelimit-limit"] == "5000"
        assert r.headers["x-ratelimit-used"] == str(used)
        assert r.headers["x-ratelimit-remaining"] == str(5000 - used)
        assert r.headers["x-ratelimit-reset"] == "1772463600"  # the end of the simulated hour
        assert r.headers["x-ratelimit-resource"] == "core"
        assert r.headers["x-oauth-scopes"] == "repo, read:org, workflow"
    g = gh.py()
    assert g.get_user().login == "stagebot"
    assert g.oauth_scopes == ["repo", "read:org", "workflow"]
    assert g.get_rate_limit().resources.core.remaining == 4997  # three calls before it


def test_unknown_route_is_not_found_and_recorded_unimplemented(gh):
    r = gh.raw("GET", "/repos/acme/orders/hovercraft")
    assert r.status_code == 404
    assert r.json() == {"message": "Not Found", "documentation_url": DOCS, "status": "404"}
    call = gh.live.trace()[-1]
    assert call["unimplemented"] is True and call["operation"] is None


def test_not_found_through_the_sdks(gh):
    with pytest.raises(UnknownObjectException):
        gh.py().get_repo("acme/nope")
    kit = gh.kit()
    with pytest.raises(RequestFailed) as failed:
        kit.rest.repos.get("acme", "nope")
    assert failed.value.response.status_code == 404


def test_bad_json_body(gh):
    r = gh.raw(
        "PUT", "/repos/acme/orders/contents/x.txt", content=b"{nope", headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 400
    assert r.json() == {"message": "Problems parsing JSON", "documentation_url": DOCS, "status": "400"}
    r = gh.raw("POST", "/repos/acme/orders/git/refs", json=["a"])
    assert r.status_code == 400


def test_the_trace_names_the_operation(gh):
    kit = gh.kit()
    kit.rest.repos.get_content("acme", "orders", "src/app.py")
    call = gh.live.trace()[-1]
    assert call["operation"] == "GET /repos/{owner}/{repo}/contents/{path}"
    assert call["path"] == "/repos/acme/orders/contents/src/app.py"
    assert call["actor"] == "stagebot"
    assert call["status"] == 200


def _commit_scene(n: int) -> str:
    commits = "\n".join(f"          - {{message: 'change {i}', files: {{f.txt: '{i}\\n'}}}}" for i in range(n))
    return f"""
name: many-commits
task: test
clock: {{start: "2026-03-02T14:00:00Z"}}
agent: {{github_user: $me}}
seed:
  github:
    users: [{{ref: me, login: me}}]
    repos:
      - full_name: me/many
        files: {{f.txt: "start\\n"}}
        commits:
{commits}
"""


@pytest.fixture
def many(stage):
    from .conftest import GitHubWorld

    return GitHubWorld(stage.world(_commit_scene(69)))  # 70 commits with the initial one


def test_link_header_exact_form(many):
    r = many.raw("GET", "/repos/me/many/commits", params={"per_page": 30})
    base = f"{many.url}/repos/me/many/commits"
    assert r.headers["link"] == f'<{base}?per_page=30&page=2>; rel="next", <{base}?per_page=30&page=3>; rel="last"'
    r = many.raw("GET", "/repos/me/many/commits", params={"per_page": 30, "page": 2, "path": "f.txt"})
    assert r.headers["link"] == (
        f'<{base}?path=f.txt&per_page=30&page=1>; rel="prev", <{base}?path=f.txt&per_page=30&page=3>; rel="next", '
        f'<{base}?path=f.txt&per_page=30&page=3>; rel="last", <{base}?path=f.txt&per_page=30&page=1>; rel="first"'
    )
    r = many.raw("GET", "/repos/me/many/commits", params={"per_page": 30, "page": 3})
    assert len(r.json()) == 10
    assert 'rel="next"' not in r.headers["link"]
    r = many.raw("GET", "/repos/me/many/commits", params={"per_page": 500})
    assert len(r.json()) == 70 and "link" not in r.headers  # at most 100 a page


def test_pagination_through_the_sdks(many):
    commits = many.py().get_repo("me/many").get_commits()
    assert commits.totalCount == 70
    assert [c.commit.message for c in commits][:2] == ["change 68", "change 67"]
    kit = many.kit()
    listed = list(kit.rest.paginate(kit.rest.repos.list_commits, owner="me", repo="many", per_page=25))
    assert len(listed) == 70
    assert listed[-1].commit.message == "Initial commit"


@pytest.mark.parametrize("depth", [101, 100_000])
def test_json_nested_too_deep_is_problems_parsing_json(gh, depth):
    deep = '{"title": "t", "body": "b", "labels": ' + "[" * depth + "]" * depth + "}"
    r = gh.raw("POST", "/repos/acme/orders/issues", content=deep, headers={"Content-Type": "application/json"})
    assert (r.status_code, r.json()) == (
        400,
        {"message": "Problems parsing JSON", "documentation_url": DOCS, "status": "400"},
    )
    call = gh.live.trace()[-1]
    assert (call["operation"], call["status"], call["body"]) == ("POST /repos/{owner}/{repo}/issues", 400, None)


def test_json_as_deep_as_allowed_is_read(gh):
    # 99 levels inside the body object: the labels are then not a list of names, GitHub's 422.
    deep = '{"title": "t", "labels": ' + "[" * 99 + "]" * 99 + "}"
    r = gh.raw("POST", "/repos/acme/orders/issues", content=deep, headers={"Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    assert gh.live.trace()[-1]["body"]["title"] == "t"
