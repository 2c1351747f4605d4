"""PagerDuty's REST API rate limits, in simulated time, when a scene turns them on (docs/services/pagerduty.md,
"Rate limits").

`rate_limits: {pagerduty: true}` applies PagerDuty's published limit for user API keys: 960 requests a
minute per user, across every operation ("REST API Rate Limits", developer docs). `rate_limits:
{pagerduty: {"PUT /incidents/{id}": "5/1m", "*": "100/1m"}}` sets limits per operation instead (`*`: each
other operation, in a window of its own); windows are per user, as PagerDuty counts them.

Every answer to a limited call carries `ratelimit-limit`, `ratelimit-remaining` and `ratelimit-reset`
(seconds until the window frees a place); a call over the limit is 429 `{"error": {"message": "Rate Limit
Exceeded", "code": 2020}}` with the same headers, and runs nothing.
"""

from __future__ import annotations

from ...clock import US
from ...world import World
from ..limits import Rule, count, rule_for, rules, setting
from .errors import PagerDutyError

PER_USER = (960, 60 * US)
_ALL = "*"  # the window of every call, under `true`


def check(world: World, operation: str, user: str) -> dict[str, str]:
    """Counts a call of `operation` by `user`: its `ratelimit-*` headers ({} when it is not limited);
    raises PagerDuty's 429 when it is over the limit."""
    rule: Rule | None = PER_USER
    window = _ALL
    if setting(world, "pagerduty") is not True:  # `true` is the one window above; dict() is never used
        rule, window = rule_for(rules(world, "pagerduty", dict), operation), operation
    if rule is None:
        return {}
    counted = count(world, "pagerduty", f"{user} {window}", rule)
    headers = limit_headers(counted.limit, counted.remaining, counted.reset)
    if not counted.allowed:
        raise refusal(headers)
    return headers


def limit_headers(limit: int, remaining: int, reset: int) -> dict[str, str]:
    """PagerDuty's `ratelimit-*` headers (`reset`: seconds until the window frees a place)."""
    return {"ratelimit-limit": str(limit), "ratelimit-remaining": str(remaining), "ratelimit-reset": str(reset)}


def refusal(headers: dict[str, str]) -> PagerDutyError:
    """PagerDuty's 429 for a call over a limit, with the limit's headers."""
    return PagerDutyError(429, 2020, "Rate Limit Exceeded", headers=headers)
