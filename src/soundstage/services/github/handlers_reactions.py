"""Reactions to issues and pull requests, issue comments and review comments: one function per operation.
Reacting again with a content one already gave answers that reaction (200), a new one is 201."""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import reactions, views
from .calls import Call, created, no_content, ops, paginate
from .errors import GitHubError, not_found
from .store import COMMENTS, REACTIONS, REVIEW_COMMENTS

DOCS = "https://docs.github.com/rest/reactions/reactions"
_MEMBERS = ", ".join(f'"{c}"' for c in reactions.CONTENTS)


def _issue(call: Call) -> tuple[Record, str]:
    repo = call.repo()
    record = call.item(repo)[1]
    return repo, reactions.issue_subject(repo["full_name"], record["number"])


def _comment(call: Call) -> tuple[Record, str]:
    repo = call.repo()
    comment = call.by_id(repo, COMMENTS, "comment_id", f"{DOCS}#list-reactions-for-an-issue-comment")
    return repo, reactions.comment_subject(comment["id"])


def _review_comment(call: Call) -> tuple[Record, str]:
    repo = call.repo()
    docs = f"{DOCS}#list-reactions-for-a-pull-request-review-comment"
    comment = call.by_id(repo, REVIEW_COMMENTS, "comment_id", docs)
    return repo, reactions.review_comment_subject(comment["id"])


def _list(call: Call, subject: str) -> Any:
    content = call.param("content")
    if content is not None:
        content = call.one_of("content", reactions.CONTENTS, "+1", "Reaction")
    found = [r for r in reactions.on(call.records, subject) if content is None or r["content"] == content]
    return paginate(call, found, lambda r: views.reaction(call.base, call.records, r))


def _react(call: Call, repo: Record, subject: str) -> Any:
    content = call.required_text("content")
    if content not in reactions.CONTENTS:
        raise GitHubError(422, f'Invalid request.\n\n"{content}" is not a member of [{_MEMBERS}].')
    record, new = reactions.react(call.records, repo["full_name"], subject, call.login, content, call.now())
    body = views.reaction(call.base, call.records, record)
    return created(body) if new else body


def _delete(call: Call, subject: str) -> Any:
    raw = call.params["reaction_id"]
    record = call.world[REACTIONS].get(raw) if raw.isdigit() else None
    if record is None or record["subject"] != subject:
        raise not_found(f"{DOCS}#delete-an-issue-reaction")
    reactions.remove(call.records, record)
    return no_content()


@ops("GET /repos/{owner}/{repo}/issues/{issue_number}/reactions")
def list_for_issue(call: Call) -> Any:
    return _list(call, _issue(call)[1])


@ops("POST /repos/{owner}/{repo}/issues/{issue_number}/reactions")
def create_for_issue(call: Call) -> Any:
    return _react(call, *_issue(call))


@ops("DELETE /repos/{owner}/{repo}/issues/{issue_number}/reactions/{reaction_id}")
def delete_for_issue(call: Call) -> Any:
    return _delete(call, _issue(call)[1])


@ops("GET /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions")
def list_for_issue_comment(call: Call) -> Any:
    return _list(call, _comment(call)[1])


@ops("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions")
def create_for_issue_comment(call: Call) -> Any:
    return _react(call, *_comment(call))


@ops("DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions/{reaction_id}")
def delete_for_issue_comment(call: Call) -> Any:
    return _delete(call, _comment(call)[1])


@ops("GET /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions")
def list_for_review_comment(call: Call) -> Any:
    return _list(call, _review_comment(call)[1])


@ops("POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions")
def create_for_review_comment(call: Call) -> Any:
    return _react(call, *_review_comment(call))


@ops("DELETE /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions/{reaction_id}")
def delete_for_review_comment(call: Call) -> Any:
    return _delete(call, _review_comment(call)[1])
