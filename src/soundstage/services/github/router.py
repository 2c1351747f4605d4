"""Routing `METHOD /path` to an operation registered as `"METHOD /repos/{owner}/{repo}/..."`.

Templates are bucketed by method and segment count, so a lookup compares a path only with the few
templates of its own shape, literal segments first. A template ending in a tail parameter (`{path}` of
contents, `{ref}` of git refs, `{branch}`, `{basehead}`) also matches paths with more segments: that
parameter then spans the rest, slashes included (`contents/src/app.py`, `git/ref/heads/feature/x`).
Exact-length templates win, so `commits/{ref}/check-runs` is not swallowed by `commits/{ref}`.

Also here: the handler convention (`ops`, `Call`, the reply helpers and `paginate`) and rate limits.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote, urlencode

from ...clock import US, parse_rate
from ...world import Record, World
from ..base import Operations, Reply, ServiceRequest
from .errors import GitHubError

# Parameters that may hold slashes when they end a template; `path` may also be empty (the repo root).
TAILS = frozenset({"path", "ref", "branch", "basehead"})

Template = tuple[str, tuple[str | None, ...], tuple[str, ...]]  # name, literal or None per segment, params


def _segments(path: str) -> list[str]:
    return [unquote(s) for s in path.strip("/").split("/")] if path.strip("/") else []


def _parse(name: str) -> Template:
    _, _, path = name.partition(" ")
    parts = path.strip("/").split("/")
    literals = tuple(None if p.startswith("{") else p for p in parts)
    params = tuple(p[1:-1] for p in parts if p.startswith("{"))
    return name, literals, params


def _specificity(template: Template) -> tuple[bool, ...]:
    return tuple(literal is None for literal in template[1])


class Router:
    def __init__(self, names: Iterable[str]) -> None:
        self._exact: dict[tuple[str, int], list[Template]] = {}
        self._tails: dict[str, list[Template]] = {}
        for name in names:
            method = name.partition(" ")[0]
            template = _parse(name)
            self._exact.setdefault((method, len(template[1])), []).append(template)
            if template[1][-1] is None and template[2][-1] in TAILS:
                self._tails.setdefault(method, []).append(template)
        for bucket in [*self._exact.values(), *self._tails.values()]:
            bucket.sort(key=_specificity)

    def match(self, method: str, path: str) -> tuple[str, dict[str, str]] | None:
        """The operation name and its parameters for a request, or None."""
        segments = _segments(path)
        for template in self._exact.get((method, len(segments)), ()):
            params = _bind(template, segments)
            if params is not None:
                return template[0], params
        for template in self._tails.get(method, ()):
            head = len(template[1]) - 1
            least = head if template[2][-1] == "path" else head + 1
            if len(segments) < least:
                continue
            params = _bind(template, [*segments[:head], "/".join(segments[head:])])
            if params is not None:
                return template[0], params
        return None


def _bind(template: Template, segments: list[str]) -> dict[str, str] | None:
    params: dict[str, str] = {}
    names = iter(template[2])
    for literal, segment in zip(template[1], segments):
        if literal is None:
            params[next(names)] = segment
        elif literal != segment:
            return None
    return params


# -- the handler convention --------------------------------------------------------------------------

ops = Operations("github")


@dataclass
class Call:
    """One call as a handler sees it: the world, the caller's `github.users` record, the request, the
    path parameters, and the JSON body (None when there is none)."""

    world: World
    user: Record
    request: ServiceRequest
    params: dict[str, str]
    body: Any

    @property
    def query(self) -> dict[str, Any]:
        return self.request.query

    @property
    def fields(self) -> dict[str, Any]:
        """The JSON body as an object (an empty one when there is none). A few operations also take an
        array (`POST .../labels`) and read `body` itself; everywhere else an array is GitHub's 400."""
        if self.body is None:
            return {}
        if not isinstance(self.body, dict):
            raise GitHubError(400, "Problems parsing JSON")
        return self.body

    @property
    def base(self) -> str:
        """The absolute API root of this request, for `url` fields and `Link` headers."""
        return self.request.base_url

    @property
    def login(self) -> str:
        return self.user["login"]

    def now(self) -> int:
        return self.world.now()


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
_RULES = "github.rate_rules"  # world.scratch keys
_WINDOWS = "github.rate_windows"
_SECONDARY = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach "
    "out to GitHub Support for help, please include the request ID."
)


def _rules(world: World) -> dict[str, tuple[int, int]] | bool:
    """Per-operation limits, True for the primary limit alone, False when limits are off."""
    if _RULES not in world.scratch:
        setting: Any = world.settings.get("rate_limits", {}).get("github")
        if isinstance(setting, dict) and setting:
            world.scratch[_RULES] = {name: parse_rate(value) for name, value in setting.items()}
        else:
            world.scratch[_RULES] = setting is True
    return world.scratch[_RULES]


def over_limit(world: World, operation: str, user: Record) -> GitHubError | None:
    """GitHub's refusal when this call is over a limit the scene turned on (a refused call takes no place
    in a per-operation window)."""
    rules = _rules(world)
    if rules is True:
        used, _ = rate_used(world)
        if used >= LIMIT:
            return GitHubError(
                403,
                f"API rate limit exceeded for user ID {user['id']}.",
                documentation_url="https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
            )
        return None
    rule = rules.get(operation) or rules.get("*") if rules else None
    if rule is None:
        return None
    count, window = rule
    calls = world.scratch.setdefault(_WINDOWS, {}).setdefault(operation, deque())
    now = world.now()
    while calls and calls[0] <= now - window:
        calls.popleft()
    if len(calls) >= count:
        wait = max(1, -(-(calls[0] + window - now) // US))
        return GitHubError(
            403,
            _SECONDARY,
            documentation_url="https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
            headers={"Retry-After": str(wait)},
        )
    calls.append(now)
    return None


def rate_used(world: World) -> tuple[int, int]:
    """Calls counted so far in the current hour of simulated time, and when that hour ends."""
    window = world.now() // 1_000_000 // _HOUR
    return world.scratch.get("github", {}).get(window, 0), (window + 1) * _HOUR


def rate_headers(world: World) -> dict[str, str]:
    """Counts a call and answers GitHub's `X-RateLimit-*` headers for it."""
    window = world.now() // 1_000_000 // _HOUR
    counts = world.scratch.setdefault("github", {})
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
