"""uvicorn's httptools protocol with its request heads bounded as on h11 (heads.py), and each answer's head
written with its body. Its own module because httptools may be missing: stack.py imports it only where
httptools is installed."""

from __future__ import annotations

import weakref
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from .heads import REFUSAL, Head


class HttpToolsHeads(HttpToolsProtocol):
    """uvicorn's httptools protocol, refusing a head over the bounds before llhttp reads it. From a request's
    end to the next one's blank line, each read is counted (`Head`) before llhttp is fed it. As with h11, a
    head that starts inside the read that ended the request before it is counted from the next read on."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head: Head | None = Head()  # None while a body arrives

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():  # refused: what else comes is not read
            return
        if self._head is not None and not self._head.fits(data):
            self.transport.write(REFUSAL)
            self.transport.close()
            return
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._head = None
        before = self.cycle
        super().on_headers_complete()
        if self.cycle is not before:  # a request to answer (not an upgrade): its answer written in one piece
            self.cycle.transport = OneWrite(self.transport, self.cycle)  # type: ignore[assignment]

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._head = Head()


class OneWrite:
    """The connection's transport as one request's cycle sees it. uvicorn writes an answer's head when the app
    starts it and its body when the app sends it: two sends, two segments on a connection without Nagle, two
    wake-ups of the client. On loopback a call's CPU, on both ends, is much of it the kernel's work per send, so
    the head of an answer of known length (every answer of the services) is held here until its body's first
    bytes come, and written with them. Anything else goes at once: what the cycle writes before its answer starts
    (`100 Continue`, which the client waits for), the head of a streamed answer (an MCP event stream: the client
    may wait on it) or of an answer to HEAD (uvicorn writes no body then). A head still held when the cycle
    closes the connection (the app failed after starting its answer) is written first, as uvicorn would have."""

    __slots__ = ("_cycle", "_held", "_started", "_transport")

    def __init__(self, transport: Any, cycle: RequestResponseCycle) -> None:
        self._transport = transport
        # Not the cycle itself: it holds this as its transport, and a cycle of the two per request would outlive
        # the request in a server, whose collector freezes what it finds alive (collector.py).
        self._cycle = weakref.proxy(cycle)
        self._held: bytes | None = None
        self._started = False  # the head has been written, or is held

    def write(self, data: bytes) -> None:
        if self._held is not None:
            data, self._held = self._held + data, None
        elif not self._started and self._cycle.response_started:
            self._started = True
            cycle = self._cycle
            if cycle.chunked_encoding is False and cycle.scope["method"] != "HEAD":  # a content-length was given
                self._held = data
                return
        self._transport.write(data)

    def close(self) -> None:
        if self._held is not None:
            self._transport.write(self._held)
            self._held = None
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)
