"""Channel posting permissions: `posting_restricted_to` and `threads_restricted_to` in a channel's
`properties` (the SCENE's #general: top-level posts by admins and the bot, thread replies by admins, the bot
and Maya), and Slack's `restricted_action` for a post they do not allow."""

from __future__ import annotations

import pytest
from slack_sdk.errors import SlackApiError

from .conftest import SCENE


def as_user(scene_world, ref: str):
    return scene_world(SCENE.replace("agent: {slack_user: $bot}", f"agent: {{slack_user: ${ref}}}"))


def test_a_channels_permissions_are_in_its_properties(slack):
    general = slack.client.conversations_info(channel=slack["general"])["channel"]["properties"]
    assert general["posting_restricted_to"] == {"type": ["admin"], "user": [slack["bot"]]}
    assert general["threads_restricted_to"] == {"type": ["admin"], "user": [slack["bot"], slack["maya"]]}
    listed = {c["id"]: c for c in slack.client.conversations_list()["channels"]}
    assert listed[slack["general"]]["properties"]["posting_restricted_to"]["user"] == [slack["bot"]]
    support = slack.call("conversations.info", channel=slack["support"])["channel"]["properties"]
    assert not {"posting_restricted_to", "threads_restricted_to"} & set(support)


def test_a_member_not_allowed_gets_restricted_action_and_nothing_is_posted(scene_world):
    laura = as_user(scene_world, "laura")
    before = laura.messages()
    with pytest.raises(SlackApiError) as raised:
        laura.client.chat_postMessage(channel=laura["general"], text="hello all")
    assert raised.value.response.data == {"ok": False, "error": "restricted_action"}
    general, welcome = laura["general"], laura["welcome"]
    assert laura.error("chat.postMessage", channel=general, text="me too", thread_ts=welcome) == "restricted_action"
    assert (
        laura.error("chat.scheduleMessage", channel=general, text="later", post_at="1772463600") == "restricted_action"
    )
    with pytest.raises(SlackApiError) as raised:
        laura.client.files_upload_v2(channel=general, content="notes", filename="notes.txt")
    assert raised.value.response["error"] == "restricted_action"
    assert laura.messages() == before and laura.call("chat.scheduledMessages.list")["scheduled_messages"] == []
    # Elsewhere she posts as before.
    assert laura.call("chat.postMessage", channel=laura["support"], text="hi")["ok"] is True


def test_thread_permissions_are_separate_from_posting_ones(scene_world):
    maya = as_user(scene_world, "maya")
    general, welcome = maya["general"], maya["welcome"]
    assert maya.error("chat.postMessage", channel=general, text="news") == "restricted_action"
    reply = maya.client.chat_postMessage(channel=general, text="thanks", thread_ts=welcome)
    assert reply["message"]["thread_ts"] == welcome
    # A reply also sent to the channel is a post there too.
    assert (
        maya.error("chat.postMessage", channel=general, text="all", thread_ts=welcome, reply_broadcast="true")
        == "restricted_action"
    )


def test_admins_and_the_users_listed_may_post(slack, scene_world):
    omar = as_user(scene_world, "omar")  # a workspace admin
    assert omar.call("chat.postMessage", token="user", channel=omar["general"], text="news")["ok"] is True
    assert omar.call("chat.postMessage", channel=omar["general"], text="re", thread_ts=omar["welcome"])["ok"] is True
    posted = slack.client.chat_postMessage(
        channel=slack["general"], text="from the bot", thread_ts=slack["welcome"], reply_broadcast=True
    )
    assert posted["message"]["subtype"] == "thread_broadcast"
