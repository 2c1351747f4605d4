"""One checker of response bodies against an official API description (tests/specs), Swagger 2 or
OpenAPI 3: the keys a schema marks required, JSON types (a list of them too), `nullable` and the `null`
type, enums, string patterns, `allOf`/`oneOf`/`anyOf` (and Slack's way of spelling a choice as a list of
`items`), recursively through any `$ref`. Keys a description does not list are allowed: the vendors add
fields faster than they describe them."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

# Cuts of the vendors' descriptions, made by scripts/cut_specs.py (see tests/specs/SOURCES.md).
SPECS = Path(__file__).resolve().parent / "specs"
# Each service's cuts; Datadog describes its API in one file per version.
CUTS = {
    "slack": ["slack_web_openapi_v2.json"],
    "github": ["github_api.github.com.json"],
    "datadog": ["datadog_v1_openapi.json", "datadog_v2_openapi.json"],
    "pagerduty": ["pagerduty_rest_openapiv3.json"],
    "calendar": ["calendar.v3.json"],
    "gmail": ["gmail.v1.json"],
}

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
    "null": (type(None),),
}


@cache
def load(name: str) -> dict[str, Any]:
    """A description in tests/specs by file name (`pagerduty_rest_openapiv3.json`)."""
    return json.loads((SPECS / name).read_text())


class Description:
    def __init__(self, name: str) -> None:
        self.document = load(name)

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        """Follows `$ref`s (JSON pointers into the document, `#/components/schemas/Tag/allOf/0`)."""
        while "$ref" in schema:
            node: Any = self.document
            for part in schema["$ref"].lstrip("#/").split("/"):
                part = part.replace("~1", "/").replace("~0", "~")  # JSON pointer escapes (`application~1json`)
                node = node[int(part)] if isinstance(node, list) else node[part]
            schema = node
        return schema

    def problems(self, value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
        """What is wrong with `value` as `schema` describes it; [] when nothing is."""
        schema = self.resolve(schema)
        choice = schema.get("items") if isinstance(schema.get("items"), list) else None
        if choice is not None and schema.get("type") != "array":  # Slack's spec spells anyOf as a list of items
            tries = [self.problems(value, option, where) for option in choice]
            return [] if any(not t for t in tries) else min(tries, key=len)
        if value is None:
            kinds = schema.get("type")
            allowed = schema.get("nullable") or not schema or "null" in (kinds if isinstance(kinds, list) else [kinds])
            return [] if allowed else [f"{where}: null where not nullable"]
        found: list[str] = []
        for part in schema.get("allOf", []):
            found += self.problems(value, part, where)
        for key in ("oneOf", "anyOf"):
            if key in schema:
                tries = [self.problems(value, option, where) for option in schema[key]]
                if all(tries):
                    found += min(tries, key=len)
        kinds = schema.get("type")
        if kinds is not None:
            kinds = kinds if isinstance(kinds, list) else [kinds]
            expected = tuple(t for kind in kinds for t in _TYPES[kind])
            if not isinstance(value, expected) or (isinstance(value, bool) and bool not in expected):
                shown = kinds[0] if len(kinds) == 1 else kinds
                return [*found, f"{where}: expected {shown}, found {value!r}"]
        if "enum" in schema and value not in schema["enum"]:
            return [*found, f"{where}: {value!r} not in {schema['enum']}"]
        if isinstance(value, str) and "pattern" in schema and not re.search(schema["pattern"], value):
            return [*found, f"{where}: {value!r} does not match {schema['pattern']}"]
        if isinstance(value, dict):
            found += [f"{where}: missing {key}" for key in schema.get("required", []) if key not in value]
            for key, sub in schema.get("properties", {}).items():
                if key in value:
                    found += self.problems(value[key], sub, f"{where}.{key}")
        if isinstance(value, list) and isinstance(schema.get("items"), dict):
            for i, item in enumerate(value):
                found += self.problems(item, schema["items"], f"{where}[{i}]")
        return found
