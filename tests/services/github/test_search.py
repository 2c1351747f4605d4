"""`GET /search/issues` and `GET /search/code` on the acme world (acme/orders and acme/orders-web)."""

from __future__ import annotations

from typing import Any

import pytest

from soundstage.services.github.store import REFS

from .conftest import GitHubWorld


@pytest.fixture
def acme(stage: Any) -> GitHubWorld:
    return GitHubWorld(stage.world(scene="merge-right-pr"))


def test_search_issues_qualifiers(acme: GitHubWorld) -> None:
    kit = acme.kit()

    def found(q: str, **params: Any) -> list[int]:
        result = kit.rest.search.issues_and_pull_requests(q=q, **params).parsed_data
        assert result.incomplete_results is False
        assert result.total_count == len(result.items)
        return [item.number for item in result.items]

    assert found("repo:acme/orders is:issue is:open") == [3, 2, 1]
    assert found("repo:acme/orders is:pr") == [5, 4]
    assert found("repo:acme/orders label:bug") == [2, 1]
    assert found('repo:acme/orders label:bug label:"p1"') == [1]
    assert found("repo:acme/orders totals in:title") == [5, 4, 3, 1]
    assert found("repo:acme/orders NW-7731 in:body") == [2]
    assert found("repo:acme/orders author:priya", sort="created", order="asc") == [2, 3]
    assert found("repo:acme/orders assignee:maya") == [1]
    assert found("repo:acme/orders state:closed") == []
    assert found("cache is:pr") == [5, 4]


def test_search_issue_items(acme: GitHubWorld) -> None:
    kit = acme.kit()
    item = kit.rest.search.issues_and_pull_requests(q="repo:acme/orders is:pr slower").parsed_data.items
    assert [(i.number, i.score) for i in item] == [(5, 1.0)]
    assert item[0].pull_request.url == f"{acme.url}/repos/acme/orders/pulls/5"
    assert item[0].user.login == "omar"
    kit.rest.issues.create_comment("acme", "orders", 3, data={"body": "TTL is sixty seconds"})
    hits = kit.rest.search.issues_and_pull_requests(q="repo:acme/orders sixty in:comments").parsed_data
    assert [i.number for i in hits.items] == [3]
    found = acme.py().search_issues("case-sensitive", repo="acme/orders", state="open")
    assert [i.number for i in found] == [2]
    assert found.totalCount == 1


def test_search_code(acme: GitHubWorld) -> None:
    kit = acme.kit()
    result = kit.rest.search.code(q="TTL_SECONDS repo:acme/orders").parsed_data
    assert result.total_count == 1
    hit = result.items[0]
    main = acme.live.world[REFS].get("acme/orders:refs/heads/main")["sha"]
    assert (hit.name, hit.path, hit.repository.full_name) == ("cache.py", "src/cache.py", "acme/orders")
    assert hit.url == f"{acme.url}/repos/acme/orders/contents/src/cache.py?ref={main}"
    assert hit.html_url == f"https://github.com/acme/orders/blob/{main}/src/cache.py"
    assert hit.git_url == f"{acme.url}/repos/acme/orders/git/blobs/{hit.sha}"
    paths = [i.path for i in kit.rest.search.code(q="order language:python repo:acme/orders").parsed_data.items]
    assert paths == ["src/app.py", "tests/test_app.py"]
    assert [i.path for i in kit.rest.search.code(q="formatTotal").parsed_data.items] == ["src/index.js"]
    assert [i.path for i in kit.rest.search.code(q="order path:tests repo:acme/orders").parsed_data.items] == [
        "tests/test_app.py"
    ]
    assert [c.path for c in acme.py().search_code("cache_totals", repo="acme/orders")] == []


@pytest.mark.parametrize(
    ("path", "q", "error"),
    [
        ("/search/issues", None, {"resource": "Search", "field": "q", "code": "missing"}),
        (
            "/search/code",
            "repo:acme/orders",
            {
                "message": "Must include at least one search term.",
                "resource": "Search",
                "field": "q",
                "code": "invalid",
            },
        ),
        (
            "/search/issues",
            "repo:acme/nope bug",
            {
                "message": (
                    "The listed users, orgs, or repositories cannot be searched either because the resources "
                    "do not exist or you do not have permission to view them."
                ),
                "resource": "Search",
                "field": "q",
                "code": "invalid",
            },
        ),
    ],
)
def test_search_errors(acme: GitHubWorld, path: str, q: str | None, error: dict[str, Any]) -> None:
    response = acme.raw("GET", path, params={"q": q} if q is not None else {})
    assert response.status_code == 422
    assert response.json() == {
        "message": "Validation Failed",
        "errors": [error],
        "documentation_url": "https://docs.github.com/rest/search/search",
        "status": "422",
    }
