"""Mailboxes and their history: state changes and lookups, no HTTP.

Each change of a mailbox (a message added or deleted, labels added or removed) takes the mailbox's next
history id and leaves one `gmail.history` record, as `users.history.list` reads them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ...world import Collection, Record
from .store import HISTORY, MAILBOXES

# Where a new mailbox's history starts: Gmail's history ids are large numbers that only grow.
FIRST_HISTORY = 1000


class Collections(Protocol):
    """A live world, or an image being built (`seed.Image`): its collections by name."""

    def __getitem__(self, name: str) -> Collection: ...


def mailbox_record(address: str, people: list[str]) -> Record:
    """`people`: the ids of the records that are its owner (their Slack user...), by which checks name it;
    `floor`: history older than this is gone (the image's own, never recorded), as Gmail forgets old history."""
    return {
        "id": address,
        "emailAddress": address,
        "historyId": FIRST_HISTORY,
        "floor": FIRST_HISTORY,
        "people": people,
    }


def changed(
    world: Collections, address: str, kind: str, message: Record, label_ids: Sequence[str] = (), recorded: bool = True
) -> int:
    """The mailbox's next history id, for a change of `kind` to `message` (`messageAdded`, `messageDeleted`,
    `labelAdded`, `labelRemoved`); `label_ids` the labels added or removed, or the new message's. Without
    `recorded` (a seeded message) no history record is left: the mailbox's history starts after it."""
    mailboxes = world[MAILBOXES]
    mailbox = mailboxes.one(address)
    number = int(mailbox["historyId"]) + 1
    fields: dict[str, Any] = {"historyId": number}
    if not recorded:
        fields["floor"] = number
    mailboxes.change(address, **fields)
    if recorded:
        world[HISTORY].add(
            f"{address}/{number}",
            {
                "id": f"{address}/{number}",
                "mailbox": address,
                "historyId": number,
                "kind": kind,
                "message": message["id"],
                "threadId": message["threadId"],
                "labelIds": list(label_ids),
            },
        )
    return number
