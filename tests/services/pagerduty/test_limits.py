"""PagerDuty's REST API rate limits in simulated time: `rate_limits: {pagerduty: true}` (960 requests a
minute per user, across operations) or limits per operation; 429 code 2020 with the `ratelimit-*` headers.
The official client retries 429 without end, so it is driven here with a bounded retry or with a window
that the simulated clock frees by the time it retries."""

from __future__ import annotations

from collections import deque

import pagerduty
import pytest

from soundstage.errors import SpecError
from soundstage.services.limits import RateLimits
from soundstage.services.pagerduty.store import INCIDENTS
from soundstage.stage.models import read_scene_text

from .conftest import SCENE, PagerDutyWorld

REFUSED = {"error": {"message": "Rate Limit Exceeded", "code": 2020}}


def _limited(stage, limits: str) -> PagerDutyWorld:
    return PagerDutyWorld(stage.world(SCENE.replace("task: test\n", f"task: test\nrate_limits: {limits}\n")))


def _limit_headers(response) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k.startswith("ratelimit-")}


def _quick(client):
    """The client, sleeping a few milliseconds (not seconds) between its retries."""
    client.sleep_timer = 0.001
    return client


def test_limit_per_operation(stage):
    pd = _limited(stage, '{pagerduty: {"GET /services": 2/1m}}')
    first, second = pd.raw("GET", "/services"), pd.raw("GET", "/services")
    assert (first.status_code, second.status_code) == (200, 200)
    assert _limit_headers(first) == {"ratelimit-limit": "2", "ratelimit-remaining": "1", "ratelimit-reset": "60"}
    assert _limit_headers(second) == {"ratelimit-limit": "2", "ratelimit-remaining": "0", "ratelimit-reset": "55"}
    refused = pd.raw("GET", "/services")
    assert (refused.status_code, refused.json()) == (429, REFUSED)
    # calls at 0 s and 5 s: the first leaves the window at 60 s
    assert _limit_headers(refused) == {"ratelimit-limit": "2", "ratelimit-remaining": "0", "ratelimit-reset": "50"}
    users = pd.raw("GET", "/users")  # other operations are not limited
    assert (users.status_code, _limit_headers(users)) == (200, {})
    call = pd.live.trace()[-2]
    assert (call["status"], call["error"], call["operation"]) == (429, True, "GET /services")
    pd.advance("1m")
    assert pd.raw("GET", "/services").status_code == 200


def test_true_is_960_a_minute_across_operations(stage):
    pd = _limited(stage, "{pagerduty: true}")
    services = pd.raw("GET", "/services")
    assert _limit_headers(services) == {"ratelimit-limit": "960", "ratelimit-remaining": "959", "ratelimit-reset": "60"}
    assert _limit_headers(pd.raw("GET", "/users"))["ratelimit-remaining"] == "958"  # one window for every call
    # Fill the window as 958 more calls at this instant would.
    world = pd.live.world
    windows = world.part(RateLimits).windows["pagerduty"]
    windows[f"{pd.ref('maya')} *"] = deque([*windows[f"{pd.ref('maya')} *"], *[world.now()] * 958])
    refused = pd.raw("GET", "/incidents")
    assert (refused.status_code, refused.json()) == (429, REFUSED)
    assert _limit_headers(refused) == {"ratelimit-limit": "960", "ratelimit-remaining": "0", "ratelimit-reset": "50"}


def test_refused_call_changes_nothing(stage):
    pd = _limited(stage, '{pagerduty: {"POST /incidents": 1/1h}}')
    incident = {
        "type": "incident",
        "title": "Down",
        "service": {"id": pd.ref("billing_svc"), "type": "service_reference"},
    }
    headers = {"From": pd.email}
    assert pd.raw("POST", "/incidents", headers=headers, json={"incident": incident}).status_code == 201
    before = len(pd.live.world[INCIDENTS])
    refused = pd.raw("POST", "/incidents", headers=headers, json={"incident": {**incident, "title": "Again"}})
    assert (refused.status_code, refused.json(), refused.headers["ratelimit-reset"]) == (429, REFUSED, "3595")
    assert len(pd.live.world[INCIDENTS]) == before


def test_errors_of_a_limited_operation_carry_the_headers(stage):
    pd = _limited(stage, '{pagerduty: {"GET /services/{id}": 5/1m}}')
    missing = pd.raw("GET", "/services/PNOPE00")
    assert (missing.status_code, _limit_headers(missing)) == (
        404,
        {"ratelimit-limit": "5", "ratelimit-remaining": "4", "ratelimit-reset": "60"},
    )


def test_client_with_bounded_retry_sees_the_429(stage):
    pd = _limited(stage, '{pagerduty: {"GET /services": 1/1h}}')
    client = _quick(pd.client())
    client.retry[429] = 1  # one retry, then the client hands back the 429
    assert [s["name"] for s in client.list_all("services")] == ["Billing", "Orders API"]
    with pytest.raises(pagerduty.HttpError) as refused:
        client.rget("services")
    assert (refused.value.response.status_code, refused.value.response.json()) == (429, REFUSED)
    assert [c["status"] for c in pd.live.trace()[-3:]] == [200, 429, 429]


def test_client_retry_succeeds_once_simulated_time_frees_the_window(stage):
    # 1 call in 6 s, the clock moving 5 s a call: the call after a refusal finds a place again.
    pd = _limited(stage, '{pagerduty: {"GET /users/me": 1/6s}}')
    client = _quick(pd.client())
    assert client.rget("users/me")["name"] == "Maya Chen"
    assert client.rget("users/me")["name"] == "Maya Chen"
    assert [(c["status"], c["operation"]) for c in pd.live.trace()[-3:]] == [
        (200, "GET /users/me"),
        (429, "GET /users/me"),
        (200, "GET /users/me"),
    ]


def test_unknown_operation_is_a_scene_error():
    text = 'name: x\ntask: t\nworld: acme\nrate_limits:\n  pagerduty: {"PUT /incident/{id}": 5/1m}\n'
    with pytest.raises(SpecError) as caught:
        read_scene_text(text, "scene.yaml")
    assert str(caught.value) == (
        "scene.yaml:5: rate_limits.pagerduty.PUT /incident/{id}: expected * or a pagerduty operation soundstage "
        "implements, found 'PUT /incident/{id}' (did you mean 'PUT /incidents/{id}'?)"
    )
