"""The PagerDuty REST API v2 as a `Service`: reads `Token token=` and Bearer credentials, routes
`METHOD /path` to its registered operation, and answers PagerDuty's error envelope."""

from __future__ import annotations

from typing import Any

from ...world import Principal, World
from ..base import BodyError, Credential, Reply, ServiceRequest, parse_body
from ..routing import import_handlers
from . import seed
from .errors import PagerDutyError, envelope, invalid, not_found
from .incidents import attach as attach_incidents
from .router import Call, ops, router
from .store import USERS

import_handlers(__package__)


def token_of(request: ServiceRequest) -> str | None:
    """The key of `Authorization: Token token=<key>`, or the token of `Bearer <token>`."""
    scheme, _, value = request.headers.get("authorization", "").strip().partition(" ")
    value = value.strip()
    if scheme.lower() == "token" and value.startswith("token="):
        return value[len("token=") :].strip() or None
    if scheme.lower() == "bearer" and value:
        return value
    return None


def _unauthenticated() -> PagerDutyError:
    return PagerDutyError(401, 2006, "Authentication failed")


def _error(exc: PagerDutyError, **fields: Any) -> Reply:
    return Reply(exc.status, envelope(exc), headers=dict(exc.headers), error=True, **fields)


class PagerDutyService:
    name = "pagerduty"
    https_only = True  # the official client refuses any other base URL

    def __init__(self) -> None:
        self.router = router()

    def token(self, request: ServiceRequest) -> str | None:
        return token_of(request)

    def unauthorized(self, request: ServiceRequest) -> Reply:
        return _error(
            _unauthenticated(),
            operation=self._operation(request),
            trace_body=_trace_body(request),
        )

    def _operation(self, request: ServiceRequest) -> str | None:
        found = self.router.match(request.method, request.path)
        return found[0] if found else None

    def handle(self, world: World, principal: Principal | None, request: ServiceRequest) -> Reply:
        found = self.router.match(request.method, request.path)
        trace_body = _trace_body(request)
        if found is None:
            return _error(not_found(), unimplemented=True, trace_body=trace_body)
        name, params = found
        if principal is None:
            return _error(_unauthenticated(), operation=name, trace_body=trace_body)
        user = world[USERS].get(principal.user) if principal.user else None
        try:
            body = _json_body(request)
            result = ops.handlers[name](Call(world, principal, user, request, params, body))
        except PagerDutyError as exc:
            return _error(exc, operation=name, trace_body=trace_body)
        reply = result if isinstance(result, Reply) else Reply(200, result)
        reply.operation = name
        reply.trace_body = trace_body
        return reply

    def operations(self) -> list[str]:
        return ops.names()

    def credentials(self, world: World) -> list[Credential]:
        """A user API token acting as the scene's `agent.pagerduty_user`."""
        user = world.settings.get("agent", {}).get("pagerduty_user")
        if not user:
            return []
        return [Credential("PAGERDUTY_TOKEN", "u+", Principal("pagerduty", user, "user"))]

    def environment(self, world: World, base_url: str) -> dict[str, str]:
        env = {"PAGERDUTY_API_URL": base_url}
        user = world[USERS].get(world.settings.get("agent", {}).get("pagerduty_user") or "")
        if user is not None:
            env["PAGERDUTY_FROM"] = user["email"]
        return env

    def attach(self, world: World) -> None:
        """Arms the timers of the incidents a live world starts with (escalations, acknowledgement timeouts)."""
        attach_incidents(world)

    def assign(self, section: Any, ctx: Any) -> None:
        seed.assign(section, ctx)

    def build(self, section: Any, ctx: Any) -> None:
        seed.build(section, ctx)

    def generate(self, collection: str, options: dict[str, Any], ctx: Any) -> None:
        raise ctx.error(f"pagerduty.{collection} cannot be generated")

    def internal_error(self, request: ServiceRequest, exc: BaseException) -> Reply:
        """PagerDuty's 500 when it fails on its side; the server has already undone the call's writes."""
        return _error(
            PagerDutyError(500, 2000, "Internal Error"),
            operation=self._operation(request),
            trace_body=_trace_body(request),
        )


def _json_body(request: ServiceRequest) -> Any:
    try:
        return parse_body(request)
    except BodyError as exc:
        raise invalid(f"The request body could not be parsed: {exc}") from exc


def _trace_body(request: ServiceRequest) -> Any:
    try:
        return parse_body(request)
    except BodyError:
        return None


service = PagerDutyService()
