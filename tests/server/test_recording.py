"""The recording layer: a call that fails on the server's side (a handler bug, or an answer that cannot be
encoded) is undone, answered with the vendor's 500, and still logged."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from soundstage.services.datadog.calls import ops
from soundstage.services.datadog.store import EVENTS

SCENE = """
name: recording-test
task: t
clock: {start: "2026-03-02T14:00:00Z"}
seed:
  datadog:
    users: [{email: stagebot@acme.test}]
"""
OPERATION = "GET /api/v1/validate"


def _writes_then(answer: Any) -> Any:
    def handler(call: Any) -> Any:
        call.world[EVENTS].add("1", {"id": 1, "title": "half-written"})
        if isinstance(answer, Exception):
            raise answer
        return answer

    return handler


@pytest.mark.parametrize(
    "answer",
    [RuntimeError("a handler bug"), {"valid": 2**70}],  # orjson cannot encode an int beyond 64 bits
    ids=["raises", "cannot-be-encoded"],
)
def test_a_failed_call_is_undone_answered_as_the_vendor_and_logged(stage, monkeypatch, answer):
    live = stage.world(SCENE)
    monkeypatch.setitem(ops.handlers, OPERATION, _writes_then(answer))
    response = httpx.get(
        f"{live.env['DATADOG_API_URL']}/api/v1/validate", headers={"DD-API-KEY": live.env["DD_API_KEY"]}
    )
    assert (response.status_code, response.json()) == (500, {"errors": ["Internal Server Error"]})
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    assert live.state()[EVENTS] == []
    (call,) = live.trace()
    assert (call["operation"], call["status"], call["error"]) == (OPERATION, 500, True)
    assert [e["kind"] for e in live.events()].count("write") == 0
