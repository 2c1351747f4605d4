"""Google's batch requests: many calls of one API in one `multipart/mixed` HTTP request, answered by one
`multipart/mixed` answer with a part per call (https://developers.google.com/gmail/api/guides/batch).

A request part is `Content-Type: application/http`, an optional `Content-ID`, a blank line, then a whole HTTP
request: its request line (`GET /gmail/v1/users/me/messages/1 HTTP/1.1`, the path alone), its headers, a blank
line, its body. The answer's parts are in the same order, each `Content-Type: application/http` with the
request's `Content-ID` as `<response-ID>`, then the call's status line, headers and body.

This module reads and writes that format and nothing else: the server's recording layer runs each part as a call
of its own (`server/batch.py`). The whole batch is read before any part runs, so one that is not the format is
refused whole and no part of it runs.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from email.message import Message
from http import HTTPStatus
from urllib.parse import unquote

from ..base import Reply, ServiceRequest, parse_query
from .errors import GoogleError

# At most this many header lines a part, and as many a call: what the server takes of a request's head.
HEADERS = 100
# The headers of the batch's own request that are not handed to its calls (Google: every other outer header
# applies to each call that does not give its own).
_OUTER_ONLY = ("content-", "host", "transfer-encoding")


@dataclass(frozen=True)
class Part:
    """One call of a batch: its `Content-ID` (None when the part gave none) and the request as the service will
    see it once the batch's URL prefix is taken off its path."""

    content_id: str | None
    request: ServiceRequest


def limit_error(received: int, limit: int) -> GoogleError:
    """Google's answer to a batch of more calls than the API takes (as Gmail words it)."""
    return _bare(f"Inner request count exceeds the limit. Received: {received}, Limit: {limit}")


def nested_error() -> GoogleError:
    return _bare("Nested batch requests are not allowed.")


def _bare(message: str) -> GoogleError:
    # Google's batch refusals carry no `errors` list, no reason: code, message and status alone.
    return GoogleError(400, "", message)


def parse(request: ServiceRequest, prefix: str, roots: tuple[str, ...], limit: int) -> list[Part]:
    """The calls of a batch request, in order. `prefix` is the URL path the batch's API hangs from on the host it
    was sent to (`/w/<id>/gmail`; empty at Google's own hosts): a call's path under it (as the official client
    sends it) is taken without it, one that starts with one of the API's own `roots` (`/gmail/v1/`, as Google's
    guide writes it) is taken as it is. Raises `GoogleError` (400) when the body is not a batch of at most `limit`
    calls."""
    boundary = _boundary(request)
    chunks = _split(request.body, boundary.encode("latin-1"), limit)
    if not chunks:
        raise _bare("Failed to parse batch request: it holds no part.")
    outer = {name: value for name, value in request.headers.items() if not name.startswith(_OUTER_ONLY)}
    return [_part(chunk, n, request, outer, prefix, roots) for n, chunk in enumerate(chunks, 1)]


def _boundary(request: ServiceRequest) -> str:
    header = Message()
    header["content-type"] = request.headers.get("content-type", "")
    boundary = header.get_param("boundary") if header.get_content_type() == "multipart/mixed" else None
    if not isinstance(boundary, str) or not 0 < len(boundary) <= 70:
        raise _bare("Failed to parse batch request: the body is not multipart/mixed with a boundary.")
    return boundary


def _split(body: bytes, boundary: bytes, limit: int) -> list[bytes]:
    """The parts between `--boundary` lines, each without the line break that ends it; the preamble before the
    first and anything after the closing `--boundary--` left out. Past `limit` parts the rest are counted, not
    cut out, for Google's refusal."""
    delimiter = b"--" + boundary
    start = 0 if body.startswith(delimiter) else _after_break(body, b"\n" + delimiter)
    if start < 0:
        raise _bare("Failed to parse batch request: no part begins with the boundary.")
    parts: list[bytes] = []
    while True:
        start += len(delimiter)
        if body.startswith(b"--", start):  # the closing delimiter
            return parts
        line_end = body.find(b"\n", start)
        if line_end < 0:
            raise _bare("Failed to parse batch request: the body ends inside a boundary line.")
        following = body.find(b"\n" + delimiter, line_end)
        if following < 0:
            raise _bare("Failed to parse batch request: the body has no closing boundary.")
        end = following - 1 if following > line_end and body[following - 1 : following] == b"\r" else following
        parts.append(body[line_end + 1 : end])
        start = following + 1
        if len(parts) > limit:
            further = body.count(b"\n" + delimiter, start) - body.count(b"\n" + delimiter + b"--", start)
            raise limit_error(len(parts) + further + int(not body.startswith(delimiter + b"--", start)), limit)


def _after_break(body: bytes, marker: bytes) -> int:
    found = body.find(marker)
    return found + 1 if found >= 0 else -1


def _head(text: bytes, n: int) -> tuple[list[tuple[str, str]], bytes]:
    """A block of header lines up to its blank line, and what follows it (read by position: no copy of the rest
    per line, however many lines a part holds)."""
    lines: list[tuple[str, str]] = []
    at = 0
    while True:
        end = text.find(b"\n", at)
        line = (text[at:] if end < 0 else text[at:end]).removesuffix(b"\r")
        if not line:
            if end < 0 and not lines:
                raise _bare(f"Failed to parse batch request: part {n} is empty.")
            return lines, b"" if end < 0 else text[end + 1 :]
        if end < 0:
            raise _bare(f"Failed to parse batch request: part {n}'s headers have no end.")
        name, colon, value = line.decode("latin-1").partition(":")
        if not colon or not name.strip() or name != name.strip():
            raise _bare(f"Failed to parse batch request: part {n} has a header line that is not one.")
        lines.append((name.lower(), value.strip()))
        if len(lines) > HEADERS:
            raise _bare(f"Failed to parse batch request: part {n} has more than {HEADERS} header lines.")
        at = end + 1


def _part(
    chunk: bytes, n: int, batch: ServiceRequest, outer: dict[str, str], prefix: str, roots: tuple[str, ...]
) -> Part:
    part_headers, embedded = _head(chunk, n)
    content_id = next((value for name, value in part_headers if name == "content-id"), None)
    line, _, rest = embedded.partition(b"\n")
    words = line.removesuffix(b"\r").decode("latin-1").split(" ")
    if len(words) not in (2, 3) or not words[0].isalpha() or not words[0].isascii():
        raise _bare(f"Failed to parse batch request: part {n} does not hold an HTTP request.")
    if len(words) == 3 and not words[2].startswith("HTTP/"):
        raise _bare(f"Failed to parse batch request: part {n}'s request line is not HTTP.")
    target = words[1]
    if not target.startswith("/"):  # Google: the path alone, never a whole URL
        raise _bare(f"Failed to parse batch request: part {n}'s request is not to a path.")
    inner, body = _head(rest, n) if rest.strip() else ([], b"")
    headers = dict(outer)
    headers.update(inner)
    length = next((value for name, value in inner if name == "content-length"), None)
    if length is not None:
        if not length.isdigit() or int(length) > len(body):
            raise _bare(f"Failed to parse batch request: part {n}'s body is shorter than its Content-Length.")
        body = body[: int(length)]
    raw_path, _, query = target.partition("?")
    path = unquote(raw_path)
    if prefix and path.startswith(prefix + "/") and not path.startswith(roots):
        path = path[len(prefix) :]
    request = ServiceRequest(words[0].upper(), path, parse_query(query), headers, body, batch.base_url)
    return Part(content_id, request)


def boundary_for(body: bytes, answers: list[bytes]) -> str:
    """The answer's boundary: from the request's bytes (the same batch, the same answer), lengthened in the
    unlikely event that an answer holds it."""
    digest = hashlib.sha256(body).digest()
    boundary = "batch_" + base64.urlsafe_b64encode(digest[:18]).decode()
    while any(boundary.encode() in answer for answer in answers):
        digest = hashlib.sha256(digest).digest()
        boundary += base64.urlsafe_b64encode(digest[:6]).decode()
    return boundary


def response_part(content_id: str | None, reply: Reply, content: bytes) -> bytes:
    """One part of the answer: the call's status line, headers and body as `application/http`."""
    head = ["Content-Type: application/http"]
    if content_id is not None:
        inner = content_id[1:-1] if content_id.startswith("<") and content_id.endswith(">") else None
        head.append(f"Content-ID: <response-{inner}>" if inner is not None else f"Content-ID: response-{content_id}")
    try:
        phrase = HTTPStatus(reply.status).phrase
    except ValueError:
        phrase = ""
    lines = [f"HTTP/1.1 {reply.status} {phrase}".rstrip()]
    named = {name.lower() for name in reply.headers}
    if content and "content-type" not in named:
        lines.append("Content-Type: application/json; charset=UTF-8")
    lines += [f"{name}: {value}" for name, value in reply.headers.items() if name.lower() != "content-length"]
    lines.append(f"Content-Length: {len(content)}")
    text = "\r\n".join(head) + "\r\n\r\n" + "\r\n".join(lines) + "\r\n\r\n"
    return text.encode("latin-1", "replace") + content


def compose(boundary: str, parts: list[bytes]) -> bytes:
    delimiter = b"--" + boundary.encode()
    return b"".join(delimiter + b"\r\n" + part + b"\r\n" for part in parts) + delimiter + b"--\r\n"
