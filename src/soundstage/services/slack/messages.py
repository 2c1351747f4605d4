"""Messages: the `slack.messages` records (threads summed up on their first message), posting, editing
and deleting them, and the ephemeral messages of `slack.ephemeral`.

Messages are kept in `ts` order: a new `ts` is never older than the last one, because simulated time only
moves on. Callers validate first (handlers, the people engine); these functions assume valid input.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...ids import IdSource
from ...world import Record, World
from . import mrkdwn, pins, store, timeline
from .directory import SLACKBOT
from .store import EPHEMERAL, MESSAGES, USERS, WRITTEN
from .timestamps import make_ts

_THREAD_FIELDS = ("thread_ts", "reply_count", "reply_users_count", "latest_reply", "reply_users", "is_locked")


def _bot_profile(bot: Record, team_id: str) -> dict[str, Any]:
    image = bot["profile"]["image_72"]
    return {
        "id": bot["profile"]["bot_id"],
        "deleted": bot["deleted"],
        "name": bot["name"],
        "updated": bot["updated"],
        "app_id": bot["profile"]["api_app_id"],
        "user_id": bot["id"],
        "icons": {"image_36": image, "image_48": image, "image_72": image},
        "team_id": team_id,
    }


def bot_fields(author: Record, team_id: str) -> Mapping[str, Any]:
    """What a bot's message says of the bot: its ids and `bot_profile` (nothing for a person). Shared by every
    message of the same author record: read it, never change it."""
    made = _BOT_FIELDS.get(id(author))
    if made is None or made[0] is not author or made[1] != team_id:
        if len(_BOT_FIELDS) >= 1024:
            _BOT_FIELDS.clear()
        made = _BOT_FIELDS[id(author)] = (author, team_id, _bot_fields(author, team_id))
    return made[2]


# A bot posts message after message with the same fields, which depend only on its user record (never changed
# in place: a change stores a new one) and the team: made once per record, by its identity (the entry holds
# the record, so no other object takes its id meanwhile). Its messages share one `bot_profile`, an object
# fewer for the garbage collector to walk with each message.
_BOT_FIELDS: dict[int, tuple[Record, str, Mapping[str, Any]]] = {}


def _bot_fields(author: Record, team_id: str) -> Mapping[str, Any]:
    if "bot_id" not in author["profile"]:
        return {}
    return {
        "bot_id": author["profile"]["bot_id"],
        "app_id": author["profile"]["api_app_id"],
        "bot_profile": _bot_profile(author, team_id),
    }


def record(
    ts: str,
    channel_id: str,
    author: Record,
    text: str,
    team_id: str,
    ids: IdSource,
    *,
    thread_ts: str | None = None,
    parent_user: str | None = None,
    subtype: str | None = None,
    extra: Mapping[str, Any] | None = None,
    composed: bool | None = None,
) -> dict[str, Any]:
    """A message as stored, its text escaped as Slack does. A bot's message carries the bot's ids and
    `bot_profile`. A message someone wrote carries blocks: those an app sent (each with a `block_id`), else
    the rich_text block Slack makes of its text. One `composed` in Slack's own client (a person's, unless
    said otherwise) also carries the `client_msg_id` the client gives it."""
    stored = mrkdwn.escape(text)
    written = subtype in WRITTEN
    made: dict[str, Any] = {"type": "message"}
    if subtype:
        made["subtype"] = subtype
    made["user"] = author["id"]
    if written and (("bot_id" not in author["profile"]) if composed is None else composed):
        made["client_msg_id"] = ids.uuid("slack:client_msg_id")
    made["text"] = stored
    made["ts"] = ts
    made["team"] = team_id
    made.update(bot_fields(author, team_id))
    if extra and (blocks := extra.get("blocks")) is not None:
        extra = {**extra, "blocks": mrkdwn.with_block_ids(blocks, ids)}
    elif written and stored:
        made["blocks"] = [mrkdwn.rich_text(stored, ids)]
    if thread_ts is not None:
        made["thread_ts"] = thread_ts
        if parent_user is not None:
            made["parent_user_id"] = parent_user
    if extra:
        made.update(extra)
    made["channel"] = channel_id
    return made


def thread_summary(parent_ts: str, replies: Iterable[Record]) -> dict[str, Any]:
    """The fields a thread's parent carries about its replies; all None (not rendered) when none are left."""
    users: dict[str, None] = {}
    count = 0
    latest = None
    for reply in replies:
        count += 1
        users.setdefault(reply["user"], None)
        latest = reply["ts"]
    if not count:
        return dict.fromkeys(_THREAD_FIELDS)
    return {
        "thread_ts": parent_ts,
        "reply_count": count,
        "reply_users_count": len(users),
        "latest_reply": latest,
        "reply_users": list(users),
        "is_locked": False,
    }


def thread_parent(world: World, message: Record) -> Record | None:
    thread_ts = message.get("thread_ts")
    if not thread_ts or thread_ts == message["ts"]:
        return None
    return world[MESSAGES].get(thread_ts)


def history_ts(world: World, channel_id: str) -> list[str]:
    """The `ts` of a conversation's history, oldest first (read only): top-level messages, and replies also
    sent to the channel."""
    return world[MESSAGES].derived(timeline.History).get(channel_id)


def history(world: World, channel_id: str) -> list[Record]:
    """A conversation's history, oldest first."""
    return store.messages_at(world, history_ts(world, channel_id))


def post(
    world: World,
    channel_id: str,
    user_id: str,
    text: str,
    *,
    thread_ts: str | None = None,
    broadcast: bool = False,
    subtype: str | None = None,
    extra: dict[str, Any] | None = None,
    composed: bool | None = None,
    ts: str | None = None,
) -> Record:
    """Posts a message (a reply when `thread_ts` is given) and updates the thread's parent. `composed`: as
    `record` has it (False for a post through the API); `ts`: one made for it already (a join's, kept by the
    channel too)."""
    ts = ts or make_ts(world.ids, world.now())
    parent = world[MESSAGES].get(thread_ts) if thread_ts else None
    if parent is not None and parent["channel"] != channel_id:
        parent = None  # a ts of another channel's message names no thread here
    new = record(
        ts,
        channel_id,
        world[USERS].one(user_id),
        text,
        store.team_id(world),
        world.ids,
        thread_ts=thread_ts,
        parent_user=parent["user"] if parent is not None else None,
        subtype="thread_broadcast" if broadcast else subtype,
        extra=extra,
        composed=composed,
    )
    added = world[MESSAGES].add(ts, new)
    if parent is not None:  # a change of the parent alone: the new message stays as added
        _summarize(world, parent["ts"])
    return added


def _summarize(world: World, parent_ts: str) -> None:
    world[MESSAGES].change(parent_ts, **thread_summary(parent_ts, store.replies(world, parent_ts)))


def update(world: World, message: Record, editor: str, fields: dict[str, Any]) -> Record:
    """Replaces text, blocks or attachments of a message and marks it edited. New text is escaped; blocks
    sent get their `block_id`s, and text sent without blocks gets the rich_text block of its own."""
    changed = dict(fields)
    if "text" in changed:
        changed["text"] = mrkdwn.escape(changed["text"])
    if "blocks" in changed:
        changed["blocks"] = mrkdwn.with_block_ids(changed["blocks"], world.ids)
    elif changed.get("text"):
        changed["blocks"] = [mrkdwn.rich_text(changed["text"], world.ids)]
    edited = {"user": editor, "ts": make_ts(world.ids, world.now())}
    return world[MESSAGES].change(message["ts"], **changed, edited=edited)


def delete(world: World, message: Record) -> None:
    """Deletes a message; a thread parent with replies left becomes Slack's tombstone."""
    messages = world[MESSAGES]
    ts = message["ts"]
    pins.unpin(world, message)
    if message.get("reply_count"):
        messages.change(
            ts,
            subtype="tombstone",
            text="This message was deleted.",
            user=SLACKBOT,
            hidden=True,
            bot_id=None,
            app_id=None,
            bot_profile=None,
            blocks=None,
            client_msg_id=None,
            attachments=None,
            edited=None,
            reactions=None,
            pinned_to=None,
        )
        return
    messages.remove(ts)
    parent = thread_parent(world, message)
    if parent is None:
        return
    if parent.get("subtype") == "tombstone" and not store.replies(world, parent["ts"]):
        messages.remove(parent["ts"])
    else:
        _summarize(world, parent["ts"])


def post_ephemeral(
    world: World, channel_id: str, sender: str, recipient: str, text: str, thread_ts: str | None
) -> Record:
    """An ephemeral message: seen only by `recipient`, never in history (kept for checks)."""
    ts = make_ts(world.ids, world.now())
    record = {
        "type": "message",
        "ts": ts,
        "channel": channel_id,
        "user": recipient,
        "sender": sender,
        "text": mrkdwn.escape(text),
    }
    if thread_ts:
        record["thread_ts"] = thread_ts
    return world[EPHEMERAL].add(ts, record)
