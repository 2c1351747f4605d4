"""A small checker of response bodies against PagerDuty's OpenAPI v3 description (../shared/specs): the
keys a schema marks required, JSON types, `nullable`, enums, `allOf`/`oneOf`/`anyOf`, recursively.
Keys the description does not list are allowed (PagerDuty adds fields)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from tests.conftest import SPECS

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
}


@lru_cache(maxsize=1)
def spec() -> dict[str, Any]:
    return json.loads((SPECS / "pagerduty_rest_openapiv3.json").read_text())


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        node: Any = spec()
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[int(part)] if isinstance(node, list) else node[part]
        schema = node
    return schema


def response_schema(method: str, path: str, status: int = 200) -> dict[str, Any]:
    """The JSON schema of an operation's response (`GET`, `/users/{id}`)."""
    response = _resolve(spec()["paths"][path][method.lower()]["responses"][str(status)])
    return response["content"]["application/json"]["schema"]


def problems(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    schema = _resolve(schema)
    if value is None:
        return [] if schema.get("nullable") or not schema else [f"{where}: null where not nullable"]
    found: list[str] = []
    for part in schema.get("allOf", []):
        found += problems(value, part, where)
    for key in ("oneOf", "anyOf"):
        if key in schema:
            tries = [problems(value, option, where) for option in schema[key]]
            if all(tries):
                found += min(tries, key=len)
    kind = schema.get("type")
    if kind is not None:
        expected = _TYPES[kind]
        if not isinstance(value, expected) or (isinstance(value, bool) and bool not in expected):
            return [*found, f"{where}: expected {kind}, found {value!r}"]
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r} not in {schema['enum']}")
    if isinstance(value, dict):
        found += [f"{where}: missing {key}" for key in schema.get("required", []) if key not in value]
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                found += problems(value[key], sub, f"{where}.{key}")
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            found += problems(item, schema["items"], f"{where}[{i}]")
    return found
