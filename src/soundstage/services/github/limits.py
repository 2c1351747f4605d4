"""GitHub's rate limits.

Every answer carries the primary limit's headers (5000 calls an hour of simulated time). A scene turns
limits on with `rate_limits: {github: true}` (the primary limit is enforced: 403 `API rate limit
exceeded`, `X-RateLimit-Remaining: 0`) or `{github: {"<operation>": "5/1m", "*": ...}}` (per-operation
sliding windows answered as GitHub's secondary limit: 403 with `Retry-After`).
"""

from __future__ import annotations

from ...world import Record, World
from ..limits import count, rule_for, rules, setting
from .errors import GitHubError

LIMIT = 5000
ANONYMOUS_LIMIT = 60
_HOUR = 3600
_DOCS = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
_ANONYMOUS_HINT = (
    "(But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation "
    "for more details.)"
)
_SECONDARY = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach "
    "out to GitHub Support for help, please include the request ID."
)


def over_limit(world: World, operation: str, user: Record | None) -> GitHubError | None:
    """GitHub's refusal when this call is over a limit the scene turned on (a refused call takes no place
    in a per-operation window). A call with no credential (`user` None) is counted apart and not refused
    by the primary limit: GitHub words that refusal with the caller's IP address, which a world has not."""
    given = setting(world, "github")
    if given is True:
        if user is None:
            return None
        used, _ = rate_used(world)
        if used >= LIMIT:
            return primary_refusal(user)
        return None
    if not given:  # most scenes: no limit on, nothing to count
        return None
    rule = rule_for(rules(world, "github", dict), operation)  # `true` is the primary limit alone, above
    if rule is None:
        return None
    counted = count(world, "github", operation, rule)
    if counted.allowed:
        return None
    return secondary_refusal(counted.reset)


def primary_refusal(user: Record | None, status: int = 403) -> GitHubError:
    """GitHub's refusal of a call over the primary limit; a call with no credential is worded with the
    caller's address, which a world has not: the loopback's."""
    if user is None:
        message = f"API rate limit exceeded for 127.0.0.1. {_ANONYMOUS_HINT}"
    else:
        message = f"API rate limit exceeded for user ID {user['id']}."
    return GitHubError(status, message, documentation_url=_DOCS)


def secondary_refusal(wait: int, status: int = 403) -> GitHubError:
    """GitHub's refusal of a call over a secondary limit: `Retry-After` in whole seconds."""
    return GitHubError(
        status, _SECONDARY, documentation_url=f"{_DOCS}#about-secondary-rate-limits", headers={"Retry-After": str(wait)}
    )


class HourlyCalls(dict[int, int]):
    """Calls counted in the current hour of simulated time, by hour (a world part)."""


class AnonymousCalls(HourlyCalls):
    """Calls with no credential, counted apart: GitHub allows `ANONYMOUS_LIMIT` an hour per IP address,
    here per world (only the world's agent knows its URL)."""


def limit_for(anonymous: bool) -> int:
    return ANONYMOUS_LIMIT if anonymous else LIMIT


def _counts(world: World, anonymous: bool) -> HourlyCalls:
    return world.part(AnonymousCalls if anonymous else HourlyCalls)


def rate_used(world: World, anonymous: bool = False) -> tuple[int, int]:
    """Calls counted so far in the current hour of simulated time, and when that hour ends."""
    window = world.now() // 1_000_000 // _HOUR
    return _counts(world, anonymous).get(window, 0), (window + 1) * _HOUR


def rate_headers(world: World, counted: bool = True, anonymous: bool = False) -> dict[str, str]:
    """Counts a call (unless not `counted`: a 304, which GitHub does not count) and answers GitHub's
    `X-RateLimit-*` headers for it."""
    window = world.now() // 1_000_000 // _HOUR
    counts = _counts(world, anonymous)
    used = counts.get(window, 0) + counted
    counts.clear()
    counts[window] = used
    limit = limit_for(anonymous)
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(max(limit - used, 0)),
        "X-RateLimit-Used": str(used),
        "X-RateLimit-Reset": str((window + 1) * _HOUR),
        "X-RateLimit-Resource": "core",
    }
