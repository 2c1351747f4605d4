"""Pull requests, their files and commits, merging, reviews and review comments: one function per operation.

Merging runs a real three-way merge of the head into the base branch (`merge`, `squash` or `rebase`),
moves the base branch, closes the issues the pull names with a closing keyword when it lands on the
default branch, and deploys it when the repo has `deploy_on_merge`.
"""

from __future__ import annotations

from typing import Any

from ...world import Record
from ..base import Reply
from . import commits, diffs, issues, listing, media, pulls, repos, views_git, views_pulls
from .calls import Call, created, no_content, ops, paginate
from .errors import GitHubError, failed, not_found, type_error
from .pages import Pages
from .store import COMMENTS, ISSUES, LABELS, MILESTONES, PULLS, REFS, REPOS, REVIEW_COMMENTS, REVIEWS, USERS, item_key

DOCS = "https://docs.github.com/rest/pulls"
_EVENTS = {"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED"}
_METHODS = ("merge", "squash", "rebase")


def _unprocessable(reason: str) -> GitHubError:
    """GitHub's review errors: 422 `Unprocessable Entity` with the reasons as plain strings."""
    return GitHubError(422, "Unprocessable Entity", [reason])  # type: ignore[list-item]


def _view(call: Call, record: Record, full: bool = True) -> dict[str, Any]:
    return views_pulls.pull(call.base, call.records, record, full)


# What a page of the pulls list reads: the pulls, the issues and milestones of their milestones' counts and
# of the repository's open count, the refs of open pulls' branches, users, labels, the repository, and the
# comments the `popularity` sort counts.
_PAGES = Pages((PULLS, ISSUES, MILESTONES, REFS, USERS, LABELS, REPOS, COMMENTS))


@ops("GET /repos/{owner}/{repo}/pulls")
def list_pulls(call: Call) -> Any:
    repo = call.repo()  # first: a repo the caller may not see is 404, whatever was kept
    return _PAGES.answer(call, lambda: _list_pulls(call, repo))


def _list_pulls(call: Call, repo: Record) -> Reply:
    state = call.one_of("state", ("open", "closed", "all"), "open", "PullRequest")
    sort = call.one_of("sort", ("created", "updated", "popularity", "long-running"), "created", "PullRequest")
    direction = call.one_of("direction", ("asc", "desc"), "desc" if sort == "created" else "asc", "PullRequest")
    head = call.param("head")
    head_branch = call.head_branch(repo, head) if head else None
    base = call.param("base")
    by = {"created": "created", "updated": "updated", "popularity": "comments", "long-running": "created"}[sort]
    reverse = direction == "desc" if sort != "long-running" else direction == "asc"
    if head_branch is None and base is None:
        ordered = listing.sorted_items(call.records, (PULLS,), repo["full_name"], state, by, reverse)
        if ordered is not None:
            return paginate(call, ordered, views_pulls.Simples(call.base, call.records))
    chosen = [
        r
        for r in call.world[PULLS].by("repository", repo["full_name"])
        if (state == "all" or r["state"] == state)
        and (head_branch is None or r["head"] == head_branch)
        and (base is None or r["base"] == base)
    ]
    chosen.sort(key=lambda r: (issues.sort_value(call.records, r, by), r["number"]), reverse=reverse)
    return paginate(call, chosen, views_pulls.Simples(call.base, call.records))


@ops("POST /repos/{owner}/{repo}/pulls")
def create_pull(call: Call) -> Any:
    repo = call.repo()
    title = call.text("title")
    head = call.text("head")
    base = call.text("base")
    text = call.issue_body()
    for name, value in (("title", title), ("head", head), ("base", base)):
        if not value:
            raise failed({"resource": "PullRequest", "code": "missing_field", "field": name})
    assert head is not None and base is not None
    draft = call.boolean("draft")
    name = repo["full_name"]
    records = call.records
    head_branch = call.head_branch(repo, head)
    if not head_branch or repos.branch_sha(records, name, head_branch) is None:
        raise failed({"resource": "PullRequest", "field": "head", "code": "invalid"})
    if repos.branch_sha(records, name, base) is None:
        raise failed({"resource": "PullRequest", "field": "base", "code": "invalid"})
    head_sha, base_sha = (repos.branch_sha(records, name, head_branch), repos.branch_sha(records, name, base))
    assert head_sha is not None and base_sha is not None
    if head_branch == base or not commits.compare(records.objects, base_sha, head_sha)["ahead_by"]:
        raise failed(
            {"resource": "PullRequest", "code": "custom", "message": f"No commits between {base} and {head_branch}"}
        )
    for other in call.world[PULLS].by("head", head_branch):
        if other["repository"] == name and other["base"] == base and other["state"] == "open":
            message = f"A pull request already exists for {repo['owner']}:{head_branch}."
            raise failed({"resource": "PullRequest", "code": "custom", "message": message})
    record = pulls.create_pull(
        records,
        name,
        call.login,
        call.now(),
        title=title,
        body=text,
        head=head_branch,
        base=base,
        draft=draft,
        maintainer_can_modify=bool(call.fields.get("maintainer_can_modify", False)),
    )
    return created(_view(call, record))


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}")
def get_pull(call: Call) -> Any:
    record = call.pull(call.repo())
    kind = media.param(call.request)
    if kind in ("diff", "patch"):
        found = pulls.changes(call.records, record)
        objects = call.records.objects
        if kind == "patch":
            return media.text_reply(call.request, diffs.format_patch(objects, found["commits"]))
        head = pulls.head_sha(call.records, record)
        return media.text_reply(call.request, diffs.diff(objects, found.get("merge_base"), head) if head else "")
    return _view(call, record)


@ops("PATCH /repos/{owner}/{repo}/pulls/{pull_number}")
def update_pull(call: Call) -> Any:
    repo = call.repo()
    record = call.pull(repo)
    body = call.fields
    changes: dict[str, Any] = {}
    if "title" in body:
        changes["title"] = call.text("title")
    if "body" in body:
        changes["body"] = call.issue_body()
    if not changes.get("title", "x"):
        raise failed({"resource": "PullRequest", "code": "missing_field", "field": "title"})
    if body.get("state") is not None:
        if body["state"] not in ("open", "closed"):
            raise failed({"resource": "PullRequest", "field": "state", "code": "invalid"})
        if record["merged"] and body["state"] == "open":
            raise failed(
                {"resource": "PullRequest", "code": "custom", "message": "Cannot reopen a merged pull request"}
            )
        changes["state"] = body["state"]
    base = call.text("base")
    if base is not None:
        if repos.branch_sha(call.records, repo["full_name"], base) is None:
            raise failed({"resource": "PullRequest", "field": "base", "code": "invalid"})
        changes["base"] = base
    if "maintainer_can_modify" in body:
        changes["maintainer_can_modify"] = call.boolean("maintainer_can_modify")
    record = issues.update_item(call.records, PULLS, record, call.login, call.now(), **changes)
    return _view(call, record)


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}/files")
def list_files(call: Call) -> Any:
    repo = call.repo()
    record = call.pull(repo)
    head = pulls.head_sha(call.records, record) or ""
    files = pulls.changes(call.records, record)["files"]
    return paginate(call, files, lambda f: views_git.diff_entry(call.base, repo["full_name"], head, f))


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}/commits")
def list_commits(call: Call) -> Any:
    repo = call.repo()
    record = call.pull(repo)
    found = pulls.changes(call.records, record)["commits"]
    return paginate(call, found, lambda c: views_git.commit(call.base, call.records, repo["full_name"], c))


# -- merging -----------------------------------------------------------------------------------------


def _messages(call: Call, record: Record, method: str, merged: list[Record]) -> tuple[str, str]:
    """The commit title and message of a merge: the ones given, or those GitHub writes by default for
    each merge method (`merged`: the commits the pull brings)."""
    title, message = pulls.merge_messages(record, method, merged)
    given_title, given_message = call.text("commit_title"), call.text("commit_message")
    return given_title or title, message if given_message is None else given_message


def _show_method(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value)


@ops("PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge")
def merge_pull(call: Call) -> Any:
    record = call.pull(call.repo())
    method = call.fields.get("merge_method") or "merge"
    if method not in _METHODS:
        raise GitHubError(
            422, f'Invalid request.\n\n{_show_method(method)} is not a member of ["merge", "squash", "rebase"].'
        )
    sha = call.text("sha")
    records = call.records
    if record["state"] != "open" or not pulls.mergeable(records, record):
        raise GitHubError(405, "Pull Request is not mergeable", documentation_url=f"{DOCS}/pulls#merge-a-pull-request")
    if sha is not None and sha != pulls.head_sha(records, record):
        raise GitHubError(
            409,
            "Head branch was modified. Review and try the merge again.",
            documentation_url=f"{DOCS}/pulls#merge-a-pull-request",
        )
    title, message = _messages(call, record, method, pulls.changes(records, record)["commits"])
    merged = pulls.merge_pull(records, record, method, title, message, call.me, call.now())
    return {"sha": merged, "merged": True, "message": "Pull Request successfully merged"}


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}/merge")
def check_merged(call: Call) -> Any:
    record = call.pull(call.repo())
    if not record["merged"]:
        raise not_found(f"{DOCS}/pulls#check-if-a-pull-request-has-been-merged")
    return no_content()


# -- reviews -----------------------------------------------------------------------------------------


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews")
def list_reviews(call: Call) -> Any:
    record = call.pull(call.repo())
    records = call.records
    return paginate(call, pulls.reviews(records, record), lambda r: views_pulls.review(call.base, records, r))


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}")
def get_review(call: Call) -> Any:
    repo = call.repo()
    record = call.pull(repo)
    review = call.by_id(repo, REVIEWS, "review_id", f"{DOCS}/reviews#get-a-review-for-a-pull-request")
    if review["number"] != record["number"]:
        raise not_found(f"{DOCS}/reviews#get-a-review-for-a-pull-request")
    return views_pulls.review(call.base, call.records, review)


@ops("POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews")
def create_review(call: Call) -> Any:
    record = call.pull(call.repo())
    event = call.fields.get("event")
    if event is not None and (not isinstance(event, str) or event not in _EVENTS):
        raise failed({"resource": "PullRequestReview", "code": "invalid", "field": "event"})
    text = call.text("body") or ""
    records = call.records
    commit_id = call.text("commit_id") or pulls.head_sha(records, record) or ""
    if commits.commit(records.objects, commit_id) is None:
        raise _unprocessable("Commit not found")
    if event in ("APPROVE", "REQUEST_CHANGES") and record["user"] == call.login:
        verb = "approve" if event == "APPROVE" else "request changes on"
        raise _unprocessable(f"Review Can not {verb} your own pull request")
    if event == "REQUEST_CHANGES" and not text:
        raise _unprocessable("Review body is required when requesting changes")
    raw = call.fields.get("comments") or []
    if not isinstance(raw, list):
        raise type_error("comments", raw, "an array")
    comments = [call.review_comment(item, "comments") for item in raw]
    placed = [_placed(call, record, commit_id, item) for item in comments]
    state = _EVENTS[event] if event else "PENDING"
    review = pulls.create_review(records, record, call.login, state, text, commit_id, call.now() if event else None)
    for item, where in zip(comments, placed):
        pulls.add_review_comment(
            records, record, call.login, call.now(), commit_id=commit_id, review_id=review["id"], **{**item, **where}
        )
    return views_pulls.review(call.base, records, review)


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}/comments")
def list_review_comments(call: Call) -> Any:
    record = call.pull(call.repo())
    records = call.records
    found = pulls.review_comments(records, record)
    return paginate(call, found, lambda c: views_pulls.review_comment(call.base, records, c))


@ops("GET /repos/{owner}/{repo}/pulls/comments/{comment_id}")
def get_review_comment(call: Call) -> Any:
    docs = f"{DOCS}/comments#get-a-review-comment-for-a-pull-request"
    comment = call.by_id(call.repo(), REVIEW_COMMENTS, "comment_id", docs)
    return views_pulls.review_comment(call.base, call.records, comment)


def _placed(call: Call, record: Record, commit_id: str, item: dict[str, Any]) -> dict[str, Any]:
    """Where a review comment sits in the pull's diff, or GitHub's 422 when it is not part of it."""
    where, problem = pulls.place_comment(call.records, record, commit_id, item)
    if problem is not None:
        raise _unprocessable(problem)
    return where


def _reply(call: Call, record: Record, reply_to: Any) -> Any:
    """A reply to review comment `reply_to`: same file, line and commit."""
    parent = call.world[REVIEW_COMMENTS].get(str(reply_to))
    if parent is None or parent["pull"] != item_key(record["repository"], record["number"]):
        raise not_found(f"{DOCS}/comments#create-a-reply-for-a-review-comment")
    text = call.text("body")
    if not text:
        raise failed({"resource": "PullRequestReviewComment", "code": "missing_field", "field": "body"})
    keys = ("path", "line", "side", "start_line", "start_side", "position", "diff_hunk", "subject_type")
    item = {"body": text, **{key: parent[key] for key in keys}}
    comment = pulls.add_review_comment(
        call.records, record, call.login, call.now(), commit_id=parent["commit_id"], in_reply_to_id=parent["id"], **item
    )
    return created(views_pulls.review_comment(call.base, call.records, comment))


@ops("POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies")
def reply_to_review_comment(call: Call) -> Any:
    return _reply(call, call.pull(call.repo()), call.params["comment_id"])


@ops("POST /repos/{owner}/{repo}/pulls/{pull_number}/comments")
def create_review_comment(call: Call) -> Any:
    record = call.pull(call.repo())
    body = call.fields
    if body.get("in_reply_to") is not None:
        return _reply(call, record, body["in_reply_to"])
    commit_id = call.text("commit_id")
    if not commit_id:
        raise failed({"resource": "PullRequestReviewComment", "code": "missing_field", "field": "commit_id"})
    if commits.commit(call.records.objects, commit_id) is None:
        raise failed({"resource": "PullRequestReviewComment", "code": "invalid", "field": "commit_id"})
    item = call.review_comment(body, "comment")
    where = _placed(call, record, commit_id, item)
    comment = pulls.add_review_comment(
        call.records, record, call.login, call.now(), commit_id=commit_id, **{**item, **where}
    )
    return created(views_pulls.review_comment(call.base, call.records, comment))
