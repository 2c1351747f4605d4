"""Slack's MCP tools (docs/mcp.md), each through the SDK's client: its answer is the Web API's answer to the
call it stands for, and it is one logged call through the tool."""

from __future__ import annotations

from typing import Any

import pytest
from tests.server.test_isolation import EVERY_SERVICE
from tests.services.mcp_tools import call, rest


@pytest.fixture(scope="module")
def live(stage: Any) -> Any:
    """One world for the module: the tests' writes touch records no other test reads."""
    return stage.world(EVERY_SERVICE)


def _channel(live: Any, name: str) -> str:
    return next(c["id"] for c in live.state()["slack.channels"] if c.get("name") == name)


def test_list_channels_reads_a_page_of_public_channels(live):
    listed = call(live, "slack", "slack_list_channels", {"limit": 3})
    asked = {"types": "public_channel", "exclude_archived": True, "limit": 3}
    assert listed.event["body"] == asked
    assert listed.json == rest(live, "slack", "POST", "/api/conversations.list", json=asked)
    assert [c["name"] for c in listed.json["channels"]] == ["general", "support", "engineering"]
    # A page past Slack's 200 is asked for as 200, as the reference server asks.
    assert call(live, "slack", "slack_list_channels", {"limit": 500}).event["body"]["limit"] == 200


def test_post_message_posts_to_the_channel(live):
    engineering = _channel(live, "engineering")
    posted = call(live, "slack", "slack_post_message", {"channel_id": engineering, "text": "Deploy at noon"})
    assert posted.error is False
    assert (posted.json["ok"], posted.json["channel"], posted.json["message"]["text"]) == (
        True,
        engineering,
        "Deploy at noon",
    )
    [message] = [m for m in live.state()["slack.messages"] if m["ts"] == posted.json["ts"]]
    assert (message["channel"], message["text"], message["user"]) == (
        engineering,
        "Deploy at noon",
        posted.json["message"]["user"],
    )


def test_get_thread_replies_reads_the_thread_parent_first(live):
    engineering = _channel(live, "engineering")  # a channel of the bot's
    parent = next(m for m in live.state()["slack.messages"] if m["channel"] == engineering and m.get("reply_count"))
    replies = call(
        live, "slack", "slack_get_thread_replies", {"channel_id": parent["channel"], "thread_ts": parent["ts"]}
    )
    assert replies.event["body"] == {"channel": parent["channel"], "ts": parent["ts"]}
    assert replies.json == rest(
        live, "slack", "POST", "/api/conversations.replies", json={"channel": parent["channel"], "ts": parent["ts"]}
    )
    assert replies.json["messages"][0]["ts"] == parent["ts"]
    assert len(replies.json["messages"]) == 1 + parent["reply_count"]


def test_get_users_lists_the_members(live):
    users = call(live, "slack", "slack_get_users", {"limit": 5})
    assert users.event["body"] == {"limit": 5}
    got, answer = users.json, rest(live, "slack", "POST", "/api/users.list", json={"limit": 5})
    assert got.pop("cache_ts") < answer.pop("cache_ts")  # the time of each answer, a tick apart
    assert got == answer
    assert len(got["members"]) == 5 and got["response_metadata"]["next_cursor"]


def test_get_user_profile_reads_one_profile(live):
    maya = next(u for u in live.state()["slack.users"] if u.get("real_name") == "Maya Chen")
    profile = call(live, "slack", "slack_get_user_profile", {"user_id": maya["id"]})
    asked = {"user": maya["id"], "include_labels": True}
    assert profile.event["body"] == asked
    assert profile.json == rest(live, "slack", "POST", "/api/users.profile.get", json=asked)
    assert profile.json["profile"]["real_name"] == "Maya Chen"


def test_search_reads_the_filters_as_slacks_modifiers(live):
    user = {"Authorization": f"Bearer {live.user_token}"}
    support = _channel(live, "support")
    arguments = {"search_query": "export", "filter_in_channel": support, "filter_date_after": "2026-01-01"}
    found = call(live, "slack", "conversations_search_messages", {**arguments, "filter_threads_only": True}, user)
    query = f"export in:<#{support}> after:2026-01-01 is:thread"
    assert found.event["body"] == {"query": query, "count": 20}
    assert found.json == rest(
        live, "slack", "POST", "/api/search.messages", json={"query": query, "count": 20}, headers=user
    )
    assert found.json["ok"] is True


def test_an_unknown_user_is_slacks_error(live):
    missing = call(live, "slack", "slack_get_user_profile", {"user_id": "U0NOBODY"})
    assert (missing.error, missing.json) == (True, {"ok": False, "error": "user_not_found"})
    assert missing.event["error"] is True
