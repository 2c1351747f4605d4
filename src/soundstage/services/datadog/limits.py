"""Datadog's rate limits, in simulated time, when a scene turns them on (docs/services/datadog.md, "Rate
limits").

`rate_limits: {datadog: true}` applies the per-endpoint limits Datadog has published (its API reference,
"Rate Limits"; per organization): `GET /api/v1/query` 1600 calls an hour (Query a Timeseries), the log
searches `POST /api/v2/logs/events/search` and `GET /api/v2/logs/events` 300 an hour each (the Log Query
limit), and `POST /api/v1/events` 250,000 a minute (event submission); every other operation is not
limited. `rate_limits: {datadog: {"GET /api/v1/monitor": "5/1m", "*": "100/1m"}}` sets limits per
operation instead (`*`: each other operation, in a window of its own).

A limited operation's answers carry `X-RateLimit-Limit`, `-Period` (seconds), `-Remaining`, `-Reset`
(seconds until the window frees a place) and `-Name`; a call over the limit is 429 `{"errors": ["Rate
limit exceeded"]}` with the same headers, and runs nothing. Datadog's periods are calendar aligned; here
the windows slide, as for the other services.
"""

from __future__ import annotations

import re

from ...clock import US
from ...world import World
from ..limits import Rule, count, rule_for, rules
from .errors import DatadogError

HOUR = 3600 * US
DEFAULTS: dict[str, Rule] = {
    "GET /api/v1/query": (1600, HOUR),
    "POST /api/v2/logs/events/search": (300, HOUR),
    "GET /api/v2/logs/events": (300, HOUR),
    "POST /api/v1/events": (250_000, 60 * US),
}


def limit_name(operation: str) -> str:
    """The `X-RateLimit-Name` of an operation: `GET /api/v1/monitor/{monitor_id}` is `get_monitor_monitor_id`."""
    method, _, path = operation.partition(" ")
    words = re.findall(r"[a-z0-9]+", re.sub(r"^/api/v\d+", "", path).lower())
    return "_".join([method.lower(), *words])


def check(world: World, operation: str) -> dict[str, str]:
    """Counts a call of `operation`: its `X-RateLimit-*` headers ({} when it is not limited); raises
    Datadog's 429 when it is over the limit."""
    rule = rule_for(rules(world, "datadog", DEFAULTS.copy), operation)
    if rule is None:
        return {}
    counted = count(world, "datadog", operation, rule)
    headers = limit_headers(operation, counted.limit, counted.window, counted.remaining, counted.reset)
    if not counted.allowed:
        raise refusal(headers)
    return headers


def limit_headers(operation: str, limit: int, window: int, remaining: int, reset: int) -> dict[str, str]:
    """Datadog's `X-RateLimit-*` headers: a limit of `limit` calls a `window` (µs), `reset` in seconds."""
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Period": str(max(1, -(-window // US))),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": str(reset),
        "X-RateLimit-Name": limit_name(operation),
    }


def refusal(headers: dict[str, str]) -> DatadogError:
    """Datadog's 429 for a call over a limit, with the limit's headers."""
    return DatadogError(429, "Rate limit exceeded", headers=headers)
