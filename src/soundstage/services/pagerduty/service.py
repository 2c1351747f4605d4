"""The PagerDuty REST API v2 as a `Service`: reads `Token token=` and Bearer credentials, routes
`METHOD /path` to its registered operation, and answers PagerDuty's error envelope."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ...clock import parse_rate
from ...spec.build import BuildContext
from ...world import Principal, World
from ..base import (
    BodyError,
    Credential,
    FaultOption,
    Injection,
    Reply,
    ServiceRequest,
    import_registrations,
    parse_body,
)
from ..limits import ANNOUNCED_LIMIT, with_headers
from ..rest import RestService, trace_body
from . import handlers_events, limits, mcp_tools, seed_directory, seed_incidents
from .calls import Call, ops
from .errors import PagerDutyError, envelope, invalid, not_found, server_error
from .models import PagerdutySection
from .store import USERS, record_names
from .store import addresses as store_addresses
from .timers import attach as attach_timers

import_registrations(__package__)
EVENTS = "POST /v2/enqueue"  # the Events API v2 (handlers_events)


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


class PagerDutyService(RestService):
    name = "pagerduty"
    title = "PagerDuty"
    section = PagerdutySection  # its part of world and scene files
    agent_user = "pagerduty_user"  # who the agent is here, in a scene's `agent:`
    hosts = ("api.pagerduty.com", "events.pagerduty.com")
    fault_options: ClassVar[Mapping[str, FaultOption]] = {"limit": ANNOUNCED_LIMIT}
    fault_statuses: ClassVar[Mapping[str, tuple[int, ...]]] = {"server_error": (500,)}
    ops = ops
    # PagerDuty's operations a template here would take for its own (see RestService.unimplemented).
    unimplemented = ("GET /incidents/custom_fields", "GET /incidents/types", "GET /services/custom_fields")
    error = PagerDutyError
    https_only = True  # the official client refuses any other base URL
    record_names = staticmethod(record_names)  # the viewer's names beside ids
    addresses = staticmethod(store_addresses)  # its people by email, for the services whose accounts they are
    tools = mcp_tools.tools  # its MCP server's tools (docs/mcp.md)

    def envelope(self, exc: PagerDutyError) -> Any:
        return envelope(exc)

    def unknown_path(self) -> PagerDutyError:
        return not_found()

    def failure(self) -> PagerDutyError:
        return server_error(500)

    def oversized(self) -> PagerDutyError:
        return PagerDutyError(413, 2001, "Request Entity Too Large")

    def outage(self) -> PagerDutyError:
        return server_error(503)

    def token(self, request: ServiceRequest) -> str | None:
        """The REST API's token; for an Events API event, its routing key."""
        if request.path == handlers_events.PATH:
            return handlers_events.routing_key(request)
        return token_of(request)

    def unauthorized(self, request: ServiceRequest) -> Reply:
        operation = self.operation(request)
        refusal = handlers_events.refused(request) if operation == EVENTS else _unauthenticated()
        return self.error_reply(refusal, operation=operation, trace_body=trace_body(request))

    def rate_limit_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        limit, _ = parse_rate(fault.options["limit"])
        return self.fault_reply(request, limits.refusal(limits.limit_headers(limit, 0, fault.retry_after)))

    def server_error_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        return self.fault_reply(request, server_error(500))

    def run(
        self, world: World, principal: Principal | None, request: ServiceRequest, name: str, params: dict[str, str]
    ) -> Any:
        if name == EVENTS:  # the Events API: no REST token, no REST rate limit
            if principal is None:
                raise handlers_events.refused(request)
            return self._call(world, principal, request, name, params)
        if principal is None or principal.token_type == handlers_events.ROUTING_KEY:
            raise _unauthenticated()
        headers = limits.check(world, name, principal.user)
        try:
            return with_headers(self._call(world, principal, request, name, params), headers)
        except PagerDutyError as exc:  # a limited operation's errors carry the limit's headers too
            exc.headers = {**headers, **exc.headers}
            raise

    def _call(
        self, world: World, principal: Principal, request: ServiceRequest, name: str, params: dict[str, str]
    ) -> Any:
        user = world[USERS].get(principal.user) if principal.user else None
        try:
            body = parse_body(request)
        except BodyError as exc:
            raise invalid(f"The request body could not be parsed: {exc}") from exc
        return ops.handlers[name](Call(world, request, params, body, principal, user))

    def credentials(self, world: World) -> list[Credential]:
        """A user API token acting as the scene's `agent.pagerduty_user`."""
        user = world.agent.get("pagerduty_user")
        if not user:
            return []
        return [Credential("PAGERDUTY_TOKEN", "u+", Principal("pagerduty", user, "user"))]

    def environment(self, world: World, base_url: str) -> dict[str, str]:
        env = {"PAGERDUTY_API_URL": base_url}
        user = world[USERS].get(world.agent.get("pagerduty_user") or "")
        if user is not None:
            env["PAGERDUTY_FROM"] = user["email"]
        return env

    def attach(self, world: World) -> None:
        """Arms the timers of the incidents a live world starts with (escalations, acknowledgement timeouts),
        and makes the services' routing keys credentials of the world (for the Events API)."""
        attach_timers(world)
        handlers_events.register(world)

    def assign(self, section: Any, ctx: BuildContext) -> None:
        """Pass 1 of building an image: ids for the records with a `ref` (seed_directory first, then seed_incidents)."""
        pagerduty = ctx.parsed(PagerdutySection, section)
        seed_directory.assign(pagerduty, ctx)
        seed_incidents.assign(pagerduty, ctx)

    def build(self, section: Any, ctx: BuildContext) -> None:
        """Pass 2: the records, in the same order."""
        pagerduty = ctx.parsed(PagerdutySection, section)
        seed_directory.build(pagerduty, ctx)
        seed_incidents.build(pagerduty, ctx)

    def generate(self, collection: str, options: dict[str, Any], ctx: Any) -> None:
        raise ctx.error(f"pagerduty.{collection} cannot be generated")


service = PagerDutyService()
