"""Request heads are bounded on every port (docs/security.md): past `MAX_HEADERS` fields or `HEAD_LIMIT` bytes,
431 Request Header Fields Too Large, answered before the head is parsed, and the call never reaches the world."""

from __future__ import annotations

import base64
import re
import socket
import ssl
from collections.abc import Callable, Iterator

import h11
import pytest

from soundstage.server import Server
from soundstage.server.heads import HEAD_LIMIT, MAX_HEADERS, Head
from soundstage.server.llhttp_heads import HttpToolsHeads
from soundstage.server.stack import Stack
from soundstage.world import World

from .test_control import SCENE

Connect = Callable[[], socket.socket]


@pytest.fixture(scope="module", params=[Stack("httptools", "uvloop"), Stack("h11", "asyncio")], ids=str)
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    with Server(proxy_port=0, stack=request.param) as running:
        yield running


@pytest.fixture
def decoded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many header fields the parser decoded, head by head: h11's (the proxy's tunnels use it on either
    stack) and llhttp's, as uvicorn's httptools protocol is handed them."""
    found: list[int] = []
    decode = h11._readers._decode_header_lines  # type: ignore[attr-defined]

    def counted(lines: list[bytearray]) -> object:
        found.append(len(lines))
        return decode(lines)

    complete = HttpToolsHeads.on_headers_complete

    def handed(protocol: HttpToolsHeads) -> None:
        found.append(len(protocol.headers))
        complete(protocol)

    monkeypatch.setattr(h11._readers, "_decode_header_lines", counted)
    monkeypatch.setattr(HttpToolsHeads, "on_headers_complete", handed)
    return found


def _world(server: Server) -> tuple[World, str, str]:
    """A live world, its agent's Slack token and its proxy credential."""
    world = server.hub.add(server.hub.images.load(scene_yaml=SCENE))
    env = server.hub.environment(world, server.url)
    credential = base64.b64encode(f"agent:{env['SOUNDSTAGE_TOKEN']}".encode()).decode()
    return world, str(env["SLACK_BOT_TOKEN"]), credential


def _head(first: str, fields: int, end: bool = True) -> bytes:
    """A request line and fields, `fields` in all with those `first` gives, then the blank line."""
    given = first.count("\n") - 1
    more = "".join(f"x-field-{n}: v\r\n" for n in range(fields - given))
    return (first + more + ("\r\n" if end else "")).encode()


def _auth_test(token: str, host: str = "x") -> str:
    return f"POST {{path}} HTTP/1.1\r\nhost: {host}\r\nauthorization: Bearer {token}\r\ncontent-length: 0\r\n"


def _status(connect: Connect, data: bytes) -> int:
    with connect() as sock:
        sock.settimeout(60)  # only so that a server that waits forever fails the test rather than hangs it
        try:
            sock.sendall(data)
        except OSError:  # refused and closed before all of it was sent: the answer came first
            pass
        return int(sock.recv(65536).split(b" ")[1])


def _ports(server: Server, credential: str) -> dict[str, tuple[Connect, str]]:
    """How to reach the app on each port, and the path of Slack's auth.test there."""
    assert server.hub.tls is not None and server.hub.proxy is not None
    trusted = ssl.create_default_context(cafile=server.hub.tls.ca.bundle)
    tls_port, proxy_port = server.hub.tls.port, server.hub.proxy.port

    def tunnel() -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", proxy_port))
        sock.sendall(f"CONNECT slack.com:443 HTTP/1.1\r\nproxy-authorization: Basic {credential}\r\n\r\n".encode())
        assert sock.recv(1024).startswith(b"HTTP/1.1 200")
        return trusted.wrap_socket(sock, server_hostname="slack.com")

    return {
        "http": (lambda: socket.create_connection(("127.0.0.1", server.port)), "/w/{id}/slack/api/auth.test"),
        "https": (
            lambda: trusted.wrap_socket(socket.create_connection(("127.0.0.1", tls_port)), server_hostname="127.0.0.1"),
            "/w/{id}/slack/api/auth.test",
        ),
        "proxy": (tunnel, "/api/auth.test"),
    }


def test_a_head_past_the_field_count_is_refused_before_it_is_parsed(server: Server, decoded: list[int]) -> None:
    world, token, credential = _world(server)
    for name, (connect, path) in _ports(server, credential).items():
        first = _auth_test(token).format(path=path.format(id=world.id))
        before = world.log.last_seq
        decoded.clear()
        assert _status(connect, _head(first, MAX_HEADERS + 1)) == 431, name
        assert _status(connect, _head(first, 5000)) == 431, name
        # The server answers as soon as the count is past, however much of the head is still to come.
        assert _status(connect, _head(first, MAX_HEADERS + 50, end=False)) == 431, name
        assert (decoded, world.log.last_seq) == ([], before), name  # h11 read no head; the world saw no call
        assert _status(connect, _head(first, MAX_HEADERS)) == 200, name
        assert decoded == [MAX_HEADERS] and world.log.last_seq == before + 1, name


def test_a_head_past_its_size_is_refused(server: Server, decoded: list[int]) -> None:
    world, token, credential = _world(server)
    for name, (connect, path) in _ports(server, credential).items():
        first = _auth_test(token).format(path=path.format(id=world.id))
        big = first.encode() + b"x-big: " + b"a" * HEAD_LIMIT + b"\r\n\r\n"
        assert _status(connect, big) == 431, name
    assert decoded == []


def test_the_proxys_connect_head_is_bounded_alike(server: Server) -> None:
    _, _, credential = _world(server)
    connect = f"CONNECT slack.com:443 HTTP/1.1\r\nproxy-authorization: Basic {credential}\r\n"
    assert server.hub.proxy is not None
    port = server.hub.proxy.port
    assert _status(lambda: socket.create_connection(("127.0.0.1", port)), _head(connect, MAX_HEADERS + 1)) == 431
    assert _status(lambda: socket.create_connection(("127.0.0.1", port)), _head(connect, MAX_HEADERS)) == 200


def test_bodies_and_pipelined_requests_are_not_counted_as_head(server: Server) -> None:
    world, token, _ = _world(server)
    path = f"/w/{world.id}/slack/api/auth.test"
    body = b"\r\n" * 500  # lines of a body are not fields
    one = f"POST {path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {token}\r\ncontent-length: {len(body)}\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.settimeout(60)
        sock.sendall(one.encode() + body + _head(_auth_test(token).format(path=path), MAX_HEADERS))  # two at once
        answers = b""
        while answers.count(b"HTTP/1.1 ") < 2:
            answers += sock.recv(65536)
    assert re.findall(rb"HTTP/1.1 (\d+)", answers) == [b"200", b"200"]


def test_a_head_is_counted_as_it_arrives() -> None:
    head = Head()
    assert head.fits(b"GET / HTTP/1.1\r\nhost: x\r") and head.fits(b"\na: 1\r\n\r")  # the blank line straddles reads
    assert head.fits(b"\n" + b"body line\r\n" * 500)
    assert (head.ended, head.lines, head.size) == (True, 4, 33)
    bare = Head()
    assert bare.fits(b"GET / HTTP/1.1\n" + b"a: 1\n" * MAX_HEADERS)
    assert not bare.fits(b"a: 1\n") and not bare.ended
