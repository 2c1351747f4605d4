"""Conversations: the `slack.channels` records (channels, private channels, DMs and group DMs), finding
them, and the changes Slack announces with a message in the channel (joins, topics, renames...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...world import Record, World
from . import messages, store
from .names import normalized
from .store import CHANNELS, USERS
from .timestamps import make_ts, now_ms, now_seconds


def topic(value: str, creator: str, at: int) -> dict[str, Any]:
    """A conversation's `topic` or `purpose`."""
    return {"value": value, "creator": creator if value else "", "last_set": at if value else 0}


# The tabs a channel shows beside its messages, as in Slack's own example of a conversation object; Slack
# sends the list twice, as `tabs` and `tabz`.
_TABS = ({"id": "files", "label": "", "type": "files"}, {"id": "bookmarks", "label": "", "type": "bookmarks"})


def properties(restrictions: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A channel's `properties`: its tabs, and that it is in use (not dormant) and has no Slack Connect
    invitation, and its posting permissions if it has any (`posting_restricted_to`, `threads_restricted_to`,
    see posting.py); no canvas or workflows, which a world does not have."""
    return {
        **(restrictions or {}),
        "tabs": [dict(tab) for tab in _TABS],
        "tabz": [dict(tab) for tab in _TABS],
        "is_dormant": False,
        "has_slack_connect_invite_created": False,
    }


def record(
    channel_id: str,
    team_id: str,
    name: str,
    *,
    creator: str,
    created: int,
    members: Iterable[str],
    is_private: bool = False,
    is_archived: bool = False,
    is_mpim: bool = False,
    topic_value: str = "",
    purpose_value: str = "",
    previous_names: Iterable[str] = (),
    restrictions: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "id": channel_id,
        "name": name,
        "is_channel": not (is_private or is_mpim),
        "is_group": False,
        "is_im": False,
        "is_mpim": is_mpim,
        "is_private": is_private or is_mpim,
        "created": created,
        "is_archived": is_archived,
        "is_general": name == "general" and not is_mpim,
        "unlinked": 0,
        "name_normalized": normalized(name),
        "is_shared": False,
        "is_org_shared": False,
        "is_pending_ext_shared": False,
        "pending_shared": [],
        "context_team_id": team_id,
        "updated": created * 1000,
        "parent_conversation": None,
        "creator": creator,
        "is_ext_shared": False,
        "shared_team_ids": [team_id],
        "internal_team_ids": [],  # the workspaces of an Enterprise Grid org it is in: none outside a Grid
        "pending_connected_team_ids": [],
        "is_global_shared": False,
        "is_org_default": False,
        "is_org_mandatory": False,
        "is_moved": 0,
        "conversation_host_id": team_id,
        "topic": topic(topic_value, creator, created),
        "purpose": topic(purpose_value, creator, created),
        "previous_names": list(previous_names),
        "members": list(members),
    } | ({} if is_mpim else {"properties": properties(restrictions)})


def im(dm_id: str, team_id: str, opener: str, other: str, created: int) -> dict[str, Any]:
    """A direct message conversation between `opener` and `other` (the same user for a self-DM)."""
    return {
        "id": dm_id,
        "created": created,
        "is_archived": False,
        "is_im": True,
        "is_org_shared": False,
        "context_team_id": team_id,
        "user": other,
        "is_user_deleted": False,
        "priority": 0,
        "updated": created * 1000,
        "members": [opener] if opener == other else [opener, other],
    }


def channel_named(world: World, name: str) -> Record | None:
    for found in world[CHANNELS].by("name", name):
        return found
    return None


def dm_between(world: World, a: str, b: str) -> Record | None:
    # An IM's `user` is the other party as seen by whoever opened it, so look from both sides.
    pair = {a, b}
    for other in pair:
        for found in world[CHANNELS].by("user", other):
            if found.get("is_im") and set(found["members"]) == pair:
                return found
    return None


def in_a_channel(world: World, user_id: str) -> bool:
    """Whether a user is a member of any channel, public or private (not a DM or a group DM)."""
    return any(not (c.get("is_im") or c["is_mpim"]) and user_id in c["members"] for c in world[CHANNELS])


def type_of(conversation: Record) -> str:
    """The `types` value (conversations.list) a conversation is listed under."""
    if conversation.get("is_im"):
        return "im"
    if conversation["is_mpim"]:
        return "mpim"
    return "private_channel" if conversation["is_private"] else "public_channel"


def open_dm(world: World, opener: str, other: str) -> tuple[Record, bool]:
    """The DM between two users (one user for a self-DM), created when missing; and whether it existed."""
    existing = dm_between(world, opener, other)
    if existing is not None:
        return existing, True
    dm_id = world.ids.slack("D")
    return world[CHANNELS].add(dm_id, im(dm_id, store.team_id(world), opener, other, now_seconds(world))), False


def open_group_dm(world: World, opener: str, others: list[str]) -> tuple[Record, bool]:
    """The group DM (mpim) of exactly these users, created when missing; and whether it existed."""
    wanted = {opener, *others}
    for found in world[CHANNELS].by("is_mpim", True):
        if set(found["members"]) == wanted:
            return found, True
    users = [opener] + [u for u in others if u != opener]
    names = "--".join(world[USERS].one(u)["name"] for u in users)
    group_id = world.ids.slack("G")
    group = record(
        group_id,
        store.team_id(world),
        f"mpdm-{names}-1",
        creator=opener,
        created=now_seconds(world),
        members=users,
        is_mpim=True,
    )
    return world[CHANNELS].add(group_id, group), False


def create_channel(world: World, name: str, creator: str, is_private: bool) -> Record:
    channel_id = world.ids.slack("C")
    new = record(
        channel_id,
        store.team_id(world),
        name,
        creator=creator,
        created=now_seconds(world),
        members=[creator],
        is_private=is_private,
    )
    world[CHANNELS].add(channel_id, new)
    messages.post(world, channel_id, creator, f"<@{creator}> has joined the channel", subtype="channel_join")
    return world[CHANNELS].one(channel_id)


def add_members(world: World, conversation: Record, users: Iterable[str], inviter: str | None = None) -> Record:
    """Joins (`inviter` None) or invites users, each announced the way Slack does. Each one's join is kept in
    our `joined` (user id -> the `ts` of the join's message), so a member who left or was removed and came
    back is a changed membership, as in Slack's own records of it."""
    new = [u for u in users if u not in conversation["members"]]
    if not new:
        return world[CHANNELS].change(conversation["id"], members=list(conversation["members"]))
    stamps = {user_id: make_ts(world.ids, world.now()) for user_id in new}
    changed = world[CHANNELS].change(
        conversation["id"],
        members=[*conversation["members"], *new],
        joined={**conversation.get("joined", {}), **stamps},
    )
    for user_id in new:
        extra = {"inviter": inviter} if inviter else None
        messages.post(
            world,
            changed["id"],
            user_id,
            f"<@{user_id}> has joined the channel",
            subtype="channel_join",
            extra=extra,
            ts=stamps[user_id],
        )
    return changed


def remove_member(world: World, conversation: Record, user_id: str, *, announce: bool = True) -> Record:
    """Leaves (announced with Slack's `channel_leave` message) or kicks (`announce=False`, as Slack does)."""
    if announce:
        messages.post(world, conversation["id"], user_id, f"<@{user_id}> has left the channel", subtype="channel_leave")
    left: dict[str, Any] = {"members": [m for m in conversation["members"] if m != user_id]}
    if "joined" in conversation:  # only members who joined since the start have one
        left["joined"] = {u: ts for u, ts in conversation["joined"].items() if u != user_id}
    return world[CHANNELS].change(conversation["id"], **left)


def set_topic(world: World, conversation: Record, user_id: str, field: str, value: str) -> Record:
    """Sets `topic` or `purpose` and posts Slack's `channel_topic` / `channel_purpose` message."""
    messages.post(
        world,
        conversation["id"],
        user_id,
        f"set the channel {field}: {value}",
        subtype=f"channel_{field}",
        extra={field: value},
    )
    return world[CHANNELS].change(
        conversation["id"], **{field: topic(value, user_id, now_seconds(world))}, updated=now_ms(world)
    )


def set_archived(world: World, conversation: Record, user_id: str, archived: bool) -> Record:
    if archived:
        messages.post(world, conversation["id"], user_id, "archived the channel", subtype="channel_archive")
        return world[CHANNELS].change(conversation["id"], is_archived=True, updated=now_ms(world))
    changed = world[CHANNELS].change(conversation["id"], is_archived=False, updated=now_ms(world))
    messages.post(world, conversation["id"], user_id, "un-archived the channel", subtype="channel_unarchive")
    return changed


def rename(world: World, conversation: Record, user_id: str, name: str) -> Record:
    old = conversation["name"]
    changed = world[CHANNELS].change(
        conversation["id"],
        name=name,
        name_normalized=normalized(name),
        previous_names=[old, *conversation["previous_names"]],
        updated=now_ms(world),
    )
    messages.post(
        world,
        conversation["id"],
        user_id,
        f'renamed the channel from "{old}" to "{name}"',
        subtype="channel_name",
        extra={"old_name": old, "name": name},
    )
    return changed
