"""A world's MCP endpoint over stdio (docs/mcp.md, "Over stdio"), for harnesses that only launch MCP servers as
commands: the official SDK's stdio server transport on one side, its streamable HTTP client on the other, and
each message passed across as it is. The SDK speaks both transports; the bridge reads no more of a message than
whether it is a request or an answer, and its id, to know what it still owes when stdin ends.

Its own module, as `mcp_session` is: the SDK takes half a second to import, and only this command needs it.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

import anyio
from mcp.client.streamable_http import streamable_http_client
from mcp.server.stdio import stdio_server
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import JSONRPCError, JSONRPCRequest, JSONRPCResponse, RequestId


async def bridge(url: str, headers: Mapping[str, str], stdin: Any = None, stdout: Any = None) -> None:
    """Serves the MCP endpoint `url`, reached with `headers`, on stdin and stdout (or the async text files
    given) until stdin ends and every request read has its answer written. While it runs, the process's stdout
    is the protocol's alone (the SDK points fd 1 at stderr meanwhile); what the transports could not carry is
    said on stderr."""
    owed = _Owed()
    async with (
        create_mcp_http_client(headers=dict(headers)) as http,
        streamable_http_client(url, http_client=http) as (remote_read, remote_write),
        stdio_server(stdin, stdout) as (local_read, local_write),
        anyio.create_task_group() as tasks,
    ):
        tasks.start_soon(_answers, remote_read, local_write, owed)
        async for item in local_read:
            if isinstance(item, Exception):  # a line that is no JSON-RPC message
                _note(f"stdin: {item}")
                continue
            if isinstance(item.message, JSONRPCRequest):
                owed.asked(item.message.id)
            await remote_write.send(item)
        # The harness closed stdin: it asks nothing more, and gets what it asked (a request that fails is
        # answered with an error by the SDK's client, so each is answered).
        await owed.none.wait()
        tasks.cancel_scope.cancel()
        await local_write.aclose()  # the SDK's stdout writer ends with it


async def _answers(remote_read: Any, local_write: Any, owed: _Owed) -> None:
    async for item in remote_read:
        if isinstance(item, Exception):  # an answer the client could not read
            _note(f"the endpoint: {item}")
            continue
        await local_write.send(item)
        if isinstance(item.message, JSONRPCResponse | JSONRPCError):
            owed.answered(item.message.id)


class _Owed:
    """The ids of the requests sent on and not answered yet; `none` is set while there are none."""

    def __init__(self) -> None:
        self.ids: set[RequestId] = set()
        self.none = anyio.Event()
        self.none.set()

    def asked(self, request: RequestId) -> None:
        self.ids.add(request)
        if self.none.is_set():
            self.none = anyio.Event()

    def answered(self, request: RequestId | None) -> None:
        self.ids.discard(request)  # type: ignore[arg-type]
        if not self.ids:
            self.none.set()


def _note(text: str) -> None:
    print(f"soundstage mcp: {text}", file=sys.stderr, flush=True)
