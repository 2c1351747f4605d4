"""The interception proxy (docs/interception.md): agents left at the vendors' real hosts reach the world.

An HTTP proxy that agents find through `HTTPS_PROXY`/`HTTP_PROXY`. Each connection names its world by the
proxy credential in the proxy URL (`http://agent:<SOUNDSTAGE_TOKEN>@host:port`); one without a credential of
a live world gets 407 and goes nowhere, so the proxy is no open relay.

- A vendor's host (each service's `hosts` and `domains`: `slack.com`, `api.github.com`...; a host two
  services share, such as `www.googleapis.com`, split between them by path prefix): the proxy ends
  TLS itself, with a certificate for that host signed by the local CA (which the agent trusts), reads
  the HTTP requests inside and hands each to the app as a call of `/<service>/<path>`, where the recording
  layer finds the world by the request's token, as for soundstage's own unprefixed URLs.
- Any other host: tunnelled through untouched (the agent reaches its model provider), or refused with 403
  when the scene says `agent: {network: offline}`, or when the host is not on the public internet (loopback,
  private, link-local such as the clouds' metadata service, ...: judged by the address its name resolves to,
  and the tunnel goes to that very address), unless the scene names it in `agent.allow`. Each is logged once
  in the world as a call of the service `outside` (`CONNECT /<host>:<port>`) with the status the agent got:
  200 once the host is connected, 403 refused, 502 not reachable, 429 past the world's tunnels, 400 not
  host:port. Trace checks match them as `outside:*`.

Every piece of work is bounded: a request head of at most 100 fields and 64 KiB, counted before it is
parsed (heads.py), within HEAD_TIMEOUT; at most WAITING connections still sending theirs, TUNNELS tunnels a
world, a body of at most the hub's limit, and every wait on the network by a timeout.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import ipaddress
import json
import logging
import socket
import ssl
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import cached_property
from typing import Any

import h11

from ..clock import iso
from ..events import CallEvent
from ..services import SERVICES
from ..spec.fields import host_port
from ..world import World
from .heads import HEAD_LIMIT, REFUSAL, Head
from .hub import Hub
from .model_calls import Budget, cap_error, log_call, upstream_body
from .recording import VENDOR_HOST
from .tls import LocalCA

log = logging.getLogger("soundstage.server")

# The vendors' hosts, each with the services answering for it by path prefix (`Service.hosts`: a host alone is
# the prefix "", the whole host; `www.googleapis.com/calendar/` one part of it), and the domains any host under
# which is a vendor's (`Service.domains`).
VENDOR_HOSTS: dict[str, dict[str, str]] = {}
for _name, _service in SERVICES.items():
    for _entry in getattr(_service, "hosts", ()):
        _host, _slash, _prefix = _entry.partition("/")
        VENDOR_HOSTS.setdefault(_host, {})[_slash + _prefix] = _name
WILDCARDS = {domain: name for name, service in SERVICES.items() for domain in getattr(service, "domains", ())}
# In seconds, read at each use (tests make them small): how long a client may take to send its request head,
# a host name's lookup, the connection to the host, and a tunnel or a vendor connection with nothing moving.
HEAD_TIMEOUT = 10.0
RESOLVE_TIMEOUT = 5.0
CONNECT_TIMEOUT = 10.0
IDLE = 300.0
# Connections still sending their request head, before any credential is seen: past it, the one that has
# waited longest is closed (a client sends its head at once, so only the stalled ones go).
WAITING = 256
# Tunnels to the outside one world may have open at once: past it, CONNECT answers 429.
TUNNELS = 64
# Bytes of a model's answer read for its usage (and kept, with the bodies); the agent gets the whole answer.
MODEL_ANSWER_LIMIT = 16 * 1024 * 1024
# Names that stand for the machine itself or a cloud's metadata service, refused before any lookup.
PRIVATE_NAMES = frozenset(
    {"localhost", "metadata", "metadata.google.internal", "metadata.goog", "instance-data"}  # GCP's, AWS's
)
PRIVATE_DOMAINS = (".localhost", ".internal")  # RFC 6761's loopback names; ICANN's names for private networks


def routes(host: str) -> dict[str, str] | None:
    """The services answering for a host by path prefix, or None for a host of the outside world."""
    host = host.lower().rstrip(".")
    if host in VENDOR_HOSTS:
        return VENDOR_HOSTS[host]
    return next(({"": name} for domain, name in WILDCARDS.items() if host.endswith("." + domain)), None)


def served_by(prefixes: dict[str, str], path: str) -> str | None:
    """The service whose prefix of `prefixes` is the longest that `path` starts with; None when none is."""
    found = [prefix for prefix in prefixes if path.startswith(prefix)]
    return prefixes[max(found, key=len)] if found else None


def vendor(host: str, path: str = "/") -> str | None:
    """The service answering for `path` on a host, or None (a host of the outside world, or a path of a vendor's
    host that no service serves)."""
    prefixes = routes(host)
    return served_by(prefixes, path) if prefixes is not None else None


class Proxy:
    """Serves proxy connections for the app over `hub`."""

    def __init__(self, app: Any, hub: Hub, ca: LocalCA) -> None:
        self.app = app
        self.hub = hub
        self.ca = ca
        self.waiting: dict[asyncio.StreamWriter, None] = {}  # connections still sending their head, oldest first
        self.tunnels: Counter[str] = Counter()  # open tunnels to the outside, by world id
        self.model_tls: dict[str, ssl.SSLContext] = {}  # by model host
        self.forwarding: set[asyncio.Future[None]] = set()  # model calls under way

    @cached_property
    def tls(self) -> ssl.SSLContext:
        """One certificate for every vendor host, from the local CA."""
        import trustme  # only here: see tls._create

        ca = trustme.CA.from_pem(self.ca.ca.read_bytes(), (self.ca.folder / "ca.key").read_bytes())
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        hosts = [*VENDOR_HOSTS, *(f"*.{domain}" for domain in WILDCARDS)]
        ca.issue_cert(*hosts).configure_cert(context)
        context.set_alpn_protocols(["http/1.1"])
        return context

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await self._connection(reader, writer)
        except (TimeoutError, ConnectionError, asyncio.IncompleteReadError, ssl.SSLError, h11.ProtocolError):
            pass  # the client went away or spoke something else: nothing to answer
        except Exception:
            log.exception("the interception proxy failed on a connection")
        finally:
            writer.close()
            # The server stopping cancels a connection still open: nothing is left to do for it.
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await writer.wait_closed()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await self._head(reader, writer)
        except asyncio.LimitOverrunError:
            return await _answer(writer, 431, "Request Header Fields Too Large")
        except TimeoutError:
            return await _answer(writer, 408, "Request Timeout")
        if not Head().fits(head):
            return await _answer(writer, 431, "Request Header Fields Too Large")
        lines = head.decode("latin-1").split("\r\n")
        method, _, rest = lines[0].partition(" ")
        target = rest.rpartition(" ")[0]
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
        world = self._world(headers.get("proxy-authorization", ""))
        if world is None:
            return await _answer(
                writer, 407, "Proxy Authentication Required", {"proxy-authenticate": 'Basic realm="soundstage"'}
            )
        if method.upper() != "CONNECT":  # a plain-HTTP request through the proxy: the vendors' APIs only
            return await _answer(writer, 501, "Not Implemented: use https (CONNECT) through this proxy")
        host, _, port = target.rpartition(":")
        host = host.strip("[]")
        prefixes = routes(host)
        if prefixes is not None and port == "443":
            writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
            await writer.drain()
            await writer.start_tls(self.tls, ssl_handshake_timeout=HEAD_TIMEOUT)

            async def vendor_call(request: h11.Request, body: bytes) -> tuple[int, list[Any], AsyncChunks]:
                service = served_by(prefixes, request.target.decode("latin-1"))
                if service is None:  # a part of a shared host that no service answers for
                    return 404, [(b"content-type", b"text/plain"), (b"content-length", b"9")], _once(b"Not Found")
                status, headers, content = await self._call(service, host, world, request, body)
                return status, headers, _once(content)

            return await self._requests(reader, writer, vendor_call)
        budget = self.hub.budgets.get(world.id)
        with contextlib.suppress(ValueError):  # a target that is not host:port is refused as an outside one
            if budget is not None and host_port(target) in budget.capture.hosts:
                allowed = host_port(target) in budget.capture.named
                carry = self._model(world, budget, target, allowed)
                return await self._outside(reader, writer, world, target, carry, allowed)
        await self._outside(reader, writer, world, target, _relay)

    async def _head(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bytes:
        """The request head, within HEAD_TIMEOUT, the connection being one of at most WAITING meanwhile."""
        while len(self.waiting) >= WAITING:
            oldest = next(iter(self.waiting))
            del self.waiting[oldest]
            oldest.transport.abort()
        self.waiting[writer] = None
        try:
            return await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT)
        finally:
            self.waiting.pop(writer, None)

    async def _outside(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        world: World,
        target: str,
        carry: Carrier,
        allowed: bool = False,
    ) -> None:
        """A connection to a host of the outside world (`allowed` as the scene's `agent.allow` hosts are), carried
        by `carry` once it is made (a tunnel, or a model host's requests), or its refusal; logged once with the
        status the agent got."""
        if self.tunnels[world.id] >= TUNNELS:
            _log_outside(world, target, 429)
            return await _answer(writer, 429, "Too Many Requests: this world has all the tunnels it may")
        self.tunnels[world.id] += 1  # before any wait, so that no burst of CONNECTs gets past the bound
        try:
            status, reason, remote = 502, "Bad Gateway", None  # logged so if anything unforeseen fails
            try:
                status, reason, remote = await _reach(world, target, allowed)
            finally:
                _log_outside(world, target, status)
            if remote is None:
                return await _answer(writer, status, reason)
            await carry(reader, writer, *remote)
        finally:
            self.tunnels[world.id] -= 1
            if not self.tunnels[world.id]:
                del self.tunnels[world.id]

    def _model(self, world: World, budget: Budget, target: str, allowed: bool) -> Carrier:
        """What carries a model host's connection once the host is reached: TLS ended here with a certificate for
        the host, each request inside sent on to the host on a connection of its own (the first on the one just
        made) and its answer passed back as it comes, the call logged in `world` (model_calls.py)."""
        name = target.rpartition(":")[0].strip("[]")

        async def carry(
            reader: asyncio.StreamReader,
            writer: asyncio.StreamWriter,
            remote_reader: asyncio.StreamReader,
            remote_writer: asyncio.StreamWriter,
        ) -> None:
            first: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = [(remote_reader, remote_writer)]
            try:
                writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                await writer.drain()
                await writer.start_tls(self._model_tls(name), ssl_handshake_timeout=HEAD_TIMEOUT)

                async def model_call(request: h11.Request, body: bytes) -> tuple[int, list[Any], AsyncChunks]:
                    method, path = request.method.decode("latin-1"), request.target.decode("latin-1")
                    if budget.spent():
                        error = cap_error(budget)
                        log_call(world, budget, target, method, path, body, 429, error, 0, refused="token_cap")
                        # OpenAI's clients retry a 429 unless told not to.
                        refusal = [(b"content-type", b"application/json"), (b"x-should-retry", b"false")]
                        return 429, [*refusal, (b"content-length", str(len(error)).encode())], _once(error)
                    opened = first.pop() if first else None
                    call = _ModelCall(world, budget, target, name, opened, allowed)
                    task = asyncio.ensure_future(call.forward(request, body))
                    self.forwarding.add(task)  # it runs to the model's last byte even if the agent leaves
                    task.add_done_callback(self.forwarding.discard)
                    status, headers = await call.started
                    return status, headers, call.chunks()

                await self._requests(reader, writer, model_call)
            finally:
                for _, unused in first:
                    unused.close()

        return carry

    def _model_tls(self, host: str) -> ssl.SSLContext:
        """A certificate for a model host, from the local CA, made once a host."""
        context = self.model_tls.get(host)
        if context is None:
            import trustme  # only here: see tls._create

            ca = trustme.CA.from_pem(self.ca.ca.read_bytes(), (self.ca.folder / "ca.key").read_bytes())
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            ca.issue_cert(host).configure_cert(context)
            context.set_alpn_protocols(["http/1.1"])
            self.model_tls[host] = context
        return context

    def _world(self, credential: str) -> World | None:
        """The live world whose token the proxy credential (`Basic`, any user name) carries."""
        scheme, _, encoded = credential.partition(" ")
        if scheme.lower() != "basic":
            return None
        try:
            token = base64.b64decode(encoded, validate=True).decode("utf-8").partition(":")[2]
        except (binascii.Error, UnicodeDecodeError):
            return None
        return self.hub.by_token(token)

    async def _requests(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, answer: Answerer) -> None:
        """HTTP/1.1 requests inside the tunnel, each answered by `answer`: its status, headers and body, the body
        passed on as it comes."""
        connection = h11.Connection(h11.SERVER, max_incomplete_event_size=HEAD_LIMIT)
        while True:
            head = Head()  # counted from what h11 holds unread (a pipelined request's start), then read by read
            head.fits(connection.trailing_data[0])
            request = await _next(connection, reader, (h11.Request,), head)
            if request is None:
                if not head.fits(b""):
                    writer.write(REFUSAL)
                return
            if connection.they_are_waiting_for_100_continue:  # curl's big bodies: go on
                writer.write(connection.send(h11.InformationalResponse(status_code=100, headers=[])))
            body, size = bytearray(), 0
            while True:
                event = await _next(connection, reader, (h11.Data, h11.EndOfMessage))
                if event is None:
                    return
                if isinstance(event, h11.EndOfMessage):
                    break
                size += len(event.data)
                if size <= self.hub.max_body + 1:
                    body += event.data[: self.hub.max_body + 1 - len(body)]
            status, headers, content = await answer(request, bytes(body))
            writer.write(connection.send(h11.Response(status_code=status, headers=headers)))
            async for chunk in content:
                writer.write(connection.send(h11.Data(data=chunk)) if chunk else b"")
                await writer.drain()
            writer.write(connection.send(h11.EndOfMessage()))
            await writer.drain()
            if connection.our_state is h11.MUST_CLOSE or connection.their_state is h11.MUST_CLOSE:
                return
            connection.start_next_cycle()

    async def _call(
        self, service: str, host: str, world: World, request: h11.Request, body: bytes
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """One request through the app, as `/<service><path>` on the vendor's host."""
        path, _, query = request.target.decode("latin-1").partition("?")
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": request.method.decode("latin-1"),
            "scheme": "https",
            "path": f"/{service}{path}",
            "raw_path": f"/{service}{path}".encode("latin-1"),
            "query_string": query.encode("latin-1"),
            "root_path": "",
            "headers": [(k.lower(), v) for k, v in request.headers],
            "server": (host, 443),
            "client": ("127.0.0.1", 0),
            # The world the proxy credential named; links in answers are the vendor's own URLs.
            "extensions": {VENDOR_HOST: {"world": world.id}},
        }
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        answer: dict[str, Any] = {"status": 500, "headers": [], "body": bytearray()}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                answer["status"], answer["headers"] = message["status"], list(message.get("headers", []))
            elif message["type"] == "http.response.body":
                answer["body"] += message.get("body", b"")

        await self.app(scope, receive, send)
        headers = [(k, v) for k, v in answer["headers"] if k.lower() not in (b"content-length", b"transfer-encoding")]
        headers.append((b"content-length", str(len(answer["body"])).encode()))
        return answer["status"], headers, bytes(answer["body"])


async def _next(
    connection: h11.Connection, reader: asyncio.StreamReader, kinds: tuple[type, ...], head: Head | None = None
) -> Any:
    """The next event of `kinds` from the client; None when the connection ends, or the request `head` being
    received goes past its bounds."""
    while True:
        event = connection.next_event()
        if event is h11.NEED_DATA:
            data = await asyncio.wait_for(reader.read(65536), IDLE)
            if head is not None and not head.fits(data):
                return None
            connection.receive_data(data)
            continue
        if isinstance(event, kinds):
            return event
        if isinstance(event, (h11.ConnectionClosed,)) or event is h11.PAUSED:
            return None


AsyncChunks = AsyncIterator[bytes]
# What answers one request inside a TLS connection the proxy ended: its status, headers and body as it comes.
Answerer = Callable[[h11.Request, bytes], Awaitable[tuple[int, list[Any], AsyncChunks]]]
# What carries a connection to an outside host once it is made: the agent's end, then the host's.
Carrier = Callable[
    [asyncio.StreamReader, asyncio.StreamWriter, asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]
]
# Headers of one connection, not passed on to a model host (the body is sent whole, with its length), and
# the encoding asked for: none, so the proxy reads the usage in the answer.
HOP_HEADERS = frozenset(
    {b"connection", b"keep-alive", b"proxy-connection", b"te", b"trailer", b"transfer-encoding", b"upgrade"}
    | {b"content-length", b"accept-encoding", b"expect"}
)


async def _once(content: bytes) -> AsyncChunks:
    yield content


class _ModelCall:
    """One request to a model host, sent on and answered: `started` is the answer's status and headers (502
    when the host could not be reached or answered nothing), `chunks` its body as it comes. The call is logged
    once the answer has ended, whether or not the agent is still reading it."""

    def __init__(
        self,
        world: World,
        budget: Budget,
        target: str,
        name: str,
        opened: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None,
        allowed: bool,
    ) -> None:
        self.world, self.budget, self.target, self.name, self.opened = world, budget, target, name, opened
        self.allowed = allowed
        self.started: asyncio.Future[tuple[int, list[Any]]] = asyncio.get_running_loop().create_future()
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()

    async def chunks(self) -> AsyncChunks:
        while (chunk := await self.queue.get()) is not None:
            yield chunk

    async def forward(self, request: h11.Request, body: bytes) -> None:
        method, path = request.method.decode("latin-1"), request.target.decode("latin-1")
        clock = time.monotonic()  # the model's latency, wall time: a measure of the outside world only
        status, answer = 502, bytearray()
        remote = None
        try:
            remote = self.opened or await self._reach()
            if remote is not None:
                status = await self._exchange(remote, request, upstream_body(body, self.budget), answer)
        except (OSError, TimeoutError, ssl.SSLError, h11.ProtocolError):
            pass  # the host broke off: the agent gets a 502, or the answer cut where it broke
        finally:
            if remote is not None:
                remote[1].close()
            if not self.started.done():
                error = json.dumps({"error": {"message": f"soundstage: the model host {self.target} answered nothing"}})
                answer[:] = error.encode()
                self.started.set_result((502, [(b"content-type", b"application/json")]))
                self.queue.put_nowait(bytes(answer))
            self.queue.put_nowait(None)
            latency = round((time.monotonic() - clock) * 1000)
            log_call(self.world, self.budget, self.target, method, path, body, status, bytes(answer), latency)

    async def _reach(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        """A new connection to the host, by the same rules as the first (logged once, at the CONNECT)."""
        return (await _reach(self.world, self.target, self.allowed))[2]

    async def _exchange(
        self,
        remote: tuple[asyncio.StreamReader, asyncio.StreamWriter],
        request: h11.Request,
        body: bytes,
        answer: bytearray,
    ) -> int:
        """Sends the request over TLS to the host and passes its answer on; answers its status."""
        remote_reader, remote_writer = remote
        context = ssl.create_default_context()  # the machine's authorities, as read now (SSL_CERT_FILE)
        await remote_writer.start_tls(context, server_hostname=self.name, ssl_handshake_timeout=CONNECT_TIMEOUT)
        kept = [(k, v) for k, v in request.headers if k.lower() not in HOP_HEADERS]
        sent = [*kept, (b"accept-encoding", b"identity"), (b"connection", b"close")]
        connection = h11.Connection(h11.CLIENT)
        request = h11.Request(
            method=request.method, target=request.target, headers=[*sent, (b"content-length", str(len(body)).encode())]
        )
        remote_writer.write(connection.send(request) + connection.send(h11.Data(data=body)))
        remote_writer.write(connection.send(h11.EndOfMessage()))
        await asyncio.wait_for(remote_writer.drain(), IDLE)
        status = 502
        while True:
            event = connection.next_event()
            if event is h11.NEED_DATA:
                connection.receive_data(await asyncio.wait_for(remote_reader.read(65536), IDLE))
            elif isinstance(event, h11.Response):
                status = event.status_code
                headers = [(k, v) for k, v in event.headers if k.lower() not in HOP_HEADERS]
                self.started.set_result((status, headers))
            elif isinstance(event, h11.Data):
                if len(answer) < MODEL_ANSWER_LIMIT:  # what is read for the usage; the agent gets it all
                    answer += event.data
                self.queue.put_nowait(bytes(event.data))
            elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
                return status


def public(address: str) -> bool:
    """Whether an address is on the public internet: not loopback, private (10/8, 172.16/12, 192.168/16,
    fc00::/7), shared (100.64/10), link-local (169.254/16 with the clouds' metadata service, fe80::/10),
    unspecified, multicast, documentation or reserved."""
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # ::ffff:127.0.0.1 reaches 127.0.0.1
    return ip.is_global and not ip.is_multicast and not ip.is_reserved


def _private_name(host: str) -> bool:
    return host in PRIVATE_NAMES or host.endswith(PRIVATE_DOMAINS)


async def _reach(
    world: World, target: str, allowed: bool = False
) -> tuple[int, str, tuple[asyncio.StreamReader, asyncio.StreamWriter] | None]:
    """The status and reason to answer a CONNECT to `target` with, and the connection to the host when it is 200.

    A host the scene names in `agent.allow` (or the run does: `allowed`) is reached whatever it is; otherwise an
    offline scene reaches nothing, and an online one only the public internet, judged by every address the name
    stands for."""
    try:
        wanted = host_port(target)
    except ValueError:
        return 400, "Bad Request: CONNECT needs host:port", None
    named = allowed or wanted in world.agent.get("allow", ())
    if not named and world.agent.get("network") == "offline":
        return 403, "Forbidden: this scene keeps the agent offline", None
    host, _, port = wanted.rpartition(":")
    host = host.strip("[]")
    refused = 403, "Forbidden: not a public address (a scene may allow it: agent.allow)", None
    if not named and _private_name(host):
        return refused
    try:
        # socket's resolver in a thread, as asyncio's loop does it; uvloop's own would go around socket.
        lookup = asyncio.to_thread(socket.getaddrinfo, host, int(port), type=socket.SOCK_STREAM)
        found = await asyncio.wait_for(lookup, RESOLVE_TIMEOUT)
    except (TimeoutError, OSError):
        return 502, "Bad Gateway: the host name could not be resolved", None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
    if not named and not all(public(address) for address in addresses):
        return refused
    try:
        # The very addresses just checked: a second lookup could answer otherwise (DNS rebinding).
        remote = await asyncio.wait_for(_open(addresses, int(port)), CONNECT_TIMEOUT)
    except (TimeoutError, OSError):
        return 502, "Bad Gateway: the host could not be connected", None
    return 200, "Connection Established", remote


async def _open(addresses: list[str], port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to the first of `addresses` that answers (each an address, so nothing is looked up)."""
    failure = OSError(f"no address to connect to on port {port}")
    for address in addresses:
        try:
            return await asyncio.open_connection(address, port)
        except OSError as exc:
            failure = exc
    raise failure


def _log_outside(world: World, target: str, status: int) -> None:
    """Logs a CONNECT to the outside world as a call of the service `outside`."""
    host, _, port = target.rpartition(":")
    # An IPv6 address without its brackets; a target that is not host:port as it came, bounded all the same.
    path = f"/{host.strip('[]')[:253]}:{port[:5]}" if port.isdigit() else f"/{target[:260]}"
    with world.lock:
        if world.finished:
            return
        world.cannot_save(f"it reached {path[1:]} outside soundstage through the proxy, which a replay cannot do again")
        world.log.emit(
            CallEvent,
            t=iso(world.now()),
            service="outside",
            method="CONNECT",
            path=path,
            operation="outside",
            status=status,
            error=status != 200,
        )


async def _relay(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    remote_reader: asyncio.StreamReader,
    remote_writer: asyncio.StreamWriter,
) -> None:
    """Bytes both ways until the host closes or breaks, or nothing has moved either way for IDLE seconds.
    The agent's end of sending is passed on (half-close), so the host's answer still comes back."""
    loop = asyncio.get_running_loop()
    last = loop.time()

    async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        nonlocal last
        while (left := last + IDLE - loop.time()) > 0:
            try:
                data = await asyncio.wait_for(source.read(65536), left)
            except TimeoutError:
                continue  # the other way may have moved meanwhile
            if not data:
                return
            last = loop.time()
            sink.write(data)
            await asyncio.wait_for(sink.drain(), IDLE)

    async def upward() -> None:
        with contextlib.suppress(ConnectionError, asyncio.TimeoutError):
            await pipe(reader, remote_writer)
            remote_writer.write_eof()
            return
        remote_writer.close()  # the agent broke off, or the host stopped reading: the host's way ends too

    try:
        writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        await writer.drain()
        agent = asyncio.ensure_future(upward())
        try:
            await pipe(remote_reader, writer)  # the tunnel lasts while the host has something to say
        finally:
            agent.cancel()
    finally:
        remote_writer.close()


async def _answer(
    writer: asyncio.StreamWriter, status: int, reason: str, headers: dict[str, str] | None = None
) -> None:
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    writer.write(f"HTTP/1.1 {status} {reason}\r\n{extra}content-length: 0\r\nconnection: close\r\n\r\n".encode())
    await writer.drain()
