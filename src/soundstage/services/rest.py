"""What the REST services (GitHub, Datadog, PagerDuty) share: operations registered on an `Operations`
registry as `"METHOD /path/{param}"`, routed by a `Router`, and one way of answering a call.

A service subclasses `RestService`, names its registry and its vendor error class, and says how its vendor words an
error (`envelope`), a path it does not serve (`unknown_path`), a failure on its side (`failure`), a body too large
(`oversized`), an outage (`outage`), and how a call is run once routed (`run`: credentials first, then the body, then
the handler). The dispatch here records the operation and the parsed body on every reply and turns the vendor error a
handler raises into the vendor's answer.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..world import Principal, World
from .base import BodyError, Operations, Reply, ServiceRequest, injected, parse_body
from .routing import Router


def trace_body(request: ServiceRequest) -> Any:
    """The body as the trace records it: parsed, or None when it cannot be."""
    try:
        return parse_body(request)
    except BodyError:
        return None


@dataclass
class RestCall(ABC):
    """One call as a handler sees it: the world, the request, the path parameters and the JSON body (None
    when there is none). Each service's `Call` adds whom the credentials speak for, and says with
    `not_an_object` what its vendor answers a body that is not a JSON object."""

    world: World
    request: ServiceRequest
    params: dict[str, str]
    body: Any

    @abstractmethod
    def not_an_object(self) -> Exception:
        """The vendor's error for a body that is not a JSON object."""

    @property
    def query(self) -> dict[str, Any]:
        return self.request.query

    @property
    def fields(self) -> dict[str, Any]:
        """The JSON body as an object (an empty one when there is none); anything else is the vendor's 400."""
        if self.body is None:
            return {}
        if not isinstance(self.body, dict):
            raise self.not_an_object()
        return self.body

    @property
    def base(self) -> str:
        """The absolute API root of this request, for URLs in answers (GitHub `url`, PagerDuty `self`)."""
        return self.request.base_url

    def now(self) -> int:
        return self.world.now()


class RestService(ABC):
    name: ClassVar[str]
    ops: ClassVar[Operations]
    error: ClassVar[type[Exception]]  # the vendor error handlers raise
    tails: ClassVar[Iterable[str]] = ()  # path parameters that may hold slashes when they end a template
    # The vendor's own operations that soundstage does not implement and that a template of one it does would
    # otherwise take (`GET /api/v1/monitor/can_delete` is not `GET /api/v1/monitor/{monitor_id}`): answered as
    # unimplemented, never as the wrong operation.
    unimplemented: ClassVar[Iterable[str]] = ()

    def __init__(self) -> None:
        self.router = Router(self.ops.names(), self.tails)
        self.reserved = Router(self.unimplemented)

    @abstractmethod
    def envelope(self, exc: Any) -> Any:
        """The body of the vendor's error answer for `exc`."""

    @abstractmethod
    def unknown_path(self) -> Exception:
        """The vendor's error for a path it does not serve."""

    @abstractmethod
    def failure(self) -> Exception:
        """The vendor's 500."""

    @abstractmethod
    def oversized(self) -> Exception:
        """The vendor's 413, for a request body over the server's limit."""

    @abstractmethod
    def outage(self) -> Exception:
        """The vendor's 503, when it serves nothing at all."""

    @abstractmethod
    def run(
        self, world: World, principal: Principal | None, request: ServiceRequest, name: str, params: dict[str, str]
    ) -> Any:
        """Runs operation `name`: checks the credentials, reads the body, calls the handler. Raises `error`."""

    def error_reply(self, exc: Any, **fields: Any) -> Reply:
        return Reply(exc.status, self.envelope(exc), headers=dict(exc.headers), error=True, **fields)

    def fault_reply(self, request: ServiceRequest, exc: Any) -> Reply:
        """An api fault's answer (`base.injected`): the vendor error `exc`, in its envelope and headers."""
        return injected(self.internal_error, request, exc.status, self.envelope(exc), dict(exc.headers))

    def operation(self, request: ServiceRequest) -> str | None:
        found = self._route(request)
        return found[0] if found else None

    def _route(self, request: ServiceRequest) -> tuple[str, dict[str, str]] | None:
        if self.reserved.match(request.method, request.path) is not None:
            return None
        return self.router.match(request.method, request.path)

    def operations(self) -> list[str]:
        return self.ops.names()

    def handle(self, world: World, principal: Principal | None, request: ServiceRequest) -> Reply:
        found = self._route(request)
        # Parsed apart from the handler's copy: the trace records what was sent, whatever a handler does.
        body = trace_body(request)
        if found is None:
            return self.error_reply(self.unknown_path(), unimplemented=True, trace_body=body)
        name, params = found
        try:
            result = self.run(world, principal, request, name, params)
        except self.error as exc:
            return self.error_reply(exc, operation=name, trace_body=body)
        reply = result if isinstance(result, Reply) else Reply(200, result)
        reply.operation = name
        reply.trace_body = body
        return reply

    def internal_error(self, request: ServiceRequest, exc: BaseException) -> Reply:
        """The vendor's 500 when a handler failed; the server has already undone the call's writes."""
        return self.error_reply(self.failure(), operation=self.operation(request), trace_body=trace_body(request))

    def too_large(self, request: ServiceRequest) -> Reply:
        return self.error_reply(self.oversized(), operation=self.operation(request))

    def unavailable(self, request: ServiceRequest) -> Reply:
        return self.error_reply(self.outage(), operation=self.operation(request), trace_body=trace_body(request))
