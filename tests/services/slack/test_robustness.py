"""Bad input of every shape to every method: always Slack's own error or a success, never a server fault."""

from __future__ import annotations

import json

import pytest

from soundstage.services.slack import service

from .conftest import valid_calls

COMMON = ("limit", "cursor", "oldest", "latest", "inclusive", "types", "users", "thread_ts", "blocks")
VALUES = (None, True, -1, 1e300, "", "x" * 5000, "\u0000#", "1.5", ["a", 1], {"a": [1]})


def _post(slack, method, args, token="bot"):
    return slack.raw(
        method, token=token, content=json.dumps(args), headers={"Content-Type": "application/json; charset=utf-8"}
    )


@pytest.mark.parametrize("method", service.operations())
def test_no_server_fault(slack, method):
    bases = [args for name, args in valid_calls(slack) if name == method] or [{}]
    for base in bases:
        for name in [*base, *COMMON]:
            for value in VALUES:
                for token in ("bot", "user"):
                    response = _post(slack, method, {**base, name: value}, token)
                    assert response.status_code == 200, (name, value, response.text)
                    assert response.json().get("error") != "fatal_error", (name, value, response.text)


@pytest.mark.parametrize("http", ["GET", "POST"])
def test_a_cursor_outside_ascii_is_an_invalid_cursor(slack, http):
    """`cursor=é` is no base64 at all: base64 raised a ValueError of its own, and the call was a fatal_error."""
    args = {"params": {"cursor": "é"}} if http == "GET" else {"data": {"cursor": "é"}}
    body = slack.raw("users.list", http=http, **args).json()
    assert (body["ok"], body["error"]) == (False, "invalid_cursor")
