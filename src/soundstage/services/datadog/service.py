"""The Datadog API as a `Service`: checks the API and application keys, routes `METHOD /api/v…/path` to
its registered operation, and answers Datadog's error envelope."""

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
from . import evaluation, limits, mcp_tools, seed_logs, seed_monitoring, seed_records
from .calls import Call, ops
from .errors import DatadogError, envelope, forbidden, not_found, server_error
from .models import DatadogSection
from .store import addresses as store_addresses
from .store import record_names

API_KEY = "api_key"  # token types of the two keys
APPLICATION_KEY = "application_key"
# The operations that need only the API key.
_API_KEY_ONLY = frozenset({"GET /api/v1/validate", "POST /api/v1/events", "POST /api/v2/series"})
# Datadog's sites, each with its API host (`DD_SITE` of its clients).
SITES = ("datadoghq.com", "datadoghq.eu", "us3.datadoghq.com", "us5.datadoghq.com", "ap1.datadoghq.com", "ddog-gov.com")

import_registrations(__package__)


def _key(request: ServiceRequest, header: str, param: str) -> str | None:
    value = request.headers.get(header) or request.query.get(param)
    return value if isinstance(value, str) and value else None


class DatadogService(RestService):
    name = "datadog"
    title = "Datadog"
    section = DatadogSection  # its part of world and scene files
    agent_user = "datadog_user"  # who the agent is here, in a scene's `agent:`
    hosts = tuple(f"api.{site}" for site in SITES)
    secret_params = ("api_key", "application_key")
    tools = mcp_tools.tools  # its MCP server's tools (docs/mcp.md)
    record_names = staticmethod(record_names)  # the viewer's names beside ids
    addresses = staticmethod(store_addresses)  # its people by email, for the services whose accounts they are
    fault_options: ClassVar[Mapping[str, FaultOption]] = {"limit": ANNOUNCED_LIMIT}
    fault_statuses: ClassVar[Mapping[str, tuple[int, ...]]] = {"server_error": (500, 502, 503, 504)}
    ops = ops
    # Datadog's operations a template here would take for its own (see RestService.unimplemented).
    unimplemented = ("GET /api/v2/incidents/search",)
    error = DatadogError

    def envelope(self, exc: DatadogError) -> Any:
        return envelope(exc)

    def unknown_path(self) -> DatadogError:
        return not_found()

    def failure(self) -> DatadogError:
        return server_error(500)

    def oversized(self) -> DatadogError:
        return DatadogError(413, "Payload too large")

    def outage(self) -> DatadogError:
        return server_error(503)

    def token(self, request: ServiceRequest) -> str | None:
        return _key(request, "dd-api-key", "api_key")

    def rate_limit_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        limit, window = parse_rate(fault.options["limit"])
        operation = self.operation(request) or f"{request.method} {request.path}"
        headers = limits.limit_headers(operation, limit, window, 0, fault.retry_after)
        return self.fault_reply(request, limits.refusal(headers))

    def server_error_answer(
        self, world: World, principal: Principal | None, request: ServiceRequest, fault: Injection
    ) -> Reply:
        return self.fault_reply(request, server_error(fault.status or 500))

    def unauthorized(self, request: ServiceRequest) -> Reply:
        operation = self.operation(request)
        return self.error_reply(_refused(request, operation), operation=operation, trace_body=trace_body(request))

    def run(
        self, world: World, principal: Principal | None, request: ServiceRequest, name: str, params: dict[str, str]
    ) -> Any:
        if principal is None or principal.token_type != API_KEY:
            raise _refused(request, name)
        if name not in _API_KEY_ONLY:
            app = world.tokens.get(_key(request, "dd-application-key", "application_key") or "")
            if app is None or app.token_type != APPLICATION_KEY:
                raise forbidden()
        headers = limits.check(world, name)
        try:
            return with_headers(self._call(world, principal, request, name, params), headers)
        except DatadogError as exc:  # a limited operation's errors carry the limit's headers too
            exc.headers = {**headers, **exc.headers}
            raise

    def _call(
        self, world: World, principal: Principal, request: ServiceRequest, name: str, params: dict[str, str]
    ) -> Any:
        try:
            body = parse_body(request, exact_ints=True)  # an integer past int64 is Datadog's 400 (calls.fits_int64)
        except BodyError as exc:
            raise DatadogError(400, f"Invalid JSON: {exc}") from exc
        return ops.handlers[name](Call(world, request, params, body, principal))

    def credentials(self, world: World) -> list[Credential]:
        """An API key and an application key, when the world has anything in Datadog. The application
        key belongs to the scene's `agent.datadog_user`, if it names one."""
        if not _in_use(world):
            return []
        user = world.agent.get("datadog_user") or ""
        return [
            Credential("DD_API_KEY", "", Principal("datadog", user, API_KEY)),
            Credential("DD_APP_KEY", "", Principal("datadog", user, APPLICATION_KEY)),
        ]

    def environment(self, world: World, base_url: str) -> dict[str, str]:
        # datadog-api-client's Configuration(host=...) takes the root the /api/v1 paths hang from.
        return {"DATADOG_API_URL": base_url}

    def assign(self, section: Any, ctx: BuildContext) -> None:
        """Pass 1 of building an image: ids for the records with a `ref` (seed_records first, then seed_monitoring)."""
        datadog = ctx.parsed(DatadogSection, section)
        seed_records.assign(datadog, ctx)
        seed_monitoring.assign(datadog, ctx)

    def build(self, section: Any, ctx: BuildContext) -> None:
        """Pass 2: the records, in the same order."""
        datadog = ctx.parsed(DatadogSection, section)
        seed_records.build(datadog, ctx)
        seed_monitoring.build(datadog, ctx)

    def attach(self, world: World) -> None:
        """Monitors follow the world's metrics: evaluated once a simulated minute (in a world with Datadog
        records; no other world gets Datadog keys)."""
        if _in_use(world):
            evaluation.attach(world)

    def generate(self, collection: str, options: dict[str, Any], ctx: Any) -> None:
        seed_logs.generate(collection, options, ctx)


def _refused(request: ServiceRequest, operation: str | None) -> DatadogError:
    """403 for a missing or wrong API key; `validate` without one says so, as Datadog's recorded answer does."""
    if operation == "GET /api/v1/validate" and _key(request, "dd-api-key", "api_key") is None:
        return DatadogError(403, "API key required")
    return forbidden()


def _in_use(world: World) -> bool:
    """Whether the world has anything in Datadog."""
    return any(name.startswith("datadog.") and len(c) for name, c in world.collections.items())


service = DatadogService()
