"""Issues, their labels, assignees, locks and comments, and repository labels: one function per operation.

The issue operations accept a pull request's number too (a pull request is an issue), as GitHub does.
Every handler validates all it reads before its first write.
"""

from __future__ import annotations

import re
from typing import Any

from ...world import Record
from . import issues, listing, views_issues
from .calls import Call, created, no_content, ops, paginate
from .errors import GitHubError, invalid, type_error
from .handlers_milestones import milestone_field
from .store import COMMENTS, ISSUES, PULLS

DOCS = "https://docs.github.com/rest/issues"
_STATE_REASONS = ("completed", "not_planned", "reopened", "duplicate")
_LOCK_REASONS = ("off-topic", "too heated", "resolved", "spam")
_COLOR = re.compile(r"[0-9a-fA-F]{6}")


def issue_view(call: Call, record: Record) -> dict[str, Any]:
    return views_issues.issue(call.base, call.records, record)


# -- issues ------------------------------------------------------------------------------------------


def _matches(
    record: Record,
    labels: list[str],
    assignee: str | None,
    creator: str | None,
    since: int | None,
    milestone: str | None,
) -> bool:
    if milestone == "none" and record["milestone"] is not None:
        return False
    if milestone == "*" and record["milestone"] is None:
        return False
    if milestone not in (None, "none", "*") and str(record["milestone"]) != milestone:
        return False
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
    repo = call.repo()
    state = call.one_of("state", ("open", "closed", "all"), "open")
    sort = call.one_of("sort", ("created", "updated", "comments"), "created")
    direction = call.one_of("direction", ("asc", "desc"), "desc")
    labels = [n.strip() for n in (call.param("labels") or "").split(",") if n.strip()]
    assignee, creator, since = (call.param("assignee"), call.param("creator"), call.since())
    milestone = call.param("milestone")
    name = repo["full_name"]
    if not labels and assignee is None and creator is None and since is None and milestone is None:
        ordered = listing.sorted_items(call.records, (ISSUES, PULLS), name, state, sort, direction == "desc")
        if ordered is not None:
            return paginate(call, ordered, lambda r: issue_view(call, r))
    items = [*call.world[ISSUES].by("repository", name), *call.world[PULLS].by("repository", name)]
    chosen = [
        r
        for r in items
        if (state == "all" or r["state"] == state) and _matches(r, labels, assignee, creator, since, milestone)
    ]
    chosen.sort(key=lambda r: (issues.sort_value(call.records, r, sort), r["number"]), reverse=direction == "desc")
    return paginate(call, chosen, lambda r: issue_view(call, r))


@ops("POST /repos/{owner}/{repo}/issues")
def create_issue(call: Call) -> Any:
    repo = call.repo()
    body = call.fields
    title = body.get("title")
    if isinstance(title, int) and not isinstance(title, bool):
        title = str(title)
    if title is None or title == "":
        raise GitHubError(422, "Validation Failed", [{"resource": "Issue", "code": "missing_field", "field": "title"}])
    if not isinstance(title, str):
        raise type_error("title", title, "a string")
    text = call.issue_body()
    assignees = call.assignees() or []
    names = call.labels() or []
    milestone = milestone_field(call, repo)
    records = call.records
    record = issues.create_issue(
        records,
        repo["full_name"],
        call.login,
        call.now(),
        title=title,
        body=text,
        labels=issues.apply_labels(records, repo["full_name"], names),
        assignees=assignees,
        milestone=milestone,
    )
    return created(issue_view(call, record))


@ops("GET /repos/{owner}/{repo}/issues/{issue_number}")
def get_issue(call: Call) -> Any:
    return issue_view(call, call.item(call.repo())[1])


@ops("PATCH /repos/{owner}/{repo}/issues/{issue_number}")
def update_issue(call: Call) -> Any:
    repo = call.repo()
    collection, record = call.item(repo)
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
        changes["body"] = call.issue_body()
    if body.get("state") is not None:
        if body["state"] not in ("open", "closed"):
            raise invalid("Issue", "state")
        changes["state"] = body["state"]
    if body.get("state_reason") is not None:
        if body["state_reason"] not in _STATE_REASONS:
            raise invalid("Issue", "state_reason")
        changes["state_reason"] = body["state_reason"]
    assignees = call.assignees()
    if assignees is not None:
        changes["assignees"] = assignees
    if "milestone" in body:
        changes["milestone"] = milestone_field(call, repo)
    names = call.labels()
    if names is not None:
        changes["labels"] = issues.apply_labels(call.records, repo["full_name"], names)
    record = issues.update_item(call.records, collection, record, call.login, call.now(), **changes)
    return issue_view(call, record)


@ops("PUT /repos/{owner}/{repo}/issues/{issue_number}/lock")
def lock_issue(call: Call) -> Any:
    collection, record = call.item(call.repo())
    reason = call.fields.get("lock_reason")
    if reason is not None and reason not in _LOCK_REASONS:
        raise invalid("Issue", "lock_reason")
    issues.update_item(call.records, collection, record, call.login, call.now(), locked=True, active_lock_reason=reason)
    return no_content()


@ops("DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock")
def unlock_issue(call: Call) -> Any:
    collection, record = call.item(call.repo())
    issues.update_item(call.records, collection, record, call.login, call.now(), locked=False, active_lock_reason=None)
    return no_content()


# -- labels on an issue ------------------------------------------------------------------------------


def _issue_labels(call: Call, record: Record) -> Any:
    return views_issues.labels(call.base, call.records, record["repository"], record["labels"])


@ops("GET /repos/{owner}/{repo}/issues/{issue_number}/labels")
def list_issue_labels(call: Call) -> Any:
    record = call.item(call.repo())[1]
    return paginate(call, _issue_labels(call, record))


@ops("POST /repos/{owner}/{repo}/issues/{issue_number}/labels")
def add_labels(call: Call) -> Any:
    repo = call.repo()
    collection, record = call.item(repo)
    names = call.labels_body()
    added = issues.apply_labels(call.records, repo["full_name"], [*record["labels"], *names])
    record = issues.update_item(call.records, collection, record, call.login, call.now(), labels=added)
    return _issue_labels(call, record)


@ops("PUT /repos/{owner}/{repo}/issues/{issue_number}/labels")
def set_labels(call: Call) -> Any:
    repo = call.repo()
    collection, record = call.item(repo)
    names = call.labels_body()
    labels = issues.apply_labels(call.records, repo["full_name"], names)
    record = issues.update_item(call.records, collection, record, call.login, call.now(), labels=labels)
    return _issue_labels(call, record)


@ops("DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels")
def clear_labels(call: Call) -> Any:
    collection, record = call.item(call.repo())
    issues.update_item(call.records, collection, record, call.login, call.now(), labels=[])
    return no_content()


@ops("DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}")
def remove_label(call: Call) -> Any:
    collection, record = call.item(call.repo())
    name = call.params["name"].lower()
    kept = [n for n in record["labels"] if n.lower() != name]
    if len(kept) == len(record["labels"]):
        raise GitHubError(404, "Label does not exist", documentation_url=f"{DOCS}/labels#remove-a-label-from-an-issue")
    record = issues.update_item(call.records, collection, record, call.login, call.now(), labels=kept)
    return _issue_labels(call, record)


# -- assignees ---------------------------------------------------------------------------------------


@ops("POST /repos/{owner}/{repo}/issues/{issue_number}/assignees")
def add_assignees(call: Call) -> Any:
    repo = call.repo()
    collection, record = call.item(repo)
    names = call.assignees() or []
    merged = list(dict.fromkeys([*record["assignees"], *names]))
    record = issues.update_item(call.records, collection, record, call.login, call.now(), assignees=merged)
    return created(issue_view(call, record))


@ops("DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees")
def remove_assignees(call: Call) -> Any:
    collection, record = call.item(call.repo())
    names = set(call.strings("assignees") or [])
    kept = [login for login in record["assignees"] if login not in names]
    record = issues.update_item(call.records, collection, record, call.login, call.now(), assignees=kept)
    return issue_view(call, record)


# -- comments ----------------------------------------------------------------------------------------


def _comment_of(call: Call, repo: Record) -> Record:
    return call.by_id(repo, COMMENTS, "comment_id", f"{DOCS}/comments#get-an-issue-comment")


def comment_view(call: Call, record: Record) -> dict[str, Any]:
    return views_issues.comment(call.base, call.records, record)


@ops("GET /repos/{owner}/{repo}/issues/{issue_number}/comments")
def list_comments(call: Call) -> Any:
    repo = call.repo()
    record = call.item(repo)[1]
    since = call.since()
    comments = [
        c
        for c in issues.comments(call.records, repo["full_name"], record["number"])
        if since is None or c["updated_at"] >= since
    ]
    return paginate(call, comments, lambda c: comment_view(call, c))


@ops("POST /repos/{owner}/{repo}/issues/{issue_number}/comments")
def create_comment(call: Call) -> Any:
    record = call.item(call.repo())[1]
    text = call.comment_body()
    comment = issues.add_comment(call.records, record, call.login, text, call.now())
    return created(comment_view(call, comment))


@ops("GET /repos/{owner}/{repo}/issues/comments/{comment_id}")
def get_comment(call: Call) -> Any:
    return comment_view(call, _comment_of(call, call.repo()))


@ops("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}")
def update_comment(call: Call) -> Any:
    comment = _comment_of(call, call.repo())
    text = call.comment_body()
    comment = call.world[COMMENTS].change(str(comment["id"]), body=text, updated_at=call.now())
    return comment_view(call, comment)


@ops("DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}")
def delete_comment(call: Call) -> Any:
    comment = _comment_of(call, call.repo())
    issues.remove_comment(call.records, comment)
    return no_content()


# -- repository labels -------------------------------------------------------------------------------


@ops("GET /repos/{owner}/{repo}/labels")
def list_labels(call: Call) -> Any:
    repo = call.repo()
    records = sorted(issues.labels(call.records, repo["full_name"]), key=lambda r: r["name"].lower())
    return paginate(call, records, lambda r: views_issues.label(call.base, r))


@ops("POST /repos/{owner}/{repo}/labels")
def create_label(call: Call) -> Any:
    repo = call.repo()
    name = call.text("name", required=True)
    color = (call.text("color") or "ededed").lstrip("#")
    description = call.text("description")
    if not _COLOR.fullmatch(color):
        raise invalid("Label", "color")
    assert name is not None
    if issues.label(call.records, repo["full_name"], name) is not None:
        raise GitHubError(422, "Validation Failed", [{"resource": "Label", "code": "already_exists", "field": "name"}])
    return created(
        views_issues.label(
            call.base, issues.create_label(call.records, repo["full_name"], name, color.lower(), description)
        )
    )
