"""Pull requests, their reviews and review comments, and merging them, without HTTP.

A pull keeps its branch names (`head`, `base`); while it is open its commits are the branches' heads,
once merged or closed the ones they had then (`head_sha`, `base_sha`). Callers validate first; these
functions assume valid input and only write.
"""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import commits, deployments, diffs, events, git, issues, repos
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
        requested_reviewers=[],
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


def merge_messages(pull: Record, method: str, merged: list[Record]) -> tuple[str, str]:
    """The commit title and message GitHub writes by default for each merge method (`merged`: the commits
    the pull brings)."""
    number = pull["number"]
    if method == "merge":
        return f"Merge pull request #{number} from {pull['repository'].split('/')[0]}/{pull['head']}", pull["title"]
    return f"{pull['title']} (#{number})", "\n\n".join(f"* {c['message']}" for c in merged) if len(merged) > 1 else ""


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
    events.merged(records, pull, merger["login"], at, sha)
    records[PULLS].change(
        item_key(repo, pull["number"]),
        state="closed",
        merged=True,
        merged_at=at,
        merged_by=merger["login"],
        closed_by=merger["login"],
        merge_commit_sha=sha,
        head_sha=head,
        base_sha=base,
        closed_at=at,
        updated_at=at,
    )
    record = repos.repo(records, repo)
    assert record is not None
    if pull["base"] == record["default_branch"]:
        issues.close_named(records, pull, merger["login"], at, sha)
        if record.get("deploy_on_merge"):
            deployments.create_deployment(
                records, repo, sha, pull["base"], "production", merger["login"], at, state="success"
            )
    return sha


# -- reviews -----------------------------------------------------------------------------------------


def request_reviews(records: Records, pull: Record, logins: list[str], actor: str, at: int) -> Record:
    """Asks `logins` for a review (those not asked yet), each with a `review_requested` event."""
    new = [login for login in dict.fromkeys(logins) if login not in pull["requested_reviewers"]]
    for login in new:
        events.record(records, pull, "review_requested", actor, at, requested_reviewer=login)
    return records[PULLS].change(
        item_key(pull["repository"], pull["number"]),
        requested_reviewers=[*pull["requested_reviewers"], *new],
        updated_at=at,
    )


def remove_review_requests(records: Records, pull: Record, logins: list[str], actor: str, at: int) -> Record:
    """Withdraws the review requests of `logins` (others are ignored), each with a `review_request_removed` event."""
    gone = [login for login in pull["requested_reviewers"] if login in logins]
    for login in gone:
        events.record(records, pull, "review_request_removed", actor, at, requested_reviewer=login)
    kept = [login for login in pull["requested_reviewers"] if login not in gone]
    return records[PULLS].change(item_key(pull["repository"], pull["number"]), requested_reviewers=kept, updated_at=at)


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
    """A review; submitted (`at` given, not pending) by a requested reviewer, it fulfils the request, which
    GitHub then drops without an event."""
    requested = pull["requested_reviewers"]
    if at is not None and login in requested:
        kept = [name for name in requested if name != login]
        records[PULLS].change(item_key(pull["repository"], pull["number"]), requested_reviewers=kept)
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


_NOT_IN_DIFF = "Pull request review thread line must be part of the diff"
_NOT_SAME_HUNK = "Pull request review thread start line must be part of the same hunk as the line."
_NO_HUNK = "Pull request review thread diff hunk can't be blank"


def _sentence(parts: list[str]) -> str:
    """Parts joined as Rails' `to_sentence` joins them: `a and b`, `a, b, and c`."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])}{',' if len(parts) > 2 else ''} and {parts[-1]}"


def _same_hunk(a: Record, b: Record) -> bool:
    return a["diff_hunk"].split("\n")[0] == b["diff_hunk"].split("\n")[0]


def place_comment(records: Records, pull: Record, commit_id: str, item: Record) -> tuple[dict[str, Any], str | None]:
    """Where a review comment (`path`, `line` or `position`, `side`, `start_line`, `start_side`) sits in
    the pull's diff of its file up to `commit_id`: `line`, `side`, `position`, `diff_hunk`, `start_line`,
    `start_side`, `subject_type`; and GitHub's complaint when it is not part of that diff (else None).
    A comment with neither line nor position is on the whole file, its hunk the file's first."""
    objects = records.objects
    base = base_sha(records, pull)
    start = commits.merge_base(objects, base, commit_id) if base else None
    before = commits.text_at(objects, start, item["path"]) if start else None
    after = commits.text_at(objects, commit_id, item["path"])
    changed = before != after
    placed: dict[str, Any] = {"start_line": None, "start_side": None, "subject_type": "line"}
    if item["line"] is None and item["position"] is None:
        lines = git.hunks(before, after) if changed else []
        opening = lines[: next((i for i, t in enumerate(lines[1:], 1) if t.startswith("@@")), len(lines))]
        placed.update(line=None, side=item["side"], position=None, diff_hunk="\n".join(opening), subject_type="file")
        return placed, None if changed else _sentence([_NOT_IN_DIFF, _NO_HUNK])
    spot = diffs.spot(before, after, item["line"], item["side"], item["position"]) if changed else None
    problems = [] if spot else [_NOT_IN_DIFF]
    if item["start_line"] is not None:
        first = diffs.spot(before, after, item["start_line"], item["start_side"] or item["side"]) if changed else None
        if spot is None or first is None or not _same_hunk(first, spot) or item["start_line"] >= spot["line"]:
            problems.append(_NOT_SAME_HUNK)
        placed.update(start_line=item["start_line"], start_side=item["start_side"] or item["side"])
    if spot is None:
        return placed, _sentence([*problems, _NO_HUNK])
    placed.update(spot)
    return placed, _sentence(problems) if problems else None


def add_review_comment(records: Records, pull: Record, login: str, at: int, **fields: Any) -> Record:
    """A review comment; `fields` are its `body`, `path`, `commit_id`, where it sits (`place_comment`),
    and `review_id` or `in_reply_to_id`."""
    record = {
        **_on_pull(records, "PullRequestReviewComment", pull),
        "pull_request_review_id": fields.get("review_id"),
        "user": login,
        "body": fields["body"],
        "path": fields["path"],
        "line": fields.get("line"),
        "side": fields.get("side") or "RIGHT",
        "start_line": fields.get("start_line"),
        "start_side": fields.get("start_side"),
        "position": fields.get("position"),
        "subject_type": fields.get("subject_type", "line"),
        "commit_id": fields["commit_id"],
        "diff_hunk": fields.get("diff_hunk", ""),
        "in_reply_to_id": fields.get("in_reply_to_id"),
        "created_at": at,
        "updated_at": at,
    }
    return records[REVIEW_COMMENTS].add(str(record["id"]), record)
