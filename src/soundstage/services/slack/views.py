"""Stored records as one user sees them in an API response."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from ...world import Record, World
from . import messages, reads, store, timeline

# A conversation's fields that are ours, never Slack's: its members, and when those who joined since the start did.
_OURS = frozenset({"members", "joined"})


def conversation(record: Record, viewer: str, *, num_members: bool = False) -> dict[str, Any]:
    """A conversation without our `members` and `joined`; `is_member` (channels) or the other party (DMs)."""
    view = {k: v for k, v in record.items() if k not in _OURS}
    members = record["members"]
    if record.get("is_im"):
        view["user"] = next((m for m in members if m != viewer), viewer)
        return view
    view["is_member"] = viewer in members
    if num_members:
        view["num_members"] = len(members)
    return view


def as_member(world: World, record: Record, viewer: str) -> dict[str, Any]:
    """A conversation as the answers of the methods that change or list a member's conversations show it: to
    a member, also where they have read to (`last_read`) and that it is open in their sidebar (`is_open`)."""
    view = conversation(record, viewer)
    if viewer in record["members"]:
        view.update(is_open=True, last_read=reads.last_read(world, record["id"], viewer))
    return view


def message(record: Record, viewer: str, *, metadata: bool = True) -> dict[str, Any]:
    """A message without our `channel` field and without fields that no longer apply (None); without its
    `metadata` where Slack gives it only when asked (`include_all_metadata`)."""
    view = dict(record)  # copied and cut rather than built key by key: a message has a dozen fields or more
    view.pop("channel", None)
    if not metadata:
        view.pop("metadata", None)
    if _holds_none(view.values()):  # a thread's fields once its replies are gone
        view = {k: v for k, v in view.items() if v is not None}
    if record.get("reply_count") is not None:
        view["subscribed"] = viewer == record["user"] or viewer in record["reply_users"]
    return view


def _holds_none(values: Iterable[Any]) -> bool:
    # `None in values` compares each value with None by `==` (a string or a dict goes through both types'
    # comparisons first): a record's values are JSON's, none equal to None but None itself, so `is` tells.
    for value in values:
        if value is None:
            return True
    return False


def in_channel(world: World, record: Record, viewer: str, *, metadata: bool = True) -> dict[str, Any]:
    """A message as a channel shows it: a reply also sent to the channel (`thread_broadcast`) carries its
    thread's parent as `root`, the way Slack lets a client show the thread it came from."""
    view = message(record, viewer, metadata=metadata)
    if record.get("subtype") == "thread_broadcast":
        parent = messages.thread_parent(world, record)
        if parent is not None:
            view["root"] = message(parent, viewer, metadata=metadata)
    return view


def _search_channel(record: Record, viewer: str) -> dict[str, Any]:
    """The short conversation object inside a search match; a DM's names its other party as `user`."""
    is_im = bool(record.get("is_im"))
    view = {
        "id": record["id"],
        "is_channel": bool(record.get("is_channel")),
        "is_group": bool(record.get("is_group")),
        "is_im": is_im,
        "is_mpim": bool(record.get("is_mpim")),
        "is_shared": False,
        "is_org_shared": False,
        "is_ext_shared": False,
        "is_private": is_im or record["is_private"],
        "is_pending_ext_shared": False,
        "pending_shared": [],
        "name": record["user"] if is_im else record["name"],
    }
    if is_im:
        view["user"] = next((m for m in record["members"] if m != viewer), viewer)
    else:
        view["name_normalized"] = record["name_normalized"]
    return view


def permalink(domain: str, record: Record) -> str:
    """A message's permalink; a reply's names its thread too."""
    channel_id, ts = record["channel"], record["ts"]
    link = f"https://{domain}.slack.com/archives/{channel_id}/p{ts.replace('.', '')}"
    thread_ts = record.get("thread_ts")
    if thread_ts and thread_ts != ts:
        link += f"?thread_ts={thread_ts}&cid={channel_id}"
    return link


def linked_message(world: World, record: Record, viewer: str) -> dict[str, Any]:
    """A message with its `permalink` (reactions.get, pins.list)."""
    return {**message(record, viewer), "permalink": permalink(store.domain(world), record)}


def _found(world: World, record: Record) -> dict[str, Any]:
    """What search shows of a message, found or around what was found; its `iid` is made from the world's
    seed, so it stays the same."""
    author = world[store.USERS].get(record["user"])
    digest = hashlib.sha256(f"{world.ids.seed}:{record['ts']}".encode()).hexdigest()
    shown = {
        "type": "message",
        "user": record["user"],
        "username": author["name"] if author else "",
        "ts": record["ts"],
        "text": record["text"],
        "iid": f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}",
        "permalink": permalink(store.domain(world), record),
    }
    for field in ("blocks", "attachments"):
        if record.get(field) is not None:
            shown[field] = record[field]
    return shown


def _before(world: World, record: Record) -> list[Record]:
    """The two messages before one where it was posted (its thread, or the conversation's history), nearest
    first."""
    parent = messages.thread_parent(world, record)
    if parent is not None:
        around = [parent, *store.replies(world, parent["ts"])]
        return [m for m in reversed(around) if m["ts"] < record["ts"]][:2]
    ordered = messages.history_ts(world, record["channel"])
    at = timeline.before(ordered, record["ts"])
    return store.messages_at(world, reversed(ordered[max(0, at - 2) : at]))


def search_match(world: World, score: int, record: Record, conversation: Record, viewer: str) -> dict[str, Any]:
    """A message found by search.messages, with the one or two messages before it as `previous` and
    `previous_2`, the context Slack shows around a match."""
    match = {"team": store.team_id(world), "score": score, "channel": _search_channel(conversation, viewer)}
    match.update(_found(world, record))
    for key, before in zip(("previous", "previous_2"), _before(world, record)):
        match[key] = _found(world, before)
    return match


def usergroup(record: Record, *, users: bool, counts: bool) -> dict[str, Any]:
    """A user group, with its `users` and its `user_count` and `channel_count` only when asked for."""
    view = {k: v for k, v in record.items() if k not in ("users", "user_count", "channel_count")}
    if users:
        view["users"] = list(record["users"])
    if counts:
        view["user_count"] = record["user_count"]
        view["channel_count"] = record["channel_count"]
    return view
