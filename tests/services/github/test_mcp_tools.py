"""GitHub's MCP tools (docs/mcp.md), each through the SDK's client: its answer is the REST API's answer to the
call it stands for, its writes are in the world, and it is one logged call through the tool."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from tests.server.test_isolation import EVERY_SERVICE
from tests.services.mcp_tools import call, rest

REPO = {"owner": "acme", "repo": "orders"}


@pytest.fixture(scope="module")
def live(stage: Any) -> Any:
    """One world for the module: each test writes to records of its own (issue 2, a new branch's file)."""
    return stage.world(EVERY_SERVICE)


def _shape(event: dict[str, Any]) -> tuple[Any, ...]:
    return event["method"], event["path"], event["query"], event["status"]


def test_list_issues_lists_with_the_rest_parameters(live):
    listed = call(live, "github", "list_issues", {**REPO, "state": "open", "labels": ["bug"], "perPage": 2})
    query = {"state": "open", "per_page": "2", "labels": "bug"}
    assert _shape(listed.event) == ("GET", "/repos/acme/orders/issues", query, 200)
    assert listed.json == rest(live, "github", "GET", "/repos/acme/orders/issues", params=query)
    assert [i["number"] for i in listed.json] == [
        i["number"] for i in listed.json if "bug" in [x["name"] for x in i["labels"]]
    ]


def test_update_issue_and_add_issue_comment_write_the_issue(live):
    updated = call(
        live, "github", "update_issue", {**REPO, "issue_number": 2, "title": "Search ignores case", "state": "closed"}
    )
    assert updated.event["body"] == {"title": "Search ignores case", "state": "closed"}
    assert (updated.json["title"], updated.json["state"], updated.json["state_reason"]) == (
        "Search ignores case",
        "closed",
        "completed",
    )
    commented = call(live, "github", "add_issue_comment", {**REPO, "issue_number": 2, "body": "Closed by the fix."})
    assert (commented.event["status"], commented.json["body"], commented.json["user"]["login"]) == (
        201,
        "Closed by the fix.",
        "stagebot",
    )
    issue = rest(live, "github", "GET", "/repos/acme/orders/issues/2")
    assert (issue["title"], issue["state"], issue["comments"]) == (
        "Search ignores case",
        "closed",
        updated.json["comments"] + 1,
    )


def test_search_issues_scopes_to_issues_and_the_repository(live):
    found = call(live, "github", "search_issues", {**REPO, "query": "totals", "perPage": 5})
    q = "repo:acme/orders is:issue totals"
    assert found.event["query"] == {"q": q, "per_page": "5"}
    assert found.json == rest(live, "github", "GET", "/search/issues", params={"q": q, "per_page": 5})
    assert sorted(i["number"] for i in found.json["items"]) == [1, 3]  # the pull requests on totals are left out


def test_file_contents_write_and_read(live):
    listed = call(live, "github", "get_file_contents", {**REPO})
    assert listed.event["path"] == "/repos/acme/orders/contents/"
    assert [e["name"] for e in listed.json] == [
        ".github",
        "CHANGELOG.md",
        "README.md",
        "requirements.txt",
        "src",
        "tests",
    ]
    written = call(
        live,
        "github",
        "create_or_update_file",
        {
            **REPO,
            "path": "docs/cache.md",
            "content": "The totals cache\n",
            "message": "Document the cache",
            "branch": "cache-off",
        },
    )
    assert written.event["body"] == {
        "message": "Document the cache",
        "content": base64.b64encode(b"The totals cache\n").decode(),
        "branch": "cache-off",
    }
    assert (written.event["status"], written.json["content"]["path"], written.json["commit"]["message"]) == (
        201,
        "docs/cache.md",
        "Document the cache",
    )
    read = call(live, "github", "get_file_contents", {**REPO, "path": "docs/cache.md", "ref": "cache-off"})
    assert read.event["query"] == {"ref": "cache-off"}
    assert base64.b64decode(read.json["content"]) == b"The totals cache\n"
    assert read.json["sha"] == written.json["content"]["sha"]
    commits = call(live, "github", "list_commits", {**REPO, "sha": "cache-off", "perPage": 1})
    assert commits.event["query"] == {"sha": "cache-off", "per_page": "1"}
    assert [c["sha"] for c in commits.json] == [written.json["commit"]["sha"]]
    assert commits.json == rest(
        live, "github", "GET", "/repos/acme/orders/commits", params={"sha": "cache-off", "per_page": 1}
    )


def test_pull_requests_open_read_list_and_merge(live):
    rest(live, "github", "PATCH", "/repos/acme/orders/pulls/5", json={"state": "closed"})  # cache-off's open pull
    opened = call(
        live,
        "github",
        "create_pull_request",
        {**REPO, "title": "Cache off, documented", "head": "cache-off", "base": "main"},
    )
    number = opened.json["number"]
    assert (opened.event["status"], opened.json["head"]["ref"], opened.json["state"]) == (201, "cache-off", "open")
    read = call(live, "github", "get_pull_request", {**REPO, "pullNumber": number})
    assert read.event["path"] == f"/repos/acme/orders/pulls/{number}"
    assert read.json == rest(live, "github", "GET", f"/repos/acme/orders/pulls/{number}")
    listed = call(live, "github", "list_pull_requests", {**REPO, "state": "open", "head": "acme:cache-off"})
    assert listed.event["query"] == {"state": "open", "head": "acme:cache-off"}
    assert [p["number"] for p in listed.json] == [number]
    merged = call(live, "github", "merge_pull_request", {**REPO, "pullNumber": number, "merge_method": "squash"})
    assert merged.event["body"] == {"merge_method": "squash"}
    assert merged.json["merged"] is True
    assert rest(live, "github", "GET", f"/repos/acme/orders/pulls/{number}")["merged"] is True


def test_search_code_finds_in_files(live):
    found = call(live, "github", "search_code", {"query": "cache repo:acme/orders", "perPage": 3})
    assert found.event["query"] == {"q": "cache repo:acme/orders", "per_page": "3"}
    assert found.json == rest(
        live, "github", "GET", "/search/code", params={"q": "cache repo:acme/orders", "per_page": 3}
    )
    assert found.json["total_count"] > 0


def test_a_missing_issue_is_githubs_not_found(live):
    missing = call(live, "github", "get_issue", {**REPO, "issue_number": 999})
    assert (missing.error, missing.event["status"]) == (True, 404)
    assert missing.json == rest(live, "github", "GET", "/repos/acme/orders/issues/999")
    assert missing.json["message"] == "Not Found"
