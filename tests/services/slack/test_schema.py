"""Every success body against the official Slack OpenAPI description (tests/specs): the keys it marks
required, JSON types, enums and id patterns, recursively. Keys the 2021 description does not know are
allowed (Slack has added fields since), so `additionalProperties` is not enforced."""

from __future__ import annotations

from typing import Any

import pytest
from tests.schema import Description

from .conftest import valid_calls

SLACK = Description("slack_web_openapi_v2.json")


# The description types chat.update's `message.blocks` as an object; Slack answers an array of blocks, as
# objs_message has it (and as chat.postMessage's answer does).
DESCRIPTION_MISTAKES = {"chat.update": "$.message.blocks: expected object, found ["}


def assert_valid(method: str, body: dict[str, Any]) -> None:
    operation = next(iter(SLACK.document["paths"][f"/{method}"].values()))
    problems = SLACK.problems(body, operation["responses"]["200"]["schema"])
    mistake = DESCRIPTION_MISTAKES.get(method)
    assert [p for p in problems if not (mistake and p.startswith(mistake))] == []


def test_the_checker_catches_problems():
    schema = {"$ref": "#/definitions/objs_message"}
    assert SLACK.problems({"type": "message", "text": "x", "ts": "1.2"}, schema) == [
        "$.ts: '1.2' does not match ^\\d{10}\\.\\d{6}$"
    ]
    assert SLACK.problems({"type": "message", "text": 5}, schema) == [
        "$: missing ts",
        "$.text: expected string, found 5",
    ]


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
    operation = next(iter(SLACK.document["paths"][f"/{method}"].values()))
    schema = operation["responses"]["default"]["schema"]
    assert SLACK.problems(body, schema) == []
