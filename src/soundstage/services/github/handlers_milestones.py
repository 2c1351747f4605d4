"""A repository's milestones: one function per operation. Issues and pulls join one through the issues
API's `milestone` field (`handlers_issues`)."""

from __future__ import annotations

from typing import Any

from ...clock import parse_time
from ...world import Record
from . import milestones, views_issues
from .calls import Call, created, ops, paginate
from .errors import GitHubError, failed, not_found

DOCS = "https://docs.github.com/rest/issues/milestones"
_FAR = 2**62  # a milestone without a due date sorts after every dated one


def _view(call: Call, record: Record) -> dict[str, Any]:
    return views_issues.milestone(call.base, call.records, record)


@ops("GET /repos/{owner}/{repo}/milestones")
def list_milestones(call: Call) -> Any:
    repo = call.repo()
    state = call.one_of("state", ("open", "closed", "all"), "open", "Milestone")
    sort = call.one_of("sort", ("due_on", "completeness"), "due_on", "Milestone")
    direction = call.one_of("direction", ("asc", "desc"), "asc", "Milestone")
    records = call.records
    found = [m for m in milestones.of_repo(records, repo["full_name"]) if state in ("all", m["state"])]

    def order(m: Record) -> tuple[float, int]:
        if sort == "completeness":
            open_issues, closed_issues = milestones.counts(records, m)
            total = open_issues + closed_issues
            return (closed_issues / total if total else 0.0), m["number"]
        return (m["due_on"] if m["due_on"] is not None else _FAR), m["number"]

    found.sort(key=order, reverse=direction == "desc")
    return paginate(call, found, lambda m: _view(call, m))


@ops("POST /repos/{owner}/{repo}/milestones")
def create_milestone(call: Call) -> Any:
    repo = call.repo()
    title = call.required_text("title")
    state = call.text("state") or "open"
    if state not in ("open", "closed"):
        raise failed({"resource": "Milestone", "code": "invalid", "field": "state"})
    description = call.text("description")
    due = call.text("due_on")
    try:
        due_on = parse_time(due) if due is not None else None
    except ValueError as exc:
        raise failed({"resource": "Milestone", "code": "invalid", "field": "due_on"}) from exc
    if milestones.by_title(call.records, repo["full_name"], title) is not None:
        raise failed({"resource": "Milestone", "code": "already_exists", "field": "title"})
    record = milestones.create(
        call.records,
        repo["full_name"],
        call.login,
        call.now(),
        title=title,
        state=state,
        description=description,
        due_on=due_on,
    )
    return created(_view(call, record))


@ops("GET /repos/{owner}/{repo}/milestones/{milestone_number}")
def get_milestone(call: Call) -> Any:
    repo = call.repo()
    raw = call.params["milestone_number"]
    record = (
        milestones.milestone(call.records, repo["full_name"], int(raw)) if raw.isascii() and raw.isdigit() else None
    )
    if record is None:
        raise not_found(f"{DOCS}#get-a-milestone")
    return _view(call, record)


def milestone_field(call: Call, repo: Record) -> int | None:
    """The `milestone` of an issue body: a milestone number of the repo (an integer or its digits), or
    null for none; anything else is 422 `invalid`."""
    value = call.fields.get("milestone")
    if value is None:
        return None
    number = int(value) if isinstance(value, str) and value.isascii() and value.isdigit() else value
    if (
        not isinstance(number, int)
        or isinstance(number, bool)
        or milestones.milestone(call.records, repo["full_name"], number) is None
    ):
        raise GitHubError(
            422, "Validation Failed", [{"value": value, "resource": "Issue", "field": "milestone", "code": "invalid"}]
        )
    return number
