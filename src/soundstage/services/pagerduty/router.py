"""PagerDuty's handler convention: operations registered as `"METHOD /incidents/{id}"` on `ops`, each
called with a `Call`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...world import Principal, Record, World
from ..base import Operations, ServiceRequest
from ..routing import Router
from .errors import invalid

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
