"""The Gmail state contract: the collections and the lookups the rest of the engine reads.

A mailbox (`gmail.mailboxes`, by its address) is an account's, with its `historyId`; labels (`gmail.labels`,
id `<address>/<label id>`) are each mailbox's, its system labels included. A message (`gmail.messages`, by its
API id) is in one mailbox: a message sent to three people with mailboxes is four messages, the sender's and
one each. A thread is its messages' `threadId` (the id of its first message in that mailbox); a draft
(`gmail.drafts`, by its API id) names its message, which carries the DRAFT label; the history
(`gmail.history`, id `<address>/<history id>`) is one record per change of a mailbox. Each kind of record is
built and changed in the module named by what it holds: `mailboxes`, `labels`, `messages`, `drafts`,
`history`. A filter (`gmail.filters`, id `<address>/<filter id>`) is a mailbox's (`filters`); a mailbox's
vacation responder is its record's `vacation` (`vacation`).
"""

from __future__ import annotations

from ..base import State, names_by_field

MAILBOXES = "gmail.mailboxes"
LABELS = "gmail.labels"
MESSAGES = "gmail.messages"
DRAFTS = "gmail.drafts"
HISTORY = "gmail.history"
FILTERS = "gmail.filters"


def record_names(state: State) -> dict[str, str]:
    """Labels by id, by their names; messages by their subjects."""
    return names_by_field(state, {LABELS: "name", MESSAGES: "subject"})
