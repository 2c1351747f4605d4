"""Milestones of a repo, without HTTP: numbered per repo from 1, keyed "owner/repo:N"; an issue or pull
names its milestone by number (`milestone`), and a milestone counts the open and closed ones it holds."""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import events
from .records import Records
from .store import ISSUES, MILESTONES, PULLS


def key(repo: str, number: int) -> str:
    return f"{repo}:{number}"


def milestone(records: Records, repo: str, number: int) -> Record | None:
    return records[MILESTONES].get(key(repo, number))


def of_repo(records: Records, repo: str) -> list[Record]:
    return records[MILESTONES].by("repository", repo)


def by_title(records: Records, repo: str, title: str) -> Record | None:
    return next((m for m in of_repo(records, repo) if m["title"] == title), None)


def create(records: Records, repo: str, login: str, at: int, **fields: Any) -> Record:
    """A milestone: `title`, `description`, `state`, `due_on` (µs or None)."""
    ident, node = records.new_id("Milestone")
    number = records.ids.next(f"github:milestone:{repo}")
    closed = fields.get("state", "open") == "closed"
    record = {
        "id": ident,
        "node_id": node,
        "repository": repo,
        "number": number,
        "title": fields["title"],
        "description": fields.get("description"),
        "state": "closed" if closed else "open",
        "creator": login,
        "due_on": fields.get("due_on"),
        "created_at": at,
        "updated_at": at,
        "closed_at": at if closed else None,
    }
    return records[MILESTONES].add(key(repo, number), record)


def counts(records: Records, record: Record) -> tuple[int, int]:
    """The open and the closed issues and pulls in a milestone."""
    held = [
        item
        for kind in (ISSUES, PULLS)
        for item in records[kind].by("milestone", record["number"])
        if item["repository"] == record["repository"]
    ]
    closed = sum(1 for item in held if item["state"] == "closed")
    return len(held) - closed, closed


def moved(records: Records, item: Record, number: int | None, actor: str, at: int) -> None:
    """The events of moving an issue or pull from its milestone to `number` (None: to none)."""
    repo = item["repository"]
    before = milestone(records, repo, item["milestone"]) if item.get("milestone") else None
    after = milestone(records, repo, number) if number else None
    if before is not None:
        events.record(records, item, "demilestoned", actor, at, milestone=before["title"])
    if after is not None:
        events.record(records, item, "milestoned", actor, at, milestone=after["title"])
