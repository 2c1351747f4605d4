"""Sliding windows of simulated time: the rate limits a scene turns on with `rate_limits:`, shared by the
services that impersonate a vendor's limits (each words its own refusal and headers).

`rate_limits: {<service>: true}` means the service's published defaults; `{<service>: {"<operation>":
"N/duration", "*": "N/duration"}}` sets limits per operation (`*`: each other operation, in a window of its
own). The rules are parsed once per world and kept, with the windows, in the world's `RateLimits` part. A
window holds the simulated times (µs)
of the calls it allowed: a call is refused while `count` calls were allowed in the last `window`, and a
refused call takes no place in it, so waiting until the oldest call leaves always frees a place.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..clock import US, parse_rate
from ..spec.fields import Rate
from ..world import World
from .base import FaultOption, Reply

Rule = tuple[int, int]  # calls allowed, window length in µs
# The api fault option of the services whose refusal announces its limit in headers (Datadog's, PagerDuty's).
ANNOUNCED_LIMIT = FaultOption(Rate, "100/1m", "rate_limit", "limit is announced by {owners} headers alone")


@dataclass
class RateLimits:
    """A world's rate limits in force (a world part): the rules of each service, parsed on first use, and
    the windows of the calls each has allowed, by service, then by window key."""

    rules: dict[str, dict[str, Rule] | None] = field(default_factory=dict)
    windows: dict[str, dict[str, deque[int]]] = field(default_factory=dict)


def setting(world: World, service: str) -> Any:
    """What the scene says of `service` under `rate_limits`: True, a mapping, or None."""
    return world.settings.get("rate_limits", {}).get(service)


def rules(world: World, service: str, defaults: Callable[[], dict[str, Rule]]) -> dict[str, Rule] | None:
    """The limits in force for `service` by operation name (or `*`), parsed once per world: `defaults()`
    for `true`, the scene's own for a mapping, None when the scene turns no limit on."""
    parsed = world.part(RateLimits).rules
    if service not in parsed:
        given = setting(world, service)
        if given is True:
            parsed[service] = defaults()
        elif isinstance(given, dict) and given:
            parsed[service] = {name: parse_rate(value) for name, value in given.items()}
        else:
            parsed[service] = None
    return parsed[service]


def rule_for(limits: dict[str, Rule] | None, operation: str) -> Rule | None:
    """The rule an operation is counted by: its own, else `*`, else none."""
    if not limits:
        return None
    return limits.get(operation) or limits.get("*")


@dataclass(frozen=True)
class Count:
    """A call counted in a window: whether it was allowed, the rule, the places left after it, and the
    whole seconds (at least 1) until the oldest call in the window leaves it and frees a place."""

    allowed: bool
    limit: int
    window: int  # µs
    remaining: int
    reset: int


def count(world: World, service: str, key: str, rule: Rule) -> Count:
    """Counts a call in the window `key` of `service` under `rule` at the world's simulated time."""
    limit, window = rule
    calls = world.part(RateLimits).windows.setdefault(service, {}).setdefault(key, deque())
    now = world.now()
    while calls and calls[0] <= now - window:
        calls.popleft()
    allowed = len(calls) < limit
    if allowed:
        calls.append(now)
    reset = max(1, -(-(calls[0] + window - now) // US))
    return Count(allowed, limit, window, limit - len(calls), reset)


def with_headers(result: Any, headers: dict[str, str]) -> Any:
    """A handler's result with a limit's headers added (a plain body becomes a 200 `Reply`); the handler's
    own headers win."""
    if not headers:
        return result
    reply = result if isinstance(result, Reply) else Reply(200, result)
    reply.headers = {**headers, **reply.headers}
    return reply
