"""Slack's conversations.* methods: listing and reading channels, DMs and group DMs, and managing them."""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import channels, messages, pins, reads, store, timeline, views
from .calls import TS, Call, channel_only, cursor, not_archived, ops
from .channels import type_of
from .errors import SlackError
from .timestamps import ts_us

_MAX_GROUP_DM = 8


def _ts(message: Record) -> str:
    return message["ts"]


@ops("conversations.list")
def conversations_list(call: Call) -> dict[str, Any]:
    types = call.types()
    exclude_archived = call.args.flag("exclude_archived")
    found = [
        c
        for c in call.world[store.CHANNELS]
        if type_of(c) in types and store.can_see(c, call.me) and not (exclude_archived and c.get("is_archived"))
    ]
    page, next_cursor = call.page(found, "channel", lambda c: c["id"], 100)
    return {
        "channels": [views.conversation(c, call.me, num_members=not c.get("is_im")) for c in page],
        "response_metadata": {"next_cursor": next_cursor},
    }


@ops("conversations.info")
def conversations_info(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    num_members = call.args.flag("include_num_members") and not conversation.get("is_im")
    view = views.conversation(conversation, call.me, num_members=num_members)
    if not conversation.get("is_im"):
        view.update(is_read_only=False, is_thread_only=False, is_non_threadable=False)
    if store.is_member(conversation, call.me):
        view["last_read"] = reads.last_read(call.world, conversation["id"], call.me)
    if call.args.flag("include_locale"):
        view["locale"] = store.locale(call.world)
    return {"channel": view}


@ops("conversations.history")
def conversations_history(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    call.require_readable(conversation)
    oldest, latest, inclusive = call.bounds()
    metadata = call.args.flag("include_all_metadata")
    ordered = messages.history_ts(call.world, conversation["id"])
    start, end = timeline.window(ordered, oldest, latest, inclusive)
    limit = call.args.limit(100, 999)
    top = end  # the newest message of the page, past the end of `ordered` while there is none
    position = call.args.cursor("next_ts")
    if position is not None:  # a cursor names the newest message of its page, still inside the window
        top = _position(ordered, position) + 1
        if not start < top <= end:
            raise SlackError("invalid_cursor", "the cursor points at an item that no longer exists")
    bottom = max(start, top - limit)
    page = store.messages_at(call.world, reversed(ordered[bottom:top]))
    next_cursor = cursor("next_ts", ordered[bottom - 1]) if bottom > start else ""
    body: dict[str, Any] = {
        "messages": [views.in_channel(call.world, m, call.me, metadata=metadata) for m in page],
        "has_more": bool(next_cursor),
        "pin_count": len(pins.in_channel(call.world, conversation["id"])),
        "channel_actions_ts": None,
        "channel_actions_count": 0,
    }
    for bound in ("oldest", "latest"):  # Slack says back the bounds it was given
        if call.args.string(bound):
            body[bound] = call.args.string(bound)
    if next_cursor:
        body["response_metadata"] = {"next_cursor": next_cursor}
    return body


def _position(ordered: list[str], ts: str) -> int:
    """Where `ts` is in `ordered`; an invalid cursor when it is not there."""
    try:
        at = timeline.before(ordered, ts)
    except ValueError:  # not a ts at all
        at = len(ordered)
    if at == len(ordered) or ordered[at] != ts:
        raise SlackError("invalid_cursor", "the cursor points at an item that no longer exists")
    return at


@ops("conversations.replies")
def conversations_replies(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    call.require_readable(conversation)
    target = call.message(conversation, "ts", "thread_not_found", "thread_not_found", "thread_not_found")
    parent = messages.thread_parent(call.world, target) or target
    inside = call.window()
    thread = [m for m in [parent, *store.replies(call.world, parent["ts"])] if inside(m)]
    page, next_cursor = call.page(thread, "next_ts", _ts, 1000)
    metadata = call.args.flag("include_all_metadata")
    body: dict[str, Any] = {
        "messages": [views.message(m, call.me, metadata=metadata) for m in page],
        "has_more": bool(next_cursor),
    }
    if next_cursor:
        body["response_metadata"] = {"next_cursor": next_cursor}
    return body


@ops("conversations.mark")
def conversations_mark(call: Call) -> dict[str, Any]:
    # Slack moves a person's read cursor; an app has none (its scopes for this method are user scopes).
    if call.bot:
        raise SlackError("not_allowed_token_type")
    conversation = call.conversation()
    ts = call.args.string("ts")
    if not ts or not TS.fullmatch(ts):
        raise SlackError("invalid_timestamp")
    call.require_member(conversation)
    reads.mark(call.world, conversation["id"], call.me, ts)
    return {}


@ops("conversations.members")
def conversations_members(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    members, next_cursor = call.page(list(conversation["members"]), "member", str, 100)
    return {"members": members, "response_metadata": {"next_cursor": next_cursor}}


@ops("conversations.open")
def conversations_open(call: Call) -> dict[str, Any]:
    return_im = call.args.flag("return_im")
    if call.args.string("channel"):
        conversation = call.conversation()
        if not (conversation.get("is_im") or conversation["is_mpim"]):
            raise SlackError("method_not_supported_for_channel_type")
        existed = True
    else:
        user_ids = call.args.ids("users")
        if not user_ids:
            raise SlackError("users_list_not_supplied")
        if len(user_ids) > _MAX_GROUP_DM:
            raise SlackError("too_many_users")
        for user_id in user_ids:
            if call.existing_user(user_id)["deleted"]:
                raise SlackError("user_disabled")
        others = list(dict.fromkeys(u for u in user_ids if u != call.me))
        if len(others) <= 1:
            conversation, existed = channels.open_dm(call.world, call.me, others[0] if others else call.me)
        else:
            conversation, existed = channels.open_group_dm(call.world, call.me, others)
    body: dict[str, Any] = {"no_op": True, "already_open": True} if existed else {}
    body["channel"] = _opened(call, conversation) if return_im else {"id": conversation["id"]}
    return body


def _opened(call: Call, conversation: Record) -> dict[str, Any]:
    """The whole conversation conversations.open answers with `return_im`: a DM also says where the caller
    has read to, its newest message, and how many messages of others came after what the caller read."""
    view = views.conversation(conversation, call.me)
    if not conversation.get("is_im"):
        return view
    read = reads.last_read(call.world, conversation["id"], call.me)
    history = messages.history(call.world, conversation["id"])
    unread = sum(1 for m in history if m["user"] != call.me and ts_us(m["ts"]) > ts_us(read))
    view.update(
        last_read=read,
        latest=views.in_channel(call.world, history[-1], call.me) if history else None,
        unread_count=unread,
        unread_count_display=unread,
        is_open=True,
    )
    return view


@ops("conversations.join")
def conversations_join(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    if conversation.get("is_im") or conversation["is_private"]:
        raise SlackError("method_not_supported_for_channel_type")
    not_archived(conversation)
    if store.is_member(conversation, call.me):
        call.args.warnings.append("already_in_channel")
    else:
        conversation = channels.add_members(call.world, conversation, [call.me])
    return {"channel": views.as_member(call.world, conversation, call.me)}


@ops("conversations.create")
def conversations_create(call: Call) -> dict[str, Any]:
    name = call.channel_name()
    is_private = call.args.flag("is_private")
    created = channels.create_channel(call.world, name, call.me, is_private)
    return {"channel": views.as_member(call.world, created, call.me)}


@ops("conversations.invite")
def conversations_invite(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    channel_only(conversation)
    call.require_member(conversation)
    not_archived(conversation)
    user_ids = call.args.ids("users")
    if not user_ids:
        raise SlackError("no_user")
    if len(user_ids) > 1000:
        raise SlackError("too_many_users")
    for user_id in user_ids:
        if user_id == call.me:
            raise SlackError("cant_invite_self")
        if call.existing_user(user_id)["deleted"]:
            raise SlackError("cant_invite")
        if store.is_member(conversation, user_id):
            raise SlackError("already_in_channel")
        if call.existing_user(user_id)["is_ultra_restricted"] and channels.in_a_channel(call.world, user_id):
            raise SlackError("ura_max_channels")  # a single-channel guest, in their one channel already
    conversation = channels.add_members(call.world, conversation, dict.fromkeys(user_ids), inviter=call.me)
    return {"channel": views.as_member(call.world, conversation, call.me)}


@ops("conversations.kick")
def conversations_kick(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    channel_only(conversation)
    user = call.existing_user(call.args.string("user"))
    if user["id"] == call.me:
        raise SlackError("cant_kick_self")
    if conversation["is_general"]:
        raise SlackError("cant_kick_from_general")
    call.require_member(conversation)
    if not store.is_member(conversation, user["id"]):
        raise SlackError("not_in_channel")
    channels.remove_member(call.world, conversation, user["id"], announce=False)
    return {}


@ops("conversations.leave")
def conversations_leave(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    channel_only(conversation)
    if conversation["is_general"]:
        raise SlackError("cant_leave_general")
    not_archived(conversation)
    if not store.is_member(conversation, call.me):
        return {"not_in_channel": True}
    if conversation["is_private"] and len(conversation["members"]) == 1:
        raise SlackError("last_member")
    channels.remove_member(call.world, conversation, call.me)
    return {}


def _set_topic(call: Call, field: str) -> dict[str, Any]:
    """conversations.setTopic and conversations.setPurpose."""
    conversation = call.conversation()
    channel_only(conversation)
    value = call.topic(field)
    call.require_member(conversation)
    not_archived(conversation)
    changed = channels.set_topic(call.world, conversation, call.me, field, value)
    return {"channel": views.as_member(call.world, changed, call.me)}


@ops("conversations.setTopic")
def conversations_set_topic(call: Call) -> dict[str, Any]:
    return _set_topic(call, "topic")


@ops("conversations.setPurpose")
def conversations_set_purpose(call: Call) -> dict[str, Any]:
    return _set_topic(call, "purpose")


@ops("conversations.archive")
def conversations_archive(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    channel_only(conversation)
    if conversation["is_archived"]:
        raise SlackError("already_archived")
    if conversation["is_general"]:
        raise SlackError("cant_archive_general")
    call.require_member(conversation)
    channels.set_archived(call.world, conversation, call.me, True)
    return {}


@ops("conversations.unarchive")
def conversations_unarchive(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    channel_only(conversation)
    if not conversation["is_archived"]:
        raise SlackError("not_archived")
    # Slack documents that bot tokens cannot unarchive; its description gives this code for a bot caller.
    if call.bot:
        raise SlackError("user_is_bot")
    conversation = channels.set_archived(call.world, conversation, call.me, False)
    channels.add_members(call.world, conversation, [call.me])  # the caller is added, as Slack documents
    return {}


@ops("conversations.rename")
def conversations_rename(call: Call) -> dict[str, Any]:
    conversation = call.conversation()
    if conversation.get("is_im") or conversation["is_mpim"]:
        raise SlackError("method_not_supported_for_channel_type")
    call.require_member(conversation)
    name = call.channel_name(exclude=conversation["id"])
    if name != conversation["name"]:
        conversation = channels.rename(call.world, conversation, call.me, name)
    return {"channel": views.as_member(call.world, conversation, call.me)}
