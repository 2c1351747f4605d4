"""Issue and pull request events (`labeled`, `assigned`, `closed`, `merged`, `review_requested`...),
without HTTP: the state modules record one whenever such a thing happens, so `GET .../issues/{n}/events`,
`GET .../issues/events` and the timeline read what the world did.

A record keeps GitHub's field names with plain values: the `actor` a login, `created_at` epoch
microseconds, and what its kind adds (`label` a name and colour, `assignee` a login, `rename`...).
All kinds share one id sequence, as GitHub's events do; the node id names the kind (`LabeledEvent`).
"""

from __future__ import annotations

import re
from typing import Any

from ...world import Record
from .records import Records, node_id
from .store import COMMENTS, ISSUE_EVENTS, ISSUES, LABELS, PULLS, item_key, label_key

_MENTION = re.compile(r"(?<![\w/#&])#(\d+)\b")

# Each event's GraphQL type, which its node id names (GitHub's recorded answers: `ClosedEvent`...).
KINDS = {
    "assigned": "AssignedEvent",
    "closed": "ClosedEvent",
    "demilestoned": "DemilestonedEvent",
    "labeled": "LabeledEvent",
    "locked": "LockedEvent",
    "merged": "MergedEvent",
    "milestoned": "MilestonedEvent",
    "referenced": "ReferencedEvent",
    "renamed": "RenamedTitleEvent",
    "reopened": "ReopenedEvent",
    "review_request_removed": "ReviewRequestRemovedEvent",
    "review_requested": "ReviewRequestedEvent",
    "unassigned": "UnassignedEvent",
    "unlabeled": "UnlabeledEvent",
    "unlocked": "UnlockedEvent",
}
_FIRST_ID = 20_000_000_000


def record(records: Records, item: Record, event: str, actor: str, at: int, **details: Any) -> Record:
    """Records `event` on an issue or pull by `actor` at `at`; `details` are what its kind adds
    (`commit_id`, `label`, `assignee`, `rename`, `requested_reviewer`, `lock_reason`, `state_reason`...)."""
    number = _FIRST_ID + records.ids.next("github:IssueEvent")
    repo = item["repository"]
    entry = {
        "id": number,
        "node_id": node_id(KINDS[event], number),
        "repository": repo,
        "issue": item_key(repo, item["number"]),
        "number": item["number"],
        "event": event,
        "actor": actor,
        "created_at": at,
        "commit_id": None,
        **details,
    }
    return records[ISSUE_EVENTS].add(str(number), entry)


def of_item(records: Records, repo: str, number: int) -> list[Record]:
    """An issue's or pull's events, oldest first."""
    return sorted(records[ISSUE_EVENTS].by("issue", item_key(repo, number)), key=lambda e: e["id"])


def of_repo(records: Records, repo: str) -> list[Record]:
    """A repo's events, newest first, as `GET .../issues/events` lists them."""
    return sorted(records[ISSUE_EVENTS].by("repository", repo), key=lambda e: e["id"], reverse=True)


def cross_references(records: Records, item: Record) -> list[tuple[int, str, Record]]:
    """Where other issues and pulls of the repo mention this one (`#N` in their body or a comment on
    them): for each, the first such mention's time and author, and the mentioning item, oldest first.
    GitHub's timeline shows them as `cross-referenced`."""
    repo, number = item["repository"], item["number"]
    first: dict[str, tuple[int, str, Record]] = {}
    for kind in (ISSUES, PULLS):
        for other in records[kind].by("repository", repo):
            if other["number"] == number:
                continue
            key = item_key(repo, other["number"])
            texts = [(other["created_at"], other["user"], other.get("body") or "")]
            texts += [(c["created_at"], c["user"], c["body"]) for c in records[COMMENTS].by("issue", key)]
            for at, login, text in texts:
                mentioned = {int(n) for n in _MENTION.findall(text)}
                if number in mentioned and (key not in first or at < first[key][0]):
                    first[key] = (at, login, other)
    return sorted(first.values(), key=lambda found: (found[0], found[2]["number"]))


def changed(
    records: Records, item: Record, changes: dict[str, Any], actor: str, at: int, commit: str | None = None
) -> None:
    """The events of changing an issue or pull (`issues.update_item`'s changes, before they are written):
    renamed, closed (by `commit`, when a merged pull's `Fixes #N` closes it) or reopened, labeled and
    unlabeled, assigned and unassigned, locked and unlocked."""
    if "title" in changes:
        record(records, item, "renamed", actor, at, rename={"from": item["title"], "to": changes["title"]})
    if changes.get("state") == "closed":
        record(records, item, "closed", actor, at, commit_id=commit, state_reason=changes.get("state_reason"))
    elif changes.get("state") == "open":
        record(records, item, "reopened", actor, at, state_reason=changes.get("state_reason"))
    for field, recorder in (("labels", labels), ("assignees", assignees)):
        if field in changes:
            recorder(records, item, item[field], changes[field], actor, at)
    if changes.get("locked") is True:
        record(records, item, "locked", actor, at, lock_reason=changes.get("active_lock_reason"))
    elif changes.get("locked") is False:
        record(records, item, "unlocked", actor, at, lock_reason=None)


def merged(records: Records, pull: Record, actor: str, at: int, sha: str) -> None:
    """A merge's events on its pull, as GitHub records them: the merge commit references the pull, the
    pull is merged by it, then closed (a closed event without a commit)."""
    record(records, pull, "referenced", actor, at, commit_id=sha)
    record(records, pull, "merged", actor, at, commit_id=sha)
    record(records, pull, "closed", actor, at, state_reason=None)


def labels(records: Records, item: Record, before: list[str], after: list[str], actor: str, at: int) -> None:
    for event, names, others in (("labeled", after, before), ("unlabeled", before, after)):
        for name in names:
            if name not in others:
                found = records[LABELS].get(label_key(item["repository"], name))
                label = {"name": name, "color": found["color"] if found else "ededed"}
                record(records, item, event, actor, at, label=label)


def assignees(records: Records, item: Record, before: list[str], after: list[str], actor: str, at: int) -> None:
    for event, logins, others in (("assigned", after, before), ("unassigned", before, after)):
        for login in logins:
            if login not in others:
                record(records, item, event, actor, at, assignee=login)
