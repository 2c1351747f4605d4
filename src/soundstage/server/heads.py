"""Request heads, bounded on every port: at most `MAX_HEADERS` header fields and `HEAD_LIMIT` bytes, else 431
Request Header Fields Too Large at once, counted as the head's bytes arrive and before anything parses it.

Parsing is where a big head costs: h11 reads a head only once its blank line has come, then decodes every
line (an 80 KB head of 20,000 fields arriving in one read was parsed whole, and served). `Head` counts
the lines with `bytes.count` as they come and refuses the head at the first line past the bound. The http
and https ports run uvicorn's h11 protocol through `H11Heads`; the interception proxy counts its CONNECT
heads and the requests inside its tunnels with `Head` too; with httptools (stack.py) the ports run
`llhttp_heads.HttpToolsHeads`, which counts in its `data_received` before llhttp is fed.
"""

from __future__ import annotations

import re
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

# Apache's LimitRequestFields; HAProxy, in front of many vendors' APIs, allows 101 lines with the request line.
MAX_HEADERS = 100
HEAD_LIMIT = 64 * 1024  # bytes of a head, the request line and the blank line included
REFUSAL = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: 31\r\n\r\nRequest Header Fields Too Large"
)
_END = re.compile(rb"\n\r?\n")  # the blank line ending a head (h11 takes a bare LF for CRLF)


class Head:
    """The head of a request being received: its lines and bytes, counted up to the blank line that ends it."""

    __slots__ = ("_last", "ended", "lines", "size")

    def __init__(self) -> None:
        self.lines = self.size = 0
        self.ended = False
        self._last = b""  # the last two bytes counted: a blank line may straddle two reads

    def fits(self, data: bytes) -> bool:
        """Counts `data` as the head's next bytes (none past its end); answers whether the head is within bounds."""
        if not self.ended:
            joined = self._last + data
            found = _END.search(joined)
            counted = joined if found is None else joined[: found.end()]
            self.lines += counted.count(b"\n") - self._last.count(b"\n")
            self.size += len(counted) - len(self._last)
            self.ended, self._last = found is not None, counted[-2:]
        fields = self.lines - 1 - self.ended  # less the request line, and the blank line once it came
        return fields <= MAX_HEADERS and self.size <= HEAD_LIMIT


class H11Heads(H11Protocol):
    """uvicorn's h11 protocol, refusing a head over the bounds before h11 reads it. While h11 waits for a
    request (IDLE), what arrives is that request's head: counted from what h11 holds unread, the start of a
    pipelined request, and from then on read by read."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head: Head | None = None

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():  # refused: what else comes is not read
            return
        if self.conn.their_state is h11.IDLE:
            if self._head is None or self._head.ended:
                self._head = Head()
                self._head.fits(self.conn.trailing_data[0])
            if not self._head.fits(data):
                self.transport.write(REFUSAL)
                self.transport.close()
                return
        else:
            self._head = None
        super().data_received(data)
