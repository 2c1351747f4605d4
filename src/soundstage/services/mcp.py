"""MCP tools: a vendor MCP server's tools, each bound to the REST operation it stands for.

A service's tools live in its own package: the facts of the vendors' servers (tool names, input schemas,
where they come from and under which license) in `mcp_tools.yaml`, descriptions in soundstage's words,
and in `mcp_tools.py` one function per tool, registered with `@tools("name", operation)`, that turns the
tool's arguments into the REST call (`RestCall`) the server then runs as any other call: the same handler,
rate limits, api faults, people and log. The service names its registry as `Service.tools`. The facts
file also names the source's tools soundstage leaves out (`omitted`), and a tool's left-out parameters
(`omitted_parameters`), each with why; docs/mcp.md lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import yaml

from ..world import Principal, World

# What a tool's arguments may name in a path: a value of the schema's scalar types.
_SCALARS = (str, int, float)


@dataclass(frozen=True)
class RestCall:
    """The REST call a tool call stands for: its method, its path under the service's base (segments
    quoted), its query parameters and its JSON body."""

    method: str
    path: str
    query: Mapping[str, Any] = field(default_factory=dict)
    body: Any = None


@dataclass(frozen=True)
class Tool:
    """One tool: what `tools/list` shows of it, the REST operation behind it (its registered name), how its
    arguments become that call, and which of the agent's credentials it takes on the endpoint that serves
    every service (`credential`, an environment variable's name; None: the registry's own)."""

    service: str
    name: str
    description: str
    input_schema: Mapping[str, Any]
    operation: str
    call: Callable[[dict[str, Any]], RestCall]
    credential: str | None = None

    @property
    def qualified(self) -> str:
        """`github/create_issue`: how a trace check names it (`mcp:github/create_issue`)."""
        return f"{self.service}/{self.name}"


Headers = Callable[[Mapping[str, str], Tool], dict[str, str]]
# Headers the vendor's MCP server sends for whoever its credential speaks for (PagerDuty's `From`).
CallerHeaders = Callable[[World, Principal], dict[str, str]]


def bearer(default: str) -> Headers:
    """Credentials as `Authorization: Bearer`, from the agent's environment variable the tool names, else
    `default`."""

    def headers(env: Mapping[str, str], tool: Tool) -> dict[str, str]:
        return {"authorization": f"Bearer {env[tool.credential or default]}"}

    return headers


def env_headers(templates: Mapping[str, str]) -> Headers:
    """Credentials as the REST API takes them, each header's value a template of the agent's environment
    variables (`{"dd-api-key": "{DD_API_KEY}"}`); a variable the world did not hand raises KeyError."""

    def headers(env: Mapping[str, str], tool: Tool) -> dict[str, str]:
        return {name: template.format_map(env) for name, template in templates.items()}

    return headers


class Tools:
    """One service's tools, in the order its facts file lists them. `headers` gives the credential headers
    a tool's REST call carries on the endpoint that serves every service, from the agent's environment;
    `caller`, the headers every tool's REST call carries on either endpoint for the principal its credential
    speaks for, as the vendor's server sends them (they replace any the request came with)."""

    def __init__(self, service: str, facts: Path, headers: Headers, caller: CallerHeaders | None = None) -> None:
        self.service = service
        self.headers = headers
        self.caller = caller
        document = yaml.safe_load(facts.read_text(encoding="utf-8"))
        self.sources: dict[str, dict[str, str]] = document["sources"]
        self.facts: dict[str, dict[str, Any]] = document["tools"]
        # The source's tools left out, by name: {source, why}.
        self.omitted: dict[str, dict[str, str]] = document.get("omitted", {})
        self._tools: dict[str, Tool] = {}

    def __call__(
        self, name: str, operation: str, credential: str | None = None
    ) -> Callable[[Callable[[dict[str, Any]], RestCall]], Callable[[dict[str, Any]], RestCall]]:
        facts = self.facts.get(name)
        if facts is None:
            raise ValueError(f"{self.service} tool {name} is not in its facts file")
        if name in self._tools:
            raise ValueError(f"{self.service} tool {name} registered twice")

        def register(call: Callable[[dict[str, Any]], RestCall]) -> Callable[[dict[str, Any]], RestCall]:
            schema = {
                "type": "object",
                "properties": facts.get("properties", {}),
                **({"required": facts["required"]} if facts.get("required") else {}),
            }
            self._tools[name] = Tool(
                self.service, name, " ".join(facts["description"].split()), schema, operation, call, credential
            )
            return call

        return register

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def all(self) -> list[Tool]:
        """The registered tools, in the facts file's order."""
        return [self._tools[name] for name in self.facts if name in self._tools]

    def source(self, name: str) -> dict[str, str]:
        """Where a tool's facts come from: its source's `url`, `version` and `license`."""
        return self.sources[self.facts[name]["source"]]


def path(template: str, arguments: Mapping[str, Any], tail: str | None = None) -> str:
    """`template` with each `{name}` replaced by that argument, quoted as one path segment; the argument
    named `tail` may span segments (a file's path), its slashes kept."""
    out = template
    for name in _names(template):
        value = arguments[name]
        if isinstance(value, bool) or not isinstance(value, _SCALARS):
            raise TypeError(f"{name} must be a string or a number")
        text = str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
        out = out.replace(
            "{" + name + "}", quote(text.strip("/") if name == tail else text, safe="/" if name == tail else "")
        )
    return out


def _names(template: str) -> list[str]:
    return [part.partition("}")[0] for part in template.split("{")[1:]]


def picked(arguments: Mapping[str, Any], renames: Mapping[str, str]) -> dict[str, Any]:
    """The arguments given among `renames`' keys, each under the REST name it maps to."""
    return {rest: arguments[name] for name, rest in renames.items() if name in arguments}
