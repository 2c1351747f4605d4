"""How Google's APIs read a request: the `Call` a handler of either Google service gets (whose account the token
speaks for), query parameters by their types, and their 400s."""

from __future__ import annotations

from dataclasses import dataclass

from ...world import Principal
from ..rest import RestCall
from .errors import GoogleError, parse_error


@dataclass
class GoogleCall(RestCall):
    """A call to a Google API: also the principal, whose `user` is the account's email address."""

    principal: Principal

    @property
    def me(self) -> str:
        """The address of the account the token speaks for."""
        return self.principal.user

    def not_an_object(self) -> GoogleError:
        return parse_error()

    def text(self, name: str) -> str | None:
        """A query parameter given once (Google reads the first of several)."""
        value = self.query.get(name)
        return value[0] if isinstance(value, list) else value

    def integer(self, name: str, default: int, minimum: int, maximum: int) -> int:
        """An integer parameter: its default when absent, at most `maximum` (Google caps a larger one), Google's
        400 for one that is no integer or below `minimum`."""
        value = self.text(name)
        if value is None:
            return default
        digits = value.removeprefix("-")
        if not (digits.isascii() and digits.isdigit()):
            raise GoogleError(
                400,
                "invalidParameter",
                f"Invalid value '{value}'. Values must match the following regular expression: '-?\\d+'",
                name,
            )
        number = int(value)
        if number < minimum:
            raise GoogleError(400, "invalid", "Invalid Value", name)
        return min(number, maximum)

    def boolean(self, name: str) -> bool:
        """`true` or `false` (any case); Google's 400 for anything else."""
        value = self.text(name)
        if value is None:
            return False
        if value.lower() not in ("true", "false"):
            raise GoogleError(400, "invalidBoolean", f"Invalid boolean value: '{value}'.", name)
        return value.lower() == "true"
