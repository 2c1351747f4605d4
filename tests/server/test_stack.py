"""Which parser and loop serve: the fastest installed, or the one asked for by option or variable."""

from __future__ import annotations

import importlib.util
import json
import socket
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from tests.garbage import no_cycles_left

from soundstage.errors import UsageError
from soundstage.server import Server, llhttp_heads
from soundstage.server.heads import H11Heads
from soundstage.server.llhttp_heads import HttpToolsHeads, OneWrite
from soundstage.server.stack import Stack

from .test_control import SCENE


def test_the_fastest_installed_is_chosen_unless_one_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOUNDSTAGE_HTTP", raising=False)
    monkeypatch.delenv("SOUNDSTAGE_LOOP", raising=False)
    assert Stack.choose() == Stack("httptools", "uvloop")
    assert Stack.choose("h11", "asyncio") == Stack("h11", "asyncio")
    monkeypatch.setenv("SOUNDSTAGE_HTTP", "h11")
    assert Stack.choose() == Stack("h11", "uvloop")
    assert Stack.choose("auto") == Stack("httptools", "uvloop")  # asked for: the fastest, whatever the variable
    assert str(Stack.choose(loop="asyncio")) == "h11 on asyncio"


def test_without_httptools_and_uvloop_h11_and_asyncio_serve(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOUNDSTAGE_HTTP", raising=False)
    monkeypatch.delenv("SOUNDSTAGE_LOOP", raising=False)
    find = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name in ("httptools", "uvloop") else find(name)
    )
    assert Stack.choose() == Stack("h11", "asyncio")
    with pytest.raises(UsageError, match="the HTTP parser httptools is not installed here: pip install httptools"):
        Stack.choose("httptools")


def test_an_unknown_name_is_refused() -> None:
    with pytest.raises(UsageError, match=r"the event loop must be auto, uvloop, asyncio, not 'trio'"):
        Stack.choose(loop="trio")


def test_each_parser_has_its_heads_bounded() -> None:
    assert Stack("h11", "asyncio").options()["http"] is H11Heads
    assert Stack("httptools", "asyncio").options() == {"http": HttpToolsHeads}


class _Transport:
    """What reached the connection's transport, write by write."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


class _Cycle(SimpleNamespace):
    """A request's cycle as uvicorn's httptools protocol keeps it (which a weak reference can name)."""


def _cycle(method: str = "GET", chunked: bool | None = False) -> _Cycle:
    """A request's cycle, its answer started."""
    return _Cycle(scope={"method": method}, response_started=True, response_complete=False, chunked_encoding=chunked)


def test_an_answer_of_known_length_is_written_once_its_head_with_its_body() -> None:
    transport = _Transport()
    cycle = _cycle()
    cycle.response_started = False
    one = OneWrite(transport, cycle)
    one.write(b"HTTP/1.1 100 Continue\r\n\r\n")  # before the answer starts: at once, the client waits on it
    cycle.response_started = True
    one.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
    assert transport.writes == [b"HTTP/1.1 100 Continue\r\n\r\n"]
    one.write(b"{}")
    assert transport.writes[1:] == [b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"]
    one.write(b"more")  # after the head: at once
    assert transport.writes[2:] == [b"more"]
    assert not one.is_closing()  # the rest is the transport's own


@pytest.mark.parametrize(("method", "chunked"), [("GET", True), ("GET", None), ("HEAD", False)])
def test_a_streamed_answers_head_or_one_to_head_goes_at_once(method: str, chunked: bool | None) -> None:
    transport, cycle = _Transport(), _cycle(method, chunked)  # the protocol holds its cycle: the writer does not
    OneWrite(transport, cycle).write(b"HTTP/1.1 200 OK\r\n\r\n")
    assert transport.writes == [b"HTTP/1.1 200 OK\r\n\r\n"]


def test_a_held_head_is_written_before_the_connection_closes() -> None:
    transport, cycle = _Transport(), _cycle()
    one = OneWrite(transport, cycle)
    one.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
    one.close()  # the app failed after starting its answer
    assert transport.writes == [b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n"]
    assert transport.closed


def test_an_answer_leaves_no_cycle_behind(fast: Server) -> None:
    """The writer of a request's answer and its cycle do not hold each other: a cycle of the two per request would
    outlive it in a server, whose collector freezes what it finds alive."""
    with httpx.Client(base_url=fast.url) as client:
        client.get("/v1/worlds")  # the connection, and what a first request makes once
        with no_cycles_left():
            for _ in range(3):  # each request's cycle let go by the protocol when the next one starts
                assert client.get("/v1/worlds").status_code == 401


@pytest.fixture(scope="module")
def fast() -> Iterator[Server]:
    with Server(stack=Stack("httptools", "uvloop")) as running:
        yield running


FORM = b"content-type: application/x-www-form-urlencoded\r\n"


def _read(sock: socket.socket, until: bytes) -> bytes:
    sock.settimeout(60)  # only so that a server that waits forever fails the test rather than hangs it
    data = b""
    while until not in data:
        chunk = sock.recv(65536)
        assert chunk, data
        data += chunk
    return data


class _Recorded:
    """The connection's transport, each write kept in `sent` on its way."""

    def __init__(self, transport: Any, sent: list[bytes]) -> None:
        self._transport, self._sent = transport, sent

    def write(self, data: bytes) -> None:
        self._sent.append(data)
        self._transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


def test_a_call_is_answered_in_one_write_on_httptools(fast: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[bytes] = []
    monkeypatch.setattr(llhttp_heads, "OneWrite", lambda transport, cycle: OneWrite(_Recorded(transport, sent), cycle))
    world = fast.hub.add(fast.hub.images.load(scene_yaml=SCENE))
    token = fast.hub.environment(world, fast.url)["SLACK_BOT_TOKEN"]
    head = f"POST /w/{world.id}/slack/api/auth.test HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {token}\r\n"
    with socket.create_connection(("127.0.0.1", fast.port)) as sock:
        sock.sendall(head.encode() + b"content-length: 0\r\n\r\n")
        assert _read(sock, b'"ok":true').startswith(b"HTTP/1.1 200 OK\r\n")
        # Asking for 100 Continue, the body sent only once it came: the answer follows the body.
        sock.sendall(head.encode() + b"content-length: 3\r\nexpect: 100-continue\r\n" + FORM + b"\r\n")
        assert _read(sock, b"\r\n\r\n") == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(b"x=y")
        assert _read(sock, b'"ok":true').startswith(b"HTTP/1.1 200 OK\r\n")
        sock.sendall(b"HEAD /healthz HTTP/1.1\r\nhost: x\r\n\r\n")  # no body follows its head
        assert _read(sock, b"\r\n\r\n").startswith(b"HTTP/1.1 200 OK\r\n")
    # The first answer, the 100 Continue, the second answer, HEAD's head: each answer's head and body in one write.
    assert len(sent) == 4
    assert sent[1] == b"HTTP/1.1 100 Continue\r\n\r\n"
    for answer in (sent[0], sent[2]):
        head_sent, body = answer.split(b"\r\n\r\n", 1)
        assert f"content-length: {len(body)}".encode() in head_sent.split(b"\r\n")
        assert json.loads(body)["ok"] is True
    assert sent[3].startswith(b"HTTP/1.1 200 OK\r\n") and sent[3].endswith(b"\r\n\r\n")
