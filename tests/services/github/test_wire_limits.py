"""Rate limits a scene turns on: the primary limit, and per-operation windows answered as GitHub's
secondary limit; both in simulated time."""

from __future__ import annotations

import pytest
from requests.exceptions import RetryError

from soundstage.services.github.limits import HourlyCalls

from .conftest import SCENE, GitHubWorld


def _world(stage, limits: str) -> GitHubWorld:
    return GitHubWorld(stage.world(SCENE.replace("task: test\n", f"task: test\nrate_limits: {limits}\n")))


def test_per_operation_limit_is_a_secondary_limit(stage):
    gh = _world(stage, '{github: {"GET /repos/{owner}/{repo}": 2/1m}}')
    assert [gh.raw("GET", "/repos/acme/orders").status_code for _ in range(2)] == [200, 200]
    r = gh.raw("GET", "/repos/acme/orders")
    assert r.status_code == 403
    assert r.json()["message"].startswith("You have exceeded a secondary rate limit.")
    assert r.headers["retry-after"] == "50"  # two calls 5 s apart: the first leaves the window in 50 s
    assert gh.raw("GET", "/user").status_code == 200  # other operations are not limited
    gh.live.advance("1m")
    assert gh.raw("GET", "/repos/acme/orders").status_code == 200


def test_primary_limit(stage):
    gh = _world(stage, "{github: true}")
    assert gh.raw("GET", "/user").status_code == 200
    world = gh.live.world
    window = world.now() // 1_000_000 // 3600
    world.part(HourlyCalls)[window] = 5000
    r = gh.raw("GET", "/user")
    assert r.status_code == 403
    assert r.json()["message"] == "API rate limit exceeded for user ID 90000001."
    assert r.headers["x-ratelimit-remaining"] == "0"
    # PyGithub retries a rate-limited call (its reset is already past on the wall clock) and gives up.
    with pytest.raises(RetryError):
        gh.py().get_repo("acme/orders")


def test_limits_are_off_by_default(gh):
    assert {gh.raw("GET", "/repos/acme/orders").status_code for _ in range(5)} == {200}
