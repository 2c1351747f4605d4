"""Request bodies as every service reads them: JSON nested deeper than `MAX_JSON_DEPTH` is refused as a body
that cannot be parsed, however deep, and whatever is accepted can be serialised wherever it is recorded."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

import orjson
import pytest

from soundstage.events import CallEvent
from soundstage.services import SERVICES
from soundstage.services.base import (
    MAX_JSON_DEPTH,
    BodyError,
    ServiceRequest,
    TooDeep,
    loads_json,
    parse_body,
    parse_query,
)


def nested(depth: int, inner: str = "1") -> str:
    """`depth` arrays and objects, alternating, around `inner`."""
    opening = "".join('{"a":' if level % 2 else "[" for level in range(depth))
    closing = "".join("}" if level % 2 else "]" for level in reversed(range(depth)))
    return opening + inner + closing


def request(body: bytes, content_type: str = "application/json") -> ServiceRequest:
    headers = {"content-type": content_type} if content_type else {}
    return ServiceRequest("POST", "/x", {}, headers, body)


def depth_of(value: Any) -> int:
    depth = 0
    while isinstance(value, (list, dict)):
        value = value[0] if isinstance(value, list) else value["a"]
        depth += 1
    return depth


def test_the_deepest_body_allowed_parses_and_serialises() -> None:
    value = loads_json(nested(MAX_JSON_DEPTH))
    assert depth_of(value) == MAX_JSON_DEPTH
    # Recorded as a call's body inside the event, and echoed inside a reply's envelope: both still encode.
    event = CallEvent(
        seq=1,
        t="2026-03-02T14:00:00Z",
        service="s",
        method="POST",
        path="/x",
        body=value,
        status=200,
        response={"echo": value},
    )
    assert depth_of(orjson.loads(event.model_dump_json())["body"]) == MAX_JSON_DEPTH
    assert depth_of(orjson.loads(orjson.dumps({"a": {"b": {"c": value}}}))["a"]["b"]["c"]) == MAX_JSON_DEPTH


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 300, 100_000])
def test_a_deeper_body_is_too_deep(depth: int) -> None:
    # 300 parses with json but orjson could not dump it; 100,000 makes json.loads raise RecursionError.
    with pytest.raises(TooDeep, match=f"nested more than {MAX_JSON_DEPTH} levels deep"):
        loads_json(nested(depth).encode())
    with pytest.raises(TooDeep):
        loads_json(nested(depth))


@pytest.mark.parametrize("content_type", ["application/json", "application/vnd.api+json", ""])
def test_parse_body_answers_a_deep_body_as_invalid_json(content_type: str) -> None:
    with pytest.raises(BodyError) as raised:
        parse_body(request(nested(100_000).encode(), content_type))
    assert raised.value.code == "invalid_json"
    assert str(raised.value) == f"body is not valid JSON: nested more than {MAX_JSON_DEPTH} levels deep"


def test_wide_bodies_with_many_brackets_are_not_deep() -> None:
    body = "[" + ",".join(["[[1]]"] * 5000) + "]"
    assert len(loads_json(body)) == 5000
    assert parse_body(request(body.encode())) == [[[1]]] * 5000


def test_a_deep_form_body_is_plain_text() -> None:
    # Form fields do not nest: the brackets stay in the value.
    value = nested(100_000)
    assert parse_body(request(b"q=" + value.encode(), "application/x-www-form-urlencoded")) == {"q": value}


@pytest.mark.parametrize(
    ("service", "operation"),
    [(name, operation) for name, service in SERVICES.items() for operation in getattr(service, "unimplemented", ())],
)
def test_a_vendor_operation_soundstage_lacks_is_never_taken_for_another(service: str, operation: str) -> None:
    """`GET /api/v1/monitor/can_delete` would bind `monitor_id=can_delete`: it is answered as unimplemented."""
    method, _, template = operation.partition(" ")
    path = template.replace("{owner}", "acme").replace("{repo}", "orders").replace("{branch}", "main")
    path = path.replace("{commit_sha}", "a" * 40).replace("{ref}", "a" * 40)
    rest = SERVICES[service]
    assert rest.router.match(method, path) is not None  # a template of an implemented operation would take it
    request = ServiceRequest(method, path, {}, {}, b"")
    assert rest.operation(request) is None  # handle() routes the same way: the vendor's 404, unimplemented


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "channel=C1&text=Deploy+of+orders+1.4.1+is+done%3B+ok.",
        "a=1&a=2&a=3&b",
        "=x&&c=%zz&d=%E2%82%AC+&e=%FF",
        "a=b=c;d=e&statuses%5B%5D=x&statuses[]=y",
        "plus+name=x&empty=&&",
        "half=%E2%82&lead=%E2abc&cut=%F0%9F%98&caf%C3%A9=caf\u00e9%20%E9&lone=%ED%A0%80",  # bad UTF-8, non-ASCII
    ],
)
def test_parse_query_reads_what_parse_qsl_reads(raw: str) -> None:
    expected: dict[str, Any] = {}
    for name, value in parse_qsl(raw, keep_blank_values=True):
        if name not in expected:
            expected[name] = value
        elif isinstance(expected[name], list):
            expected[name].append(value)
        else:
            expected[name] = [expected[name], value]
    assert parse_query(raw) == expected
