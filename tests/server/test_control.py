"""The control API (docs/http.md), world and token routing, and isolation, over a real server."""

from __future__ import annotations

import json

import httpx
import pytest
from tests.conftest import LiveWorld

from soundstage.checks import Attempt
from soundstage.checks.judge import build_prompt
from soundstage.server import Hub, Server
from soundstage.services.slack.store import MESSAGES, USERS

SCENE = """
name: control-test
task: "Say hello in #general."
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {slack_user: $bot}
seed:
  slack:
    team: {name: Acme, domain: acme}
    users:
      - {ref: bot, name: stagebot, real_name: Stage Bot, is_bot: true}
      - {ref: maya, name: maya, real_name: Maya Chen}
    channels:
      - {ref: general, name: general, members: [$bot, $maya]}
checks:
  - id: said_hello
    state: {slack.message: {channel: $general, from: $bot, text_contains: hello}}
  - id: posted
    trace: {called: "POST /api/chat.postMessage"}
"""


def post(live, method, **data):
    return live.http.post(
        f"/w/{live.id}/slack/api/{method}", data=data, headers={"Authorization": f"Bearer {live.token}"}
    )


def test_create_world_answers_201_with_urls_and_env(stage):
    live = stage.world(SCENE)
    assert live.described["scene"] == "control-test"
    assert live.described["task"] == "Say hello in #general."
    assert live.urls["slack"] == f"{stage.url}/w/{live.id}/slack"
    env = live.env
    assert env["SOUNDSTAGE_URL"] == f"{stage.url}/v1/worlds/{live.id}"
    assert env["SOUNDSTAGE_TASK"] == "Say hello in #general."
    assert env["SLACK_API_URL"] == f"{stage.url}/w/{live.id}/slack/api/"
    assert env["SLACK_BOT_TOKEN"].startswith("xoxb-")
    assert env["SLACK_USER_TOKEN"].startswith("xoxp-")


def test_create_world_from_a_scene_name(stage):
    response = stage.http.post("/v1/worlds", json={"scene": "csv-export"})
    assert response.status_code == 201, response.text
    assert response.json()["scene"] == "csv-export"


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({}, 400, "invalid_request"),
        ({"scene": "a", "scene_yaml": "b"}, 400, "invalid_request"),
        ({"scene": "csv-export", "checks": []}, 400, "invalid_request"),
        ({"scene": "no-such-scene"}, 404, "not_found"),
        ({"scene_yaml": "name: x\n"}, 422, "invalid_scene"),
    ],
)
def test_create_world_errors(stage, body, status, code):
    response = stage.http.post("/v1/worlds", json=body)
    assert response.status_code == status
    assert response.json()["error"]["code"] == code


def test_invalid_scene_names_line_and_field(stage):
    response = stage.http.post("/v1/worlds", json={"scene_yaml": SCENE.replace("tick: 5s", "tick: soon")})
    assert response.status_code == 422
    error = response.json()["error"]["errors"][0]
    assert (error["file"], error["line"], error["field"]) == ("<scene_yaml>", 4, "clock.tick")


def test_malformed_json_body(stage):
    response = stage.http.post("/v1/worlds", content=b"{nope", headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_json"


def test_unknown_world_and_route(stage):
    assert stage.http.get("/v1/worlds/w999999/state").status_code == 404
    assert stage.http.get("/v1/nothing").json()["error"]["code"] == "not_found"


def test_trace_events_state_diff_clock_checks_finish(stage):
    live = stage.world(SCENE)
    general = live.world.refs["general"]
    first = post(live, "chat.postMessage", channel=general, text="hello there")
    assert first.status_code == 200 and first.json()["ok"] is True
    assert first.headers["date"] == "Mon, 02 Mar 2026 14:00:00 GMT"
    assert first.headers["content-type"] == "application/json; charset=utf-8"

    trace = live.trace()
    assert [(c["seq"], c["t"], c["method"], c["path"], c["status"]) for c in trace] == [
        (2, "2026-03-02T14:00:00Z", "POST", "/api/chat.postMessage", 200)
    ]
    assert trace[0]["body"] == {"channel": general, "text": "hello there"}
    assert trace[0]["operation"] == "chat.postMessage"
    assert [e["kind"] for e in live.events()] == ["start", "call", "write"]
    assert live.events(after=2)[0]["by"] == 2
    assert any(m["text"] == "hello there" for m in live.state()[MESSAGES])
    assert live.diff()[MESSAGES]["added"][0]["text"] == "hello there"

    moved = live.advance("5m")
    assert moved["now"] == "2026-03-02T14:05:05Z"
    bad = live.http.post(f"{live.control}/clock", json={"advance": "soon"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_duration"

    checks = live.get("checks")
    assert checks["passed"] is True
    assert [(c["id"], c["passed"], c["source"]) for c in checks["checks"]] == [
        ("said_hello", True, "scene"),
        ("posted", True, "scene"),
    ]

    assert checks["score"] == 1.0
    weighed = [{"id": "none", "weight": 3, "trace": {"no_calls": True}}, {"id": "some", "trace": {"called": "*"}}]
    custom = live.http.post(f"{live.control}/checks", json={"checks": weighed})
    assert custom.status_code == 200
    assert [(c["id"], c["passed"], c["source"], c["weight"]) for c in custom.json()["checks"]] == [
        ("none", False, "custom", 3.0),
        ("some", True, "custom", 1.0),
    ]
    assert (custom.json()["passed"], custom.json()["score"]) == (False, 0.25)  # 1 of 4
    invalid = live.http.post(f"{live.control}/checks", json={"checks": [{"id": "x", "nope": {}}]})
    assert invalid.status_code == 422

    done = live.http.post(f"{live.control}/finish", json={"output": "all done"})
    assert done.status_code == 200 and (done.json()["passed"], done.json()["score"]) == (True, 1.0)
    assert live.world.output == "all done"
    assert live.http.post(f"{live.control}/finish", json={}).status_code == 409
    assert live.http.get(live.control).json()["finished"] is True


def test_list_describe_delete(stage):
    live = stage.world(SCENE)
    assert any(w["id"] == live.id for w in stage.http.get("/v1/worlds").json())
    assert stage.http.get(f"/v1/worlds/{live.id}").json()["scene"] == "control-test"
    assert stage.http.delete(f"/v1/worlds/{live.id}").json() == {"deleted": live.id}
    assert stage.http.get(f"/v1/worlds/{live.id}").status_code == 404
    # its token is gone with it
    response = stage.http.post("/slack/api/auth.test", headers={"Authorization": f"Bearer {live.token}"})
    assert response.json() == {"ok": False, "error": "invalid_auth"}


def test_scenes_and_healthz(stage):
    assert stage.http.get("/healthz").json()["ok"] is True
    names = [s["name"] for s in stage.http.get("/v1/scenes").json()]
    assert "csv-export" in names and "incident-channel" in names


def test_unprefixed_routes_find_the_world_by_token(stage):
    live = stage.world(SCENE)
    response = stage.http.post("/slack/api/auth.test", headers={"Authorization": f"Bearer {live.token}"})
    assert response.json()["user_id"] == live.world.refs["bot"]
    assert live.trace()[-1]["path"] == "/api/auth.test"


def test_a_token_never_reaches_another_world(stage):
    one, two = stage.world(SCENE), stage.world(SCENE)
    response = stage.http.post(
        f"/w/{two.id}/slack/api/chat.postMessage",
        data={"channel": two.world.refs["general"], "text": "hello"},
        headers={"Authorization": f"Bearer {one.token}"},
    )
    assert response.json() == {"ok": False, "error": "invalid_auth"}
    assert not [m for m in two.state()[MESSAGES] if m["text"] == "hello"]
    assert one.trace() == []


def test_two_worlds_of_one_scene_are_isolated_and_identical(stage):
    one, two = stage.world(SCENE), stage.world(SCENE)
    assert one.world.refs == two.world.refs
    post(one, "chat.postMessage", channel=one.world.refs["general"], text="hello from one")
    assert MESSAGES not in two.diff()
    assert one.state()[USERS] == two.state()[USERS]


def test_a_fork_is_a_new_world_in_the_same_state_with_tokens_of_its_own(stage):
    parent = stage.world(SCENE)
    general = parent.world.refs["general"]
    post(parent, "chat.postMessage", channel=general, text="hello before the fork")
    response = stage.http.post(f"{parent.control}/fork")
    assert response.status_code == 201, response.text
    fork = LiveWorld(stage, response.json())
    assert fork.id != parent.id
    described = {key: value for key, value in fork.described.items() if key not in ("id", "urls", "env")}
    assert described == {
        "scene": "control-test",
        "world": None,
        "task": "Say hello in #general.",
        "now": "2026-03-02T14:00:05Z",
        "last_seq": 3,
        "finished": False,
    }
    assert fork.urls["slack"] == f"{stage.url}/w/{fork.id}/slack"
    assert fork.env["SOUNDSTAGE_URL"] == f"{stage.url}/v1/worlds/{fork.id}"
    handed = ("SOUNDSTAGE_TOKEN", "SLACK_BOT_TOKEN", "SLACK_USER_TOKEN")
    assert all(fork.env[name] != parent.env[name] for name in handed)
    assert fork.events() == parent.events() and fork.state() == parent.state()

    # The parent's tokens do not act on the fork, under its URL or by themselves; nor the fork's on the parent.
    stray = stage.http.post(
        f"/w/{fork.id}/slack/api/chat.postMessage",
        data={"channel": general, "text": "from the parent's token"},
        headers={"Authorization": f"Bearer {parent.token}"},
    )
    assert stray.json() == {"ok": False, "error": "invalid_auth"}
    agent = {"Authorization": f"Bearer {parent.env['SOUNDSTAGE_TOKEN']}"}
    assert stage.http.post(f"{fork.control}/finish", json={}, headers=agent).status_code == 403
    assert (
        stage.http.post(
            f"{parent.control}/finish", json={}, headers={"Authorization": f"Bearer {fork.env['SOUNDSTAGE_TOKEN']}"}
        ).status_code
        == 403
    )
    assert fork.events() == parent.events()  # neither heard of those calls

    said = post(fork, "chat.postMessage", channel=general, text="hello from the fork")
    assert said.json()["ok"] is True
    assert [e["kind"] for e in fork.events(after=3)] == ["call", "write"]
    assert fork.events(after=3)[0]["seq"] == 4
    assert parent.events(after=3) == []
    texts = [m["text"] for m in fork.state()[MESSAGES]]
    assert texts[-2:] == ["hello before the fork", "hello from the fork"]
    assert [m["text"] for m in parent.state()[MESSAGES]][-1] == "hello before the fork"
    # The agent's token of the fork works without the world in the URL too, and finds the fork.
    found = stage.http.post("/slack/api/auth.test", headers={"Authorization": f"Bearer {fork.token}"})
    assert found.json()["ok"] is True and fork.trace()[-1]["path"] == "/api/auth.test"
    assert [c["path"] for c in parent.trace()] == ["/api/chat.postMessage"]


def test_a_parents_token_pasted_before_the_fork_is_a_secret_of_the_fork_too(stage):
    parent = stage.world(SCENE)
    pasted = parent.env["SOUNDSTAGE_TOKEN"]  # no service's token shape: only the world's own tokens redact it
    post(parent, "chat.postMessage", channel=parent.world.refs["general"], text=f"my key is {pasted}")
    response = stage.http.post(f"{parent.control}/fork")
    fork = LiveWorld(stage, response.json()).world
    assert pasted not in fork.tokens  # it acts on the parent alone
    assert "my key is [redacted]" in build_prompt(Attempt.from_world(parent.world), "Said hello?")
    prompt = build_prompt(Attempt.from_world(fork), "Said hello?")
    assert pasted not in prompt and "my key is [redacted]" in prompt


def test_fork_errors(stage):
    assert stage.http.post("/v1/worlds/w999999/fork").json()["error"]["code"] == "not_found"
    live = stage.world(SCENE)
    assert live.http.post(f"{live.control}/finish", json={"output": "x"}).status_code == 200
    refused = stage.http.post(f"{live.control}/fork")
    assert refused.status_code == 409
    assert refused.json()["error"] == {
        "code": "already_finished",
        "message": f"world {live.id} has finished: fork a world before it finishes",
    }
    agent = {"Authorization": f"Bearer {live.env['SOUNDSTAGE_TOKEN']}"}
    other = stage.world(SCENE)
    assert (
        stage.http.post(f"{other.control}/fork", headers={"Authorization": f"Bearer {other.token}"}).status_code == 403
    )
    assert stage.http.post(f"{other.control}/fork", headers=agent).status_code == 403


def test_a_fork_needs_a_free_place():
    with Server(Hub(max_worlds=1), admin_token="sesame") as server:
        http = httpx.Client(base_url=server.url, headers={"Authorization": "Bearer sesame"})
        world = http.post("/v1/worlds", json={"scene_yaml": SCENE}).json()["id"]
        full = http.post(f"/v1/worlds/{world}/fork")
        assert full.status_code == 429 and full.json()["error"]["code"] == "too_many_worlds"
        assert list(server.hub.worlds) == [world]


def test_admin_token_guards_the_control_api():
    with Server(admin_token="sesame") as server:
        http = httpx.Client(base_url=server.url)
        assert http.get("/healthz").status_code == 200
        assert http.post("/v1/worlds", json={"scene_yaml": SCENE}).status_code == 401
        created = http.post("/v1/worlds", json={"scene_yaml": SCENE}, headers={"Authorization": "Bearer sesame"})
        assert created.status_code == 201
        described = created.json()
        token = described["env"]["SLACK_BOT_TOKEN"]
        world = f"/v1/worlds/{described['id']}"
        agent = {"Authorization": f"Bearer {token}"}
        assert http.get(f"{world}/state", headers=agent).status_code == 403
        # an agent may finish its own world with its own token, and learns nothing of its grades by it
        finished = http.post(f"{world}/finish", json={"output": "x"}, headers=agent)
        assert finished.status_code == 200
        assert finished.json() == {"finished": True, "now": "2026-03-02T14:00:00Z", "last_seq": 2}
        assert http.get(f"{world}/state").status_code == 401


@pytest.mark.parametrize(
    "body, status, code",
    [
        (b"[" * 100_000 + b"]" * 100_000, 400, "invalid_json"),
        (b'{"scene_yaml": "name: \\ud800"}', 422, "invalid_scene"),  # at its line and field
        (b'{"scene": "\\ud800"}', 400, "invalid_request"),
        (b'{"scene": "' + b"x" * 50_000 + b'"}', 400, "invalid_request"),
    ],
    ids=["nested-100k-deep", "lone-surrogate-in-text", "lone-surrogate-in-name", "long-name"],
)
def test_bad_control_input_gets_the_json_envelope(stage, body, status, code):
    response = stage.http.post("/v1/worlds", content=body, headers={"content-type": "application/json"})
    assert (response.status_code, response.json()["error"]["code"]) == (status, code)
    assert len(response.text) < 500


def test_a_control_body_over_the_limit_is_refused(stage, monkeypatch):
    monkeypatch.setattr(stage.server.hub, "max_body", 100)
    response = stage.http.post("/v1/worlds", json={"scene_yaml": "x" * 200})
    assert (response.status_code, response.json()["error"]["code"]) == (413, "too_large")


def test_a_fault_of_soundstages_own_answers_the_envelope(stage, monkeypatch):
    live = stage.world(SCENE)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("soundstage.server.control.score", broken)
    response = stage.http.get(f"{live.control}/checks")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "internal_error"


@pytest.mark.parametrize("route", ["/finish", "/checks"])
def test_text_that_cannot_be_written_out_is_refused(stage, route):
    """`finish {"output": "x\\ud800"}` was stored, and every later read of the events was a 500."""
    live = stage.world(SCENE)
    body = b'{"output": "x\\ud800", "checks": [{"id": "\\ud800", "trace": {"no_calls": true}}]}'
    response = stage.http.post(live.control + route, content=body, headers={"content-type": "application/json"})
    assert (response.status_code, response.json()["error"]["code"]) == (400, "invalid_json")
    assert not live.world.finished
    assert stage.http.get(live.control + "/events").status_code == 200


def test_snapshot_and_load_over_http(stage):
    live = stage.world(SCENE)
    assert post(live, "chat.postMessage", channel=live.world.refs["general"], text="hello").json()["ok"]
    saved = stage.http.get(f"{live.control}/snapshot")
    assert saved.status_code == 200 and saved.json()["format"] == "soundstage-snapshot"
    assert live.token.encode() not in saved.content
    loaded = stage.http.post("/v1/worlds", json={"snapshot": saved.json()})
    assert loaded.status_code == 201
    again = stage.server.hub.worlds[loaded.json()["id"]]
    assert again.state() == live.world.state() and again.log.last_seq == live.world.log.last_seq
    assert loaded.json()["env"]["SLACK_BOT_TOKEN"] != live.token
    data = saved.json()
    data["world"]["digest"] = "0" * 64
    held = set(stage.server.hub.worlds)
    refused = stage.http.post("/v1/worlds", json={"snapshot": data})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid_snapshot"
    assert "does not make the world it was saved from" in refused.json()["error"]["message"]
    assert set(stage.server.hub.worlds) == held
    agent = {"Authorization": f"Bearer {live.env['SOUNDSTAGE_TOKEN']}"}
    assert stage.http.get(f"{live.control}/snapshot", headers=agent).status_code == 403
    assert stage.http.post("/v1/worlds", json={"snapshot": saved.json()}, headers=agent).status_code == 403


def test_a_load_needs_a_free_place():
    with Server(Hub(max_worlds=1), admin_token="sesame") as server:
        http = httpx.Client(base_url=server.url, headers={"Authorization": "Bearer sesame"})
        world = http.post("/v1/worlds", json={"scene_yaml": SCENE}).json()["id"]
        saved = http.get(f"/v1/worlds/{world}/snapshot").json()
        full = http.post("/v1/worlds", json={"snapshot": saved})
        assert full.status_code == 429 and full.json()["error"]["code"] == "too_many_worlds"
        assert list(server.hub.worlds) == [world]


def test_tools_and_steps_drive_a_world_over_http(stage):
    """A trainer in another process: reset (`POST /v1/worlds`), the tools, steps and finish with the score."""
    live = stage.world(SCENE)
    tools = live.http.get(f"{live.control}/tools")
    assert tools.status_code == 200, tools.text
    names = [tool["function"]["name"] for tool in tools.json()]
    assert names[:2] == ["slack_list_channels", "slack_post_message"]
    post_message = tools.json()[1]
    assert post_message["type"] == "function"
    assert post_message["function"]["parameters"]["required"] == ["channel_id", "text"]
    channel = live.state()["slack.channels"][0]["id"]
    step = live.http.post(
        f"{live.control}/step",
        json={"tool": "slack_post_message", "arguments": {"channel_id": channel, "text": "hello"}},
    )
    assert step.status_code == 200, step.text
    answer = step.json()
    assert answer["is_error"] is False and json.loads(answer["content"][0])["ok"] is True
    [call] = live.trace()
    assert (call["seq"], call["path"]) == (answer["seq"], "/api/chat.postMessage")
    assert call["mcp"] == {"tool": "slack_post_message", "arguments": {"channel_id": channel, "text": "hello"}}
    unknown = live.http.post(f"{live.control}/step", json={"tool": "nope"}).json()
    assert unknown == {"content": ["Unknown tool: nope"], "is_error": True, "seq": unknown["seq"]}
    assert live.trace()[-1]["unimplemented"] is True
    finished = live.http.post(f"{live.control}/finish", json={"output": "done"}).json()
    assert (finished["passed"], finished["score"]) == (True, 1.0)
    after = live.http.post(f"{live.control}/step", json={"tool": "slack_list_channels"})
    assert (after.status_code, after.json()["error"]["code"]) == (409, "already_finished")


@pytest.mark.parametrize("body", [{}, {"tool": 1}, {"tool": "x", "arguments": []}, {"tool": "x", "extra": 1}])
def test_a_step_without_a_tool_call_is_refused(stage, body):
    live = stage.world(SCENE)
    response = live.http.post(f"{live.control}/step", json=body)
    assert (response.status_code, response.json()["error"]["code"]) == (400, "invalid_request")
    assert live.trace() == []


def test_only_the_admin_may_step_or_list_tools(stage):
    live = stage.world(SCENE)
    agent = {"authorization": f"Bearer {live.env['SOUNDSTAGE_TOKEN']}"}
    assert live.http.get(f"{live.control}/tools", headers=agent).status_code == 403
    step = live.http.post(f"{live.control}/step", json={"tool": "slack_list_channels"}, headers=agent)
    assert step.status_code == 403
    assert live.trace() == []
