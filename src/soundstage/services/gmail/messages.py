"""Messages: adding one to a mailbox (what it says read once from its MIME bytes), changing its labels,
deleting it, threading a new one; state changes and lookups, no HTTP."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from email.message import Message
from typing import Any

from ...ids import IdSource
from ...world import Record
from . import listing, mime
from .mailboxes import Collections, changed
from .store import MESSAGES

_REPLY = re.compile(r"^\s*((re|fwd?|aw|wg)\s*:\s*)+", re.IGNORECASE)
_MESSAGE_IDS = re.compile(r"<[^<>\s]+>")


def new_id(ids: IdSource) -> str:
    """16 hex digits, as Gmail's message ids are."""
    return ids.hex("gmail:message", 16)


def message_id_header(ids: IdSource) -> str:
    """A `Message-ID` as Gmail gives the messages it sends."""
    return f"<{ids.hex('gmail:message-id', 32)}@mail.gmail.com>"


_RE = re.compile(r"^\s*re\s*:", re.IGNORECASE)


def topic(subject: str) -> str:
    """A subject without its `Re:` / `Fwd:` prefixes, as threading compares subjects."""
    return _REPLY.sub("", subject).strip().lower()


def reply_subject(subject: str) -> str:
    """The subject of a reply, as Gmail's clients write it: `Re: ` before the answered one's, unless it has one."""
    return subject if _RE.match(subject) else "Re: " + subject


def answers(message: Message) -> list[str]:
    """The message ids a message answers (`References`, then `In-Reply-To`), in order."""
    given = str(message.get("References", "")) + " " + str(message.get("In-Reply-To", ""))
    return list(dict.fromkeys(_MESSAGE_IDS.findall(given)))


def add(
    world: Collections,
    ids: IdSource,
    address: str,
    raw: bytes,
    at: int,
    label_ids: Sequence[str],
    thread_id: str | None = None,
    recorded: bool = True,
    inserted: bool = False,
    filtered: Callable[[Record], Sequence[str]] | None = None,
) -> Record:
    """A message of `raw` (RFC 2822 bytes) in `address`'s mailbox at `at` (epoch µs), in thread `thread_id` (a
    thread of its own when None); one history record. `inserted`: put there by insert or import, not sent.
    `filtered`: the labels it arrives with, given the message as made (the mailbox's filters, applied before it
    lands, as Gmail applies them)."""
    parsed = mime.parse(raw)
    body = mime.text(parsed)
    message_id = new_id(ids)
    sender, to, cc = (
        (mime.addresses(parsed, "From") or [""])[0],
        mime.addresses(parsed, "To"),
        mime.addresses(parsed, "Cc"),
    )
    subject, filenames = str(parsed.get("Subject", "")), mime.filenames(parsed)
    record: dict[str, Any] = {
        "id": message_id,
        "mailbox": address,
        "threadId": thread_id or message_id,
        "labelIds": list(dict.fromkeys(label_ids)),
        "raw": mime.b64url(raw),
        "internalDate": at,
        "historyId": 0,
        "sizeEstimate": len(raw),
        "snippet": mime.snippet(body),
        "messageId": str(parsed.get("Message-ID", "")).strip(),
        "references": answers(parsed),
        "from": sender,
        "to": to,
        "cc": cc,
        "bcc": mime.addresses(parsed, "Bcc"),
        "subject": subject,
        "text": body,
        "filenames": filenames,
        # What search reads, spaced words made once (listing.searchable).
        "search": listing.searchable(subject, body, [sender, *to, *cc], filenames),
        "subjectSearch": listing.spaced(subject),
        **({"inserted": True} if inserted else {}),
    }
    automatic = str(parsed.get("Auto-Submitted", "")).strip().lower()
    if automatic and automatic != "no":  # RFC 3834: any value but `no` marks mail no person wrote
        record["autoSubmitted"] = automatic
    if filtered is not None:
        record["labelIds"] = list(dict.fromkeys(filtered(record)))
    world[MESSAGES].add(message_id, record)
    number = changed(world, address, "messageAdded", record, record["labelIds"], recorded)
    return world[MESSAGES].change(message_id, historyId=number)


def relabel(world: Collections, record: Record, adding: Iterable[str], removing: Iterable[str]) -> Record:
    """`record` with labels added and removed: one history record for those added, one for those removed (none
    when nothing changes)."""
    labels = list(record["labelIds"])
    added = [label for label in dict.fromkeys(adding) if label not in labels]
    removed = [label for label in dict.fromkeys(removing) if label in labels and label not in added]
    if not added and not removed:
        return record
    labels = [label for label in labels if label not in removed] + added
    record = world[MESSAGES].change(record["id"], labelIds=labels)
    for kind, changed_ids in (("labelAdded", added), ("labelRemoved", removed)):
        if changed_ids:
            number = changed(world, record["mailbox"], kind, record, changed_ids)
            record = world[MESSAGES].change(record["id"], historyId=number)
    return record


def delete(world: Collections, record: Record) -> None:
    """Deletes the message for good: one history record."""
    world[MESSAGES].remove(record["id"])
    changed(world, record["mailbox"], "messageDeleted", record, record["labelIds"])


def in_mailbox(world: Collections, address: str, message_id: str) -> Record | None:
    record = world[MESSAGES].get(message_id)
    return record if record is not None and record["mailbox"] == address else None


def thread(world: Collections, address: str, thread_id: str) -> list[Record]:
    """A thread's messages in the mailbox, oldest first."""
    found = [m for m in world[MESSAGES].by("threadId", thread_id) if m["mailbox"] == address]
    return sorted(found, key=lambda m: (m["internalDate"], m["id"]))


def answered_thread(world: Collections, address: str, answers: Sequence[str], subject: str) -> str | None:
    """The thread of the mailbox a new message joins, as Gmail threads mail it receives: the thread of a message
    it answers (`In-Reply-To`, `References`) whose subject is the same but for `Re:` and `Fwd:`."""
    wanted = topic(subject)
    for message_id in reversed(answers):
        for record in world[MESSAGES].by("messageId", message_id):
            if record["mailbox"] == address and topic(record["subject"]) == wanted:
                return str(record["threadId"])
    return None
