"""Issues, their labels, assignees, locks and comments, and repository labels: one function per operation.

The issue operations accept a pull request's number too (a pull request is an issue), as GitHub does.
Every handler validates all it reads before its first write. The argument readers here are shared by
the pulls, CI and search handlers.
"""

from __future__ import annotations

import re
from typing import Any

from ...clock import parse_time
from ...world import Record
from . import handlers_repos, work_views
from .errors import GitHubError, invalid, not_found
from .handlers_repos import repo_of, work_of
from .router import Call, created, no_content, ops, paginate
from .store import USERS
from .work import COMMENTS, ISSUES, PULLS, Work

DOCS = "https://docs.github.com/rest/issues"
_STATE_REASONS = ("completed", "not_planned", "reopened", "duplicate")
_LOCK_REASONS = ("off-topic", "too heated", "resolved", "spam")
_COLOR = re.compile(r"[0-9a-fA-F]{6}")


# -- shared argument readers -------------------------------------------------------------------------


def show(value: Any) -> str:
    """A value as GitHub's validator quotes it in `For 'x', <value> is not ...`."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def type_error(name: str, value: Any, kind: str) -> GitHubError:
    return GitHubError(422, f"Invalid request.\n\nFor '{name}', {show(value)} is not {kind}.")


def string_list(call: Call, name: str, body: Any = None) -> list[str] | None:
    """An array of strings in the body (None when absent)."""
    value = (call.fields if body is None else body).get(name)
    if value is None:
        return None
    if not isinstance(value, list):
        raise type_error(name, value, "an array")
    for item in value:
        if not isinstance(item, str):
            raise type_error(name, item, "a string")
    return value


def param(call: Call, name: str, default: str | None = None) -> str | None:
    """A query parameter; given several times, the last one counts."""
    value = call.query.get(name, default)
    return value[-1] if isinstance(value, list) else value


def one_of(call: Call, name: str, allowed: tuple[str, ...], default: str, resource: str = "Issue") -> str:
    """A query parameter limited to a few values; anything else is GitHub's 422."""
    value = param(call, name, default)
    if value not in allowed:
        raise GitHubError(422, "Validation Failed", [{"resource": resource, "field": name, "code": "invalid"}])
    assert value is not None
    return value


def since_arg(call: Call) -> int | None:
    value = param(call, "since")
    if value is None:
        return None
    try:
        return parse_time(value)
    except (TypeError, ValueError) as exc:
        raise GitHubError(
            422, "Validation Failed", [{"resource": "Issue", "field": "since", "code": "invalid"}]
        ) from exc


def number_arg(call: Call, name: str) -> int:
    raw = call.params[name]
    if not raw.isdigit():
        raise not_found(f"{DOCS}/issues#get-an-issue")
    return int(raw)


def item_of(call: Call, repo: Record, name: str = "issue_number") -> tuple[str, Record]:
    """The issue or pull request the path names, or 404."""
    found = work_of(call).item(repo["full_name"], number_arg(call, name))
    if found is None:
        raise not_found(f"{DOCS}/issues#get-an-issue")
    return found


def sort_value(work: Work, record: Record, sort: str) -> int:
    """What issues sort by: `created`, `updated` or `comments` (their number)."""
    if sort == "comments":
        return len(work.comments(record["repository"], record["number"]))
    return record["updated_at" if sort == "updated" else "created_at"]


def issue_view(call: Call, record: Record) -> dict[str, Any]:
    return work_views.issue(call.base, work_of(call), record)


def assignees_arg(call: Call, body: dict[str, Any]) -> list[str] | None:
    """`assignees` (or the older single `assignee`) as logins that exist; others are 422 `invalid`."""
    names = string_list(call, "assignees", body)
    if names is None and "assignee" in body:
        single = body["assignee"]
        if single is not None and not isinstance(single, str):
            raise type_error("assignee", single, "a string")
        names = [single] if single else []
    if names is None:
        return None
    users = call.world[USERS]
    for login in names:
        if users.get(login) is None:
            raise GitHubError(
                422,
                "Validation Failed",
                [{"value": login, "resource": "Issue", "field": "assignees", "code": "invalid"}],
            )
    return list(dict.fromkeys(names))


def label_names(call: Call, value: Any, name: str = "labels") -> list[str]:
    """Label names from strings or `{name}` objects."""
    if not isinstance(value, list):
        raise type_error(name, value, "an array")
    names = []
    for item in value:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            item = item["name"]
        if not isinstance(item, str) or not item.strip():
            raise type_error(name, item, "a string")
        names.append(item.strip())
    return names


def apply_labels(work: Work, repo: str, names: list[str]) -> list[str]:
    """The labels' own spelling, creating any the repo lacks (as GitHub does when labels are given by name)."""
    result: list[str] = []
    for name in names:
        found = work.label(repo, name) or work.create_label(repo, name, "ededed", None)
        if found["name"] not in result:
            result.append(found["name"])
    return result


# -- issues ------------------------------------------------------------------------------------------


def _matches(record: Record, labels: list[str], assignee: str | None, creator: str | None, since: int | None) -> bool:
    have = {name.lower() for name in record["labels"]}
    if any(name.lower() not in have for name in labels):
        return False
    if assignee == "none" and record["assignees"]:
        return False
    if assignee == "*" and not record["assignees"]:
        return False
    if assignee not in (None, "none", "*") and assignee not in record["assignees"]:
        return False
    if creator is not None and record["user"] != creator:
        return False
    return since is None or record["updated_at"] >= since


@ops("GET /repos/{owner}/{repo}/issues")
def list_issues(call: Call) -> Any:
    repo = repo_of(call)
    state = one_of(call, "state", ("open", "closed", "all"), "open")
    sort = one_of(call, "sort", ("created", "updated", "comments"), "created")
    direction = one_of(call, "direction", ("asc", "desc"), "desc")
    labels = [n.strip() for n in (param(call, "labels") or "").split(",") if n.strip()]
    assignee, creator, since = (param(call, "assignee"), param(call, "creator"), since_arg(call))
    name = repo["full_name"]
    records = [*call.world[ISSUES].by("repository", name), *call.world[PULLS].by("repository", name)]
    chosen = [
        r for r in records if (state == "all" or r["state"] == state) and _matches(r, labels, assignee, creator, since)
    ]
    work = work_of(call)
    chosen.sort(key=lambda r: (sort_value(work, r, sort), r["number"]), reverse=direction == "desc")
    return paginate(call, chosen, lambda r: issue_view(call, r))


@ops("POST /repos/{owner}/{repo}/issues")
def create_issue(call: Call) -> Any:
    repo = repo_of(call)
    body = call.fields
    title = body.get("title")
    if isinstance(title, int) and not isinstance(title, bool):
        title = str(title)
    if title is None or title == "":
        raise GitHubError(422, "Validation Failed", [{"resource": "Issue", "code": "missing_field", "field": "title"}])
    if not isinstance(title, str):
        raise type_error("title", title, "a string")
    text = handlers_repos.text_arg(call, "body")
    assignees = assignees_arg(call, body) or []
    names = label_names(call, body["labels"]) if body.get("labels") is not None else []
    work = work_of(call)
    record = work.create_issue(
        repo["full_name"],
        call.login,
        call.now(),
        title=title,
        body=text,
        labels=apply_labels(work, repo["full_name"], names),
        assignees=assignees,
    )
    return created(issue_view(call, record))


@ops("GET /repos/{owner}/{repo}/issues/{issue_number}")
def get_issue(call: Call) -> Any:
    return issue_view(call, item_of(call, repo_of(call))[1])


@ops("PATCH /repos/{owner}/{repo}/issues/{issue_number}")
def update_issue(call: Call) -> Any:
    repo = repo_of(call)
    collection, record = item_of(call, repo)
    body = call.fields
    changes: dict[str, Any] = {}
    if "title" in body:
        title = body["title"]
        if not isinstance(title, (str, int)) or isinstance(title, bool) or title == "":
            raise GitHubError(
                422, "Validation Failed", [{"resource": "Issue", "code": "missing_field", "field": "title"}]
            )
        changes["title"] = str(title)
    if "body" in body:
        changes["body"] = handlers_repos.text_arg(call, "body")
    if body.get("state") is not None:
        if body["state"] not in ("open", "closed"):
            raise invalid("Issue", "state")
        changes["state"] = body["state"]
    if body.get("state_reason") is not None:
        if body["state_reason"] not in _STATE_REASONS:
            raise invalid("Issue", "state_reason")
        changes["state_reason"] = body["state_reason"]
    assignees = assignees_arg(call, body)
    if assignees is not None:
        changes["assignees"] = assignees
    names = label_names(call, body["labels"]) if body.get("labels") is not None else None
    work = work_of(call)
    if names is not None:
        changes["labels"] = apply_labels(work, repo["full_name"], names)
    record = work.update_item(collection, record, call.login, call.now(), **changes)
    return issue_view(call, record)


@ops("PUT /repos/{owner}/{repo}/issues/{issue_number}/lock")
def lock_issue(call: Call) -> Any:
    collection, record = item_of(call, repo_of(call))
    reason = call.fields.get("lock_reason")
    if reason is not None and reason not in _LOCK_REASONS:
        raise invalid("Issue", "lock_reason")
    work_of(call).update_item(collection, record, call.login, call.now(), locked=True, active_lock_reason=reason)
    return no_content()


@ops("DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock")
def unlock_issue(call: Call) -> Any:
    collection, record = item_of(call, repo_of(call))
    work_of(call).update_item(collection, record, call.login, call.now(), locked=False, active_lock_reason=None)
    return no_content()


# -- labels on an issue ------------------------------------------------------------------------------


def _labels_body(call: Call) -> list[str]:
    """`{"labels": [...]}`, or the bare array PyGithub sends, of names or `{name}` objects."""
    body = call.body
    if isinstance(body, dict):
        body = body.get("labels")
    if body is None:
        raise GitHubError(422, 'Invalid request.\n\nNo subschema in "anyOf" matched.')
    return label_names(call, body)


def _issue_labels(call: Call, record: Record) -> Any:
    return work_views.labels(call.base, work_of(call), record["repository"], record["labels"])


@ops("GET /repos/{owner}/{repo}/issues/{issue_number}/labels")
def list_issue_labels(call: Call) -> Any:
    record = item_of(call, repo_of(call))[1]
    return paginate(call, _issue_labels(call, record))


@ops("POST /repos/{owner}/{repo}/issues/{issue_number}/labels")
def add_labels(call: Call) -> Any:
    repo = repo_of(call)
    collection, record = item_of(call, repo)
    names = _labels_body(call)
    work = work_of(call)
    added = apply_labels(work, repo["full_name"], [*record["labels"], *names])
    record = work.update_item(collection, record, call.login, call.now(), labels=added)
    return _issue_labels(call, record)


@ops("PUT /repos/{owner}/{repo}/issues/{issue_number}/labels")
def set_labels(call: Call) -> Any:
    repo = repo_of(call)
    collection, record = item_of(call, repo)
    names = _labels_body(call)
    work = work_of(call)
    record = work.update_item(
        collection, record, call.login, call.now(), labels=apply_labels(work, repo["full_name"], names)
    )
    return _issue_labels(call, record)


@ops("DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels")
def clear_labels(call: Call) -> Any:
    collection, record = item_of(call, repo_of(call))
    work_of(call).update_item(collection, record, call.login, call.now(), labels=[])
    return no_content()


@ops("DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}")
def remove_label(call: Call) -> Any:
    collection, record = item_of(call, repo_of(call))
    name = call.params["name"].lower()
    kept = [n for n in record["labels"] if n.lower() != name]
    if len(kept) == len(record["labels"]):
        raise GitHubError(404, "Label does not exist", documentation_url=f"{DOCS}/labels#remove-a-label-from-an-issue")
    record = work_of(call).update_item(collection, record, call.login, call.now(), labels=kept)
    return _issue_labels(call, record)


# -- assignees ---------------------------------------------------------------------------------------


@ops("POST /repos/{owner}/{repo}/issues/{issue_number}/assignees")
def add_assignees(call: Call) -> Any:
    repo = repo_of(call)
    collection, record = item_of(call, repo)
    names = assignees_arg(call, call.fields) or []
    merged = list(dict.fromkeys([*record["assignees"], *names]))
    record = work_of(call).update_item(collection, record, call.login, call.now(), assignees=merged)
    return created(issue_view(call, record))


@ops("DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees")
def remove_assignees(call: Call) -> Any:
    collection, record = item_of(call, repo_of(call))
    names = set(string_list(call, "assignees") or [])
    kept = [login for login in record["assignees"] if login not in names]
    record = work_of(call).update_item(collection, record, call.login, call.now(), assignees=kept)
    return issue_view(call, record)


# -- comments ----------------------------------------------------------------------------------------


def _comment_of(call: Call, repo: Record) -> Record:
    raw = call.params["comment_id"]
    record = call.world[COMMENTS].get(raw) if raw.isdigit() else None
    if record is None or record["repository"] != repo["full_name"]:
        raise not_found(f"{DOCS}/comments#get-an-issue-comment")
    return record


def _comment_body(call: Call) -> str:
    text = handlers_repos.text_arg(call, "body")
    if not text:
        raise GitHubError(
            422, "Validation Failed", [{"resource": "IssueComment", "code": "missing_field", "field": "body"}]
        )
    return text


def comment_view(call: Call, record: Record) -> dict[str, Any]:
    return work_views.comment(call.base, work_of(call), record)


@ops("GET /repos/{owner}/{repo}/issues/{issue_number}/comments")
def list_comments(call: Call) -> Any:
    repo = repo_of(call)
    record = item_of(call, repo)[1]
    since = since_arg(call)
    comments = [
        c
        for c in work_of(call).comments(repo["full_name"], record["number"])
        if since is None or c["updated_at"] >= since
    ]
    return paginate(call, comments, lambda c: comment_view(call, c))


@ops("POST /repos/{owner}/{repo}/issues/{issue_number}/comments")
def create_comment(call: Call) -> Any:
    record = item_of(call, repo_of(call))[1]
    text = _comment_body(call)
    comment = work_of(call).add_comment(record, call.login, text, call.now())
    return created(comment_view(call, comment))


@ops("GET /repos/{owner}/{repo}/issues/comments/{comment_id}")
def get_comment(call: Call) -> Any:
    return comment_view(call, _comment_of(call, repo_of(call)))


@ops("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}")
def update_comment(call: Call) -> Any:
    comment = _comment_of(call, repo_of(call))
    text = _comment_body(call)
    comment = call.world[COMMENTS].change(str(comment["id"]), body=text, updated_at=call.now())
    return comment_view(call, comment)


@ops("DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}")
def delete_comment(call: Call) -> Any:
    comment = _comment_of(call, repo_of(call))
    work_of(call).remove_comment(comment)
    return no_content()


# -- repository labels -------------------------------------------------------------------------------


@ops("GET /repos/{owner}/{repo}/labels")
def list_labels(call: Call) -> Any:
    repo = repo_of(call)
    records = sorted(work_of(call).labels(repo["full_name"]), key=lambda r: r["name"].lower())
    return paginate(call, records, lambda r: work_views.label(call.base, r))


@ops("POST /repos/{owner}/{repo}/labels")
def create_label(call: Call) -> Any:
    repo = repo_of(call)
    name = handlers_repos.text_arg(call, "name", required=True)
    color = (handlers_repos.text_arg(call, "color") or "ededed").lstrip("#")
    description = handlers_repos.text_arg(call, "description")
    if not _COLOR.fullmatch(color):
        raise invalid("Label", "color")
    work = work_of(call)
    assert name is not None
    if work.label(repo["full_name"], name) is not None:
        raise GitHubError(422, "Validation Failed", [{"resource": "Label", "code": "already_exists", "field": "name"}])
    return created(work_views.label(call.base, work.create_label(repo["full_name"], name, color.lower(), description)))
