"""A mailbox's vacation responder: its settings (the mailbox record's `vacation`), and whether a message delivered
to the mailbox gets an automatic reply, and which. State changes and lookups, no HTTP; `sending.deliver` sends
the reply as any mail is sent.

Gmail's rules: a reply only while the responder is on and within its window (received at or after `startTime`,
before `endTime`); to mail from another address, never to mail marked automatic (`Auto-Submitted`) or from a
mailing list (`Precedence: bulk`, `list` or `junk`; `List-Id`, `List-Unsubscribe`), nor to mail in spam or trash;
only to senders of the account's domain with `restrictToDomain`, and to its contacts with `restrictToContacts`
(here, the addresses the mailbox has sent mail to, as Gmail keeps them as contacts); at most once per sender in
4 days, counted afresh whenever the settings change. The reply is marked `Auto-Submitted: auto-replied` (RFC
3834), so that no responder answers it."""

from __future__ import annotations

import re
from email.message import EmailMessage
from email.utils import formataddr
from typing import Any

from ...clock import US
from ...ids import IdSource
from ...world import Record
from . import messages, mime
from .mailboxes import Collections
from .store import MAILBOXES, MESSAGES

QUIET = 4 * 86_400 * US  # one reply per sender in this long, as Gmail's help says
AFTER = 1000  # µs between a message's arrival and its automatic reply (internalDate is in ms)
FIELDS = (
    "enableAutoReply",
    "responseSubject",
    "responseBodyPlainText",
    "responseBodyHtml",
    "restrictToContacts",
    "restrictToDomain",
    "startTime",
    "endTime",
)
LISTS = ("bulk", "list", "junk")
_RE = re.compile(r"^\s*re\s*:", re.IGNORECASE)


def settings(world: Collections, address: str) -> dict[str, Any]:
    """The responder's settings as the API gives them (`startTime`, `endTime`: epoch ms)."""
    return dict(world[MAILBOXES].one(address).get("vacation") or {"enableAutoReply": False})


def update(world: Collections, address: str, given: dict[str, Any], name: str) -> dict[str, Any]:
    """The settings replaced by `given` (checked); `name`: the account's, its replies' From. The count of
    senders answered starts again."""
    world[MAILBOXES].change(address, vacation=given, vacationName=name, vacationReplied={})
    return settings(world, address)


def _listed(message: EmailMessage) -> bool:
    precedence = str(message.get("Precedence", "")).strip().lower()
    return precedence in LISTS or message.get("List-Id") is not None or message.get("List-Unsubscribe") is not None


def _contacts(world: Collections, address: str, sender: str) -> bool:
    """Whether the mailbox has sent mail to `sender`."""
    for record in world[MESSAGES].by("mailbox", address):
        if "SENT" in record["labelIds"] and sender in (*record["to"], *record["cc"], *record["bcc"]):
            return True
    return False


def due(world: Collections, address: str, record: Record, message: EmailMessage, at: int) -> bool:
    """Whether `record`, just delivered to `address` (its headers `message`), gets an automatic reply now."""
    mailbox = world[MAILBOXES].one(address)
    given = mailbox.get("vacation") or {}
    if not given.get("enableAutoReply"):
        return False
    start, end = given.get("startTime"), given.get("endTime")
    if (start is not None and at < start * 1000) or (end is not None and at >= end * 1000):
        return False
    sender = str(record["from"])
    if not sender or sender == address or record.get("autoSubmitted") or _listed(message):
        return False
    if "SPAM" in record["labelIds"] or "TRASH" in record["labelIds"]:
        return False
    if given.get("restrictToDomain") and sender.rpartition("@")[2] != address.rpartition("@")[2]:
        return False
    last = (mailbox.get("vacationReplied") or {}).get(sender)
    if last is not None and at < last + QUIET:
        return False
    return not (given.get("restrictToContacts") and not _contacts(world, address, sender))


def reply(world: Collections, ids: IdSource, address: str, record: Record, at: int) -> bytes:
    """The automatic reply to `record` (which `due` allowed), and the sender noted as answered at `at`: To its
    sender, `Re:` its subject (or the responder's own subject), answering it (`In-Reply-To`, `References`), the
    HTML body where one is set, else the plain one."""
    mailbox = world[MAILBOXES].one(address)
    given = mailbox["vacation"]
    sender = str(record["from"])
    world[MAILBOXES].change(address, vacationReplied={**(mailbox.get("vacationReplied") or {}), sender: at})
    message = EmailMessage()
    name = mailbox.get("vacationName") or ""
    message["From"] = formataddr((name, address)) if name else address
    message["To"] = sender
    subject = str(record["subject"])
    message["Subject"] = given.get("responseSubject") or (subject if _RE.match(subject) else f"Re: {subject}")
    message["Date"] = mime.date_header(at)
    message["Message-ID"] = messages.message_id_header(ids)
    chain = [*record["references"], record["messageId"]] if record["messageId"] else list(record["references"])
    if chain:
        message["In-Reply-To"] = chain[-1]
        message["References"] = " ".join(chain)
    message["Auto-Submitted"] = "auto-replied"
    if given.get("responseBodyHtml"):
        message.set_content(given["responseBodyHtml"], subtype="html")
    else:
        message.set_content(given.get("responseBodyPlainText") or "")
    return message.as_bytes()
