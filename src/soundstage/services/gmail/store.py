"""The Gmail state contract: the collections and the lookups the rest of the engine reads.

A mailbox (`gmail.mailboxes`, by its address) is an account's, with its `historyId`; labels (`gmail.labels`,
id `<address>/<label id>`) are each mailbox's, its system labels included. Each kind of record is built and
changed in the module named by what it holds: `mailboxes`, `labels`.
"""

from __future__ import annotations

from ..base import State, names_by_field

MAILBOXES = "gmail.mailboxes"
LABELS = "gmail.labels"


def record_names(state: State) -> dict[str, str]:
    """Labels by id, by their names."""
    return names_by_field(state, {LABELS: "name"})
