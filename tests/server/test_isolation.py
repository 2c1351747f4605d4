"""Isolation (docs/security.md): probes of a hostile agent and a careless caller, each a regression test.

No call without a credential of a world reaches it; an agent's token opens only `finish` and the clock;
a finished world revokes the agent's tokens; over HTTP a scene is a name or inline text, never a path.
"""

from __future__ import annotations

import re

import httpx
import pytest
from tests.server.test_control import SCENE

from soundstage.server import Server


def service_headers(live) -> dict[str, dict[str, str]]:
    """Each service's credentials of `live`'s agent, the way the official clients send them."""
    env = live.env
    headers = {"slack": {"Authorization": f"Bearer {env['SLACK_BOT_TOKEN']}"}}
    if "GITHUB_TOKEN" in env:
        headers["github"] = {"Authorization": f"token {env['GITHUB_TOKEN']}", "User-Agent": "probe"}
        headers["datadog"] = {"DD-API-KEY": env["DD_API_KEY"], "DD-APPLICATION-KEY": env["DD_APP_KEY"]}
        headers["pagerduty"] = {"Authorization": f"Token token={env['PAGERDUTY_TOKEN']}", "From": env["PAGERDUTY_FROM"]}
    return headers


# A write per service, so a call that slipped through would show in the state as well as in the log.
WRITES = {
    "slack": ("POST", "/api/chat.postMessage", {"data": {"channel": "C0", "text": "hello"}}),
    "github": ("POST", "/repos/acme/orders/issues", {"json": {"title": "probe"}}),
    "datadog": ("POST", "/api/v1/events", {"json": {"title": "probe", "text": "probe"}}),
    "pagerduty": ("POST", "/incidents/PNONE/notes", {"json": {"note": {"content": "probe"}}}),
}


EVERY_SERVICE = """
name: every-service
world: acme
task: t
agent: {slack_user: $bot, github_user: $bot_gh, pagerduty_user: $bot_pd, datadog_user: $bot_dd}
"""


@pytest.fixture
def every_service(stage):
    """A world of the example company with an agent in all four services."""
    return stage.world(EVERY_SERVICE)


def test_world_ids_are_128_random_bits(stage):
    ids = {stage.world(SCENE).id for _ in range(5)}
    assert len(ids) == 5
    assert all(re.fullmatch(r"w[0-9a-f]{32}", world_id) for world_id in ids)


@pytest.mark.parametrize("credential", ["none", "another world's", "unknown"])
def test_a_call_without_a_credential_of_the_world_never_reaches_it(stage, every_service, credential):
    other = stage.world(EVERY_SERVICE)
    world = every_service.world
    before = (world.log.last_seq, world.now(), world.state())
    for name, (method, path, kwargs) in WRITES.items():
        headers = {
            "none": {"User-Agent": "probe"},
            "another world's": service_headers(other).get(name, {}),
            "unknown": {"Authorization": "Bearer xoxb-0000", "DD-API-KEY": "0" * 32, "User-Agent": "probe"},
        }[credential]
        url = every_service.urls[name] + path
        client = stage.https if url.startswith("https") else stage.http
        response = client.request(method, url, headers=headers, **kwargs)
        assert response.status_code in (200, 401, 403), (name, response.text)
    assert (world.log.last_seq, world.now(), world.state()) == before


def test_neighbours_in_parallel_do_not_see_each_other(stage):
    """The defect found with `run --trials 2 --parallel 2`: each agent's stray calls failed the other's checks."""
    one, two = stage.world(SCENE), stage.world(SCENE)
    for live, other in ((one, two), (two, one)):
        # the agent aims at the wrong world with its own token, and with none
        stage.http.post(f"/w/{other.id}/slack/api/conversations.list", headers=service_headers(live)["slack"])
        stage.http.post(f"/w/{other.id}/slack/api/conversations.list")
    assert one.trace() == [] and two.trace() == []
    assert one.world.now() == two.world.now() == one.world.clock.start


AGENT_REFUSED = [
    ("GET", ""),
    ("GET", "/trace"),
    ("GET", "/events"),
    ("GET", "/state"),
    ("GET", "/diff"),
    ("GET", "/checks"),
    ("POST", "/checks"),
    ("DELETE", ""),
]


@pytest.mark.parametrize("method, route", AGENT_REFUSED)
@pytest.mark.parametrize("token", ["SOUNDSTAGE_TOKEN", "SLACK_BOT_TOKEN", "SLACK_USER_TOKEN"])
def test_an_agent_token_opens_no_grading(stage, method, route, token):
    live = stage.world(SCENE)
    agent = {"Authorization": f"Bearer {live.env[token]}"}
    body = {"json": {"checks": [{"id": "x", "trace": {"no_calls": True}}]}} if method == "POST" else {}
    response = stage.http.request(method, f"{live.control}{route}", headers=agent, **body)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    assert live.id in stage.server.hub.worlds


@pytest.mark.parametrize("method, path", [("GET", "/v1/worlds"), ("GET", "/v1/scenes"), ("POST", "/v1/worlds")])
def test_an_agent_token_cannot_list_or_make_worlds(stage, method, path):
    live = stage.world(SCENE)
    response = stage.http.request(method, path, headers={"Authorization": f"Bearer {live.env['SOUNDSTAGE_TOKEN']}"})
    assert (response.status_code, response.json()["error"]["code"]) == (403, "forbidden")


def test_no_token_at_all_is_unauthorized(stage):
    live = stage.world(SCENE)
    response = httpx.get(f"{stage.url}{live.control}/checks")
    assert (response.status_code, response.json()["error"]["code"]) == (401, "unauthorized")
    assert httpx.get(f"{stage.url}/healthz").status_code == 200


def test_an_agent_moves_its_clock_and_finishes_with_its_own_token(stage):
    live, other = stage.world(SCENE), stage.world(SCENE)
    agent = {"Authorization": f"Bearer {live.env['SOUNDSTAGE_TOKEN']}"}
    moved = stage.http.post(f"{live.control}/clock", json={"advance": "5m"}, headers=agent)
    assert moved.json() == {"now": "2026-03-02T14:05:00Z", "advanced": "5m", "last_seq": 2}
    # not another world's
    assert stage.http.post(f"{other.control}/clock", json={"advance": "5m"}, headers=agent).status_code == 403
    assert stage.http.post(f"{other.control}/finish", json={}, headers=agent).status_code == 403
    assert other.world.now() == other.world.clock.start and not other.world.finished
    # the clock moves by a bounded step: what falls due on the way runs on the loop every world shares
    too_far = stage.http.post(f"{live.control}/clock", json={"advance": "8d"}, headers=agent)
    assert (too_far.status_code, too_far.json()["error"]["code"]) == (400, "invalid_duration")


def test_tokens_a_service_keeps_for_itself_open_no_control_route(stage):
    """An integration's routing key (PagerDuty's Events API) is in the world's tokens, for the service to
    find the world by; it is not a credential of the agent's, so it may not finish the world."""
    live = stage.world(scene="bad-deploy")
    kept = [token for token, principal in live.world.tokens.items() if principal.token_type == "routing_key"]
    assert kept
    for token in kept:
        refused = stage.http.post(f"{live.control}/finish", json={}, headers={"Authorization": f"Bearer {token}"})
        assert (refused.status_code, refused.json()["error"]["code"]) == (401, "unauthorized")
    assert not live.world.finished


def test_a_scene_may_keep_the_clock_from_the_agent(stage):
    live = stage.world(
        SCENE.replace("agent: {slack_user: $bot}", "agent: {slack_user: $bot, may_advance_clock: false}")
    )
    agent = {"Authorization": f"Bearer {live.env['SOUNDSTAGE_TOKEN']}"}
    refused = stage.http.post(f"{live.control}/clock", json={"advance": "5m"}, headers=agent)
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "forbidden")
    assert live.world.now() == live.world.clock.start
    assert live.advance("5m")["now"] == "2026-03-02T14:05:00Z"  # the admin still may


def test_a_finished_world_revokes_the_agents_tokens(stage, every_service):
    live = every_service
    assert stage.http.post(f"{live.control}/finish", json={"output": "done"}).status_code == 200
    calls = len(live.world.log.calls())
    answers = {}
    for name, (method, path, kwargs) in WRITES.items():
        url = live.urls[name] + path
        client = stage.https if url.startswith("https") else stage.http
        response = client.request(method, url, headers=service_headers(live)[name], **kwargs)
        answers[name] = (response.status_code, response.json())
    assert answers["slack"] == (200, {"ok": False, "error": "token_revoked"})
    assert answers["github"][0] == 401 and answers["github"][1]["message"] == "Bad credentials"
    assert answers["datadog"] == (403, {"errors": ["Forbidden"]})
    assert answers["pagerduty"][0] == 401 and answers["pagerduty"][1]["error"]["code"] == 2006
    assert len(live.world.log.calls()) == calls  # none of them is a call of the attempt
    refused = [e for e in live.events() if e["kind"] == "after_finish"]
    assert [(e["service"], e["method"], e["path"], e["status"]) for e in refused] == [
        ("slack", "POST", "/api/chat.postMessage", 200),
        ("github", "POST", "/repos/acme/orders/issues", 401),
        ("datadog", "POST", "/api/v1/events", 403),
        ("pagerduty", "POST", "/incidents/PNONE/notes", 401),
    ]
    agent = {"Authorization": f"Bearer {live.env['SOUNDSTAGE_TOKEN']}"}
    clock = stage.http.post(f"{live.control}/clock", json={"advance": "1m"}, headers=agent)
    assert (clock.status_code, clock.json()["error"]["code"]) == (409, "already_finished")


def test_a_call_after_finish_cannot_make_a_check_pass(stage):
    live = stage.world(SCENE)
    assert stage.http.post(f"{live.control}/finish", json={}).json()["passed"] is False
    said = stage.http.post(
        f"/w/{live.id}/slack/api/chat.postMessage",
        data={"channel": live.world.refs["general"], "text": "hello"},
        headers=service_headers(live)["slack"],
    )
    assert said.json() == {"ok": False, "error": "token_revoked"}
    assert live.get("checks")["passed"] is False
    assert not [m for m in live.state()["slack.messages"] if m["text"] == "hello"]


# -- scenes over HTTP: names and inline text only ---------------------------------------------------------


@pytest.mark.parametrize(
    "scene",
    ["/etc/passwd", "../../etc/passwd", "seeds/csv-export.yaml", "~/.soundstage/tls/ca.key", ".hidden", "x" * 300],
)
def test_a_scene_over_http_is_a_name_not_a_path(stage, scene):
    response = stage.http.post("/v1/worlds", json={"scene": scene})
    assert (response.status_code, response.json()["error"]["code"]) == (400, "invalid_request")
    assert len(response.text) < 400  # the message does not echo what it was given


@pytest.mark.parametrize("world", ["/etc/passwd", "../../../../etc/hostname", "ca.key"])
def test_an_inline_scene_names_its_world_and_reads_no_other_file(stage, soundstage_home, world):
    (soundstage_home / "ca.key").write_text("-----BEGIN PRIVATE KEY-----\nsecret\n")
    text = f"name: probe\ntask: t\nworld: {world}\n"
    response = stage.http.post("/v1/worlds", json={"scene_yaml": text})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["errors"][0]["field"] == "world"
    assert "root:" not in response.text and "PRIVATE KEY" not in response.text and "secret" not in response.text


# -- limits ------------------------------------------------------------------------------------------------


def test_live_worlds_are_capped_and_expire():
    wall = [0.0]
    with Server(tls_port=None) as server:
        hub = server.hub
        hub.max_worlds, hub.idle_ttl, hub.finished_ttl, hub._wall = 2, 60.0, 10.0, lambda: wall[0]
        http = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {server.admin_token}"})
        first = http.post("/v1/worlds", json={"scene_yaml": SCENE}).json()["id"]
        second = http.post("/v1/worlds", json={"scene_yaml": SCENE}).json()["id"]
        full = http.post("/v1/worlds", json={"scene_yaml": SCENE})
        assert (full.status_code, full.json()["error"]["code"]) == (429, "too_many_worlds")
        http.post(f"/v1/worlds/{first}/finish", json={})
        wall[0] = 10.0  # the finished one has had its time; the other, idle for 10 s, has not
        third = http.post("/v1/worlds", json={"scene_yaml": SCENE})
        assert third.status_code == 201
        assert sorted(hub.worlds) == sorted([second, third.json()["id"]])
        assert http.get(f"/v1/worlds/{first}").status_code == 404
        wall[0] = 70.0  # idle for 60 s: both go
        assert sorted(hub.expire()) == sorted([second, third.json()["id"]])
