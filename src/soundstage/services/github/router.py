"""GitHub's handler convention (`ops`, `Call`, the reply helpers and `paginate`), its router (paths whose
last parameter may hold slashes: `{path}`, `{ref}`, `{branch}`, `{basehead}`) and its rate limits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

from ...world import Record, World
from ..base import Operations, Reply
from ..limits import count, rule_for, rules, setting
from ..rest import RestCall
from .errors import GitHubError

# Parameters that may hold slashes when they end a template; `path` may also be empty (the repo root).
TAILS = frozenset({"path", "ref", "branch", "basehead"})


# -- the handler convention --------------------------------------------------------------------------

ops = Operations("github")


@dataclass
class Call(RestCall):
    """A GitHub call: also the caller's `github.users` record. A few operations also take an array as the
    body (`POST .../labels`) and read `body` itself; everywhere else an array is GitHub's 400."""

    user: Record

    def not_an_object(self) -> GitHubError:
        return GitHubError(400, "Problems parsing JSON")

    @property
    def login(self) -> str:
        return self.user["login"]


def created(body: Any) -> Reply:
    return Reply(201, body)


def no_content() -> Reply:
    return Reply(204, None)


def page_args(call: Call) -> tuple[int, int]:
    """`page` (1-based) and `per_page` (default 30, at most 100) as GitHub reads them: junk is the default."""
    page = _positive(call.query.get("page"), 1)
    per_page = min(_positive(call.query.get("per_page"), 30), 100)
    return page, per_page


def _positive(value: Any, default: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return number if number > 0 else default


def paginate(call: Call, items: list[Any], view: Callable[[Any], Any] | None = None) -> Reply:
    """One page of `items` (rendered by `view`) with GitHub's `Link` header: `rel="prev"`, `"next"`,
    `"last"`, `"first"` as they apply, joined by `", "` exactly (PyGithub splits on it); no `next` on the
    last page (githubkit follows `next` until it is gone)."""
    page, per_page = page_args(call)
    chunk = items[(page - 1) * per_page : page * per_page]
    body = [view(item) for item in chunk] if view else list(chunk)
    last = max(1, -(-len(items) // per_page))
    links = []
    if page > 1:
        links.append((min(page - 1, last), "prev"))
    if page < last:
        links += [(page + 1, "next"), (last, "last")]
    if page > 1:
        links.append((1, "first"))
    headers = {"Link": ", ".join(f'<{_page_url(call, n, per_page)}>; rel="{rel}"' for n, rel in links)} if links else {}
    return Reply(200, body, headers=headers)


def _page_url(call: Call, page: int, per_page: int) -> str:
    query = {k: v for k, v in call.query.items() if k not in ("page", "per_page")}
    query["per_page"] = str(per_page)
    query["page"] = str(page)
    return f"{call.base}{quote(call.request.path)}?{urlencode(query, doseq=True)}"


# -- rate limits -------------------------------------------------------------------------------------
#
# Every answer carries the primary limit's headers (5000 calls an hour of simulated time). A scene turns
# limits on with `rate_limits: {github: true}` (the primary limit is enforced: 403 `API rate limit
# exceeded`, `X-RateLimit-Remaining: 0`) or `{github: {"<operation>": "5/1m", "*": ...}}` (per-operation
# sliding windows answered as GitHub's secondary limit: 403 with `Retry-After`).

LIMIT = 5000
_HOUR = 3600
_SECONDARY = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach "
    "out to GitHub Support for help, please include the request ID."
)


def over_limit(world: World, operation: str, user: Record) -> GitHubError | None:
    """GitHub's refusal when this call is over a limit the scene turned on (a refused call takes no place
    in a per-operation window)."""
    if setting(world, "github") is True:
        used, _ = rate_used(world)
        if used >= LIMIT:
            return GitHubError(
                403,
                f"API rate limit exceeded for user ID {user['id']}.",
                documentation_url="https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
            )
        return None
    rule = rule_for(rules(world, "github", dict), operation)  # `true` is the primary limit alone, above
    if rule is None:
        return None
    counted = count(world, "github", operation, rule)
    if counted.allowed:
        return None
    return GitHubError(
        403,
        _SECONDARY,
        documentation_url="https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
        headers={"Retry-After": str(counted.reset)},
    )


class HourlyCalls(dict[int, int]):
    """Calls counted in the current hour of simulated time, by hour (a world part)."""


def rate_used(world: World) -> tuple[int, int]:
    """Calls counted so far in the current hour of simulated time, and when that hour ends."""
    window = world.now() // 1_000_000 // _HOUR
    return world.part(HourlyCalls).get(window, 0), (window + 1) * _HOUR


def rate_headers(world: World) -> dict[str, str]:
    """Counts a call and answers GitHub's `X-RateLimit-*` headers for it."""
    window = world.now() // 1_000_000 // _HOUR
    counts = world.part(HourlyCalls)
    used = counts.get(window, 0) + 1
    counts.clear()
    counts[window] = used
    return {
        "X-RateLimit-Limit": str(LIMIT),
        "X-RateLimit-Remaining": str(max(LIMIT - used, 0)),
        "X-RateLimit-Used": str(used),
        "X-RateLimit-Reset": str((window + 1) * _HOUR),
        "X-RateLimit-Resource": "core",
    }
