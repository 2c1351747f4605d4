"""The recording layer: the one place an agent's call becomes a `call` event.

Service calls are dispatched straight from the ASGI scope: `/w/<id>/<service>/...` and `/<service>/...`
are recognised by splitting the path once and two dict lookups, whatever the number of routes, and never
pass through the control API's router. The layer finds the live world (from the prefix or the token),
runs the call inside the world's lifecycle (due events, undo journal, tick) under the world's lock, and
answers with the vendor's body, a simulated `Date` and the content type every vendor uses.

Before its service's handler, every call passes the scene's api faults (`faults.api.decide`): a rate limit
or server error answers in the handler's place, a slow answer moves the clock on (and may be held for real
time, outside the lock); the trace marks such a call `injected`.

It is total: a call that carries a credential of the world it addresses is logged exactly once whatever fails (a
handler, the vendor's error builder, a body too big or too deep to keep), and the world's undo journal always closes.
Once the world's log cannot be written (`EventLog.broken`: a full disk), every call gets the vendor's 503
(`Service.unavailable`) and changes nothing. A call that carries none never reaches the world: the vendor's
authentication error, nothing logged, the clock unmoved; except one with no credential at all under the world's own URL
(`/w/<id>/...`, the id being a secret of the world's agent) that the service serves to anyone (`Service.anonymous`:
GitHub's reads of public repos), which is logged as the world's with no actor. After the attempt ends, the agent's
tokens are revoked.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from functools import partial
from typing import Any

import orjson

from ..clock import http_date, iso
from ..events import AfterFinishEvent, CallEvent, Shaped
from ..faults import api as api_faults
from ..services import SERVICES
from ..services.base import Reply, Service, ServiceRequest, account, parse_query
from ..world import Principal, World
from . import batch
from .hub import Hub

log = logging.getLogger("soundstage.server")

# Above `TRACE_BODY_LIMIT`, the trace keeps the first `TRACE_EXCERPT` characters of a body and its size
# (`body_cut`), so a flood of big bodies cannot grow the log without bound.
TRACE_BODY_LIMIT = 256 * 1024
TRACE_EXCERPT = 4096

JSON_TYPE = "application/json; charset=utf-8"
_JSON_TYPE_HEADER = (b"content-type", JSON_TYPE.encode("latin-1"))
# The ASGI scope extension of a call the interception proxy (proxy.py) took at the vendor's own host.
VENDOR_HOST = "soundstage.vendor_host"
# The path of a tool call that stood for no REST call, as its event records it.
MCP_PATH = "/mcp"
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
# `(world id or None, service name, path within the service, the path its answers' links hang from or None
# for the URL's own prefix)`
Target = tuple[str | None, str, str, str | None]
# Query parameters that carry credentials in some vendor's API (`Service.secret_params`); never recorded.
SECRET_PARAMS = frozenset(name for service in SERVICES.values() for name in getattr(service, "secret_params", ()))
# The account each service's tokens belong to, looked up once rather than on every call.
_ACCOUNTS = {name: account(service) for name, service in SERVICES.items()}
# The services that take batch requests (`Service.batch_paths`): no other call is looked at as one.
_BATCHES = frozenset(name for name, service in SERVICES.items() if getattr(service, "batch_paths", None))
# The services that answer paths at the root of the host outside their prefix (`Service.claim`).
_CLAIMS = [(name, claim) for name, service in SERVICES.items() if (claim := getattr(service, "claim", None))]


def service_target(path: str) -> Target | None:
    """Where a service URL goes, else None. An agent calls the same few paths again and again: each is split
    once, and remembered while it is short (the cache emptied when full, so no flood of paths can grow it)."""
    try:
        return _TARGETS[path]
    except KeyError:
        pass
    target = _target(path)
    if len(path) <= _TARGET_PATH:
        if len(_TARGETS) >= _TARGETS_SIZE:
            _TARGETS.clear()
        _TARGETS[path] = target
    return target


_TARGETS: dict[str, Target | None] = {}
_TARGETS_SIZE = 4096
_TARGET_PATH = 256


def _target(path: str) -> Target | None:
    if path.startswith("/w/"):
        parts = path.split("/", 4)  # "", "w", id, service, rest
        if len(parts) >= 4 and parts[3] in SERVICES and parts[2]:
            return parts[2], parts[3], "/" + (parts[4] if len(parts) == 5 else ""), None
        return None
    for name, claim in _CLAIMS:
        claimed = claim(path)
        if claimed is not None:
            return None, name, *claimed
    parts = path.split("/", 2)  # "", service, rest
    if len(parts) >= 2 and parts[1] in SERVICES:
        return None, parts[1], "/" + (parts[2] if len(parts) == 3 else ""), None
    return None


def encode(reply: Reply) -> bytes:
    if reply.encoded is not None:  # GitHub's ETag is a hash of these very bytes
        return reply.encoded
    if reply.body is None:
        return b""
    if isinstance(reply.body, str):  # a vendor's HTML or text page
        return reply.body.encode()
    if isinstance(reply.body, bytes):  # git's pkt-lines and packs
        return reply.body
    return orjson.dumps(reply.body)


async def serve_call(hub: Hub, target: Target, scope: Scope, receive: Receive, send: Send) -> None:
    """Answers one agent call."""
    world_id, name, path, root = target
    extensions = scope.get("extensions")
    vendor = extensions.get(VENDOR_HOST) if extensions else None
    if vendor is not None:  # the interception proxy: the vendor's own URLs
        root = ""
        if world_id is None:  # the proxy knows the world from its own credential
            world_id = vendor.get("world")
    service = SERVICES[name]
    # At most `max_body` + 1 bytes of the body, and its whole size: past the limit the rest is read and dropped,
    # so a client still sending gets the answer rather than a reset.
    limit = hub.max_body
    message = await receive()
    if message["type"] == "http.request" and not message.get("more_body", False):
        body = message.get("body", b"")  # most calls: the whole body in one message, kept as it came
        body, size = body[: limit + 1], len(body)
    else:
        body, size = await _body(message, receive, limit)
    call = _request(scope, world_id, name, path, root, body)
    token = _token(service, call)
    world = hub.worlds.get(world_id) if world_id else hub.by_token(token)
    principal = world.tokens.get(token) if world is not None and token else None
    # No credential of this world: it never hears of the call. Only a call with no credential at all
    # under the world's own URL (whose id is itself a secret) may be one the vendor serves to anyone.
    anonymous = principal is None and world_id is not None and _anonymous(service, call)
    if world is None or (principal is None and not anonymous):
        reply, content, _ = _safely(service.unauthorized, service, call)
        date = None
    else:
        hub.touch(world)
        if principal is not None and principal.service != _ACCOUNTS[name]:  # a token of another account
            principal = None
        # Many calls in one request, each run and logged as its own.
        if name in _BATCHES and batch.takes(service, call, size):
            prefix = "" if vendor is not None else scope["path"][: len(scope["path"]) - len(path)]
            served = world

            def alive() -> bool:
                return hub.worlds.get(served.id) is served

            done = await batch.record_batch(world, service, principal, call, prefix, record, alive)
            if done is None:  # the world was dropped during the batch: it is gone, as for a later call
                reply, content, _ = _safely(service.unauthorized, service, call)
                date, real_delay_ms = None, 0
            else:
                reply, content, date, real_delay_ms = done
        else:
            reply, content, date, real_delay_ms = record(world, service, principal, call, size)
        if real_delay_ms:  # a slow api fault: held outside the world's lock, the event loop free
            await asyncio.sleep(real_delay_ms / 1000)
    await send({"type": "http.response.start", "status": reply.status, "headers": _headers(reply, content, date)})
    await send({"type": "http.response.body", "body": content})


def record(
    world: World,
    service: Service,
    principal: Principal | None,
    call: ServiceRequest,
    size: int | None = None,
    mcp: dict[str, Any] | None = None,
) -> tuple[Reply, bytes, str, int]:
    """Runs one call against `world` and writes it to the log, under the world's lock; answers the reply, its encoded
    body, the call's simulated HTTP date and the real delay (ms) an api fault holds it for. `size` is the body's size
    when only part of it was read (it ran over the server's limit): the vendor's 413, and the handler never runs.
    `mcp` is the MCP tool call the call stands for (`tool_call`), kept on its one event."""
    size = len(call.body) if size is None else size
    with world.lock:
        world.note(("call", service.name, principal, call, size, mcp), len(call.body))
        if world.finished:
            reply, content, _ = _safely(getattr(service, "revoked", service.unauthorized), service, call)
            world.log.emit(
                AfterFinishEvent,
                t=iso(world.now()),
                service=service.name,
                method=call.method,
                path=call.path,
                status=reply.status,
            )
            return reply, content, http_date(world.now()), 0
        whole = size == len(call.body)
        injected = None
        if world.log.broken is not None:
            # What happens can no longer be written down, so nothing more happens: no due event, no fault, no
            # handler, but the vendor's 503, logged as any call (in memory: the log's file stays as it broke).
            # The call whose logging broke the log was answered by its handler: its writes are made and logged.
            at = world.now()
            reply, content, built = _safely(service.unavailable, service, call)
            whole = whole and built
        else:
            at = world.begin_call()
            try:
                # The scene's api faults come first: a refused call never reaches its handler.
                injected = api_faults.decide(world, service, principal, call) if whole else None
                if injected is not None and injected.reply is not None:
                    reply = injected.reply
                else:
                    reply = service.handle(world, principal, call) if whole else service.too_large(call)
                content = encode(reply)  # before the call is logged: a body that cannot be sent is a failure too
            except Exception as exc:  # a handler bug: undo its writes, answer as the vendor does on a server fault
                world.rollback()
                log.exception("%s %s %s failed in world %s", service.name, call.method, call.path[:200], world.id)
                reply, content, whole = _safely(partial(_internal_error, service, exc), service, call)
        body, cut = _trace_body(service, call, reply, size, whole)
        if injected is not None and injected.delay:  # a slow answer: the agent's next call comes later
            world.clock.advance(injected.delay)
        world.end_call(
            at,
            _CALL,
            service=service.name,
            method=call.method,
            path=call.path,
            operation=reply.operation,
            query={k: v for k, v in call.query.items() if k not in SECRET_PARAMS} if call.query else {},
            body=body,
            body_cut=cut,
            status=reply.status,
            response=None if isinstance(reply.body, bytes) else reply.body,  # a pack is no trace material
            error=reply.error,
            unimplemented=reply.unimplemented,
            actor=principal.user if principal is not None else None,
            injected=injected.record if injected is not None else None,
            mcp=mcp,
        )
    return reply, content, http_date(at), injected.real_delay_ms if injected is not None else 0


# The fields every call's event is made from, as `record` gives them.
_CALL = Shaped(
    CallEvent,
    (
        "service",
        "method",
        "path",
        "operation",
        "query",
        "body",
        "body_cut",
        "status",
        "response",
        "error",
        "unimplemented",
        "actor",
        "injected",
        "mcp",
        "t",
    ),
)


def tool_call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """What a call's event keeps of the MCP tool call it stood for: the tool and its arguments, or past
    `TRACE_BODY_LIMIT` the start of their JSON and their size (`arguments_cut`)."""
    try:
        encoded = orjson.dumps(arguments)
    except (TypeError, orjson.JSONEncodeError):  # nested deeper than JSON can be written: the tool alone
        return {"tool": tool, "arguments": None}
    if len(encoded) <= TRACE_BODY_LIMIT:
        return {"tool": tool, "arguments": arguments}
    excerpt = encoded[: TRACE_EXCERPT * 4].decode("utf-8", "replace")[:TRACE_EXCERPT]
    return {"tool": tool, "arguments": excerpt, "arguments_cut": len(encoded)}


def record_refused_tool(
    world: World, service: str, principal: Principal | None, mcp: dict[str, Any], status: int, message: str
) -> None:
    """Logs a tool call that stood for no REST call, as one call of `service` (`mcp` for the endpoint of every
    service): a tool the server lacks (404, counted as unimplemented, as an endpoint it lacks is) or arguments its
    schema refuses (400). The world's lifecycle runs as for any call; after the attempt ended, it is refused as a
    revoked token's call is."""
    with world.lock:
        world.note(("refused_tool", service, principal, mcp, status, message))
        if world.finished:
            world.log.emit(
                AfterFinishEvent, t=iso(world.now()), service=service, method="POST", path=MCP_PATH, status=401
            )
            return
        at = world.now() if world.log.broken is not None else world.begin_call()
        world.end_call(
            at,
            service=service,
            method="POST",
            path=MCP_PATH,
            operation="tools/call",
            status=status,
            response={"error": message},
            error=True,
            unimplemented=status == 404,
            actor=principal.user if principal is not None else None,
            mcp=mcp,
        )


def _internal_error(service: Service, exc: BaseException, call: ServiceRequest) -> Reply:
    return service.internal_error(call, exc)


def _anonymous(service: Service, call: ServiceRequest) -> bool:
    """Whether the service serves this call without any credential (GitHub's reads of public repos)."""
    serves = getattr(service, "anonymous", None)
    try:
        return bool(serves(call)) if serves is not None else False
    except Exception:  # noqa: BLE001 (whatever a request holds, a service that cannot tell serves no one)
        return False


def _token(service: Service, call: ServiceRequest) -> str | None:
    """The call's credential; None when there is none or it cannot be read (`Basic` with no valid base64)."""
    try:
        return service.token(call)
    except Exception:  # noqa: BLE001 (a credential that cannot be read is no credential: the vendor's 401)
        return None


def _safely(
    answer: Callable[[ServiceRequest], Reply], service: Service, call: ServiceRequest
) -> tuple[Reply, bytes, bool]:
    """`answer(call)`, encoded, and whether it was built from the whole call: when building the vendor's
    answer fails on the body (too deep, not text), the same answer for the call without its body; the
    vendor's server error at the very last."""
    for attempt in (call, dataclasses.replace(call, body=b"")):
        try:
            reply = answer(attempt)
            return reply, encode(reply), attempt is call
        except Exception:
            log.exception("building %s's answer to %s %s failed", service.name, call.method, call.path[:200])
    return Reply(500, None, error=True), b"", False


def _trace_body(
    service: Service, call: ServiceRequest, reply: Reply, size: int, parsed: bool
) -> tuple[Any, int | None]:
    """What the trace keeps of a request body of `size` bytes, and that size when it keeps only an excerpt:
    the body as the service parsed it (`parsed`: the reply was built from the whole body) if it is at
    most `TRACE_BODY_LIMIT` and the log can write it; else the start of its text."""
    if parsed and size <= TRACE_BODY_LIMIT:
        trace_body = reply.trace_body
        if trace_body is None or (type(trace_body) is dict and not trace_body):  # most reads: nothing to check
            return trace_body, None
        try:
            orjson.dumps(trace_body)
            return trace_body, None
        except (TypeError, orjson.JSONEncodeError):
            pass
    if not call.body:
        return None, None
    excerpt = call.body[: TRACE_EXCERPT * 4].decode("utf-8", "replace")[:TRACE_EXCERPT]
    token = _token(service, call)
    if token:  # a form body may carry the token itself; the log never does
        excerpt = excerpt.replace(token, "[token]")
    return excerpt, size


def _request(scope: Scope, world_id: str | None, name: str, path: str, root: str | None, body: bytes) -> ServiceRequest:
    """The request as the service sees it. `root` is the path its answers' links hang from (None: the URL's own
    prefix)."""
    raw = scope["headers"]
    try:
        headers = _HEADERS[key := tuple(raw)]
    except KeyError:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in raw}
        if sum(map(len, itertools.chain.from_iterable(key))) <= _REMEMBERED:
            _remember(_HEADERS, key, headers)
    except TypeError:  # a server that gives each header as a list
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in raw}
    host = headers.get("host") or "{}:{}".format(*scope.get("server") or ("127.0.0.1", 80))
    if root is None:
        root = f"/w/{world_id}/{name}" if world_id else f"/{name}"
    query = scope.get("query_string")
    if query:
        try:
            parsed = _QUERIES[query]
        except KeyError:
            parsed = parse_query(query.decode("latin-1"))
            if len(query) <= _REMEMBERED:
                _remember(_QUERIES, query, parsed)
    method = scope["method"]
    base = (scope.get("scheme", "http"), host, scope.get("root_path", ""), root)
    try:
        base_url = _BASES[base]
    except KeyError:
        base_url = "{}://{}{}{}".format(*base)
        if len(base_url) <= _REMEMBERED:
            _remember(_BASES, base, base_url)
    return ServiceRequest(
        _METHODS.get(method) or method.upper(),
        path,
        parsed if query else {},
        headers,
        body,
        base_url,
    )


# A client sends the same headers (and a reader the same query) call after call: each set is decoded once, and the
# calls that send it share it (read, never changed: `ServiceRequest` holds them as mappings to read), so the call
# kept for the world's snapshot holds no copy of its own. Keyed by the bytes as they came, a token among them;
# emptied when full, so no flood of distinct headers can grow them without bound.
_HEADERS: dict[tuple[tuple[bytes, bytes], ...], dict[str, str]] = {}
_QUERIES: dict[bytes, dict[str, Any]] = {}
_BASES: dict[tuple[str, str, str, str], str] = {}
_DECODED_SIZE = 1024
_REMEMBERED = 4096  # bytes: a head bigger than that (up to heads.HEAD_LIMIT) is read for its call alone
_METHODS = {method: method for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")}


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> Any:
    if len(cache) >= _DECODED_SIZE:
        cache.clear()
    cache[key] = value
    return value


async def _body(message: MutableMapping[str, Any], receive: Receive, limit: int) -> tuple[bytes, int]:
    """At most `limit` + 1 bytes of a request's body, and its whole size; `message` is its first message."""
    chunks: list[bytes] = []
    size = 0
    while message["type"] == "http.request":
        chunk = message.get("body", b"")
        if size <= limit:
            chunks.append(chunk[: limit + 1 - size])
        size += len(chunk)
        if not message.get("more_body", False):
            break
        message = await receive()
    return b"".join(chunks), size


def _headers(reply: Reply, content: bytes, date: str | None) -> list[tuple[bytes, bytes]]:
    """The answer's headers: the reply's, the content type every vendor uses unless it says another, the
    simulated `Date` and the length."""
    headers = reply.headers
    if not headers:  # most answers: the same headers in the same order, without building them by name
        raw = [_JSON_TYPE_HEADER]
    else:
        names = _NAMES.get(key := tuple(headers)) if len(headers) <= _NAMED else None
        if names is None:
            names = _named(key)
        if names is _BY_NAME:
            return _headers_by_name(headers, content, date)
        # Encoded by the interpreter's own loops, no Python step per header.
        raw = list(zip(names, map(str.encode, headers.values(), _LATIN_1, _REPLACE), strict=True))
        if b"content-type" not in names:
            raw.append(_JSON_TYPE_HEADER)
    if date is not None:
        raw.append((b"date", date.encode("latin-1", "replace")))
    raw.append((b"content-length", b"%d" % len(content)))
    return raw


def _headers_by_name(headers: dict[str, str], content: bytes, date: str | None) -> list[tuple[bytes, bytes]]:
    """`_headers` for names that repeat in another case, or that name the date or length the layer sets: by
    lower-case name, in the order first given, the last value given winning."""
    pairs: dict[bytes, tuple[bytes, bytes]] = {}
    for name, value in headers.items():
        lowered = name.lower().encode("latin-1")
        pairs[lowered] = (lowered, value.encode("latin-1", "replace"))
    if b"content-type" not in pairs:
        pairs[b"content-type"] = _JSON_TYPE_HEADER
    if date is not None:
        pairs[b"date"] = (b"date", date.encode("latin-1", "replace"))
    pairs[b"content-length"] = (b"content-length", b"%d" % len(content))
    return list(pairs.values())


# A vendor answers with the same header names call after call (GitHub sends two dozen): each set of names is
# lowered and encoded once (or marked `_BY_NAME` when it needs merging by name), and looked up after. Emptied
# when full, so a flood of distinct names cannot grow it without bound.
_NAMES: dict[tuple[str, ...], tuple[bytes, ...]] = {}
_LATIN_1, _REPLACE = itertools.repeat("latin-1"), itertools.repeat("replace")
_BY_NAME: tuple[bytes, ...] = (b"merged by name",)  # a marker, compared by identity
_NAMED = 64  # names: a longer set is merged by name every time
_SET_BY_LAYER = frozenset((b"date", b"content-length"))


def _named(names: tuple[str, ...]) -> tuple[bytes, ...]:
    lowered = tuple(name.lower().encode("latin-1") for name in names)
    if len(set(lowered)) < len(lowered) or not _SET_BY_LAYER.isdisjoint(lowered):
        lowered = _BY_NAME
    if len(names) <= _NAMED:
        _remember(_NAMES, names, lowered)
    return lowered
