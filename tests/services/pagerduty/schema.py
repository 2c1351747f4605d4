"""PagerDuty's OpenAPI v3 description (tests/specs) and the shared checker (tests/schema.py) over it.
Keys the description does not list are allowed (PagerDuty adds fields)."""

from __future__ import annotations

from typing import Any

from tests.schema import Description

PAGERDUTY = Description("pagerduty_rest_openapiv3.json")


def response_schema(method: str, path: str, status: int = 200) -> dict[str, Any]:
    """The JSON schema of an operation's response (`GET`, `/users/{id}`)."""
    response = PAGERDUTY.resolve(PAGERDUTY.document["paths"][path][method.lower()]["responses"][str(status)])
    return response["content"]["application/json"]["schema"]


def problems(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    return PAGERDUTY.problems(value, schema, where)
