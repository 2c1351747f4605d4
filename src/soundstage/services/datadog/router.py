"""Datadog's handler convention: operations registered as `"METHOD /api/v1/monitor/{monitor_id}"` on
`ops`, each called with a `Call`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...world import Principal, World
from ..base import Operations, ServiceRequest
from .errors import DatadogError

ops = Operations("datadog")


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

    def text(self, name: str) -> str | None:
        """A query parameter as a string (the last one when repeated), None when absent."""
        value = self.query.get(name)
        if isinstance(value, list):
            value = value[-1]
        return value

    def integer(self, name: str, default: int | None = None, minimum: int | None = None) -> int | None:
        """A query parameter as an int; anything else (or below `minimum`) is Datadog's 400."""
        value = self.text(name)
        if value is None or value == "":
            return default
        try:
            number = int(value)
        except ValueError:
            raise invalid(name) from None
        if minimum is not None and number < minimum:
            raise invalid(name)
        return number

    def boolean(self, name: str, default: bool = False) -> bool:
        """A query parameter as `true`/`false` (any case); anything else is Datadog's 400."""
        value = self.text(name)
        if value is None or value == "":
            return default
        if value.lower() not in ("true", "false"):
            raise invalid(name)
        return value.lower() == "true"


def invalid(name: str) -> DatadogError:
    """Datadog's 400 for a parameter it cannot read."""
    return DatadogError(400, f"The value provided for parameter '{name}' is invalid")
