"""Trace patterns: `"<METHOD> <PATH>"`, optionally `service:` first, compiled once into a regex; or
`mcp:<service>/<tool>`, the calls made through that MCP tool.

The method is compared without case and `*` accepts any; `*` in the path matches any run of characters,
`/` included; `"*"` alone matches any call. The path is relative to the service base, with no query. A REST
pattern matches a tool's call too, by the REST call it stood for; `*` in a tool's name matches any run of
characters (`mcp:slack/*`: every Slack tool).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, TypeVar

V = TypeVar("V")

_SYNTAX = re.compile(r"^(?:(?P<service>[a-z][a-z0-9_-]*):)?(?P<method>\*|[A-Za-z]+)(?:\s+(?P<path>\S+))?$")
_TOOL = re.compile(r"^mcp:(?P<service>[a-z][a-z0-9_-]*)/(?P<tool>[A-Za-z0-9_.*-]+)$")
_HELP = (
    "a call pattern is '<METHOD> <PATH>' such as 'POST /api/chat.postMessage' or 'GET /repos/*/issues', "
    "optionally after a service ('github:POST /repos/*'), 'mcp:<service>/<tool>' for an MCP tool's calls "
    "('mcp:github/create_issue'), or '*' for any call"
)


@dataclass(frozen=True)
class CallPattern:
    text: str
    service: str | None
    method: str | None  # upper case; None accepts any
    path: re.Pattern[str] | None = field(compare=False)  # None accepts any
    literal: str | None = None  # the path when it has no `*`: found by lookup, not by regex
    tool: re.Pattern[str] | None = field(default=None, compare=False)  # an MCP tool's name; None: REST

    @classmethod
    def parse(cls, text: Any) -> CallPattern:
        if isinstance(text, CallPattern):
            return text
        if not isinstance(text, str):  # ValueError: what pydantic reports as the field's error
            raise ValueError(f"{_HELP}; got {text!r}")  # noqa: TRY004
        tool = _TOOL.match(text.strip())
        if tool:
            name = re.compile(".*".join(re.escape(piece) for piece in tool["tool"].split("*")), re.DOTALL)
            return cls(text=text.strip(), service=tool["service"], method=None, path=None, tool=name)
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
        """Whether one REST call matches (a tool's pattern matches none)."""
        return self.tool is None and self.accepts(service, method.upper()) and bool(self.select({path: True}))

    def names_tool(self, service: str, mcp: dict[str, Any] | None) -> bool:
        """Whether a call made through the MCP tool `mcp` names (`{tool, ...}`, None: a REST call) matches this
        tool's pattern."""
        return (
            self.tool is not None
            and mcp is not None
            and service == self.service
            and bool(self.tool.fullmatch(str(mcp.get("tool", ""))))
        )

    def matches_call(self, service: str, method: str, path: str, mcp: dict[str, Any] | None) -> bool:
        """Whether a logged call matches: by its tool for a tool's pattern, else by its REST call."""
        return self.names_tool(service, mcp) if self.tool is not None else self.matches(service, method, path)

    def __str__(self) -> str:
        return self.text
