"""Gmail's media uploads (`/upload/gmail/v1/...`): the message sent as the body itself (`uploadType=media`, of
type message/rfc822) or after the JSON metadata of the call in a multipart/related body (`uploadType=multipart`),
as the official clients send a `media_body`; the body read, no state. The body is as large as the server takes
at most (its limit answers 413 before any of this), and it is split in one pass."""

from __future__ import annotations

from email.message import Message
from typing import Any

from ..base import loads_json
from ..google.errors import GoogleError, parse_error

MEDIA_TYPE = "message/rfc822"
UPLOAD_TYPES = ("media", "multipart")
# Google's answers, as reported: the upload URL without a known `uploadType` (google/google-api-javascript-client
# #200), a media part of another type (googleapis/google-api-nodejs-client#229, googleworkspace/cli#276), a
# multipart body that is not one metadata part and one media part.
WRONG_URL = "Upload requests must include an uploadType URL parameter and a URL path beginning with /upload/"


def wrong_url() -> GoogleError:
    return GoogleError(400, "wrongUrlForUpload", WRONG_URL)


def unsupported(media_type: str) -> GoogleError:
    return GoogleError(
        400, "badRequest", f"Media type '{media_type}' is not supported. Valid media types: [{MEDIA_TYPE}]"
    )


def parts_error(count: int) -> GoogleError:
    return GoogleError(400, "badRequest", f"Invalid multipart request with {count} mime parts.")


def _header(value: str) -> Message:
    header = Message()
    header["Content-Type"] = value
    return header


def media_type(value: str) -> str:
    """The type of a Content-Type value, lower case, without its parameters."""
    return value.split(";")[0].strip().lower()


def checked_media(content_type: str) -> None:
    if media_type(content_type) != MEDIA_TYPE:
        raise unsupported(media_type(content_type) or "application/octet-stream")


def _line_end(data: bytes, at_start: bool) -> bytes:
    """`data` without the one line break that RFC 2046 gives its delimiters (at its start or its end)."""
    for end in (b"\r\n", b"\n"):
        if at_start and data.startswith(end):
            return data[len(end) :]
        if not at_start and data.endswith(end):
            return data[: -len(end)]
    return data


def split(content_type: str, body: bytes) -> list[tuple[str, bytes]]:
    """A multipart body's parts, each its Content-Type and its content; none when it is not multipart or its
    boundary is not in it."""
    boundary = (
        _header(content_type).get_param("boundary") if media_type(content_type).startswith("multipart/") else None
    )
    if not isinstance(boundary, str) or not boundary:
        return []
    pieces = body.split(b"--" + boundary.encode("latin-1", "replace"))
    if len(pieces) < 3 or not pieces[-1].startswith(b"--"):  # no closing delimiter
        return []
    parts = []
    for piece in pieces[1:-1]:
        piece = _line_end(_line_end(piece, True), False)
        if piece.startswith((b"\r\n", b"\n")):  # no headers at all
            head, content = b"", _line_end(piece, True)
        else:
            cut = min((at for at in (piece.find(b"\r\n\r\n"), piece.find(b"\n\n")) if at >= 0), default=-1)
            if cut < 0:
                head, content = piece, b""
            else:
                separator = 4 if piece[cut : cut + 4] == b"\r\n\r\n" else 2
                head, content = piece[:cut], piece[cut + separator :]
        parts.append((_content_type(head), content))
    return parts


def _content_type(head: bytes) -> str:
    for line in head.decode("latin-1").splitlines():
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-type":
            return value.strip()
    return ""


def read(upload_type: str | None, content_type: str, body: bytes) -> tuple[dict[str, Any], bytes]:
    """The call's metadata (a JSON object; none for a media upload) and the message's RFC 2822 bytes."""
    if upload_type not in UPLOAD_TYPES:
        raise wrong_url()
    if upload_type == "media":
        checked_media(content_type)
        return {}, body
    parts = split(content_type, body)
    if len(parts) != 2:
        raise parts_error(len(parts))
    (_, metadata), (kind, message) = parts
    try:
        fields = loads_json(metadata) if metadata.strip() else {}
    except (UnicodeDecodeError, ValueError):
        raise parse_error() from None
    if not isinstance(fields, dict):
        raise parse_error()
    checked_media(kind)
    return fields, message
