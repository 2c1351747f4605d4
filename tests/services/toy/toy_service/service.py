"""The toy vendor's API as a `Service`: a bearer token acting as a user, `METHOD /path` routed to its
operation, its envelope, and everything soundstage asks of a vendor (its host, its api faults' options,
statuses and answers)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from soundstage.services.base import (
    Address,
    Credential,
    FaultOption,
    Injection,
    Reply,
    ServiceRequest,
    account,
    import_registrations,
    parse_body,
)
from soundstage.services.rest import RestService
from soundstage.world import Principal, World

from . import seed
from .calls import Call, ops
from .errors import ToyError, envelope, server_error
from .models import ToySection
from .store import USERS

import_registrations(__package__)


class ToyService(RestService):
    name = "toy"
    title = "Toy"
    section = ToySection
    agent_user = "toy_user"
    hosts = ("api.toy.test",)
    secrets = (r"toy_[0-9a-f]{32}",)
    fault_options: ClassVar[Mapping[str, FaultOption]] = {
        "shelf": FaultOption(str, "main", "server_error", "shelf (the shelf that is down) is {owners} alone")
    }
    fault_statuses: ClassVar[Mapping[str, tuple[int, ...]]] = {"server_error": (500, 503)}
    ops = ops
    error = ToyError

    def envelope(self, exc: ToyError) -> Any:
        return envelope(exc)

    def unknown_path(self) -> ToyError:
        return ToyError(404, "no such path")

    def failure(self) -> ToyError:
        return server_error(500)

    def oversized(self) -> ToyError:
        return ToyError(413, "too large")

    def outage(self) -> ToyError:
        return server_error(503)

    def token(self, request: ServiceRequest) -> str | None:
        scheme, _, value = request.headers.get("authorization", "").partition(" ")
        return (value.strip() or None) if scheme.lower() == "bearer" else None

    def unauthorized(self, request: ServiceRequest) -> Reply:
        return self.error_reply(ToyError(401, "who are you?"), operation=self.operation(request))

    def run(
        self, world: World, principal: Principal | None, request: ServiceRequest, name: str, params: dict[str, str]
    ) -> Any:
        if principal is None or world[USERS].get(principal.user) is None:
            raise ToyError(401, "who are you?")
        return self.ops.handlers[name](Call(world, request, params, parse_body(request), principal))

    def credentials(self, world: World) -> list[Credential]:
        user = world.agent.get(self.agent_user)
        return [Credential("TOY_TOKEN", "toy_", Principal(account(self), user, "user"))] if user else []

    def environment(self, world: World, base_url: str) -> dict[str, str]:
        return {"TOY_API_URL": base_url}

    @staticmethod
    def addresses(collections: Any) -> list[Address]:
        """Its users with an email, for the services whose records are made of the world's people."""
        return [Address(u["email"], u["name"], None, (u["id"],)) for u in collections.get(USERS, ()) if u.get("email")]

    def assign(self, section: Any, ctx: Any) -> None:
        seed.assign(ctx.parsed(ToySection, section), ctx)

    def build(self, section: Any, ctx: Any) -> None:
        seed.build(ctx.parsed(ToySection, section), ctx)

    def generate(self, collection: str, options: dict[str, Any], ctx: Any) -> None:
        raise ctx.error(f"toy.{collection} cannot be generated")

    def rate_limit_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        return self.fault_reply(request, ToyError(429, "slow down", {"Retry-After": str(fault.retry_after)}))

    def server_error_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        return self.fault_reply(request, ToyError(fault.status or 500, f"the {fault.options['shelf']} shelf is down"))


service = ToyService()
