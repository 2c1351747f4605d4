"""Messages as RFC 2822 bytes, with the standard library's `email` package: a message composed (seeding,
sending), read (its headers, its text, whether it has attachments) and rendered as Gmail's part tree
(`MessagePart`: partId, mimeType, filename, headers, body {size, data}, parts)."""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import policy
from email.errors import MessageError
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import format_datetime, getaddresses
from typing import Any

from .errors import invalid_argument

PARSER = BytesParser(policy=policy.default)
UNREADABLE = "Invalid RFC 2822 message"
# What the `email` package raises on input it cannot read or write (found by hostile messages, not documented).
BROKEN = (
    IndexError,
    ValueError,
    TypeError,
    LookupError,
    AttributeError,
    AssertionError,
    MessageError,
    RecursionError,
)
NESTING = 50  # parts within parts, at most: a client's message nested deeper is refused
SNIPPET = 200  # characters of the text Gmail shows as a message's snippet, at most
_SPACE = re.compile(r"\s+")
_TAGS = re.compile(r"<[^>]*>")
# Gmail's snippet is HTML-escaped text, with the numeric entity for the apostrophe.
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})


@dataclass(frozen=True)
class Attachment:
    filename: str
    mime_type: str
    content: bytes


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode()


def from_b64url(text: str, field: str = "raw") -> bytes:
    """Base64url (padded or not; standard base64's `+/` taken too, as Gmail does); Gmail's 400 otherwise."""
    cleaned = text.strip().replace("+", "-").replace("/", "_").rstrip("=")
    try:
        return base64.urlsafe_b64decode(cleaned + "=" * (-len(cleaned) % 4))
    except (binascii.Error, ValueError):
        raise invalid_argument(f"Invalid value for ByteString: {text[:80]}") from None


def parse(raw: bytes) -> EmailMessage:
    return PARSER.parsebytes(raw)  # type: ignore[return-value]


def read(raw: bytes) -> EmailMessage:
    """A client's message, parsed, with every header and part read once: the `email` package fails on some
    hostile headers (an `IndexError` on `Message-ID: <<>>`), which must be the client's 400, not a 500."""
    try:
        message = parse(raw)
        if _deepest(message) > NESTING:
            raise ValueError("parts nested too deep")
        _touch(message)
    except BROKEN:
        raise invalid_argument(UNREADABLE) from None
    return message


def serialize(message: EmailMessage) -> bytes:
    """The message's bytes, read back once as `read` does (what the world keeps must read again)."""
    try:
        data = message.as_bytes()
        _touch(parse(data))
    except BROKEN:
        raise invalid_argument(UNREADABLE) from None
    return data


def _deepest(message: Message) -> int:
    """How deep the message's parts nest, counted without recursion (the `email` package's walk recurses)."""
    deepest, stack = 0, [(message, 0)]
    while stack:
        part, depth = stack.pop()
        deepest = max(deepest, depth)
        children = part.get_payload() if part.is_multipart() else None
        if isinstance(children, list) and depth <= NESTING:
            stack.extend((child, depth + 1) for child in children if isinstance(child, Message))
    return deepest


def _touch(message: EmailMessage) -> None:
    for part in message.walk():
        for value in part.values():
            str(value)
        part.get_filename()
        _content(part)


def date_header(us: int) -> str:
    moment = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=us)
    return format_datetime(moment.replace(microsecond=0))


def compose(
    sender: str,
    to: list[str],
    cc: list[str],
    subject: str,
    body: str,
    at: int,
    message_id: str,
    boundary: str,
    replying: list[str] | None = None,
    attachments: tuple[Attachment, ...] = (),
) -> bytes:
    """A message as a mail client writes one: the headers, the text, each attachment as a part of its own
    (between lines of `boundary`: given, as the `email` package would draw one from an unseeded random source).
    `replying` is the References chain of the message answered, ending with it."""
    message = EmailMessage()
    message["From"] = sender
    if to:
        message["To"] = ", ".join(to)
    if cc:
        message["Cc"] = ", ".join(cc)
    message["Subject"] = subject
    message["Date"] = date_header(at)
    message["Message-ID"] = message_id
    if replying:
        message["In-Reply-To"] = replying[-1]
        message["References"] = " ".join(replying)
    message.set_content(body)
    for attachment in attachments:
        maintype, _, subtype = attachment.mime_type.partition("/")
        message.add_attachment(attachment.content, maintype=maintype, subtype=subtype, filename=attachment.filename)
    if message.is_multipart():
        message.set_boundary(boundary)
    return message.as_bytes()


def addresses(message: Message, header: str) -> list[str]:
    """The addresses of a header (`To`, `Cc`...), lower-cased, in order."""
    values = [str(value) for value in message.get_all(header, [])]
    return [address.lower() for _, address in getaddresses(values) if address]


def text(message: EmailMessage) -> str:
    """The message's text: its first text/plain part, else its first text/html part without tags."""
    plain = html = None
    for part in message.walk():
        if part.is_multipart() or part.get_filename():
            continue
        kind = part.get_content_type()
        if kind == "text/plain" and plain is None:
            plain = _content(part)
        elif kind == "text/html" and html is None:
            html = _TAGS.sub(" ", _content(part))
    return plain if plain is not None else html or ""


def _content(part: Message) -> str:
    try:
        return body(part).decode(part.get_content_charset() or "utf-8", "replace")
    except LookupError:  # a charset Python does not know
        return body(part).decode("utf-8", "replace")


def filenames(message: EmailMessage) -> list[str]:
    return [name for part in message.walk() if (name := part.get_filename())]


def snippet(body: str) -> str:
    return _SPACE.sub(" ", body).strip()[:SNIPPET].translate(_ESCAPES)


def payload(message: Message, attachment: str, part_id: str = "") -> dict[str, Any]:
    """Gmail's `MessagePart` of `message` (the root has partId ""; its children "0", "1", theirs "1.0"...). An
    attached file's body has no data but its `attachmentId` (`attachment` and the partId), which
    messages.attachments.get reads."""
    part: dict[str, Any] = {
        "partId": part_id,
        "mimeType": message.get_content_type(),
        "filename": message.get_filename() or "",
        "headers": [{"name": name, "value": str(value)} for name, value in message.items()],
    }
    if message.is_multipart():
        children = message.get_payload()
        assert isinstance(children, list)
        part["body"] = {"size": 0}
        prefix = f"{part_id}." if part_id else ""
        part["parts"] = [payload(child, attachment, f"{prefix}{i}") for i, child in enumerate(children)]
    elif part["filename"]:
        part["body"] = {"attachmentId": f"{attachment}{part_id}", "size": len(body(message))}
    else:
        data = body(message)
        part["body"] = {"size": len(data), "data": b64url(data)} if data else {"size": 0}
    return part


def body(part: Message) -> bytes:
    """A part's content, its transfer encoding undone."""
    data = part.get_payload(decode=True)
    return data if isinstance(data, bytes) else b""


def part(message: Message, part_id: str) -> Message | None:
    """The part of `message` a partId names, or None."""
    found = message
    for step in part_id.split(".") if part_id else ():
        children = found.get_payload() if found.is_multipart() else None
        if not isinstance(children, list) or not step.isdigit() or int(step) >= len(children):
            return None
        child = children[int(step)]
        if not isinstance(child, Message):
            return None
        found = child
    return found
