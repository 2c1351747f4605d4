"""What every impersonated service provides, and the request and reply the server hands it.

A service is registered once in `soundstage.services.SERVICES`. The server finds the live world (from the
`/w/<id>` prefix or the token), then calls `Service.handle` inside the world's call lifecycle; the
recording layer alone writes the call to the event log from the `Reply`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from pkgutil import iter_modules
from typing import Any, Protocol
from urllib.parse import unquote, unquote_to_bytes

from ..spec.build import BuildContext
from ..spec.fields import Spec
from ..world import Principal, World


@dataclass(slots=True)
class ServiceRequest:
    """An incoming call, as the service sees it."""

    method: str  # HTTP method, upper case
    path: str  # relative to the service base, no query string: "/api/chat.postMessage"
    query: dict[str, Any]  # a name given once maps to a str, given several times to a list of str
    headers: Mapping[str, str]  # lower-case names
    body: bytes = b""
    base_url: str = ""  # absolute URL of the service base for this request, e.g. http://h:p/w/w1/slack

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()


@dataclass(slots=True)
class Reply:
    """What a service answers. `trace_body` is the parsed request body, as the trace records it."""

    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)
    operation: str | None = None
    error: bool = False
    unimplemented: bool = False
    trace_body: Any = None
    encoded: bytes | None = None  # the body as it is sent, when the service had to encode it already


@dataclass
class Credential:
    """A token a service hands the agent: the environment variable it travels in, its prefix, whom it speaks for."""

    env: str
    prefix: str
    principal: Principal


@dataclass(frozen=True)
class Address:
    """A person of the world by email address, as the records of some service name them (`Service.addresses`):
    what a service whose accounts are people's addresses (Google's) gives an account of its own. `ids` are the
    records that are this person, so that a `$ref` to any of them names the address."""

    email: str
    name: str
    time_zone: str | None = None
    ids: tuple[str, ...] = ()


def account(service: Any) -> str:
    """The account a service's tokens belong to (`Service.account`; its own name unless it says)."""
    return str(getattr(service, "account", service.name))


@dataclass(frozen=True)
class FaultOption:
    """A field of an api fault (docs/faults.md, "API faults") that only the services declaring it read
    (`Service.fault_options`): its type and default as the file format has them, the kind of fault it
    belongs to, and what a fault of another service giving it is told (`{owners}`: the services declaring
    it, as `Datadog's and PagerDuty's`). Services reading the same option declare the same `FaultOption`."""

    type: Any
    default: Any
    kind: str  # rate_limit or server_error
    alone: str


@dataclass(frozen=True)
class Injection:
    """An api fault as the service answering it reads it: the status the scene gives (None: the vendor's
    default), the values of the options the service declared, and for a rate limit the wait it asks for,
    in whole seconds."""

    status: int | None
    options: Mapping[str, Any] = field(default_factory=dict)
    retry_after: int = 0


class Service(Protocol):
    """One impersonated API, and everything the engine knows of its vendor: nothing outside the service's
    package names it. Optional members, read with getattr:

    - `https_only`: its official client refuses any base URL but https, so the agent gets the TLS port's
      URL for it.
    - `attach(world)`: called on every new live world before the people are, for a service whose world
      acts on its own, such as monitors evaluated as simulated time passes.
    - `revoked(request)`: the vendor's answer to a token revoked when the attempt ended, where it differs
      from `unauthorized`.
    - `anonymous(request)`: whether a call with no credential at all, under a world's own URL, reaches that
      world (GitHub's reads of public repos); `handle` then gets no principal.
    - `hosts` and `domains`: the vendor's own hosts, and the domains any host under which is the vendor's,
      that the interception proxy hands to this service (`slack.com`, `api.github.com`). A host several
      services share is split by path prefix: `www.googleapis.com/calendar/` hands this service the paths of
      that host that start `/calendar/` (the longest prefix wins; a path no prefix takes is a plain 404).
    - `claim(path)`: for a path at the root of soundstage's host that no `/<name>/` prefix names (asked
      before the prefixes are), `(the path within this service, the path its answers' links hang from, or
      None for `/<name>`)` when the service answers it, else None: GitHub Enterprise's `/api/v3/...`.
    - `behind_proxy(env)`: what the agent's environment `env` gains when the agent goes through the
      interception proxy, for the vendor's tools that then reach its real hosts (`GH_TOKEN`).
    - `secrets`: regular expressions of the vendor's credential formats, redacted wherever a judge model
      would read them; `secret_params`: the query parameters that carry credentials in its API, which the
      trace of no service's call records.
    - `tools`: its MCP server's tools (`services.mcp.Tools`, from the package's `mcp_tools.py`), served at
      `/w/<id>/mcp/<name>` and with every other service's at `/w/<id>/mcp` (docs/mcp.md).
    - `fault_options` (name -> `FaultOption`, default none) and `fault_statuses` (kind -> the statuses a
      scene may give an api fault of that kind, default none: the vendor's own only).
    - `account`: the account its tokens belong to, where services of one vendor share a token (Google
      Calendar's and Gmail's are `google`); its own name by default. A credential of one account, in one
      environment variable, is made once for all of them, and a token of the account reaches each of them.
    - `addresses(collections)`: the people its records name by email address (`Address`), from the built
      collections by name. A build reads every service's, merged by email, as `ctx.addresses()`.
    - `invitations`: an `Invitations` (services/invitations.py), for a service whose records invite the world's
      people, which the people engine calls so that people answer them (Calendar's events).
    - `mail`: a `Mail` (services/mail.py), for a service that carries mail between the world's people, which the
      people engine calls so that people hear the agent's mail and answer it in its thread (Gmail's messages).
    - `derive(ctx)`: called once per image after every section's records are built, whether or not the files
      have a section of this service: the records it makes of the world's people (`ctx.addresses()`: a
      primary calendar and a mailbox for each address).
    - `record_names(state)`: the names a person knows its records' ids by (`#support` for a channel id), for
      the records that have one, from a world's `State`; the viewer shows them beside the ids.
    """

    @property
    def name(self) -> str:
        """Its name in URLs (`/w/<id>/<name>/...`), files (its section) and the trace."""

    @property
    def title(self) -> str:
        """The vendor's name in prose (`GitHub`)."""

    @property
    def section(self) -> type[Spec]:
        """The model of its part of world and scene files (`slack:`)."""

    @property
    def agent_user(self) -> str:
        """The key of a scene's `agent:` naming who the agent is in this service (`slack_user`)."""

    def token(self, request: ServiceRequest) -> str | None:
        """The credential the request carries, or None."""

    def unauthorized(self, request: ServiceRequest) -> Reply:
        """The vendor's answer to a missing or unknown credential (no live world could be found)."""

    def handle(self, world: World, principal: Principal | None, request: ServiceRequest) -> Reply:
        """Answers a call against `world`. `principal` is None when the token is not one of this world's."""

    def operations(self) -> list[str]:
        """The vendor operation names this service implements, from its registry."""

    def credentials(self, world: World) -> list[Credential]:
        """The tokens the agent gets in `world` (the hub makes the secret part)."""

    def environment(self, world: World, base_url: str) -> dict[str, str]:
        """The agent's environment variables naming this service's URL (given its base URL in `world`), and
        what else it needs that is not a secret (PagerDuty's `From` address)."""

    def internal_error(self, request: ServiceRequest, exc: BaseException) -> Reply:
        """The vendor's answer when a handler failed unexpectedly (its writes were rolled back)."""

    def too_large(self, request: ServiceRequest) -> Reply:
        """The vendor's answer to a request body over the server's limit (only part of it was read)."""

    def unavailable(self, request: ServiceRequest) -> Reply:
        """The vendor's 503 to a call the world no longer serves (its event log cannot be written): the handler
        never runs."""

    def rate_limit_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        """The vendor's refusal of a call over its rate limit, where an api fault of kind `rate_limit` answers
        in the handler's place (the handler never runs; build it with `injected`)."""

    def server_error_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        """The vendor's answer to a failure on its side, where an api fault of kind `server_error` answers in
        the handler's place."""

    def generate(self, collection: str, options: dict[str, Any], ctx: BuildContext) -> None:
        """`generate:` in a world file: adds realistic noise records to `collection`."""

    def assign(self, section: Any, ctx: BuildContext) -> None:
        """Image building, pass 1: gives every record with a `ref` its id (`ctx.define`)."""

    def build(self, section: Any, ctx: BuildContext) -> None:
        """Image building, pass 2: adds the section's records to the image's collections."""


# A world's records by collection, as `World.state()` gives them and a trial's `state.json` keeps them.
State = Mapping[str, Iterable[Mapping[str, Any]]]


def names_by_field(state: State, fields: Mapping[str, str]) -> dict[str, str]:
    """The records of each collection of `fields` by their `id`, named by their field `fields[collection]`;
    records without an id or a name are left out."""
    return {
        str(record["id"]): str(record[name])
        for collection, name in fields.items()
        for record in state.get(collection, ())
        if record.get("id") is not None and record.get(name)
    }


class InjectedFault(Exception):
    """The failure an api fault stands for, handed to the service's `internal_error`."""


def injected(
    internal_error: Callable[[ServiceRequest, BaseException], Reply],
    request: ServiceRequest,
    status: int,
    body: Any,
    headers: dict[str, str],
) -> Reply:
    """An api fault's answer: the service's own to a failure on its side (`internal_error`, which names the
    operation and keeps the request body for the trace as the service would), with `status`, `body` and
    `headers` instead."""
    reply = internal_error(request, InjectedFault())
    reply.status, reply.body, reply.headers, reply.error = status, body, headers, True
    return reply


def parse_query(raw: str) -> dict[str, Any]:
    """A query string (or a form body) to a dict; repeated names become lists (`statuses[]=a&statuses[]=b`).
    What `urllib.parse.parse_qsl(raw, keep_blank_values=True)` reads, without its cost on every call: a
    part is decoded only when it has a `+` or a `%`."""
    result: dict[str, Any] = {}
    if not raw:
        return result
    for pair in raw.split("&"):
        if not pair:
            continue
        name, _, value = pair.partition("=")
        if "+" in name or "%" in name:
            name = _unquote(name)
        if "+" in value or "%" in value:
            value = _unquote(value)
        if name in result:
            previous = result[name]
            result[name] = previous + [value] if isinstance(previous, list) else [previous, value]
        else:
            result[name] = value
    return result


def _unquote(part: str) -> str:
    """`unquote(part.replace("+", " "), errors="replace")`. An ASCII part is decoded in one go, which gives the
    same text: no ASCII byte can continue a UTF-8 sequence, so replacement marks fall where `unquote` puts them.
    Most often each escape in it is of an ASCII character (`%3B`, `%2C`), which stands for itself in UTF-8:
    those are put back as text, without going through bytes."""
    part = part.replace("+", " ")
    if "%" not in part:  # what either decoder gives back unchanged (a `+` alone, most often: a space)
        return part
    if not part.isascii():
        return unquote(part, errors="replace")
    first, *rest = part.split("%")
    decoded = [first]
    for piece in rest:
        character = _ASCII_ESCAPES.get(piece[:2])
        if character is None:  # a byte of a longer UTF-8 sequence, or no escape at all (`%` and no hex digits)
            return unquote_to_bytes(part).decode("utf-8", "replace")
        decoded += (character, piece[2:])
    return "".join(decoded)


_HEX_DIGITS = "0123456789ABCDEFabcdef"
# The two hex digits of each escape of an ASCII character (either case), and that character.
_ASCII_ESCAPES = {high + low: chr(int(high + low, 16)) for high in "01234567" for low in _HEX_DIGITS}


class BodyError(ValueError):
    """The body could not be parsed as its content type says; `code` names the problem."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# The deepest JSON a request may carry: Ruby's JSON parser refuses more by default (GitHub and PagerDuty run
# on it), and a body this deep still serialises with room to spare wherever it is echoed or recorded: a reply
# or the trace wraps it in a few more levels, and orjson and pydantic refuse anything past 254.
MAX_JSON_DEPTH = 100


class TooDeep(ValueError):
    """JSON nested more than `MAX_JSON_DEPTH` arrays and objects deep."""

    def __init__(self) -> None:
        super().__init__(f"nested more than {MAX_JSON_DEPTH} levels deep")


class LoneSurrogate(ValueError):
    """A JSON string holds half of a UTF-16 surrogate pair (`"\\ud800"`): no Unicode character, so it could
    be neither stored as text nor sent back (every encoder refuses it)."""

    def __init__(self) -> None:
        super().__init__("a string holds a lone UTF-16 surrogate")


# What can make a lone surrogate: a `\uD800`-`\uDFFF` escape, or the UTF-8 bytes of one (json.loads lets them
# through). Most bodies have neither, and are not searched.
_MAY_HOLD_SURROGATES = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_MAY_BE_WIDE = re.compile(rb"[0-9]{19}")  # int64 has at most 19 digits: shorter integers are read as they are
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def _integer(literal: str) -> int | float:
    """A JSON integer; past int64 a float, as PHP's and Go's parsers read one, and as a reply can carry it
    (orjson refuses integers past 64 bits)."""
    number = int(literal)
    return number if INT64_MIN <= number <= INT64_MAX else float(literal)


def loads_json(raw: str | bytes, exact_ints: bool = False) -> Any:
    """`json.loads`, refusing (with a ValueError) a value nested more than `MAX_JSON_DEPTH` deep (`TooDeep`)
    and a string or key holding a lone surrogate (`LoneSurrogate`), and reading integers past int64 as
    floats unless `exact_ints` (for a service that refuses them itself). Every JSON the services parse from
    a request goes through here."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    utf8 = json.detect_encoding(data) == "utf-8"  # else (UTF-16 or 32) the searches below cannot tell
    wide = not exact_ints and (not utf8 or _MAY_BE_WIDE.search(data) is not None)
    try:
        value = json.loads(raw, parse_int=_integer) if wide else json.loads(raw)
    except RecursionError:  # the C parser gives up near the interpreter's recursion limit
        raise TooDeep() from None
    # Each level opens a bracket, so a text with few of them cannot be deep: most bodies stop here.
    if _brackets(raw) > MAX_JSON_DEPTH and _deeper_than(value, MAX_JSON_DEPTH):
        raise TooDeep()
    if (not utf8 or _MAY_HOLD_SURROGATES.search(data)) and _holds_surrogate(value):
        raise LoneSurrogate()
    return value


def _brackets(raw: str | bytes) -> int:
    if isinstance(raw, bytes):
        return raw.count(b"[") + raw.count(b"{")
    return raw.count("[") + raw.count("{")


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether `value` nests more than `limit` lists and dicts; without recursion, so any depth is safe."""
    stack: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def _holds_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def parse_body(request: ServiceRequest, exact_ints: bool = False) -> Any:
    """The body as JSON or form fields by content type; None when empty. Raises `BodyError` (JSON nested more
    than `MAX_JSON_DEPTH` deep included, with or without a content type). `exact_ints`: see `loads_json`."""
    raw = request.body
    if not raw:
        return None
    kind = request.content_type
    if kind == "application/x-www-form-urlencoded":
        try:
            return parse_query(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise BodyError("invalid_form_data", "form body is not UTF-8") from exc
    if kind.endswith("json") or kind == "":
        try:
            return loads_json(raw, exact_ints)
        except TooDeep as exc:
            raise BodyError("invalid_json", f"body is not valid JSON: {exc}") from exc
        except (UnicodeDecodeError, ValueError) as exc:
            if kind == "":
                return raw.decode("utf-8", "replace")
            raise BodyError("invalid_json", f"body is not valid JSON: {exc}") from exc
    return raw.decode("utf-8", "replace")


Handler = Callable[..., Any]


class Operations:
    """A registry of one service's operations by vendor name; the implemented list is read from here."""

    def __init__(self, service: str) -> None:
        self.service = service
        self.handlers: dict[str, Handler] = {}

    def __call__(self, name: str) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            if name in self.handlers:
                raise ValueError(f"{self.service} operation {name} registered twice")
            self.handlers[name] = handler
            return handler

        return register

    def get(self, name: str) -> Handler | None:
        return self.handlers.get(name)

    def names(self) -> list[str]:
        return sorted(self.handlers)


def import_registrations(package: str) -> None:
    """Imports every module of a service's package that registers something when imported: its operations
    (`handlers_*`), its state checks (`checks`) and its fault effects (`effects`)."""
    for module in iter_modules(import_module(package).__path__):
        if module.name.startswith("handlers_") or module.name in ("checks", "effects"):
            import_module(f"{package}.{module.name}")
