"""Reactions (`+1`, `heart`, `rocket`...) to issues, pull requests, issue comments and review comments,
without HTTP. A reaction's `subject` names what it is on: `issue:<owner/repo#N>`, `comment:<id>` (an
issue comment) or `review_comment:<id>`. One person has at most one reaction of each content per subject.
"""

from __future__ import annotations

from ...world import Record
from .records import Records
from .store import REACTIONS, item_key

CONTENTS = ("+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes")


def issue_subject(repo: str, number: int) -> str:
    return f"issue:{item_key(repo, number)}"


def comment_subject(comment_id: int) -> str:
    return f"comment:{comment_id}"


def review_comment_subject(comment_id: int) -> str:
    return f"review_comment:{comment_id}"


def on(records: Records, subject: str) -> list[Record]:
    """The reactions to `subject`, oldest first."""
    return sorted(records[REACTIONS].by("subject", subject), key=lambda r: r["id"])


def counts(records: Records, subject: str) -> dict[str, int]:
    """How many reactions of each content `subject` has (every content, zero for none)."""
    found = {content: 0 for content in CONTENTS}
    for reaction in on(records, subject):
        found[reaction["content"]] += 1
    return found


def react(records: Records, repo: str, subject: str, login: str, content: str, at: int) -> tuple[Record, bool]:
    """`login`'s reaction of `content` to `subject`, and whether it is new (an existing one is kept)."""
    for reaction in on(records, subject):
        if reaction["user"] == login and reaction["content"] == content:
            return reaction, False
    ident, node = records.new_id("Reaction")
    record = {
        "id": ident,
        "node_id": node,
        "repository": repo,
        "subject": subject,
        "user": login,
        "content": content,
        "created_at": at,
    }
    return records[REACTIONS].add(str(ident), record), True


def remove(records: Records, reaction: Record) -> None:
    records[REACTIONS].remove(str(reaction["id"]))
