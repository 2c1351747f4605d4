"""Every success body against the official Slack OpenAPI description (../shared/specs): the keys it marks
required, JSON types, enums and id patterns, recursively. Keys the 2021 description does not know are
allowed (Slack has added fields since), so `additionalProperties` is not enforced."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from .conftest import valid_calls

SPEC = Path(__file__).resolve().parents[3].parent / "shared" / "specs" / "slack_web_openapi_v2.json"
_TYPES = {
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "object": dict,
    "array": list,
    "null": type(None),
}


@lru_cache(maxsize=1)
def spec() -> dict[str, Any]:
    return json.loads(SPEC.read_text())


def problems(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    if "$ref" in schema:
        return problems(value, spec()["definitions"][schema["$ref"].rsplit("/", 1)[-1]], where)
    variants = schema.get("items") if isinstance(schema.get("items"), list) else None
    if variants is not None and schema.get("type") != "array":  # Slack's spec spells anyOf as a list of items
        found = [problems(value, v, where) for v in variants]
        return [] if any(not f for f in found) else min(found, key=len)
    kinds = schema.get("type")
    if kinds is not None:
        kinds = kinds if isinstance(kinds, list) else [kinds]
        expected = tuple(t for k in kinds for t in (_TYPES[k] if isinstance(_TYPES[k], tuple) else (_TYPES[k],)))
        if not isinstance(value, expected) or (isinstance(value, bool) and bool not in expected):
            return [f"{where}: expected {kinds}, found {value!r}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where}: {value!r} not in {schema['enum']}"]
    if isinstance(value, str) and "pattern" in schema and not re.search(schema["pattern"], value):
        return [f"{where}: {value!r} does not match {schema['pattern']}"]
    found: list[str] = []
    if isinstance(value, dict):
        found += [f"{where}: missing {key}" for key in schema.get("required", []) if key not in value]
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                found += problems(value[key], sub, f"{where}.{key}")
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            found += problems(item, schema["items"], f"{where}[{i}]")
    return found


def assert_valid(method: str, body: dict[str, Any]) -> None:
    operation = next(iter(spec()["paths"][f"/{method}"].values()))
    assert problems(body, operation["responses"]["200"]["schema"]) == []


def test_the_checker_catches_problems():
    schema = {"$ref": "#/definitions/objs_message"}
    assert problems({"type": "message", "text": "x", "ts": "1.2"}, schema) == [
        "$.ts: '1.2' does not match ^\\d{10}\\.\\d{6}$"
    ]
    assert problems({"type": "message", "text": 5}, schema) == ["$: missing ts", "$.text: expected ['string'], found 5"]


def test_every_success_body_follows_the_schema(slack):
    for method, args in valid_calls(slack):
        body = slack.call(method, **args)
        assert body["ok"] is True, (method, body)
        assert_valid(method, body)
    search = slack.call("search.messages", token="user", query="export")
    assert_valid("search.messages", search)


@pytest.mark.parametrize("method", ["conversations.history", "chat.postMessage", "users.info"])
def test_error_bodies_follow_the_schema(slack, method):
    body = slack.call(method)
    operation = next(iter(spec()["paths"][f"/{method}"].values()))
    schema = operation["responses"]["default"]["schema"]
    assert problems(body, schema) == []
