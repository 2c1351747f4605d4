"""Pull requests, their reviews and review comments, and merging them, without HTTP.

A pull keeps its branch names (`head`, `base`); while it is open its commits are the branches' heads,
once merged or closed the ones they had then (`head_sha`, `base_sha`). Callers validate first; these
functions assume valid input and only write.
"""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import commits, deployments, issues, repos
from .records import Records
from .store import HEADS, PULLS, REVIEW_COMMENTS, REVIEWS, item_key


def create_pull(records: Records, repo: str, login: str, at: int, **fields: Any) -> Record:
    record = issues.new_item(records, "PullRequest", repo, login, at, fields["title"], fields.get("body"))
    record.update(
        head=fields["head"],
        base=fields["base"],
        head_sha=repos.branch_sha(records, repo, fields["head"]),
        base_sha=repos.branch_sha(records, repo, fields["base"]),
        draft=bool(fields.get("draft")),
        maintainer_can_modify=bool(fields.get("maintainer_can_modify", False)),
        merged=False,
        merged_at=None,
        merged_by=None,
        merge_commit_sha=None,
    )
    return records[PULLS].add(item_key(repo, record["number"]), record)


def head_sha(records: Records, pull: Record) -> str | None:
    """The head branch's commit while the pull is open; the sha it had when it was closed after."""
    if pull["state"] == "open":
        return repos.branch_sha(records, pull["repository"], pull["head"]) or pull["head_sha"]
    return pull["head_sha"]


def base_sha(records: Records, pull: Record) -> str | None:
    """The base branch's commit while open; once merged or closed, the one it had then."""
    if pull["state"] != "open":
        return pull["base_sha"]
    return repos.branch_sha(records, pull["repository"], pull["base"]) or pull["base_sha"]


def changes(records: Records, pull: Record) -> dict[str, Any]:
    """The commits and files of a pull: what head has that base lacks (at the merge, once merged)."""
    base, head = base_sha(records, pull), head_sha(records, pull)
    if base is None or head is None:
        return {"commits": [], "files": []}
    return commits.compare(records.objects, base, head)


def mergeable(records: Records, pull: Record) -> bool | None:
    """Whether head merges cleanly into base (None once merged or closed, as GitHub answers)."""
    if pull["state"] != "open":
        return None
    base = repos.branch_sha(records, pull["repository"], pull["base"])
    head = head_sha(records, pull)
    if base is None or head is None:
        return False
    return commits.merged_files(records.objects, base, head) is not None


def merge_pull(records: Records, pull: Record, method: str, title: str, message: str, merger: Record, at: int) -> str:
    """Merges a mergeable pull by `merge`, `squash` or `rebase`, moves the base branch, closes the
    pull and, on the default branch, the issues it names and (with `deploy_on_merge`) deploys."""
    repo = pull["repository"]
    base, head = repos.branch_sha(records, repo, pull["base"]), head_sha(records, pull)
    assert base is not None and head is not None
    objects = records.objects
    person = repos.identity(merger, at)
    text = f"{title}\n\n{message}" if message else title
    if method == "rebase":
        sha = commits.rebase(objects, repo, base, head, person)
    else:
        # A squash is authored by the head commit's author, a merge commit by the merger.
        head_commit = commits.commit(objects, head)
        author = head_commit["author"] if method == "squash" and head_commit else person
        merged = commits.merge(objects, repo, base, head, text, author, person, squash=method == "squash")
        assert merged is not None  # the caller checked that the pull is mergeable
        sha = merged["sha"]
    repos.set_ref(records, repo, HEADS + pull["base"], sha)
    records[PULLS].change(
        item_key(repo, pull["number"]),
        state="closed",
        merged=True,
        merged_at=at,
        merged_by=merger["login"],
        merge_commit_sha=sha,
        head_sha=head,
        base_sha=base,
        closed_at=at,
        updated_at=at,
    )
    record = repos.repo(records, repo)
    assert record is not None
    if pull["base"] == record["default_branch"]:
        issues.close_named(records, pull, merger["login"], at)
        if record.get("deploy_on_merge"):
            deployments.create_deployment(
                records, repo, sha, pull["base"], "production", merger["login"], at, state="success"
            )
    return sha


# -- reviews -----------------------------------------------------------------------------------------


def _on_pull(records: Records, kind: str, pull: Record) -> dict[str, Any]:
    """What a review and a review comment start with: new ids and the pull they are on."""
    ident, node = records.new_id(kind)
    return {
        "id": ident,
        "node_id": node,
        "repository": pull["repository"],
        "pull": item_key(pull["repository"], pull["number"]),
        "number": pull["number"],
    }


def reviews(records: Records, pull: Record) -> list[Record]:
    return records[REVIEWS].by("pull", item_key(pull["repository"], pull["number"]))


def create_review(
    records: Records, pull: Record, login: str, state: str, body: str, commit_id: str, at: int | None
) -> Record:
    record = {
        **_on_pull(records, "PullRequestReview", pull),
        "user": login,
        "body": body,
        "state": state,
        "commit_id": commit_id,
        "submitted_at": at,
    }
    return records[REVIEWS].add(str(record["id"]), record)


def review_comments(records: Records, pull: Record) -> list[Record]:
    return records[REVIEW_COMMENTS].by("pull", item_key(pull["repository"], pull["number"]))


def add_review_comment(records: Records, pull: Record, login: str, at: int, **fields: Any) -> Record:
    record = {
        **_on_pull(records, "PullRequestReviewComment", pull),
        "pull_request_review_id": fields.get("review_id"),
        "user": login,
        "body": fields["body"],
        "path": fields["path"],
        "line": fields.get("line"),
        "side": fields.get("side") or "RIGHT",
        "commit_id": fields["commit_id"],
        "diff_hunk": fields.get("diff_hunk", ""),
        "in_reply_to_id": fields.get("in_reply_to_id"),
        "created_at": at,
        "updated_at": at,
    }
    return records[REVIEW_COMMENTS].add(str(record["id"]), record)
