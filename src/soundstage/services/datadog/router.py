"""Datadog's handler convention: operations registered as `"METHOD /api/v1/monitor/{monitor_id}"` on
`ops`, each called with a `Call`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...world import Principal, World
from ..base import Operations, ServiceRequest
from ..routing import Router
from .errors import DatadogError

ops = Operations("datadog")


def router() -> Router:
    return Router(ops.names())


@dataclass
class Call:
    """One call as a handler sees it: the world, whom the keys speak for, the request, the path
    parameters, and the JSON body (None when there is none)."""

    world: World
    principal: Principal
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
            raise DatadogError(400, "Invalid JSON body: expected an object")
        return self.body

    def now(self) -> int:
        return self.world.now()
