"""Slack's chat.* methods: posting, editing and deleting messages, ephemeral messages and permalinks."""

from __future__ import annotations

from typing import Any

from ...clock import US
from ...world import Record
from . import messages, mrkdwn, scheduled, store, views
from .calls import Call, not_archived, ops
from .errors import SlackError
from .timestamps import now_seconds


def _what(call: Call, conversation: Record | None) -> tuple[str, str | None, bool, dict[str, Any]]:
    """A new message's text, thread, whether it is also sent to the channel, and its other fields."""
    extra = call.content()  # a new dict: the fields past the text are the message's other fields
    text = extra.pop("text", "")
    thread_ts = call.thread(conversation)
    broadcast = bool(thread_ts) and call.args.flag("reply_broadcast")
    extra.update(call.post_options())
    metadata = call.metadata()
    if metadata is not None:
        extra["metadata"] = metadata
    return text, thread_ts, broadcast, extra


@ops("chat.postMessage")
def chat_post_message(call: Call) -> dict[str, Any]:
    conversation, dm_user = call.postable()
    text, thread_ts, broadcast, extra = _what(call, conversation)
    conversation = call.opened(conversation, dm_user)
    message = messages.post(
        call.world,
        conversation["id"],
        call.me,
        text,
        thread_ts=thread_ts,
        broadcast=broadcast,
        extra=extra or None,
        composed=False,
    )
    return {
        "channel": conversation["id"],
        "ts": message["ts"],
        "message": views.in_channel(call.world, message, call.me),
    }


@ops("chat.update")
def chat_update(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    message = call.message(conversation, "ts", "message_not_found", "message_not_found")
    if message["user"] != call.me or message.get("subtype") not in (None, "thread_broadcast"):
        raise SlackError("cant_update_message")
    content = call.content()
    metadata = call.metadata()  # without it, the message keeps the metadata it has, as Slack documents
    if metadata is not None:
        content["metadata"] = metadata
    message = messages.update(call.world, message, call.me, content)
    return {
        "channel": conversation["id"],
        "ts": message["ts"],
        "text": message["text"],
        "message": views.in_channel(call.world, message, call.me),
    }


@ops("chat.delete")
def chat_delete(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    message = call.message(conversation, "ts", "message_not_found", "message_not_found")
    if message.get("subtype") == "tombstone":
        raise SlackError("message_not_found")
    # Bots delete only their own messages; a workspace admin's user token may delete anyone's.
    if message["user"] != call.me and (call.bot or not call.user["is_admin"]):
        raise SlackError("cant_delete_message")
    messages.delete(call.world, message)
    return {"channel": conversation["id"], "ts": message["ts"]}


@ops("chat.postEphemeral")
def chat_post_ephemeral(call: Call) -> dict[str, Any]:
    conversation, _ = call.destination()
    if conversation is None:  # a user without a DM yet: ephemeral messages do not open one
        raise SlackError("channel_not_found")
    user_id = call.args.string("user")
    if not user_id:
        raise SlackError("user_not_in_channel")
    call.existing_user(user_id)
    if not store.is_member(conversation, user_id):
        raise SlackError("user_not_in_channel")
    call.require_member(conversation)
    not_archived(conversation)
    content = call.content()
    thread_ts = call.thread(conversation)
    message = messages.post_ephemeral(
        call.world, conversation["id"], call.me, user_id, content.get("text", ""), thread_ts
    )
    return {"message_ts": message["ts"]}


@ops("chat.getPermalink")
def chat_get_permalink(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    message = call.message(conversation, "message_ts", "message_not_found", "message_not_found")
    return {"channel": conversation["id"], "permalink": views.permalink(store.domain(call.world), message)}


_MAX_SCHEDULE_AHEAD = 120 * 86400  # Slack schedules at most 120 days ahead


@ops("chat.scheduleMessage")
def chat_schedule_message(call: Call) -> dict[str, Any]:
    conversation, dm_user = call.postable()
    post_at = call.args.integer("post_at", 0, "invalid_time")
    now = now_seconds(call.world)
    if post_at <= 0:
        raise SlackError("invalid_time")
    if post_at <= now:
        raise SlackError("time_in_past")
    if post_at > now + _MAX_SCHEDULE_AHEAD:
        raise SlackError("time_too_far")
    text, thread_ts, broadcast, extra = _what(call, conversation)
    conversation = call.opened(conversation, dm_user)
    record = scheduled.schedule(
        call.world, conversation["id"], call.me, post_at, text, thread_ts=thread_ts, broadcast=broadcast, extra=extra
    )
    return {
        "channel": conversation["id"],
        "scheduled_message_id": record["id"],
        "post_at": post_at,
        "message": _delayed(call, record),
    }


def _delayed(call: Call, record: Record) -> dict[str, Any]:
    """The message chat.scheduleMessage answers: Slack's `delayed_message`, by its author."""
    team_id = store.team_id(call.world)
    view = {"type": "delayed_message", "text": mrkdwn.escape(record["text"]), "user": call.me, "team": team_id}
    return {**view, **messages.bot_fields(call.user, team_id), **record["extra"]}


@ops("chat.scheduledMessages.list")
def chat_scheduled_messages_list(call: Call) -> dict[str, Any]:
    channel_id = call.args.string("channel")
    if channel_id:
        conversation = call.world[store.CHANNELS].get(channel_id)
        if conversation is None or not store.can_see(conversation, call.me):
            raise SlackError("invalid_channel")
    oldest = call.args.micros("oldest", "invalid_arguments")
    latest = call.args.micros("latest", "invalid_arguments")
    found = [
        r
        for r in scheduled.of_user(call.world, call.me)
        if (not channel_id or r["channel_id"] == channel_id)
        and (oldest is None or r["post_at"] * US >= oldest)
        and (latest is None or r["post_at"] * US <= latest)
    ]
    page, next_cursor = call.page(found, "scheduled", lambda r: r["id"], 100)
    return {
        "scheduled_messages": [
            {k: r[k] for k in ("id", "channel_id", "post_at", "date_created", "text")} for r in page
        ],
        "response_metadata": {"next_cursor": next_cursor},
    }


@ops("chat.deleteScheduledMessage")
def chat_delete_scheduled_message(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    record = call.world[store.SCHEDULED].get(call.args.string("scheduled_message_id") or "")
    if record is None or record["user"] != call.me or record["channel_id"] != conversation["id"]:
        raise SlackError("invalid_scheduled_message_id")
    scheduled.cancel(call.world, record["id"])
    return {}
