"""uvicorn's httptools protocol with its request heads bounded as on h11 (heads.py). Its own module because
httptools may be missing: stack.py imports it only where httptools is installed."""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

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
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._head = Head()
