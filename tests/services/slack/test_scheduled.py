"""chat.scheduleMessage, chat.scheduledMessages.list, chat.deleteScheduledMessage: kept until the simulated
clock reaches `post_at`, then posted."""

from __future__ import annotations

import re

from .conftest import START


def test_a_scheduled_message_is_posted_when_its_time_comes(slack):
    support = slack["support"]
    body = slack.client.chat_scheduleMessage(channel=support, text="Standup <soon>", post_at=START + 3600).data
    assert re.fullmatch(r"Q[0-9A-Z]{10}", body["scheduled_message_id"])
    assert (body["channel"], body["post_at"]) == (support, START + 3600)
    assert (body["message"]["type"], body["message"]["text"], body["message"]["user"]) == (
        "delayed_message",
        "Standup &lt;soon&gt;",
        slack["bot"],
    )
    listed = slack.client.chat_scheduledMessages_list().data
    assert listed["scheduled_messages"] == [
        {
            "id": body["scheduled_message_id"],
            "channel_id": support,
            "post_at": START + 3600,
            "date_created": START,
            "text": "Standup <soon>",
        }
    ]
    assert listed["response_metadata"] == {"next_cursor": ""}
    history = slack.client.conversations_history(channel=support)["messages"]
    assert "Standup &lt;soon&gt;" not in [m["text"] for m in history]
    slack.live.advance("1h")
    newest = slack.client.conversations_history(channel=support, limit=1)["messages"][0]
    assert (newest["text"], newest["ts"], newest["user"]) == (
        "Standup &lt;soon&gt;",
        f"{START + 3600}.000100",
        slack["bot"],
    )
    assert slack.client.chat_scheduledMessages_list()["scheduled_messages"] == []


def test_a_deleted_scheduled_message_is_never_posted(slack):
    support = slack["support"]
    first = slack.call("chat.scheduleMessage", channel=support, text="one", post_at=str(START + 600))
    second = slack.call("chat.scheduleMessage", channel=slack["general"], text="two", post_at=str(START + 300))
    ids = [m["id"] for m in slack.client.chat_scheduledMessages_list()["scheduled_messages"]]
    assert ids == [second["scheduled_message_id"], first["scheduled_message_id"]]  # soonest first
    only = slack.client.chat_scheduledMessages_list(channel=support)["scheduled_messages"]
    assert [m["id"] for m in only] == [first["scheduled_message_id"]]
    deleted = slack.client.chat_deleteScheduledMessage(
        channel=support, scheduled_message_id=first["scheduled_message_id"]
    )
    assert deleted.data == {"ok": True}
    wrong = {"channel": slack["general"], "scheduled_message_id": first["scheduled_message_id"]}
    assert slack.error("chat.deleteScheduledMessage", **wrong) == "invalid_scheduled_message_id"
    mismatched = {"channel": support, "scheduled_message_id": second["scheduled_message_id"]}
    assert slack.error("chat.deleteScheduledMessage", **mismatched) == "invalid_scheduled_message_id"
    slack.live.advance("15m")
    assert "one" not in [m["text"] for m in slack.client.conversations_history(channel=support)["messages"]]
    assert "two" in [m["text"] for m in slack.client.conversations_history(channel=slack["general"])["messages"]]


def test_schedule_errors(slack):
    support = slack["support"]
    assert slack.error("chat.scheduleMessage", channel=support, text="x") == "invalid_time"
    assert slack.error("chat.scheduleMessage", channel=support, text="x", post_at="soon") == "invalid_time"
    assert slack.error("chat.scheduleMessage", channel=support, text="x", post_at=str(START - 1)) == "time_in_past"
    far = str(START + 121 * 86400)
    assert slack.error("chat.scheduleMessage", channel=support, text="x", post_at=far) == "time_too_far"
    later = str(START + 60)
    assert slack.error("chat.scheduleMessage", channel=support, post_at=later) == "no_text"
    assert slack.error("chat.scheduleMessage", channel=slack["random"], text="x", post_at=later) == "not_in_channel"
    assert slack.error("chat.scheduleMessage", channel=slack["old"], text="x", post_at=later) == "is_archived"
    assert slack.error("chat.scheduleMessage", channel="C0000000000", text="x", post_at=later) == "channel_not_found"
    assert slack.error("chat.scheduledMessages.list", channel="C0000000000") == "invalid_channel"
    assert slack.error("chat.deleteScheduledMessage", channel=support, scheduled_message_id="Q123") == (
        "invalid_scheduled_message_id"
    )
