"""The recording layer: a call that fails on the server's side (a handler bug, or an answer that cannot be
encoded) is undone, answered with the vendor's 500, and still logged."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from soundstage.server import recording
from soundstage.services import SERVICES
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


def test_a_failure_while_building_the_vendors_error_is_still_logged_once(stage, monkeypatch):
    """The 100k-deep body: the handler failed, then so did the error answer; the call was dropped from the
    log and the undo journal left open, so later timed writes went unlogged."""
    live = stage.world(SCENE)
    datadog = SERVICES["datadog"]
    real = datadog.internal_error

    def fails_on_the_body(request: Any, exc: BaseException) -> Any:
        if request.body:
            raise RecursionError("maximum recursion depth exceeded")
        return real(request, exc)

    monkeypatch.setitem(ops.handlers, "POST /api/v1/events", _writes_then(RuntimeError("a handler bug")))
    monkeypatch.setattr(datadog, "internal_error", fails_on_the_body)
    response = httpx.post(
        f"{live.env['DATADOG_API_URL']}/api/v1/events",
        json={"title": "t", "text": "x"},
        headers={"DD-API-KEY": live.env["DD_API_KEY"], "DD-APPLICATION-KEY": live.env["DD_APP_KEY"]},
    )
    assert (response.status_code, response.json()) == (500, {"errors": ["Internal Server Error"]})
    (call,) = live.trace()
    assert (call["status"], call["body"], call["body_cut"]) == (500, '{"title":"t","text":"x"}', 24)
    assert live.world._undo is None  # the journal is closed: a timed write later is logged as its own
    live.world[EVENTS].add("2", {"id": 2, "title": "later"})
    assert live.events()[-1]["kind"] == "write" and live.events()[-1]["by"] is None


def _datadog_event(live: Any, body: bytes) -> httpx.Response:
    return httpx.post(
        f"{live.env['DATADOG_API_URL']}/api/v1/events",
        content=body,
        headers={
            "DD-API-KEY": live.env["DD_API_KEY"],
            "DD-APPLICATION-KEY": live.env["DD_APP_KEY"],
            "Content-Type": "application/json",
        },
    )


def test_a_body_over_the_limit_is_answered_413_and_logged_as_an_excerpt(stage, monkeypatch):
    live = stage.world(SCENE)
    monkeypatch.setattr(stage.server.hub, "max_body", 1000)
    body = b'{"title": "t", "text": "' + b"x" * 5000 + b'"}'
    response = _datadog_event(live, body)
    assert (response.status_code, response.json()) == (413, {"errors": ["Payload too large"]})
    (call,) = live.trace()
    assert (call["operation"], call["status"], call["body_cut"]) == ("POST /api/v1/events", 413, len(body))
    assert call["body"] == body[:1001].decode()
    assert EVENTS not in live.state()


def test_a_big_body_under_the_limit_is_served_and_kept_as_an_excerpt(stage, monkeypatch):
    live = stage.world(SCENE)
    monkeypatch.setattr(recording, "TRACE_BODY_LIMIT", 1000)
    monkeypatch.setattr(recording, "TRACE_EXCERPT", 100)
    body = '{"title": "big", "text": "' + "y" * 3000 + '"}'
    response = _datadog_event(live, body.encode())
    assert response.status_code == 202, response.text
    (call,) = live.trace()
    assert (call["body"], call["body_cut"]) == (body[:100], len(body))
    assert [e["text"] for e in live.state()[EVENTS] if e["title"] == "big"] == ["y" * 3000]


def test_a_slack_token_in_a_cut_body_stays_out_of_the_log(stage, monkeypatch):
    from tests.server.test_isolation import SCENE as SLACK_SCENE

    live = stage.world(SLACK_SCENE)
    monkeypatch.setattr(recording, "TRACE_BODY_LIMIT", 1000)
    token = live.env["SLACK_BOT_TOKEN"]
    body = f"token={token}&channel={live.world.refs['general']}&text=" + "z" * 3000
    response = httpx.post(
        f"{live.env['SLACK_API_URL']}chat.postMessage",
        content=body.encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.json()["ok"] is True
    (call,) = live.trace()
    assert call["body_cut"] == len(body)
    assert token not in call["body"] and call["body"].startswith("token=[token]&channel=")
