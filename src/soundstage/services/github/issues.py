"""Issues, their labels and comments, without HTTP; and what a pull request shares with them as an
issue (GitHub's pull requests are issues): the number, the shared fields, state changes.

Records keep GitHub's field names with plain values (a user is its login, a label its name, a time
epoch microseconds); `views_issues` renders them. Issues and pulls share one number sequence per repo
(`world.ids` namespace `github:number:<repo>`) and are keyed "owner/repo#N". Callers validate first;
these functions assume valid input and only write.
"""

from __future__ import annotations

import re
from typing import Any

from ...world import Record
from . import events, listing, milestones, reactions, repos
from .records import Records, node_id
from .store import COMMENTS, ISSUES, LABELS, PULLS, item_key, label_key

_CLOSING = re.compile(r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b", re.IGNORECASE)


def item(records: Records, repo: str, number: int) -> tuple[str, Record] | None:
    """The issue or pull request `number` of `repo`, with the collection it lives in."""
    key = item_key(repo, number)
    for name in (ISSUES, PULLS):
        record = records[name].get(key)
        if record is not None:
            return name, record
    return None


def open_items(records: Records, repo: str) -> int:
    """Open issues and pull requests of `repo`: GitHub's `open_issues_count`, counted off the listings' index
    (every list repository object carries it, so it must not cost a scan of the repository's items)."""
    group = (repo, "open")
    return len(records[ISSUES].derived(listing.ByCreation).get(group)) + len(
        records[PULLS].derived(listing.ByCreation).get(group)
    )


def sort_value(records: Records, record: Record, sort: str) -> int:
    """What issues and pulls sort by: `created`, `updated` or `comments` (their number)."""
    if sort == "comments":
        return len(comments(records, record["repository"], record["number"]))
    return record["updated_at" if sort == "updated" else "created_at"]


def new_item(
    records: Records, kind: str, repo: str, login: str, at: int, title: str, body: str | None
) -> dict[str, Any]:
    """What issues and pull requests share: the repo's next number, ids, and an open, unlocked state."""
    number = records.ids.next(f"github:number:{repo}")
    ident, node = records.new_id(kind)
    return {
        "id": ident,
        "node_id": node,
        "repository": repo,
        "number": number,
        "title": title,
        "body": body,
        "state": "open",
        "user": login,
        "labels": [],
        "assignees": [],
        "milestone": None,  # its number
        "locked": False,
        "active_lock_reason": None,
        "created_at": at,
        "updated_at": at,
        "closed_at": None,
    }


def create_issue(records: Records, repo: str, login: str, at: int, **fields: Any) -> Record:
    record = new_item(records, "Issue", repo, login, at, fields["title"], fields.get("body"))
    record.update(
        state_reason=None,
        labels=list(fields.get("labels") or []),
        assignees=list(fields.get("assignees") or []),
        closed_by=None,
        milestone=fields.get("milestone"),
        type=fields.get("type"),  # the name of one of the owner organization's issue types
    )
    added = records[ISSUES].add(item_key(repo, record["number"]), record)
    # GitHub records the labels, assignees and milestone an issue is opened with as events of its opening.
    events.labels(records, added, [], added["labels"], login, at)
    events.assignees(records, added, [], added["assignees"], login, at)
    milestones.moved(records, {**added, "milestone": None}, added["milestone"], login, at)
    return added


def update_item(
    records: Records, collection: str, record: Record, login: str, at: int, commit: str | None = None, **fields: Any
) -> Record:
    """Changes an issue or pull (title, body, state, state_reason, labels, assignees, base...) and records
    the events of the change; closing and reopening keep `closed_at`, `closed_by` and `state_reason` as
    GitHub does. `commit`: the merge commit whose pull closes the issue."""
    changes = {k: v for k, v in fields.items() if record.get(k) != v}
    if not changes:
        return record
    state = changes.get("state")
    if state == "closed":
        changes.update(closed_at=at, closed_by=login)
        changes.setdefault("state_reason", "completed" if collection == ISSUES else None)
    elif state == "open":
        changes.update(closed_at=None, closed_by=None)
        changes["state_reason"] = "reopened" if collection == ISSUES else None
    if collection == PULLS:
        changes.pop("state_reason", None)
        if state == "closed":
            # A closed pull request keeps the commits its branches had (it was open until now).
            repo = record["repository"]
            changes.update(
                head_sha=repos.branch_sha(records, repo, record["head"]) or record["head_sha"],
                base_sha=repos.branch_sha(records, repo, record["base"]),
            )
    events.changed(records, record, changes, login, at, commit)
    if "milestone" in changes:
        milestones.moved(records, record, changes["milestone"], login, at)
    changes["updated_at"] = at
    return records[collection].change(item_key(record["repository"], record["number"]), **changes)


def close_named(records: Records, pull: Record, login: str, at: int, commit: str) -> None:
    """`Fixes #N`, `Closes #N`, `Resolves #N` in a merged pull's title or body close open issue N (by the
    merge `commit`)."""
    text = f"{pull['title']}\n{pull.get('body') or ''}"
    for number in dict.fromkeys(int(n) for n in _CLOSING.findall(text)):
        issue = records[ISSUES].get(item_key(pull["repository"], number))
        if issue is not None and issue["state"] == "open":
            update_item(records, ISSUES, issue, login, at, commit, state="closed", state_reason="completed")


# -- labels ------------------------------------------------------------------------------------------


def label(records: Records, repo: str, name: str) -> Record | None:
    return records[LABELS].get(label_key(repo, name))


def labels(records: Records, repo: str) -> list[Record]:
    return records[LABELS].by("repository", repo)


def create_label(records: Records, repo: str, name: str, color: str, description: str | None) -> Record:
    ident = 5_000_000_000 + records.ids.next("github:label")
    record = {
        "id": ident,
        "node_id": node_id("Label", ident),
        "repository": repo,
        "name": name,
        "color": color,
        "description": description,
        "default": False,
    }
    return records[LABELS].add(label_key(repo, name), record)


def apply_labels(records: Records, repo: str, names: list[str]) -> list[str]:
    """The labels' own spelling, creating any the repo lacks (grey, as GitHub does when labels are given
    by name)."""
    result: list[str] = []
    for name in names:
        found = label(records, repo, name) or create_label(records, repo, name, "ededed", None)
        if found["name"] not in result:
            result.append(found["name"])
    return result


# -- comments ----------------------------------------------------------------------------------------


def comments(records: Records, repo: str, number: int) -> list[Record]:
    return records[COMMENTS].by("issue", item_key(repo, number))


def add_comment(records: Records, record: Record, login: str, body: str, at: int) -> Record:
    ident, node = records.new_id("IssueComment")
    comment = {
        "id": ident,
        "node_id": node,
        "repository": record["repository"],
        "issue": item_key(record["repository"], record["number"]),
        "number": record["number"],
        "body": body,
        "user": login,
        "created_at": at,
        "updated_at": at,
    }
    return records[COMMENTS].add(str(ident), comment)


def remove_comment(records: Records, comment: Record) -> None:
    """Deletes a comment and the reactions to it."""
    for reaction in reactions.on(records, reactions.comment_subject(comment["id"])):
        reactions.remove(records, reaction)
    records[COMMENTS].remove(str(comment["id"]))
