"""GitHub's GraphQL mutations on issues and pull requests. Each finds the records its input's node ids
name and writes through the same state modules as the REST operations, so a pull merged here is the
same merge (and deploy) that `PUT .../merge` makes and the `github.pull` check sees."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...world import Record
from . import commits, issues, pulls, repos
from .graphql_objects import Comment, Context, Issue, Problem, PullRequest, Review, cursor
from .store import ISSUES, LABELS, PULLS, REPOS, USERS

_EVENTS = {"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED"}


def by_node_id(ctx: Context, collection: str, ident: str) -> Record:
    """The record of `collection` with node id `ident`; GitHub's NOT_FOUND otherwise."""
    found = ctx.records[collection].by("node_id", ident)
    if not found:
        raise Problem("NOT_FOUND", f"Could not resolve to a node with the global id of '{ident}'")
    return found[0]


def _payload(data: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"clientMutationId": data.get("clientMutationId"), **fields}


def create_issue(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    repo = by_node_id(ctx, REPOS, data["repositoryId"])
    if not data["title"].strip():
        raise Problem("UNPROCESSABLE", "Title can't be blank")
    labels = [by_node_id(ctx, LABELS, i)["name"] for i in data.get("labelIds") or []]
    assignees = [by_node_id(ctx, USERS, i)["login"] for i in data.get("assigneeIds") or []]
    record = issues.create_issue(
        ctx.records,
        repo["full_name"],
        ctx.viewer["login"],
        ctx.at,
        title=data["title"],
        body=data.get("body"),
        labels=labels,
        assignees=assignees,
    )
    return _payload(data, issue=Issue(ctx, record))


def _item(ctx: Context, ident: str) -> tuple[str, Record]:
    """The issue or pull request with node id `ident`, with its collection."""
    for collection in (ISSUES, PULLS):
        found = ctx.records[collection].by("node_id", ident)
        if found:
            return collection, found[0]
    raise Problem("NOT_FOUND", f"Could not resolve to a node with the global id of '{ident}'")


def add_comment(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    _, record = _item(ctx, data["subjectId"])
    if not data["body"].strip():
        raise Problem("UNPROCESSABLE", "Body cannot be blank")
    comment = issues.add_comment(ctx.records, record, ctx.viewer["login"], data["body"], ctx.at)
    index = len(issues.comments(ctx.records, record["repository"], record["number"])) - 1
    subject = _as_object(ctx, record)
    return _payload(data, commentEdge={"cursor": cursor(index), "node": Comment(ctx, comment)}, subject=subject)


def _set_state(ctx: Context, collection: str, record: Record, state: str, reason: str | None = None) -> Record:
    fields: dict[str, Any] = {"state": state}
    if reason is not None:
        fields["state_reason"] = reason
    return issues.update_item(ctx.records, collection, record, ctx.viewer["login"], ctx.at, **fields)


def close_issue(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    record = by_node_id(ctx, ISSUES, data["issueId"])
    reason = (data.get("stateReason") or "COMPLETED").lower()
    return _payload(data, issue=Issue(ctx, _set_state(ctx, ISSUES, record, "closed", reason)))


def reopen_issue(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    record = by_node_id(ctx, ISSUES, data["issueId"])
    return _payload(data, issue=Issue(ctx, _set_state(ctx, ISSUES, record, "open")))


def close_pull_request(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    record = by_node_id(ctx, PULLS, data["pullRequestId"])
    if record["merged"]:
        raise Problem("UNPROCESSABLE", "Pull request is already merged")
    return _payload(data, pullRequest=PullRequest(ctx, _set_state(ctx, PULLS, record, "closed")))


def reopen_pull_request(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    record = by_node_id(ctx, PULLS, data["pullRequestId"])
    if record["merged"]:
        raise Problem("UNPROCESSABLE", "Pull request is already merged")
    return _payload(data, pullRequest=PullRequest(ctx, _set_state(ctx, PULLS, record, "open")))


def _as_object(ctx: Context, record: Record) -> Issue | PullRequest:
    return PullRequest(ctx, record) if "head" in record else Issue(ctx, record)


def _changed(ctx: Context, data: dict[str, Any], ident: str, **extra: Any) -> Issue | PullRequest:
    """An issue or pull with its title, body, state, labels or assignees set from `data` (those given)."""
    collection, record = _item(ctx, ident)
    fields: dict[str, Any] = dict(extra)
    for name in ("title", "body"):
        if data.get(name) is not None:
            fields[name] = data[name]
    if "title" in fields and not fields["title"].strip():
        raise Problem("UNPROCESSABLE", "Title can't be blank")
    if data.get("state") is not None:
        if record.get("merged"):
            raise Problem("UNPROCESSABLE", "Pull request is already merged")
        fields["state"] = data["state"].lower()
    if data.get("labelIds") is not None:
        fields["labels"] = [by_node_id(ctx, LABELS, i)["name"] for i in data["labelIds"]]
    if data.get("assigneeIds") is not None:
        fields["assignees"] = [by_node_id(ctx, USERS, i)["login"] for i in data["assigneeIds"]]
    changed = issues.update_item(ctx.records, collection, record, ctx.viewer["login"], ctx.at, **fields)
    return _as_object(ctx, changed)


def update_issue(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    by_node_id(ctx, ISSUES, data["id"])
    return _payload(data, issue=_changed(ctx, data, data["id"]))


def update_pull_request(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    record = by_node_id(ctx, PULLS, data["pullRequestId"])
    extra: dict[str, Any] = {}
    if data.get("baseRefName") is not None:
        if repos.branch_sha(ctx.records, record["repository"], data["baseRefName"]) is None:
            raise Problem("UNPROCESSABLE", f"Proposed base branch '{data['baseRefName']}' was not found")
        extra["base"] = data["baseRefName"]
    if data.get("maintainerCanModify") is not None:
        extra["maintainer_can_modify"] = data["maintainerCanModify"]
    return _payload(data, pullRequest=_changed(ctx, data, data["pullRequestId"], **extra))


def _names(ctx: Context, collection: str, field: str, ids: list[str]) -> list[str]:
    return [by_node_id(ctx, collection, i)[field] for i in ids]


def add_labels(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    _, record = _item(ctx, data["labelableId"])
    added = _names(ctx, LABELS, "name", data["labelIds"])
    labels = list(dict.fromkeys(record["labels"] + added))
    return _payload(data, labelable=_changed(ctx, {}, data["labelableId"], labels=labels))


def remove_labels(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    _, record = _item(ctx, data["labelableId"])
    removed = set(_names(ctx, LABELS, "name", data["labelIds"]))
    labels = [n for n in record["labels"] if n not in removed]
    return _payload(data, labelable=_changed(ctx, {}, data["labelableId"], labels=labels))


def add_assignees(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    _, record = _item(ctx, data["assignableId"])
    added = _names(ctx, USERS, "login", data["assigneeIds"])
    assignees = list(dict.fromkeys(record["assignees"] + added))
    return _payload(data, assignable=_changed(ctx, {}, data["assignableId"], assignees=assignees))


def remove_assignees(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    _, record = _item(ctx, data["assignableId"])
    removed = set(_names(ctx, USERS, "login", data["assigneeIds"]))
    assignees = [n for n in record["assignees"] if n not in removed]
    return _payload(data, assignable=_changed(ctx, {}, data["assignableId"], assignees=assignees))


def create_pull_request(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    repo = by_node_id(ctx, REPOS, data["repositoryId"])
    name, records = repo["full_name"], ctx.records
    base, head = data["baseRefName"], data["headRefName"].split(":")[-1]
    head_sha, base_sha = repos.branch_sha(records, name, head), repos.branch_sha(records, name, base)
    if not data["title"].strip():
        raise Problem("UNPROCESSABLE", "Title can't be blank")
    if head_sha is None:
        raise Problem("UNPROCESSABLE", "Head sha can't be blank, Base sha can't be blank, Head ref must be a branch")
    if base_sha is None:
        raise Problem("UNPROCESSABLE", "Base ref must be a branch")
    if head == base or not commits.compare(records.objects, base_sha, head_sha)["ahead_by"]:
        raise Problem("UNPROCESSABLE", f"No commits between {base} and {head}")
    for other in records[PULLS].by("head", head):
        if other["repository"] == name and other["base"] == base and other["state"] == "open":
            raise Problem("UNPROCESSABLE", f"A pull request already exists for {repo['owner']}:{head}.")
    record = pulls.create_pull(
        records,
        name,
        ctx.viewer["login"],
        ctx.at,
        title=data["title"],
        body=data.get("body"),
        head=head,
        base=base,
        draft=bool(data.get("draft")),
        maintainer_can_modify=bool(data.get("maintainerCanModify")),
    )
    return _payload(data, pullRequest=PullRequest(ctx, record))


def merge_pull_request(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    records = ctx.records
    record = by_node_id(ctx, PULLS, data["pullRequestId"])
    if record["merged"]:
        raise Problem("UNPROCESSABLE", "Pull Request is already merged")
    if record["state"] != "open" or not pulls.mergeable(records, record):
        raise Problem("UNPROCESSABLE", "Pull Request is not mergeable")
    expected = data.get("expectedHeadOid")
    if expected is not None and expected != pulls.head_sha(records, record):
        raise Problem("UNPROCESSABLE", "Head branch was modified. Review and try the merge again.")
    method = (data.get("mergeMethod") or "MERGE").lower()
    title, message = pulls.merge_messages(record, method, pulls.changes(records, record)["commits"])
    given_title, given_body = data.get("commitHeadline"), data.get("commitBody")
    title, message = given_title or title, message if given_body is None else given_body
    pulls.merge_pull(records, record, method, title, message, ctx.viewer, ctx.at)
    merged = records[PULLS].get(f"{record['repository']}#{record['number']}")
    assert merged is not None
    return _payload(data, pullRequest=PullRequest(ctx, merged))


def add_pull_request_review(ctx: Context, data: dict[str, Any]) -> dict[str, Any]:
    records = ctx.records
    record = by_node_id(ctx, PULLS, data["pullRequestId"])
    event, text = data.get("event"), data.get("body") or ""
    commit_id = data.get("commitOID") or pulls.head_sha(records, record) or ""
    if commits.commit(records.objects, commit_id) is None:
        raise Problem("UNPROCESSABLE", "Commit not found")
    if event in ("APPROVE", "REQUEST_CHANGES") and record["user"] == ctx.viewer["login"]:
        verb = "approve" if event == "APPROVE" else "request changes on"
        raise Problem("UNPROCESSABLE", f"Review Can not {verb} your own pull request")
    if event == "REQUEST_CHANGES" and not text:
        raise Problem("UNPROCESSABLE", "Review body is required when requesting changes")
    if event == "DISMISS":
        raise Problem("UNPROCESSABLE", "Review cannot be dismissed before it is submitted")
    state = _EVENTS[event] if event else "PENDING"
    review = pulls.create_review(
        records, record, ctx.viewer["login"], state, text, commit_id, ctx.at if event else None
    )
    return _payload(data, pullRequestReview=Review(ctx, review))


MUTATIONS: dict[str, Callable[[Context, dict[str, Any]], dict[str, Any]]] = {
    "createIssue": create_issue,
    "addComment": add_comment,
    "closeIssue": close_issue,
    "reopenIssue": reopen_issue,
    "createPullRequest": create_pull_request,
    "closePullRequest": close_pull_request,
    "reopenPullRequest": reopen_pull_request,
    "mergePullRequest": merge_pull_request,
    "addPullRequestReview": add_pull_request_review,
    "updateIssue": update_issue,
    "updatePullRequest": update_pull_request,
    "addLabelsToLabelable": add_labels,
    "removeLabelsFromLabelable": remove_labels,
    "addAssigneesToAssignable": add_assignees,
    "removeAssigneesFromAssignable": remove_assignees,
}
