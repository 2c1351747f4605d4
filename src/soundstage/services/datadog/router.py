"""Datadog's handler convention: operations registered as `"METHOD /api/v1/monitor/{monitor_id}"` on
`ops`, each called with a `Call`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import overload

from ...world import Principal
from ..base import Operations
from ..rest import RestCall
from .errors import DatadogError

ops = Operations("datadog")


@dataclass
class Call(RestCall):
    """A Datadog call: also whom the keys speak for."""

    principal: Principal

    def not_an_object(self) -> DatadogError:
        return DatadogError(400, "Invalid JSON body: expected an object")

    def text(self, name: str) -> str | None:
        """A query parameter as a string (the last one when repeated), None when absent."""
        value = self.query.get(name)
        if isinstance(value, list):
            value = value[-1]
        return value

    @overload
    def integer(self, name: str, default: int, minimum: int | None = None) -> int: ...

    @overload
    def integer(self, name: str, default: None = None, minimum: int | None = None) -> int | None: ...

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
