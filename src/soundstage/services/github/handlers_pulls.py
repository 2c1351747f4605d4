"""Pull requests, their files and commits, merging, reviews and review comments: one function per operation.

Merging runs a real three-way merge of the head into the base branch (`merge`, `squash` or `rebase`),
moves the base branch, closes the issues the pull names with a closing keyword when it lands on the
default branch, and deploys it when the repo has `deploy_on_merge`.
"""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import views, work_views
from .errors import GitHubError, not_found
from .handlers_issues import number_arg, one_of, param, sort_value, type_error
from .handlers_repos import repo_of, text_arg, work_of
from .router import Call, created, no_content, ops, paginate
from .store import Repos
from .work import PULLS, REVIEW_COMMENTS, item_key

DOCS = "https://docs.github.com/rest/pulls"
_EVENTS = {"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED"}
_METHODS = ("merge", "squash", "rebase")


def _failed(*errors: dict[str, Any]) -> GitHubError:
    return GitHubError(422, "Validation Failed", list(errors))


def _unprocessable(reason: str) -> GitHubError:
    """GitHub's review errors: 422 `Unprocessable Entity` with the reasons as plain strings."""
    return GitHubError(422, "Unprocessable Entity", [reason])  # type: ignore[list-item]


def _pull_of(call: Call, repo: Record) -> Record:
    record = call.world[PULLS].get(item_key(repo["full_name"], number_arg(call, "pull_number")))
    if record is None:
        raise not_found(f"{DOCS}/pulls#get-a-pull-request")
    return record


def _view(call: Call, record: Record, full: bool = True) -> dict[str, Any]:
    return work_views.pull(call.base, work_of(call), record, full)


def _branch(repo: Record, value: str) -> str:
    """`owner:branch` or `branch` to the branch name (another owner's fork names no branch here)."""
    owner, sep, branch = value.rpartition(":")
    if sep and owner != repo["owner"]:
        return ""
    return branch


@ops("GET /repos/{owner}/{repo}/pulls")
def list_pulls(call: Call) -> Any:
    repo = repo_of(call)
    state = one_of(call, "state", ("open", "closed", "all"), "open", "PullRequest")
    sort = one_of(call, "sort", ("created", "updated", "popularity", "long-running"), "created", "PullRequest")
    direction = one_of(call, "direction", ("asc", "desc"), "desc" if sort == "created" else "asc", "PullRequest")
    head = param(call, "head")
    head_branch = _branch(repo, head) if head else None
    base = param(call, "base")
    chosen = [
        r
        for r in call.world[PULLS].by("repository", repo["full_name"])
        if (state == "all" or r["state"] == state)
        and (head_branch is None or r["head"] == head_branch)
        and (base is None or r["base"] == base)
    ]
    by = {"created": "created", "updated": "updated", "popularity": "comments", "long-running": "created"}[sort]
    reverse = direction == "desc" if sort != "long-running" else direction == "asc"
    work = work_of(call)
    chosen.sort(key=lambda r: (sort_value(work, r, by), r["number"]), reverse=reverse)
    return paginate(call, chosen, lambda r: _view(call, r, full=False))


@ops("POST /repos/{owner}/{repo}/pulls")
def create_pull(call: Call) -> Any:
    repo = repo_of(call)
    body = call.fields
    title = text_arg(call, "title")
    head = text_arg(call, "head")
    base = text_arg(call, "base")
    text = text_arg(call, "body")
    for name, value in (("title", title), ("head", head), ("base", base)):
        if not value:
            raise _failed({"resource": "PullRequest", "code": "missing_field", "field": name})
    assert head is not None and base is not None
    draft = body.get("draft", False)
    if not isinstance(draft, bool):
        raise type_error("draft", draft, "a boolean")
    name = repo["full_name"]
    store = Repos(call.world.__getitem__)
    head_branch = _branch(repo, head)
    if not head_branch or store.branch_sha(name, head_branch) is None:
        raise _failed({"resource": "PullRequest", "field": "head", "code": "invalid"})
    if store.branch_sha(name, base) is None:
        raise _failed({"resource": "PullRequest", "field": "base", "code": "invalid"})
    head_sha, base_sha = (store.branch_sha(name, head_branch), store.branch_sha(name, base))
    assert head_sha is not None and base_sha is not None
    if head_branch == base or not store.compare(base_sha, head_sha)["ahead_by"]:
        raise _failed(
            {"resource": "PullRequest", "code": "custom", "message": f"No commits between {base} and {head_branch}"}
        )
    for other in call.world[PULLS].by("head", head_branch):
        if other["repository"] == name and other["base"] == base and other["state"] == "open":
            message = f"A pull request already exists for {repo['owner']}:{head_branch}."
            raise _failed({"resource": "PullRequest", "code": "custom", "message": message})
    record = work_of(call).create_pull(
        name,
        call.login,
        call.now(),
        title=title,
        body=text,
        head=head_branch,
        base=base,
        draft=draft,
        maintainer_can_modify=bool(body.get("maintainer_can_modify", False)),
    )
    return created(_view(call, record))


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}")
def get_pull(call: Call) -> Any:
    return _view(call, _pull_of(call, repo_of(call)))


@ops("PATCH /repos/{owner}/{repo}/pulls/{pull_number}")
def update_pull(call: Call) -> Any:
    repo = repo_of(call)
    record = _pull_of(call, repo)
    body = call.fields
    changes: dict[str, Any] = {}
    for name in ("title", "body"):
        if name in body:
            changes[name] = text_arg(call, name)
    if not changes.get("title", "x"):
        raise _failed({"resource": "PullRequest", "code": "missing_field", "field": "title"})
    if body.get("state") is not None:
        if body["state"] not in ("open", "closed"):
            raise _failed({"resource": "PullRequest", "field": "state", "code": "invalid"})
        if record["merged"] and body["state"] == "open":
            raise GitHubError(
                422,
                "Validation Failed",
                [{"resource": "PullRequest", "code": "custom", "message": "Cannot reopen a merged pull request"}],
            )
        changes["state"] = body["state"]
    base = text_arg(call, "base")
    if base is not None:
        if Repos(call.world.__getitem__).branch_sha(repo["full_name"], base) is None:
            raise _failed({"resource": "PullRequest", "field": "base", "code": "invalid"})
        changes["base"] = base
    if "maintainer_can_modify" in body:
        if not isinstance(body["maintainer_can_modify"], bool):
            raise type_error("maintainer_can_modify", body["maintainer_can_modify"], "a boolean")
        changes["maintainer_can_modify"] = body["maintainer_can_modify"]
    record = work_of(call).update_item(PULLS, record, call.login, call.now(), **changes)
    return _view(call, record)


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}/files")
def list_files(call: Call) -> Any:
    repo = repo_of(call)
    record = _pull_of(call, repo)
    work = work_of(call)
    head = work.head_sha(record) or ""
    files = work_views.pull_changes(work, record)["files"]
    return paginate(call, files, lambda f: views.diff_entry(call.base, repo["full_name"], head, f))


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}/commits")
def list_commits(call: Call) -> Any:
    repo = repo_of(call)
    record = _pull_of(call, repo)
    work = work_of(call)
    commits = work_views.pull_changes(work, record)["commits"]
    return paginate(call, commits, lambda c: views.commit(call.base, work.repos, repo["full_name"], c))


# -- merging -----------------------------------------------------------------------------------------


def _messages(call: Call, record: Record, method: str, commits: list[Record]) -> tuple[str, str]:
    """The commit title and message GitHub writes by default for each merge method."""
    body = call.fields
    number = record["number"]
    if method == "merge":
        title = f"Merge pull request #{number} from {record['repository'].split('/')[0]}/{record['head']}"
        message = record["title"]
    else:
        title = f"{record['title']} (#{number})"
        message = "\n\n".join(f"* {c['message']}" for c in commits) if len(commits) > 1 else ""
    given_title, given_message = body.get("commit_title"), body.get("commit_message")
    for name, value in (("commit_title", given_title), ("commit_message", given_message)):
        if value is not None and not isinstance(value, str):
            raise type_error(name, value, "a string")
    return given_title or title, message if given_message is None else given_message


@ops("PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge")
def merge_pull(call: Call) -> Any:
    repo = repo_of(call)
    record = _pull_of(call, repo)
    body = call.fields
    method = body.get("merge_method") or "merge"
    if method not in _METHODS:
        raise GitHubError(
            422, f'Invalid request.\n\n{show_method(method)} is not a member of ["merge", "squash", "rebase"].'
        )
    sha = body.get("sha")
    if sha is not None and not isinstance(sha, str):
        raise type_error("sha", sha, "a string")
    work = work_of(call)
    if record["state"] != "open" or not work.mergeable(record):
        raise GitHubError(405, "Pull Request is not mergeable", documentation_url=f"{DOCS}/pulls#merge-a-pull-request")
    if sha is not None and sha != work.head_sha(record):
        raise GitHubError(
            409,
            "Head branch was modified. Review and try the merge again.",
            documentation_url=f"{DOCS}/pulls#merge-a-pull-request",
        )
    title, message = _messages(call, record, method, work_views.pull_changes(work, record)["commits"])
    merged = work.merge_pull(record, method, title, message, call.user, call.now())
    return {"sha": merged, "merged": True, "message": "Pull Request successfully merged"}


def show_method(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value)


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}/merge")
def check_merged(call: Call) -> Any:
    record = _pull_of(call, repo_of(call))
    if not record["merged"]:
        raise not_found(f"{DOCS}/pulls#check-if-a-pull-request-has-been-merged")
    return no_content()


# -- reviews -----------------------------------------------------------------------------------------


def _review_comment_fields(call: Call, item: Any, name: str) -> dict[str, Any]:
    """One review comment's `path`, `body`, `line`/`position` and `side`, checked."""
    if not isinstance(item, dict):
        raise type_error(name, item, "an object")
    for key in ("path", "body"):
        if not isinstance(item.get(key), str) or not item[key]:
            raise _failed({"resource": "PullRequestReviewComment", "code": "missing_field", "field": key})
    line = item.get("line", item.get("position"))
    if line is not None and (not isinstance(line, int) or isinstance(line, bool) or line < 1):
        raise _failed({"resource": "PullRequestReviewComment", "code": "invalid", "field": "line"})
    side = item.get("side") or "RIGHT"
    if side not in ("LEFT", "RIGHT"):
        raise _failed({"resource": "PullRequestReviewComment", "code": "invalid", "field": "side"})
    return {"path": item["path"], "body": item["body"], "line": line, "side": side}


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews")
def list_reviews(call: Call) -> Any:
    record = _pull_of(call, repo_of(call))
    work = work_of(call)
    return paginate(call, work.reviews(record), lambda r: work_views.review(call.base, work, r))


@ops("POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews")
def create_review(call: Call) -> Any:
    record = _pull_of(call, repo_of(call))
    body = call.fields
    event = body.get("event")
    if event is not None and event not in _EVENTS:
        raise _failed({"resource": "PullRequestReview", "code": "invalid", "field": "event"})
    text = text_arg(call, "body") or ""
    work = work_of(call)
    commit_id = text_arg(call, "commit_id") or work.head_sha(record) or ""
    if work.repos.commit(commit_id) is None:
        raise _unprocessable("Commit not found")
    if event in ("APPROVE", "REQUEST_CHANGES") and record["user"] == call.login:
        verb = "approve" if event == "APPROVE" else "request changes on"
        raise _unprocessable(f"Review Can not {verb} your own pull request")
    if event == "REQUEST_CHANGES" and not text:
        raise _unprocessable("Review body is required when requesting changes")
    raw = body.get("comments") or []
    if not isinstance(raw, list):
        raise type_error("comments", raw, "an array")
    comments = [_review_comment_fields(call, item, "comments") for item in raw]
    state = _EVENTS[event] if event else "PENDING"
    review = work.create_review(record, call.login, state, text, commit_id, call.now() if event else None)
    for item in comments:
        work.add_review_comment(record, call.login, call.now(), commit_id=commit_id, review_id=review["id"], **item)
    return work_views.review(call.base, work, review)


@ops("GET /repos/{owner}/{repo}/pulls/{pull_number}/comments")
def list_review_comments(call: Call) -> Any:
    record = _pull_of(call, repo_of(call))
    work = work_of(call)
    return paginate(call, work.review_comments(record), lambda c: work_views.review_comment(call.base, work, c))


def _reply(call: Call, record: Record, reply_to: Any) -> Any:
    """A reply to review comment `reply_to`: same file, line and commit."""
    parent = call.world[REVIEW_COMMENTS].get(str(reply_to))
    if parent is None or parent["pull"] != item_key(record["repository"], record["number"]):
        raise not_found(f"{DOCS}/comments#create-a-reply-for-a-review-comment")
    text = text_arg(call, "body")
    if not text:
        raise _failed({"resource": "PullRequestReviewComment", "code": "missing_field", "field": "body"})
    item = {"path": parent["path"], "body": text, "line": parent["line"], "side": parent["side"]}
    work = work_of(call)
    comment = work.add_review_comment(
        record, call.login, call.now(), commit_id=parent["commit_id"], in_reply_to_id=parent["id"], **item
    )
    return created(work_views.review_comment(call.base, work, comment))


@ops("POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies")
def reply_to_review_comment(call: Call) -> Any:
    return _reply(call, _pull_of(call, repo_of(call)), call.params["comment_id"])


@ops("POST /repos/{owner}/{repo}/pulls/{pull_number}/comments")
def create_review_comment(call: Call) -> Any:
    record = _pull_of(call, repo_of(call))
    body = call.fields
    if body.get("in_reply_to") is not None:
        return _reply(call, record, body["in_reply_to"])
    work = work_of(call)
    commit_id = text_arg(call, "commit_id")
    if not commit_id:
        raise _failed({"resource": "PullRequestReviewComment", "code": "missing_field", "field": "commit_id"})
    if work.repos.commit(commit_id) is None:
        raise _failed({"resource": "PullRequestReviewComment", "code": "invalid", "field": "commit_id"})
    item = _review_comment_fields(call, body, "comment")
    comment = work.add_review_comment(record, call.login, call.now(), commit_id=commit_id, **item)
    return created(work_views.review_comment(call.base, work, comment))
