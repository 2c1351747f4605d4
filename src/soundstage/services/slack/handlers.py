"""One function per Slack Web API method, registered under its Slack name.

A handler reads its arguments, validates all of them (raising `SlackError` with Slack's code) before the
first write, changes state through `store`, and returns the success body without `ok`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Callable

from ...world import Record, World
from ..base import Operations
from . import objects, search, store, views
from .args import TS, Args, cursor
from .errors import SlackError

ops = Operations("slack")

_TYPES = {"public_channel", "private_channel", "mpim", "im"}
_MAX_TEXT = 40_000
_MAX_TOPIC = 250
_MAX_ATTACHMENTS = 100
_MAX_BLOCKS = 50
_MAX_GROUP_DM = 8


@dataclass
class Call:
    """One call: the world, the caller's user record, the token type and the arguments."""

    world: World
    user: Record
    bot: bool  # a bot token (xoxb-); otherwise a user token (xoxp-)
    args: Args

    @property
    def me(self) -> str:
        return self.user["id"]


# -- shared argument readers -------------------------------------------------------------------------


def _conversation(call: Call, name: str = "channel") -> Record:
    """The conversation an argument names, if the caller may see it (else Slack's `channel_not_found`)."""
    channel_id = call.args.string(name)
    record = call.world[store.CHANNELS].get(channel_id) if channel_id else None
    if record is None or not store.can_see(record, call.me):
        raise SlackError("channel_not_found")
    return record


def _readable(call: Call, conversation: Record) -> None:
    # A bot reads only where it is a member; a person may read any public channel.
    if call.bot and not store.is_member(conversation, call.me):
        raise SlackError("not_in_channel")


def _member(call: Call, conversation: Record) -> None:
    if not store.is_member(conversation, call.me):
        raise SlackError("not_in_channel")


def _channel_only(conversation: Record) -> None:
    """Methods that manage channels do not apply to DMs."""
    if conversation.get("is_im"):
        raise SlackError("method_not_supported_for_channel_type")


def _not_archived(conversation: Record) -> None:
    if conversation.get("is_archived"):
        raise SlackError("is_archived")


def _user(call: Call, user_id: str | None, code: str = "user_not_found") -> Record:
    record = call.world[store.USERS].get(user_id) if user_id else None
    if record is None:
        raise SlackError(code)
    return record


def _message(
    call: Call, conversation: Record, name: str, missing: str, malformed: str, unknown: str = "message_not_found"
) -> Record:
    """The message an argument names in `conversation`, with the codes for a missing, malformed or unknown ts."""
    ts = call.args.string(name)
    if not ts:
        raise SlackError(missing)
    if not TS.fullmatch(ts):
        raise SlackError(malformed, f"{ts} is not a valid message timestamp")
    record = call.world[store.MESSAGES].get(ts)
    if record is None or record["channel"] != conversation["id"]:
        raise SlackError(unknown)
    return record


def _item(call: Call) -> tuple[Record, Record]:
    """The conversation and message of reactions.* and pins.* (`channel` + `timestamp`; there are no files)."""
    if call.args.string("file") or call.args.string("file_comment"):
        raise SlackError("file_not_found")
    if not call.args.string("channel") or not call.args.string("timestamp"):
        raise SlackError("no_item_specified")
    conversation = _conversation(call)
    return conversation, _message(call, conversation, "timestamp", "no_item_specified", "bad_timestamp")


def _types(call: Call) -> set[str]:
    given = call.args.ids("types") or ["public_channel"]
    unknown = [t for t in given if t not in _TYPES]
    if unknown:
        raise SlackError("invalid_types", f"unknown conversation type {unknown[0]!r}")
    return set(given)


def _type_of(conversation: Record) -> str:
    if conversation.get("is_im"):
        return "im"
    if conversation["is_mpim"]:
        return "mpim"
    return "private_channel" if conversation["is_private"] else "public_channel"


def _page(
    call: Call, items: list[Any], kind: str, key: Callable[[Any], str], default: int, maximum: int = 1000
) -> tuple[list[Any], str]:
    """Cursor pagination: the page and the cursor of the next one ("" on the last page). A cursor names the
    first item of its page, so pages stay put when items are added elsewhere."""
    limit = call.args.limit(default, maximum)
    position = call.args.cursor(kind)
    start = 0
    if position is not None:
        start = next((i for i, item in enumerate(items) if key(item) == position), -1)
        if start < 0:
            raise SlackError("invalid_cursor", "the cursor points at an item that no longer exists")
    end = start + limit
    return items[start:end], cursor(kind, key(items[end])) if end < len(items) else ""


def _content(call: Call) -> dict[str, Any]:
    """`text`, `blocks` and `attachments` of a message, checked as chat.* does."""
    text = call.args.string("text")
    blocks = call.args.json("blocks", "invalid_blocks")
    attachments = call.args.json("attachments", "invalid_attachments")
    if not (text or blocks or attachments):
        raise SlackError("no_text")
    if text is not None and len(text) > _MAX_TEXT:
        raise SlackError("msg_too_long")
    if blocks is not None and (len(blocks) > _MAX_BLOCKS or not all(isinstance(b.get("type"), str) for b in blocks)):
        raise SlackError("invalid_blocks", "each block needs a type, and a message takes at most 50 blocks")
    if attachments is not None and len(attachments) > _MAX_ATTACHMENTS:
        raise SlackError("too_many_attachments")
    fields: dict[str, Any] = {}
    if text is not None:
        fields["text"] = text
    if blocks is not None:
        fields["blocks"] = blocks
    if attachments is not None:
        fields["attachments"] = [{"id": i, **a} for i, a in enumerate(attachments, 1)]
    return fields


def _thread(call: Call, conversation: Record | None) -> str | None:
    """The thread a reply goes to: the parent's ts (a reply's ts is moved up to its parent)."""
    thread_ts = call.args.string("thread_ts")
    if not thread_ts:
        return None
    if not TS.fullmatch(thread_ts):
        raise SlackError("invalid_thread_ts", f"{thread_ts} is not a valid thread_ts")
    target = call.world[store.MESSAGES].get(thread_ts)
    if target is not None and conversation is not None and target["channel"] == conversation["id"]:
        return target.get("thread_ts") or thread_ts
    # Like Slack, a well-formed ts that names no message still posts, into a thread nobody sees.
    return thread_ts


def _name(call: Call, name: str | None, exclude: str | None = None) -> str:
    if not name:
        raise SlackError("invalid_name_required")
    problem = objects.channel_name_error(name)
    if problem:
        raise SlackError(problem, f"{name!r} is not a valid channel name: lower case letters, digits, - and _")
    existing = store.channel_named(call.world, name)
    if existing is not None and existing["id"] != exclude:
        raise SlackError("name_taken")
    return name


def _view(call: Call, conversation: Record, **kwargs: bool) -> dict[str, Any]:
    return views.conversation(conversation, call.me, **kwargs)


# -- auth and team -----------------------------------------------------------------------------------


@ops("auth.test")
def auth_test(call: Call) -> dict[str, Any]:
    settings = call.world.settings["slack"]
    body: dict[str, Any] = {
        "url": f"https://{settings['domain']}.slack.com/",
        "team": settings["name"],
        "user": call.user["name"],
        "team_id": settings["team_id"],
        "user_id": call.me,
    }
    if call.bot and "bot_id" in call.user["profile"]:
        body["bot_id"] = call.user["profile"]["bot_id"]
    body["is_enterprise_install"] = False
    return body


@ops("team.info")
def team_info(call: Call) -> dict[str, Any]:
    team_id = call.args.string("team") or store.team_id(call.world)
    team = call.world[store.TEAMS].get(team_id)
    if team is None:
        raise SlackError("team_not_found")
    return {"team": dict(team)}


# -- users -------------------------------------------------------------------------------------------


def _user_view(call: Call, user: Record) -> dict[str, Any]:
    view = dict(user)
    if call.args.flag("include_locale"):
        view["locale"] = "en-US"
    return view


@ops("users.list")
def users_list(call: Call) -> dict[str, Any]:
    members, next_cursor = _page(call, list(call.world[store.USERS]), "user", lambda u: u["id"], 1000)
    return {
        "members": [_user_view(call, u) for u in members],
        "cache_ts": store.now_seconds(call.world),
        "response_metadata": {"next_cursor": next_cursor},
    }


@ops("users.info")
def users_info(call: Call) -> dict[str, Any]:
    return {"user": _user_view(call, _user(call, call.args.string("user")))}


@ops("users.lookupByEmail")
def users_lookup_by_email(call: Call) -> dict[str, Any]:
    email = call.args.string("email")
    if not email:
        raise SlackError("invalid_arguments", "missing required field: email")
    user = store.user_by_email(call.world, email)
    if user is None:
        raise SlackError("users_not_found")
    return {"user": dict(user)}


@ops("users.conversations")
def users_conversations(call: Call) -> dict[str, Any]:
    user = _user(call, call.args.string("user") or call.me)
    types = _types(call)
    exclude_archived = call.args.flag("exclude_archived")
    found = [
        c
        for c in call.world[store.CHANNELS]
        if _type_of(c) in types
        and store.is_member(c, user["id"])
        and store.can_see(c, call.me)
        and not (exclude_archived and c.get("is_archived"))
    ]
    page, next_cursor = _page(call, found, "channel", lambda c: c["id"], 100)
    return {"channels": [_view(call, c) for c in page], "response_metadata": {"next_cursor": next_cursor}}


@ops("users.profile.get")
def users_profile_get(call: Call) -> dict[str, Any]:
    return {"profile": dict(_user(call, call.args.string("user") or call.me)["profile"])}


# -- reading conversations ---------------------------------------------------------------------------


@ops("conversations.list")
def conversations_list(call: Call) -> dict[str, Any]:
    types = _types(call)
    exclude_archived = call.args.flag("exclude_archived")
    found = [
        c
        for c in call.world[store.CHANNELS]
        if _type_of(c) in types and store.can_see(c, call.me) and not (exclude_archived and c.get("is_archived"))
    ]
    page, next_cursor = _page(call, found, "channel", lambda c: c["id"], 100)
    return {
        "channels": [_view(call, c, num_members=not c.get("is_im")) for c in page],
        "response_metadata": {"next_cursor": next_cursor},
    }


@ops("conversations.info")
def conversations_info(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    num_members = call.args.flag("include_num_members") and not conversation.get("is_im")
    view = _view(call, conversation, num_members=num_members)
    if call.args.flag("include_locale"):
        view["locale"] = "en-US"
    return {"channel": view}


def _window(call: Call) -> Callable[[Record], bool]:
    """`oldest` / `latest` / `inclusive` as a test on a message."""
    oldest = call.args.micros("oldest", "invalid_ts_oldest")
    latest = call.args.micros("latest", "invalid_ts_latest")
    inclusive = call.args.flag("inclusive")

    def inside(message: Record) -> bool:
        at = objects.ts_us(message["ts"])
        if oldest is not None and (at < oldest or (at == oldest and not inclusive)):
            return False
        return latest is None or at < latest or (at == latest and inclusive)

    return inside


def _ts(message: Record) -> str:
    return message["ts"]


def _in_history(message: Record) -> bool:
    """Top-level messages, and replies also sent to the channel."""
    thread_ts = message.get("thread_ts")
    return not thread_ts or thread_ts == message["ts"] or message.get("subtype") == "thread_broadcast"


@ops("conversations.history")
def conversations_history(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    _readable(call, conversation)
    inside = _window(call)
    messages = [m for m in call.world[store.MESSAGES].by("channel", conversation["id"]) if _in_history(m)]
    newest_first = [m for m in reversed(messages) if inside(m)]
    page, next_cursor = _page(call, newest_first, "next_ts", _ts, 100, 999)
    body: dict[str, Any] = {
        "messages": [views.message(m, call.me) for m in page],
        "has_more": bool(next_cursor),
        "pin_count": len(store.pins(call.world, conversation["id"])),
        "channel_actions_ts": None,
        "channel_actions_count": 0,
    }
    if next_cursor:
        body["response_metadata"] = {"next_cursor": next_cursor}
    return body


@ops("conversations.replies")
def conversations_replies(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    _readable(call, conversation)
    target = _message(call, conversation, "ts", "thread_not_found", "thread_not_found", "thread_not_found")
    parent = store.thread_parent(call.world, target) or target
    inside = _window(call)
    thread = [m for m in [parent, *store.replies(call.world, parent["ts"])] if inside(m)]
    page, next_cursor = _page(call, thread, "next_ts", _ts, 1000)
    body: dict[str, Any] = {"messages": [views.message(m, call.me) for m in page], "has_more": bool(next_cursor)}
    if next_cursor:
        body["response_metadata"] = {"next_cursor": next_cursor}
    return body


@ops("conversations.members")
def conversations_members(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    members, next_cursor = _page(call, list(conversation["members"]), "member", str, 100)
    return {"members": members, "response_metadata": {"next_cursor": next_cursor}}


# -- changing conversations --------------------------------------------------------------------------


@ops("conversations.open")
def conversations_open(call: Call) -> dict[str, Any]:
    return_im = call.args.flag("return_im")
    if call.args.string("channel"):
        conversation = _conversation(call)
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
            if _user(call, user_id)["deleted"]:
                raise SlackError("user_disabled")
        others = list(dict.fromkeys(u for u in user_ids if u != call.me))
        if len(others) <= 1:
            conversation, existed = store.open_dm(call.world, call.me, others[0] if others else call.me)
        else:
            conversation, existed = store.open_group_dm(call.world, call.me, others)
    body: dict[str, Any] = {"no_op": True, "already_open": True} if existed else {}
    body["channel"] = _view(call, conversation) if return_im else {"id": conversation["id"]}
    return body


@ops("conversations.join")
def conversations_join(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    if conversation.get("is_im") or conversation["is_private"]:
        raise SlackError("method_not_supported_for_channel_type")
    _not_archived(conversation)
    if store.is_member(conversation, call.me):
        call.args.warnings.append("already_in_channel")
    else:
        conversation = store.add_members(call.world, conversation, [call.me])
    return {"channel": _view(call, conversation)}


@ops("conversations.create")
def conversations_create(call: Call) -> dict[str, Any]:
    name = _name(call, call.args.string("name"))
    is_private = call.args.flag("is_private")
    return {"channel": _view(call, store.create_channel(call.world, name, call.me, is_private))}


@ops("conversations.invite")
def conversations_invite(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    _channel_only(conversation)
    _member(call, conversation)
    _not_archived(conversation)
    user_ids = call.args.ids("users")
    if not user_ids:
        raise SlackError("no_user")
    if len(user_ids) > 1000:
        raise SlackError("too_many_users")
    for user_id in user_ids:
        if user_id == call.me:
            raise SlackError("cant_invite_self")
        if _user(call, user_id)["deleted"]:
            raise SlackError("cant_invite")
        if store.is_member(conversation, user_id):
            raise SlackError("already_in_channel")
    conversation = store.add_members(call.world, conversation, dict.fromkeys(user_ids), inviter=call.me)
    return {"channel": _view(call, conversation)}


@ops("conversations.kick")
def conversations_kick(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    _channel_only(conversation)
    user = _user(call, call.args.string("user"))
    if user["id"] == call.me:
        raise SlackError("cant_kick_self")
    if conversation["is_general"]:
        raise SlackError("cant_kick_from_general")
    _member(call, conversation)
    if not store.is_member(conversation, user["id"]):
        raise SlackError("not_in_channel")
    store.remove_member(call.world, conversation, user["id"], announce=False)
    return {}


@ops("conversations.leave")
def conversations_leave(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    _channel_only(conversation)
    if conversation["is_general"]:
        raise SlackError("cant_leave_general")
    _not_archived(conversation)
    if not store.is_member(conversation, call.me):
        return {"not_in_channel": True}
    if conversation["is_private"] and len(conversation["members"]) == 1:
        raise SlackError("last_member")
    store.remove_member(call.world, conversation, call.me)
    return {}


def _set_topic(call: Call, field: str) -> dict[str, Any]:
    conversation = _conversation(call)
    _channel_only(conversation)
    value = call.args.string(field) or ""
    if len(value) > _MAX_TOPIC:
        raise SlackError("too_long", f"the {field} may be at most {_MAX_TOPIC} characters")
    _member(call, conversation)
    _not_archived(conversation)
    return {"channel": _view(call, store.set_topic(call.world, conversation, call.me, field, value))}


@ops("conversations.setTopic")
def conversations_set_topic(call: Call) -> dict[str, Any]:
    return _set_topic(call, "topic")


@ops("conversations.setPurpose")
def conversations_set_purpose(call: Call) -> dict[str, Any]:
    return _set_topic(call, "purpose")


@ops("conversations.archive")
def conversations_archive(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    _channel_only(conversation)
    if conversation["is_archived"]:
        raise SlackError("already_archived")
    if conversation["is_general"]:
        raise SlackError("cant_archive_general")
    _member(call, conversation)
    store.set_archived(call.world, conversation, call.me, True)
    return {}


@ops("conversations.unarchive")
def conversations_unarchive(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    _channel_only(conversation)
    if not conversation["is_archived"]:
        raise SlackError("not_archived")
    store.set_archived(call.world, conversation, call.me, False)
    return {}


@ops("conversations.rename")
def conversations_rename(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    if conversation.get("is_im") or conversation["is_mpim"]:
        raise SlackError("method_not_supported_for_channel_type")
    _member(call, conversation)
    name = _name(call, call.args.string("name"), exclude=conversation["id"])
    if name != conversation["name"]:
        conversation = store.rename(call.world, conversation, call.me, name)
    return {"channel": _view(call, conversation)}


# -- messages ----------------------------------------------------------------------------------------


def _destination(call: Call) -> tuple[Record | None, Record | None]:
    """Where chat.postMessage goes: a conversation (by id or name), or a user (their DM, maybe new)."""
    target = call.args.string("channel")
    if not target:
        raise SlackError("channel_not_found")
    world = call.world
    user = world[store.USERS].get(target)
    if user is not None:
        if user["deleted"]:
            raise SlackError("channel_not_found")
        return store.dm_between(world, call.me, target), user
    conversation = world[store.CHANNELS].get(target) or store.channel_named(world, target.lstrip("#"))
    if conversation is None or not store.can_see(conversation, call.me):
        raise SlackError("channel_not_found")
    return conversation, None


def _post_options(call: Call) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    username = call.args.string("username")
    if username and call.bot:
        extra["username"] = username
    icon_emoji, icon_url = call.args.string("icon_emoji"), call.args.string("icon_url")
    if call.bot and (icon_emoji or icon_url):
        extra["icons"] = {"emoji": icon_emoji} if icon_emoji else {"image_64": icon_url}
    return extra


@ops("chat.postMessage")
def chat_post_message(call: Call) -> dict[str, Any]:
    conversation, dm_user = _destination(call)
    if conversation is not None:
        _member(call, conversation)
        _not_archived(conversation)
    content = _content(call)
    thread_ts = _thread(call, conversation)
    broadcast = bool(thread_ts) and call.args.flag("reply_broadcast")
    extra = {**{k: v for k, v in content.items() if k != "text"}, **_post_options(call)}
    if conversation is None:
        conversation, _ = store.open_dm(call.world, call.me, dm_user["id"])  # type: ignore[index]
    message = store.post(
        call.world,
        conversation["id"],
        call.me,
        content.get("text", ""),
        thread_ts=thread_ts,
        broadcast=broadcast,
        extra=extra or None,
    )
    return {"channel": conversation["id"], "ts": message["ts"], "message": views.message(message, call.me)}


@ops("chat.update")
def chat_update(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    message = _message(call, conversation, "ts", "message_not_found", "message_not_found")
    if message["user"] != call.me or message.get("subtype") not in (None, "thread_broadcast"):
        raise SlackError("cant_update_message")
    content = _content(call)
    message = store.update(call.world, message, call.me, content)
    return {
        "channel": conversation["id"],
        "ts": message["ts"],
        "text": message["text"],
        "message": views.message(message, call.me),
    }


@ops("chat.delete")
def chat_delete(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    message = _message(call, conversation, "ts", "message_not_found", "message_not_found")
    if message.get("subtype") == "tombstone":
        raise SlackError("message_not_found")
    # Bots delete only their own messages; a workspace admin's user token may delete anyone's.
    if message["user"] != call.me and (call.bot or not call.user["is_admin"]):
        raise SlackError("cant_delete_message")
    store.delete(call.world, message)
    return {"channel": conversation["id"], "ts": message["ts"]}


@ops("chat.postEphemeral")
def chat_post_ephemeral(call: Call) -> dict[str, Any]:
    conversation, _ = _destination(call)
    if conversation is None:  # a user without a DM yet: ephemeral messages do not open one
        raise SlackError("channel_not_found")
    user_id = call.args.string("user")
    if not user_id:
        raise SlackError("user_not_in_channel")
    _user(call, user_id)
    if not store.is_member(conversation, user_id):
        raise SlackError("user_not_in_channel")
    _member(call, conversation)
    _not_archived(conversation)
    content = _content(call)
    thread_ts = _thread(call, conversation)
    message = store.post_ephemeral(call.world, conversation["id"], call.me, user_id, content.get("text", ""), thread_ts)
    return {"message_ts": message["ts"]}


@ops("chat.getPermalink")
def chat_get_permalink(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    message = _message(call, conversation, "message_ts", "message_not_found", "message_not_found")
    return {"channel": conversation["id"], "permalink": objects.permalink(store.domain(call.world), message)}


# -- reactions and pins ------------------------------------------------------------------------------


def _emoji(call: Call) -> str:
    name = (call.args.string("name") or "").strip(":")
    if not objects.EMOJI.fullmatch(name):
        raise SlackError("invalid_name")
    return name


def _reacted(message: Record, user_id: str, name: str) -> bool:
    return any(r["name"] == name and user_id in r["users"] for r in message.get("reactions") or [])


@ops("reactions.add")
def reactions_add(call: Call) -> dict[str, Any]:
    name = _emoji(call)
    conversation, message = _item(call)
    _not_archived(conversation)
    if _reacted(message, call.me, name):
        raise SlackError("already_reacted")
    store.react(call.world, message, call.me, name)
    return {}


@ops("reactions.remove")
def reactions_remove(call: Call) -> dict[str, Any]:
    name = _emoji(call)
    _, message = _item(call)
    if not _reacted(message, call.me, name):
        raise SlackError("no_reaction")
    store.unreact(call.world, message, call.me, name)
    return {}


def _linked(call: Call, message: Record) -> dict[str, Any]:
    return {**views.message(message, call.me), "permalink": objects.permalink(store.domain(call.world), message)}


@ops("reactions.get")
def reactions_get(call: Call) -> dict[str, Any]:
    _, message = _item(call)
    return {"type": "message", "channel": message["channel"], "message": _linked(call, message)}


@ops("pins.add")
def pins_add(call: Call) -> dict[str, Any]:
    conversation, message = _item(call)
    _member(call, conversation)
    if call.world[store.PINS].get(store.pin_id(message["channel"], message["ts"])) is not None:
        raise SlackError("already_pinned")
    store.pin(call.world, message, call.me)
    return {}


@ops("pins.list")
def pins_list(call: Call) -> dict[str, Any]:
    conversation = _conversation(call)
    messages = call.world[store.MESSAGES]
    items = [
        {
            "type": pin["type"],
            "created": pin["created"],
            "created_by": pin["created_by"],
            "channel": pin["channel"],
            "message": _linked(call, messages.get(pin["ts"])),
        }
        for pin in reversed(store.pins(call.world, conversation["id"]))
    ]
    return {"items": items}


# -- search, user groups, bookmarks ------------------------------------------------------------------


_SEARCHABLE = (None, "thread_broadcast")


def _match(call: Call, score: int, message: Record, conversation: Record) -> dict[str, Any]:
    author = call.world[store.USERS].get(message["user"])
    digest = hashlib.sha256(f"{call.world.ids.seed}:{message['ts']}".encode()).hexdigest()
    return {
        "iid": f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}",
        "team": store.team_id(call.world),
        "score": score,
        "channel": views.search_channel(conversation),
        "type": "message",
        "user": message["user"],
        "username": author["name"] if author else "",
        "ts": message["ts"],
        "text": message["text"],
        "permalink": objects.permalink(store.domain(call.world), message),
    }


@ops("search.messages")
def search_messages(call: Call) -> dict[str, Any]:
    if call.bot:
        raise SlackError("not_allowed_token_type")
    text = (call.args.string("query") or "").strip()
    if not text:
        raise SlackError("no_query")
    count = min(max(call.args.integer("count", 20), 1), 100)
    page = min(max(call.args.integer("page", 1), 1), 100)
    by_time = (call.args.string("sort") or "score") == "timestamp"
    ascending = (call.args.string("sort_dir") or "desc") == "asc"
    world = call.world
    query = search.parse(world, call.user, text)
    visible = {c["id"]: c for c in world[store.CHANNELS] if store.can_see(c, call.me)}
    scored = []
    for message in world[store.MESSAGES]:
        conversation = visible.get(message["channel"])
        if conversation is None or message.get("subtype") not in _SEARCHABLE:
            continue
        score = query.matches(message)
        if score:
            scored.append((score, message, conversation))
    # `ts` order first, so that the score sort keeps newest first among equal scores.
    scored.sort(key=lambda s: s[1]["ts"], reverse=not ascending)
    if not by_time:
        scored.sort(key=lambda s: s[0], reverse=not ascending)
    total = len(scored)
    pages = -(-total // count)
    chosen = scored[(page - 1) * count : page * count]
    matches = [_match(call, s, m, c) for s, m, c in chosen]
    return {
        "query": text,
        "messages": {
            "total": total,
            "pagination": {
                "total_count": total,
                "page": page,
                "per_page": count,
                "page_count": pages,
                "first": (page - 1) * count + 1,
                "last": min(page * count, total),
            },
            "paging": {"count": count, "total": total, "page": page, "pages": pages},
            "matches": matches,
        },
    }


@ops("usergroups.list")
def usergroups_list(call: Call) -> dict[str, Any]:
    include_users = call.args.flag("include_users")
    include_count = call.args.flag("include_count")
    include_disabled = call.args.flag("include_disabled")
    groups = []
    for group in call.world[store.USERGROUPS]:
        if group["date_delete"] and not include_disabled:
            continue
        view = {k: v for k, v in group.items() if k not in ("users", "user_count", "channel_count")}
        if include_users:
            view["users"] = list(group["users"])
        if include_count:
            view["user_count"] = group["user_count"]
            view["channel_count"] = group["channel_count"]
        groups.append(view)
    return {"usergroups": groups}


@ops("bookmarks.list")
def bookmarks_list(call: Call) -> dict[str, Any]:
    conversation = _conversation(call, "channel_id")
    bookmarks = sorted(call.world[store.BOOKMARKS].by("channel_id", conversation["id"]), key=lambda b: b["rank"])
    return {"bookmarks": [dict(b) for b in bookmarks]}
