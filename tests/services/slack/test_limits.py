"""Rate limits in simulated time: Slack's tiers (`rate_limits: {slack: true}`) or limits per method."""

from __future__ import annotations

import pytest
from slack_sdk.errors import SlackApiError

from soundstage.clock import parse_rate
from soundstage.services.slack.limits import METHOD_TIERS
from soundstage.services.slack.service import service
from soundstage.services.slack.store import CHANNELS

from .conftest import SCENE

STILL = SCENE.replace("tick: 5s", "tick: 0s")


def _limited(scene_world, limits: str, scene: str = SCENE):
    return scene_world(
        scene.replace("agent: {slack_user: $bot}", f"agent: {{slack_user: $bot}}\nrate_limits: {limits}")
    )


def test_limit_per_method(scene_world):
    slack = _limited(scene_world, '{slack: {conversations.list: "2/1m"}}')
    assert slack.call("conversations.list")["ok"] and slack.call("conversations.list")["ok"]
    refused = slack.raw("conversations.list")
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "50"  # calls at 0s and 5s; the first leaves the window at 60s
    assert refused.json() == {"ok": False, "error": "ratelimited"}
    assert slack.call("auth.test")["ok"] is True  # other methods are not limited
    call = slack.live.trace()[-2]
    assert (call["status"], call["error"], call["operation"]) == (429, True, "conversations.list")
    slack.live.advance("1m")
    assert slack.call("conversations.list")["ok"] is True


def test_sdk_sees_the_429(scene_world):
    slack = _limited(scene_world, '{slack: {"*": "1/1m"}}')
    slack.client.auth_test()
    with pytest.raises(SlackApiError) as failure:
        slack.client.auth_test()
    assert failure.value.response.status_code == 429
    assert failure.value.response.headers["retry-after"] == "55"
    assert slack.client.team_info()["ok"] is True  # "*" limits each method on its own


def test_tiers(scene_world):
    slack = _limited(scene_world, "{slack: true}", STILL)
    for i in range(20):  # conversations.create is Tier 2: 20 a minute
        assert slack.call("conversations.create", name=f"room-{i}")["ok"] is True
    refused = slack.raw("conversations.create", data={"name": "room-20"})
    assert (refused.status_code, refused.headers["retry-after"]) == (429, "60")
    assert "room-20" not in [c.get("name") for c in slack.world[CHANNELS]]


def test_post_message_per_channel_with_bursts(scene_world):
    slack = _limited(scene_world, "{slack: true}", STILL)
    for i in range(3):
        assert slack.call("chat.postMessage", channel=slack["support"], text=str(i))["ok"] is True
    refused = slack.raw("chat.postMessage", data={"channel": slack["support"], "text": "3"})
    assert (refused.status_code, refused.headers["retry-after"]) == (429, "3")
    assert slack.call("chat.postMessage", channel=slack["general"], text="elsewhere")["ok"] is True
    slack.live.advance("3s")
    assert slack.call("chat.postMessage", channel=slack["support"], text="3")["ok"] is True


def test_no_limits_by_default(scene_world):
    slack = scene_world(STILL)
    assert all(slack.call("conversations.list")["ok"] for _ in range(30))


def test_parse_rate():
    assert parse_rate("5/1m") == (5, 60_000_000)
    assert parse_rate(" 100 / 30s ") == (100, 30_000_000)
    for bad in ("5", "0/1m", "5/0s", "five/1m", "5/1 minute"):
        with pytest.raises(ValueError):
            parse_rate(bad)


def test_every_method_has_its_published_tier():
    tiered = set(METHOD_TIERS) | {"chat.postMessage"}  # limited per channel instead
    assert sorted(set(service.operations()) - tiered) == []
    assert sorted(tiered - set(service.operations())) == []
