"""Mailboxes: state changes and lookups, no HTTP."""

from __future__ import annotations

from ...world import Record

# Where a new mailbox's history starts: Gmail's history ids are large numbers that only grow.
FIRST_HISTORY = 1000


def mailbox_record(address: str) -> Record:
    return {"id": address, "emailAddress": address, "historyId": FIRST_HISTORY}
