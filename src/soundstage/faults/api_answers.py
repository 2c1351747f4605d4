"""Each vendor's answer to a call an api fault refuses, in the vendor's own words (docs/faults.md, "API
faults"). The rate-limit answers are the ones the services' own limits give (`services/*/limits.py`); the
reply starts as the service's answer to a failure on its side, which names the operation and keeps the
request body for the trace as the service would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..clock import US, parse_rate
from ..services.base import Reply, Service, ServiceRequest
from ..services.datadog import errors as datadog_errors
from ..services.datadog import limits as datadog_limits
from ..services.github import errors as github_errors
from ..services.github import limits as github_limits
from ..services.github import media, wire
from ..services.github.errors import GitHubError
from ..services.github.store import USERS
from ..services.pagerduty import errors as pagerduty_errors
from ..services.pagerduty import limits as pagerduty_limits
from ..world import Principal, World

if TYPE_CHECKING:
    from .api import ApiFaultRule

DEFAULT_STATUS = {"slack": 200, "github": 502, "datadog": 500, "pagerduty": 500}


class InjectedFault(Exception):
    """The failure a server fault stands for, handed to the service's `internal_error`."""


def rate_limit(
    world: World, rule: ApiFaultRule, service: Service, principal: Principal | None, call: ServiceRequest
) -> Reply:
    fault, wait = rule.fault, rule.retry_after
    if fault.service == "slack":
        return _reply(service, call, 429, {"ok": False, "error": "ratelimited"}, {"Retry-After": str(wait)})
    if fault.service == "github":
        status = fault.status or 403
        if fault.github_limit == "primary":
            return _github(world, service, call, github_limits.primary_refusal(_user(world, principal), status), wait)
        return _github(world, service, call, github_limits.secondary_refusal(wait, status))
    limit, window = parse_rate(fault.limit)
    if fault.service == "datadog":
        operation = service.operation(call) or f"{call.method} {call.path}"  # type: ignore[attr-defined]
        headers = datadog_limits.limit_headers(operation, limit, window, 0, wait)
        return _rest(service, call, datadog_limits.refusal(headers))
    return _rest(service, call, pagerduty_limits.refusal(pagerduty_limits.limit_headers(limit, 0, wait)))


def server_error(
    world: World, rule: ApiFaultRule, service: Service, principal: Principal | None, call: ServiceRequest
) -> Reply:
    fault = rule.fault
    status = fault.status or DEFAULT_STATUS[fault.service]
    if fault.service == "slack":
        return _reply(service, call, status, {"ok": False, "error": fault.error or "internal_error"}, {})
    if fault.service == "github":
        return _github(world, service, call, github_errors.server_error(status))
    if fault.service == "datadog":
        return _rest(service, call, datadog_errors.server_error(status))
    return _rest(service, call, pagerduty_errors.server_error(500))


def _reply(service: Service, call: ServiceRequest, status: int, body: Any, headers: dict[str, str]) -> Reply:
    reply = service.internal_error(call, InjectedFault())
    reply.status, reply.body, reply.headers, reply.error = status, body, headers, True
    return reply


def _rest(service: Service, call: ServiceRequest, exc: Any) -> Reply:
    return _reply(service, call, exc.status, service.envelope(exc), dict(exc.headers))  # type: ignore[attr-defined]


def _github(world: World, service: Service, call: ServiceRequest, exc: GitHubError, reset_in: int = 0) -> Reply:
    """GitHub's answer with the headers every GitHub answer has; the primary limit's spent (`reset_in`
    seconds from now) when given, else the count so far, which a refused call does not add to."""
    anonymous = "authorization" not in call.headers
    headers = github_limits.rate_headers(world, counted=False, anonymous=anonymous)
    if reset_in:
        headers["X-RateLimit-Remaining"] = "0"
        headers["X-RateLimit-Used"] = headers["X-RateLimit-Limit"]
        headers["X-RateLimit-Reset"] = str(world.now() // US + reset_in)
    reply = _rest(service, call, exc)
    reply.headers = {
        **headers,
        "X-GitHub-Request-Id": wire.request_id(world),
        **wire.CONSTANT,
        "X-GitHub-Media-Type": media.media_header(call),
        **reply.headers,
    }
    return reply


def _user(world: World, principal: Principal | None) -> Any:
    return world[USERS].get(principal.user) if principal is not None and principal.service == "github" else None
