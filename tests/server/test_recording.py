"""The recording layer: a call that fails on the server's side (a handler bug, or an answer that cannot be
encoded) is undone, answered with the vendor's 500, and still logged; once the log cannot be written, every
call gets the vendor's 503 and changes nothing."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from tests.disks import FullDisk
from tests.server.test_control import SCENE as CONTROL_SCENE
from tests.server.test_isolation import EVERY_SERVICE, WRITES, service_headers

from soundstage.server import Hub, create_app, recording
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
    assert live.world._journal.undo is None  # the journal is closed: a timed write later is logged as its own
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


def _receiving(messages: list[dict[str, Any]]) -> Any:
    """An ASGI `receive` handing out `messages`, then disconnects."""
    queue = list(messages)

    async def receive() -> dict[str, Any]:
        return queue.pop(0) if queue else {"type": "http.disconnect"}

    return receive


def _pieces(body: bytes, cuts: list[int]) -> list[dict[str, Any]]:
    ends = [*cuts, len(body)]
    starts = [0, *cuts]
    return [
        {"type": "http.request", "body": body[a:b], "more_body": i < len(cuts)}
        for i, (a, b) in enumerate(zip(starts, ends))
    ]


BODY = b"channel=C1&text=Deploy+of+orders+1.4.1+is+done"


async def _body(receive: Any, limit: int) -> tuple[bytes, int]:
    return await recording._body(await receive(), receive, limit)


@pytest.mark.parametrize("limit", [0, 1, 10, len(BODY) - 1, len(BODY), len(BODY) + 1, 1000])
@pytest.mark.parametrize("cuts", [[], [1], [10, 10, 11], list(range(1, len(BODY))), [len(BODY)]])
def test_a_body_read_from_one_message_or_many_is_the_whole_body_up_to_the_limit(limit, cuts):
    body, size = asyncio.run(_body(_receiving(_pieces(BODY, cuts)), limit))
    assert (body, size) == (BODY[: limit + 1], len(BODY))


def test_a_body_ends_where_the_client_disconnects():
    cut_short = _pieces(BODY, [5, 12])[:2]  # more was promised, then the client went away
    assert asyncio.run(_body(_receiving(cut_short), 1000)) == (BODY[:12], 12)
    assert asyncio.run(_body(_receiving([]), 1000)) == (b"", 0)
    no_body = [{"type": "http.request"}]  # `body` and `more_body` may be left out
    assert asyncio.run(_body(_receiving(no_body), 1000)) == (b"", 0)


def _served(cuts: Any) -> tuple[list[Any], list[str]]:
    """What a live world of a Slack scene answers two chat.postMessage calls with a body cut at `cuts(body)`
    into messages, and its events."""
    from tests.server.test_control import SCENE as SLACK_SCENE

    hub = Hub()
    app = create_app(hub)
    world = hub.add(hub.images.load(scene_yaml=SLACK_SCENE))
    token = next(t for t, p in world.tokens.items() if p.token_type == "bot")
    body = urlencode({"channel": world.refs["general"], "text": "Deploy & <cache> done, 100% :tada:"}).encode()
    scope = {
        "type": "http",
        "method": "POST",
        "scheme": "http",
        "path": f"/w/{world.id}/slack/api/chat.postMessage",
        "query_string": b"",
        "root_path": "",
        "server": ("127.0.0.1", 8750),
        "headers": [
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"authorization", f"Bearer {token}".encode()),
        ],
    }
    sent: list[Any] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    for _ in range(2):
        asyncio.run(app(dict(scope), _receiving(_pieces(body, cuts(body))), send))
    return sent, [e.model_dump_json() for e in world.log]


def test_a_call_sent_in_many_messages_is_served_and_logged_as_one_sent_whole():
    whole = _served(lambda body: [])
    assert [m.get("status") for m in whole[0]] == [200, None, 200, None]
    assert b'"ok":true' in whole[0][3]["body"] and len(whole[1]) == 5  # start, and a call and its write twice
    assert _served(lambda body: list(range(1, len(body), 7))) == whole
    assert _served(lambda body: [len(body)]) == whole  # and an empty last message


def test_where_a_url_goes_is_the_same_remembered_or_not_and_what_is_remembered_is_bounded(monkeypatch):
    monkeypatch.setattr(recording, "_TARGETS", {})
    monkeypatch.setattr(recording, "_TARGETS_SIZE", 3)  # emptied over and over below
    paths = [
        "/w/w1/slack/api/auth.test",
        "/w/w1/github",
        "/w//slack/api/auth.test",
        "/w/w1/nope/x",
        "/slack/api/chat.postMessage",
        "/acme/orders.git/info/refs",
        "/api/v3/repos/acme/orders",
        "/v1/worlds",
        "/w/w1/github/" + "x" * 300,  # too long to be remembered
    ]
    first = [recording.service_target(path) for path in paths]
    assert first[:2] == [("w1", "slack", "/api/auth.test", None), ("w1", "github", "/", None)]
    assert first[2:4] == [None, None] and first[4] == (None, "slack", "/api/chat.postMessage", None)
    assert first[5] == (None, "github", "/acme/orders.git/info/refs", None) and first[7] is None
    for _ in range(3):
        assert [recording.service_target(path) for path in paths] == first
        assert len(recording._TARGETS) <= 3 and paths[-1] not in recording._TARGETS


def test_a_requests_headers_and_query_read_the_same_remembered_or_not_and_what_is_remembered_is_bounded(monkeypatch):
    monkeypatch.setattr(recording, "_HEADERS", {})
    monkeypatch.setattr(recording, "_QUERIES", {})
    monkeypatch.setattr(recording, "_BASES", {})
    monkeypatch.setattr(recording, "_DECODED_SIZE", 2)  # emptied over and over below
    pairs = [(b"Host", b"h:1"), (b"X-Note", b"caf\xe9"), (b"x-note", b"2"), (b"Content-Length", b"0")]
    scopes = [
        {"method": "get", "headers": pairs, "query_string": b"a=1&b=%41+c&a=2"},
        {"method": "POST", "headers": [list(pair) for pair in pairs], "query_string": b""},  # each header a list
        {"method": "GET", "headers": pairs[1:], "query_string": b"q=%E2%98%95", "server": ("10.0.0.1", 80)},
    ]
    expected = [
        ("GET", {"host": "h:1", "x-note": "2", "content-length": "0"}, {"a": ["1", "2"], "b": "A c"}, "http://h:1"),
        ("POST", {"host": "h:1", "x-note": "2", "content-length": "0"}, {}, "http://h:1"),
        ("GET", {"x-note": "2", "content-length": "0"}, {"q": "☕"}, "https://10.0.0.1:80/root"),
    ]
    for _ in range(3):  # read, then from what was remembered, then after it was emptied
        read = []
        for scope, scheme, root in zip(scopes, ["http", "http", "https"], ["", "", "/root"], strict=True):
            call = recording._request(
                {**scope, "scheme": scheme, "root_path": root}, "w1", "slack", "/api/x", None, b""
            )
            read.append((call.method, call.headers, call.query, call.base_url.removesuffix("/w/w1/slack")))
        assert read == expected
        assert len(recording._HEADERS) <= 2 and len(recording._QUERIES) <= 2
    # Calls sending the same headers and query share what was read of them, rather than each keeping a copy.
    same = {**scopes[0], "method": "GET", "scheme": "http"}
    again = [recording._request(same, "w1", "slack", "/", None, b"") for _ in range(2)]
    assert again[0].headers is again[1].headers and again[0].query is again[1].query
    assert again[0].base_url is again[1].base_url and again[0].method is again[1].method
    # A big head is read for its call alone: what is remembered stays small, whatever heads come.
    recording._HEADERS.clear(), recording._QUERIES.clear()
    big = {"method": "GET", "headers": [(b"host", b"h" * 5000)], "query_string": b"q=" + b"x" * 5000, "scheme": "http"}
    call = recording._request(big, "w1", "slack", "/", None, b"")
    assert call.headers == {"host": "h" * 5000} and call.query == {"q": "x" * 5000}
    assert call.base_url == f"http://{'h' * 5000}/w/w1/slack" and not recording._HEADERS and not recording._QUERIES


def test_headers_are_sent_by_lower_case_name_first_place_last_value_whatever_is_remembered(monkeypatch):
    from soundstage.services.base import Reply

    monkeypatch.setattr(recording, "_DECODED_SIZE", 2)  # emptied over and over below
    recording._NAMES.clear()
    reply = Reply(200, {}, headers={"X-Id": "1", "ETag": 'W/"a"', "x-id": "2", "Date": "no", "Note": "café ☕"})
    expected = [
        (b"x-id", b"2"),  # where the first was, with the last value
        (b"etag", b'W/"a"'),
        (b"date", b"Mon, 02 Mar 2026 14:00:00 GMT"),  # the call's simulated date, where the answer put its own
        (b"note", "café ?".encode("latin-1")),  # beyond Latin-1: replaced
        (b"content-type", b"application/json; charset=utf-8"),  # the default, last
        (b"content-length", b"4"),
    ]
    # Names that each appear once, and not the date or length: in their order, from what was remembered of them.
    distinct = Reply(200, {}, headers={"X-Id": "7", "Content-Type": "text/plain", "Note": "☕"})
    own = [(b"x-id", b"7"), (b"content-type", b"text/plain"), (b"note", b"?"), (b"content-length", b"4")]
    for n in range(3):  # the same headers from what was remembered, and after it was emptied
        assert recording._headers(reply, b"{}\r\n", "Mon, 02 Mar 2026 14:00:00 GMT") == expected
        assert recording._headers(distinct, b"{}\r\n", None) == own
        other = Reply(200, {}, headers={f"X-{n}": "v"})  # a set of names more than the two remembered
        assert recording._headers(other, b"", None)[0] == (f"x-{n}".encode(), b"v")
        assert len(recording._NAMES) <= 2
    own_type = Reply(404, None, headers={"Content-Type": "text/plain"})
    assert recording._headers(own_type, b"", None) == [(b"content-type", b"text/plain"), (b"content-length", b"0")]


# Each vendor's answer once the world's log cannot be written (docs/security.md): its 503 in its envelope.
UNAVAILABLE = {
    "slack": {"ok": False, "error": "service_unavailable"},
    "github": {"message": "Service Unavailable", "documentation_url": "https://docs.github.com/rest", "status": "503"},
    "datadog": {"errors": ["Service Unavailable"]},
    "pagerduty": {"error": {"message": "Internal Error", "code": 2000}},
}
READS = {
    "slack": ("POST", "/api/auth.test", {}),
    "github": ("GET", "/user", {}),
    "datadog": ("GET", "/api/v1/validate", {}),
    "pagerduty": ("GET", "/users", {}),
}


def test_a_log_that_cannot_be_written_stops_the_world_cleanly(stage, tmp_path, monkeypatch):
    live = stage.world(EVERY_SERVICE)
    world, path = live.world, tmp_path / "events.jsonl"
    disk = FullDisk(monkeypatch, path)
    world.log.mirror_to(path)
    written = path.read_bytes()
    disk.room = 100  # less than the next call's line: that write is cut short, the next finds no space
    headers = service_headers(live)

    # The call whose logging fails is answered by its handler, its writes made and logged in memory.
    said = stage.http.post(
        f"{live.urls['slack']}/api/chat.postMessage",
        data={"channel": world.refs["general"], "text": "deployed"},
        headers=headers["slack"],
    )
    assert (said.status_code, said.json()["ok"], said.json()["message"]["text"]) == (200, True, "deployed")
    assert world.log.broken == "events.jsonl could not be written: No space left on device"
    assert [e.kind for e in world.log.events[-2:]] == ["call", "write"]
    assert path.read_bytes() == written  # whole lines only, every one an event of the log
    assert [json.loads(line) for line in written.splitlines()] == [
        e.model_dump(mode="json") for e in world.log.events[: len(written.splitlines())]
    ]

    # Every later call, to any service, gets the vendor's 503 and changes nothing.
    state, seq = world.state(), world.log.last_seq
    answers = []
    for name in UNAVAILABLE:
        for method, call_path, kwargs in (WRITES[name], READS[name]):
            url = live.urls[name] + call_path
            client = stage.https if url.startswith("https") else stage.http
            response = client.request(method, url, headers=headers[name], **kwargs)
            answers.append((name, call_path, response.status_code, response.json()))
    assert answers == [
        (name, call[1], 503, UNAVAILABLE[name]) for name in UNAVAILABLE for call in (WRITES[name], READS[name])
    ]
    assert world.state() == state
    refused = world.log.events[seq:]
    assert [(e.kind, e.service, e.path, e.status, e.error) for e in refused] == [  # logged, in memory
        ("call", name, call[1], 503, True) for name in UNAVAILABLE for call in (WRITES[name], READS[name])
    ]
    assert path.read_bytes() == written

    # The control API: the clock no longer moves; the agent's finish still ends the attempt.
    agent = {"Authorization": f"Bearer {live.env['SOUNDSTAGE_TOKEN']}"}
    now = world.now()
    moved = stage.http.post(f"{live.control}/clock", json={"advance": "5m"}, headers=agent)
    assert (moved.status_code, moved.json()) == (
        503,
        {
            "error": {
                "code": "unavailable",
                "message": f"world {live.id} serves no more calls: events.jsonl could not be written: "
                "No space left on device",
            }
        },
    )
    assert world.now() == now
    finished = stage.http.post(f"{live.control}/finish", json={"output": "done"}, headers=agent)
    assert (finished.status_code, finished.json()["finished"]) == (200, True)
    assert (world.finished, world.output, world.log.events[-1].kind) == (True, "done", "finish")
    assert path.read_bytes() == written


# A server whose world's log meets a real limit of the kernel's (RLIMIT_FSIZE: past it a write is cut short at
# the limit, the next fails with EFBIG), called as an agent calls it; it prints what the agent and the disk saw.
FILE_SIZE_LIMIT = """
import json, resource, signal, sys
from pathlib import Path
import httpx
from soundstage.server import Server

path, scene = Path(sys.argv[1]), sys.argv[2]
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # else the process is killed rather than told
with Server(tls_port=None) as server:
    http = httpx.Client(base_url=server.url, headers={"authorization": f"Bearer {server.admin_token}"})
    made = http.post("/v1/worlds", json={"scene_yaml": scene}).json()
    world = server.hub.worlds[made["id"]]
    world.log.mirror_to(path)
    resource.setrlimit(resource.RLIMIT_FSIZE, (path.stat().st_size + 2000, resource.RLIM_INFINITY))
    statuses = []
    for n in range(12):
        said = http.post(
            f"{made['urls']['slack']}/api/chat.postMessage",
            data={"channel": world.refs["general"], "text": f"post {n}"},
            headers={"authorization": f"Bearer {made['env']['SLACK_BOT_TOKEN']}"},
        )
        statuses.append(said.status_code)
    posted = [m for m in world.state()["slack.messages"] if m["text"].startswith("post ")]
    print(json.dumps({"statuses": statuses, "posted": len(posted), "broken": getattr(world.log, "broken", None)}))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_FSIZE as Linux applies it")
def test_a_log_that_meets_a_real_file_size_limit_stops_the_world_cleanly(tmp_path):
    path = tmp_path / "events.jsonl"
    done = subprocess.run(
        [sys.executable, "-c", FILE_SIZE_LIMIT, str(path), CONTROL_SCENE],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    served = seen["statuses"].count(200)
    assert 0 < served < 12
    assert seen == {
        "statuses": [200] * served + [503] * (12 - served),  # never a 500
        "posted": served,  # the refused calls wrote nothing
        "broken": "events.jsonl could not be written: File too large",
    }
    text = path.read_text()
    kinds = [json.loads(line)["kind"] for line in text.splitlines()]  # every line an event
    assert text.endswith("\n") and kinds[0] == "start"
