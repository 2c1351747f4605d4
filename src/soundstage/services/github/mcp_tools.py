"""GitHub's MCP tools (facts in `mcp_tools.yaml`), each the REST operation it stands for."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from ..mcp import RestCall, Tools, bearer, path, picked

tools = Tools("github", Path(__file__).with_name("mcp_tools.yaml"), bearer("GITHUB_TOKEN"))

REPO = "/repos/{owner}/{repo}"
# The paging arguments every listing takes, by their REST names.
PAGING = {"page": "page", "perPage": "per_page"}


def _labels(arguments: dict[str, Any]) -> dict[str, Any]:
    labels = arguments.get("labels")
    return {"labels": ",".join(str(label) for label in labels)} if labels else {}


@tools("get_me", "GET /user")
def get_me(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", "/user")


@tools("get_issue", f"GET {REPO}/issues/{{issue_number}}")
def get_issue(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", path(REPO + "/issues/{issue_number}", arguments))


@tools("list_issues", f"GET {REPO}/issues")
def list_issues(arguments: dict[str, Any]) -> RestCall:
    query = picked(arguments, {"state": "state", "sort": "sort", "direction": "direction", "since": "since", **PAGING})
    return RestCall("GET", path(REPO + "/issues", arguments), query={**query, **_labels(arguments)})


@tools("create_issue", f"POST {REPO}/issues")
def create_issue(arguments: dict[str, Any]) -> RestCall:
    fields = ("title", "body", "assignees", "labels", "milestone")
    return RestCall("POST", path(REPO + "/issues", arguments), body=picked(arguments, {f: f for f in fields}))


@tools("update_issue", f"PATCH {REPO}/issues/{{issue_number}}")
def update_issue(arguments: dict[str, Any]) -> RestCall:
    fields = ("title", "body", "state", "labels", "assignees", "milestone")
    body = picked(arguments, {f: f for f in fields})
    return RestCall("PATCH", path(REPO + "/issues/{issue_number}", arguments), body=body)


@tools("add_issue_comment", f"POST {REPO}/issues/{{issue_number}}/comments")
def add_issue_comment(arguments: dict[str, Any]) -> RestCall:
    where = path(REPO + "/issues/{issue_number}/comments", arguments)
    return RestCall("POST", where, body={"body": arguments["body"]})


@tools("search_issues", "GET /search/issues")
def search_issues(arguments: dict[str, Any]) -> RestCall:
    # As the server words the search: issues alone, and in the repository owner and repo name.
    q = f"is:issue {arguments['query']}"
    if arguments.get("owner") and arguments.get("repo"):
        q = f"repo:{arguments['owner']}/{arguments['repo']} {q}"
    return RestCall(
        "GET", "/search/issues", query={"q": q, **picked(arguments, {"sort": "sort", "order": "order", **PAGING})}
    )


@tools("get_file_contents", f"GET {REPO}/contents/{{path}}")
def get_file_contents(arguments: dict[str, Any]) -> RestCall:
    where = path(REPO + "/contents/{path}", {"path": "", **arguments}, tail="path")
    ref = arguments.get("sha") or arguments.get("ref")  # a commit, where given, before the ref
    return RestCall("GET", where, query={"ref": ref} if ref else {})


@tools("create_or_update_file", f"PUT {REPO}/contents/{{path}}")
def create_or_update_file(arguments: dict[str, Any]) -> RestCall:
    content = arguments["content"]
    if not isinstance(content, str):
        raise TypeError("content must be a string")
    body = {
        "message": arguments["message"],
        "content": base64.b64encode(content.encode()).decode(),  # the REST API takes the bytes in base64
        **picked(arguments, {"branch": "branch", "sha": "sha"}),
    }
    return RestCall("PUT", path(REPO + "/contents/{path}", arguments, tail="path"), body=body)


@tools("create_pull_request", f"POST {REPO}/pulls")
def create_pull_request(arguments: dict[str, Any]) -> RestCall:
    fields = ("title", "body", "head", "base", "draft", "maintainer_can_modify")
    return RestCall("POST", path(REPO + "/pulls", arguments), body=picked(arguments, {f: f for f in fields}))


@tools("get_pull_request", f"GET {REPO}/pulls/{{pull_number}}")
def get_pull_request(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", path(REPO + "/pulls/{pullNumber}", arguments))


@tools("list_pull_requests", f"GET {REPO}/pulls")
def list_pull_requests(arguments: dict[str, Any]) -> RestCall:
    renames = {"state": "state", "head": "head", "base": "base", "sort": "sort", "direction": "direction", **PAGING}
    return RestCall("GET", path(REPO + "/pulls", arguments), query=picked(arguments, renames))


@tools("merge_pull_request", f"PUT {REPO}/pulls/{{pull_number}}/merge")
def merge_pull_request(arguments: dict[str, Any]) -> RestCall:
    fields = ("commit_title", "commit_message", "merge_method")
    where = path(REPO + "/pulls/{pullNumber}/merge", arguments)
    return RestCall("PUT", where, body=picked(arguments, {f: f for f in fields}))


@tools("list_commits", f"GET {REPO}/commits")
def list_commits(arguments: dict[str, Any]) -> RestCall:
    query = picked(arguments, {"sha": "sha", "author": "author", **PAGING})
    return RestCall("GET", path(REPO + "/commits", arguments), query=query)


@tools("search_code", "GET /search/code")
def search_code(arguments: dict[str, Any]) -> RestCall:
    return RestCall(
        "GET", "/search/code", query=picked(arguments, {"query": "q", "sort": "sort", "order": "order", **PAGING})
    )
