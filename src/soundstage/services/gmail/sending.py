"""Sending: the sender's copy (From set to the account, SENT) and one copy delivered to each recipient with a
mailbox in the world (INBOX, UNREAD, then as its filters say), each threaded as Gmail threads it, and the
automatic replies of the recipients' vacation responders; state changes, no HTTP."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import formataddr

from ...ids import IdSource
from ...world import Record
from . import filters, messages, mime, vacation
from .errors import invalid_argument
from .mailboxes import Collections
from .store import MAILBOXES


def prepare(raw: bytes, sender: str, name: str, at: int, ids: IdSource) -> EmailMessage:
    """The message as Gmail sends it: From the account, a Date and a Message-ID where the client gave none."""
    message = mime.read(raw)
    del message["From"]
    message["From"] = formataddr((name, sender)) if name else sender
    if message.get("Date") is None:
        message["Date"] = mime.date_header(at)
    if message.get("Message-ID") is None:
        message["Message-ID"] = messages.message_id_header(ids)
    return message


def recipients(message: EmailMessage) -> list[str]:
    found = [a for header in ("To", "Cc", "Bcc") for a in mime.addresses(message, header)]
    if not found:
        raise invalid_argument("Recipient address required")
    return list(dict.fromkeys(found))


def own_thread(world: Collections, sender: str, thread_id: str | None, subject: str) -> str | None:
    """The sender's thread a message joins: the `threadId` asked for, where it is a thread of the mailbox and
    the subjects agree (but for `Re:` and `Fwd:`), as Gmail requires; else a thread of its own."""
    if not thread_id:
        return None
    found = messages.thread(world, sender, thread_id)
    if found and messages.topic(found[0]["subject"]) == messages.topic(subject):
        return thread_id
    return None


def send(
    world: Collections, ids: IdSource, sender: str, name: str, raw: bytes, thread_id: str | None, at: int
) -> Record:
    """Sends `raw` from `sender`'s mailbox; answers the sender's copy."""
    message = prepare(raw, sender, name, at, ids)
    subject = str(message.get("Subject", ""))
    copies = deliver(world, ids, sender, message, own_thread(world, sender, thread_id, subject), at)
    return copies[sender]


def deliver(
    world: Collections,
    ids: IdSource,
    sender: str,
    message: EmailMessage,
    thread_id: str | None,
    at: int,
    recorded: bool = True,
) -> dict[str, Record]:
    """`message` from `sender` at `at`: the sender's copy where the sender has a mailbox (SENT, and INBOX when
    among the recipients; in `thread_id`), and one in each recipient's mailbox (UNREAD, INBOX, then what its
    filters do; threaded by what it answers), answered by its vacation responder where that is due. The copies
    by mailbox."""
    to = recipients(message)
    subject = str(message.get("Subject", ""))
    copies: dict[str, Record] = {}
    if sender in world[MAILBOXES]:
        labels = ["SENT", "INBOX"] if sender in to else ["SENT"]
        copies[sender] = messages.add(world, ids, sender, mime.serialize(message), at, labels, thread_id, recorded)
    del message["Bcc"]  # recipients never see it
    delivered = mime.serialize(message)
    answers = messages.answers(message)
    responding: list[Record] = []
    for address in to:
        if address == sender or address not in world[MAILBOXES]:
            continue
        answered = messages.answered_thread(world, address, answers, subject)
        arrival = filters.arrival(world, address, at)
        copy = messages.add(
            world, ids, address, delivered, at, ["UNREAD", "INBOX"], answered, recorded, filtered=arrival
        )
        copies[address] = copy
        if recorded and vacation.due(world, address, copy, message, at):
            responding.append(copy)
    # Once every copy is in: a reply is mail sent as any other, and marked so that no responder answers it. It
    # leaves a millisecond after the message arrived, so that it sorts after it in every thread.
    for copy in responding:
        address = copy["mailbox"]
        raw = vacation.reply(world, ids, address, copy, at + vacation.AFTER)
        name = str(world[MAILBOXES].one(address).get("vacationName") or "")
        send(world, ids, address, name, raw, str(copy["threadId"]), at + vacation.AFTER)
    return copies
