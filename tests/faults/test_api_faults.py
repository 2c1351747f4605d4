"""API faults (docs/faults.md, "API faults"): each vendor's rate-limit and server-error answers, exact on
the wire and as the official clients see them; slow answers; when a fault fires; determinism; the scene
errors; and the `respected_retry_after` trace check."""

from __future__ import annotations

import time
from typing import Any

import pytest

from soundstage.errors import SpecError
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene_text

START = "2026-03-02T14:00:00Z"
START_S = 1772460000
HEAD = f"""
name: api-faults-test
world: acme
task: Post in incidents.
clock: {{start: "{START}", tick: 5s}}
agent: {{github_user: $bot_gh, pagerduty_user: $bot_pd, datadog_user: $bot_dd, slack_user: $bot}}
"""


def scene(faults: str, checks: str = "") -> str:
    return HEAD + "api_faults:\n" + faults + (f"checks:\n{checks}" if checks else "")


class World:
    """A live world with api faults, called raw (httpx) as an agent does."""

    def __init__(self, stage: Any, faults: str, checks: str = "") -> None:
        self.live = stage.world(scene(faults, checks))
        self.env: dict[str, str] = self.live.env
        self.https = stage.https

    def slack(self, method: str, **data: Any) -> Any:
        headers = {"Authorization": f"Bearer {self.env['SLACK_BOT_TOKEN']}"}
        return self.live.http.post(self.env["SLACK_API_URL"] + method, headers=headers, data=data)

    def github(self, method: str, path: str, token: bool = True, **kwargs: Any) -> Any:
        headers = {"Accept": "application/vnd.github+json"}
        if token:
            headers["Authorization"] = f"Bearer {self.env['GITHUB_TOKEN']}"
        return self.live.http.request(method, self.env["GITHUB_API_URL"] + path, headers=headers, **kwargs)

    def datadog(self, method: str, path: str, **kwargs: Any) -> Any:
        headers = {"DD-API-KEY": self.env["DD_API_KEY"], "DD-APPLICATION-KEY": self.env["DD_APP_KEY"]}
        return self.live.http.request(method, self.env["DATADOG_API_URL"] + path, headers=headers, **kwargs)

    def pagerduty(self, method: str, path: str, **kwargs: Any) -> Any:
        headers = {
            "Authorization": f"Token token={self.env['PAGERDUTY_TOKEN']}",
            "Accept": "application/vnd.pagerduty+json;version=2",
            "From": self.env["PAGERDUTY_FROM"],
        }
        return self.https.request(method, self.env["PAGERDUTY_API_URL"] + path, headers=headers, **kwargs)

    def trace(self) -> list[dict[str, Any]]:
        return self.live.trace()

    def checks(self) -> dict[str, Any]:
        response = self.live.http.get(f"{self.live.control}/checks")
        assert response.status_code == 200, response.text
        return {c["id"]: c for c in response.json()["checks"]}


def post(world: World, text: str = "hello") -> Any:
    return world.slack("chat.postMessage", channel=world.live.world.refs["incidents"], text=text)


# -- Slack -----------------------------------------------------------------------------------------------


def test_slack_rate_limit_is_slacks_429_and_never_reaches_the_handler(stage: Any) -> None:
    world = World(stage, "  - {id: busy, service: slack, operation: chat.postMessage, kind: rate_limit, first: 1}\n")
    before = world.live.state()
    refused = post(world)
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "30"
    assert refused.headers["content-type"] == "application/json; charset=utf-8"
    assert refused.json() == {"ok": False, "error": "ratelimited"}
    assert world.live.state() == before  # nothing written
    assert post(world).json()["ok"] is True  # `first: 1`: the next call goes through
    calls = world.trace()
    assert [(c["operation"], c["status"], c["error"]) for c in calls] == [
        ("chat.postMessage", 429, True),
        ("chat.postMessage", 200, False),
    ]
    assert calls[0]["injected"] == {"fault": "busy", "kind": "rate_limit", "retry_after": 30}
    assert calls[0]["body"]["text"] == "hello"  # the trace keeps what was sent
    assert calls[1]["injected"] is None
    assert [e["seq"] for e in world.live.events() if e["kind"] == "write" and e.get("by") == calls[0]["seq"]] == []


def test_slack_server_errors(stage: Any) -> None:
    world = World(
        stage,
        "  - {id: flaky, service: slack, operation: auth.test, kind: server_error, first: 1}\n"
        "  - {id: down, service: slack, operation: team.info, kind: server_error, status: 503, error: fatal_error}\n",
    )
    first = world.slack("auth.test")
    assert (first.status_code, first.json()) == (200, {"ok": False, "error": "internal_error"})
    assert world.slack("auth.test").json()["ok"] is True
    down = world.slack("team.info")
    assert (down.status_code, down.json()) == (503, {"ok": False, "error": "fatal_error"})
    assert [c["injected"] for c in world.trace()] == [
        {"fault": "flaky", "kind": "server_error"},
        None,
        {"fault": "down", "kind": "server_error"},
    ]


def test_slack_sdk_retry_handler_waits_and_retries(stage: Any) -> None:
    from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler

    world = World(
        stage,
        "  - {id: busy, service: slack, operation: chat.postMessage, kind: rate_limit, retry_after: 1s, first: 1}\n",
    )
    client = world.live.slack()
    client.retry_handlers.append(RateLimitErrorRetryHandler(max_retry_count=1))
    began = time.monotonic()
    answer = client.chat_postMessage(channel=world.live.world.refs["incidents"], text="after a pause")
    assert answer["ok"] is True
    assert time.monotonic() - began >= 1  # slept Retry-After's second
    assert [c["status"] for c in world.trace()] == [429, 200]


def test_slack_sdk_raises_on_a_server_error(stage: Any) -> None:
    from slack_sdk.errors import SlackApiError

    world = World(stage, "  - {id: flaky, service: slack, operation: auth.test, kind: server_error}\n")
    with pytest.raises(SlackApiError) as failure:
        world.live.slack().auth_test()
    assert failure.value.response["error"] == "internal_error"


# -- GitHub ----------------------------------------------------------------------------------------------


def test_github_secondary_limit(stage: Any) -> None:
    world = World(
        stage, '  - {id: slow_down, service: github, call: "GET /repos/*/pulls", kind: rate_limit, retry_after: 60s}\n'
    )
    refused = world.github("GET", "/repos/acme/orders/pulls")
    assert refused.status_code == 403
    assert refused.headers["retry-after"] == "60"
    assert refused.json() == {
        "message": (
            "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you "
            "reach out to GitHub Support for help, please include the request ID."
        ),
        "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
        "status": "403",
    }
    assert refused.headers["x-ratelimit-remaining"] == "5000"  # a refused call is not counted
    assert refused.headers["x-ratelimit-resource"] == "core"
    assert len(refused.headers["x-github-request-id"]) == 32
    assert world.github("GET", "/repos/acme/orders").status_code == 200  # another path
    assert world.trace()[0]["operation"] == "GET /repos/{owner}/{repo}/pulls"


def test_github_primary_limit(stage: Any) -> None:
    world = World(
        stage,
        "  - {id: spent, service: github, operation: 'GET /repos/{owner}/{repo}', kind: rate_limit,"
        " github_limit: primary, status: 429, retry_after: 10m}\n",
    )
    refused = world.github("GET", "/repos/acme/orders")
    assert refused.status_code == 429
    assert "retry-after" not in refused.headers
    assert {k: refused.headers[f"x-ratelimit-{k}"] for k in ("limit", "remaining", "used", "reset")} == {
        "limit": "5000",
        "remaining": "0",
        "used": "5000",
        "reset": str(START_S + 600),
    }
    user_id = world.github("GET", "/user").json()["id"]
    assert refused.json() == {
        "message": f"API rate limit exceeded for user ID {user_id}.",
        "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
        "status": "429",
    }
    anonymous = world.github("GET", "/repos/acme/orders", token=False)
    assert anonymous.headers["x-ratelimit-limit"] == "60"
    assert anonymous.json()["message"].startswith("API rate limit exceeded for 127.0.0.1. (But here's the good news")


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (502, "Server Error"),
        (503, "Service Unavailable"),
        (
            504,
            (
                "We couldn't respond to your request in time. Sorry about that. Please try resubmitting your request "
                "and contact us if the problem persists."
            ),
        ),
    ],
)
def test_github_server_errors(stage: Any, status: int, message: str) -> None:
    world = World(
        stage, f"  - {{id: down, service: github, operation: 'GET *', kind: server_error, status: {status}}}\n"
    )
    answer = world.github("GET", "/repos/acme/orders")
    assert answer.status_code == status
    assert answer.json() == {
        "message": message,
        "documentation_url": "https://docs.github.com/rest",
        "status": str(status),
    }


def test_pygithub_sees_the_limit_and_its_headers(stage: Any) -> None:
    from github import Auth, Github, GithubException

    world = World(
        stage, "  - {id: slow_down, service: github, operation: 'GET /repos/{owner}/{repo}', kind: rate_limit}\n"
    )
    client = Github(auth=Auth.Token(world.env["GITHUB_TOKEN"]), base_url=world.env["GITHUB_API_URL"], retry=None)
    with pytest.raises(GithubException) as failure:
        client.get_repo("acme/orders")
    assert failure.value.status == 403
    assert failure.value.headers["retry-after"] == "30"
    assert failure.value.data["message"].startswith("You have exceeded a secondary rate limit")


def test_githubkit_sees_the_primary_limit(stage: Any) -> None:
    from githubkit import GitHub
    from githubkit.exception import RequestFailed

    world = World(
        stage,
        "  - {id: spent, service: github, operation: 'GET /repos/{owner}/{repo}', kind: rate_limit,"
        " github_limit: primary, status: 429}\n",
    )
    client = GitHub(world.env["GITHUB_TOKEN"], base_url=world.env["GITHUB_API_URL"], auto_retry=False)
    with pytest.raises(RequestFailed) as failure:
        client.rest.repos.get("acme", "orders")
    assert failure.value.response.status_code == 429
    assert failure.value.response.headers["x-ratelimit-remaining"] == "0"


# -- Datadog ---------------------------------------------------------------------------------------------


def test_datadog_rate_limit(stage: Any) -> None:
    world = World(
        stage,
        "  - {id: busy, service: datadog, operation: 'GET /api/v1/monitor', kind: rate_limit, retry_after: 12s,"
        " limit: 1000/1h}\n",
    )
    refused = world.datadog("GET", "/api/v1/monitor")
    assert refused.status_code == 429
    assert refused.json() == {"errors": ["Rate limit exceeded"]}
    assert {k: v for k, v in refused.headers.items() if k.startswith("x-ratelimit")} == {
        "x-ratelimit-limit": "1000",
        "x-ratelimit-period": "3600",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": "12",
        "x-ratelimit-name": "get_monitor",
    }


def test_datadog_client_raises_api_exception(stage: Any) -> None:
    from datadog_api_client import ApiClient, Configuration
    from datadog_api_client.exceptions import ApiException
    from datadog_api_client.v1.api.monitors_api import MonitorsApi

    world = World(
        stage,
        "  - {id: busy, service: datadog, operation: 'GET /api/v1/monitor', kind: rate_limit, first: 1}\n"
        "  - {id: down, service: datadog, operation: 'GET /api/v1/monitor/*', kind: server_error, status: 503}\n",
    )
    keys = {"apiKeyAuth": world.env["DD_API_KEY"], "appKeyAuth": world.env["DD_APP_KEY"]}
    with ApiClient(Configuration(host=world.env["DATADOG_API_URL"], api_key=keys)) as client:
        api = MonitorsApi(client)
        with pytest.raises(ApiException) as failure:
            api.list_monitors()
        assert failure.value.status == 429
        assert failure.value.headers["x-ratelimit-reset"] == "30"
        monitors = api.list_monitors()
        with pytest.raises(ApiException) as down:
            api.get_monitor(monitors[0].id)
        assert down.value.status == 503
        assert down.value.body == {"errors": ["Service Unavailable"]}


# -- PagerDuty -------------------------------------------------------------------------------------------


def test_pagerduty_rate_limit_and_server_error(stage: Any) -> None:
    world = World(
        stage,
        "  - {id: busy, service: pagerduty, operation: 'GET /incidents', kind: rate_limit, "
        "retry_after: 5s, limit: 960/1m}\n"
        "  - {id: down, service: pagerduty, operation: 'GET /services', kind: server_error}\n",
    )
    refused = world.pagerduty("GET", "/incidents")
    assert refused.status_code == 429
    assert refused.json() == {"error": {"message": "Rate Limit Exceeded", "code": 2020}}
    assert {k: refused.headers[k] for k in ("ratelimit-limit", "ratelimit-remaining", "ratelimit-reset")} == {
        "ratelimit-limit": "960",
        "ratelimit-remaining": "0",
        "ratelimit-reset": "5",
    }
    down = world.pagerduty("GET", "/services")
    assert down.status_code == 500
    assert down.json() == {"error": {"message": "Internal Error", "code": 2000}}


def test_pagerduty_client_sees_them(stage: Any) -> None:
    import ssl

    import pagerduty

    world = World(
        stage,
        "  - {id: busy, service: pagerduty, operation: 'GET /incidents', kind: rate_limit}\n"
        "  - {id: down, service: pagerduty, operation: 'GET /services', kind: server_error}\n",
    )
    client = pagerduty.RestApiV2Client(
        world.env["PAGERDUTY_TOKEN"],
        default_from=world.env["PAGERDUTY_FROM"],
        base_url=world.env["PAGERDUTY_API_URL"],
        verify=ssl.create_default_context(cafile=world.env["SSL_CERT_FILE"]),
    )
    client.retry[429] = 1  # it retries a 429 without end otherwise
    client.sleep_timer = 0.01
    with pytest.raises(pagerduty.HttpError) as limited:
        client.rget("incidents")
    assert limited.value.response.status_code == 429
    with pytest.raises(pagerduty.ServerHttpError) as down:
        client.rget("services")
    assert down.value.response.status_code == 500
    assert [c["status"] for c in world.trace()][:2] == [429, 429]


# -- slow answers and when faults fire --------------------------------------------------------------------


def test_slow_answers_move_the_clock_and_may_take_real_time(stage: Any) -> None:
    world = World(
        stage,
        "  - {id: lag, service: slack, operation: auth.test, kind: slow, delay: 2m, real_delay_ms: 300, first: 1}\n",
    )
    began = time.monotonic()
    assert world.slack("auth.test").json()["ok"] is True  # answered, late
    assert time.monotonic() - began >= 0.3
    assert world.slack("auth.test").json()["ok"] is True
    first, second = world.trace()
    assert first["injected"] == {"fault": "lag", "kind": "slow", "delay": "2m", "real_delay_ms": 300}
    assert (first["t"], second["t"]) == ("2026-03-02T14:00:00Z", "2026-03-02T14:02:05Z")


def test_every_after_seq_and_until(stage: Any) -> None:
    world = World(
        stage,
        "  - {id: third, service: slack, operation: 'auth.*', kind: server_error, every: 3}\n"
        "  - {id: late, service: slack, operation: team.info, kind: server_error, after_seq: 9, until: 1m}\n",
    )
    statuses = [world.slack("auth.test").json()["ok"] for _ in range(6)]  # seq 2 to 7
    assert statuses == [True, True, False, True, True, False]
    team = [world.slack("team.info").json()["ok"] for _ in range(12)]  # seq 8 to 19, 30s to 85s
    # The window opens after seq 9 and closes at 60s.
    assert team == [True, True] + [False] * 4 + [True] * 6


def _probable_run(stage: Any) -> list[dict[str, Any]]:
    world = World(stage, "  - {id: coin, service: slack, call: 'POST /api/*', kind: server_error, probability: 0.5}\n")
    for i in range(12):
        world.slack("auth.test")
        post(world, f"message {i}")
    return world.trace()


def test_the_same_calls_fail_the_same_way(stage: Any) -> None:
    first, second = _probable_run(stage), _probable_run(stage)
    assert first == second
    failed = [c["seq"] for c in first if c["injected"]]
    assert 0 < len(failed) < len(first)


def test_a_faulted_call_is_logged_once_and_a_refused_one_counts_no_rate_limit(stage: Any) -> None:
    world = World(stage, "  - {id: busy, service: slack, operation: auth.test, kind: rate_limit, first: 2}\n")
    assert [world.slack("auth.test").status_code for _ in range(3)] == [429, 429, 200]
    assert [c["kind"] for c in world.live.events()].count("call") == 3


# -- the check ---------------------------------------------------------------------------------------------

PATIENCE = "  - {id: busy, service: slack, operation: chat.postMessage, kind: rate_limit, retry_after: 30s, first: 1}\n"
CHECK = "  - {id: patient, trace: {respected_retry_after: {service: slack}}}\n"


def test_an_agent_that_waits_passes(stage: Any) -> None:
    world = World(stage, PATIENCE, CHECK)
    refused = post(world)
    world.live.advance(f"{refused.headers['retry-after']}s")
    assert post(world).json()["ok"] is True
    check = world.checks()["patient"]
    assert check["passed"] is True, check
    assert check["evidence"] == [2, 4]  # seq 3: the clock moved


def test_an_agent_that_hammers_fails(stage: Any) -> None:
    world = World(stage, PATIENCE.replace("first: 1", "first: 2"), CHECK)
    assert [post(world).status_code for _ in range(3)] == [429, 429, 200]
    check = world.checks()["patient"]
    assert check["passed"] is False
    assert check["evidence"] == [2, 3, 4]
    assert check["actual"] == (
        "POST /api/chat.postMessage (seq 3) came 5s after seq 2 was told to wait 30s and "
        "POST /api/chat.postMessage (seq 4) came 5s after seq 3 was told to wait 30s"
    )


def test_no_rate_limit_passes_the_check(stage: Any) -> None:
    world = World(
        stage,
        PATIENCE.replace("chat.postMessage", "auth.test"),
        "  - {id: patient, trace: {respected_retry_after: true}}\n",
    )
    assert post(world).json()["ok"] is True
    assert world.checks()["patient"]["passed"] is True


# -- the scene's errors ------------------------------------------------------------------------------------


def test_every_problem_is_named_at_its_line_and_field() -> None:
    text = scene(
        "  - {id: a, service: slack, operation: chat.postMesage, kind: rate_limit}\n"
        "  - {id: a, service: slack, kind: slow}\n"
        "  - {id: b, service: github, kind: rate_limit, limit: 5/1m}\n"
        "  - {id: c, service: jira, kind: server_error}\n"
        "  - {id: d, service: datadog, kind: server_error, status: 418, every: 2, first: 1}\n"
        "  - {id: e, service: slack, kind: slow, real_delay_ms: 60000, delay: 1s}\n"
    )
    with pytest.raises(SpecError) as raised:
        build_image(*read_scene_text(text, "scene.yaml"))
    found = [(e.line, e.field, e.message) for e in raised.value.errors]  # type: ignore[attr-defined]
    assert [(line, field) for line, field, _ in found] == [
        (9, "api_faults[1]"),
        (10, "api_faults[2]"),
        (11, "api_faults[3]"),
        (12, "api_faults[4]"),
        (13, "api_faults[5].real_delay_ms"),
    ]
    assert "a slow fault has a delay (simulated) or real_delay_ms" in found[0][2]
    assert "limit is announced by Datadog's and PagerDuty's headers alone" in found[1][2]
    assert "service is one of: slack, github, datadog, pagerduty, calendar, gmail; found 'jira'" in found[2][2]
    assert "give at most one of every, first, probability" in found[3][2]


def test_an_operation_that_matches_nothing_is_an_error() -> None:
    text = scene(
        "  - {id: a, service: slack, operation: chat.postMesage, kind: rate_limit}\n"
        "  - {id: a, service: slack, operation: auth.test, kind: rate_limit}\n"
    )
    with pytest.raises(SpecError) as raised:
        build_image(*read_scene_text(text, "scene.yaml"))
    found = [(e.line, e.field, e.message) for e in raised.value.errors]  # type: ignore[attr-defined]
    assert found == [
        (
            8,
            "api_faults[0].operation",
            (
                "operation 'chat.postMesage' matches no slack operation soundstage implements "
                "(did you mean 'chat.postMessage'?)"
            ),
        ),
        (9, "api_faults[1].id", "api fault id 'a' is used twice (first at api_faults[0])"),
    ]
