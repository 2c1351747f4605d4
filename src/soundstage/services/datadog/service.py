"""The Datadog API as a `Service`: checks the API and application keys, routes `METHOD /api/v…/path` to
its registered operation, and answers Datadog's error envelope."""

from __future__ import annotations

from typing import Any

from ...world import Principal, World
from ..base import BodyError, Credential, Reply, ServiceRequest, parse_body
from ..routing import import_handlers
from . import evaluation, seed, seed_records
from .errors import DatadogError, envelope, forbidden, not_found
from .router import Call, ops, router

API_KEY = "api_key"  # token types of the two keys
APPLICATION_KEY = "application_key"
# The operations that need only the API key.
_API_KEY_ONLY = frozenset({"GET /api/v1/validate", "POST /api/v1/events"})

import_handlers(__package__)


def _error(exc: DatadogError, **fields: Any) -> Reply:
    return Reply(exc.status, envelope(exc), headers=dict(exc.headers), error=True, **fields)


def _key(request: ServiceRequest, header: str, param: str) -> str | None:
    value = request.headers.get(header) or request.query.get(param)
    return value if isinstance(value, str) and value else None


class DatadogService:
    name = "datadog"

    def __init__(self) -> None:
        self.router = router()

    def token(self, request: ServiceRequest) -> str | None:
        return _key(request, "dd-api-key", "api_key")

    def unauthorized(self, request: ServiceRequest) -> Reply:
        return _error(forbidden(), operation=self._operation(request), trace_body=_trace_body(request))

    def _operation(self, request: ServiceRequest) -> str | None:
        found = self.router.match(request.method, request.path)
        return found[0] if found else None

    def handle(self, world: World, principal: Principal | None, request: ServiceRequest) -> Reply:
        found = self.router.match(request.method, request.path)
        trace_body = _trace_body(request)
        if found is None:
            return _error(not_found(), unimplemented=True, trace_body=trace_body)
        name, params = found
        if principal is None or principal.token_type != API_KEY:
            return _error(forbidden(), operation=name, trace_body=trace_body)
        if name not in _API_KEY_ONLY:
            app = world.tokens.get(_key(request, "dd-application-key", "application_key") or "")
            if app is None or app.token_type != APPLICATION_KEY:
                return _error(forbidden(), operation=name, trace_body=trace_body)
        try:
            body = _json_body(request)
            result = ops.handlers[name](Call(world, principal, request, params, body))
        except DatadogError as exc:
            return _error(exc, operation=name, trace_body=trace_body)
        reply = result if isinstance(result, Reply) else Reply(200, result)
        reply.operation = name
        reply.trace_body = trace_body
        return reply

    def operations(self) -> list[str]:
        return ops.names()

    def credentials(self, world: World) -> list[Credential]:
        """An API key and an application key, when the world has anything in Datadog. The application
        key belongs to the scene's `agent.datadog_user`, if it names one."""
        if not _in_use(world):
            return []
        user = world.settings.get("agent", {}).get("datadog_user") or ""
        return [
            Credential("DD_API_KEY", "", Principal("datadog", user, API_KEY)),
            Credential("DD_APP_KEY", "", Principal("datadog", user, APPLICATION_KEY)),
        ]

    def environment(self, world: World, base_url: str) -> dict[str, str]:
        # datadog-api-client's Configuration(host=...) takes the root the /api/v1 paths hang from.
        return {"DATADOG_API_URL": base_url}

    def assign(self, section: Any, ctx: Any) -> None:
        seed.assign(section, ctx)

    def build(self, section: Any, ctx: Any) -> None:
        seed.build(section, ctx)

    def attach(self, world: World) -> None:
        """Monitors follow the world's metrics: evaluated once a simulated minute (in a world with Datadog
        records; no other world gets Datadog keys)."""
        if _in_use(world):
            evaluation.attach(world)

    def generate(self, collection: str, options: dict[str, Any], ctx: Any) -> None:
        seed_records.generate(collection, options, ctx)

    def internal_error(self, request: ServiceRequest, exc: BaseException) -> Reply:
        """Datadog's 500 when it fails on its side; the server has already undone the call's writes."""
        return _error(
            DatadogError(500, "Internal Server Error"), operation=self._operation(request), trace_body=_trace_body(request)
        )


def _in_use(world: World) -> bool:
    """Whether the world has anything in Datadog."""
    return any(name.startswith("datadog.") and len(c) for name, c in world.collections.items())


def _json_body(request: ServiceRequest) -> Any:
    try:
        return parse_body(request)
    except BodyError as exc:
        raise DatadogError(400, f"Invalid JSON: {exc}") from exc


def _trace_body(request: ServiceRequest) -> Any:
    try:
        return parse_body(request)
    except BodyError:
        return None


service = DatadogService()
