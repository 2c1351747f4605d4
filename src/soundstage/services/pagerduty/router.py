"""PagerDuty's handler convention: operations registered as `"METHOD /incidents/{id}"` on `ops`, each
called with a `Call`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...world import Principal, Record, World
from ..base import Operations, ServiceRequest
from ..routing import Router
from .errors import invalid
from .store import USERS

ops = Operations("pagerduty")


def router() -> Router:
    return Router(ops.names())


@dataclass
class Call:
    """One call as a handler sees it: the world, whom the token speaks for (and that user's record, None
    for an account-level key), the request, the path parameters, and the JSON body (None when none)."""

    world: World
    principal: Principal
    user: Record | None
    request: ServiceRequest
    params: dict[str, str]
    body: Any

    @property
    def query(self) -> dict[str, Any]:
        return self.request.query

    @property
    def fields(self) -> dict[str, Any]:
        """The JSON body as an object (an empty one when there is none); anything else is a 400."""
        if self.body is None:
            return {}
        if not isinstance(self.body, dict):
            raise invalid("The request body must be a JSON object.")
        return self.body

    @property
    def base(self) -> str:
        """The absolute API root of this request, for `self` URLs."""
        return self.request.base_url

    def now(self) -> int:
        return self.world.now()


def requester(call: Call) -> Record:
    """The user named by the `From` header, which PagerDuty requires on the writes that act as a user."""
    email = call.request.headers.get("from", "").strip()
    if not email:
        raise invalid("You must specify a user's email address in the \"From\" header to perform this action.")
    found = call.world[USERS].by("email", email)
    if not found:
        raise invalid(f"The user with email '{email}' in the \"From\" header was not found.")
    return found[0]


def page_args(call: Call) -> tuple[int, int]:
    """`offset` (default 0) and `limit` (default 25, at most 100); PagerDuty answers 400 for junk."""
    return _number(call, "offset", 0), min(_number(call, "limit", 25), 100) or 25


def _number(call: Call, name: str, default: int) -> int:
    value = call.query.get(name)
    if value is None or value == "":
        return default
    if isinstance(value, list) or not value.isdigit():
        raise invalid(f"{name} must be a non-negative integer.")
    return int(value)


def paginate(call: Call, key: str, items: list[Any], view: Callable[[Any], Any] | None = None) -> dict[str, Any]:
    """One page of `items` (rendered by `view`) under `key`, with `limit`, `offset`, `more` and `total`
    (null unless the request says `total=true`), PagerDuty's classic offset paging."""
    offset, limit = page_args(call)
    chunk = items[offset : offset + limit]
    return {
        key: [view(item) for item in chunk] if view else chunk,
        "limit": limit,
        "offset": offset,
        "more": offset + limit < len(items),
        "total": len(items) if call.query.get("total") == "true" else None,
    }
