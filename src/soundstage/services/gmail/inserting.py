"""Messages put straight into one mailbox, as `messages.insert` and `messages.import` do: nothing is sent, the
message is kept as given (no From, Date or Message-ID of Gmail's), labelled as asked and threaded as received
mail is; state changes, no HTTP."""

from __future__ import annotations

from collections.abc import Sequence
from email.message import EmailMessage
from email.utils import parsedate_to_datetime

from ...clock import US
from ...ids import IdSource
from ...world import Record
from . import messages, mime
from .mailboxes import Collections


def date_of(message: EmailMessage) -> int | None:
    """The time the message's `Date` header says, in epoch µs; None when it has none that can be read."""
    given = message.get("Date")
    if given is None:
        return None
    try:
        parsed = parsedate_to_datetime(str(given))
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if parsed.tzinfo is None:  # RFC 2822's -0000: the zone unknown, read as UTC
        return None
    stamp = int(parsed.timestamp()) * US + parsed.microsecond
    return stamp if stamp >= 0 else None


def place(
    world: Collections,
    ids: IdSource,
    address: str,
    message: EmailMessage,
    label_ids: Sequence[str],
    thread_id: str | None,
    at: int,
) -> Record:
    """`message` (read by `mime.read`) in `address`'s mailbox with `label_ids`, dated `at` (epoch µs): in
    `thread_id` where that is a thread of the mailbox with the same subject (but for `Re:` and `Fwd:`), else in
    the thread of a message of the mailbox it answers, else in one of its own; one history record."""
    subject = str(message.get("Subject", ""))
    joined = None
    if thread_id:
        found = messages.thread(world, address, thread_id)
        if found and messages.topic(found[0]["subject"]) == messages.topic(subject):
            joined = thread_id
    if joined is None:
        joined = messages.answered_thread(world, address, messages.answers(message), subject)
    return messages.add(world, ids, address, mime.serialize(message), at, label_ids, joined, inserted=True)
