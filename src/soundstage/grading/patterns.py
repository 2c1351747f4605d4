"""Trace patterns: `"<METHOD> <PATH>"`, optionally `service:` first, compiled once into a regex.

The method is compared without case and `*` accepts any; `*` in the path matches any run of characters,
`/` included; `"*"` alone matches any call. The path is relative to the service base, with no query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, TypeVar

V = TypeVar("V")

_SYNTAX = re.compile(r"^(?:(?P<service>[a-z][a-z0-9_-]*):)?(?P<method>\*|[A-Za-z]+)(?:\s+(?P<path>\S+))?$")
_HELP = (
    "a call pattern is '<METHOD> <PATH>' such as 'POST /api/chat.postMessage' or 'GET /repos/*/issues', "
    "optionally after a service ('github:POST /repos/*'), or '*' for any call"
)


@dataclass(frozen=True)
class CallPattern:
    text: str
    service: str | None
    method: str | None  # upper case; None accepts any
    path: re.Pattern[str] | None = field(compare=False)  # None accepts any
    literal: str | None = None  # the path when it has no `*`: found by lookup, not by regex

    @classmethod
    def parse(cls, text: Any) -> CallPattern:
        if isinstance(text, CallPattern):
            return text
        if not isinstance(text, str):  # ValueError: what pydantic reports as the field's error
            raise ValueError(f"{_HELP}; got {text!r}")  # noqa: TRY004
        match = _SYNTAX.match(text.strip())
        if not match:
            raise ValueError(f"{_HELP}; got {text!r}")
        method, path = match["method"], match["path"]
        if path is None and method != "*":
            raise ValueError(f"{_HELP}; {text!r} has no path")
        if path is not None and path != "*" and not path.startswith("/"):
            raise ValueError(f"{_HELP}; the path of {text!r} must start with '/'")
        regex = None
        if path not in (None, "*"):
            regex = re.compile(".*".join(re.escape(piece) for piece in path.split("*")), re.DOTALL)
        return cls(
            text=" ".join(text.split()),
            service=match["service"],
            method=None if method == "*" else method.upper(),
            path=regex,
            literal=path if path is not None and "*" not in path else None,
        )

    def accepts(self, service: str, method: str) -> bool:
        """Whether calls of this service and (upper-case) method can match."""
        return (self.service is None or service == self.service) and (self.method is None or method == self.method)

    def select(self, by_path: dict[str, V]) -> list[V]:
        """The values of the paths this pattern matches, from a mapping of paths."""
        if self.literal is not None:
            return [by_path[self.literal]] if self.literal in by_path else []
        if self.path is None:
            return list(by_path.values())
        return [value for path, value in by_path.items() if self.path.fullmatch(path)]

    def matches(self, service: str, method: str, path: str) -> bool:
        """Whether one call matches."""
        return self.accepts(service, method.upper()) and bool(self.select({path: True}))

    def __str__(self) -> str:
        return self.text
