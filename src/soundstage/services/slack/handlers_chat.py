"""Slack's chat.* methods: posting, editing and deleting messages, ephemeral messages and permalinks."""

from __future__ import annotations

from typing import Any

from . import channels, messages, store, views
from .calls import Call, not_archived, ops
from .errors import SlackError


@ops("chat.postMessage")
def chat_post_message(call: Call) -> dict[str, Any]:
    conversation, dm_user = call.destination()
    if conversation is not None:
        call.require_member(conversation)
        not_archived(conversation)
    content = call.content()
    thread_ts = call.thread(conversation)
    broadcast = bool(thread_ts) and call.args.flag("reply_broadcast")
    extra = {**{k: v for k, v in content.items() if k != "text"}, **call.post_options()}
    metadata = call.metadata()
    if metadata is not None:
        extra["metadata"] = metadata
    if conversation is None:
        conversation, _ = channels.open_dm(call.world, call.me, dm_user["id"])  # type: ignore[index]
    message = messages.post(
        call.world,
        conversation["id"],
        call.me,
        content.get("text", ""),
        thread_ts=thread_ts,
        broadcast=broadcast,
        extra=extra or None,
        composed=False,
    )
    return {"channel": conversation["id"], "ts": message["ts"], "message": views.message(message, call.me)}


@ops("chat.update")
def chat_update(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    message = call.message(conversation, "ts", "message_not_found", "message_not_found")
    if message["user"] != call.me or message.get("subtype") not in (None, "thread_broadcast"):
        raise SlackError("cant_update_message")
    content = call.content()
    message = messages.update(call.world, message, call.me, content)
    return {
        "channel": conversation["id"],
        "ts": message["ts"],
        "text": message["text"],
        "message": views.message(message, call.me),
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
