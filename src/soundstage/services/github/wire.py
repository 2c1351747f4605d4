"""The headers GitHub puts on an answer besides its rate limit, and conditional requests.

Every answer carries GitHub's constant headers (`CONSTANT`: CORS, security policies). Every answer of a
world also carries `X-GitHub-Request-Id` (from the world's id source, so a scene always
gives the same ones), `X-GitHub-Api-Version-Selected` and `X-Accepted-OAuth-Scopes` (what GitHub
answers for that operation, empty where it answers nothing). A successful answer with a body also
carries `Cache-Control`, `Vary` and a weak `ETag` (the SHA-256 of the body, so the same body always has
the same tag), and `Last-Modified` when it is one object with an `updated_at`. A GET whose
`If-None-Match` names that tag, or whose `If-Modified-Since` is not before `Last-Modified`, is answered
304 with no body.
"""

from __future__ import annotations

import hashlib
from datetime import UTC
from email.utils import parsedate_to_datetime
from typing import Any

import orjson

from ...clock import US, http_date, parse_time
from ...world import World
from ..base import Reply, ServiceRequest

DEFAULT_VERSION = "2022-11-28"
CACHE_CONTROL = "private, max-age=60, s-maxage=60"
VARY = "Accept, Authorization, Cookie, X-GitHub-OTP, Accept-Encoding, Accept, X-Requested-With"

# What every answer of GitHub's API carries, whatever it answers (as recorded in PyGithub's replay data).
CONSTANT = {
    "Access-Control-Expose-Headers": (
        "ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, "
        "X-RateLimit-Used, X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, "
        "X-Poll-Interval, X-GitHub-Media-Type, X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset"
    ),
    "Access-Control-Allow-Origin": "*",
    "Strict-Transport-Security": "max-age=31536000; includeSubdomains; preload",
    "X-Frame-Options": "deny",
    "X-Content-Type-Options": "nosniff",
    "X-XSS-Protection": "0",
    "Referrer-Policy": "origin-when-cross-origin, strict-origin-when-cross-origin",
    "Content-Security-Policy": "default-src 'none'",
}

# `X-Accepted-OAuth-Scopes` as GitHub answers it for these operations (PyGithub's and Octokit's recorded
# answers); every other operation answers it empty.
ACCEPTED_SCOPES = {
    "GET /orgs/{org}": "admin:org, read:org, repo, user, write:org",
    "GET /repos/{owner}/{repo}": "repo",
    "GET /repos/{owner}/{repo}/issues": "repo",
    "GET /repos/{owner}/{repo}/issues/{issue_number}": "repo",
    "PUT /repos/{owner}/{repo}/issues/{issue_number}/lock": "public_repo, repo",
    "DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock": "public_repo, repo",
    "GET /repos/{owner}/{repo}/labels": "repo",
    "GET /repos/{owner}/{repo}/commits/{ref}/status": "repo, repo:status",
    "GET /repos/{owner}/{repo}/deployments": "repo, repo_deployment",
    "GET /repos/{owner}/{repo}/deployments/{deployment_id}": "repo, repo_deployment",
    "GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses": "repo, repo_deployment",
    "GET /repos/{owner}/{repo}/releases": "repo",
    "POST /repos/{owner}/{repo}/releases": "repo",
    "GET /repos/{owner}/{repo}/releases/{release_id}": "repo",
    "POST /repos/{owner}/{repo}/git/refs": "repo",
    "GET /repos/{owner}/{repo}/git/matching-refs/{ref}": "repo",
}


def request_id(world: World) -> str:
    """The next `X-GitHub-Request-Id` of a world, shaped like GitHub's: `EB88:1556:436041:46EAA0:64785E28`."""
    digits = world.ids.digest("github:request")[:14].hex().upper()
    return f"{digits[:4]}:{digits[4:8]}:{digits[8:14]}:{digits[14:20]}:{digits[20:28]}"


def version(request: ServiceRequest) -> str:
    return request.headers.get("x-github-api-version") or DEFAULT_VERSION


# Views that caches hand to every answer showing the same records and that nobody changes (`share`), by id, and answers
# made of them (one such view or list of views, or a new list of them), encoded and tagged once: by the shared object's
# id or the tuple of the items' ids. Each entry holds what it is keyed by, so the ids stay theirs; both are bounded
# (emptied when full), the answers by the bytes they keep.
_SHARED_MAX = 8192
_SHARED: dict[int, Any] = {}
_ENCODED_MAX_BYTES = 32 << 20
_ENCODED: dict[int | tuple[int, ...], tuple[Any, bytes, str]] = {}
_encoded_bytes = 0


def share(view: Any) -> Any:
    """Marks a cached view (or a cached list of them) as shared between answers and never changed: it, or a
    list of such views, is encoded and tagged once however often it is answered."""
    if len(_SHARED) >= _SHARED_MAX:
        _SHARED.clear()
    _SHARED[id(view)] = view
    return view


def etag(content: bytes) -> str:
    return f'W/"{hashlib.sha256(content).hexdigest()}"'


def _encoded(body: Any) -> tuple[bytes, str]:
    """The bytes of a JSON body and its tag; for a shared view, a shared list or a list of shared views,
    those of the first time."""
    global _encoded_bytes
    # The very objects answered then (the entry holds them, so no other object has their ids), which no one
    # changes: first the body itself (a shared view or list), then a new list of shared views.
    found = _ENCODED.get(id(body))
    many = type(body) is list and bool(body)
    key: int | tuple[int, ...] = id(body)
    if found is None and many:
        key = tuple(map(id, body))
        found = _ENCODED.get(key)
    if found is not None:
        return found[1], found[2]
    content = body.encode() if isinstance(body, str) else body if isinstance(body, bytes) else orjson.dumps(body)
    tag = etag(content)
    if _SHARED.get(id(body)) is body:
        key = id(body)
    elif not (many and all(_SHARED.get(id(item)) is item for item in body)):
        return content, tag
    if _encoded_bytes + len(content) > _ENCODED_MAX_BYTES:
        _ENCODED.clear()
        _encoded_bytes = 0
    _ENCODED[key] = (body if type(key) is int else tuple(body), content, tag)
    _encoded_bytes += len(content)
    return content, tag


def _last_modified(body: Any) -> int | None:
    """When the object answered last changed (epoch seconds), from its `updated_at`."""
    if not isinstance(body, dict) or not isinstance(body.get("updated_at"), str):
        return None
    try:
        return parse_time(body["updated_at"]) // US
    except ValueError:
        return None


def cache_headers(reply: Reply, anonymous: bool = False) -> dict[str, str]:
    """`Cache-Control` (`public` for an answer to anyone), `Vary`, `ETag` and (where it applies)
    `Last-Modified` of a successful answer. The tag is a hash of the bytes sent, which the reply keeps
    (`encoded`), so they are encoded once."""
    if reply.status >= 300 or reply.body is None:
        return {}
    control = CACHE_CONTROL.replace("private", "public") if anonymous else CACHE_CONTROL
    reply.encoded, tag = _encoded(reply.body)
    headers = {"Cache-Control": control, "Vary": VARY, "ETag": tag}
    modified = _last_modified(reply.body)
    if modified is not None:
        headers["Last-Modified"] = http_date(modified * US)
    return headers


def _tags(value: str) -> set[str]:
    return {tag.strip().removeprefix("W/") for tag in value.split(",") if tag.strip()}


def not_modified(request: ServiceRequest, reply: Reply, headers: dict[str, str]) -> bool:
    """Whether a GET's conditions hold for this answer: `If-None-Match` names its tag (weakly compared, or
    `*`), or, without `If-None-Match`, `If-Modified-Since` is not before its `Last-Modified`."""
    if request.method != "GET" or reply.status != 200 or "ETag" not in headers:
        return False
    match = request.headers.get("if-none-match")
    if match is not None:
        tags = _tags(match)
        return "*" in tags or headers["ETag"].removeprefix("W/") in tags
    since = request.headers.get("if-modified-since")
    if since is None or "Last-Modified" not in headers:
        return False
    try:
        asked = parsedate_to_datetime(since)
    except (TypeError, ValueError):
        return False
    if asked.tzinfo is None:  # `-0000`: UTC all the same
        asked = asked.replace(tzinfo=UTC)
    return parsedate_to_datetime(headers["Last-Modified"]) <= asked
