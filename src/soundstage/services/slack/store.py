"""The Slack state contract: the names of Slack's collections and the lookups the rest of the engine reads
(people, checks, the judge, tests).

Records are Slack's own objects with the fields the official schema marks required, in Slack's formats:
`ts` strings of epoch seconds and 6 digits, integer epoch seconds elsewhere. Three fields are ours and never
rendered: a conversation's `members` (user ids) and `joined` (the members who joined since the start, each
with the `ts` of their join's message; a conversation no one joined has none) and a message's `channel`.
Records are never changed in place and a change cannot drop a key, so a message field that no longer
applies is set to None and not rendered. Each kind of record is built, and changed, in the module named by
what it holds: `directory` (team, users, user groups), `channels`, `messages`, `reactions`, `pins`,
`bookmarks`.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...world import Record, World
from ..base import Address, State, names_by_field
from .timeline import Threads

TEAMS = "slack.teams"
USERS = "slack.users"
CHANNELS = "slack.channels"
MESSAGES = "slack.messages"
EPHEMERAL = "slack.ephemeral"
PINS = "slack.pins"
USERGROUPS = "slack.usergroups"
BOOKMARKS = "slack.bookmarks"
READS = "slack.reads"
SCHEDULED = "slack.scheduled"
FILES = "slack.files"

# Subtypes of messages someone wrote. Slack also logs joins, topic changes and the like as messages with
# other subtypes (`channel_join`...), by the user who acted; those are not what people hear or checks count.
WRITTEN = frozenset({None, "thread_broadcast", "bot_message", "me_message", "file_share"})


class _Emails(dict[str, str]):
    """Lower-case email -> user id, made on first lookup (a world part: emails do not change)."""


def record_names(state: State) -> dict[str, str]:
    """Users and user groups by id as Slack mentions them (`@maya`), channels as it links them (`#support`), a
    DM by whom it is with (`DM with @maya`); a group DM by its name."""
    users = {user_id: f"@{name}" for user_id, name in names_by_field(state, {USERS: "name"}).items()}
    groups = {group_id: f"@{handle}" for group_id, handle in names_by_field(state, {USERGROUPS: "handle"}).items()}
    channels = {}
    for channel in state.get(CHANNELS, ()):
        if channel.get("is_im"):
            channels[channel["id"]] = f"DM with {users.get(channel['user'], channel['user'])}"
        elif channel.get("name"):
            channels[channel["id"]] = channel["name"] if channel.get("is_mpim") else f"#{channel['name']}"
    return {**users, **groups, **channels}


def team_id(world: World) -> str:
    return world.settings["slack"]["team_id"]


def domain(world: World) -> str:
    return world.settings["slack"]["domain"]


def locale(world: World) -> str:
    """The workspace's language, its members' unless they chose another (a world's never do)."""
    return str(world.settings["slack"]["locale"])


def user_by_email(world: World, email: str) -> Record | None:
    emails = world.part(_Emails)
    if not emails:
        emails.update((u["profile"]["email"].lower(), u["id"]) for u in world[USERS] if "email" in u["profile"])
    user_id = emails.get(email.lower())
    return world[USERS].get(user_id) if user_id else None


def is_member(conversation: Record, user_id: str) -> bool:
    return user_id in conversation["members"]


def can_see(conversation: Record, user_id: str) -> bool:
    """Private channels, DMs and group DMs are invisible to non-members, as if they did not exist."""
    if conversation.get("is_im") or conversation["is_private"]:
        return is_member(conversation, user_id)
    return True


def replies(world: World, parent_ts: str) -> list[Record]:
    """A thread's replies, oldest first (the parent also carries `thread_ts` once it has replies)."""
    return messages_at(world, world[MESSAGES].derived(Threads).get(parent_ts))


def messages_at(world: World, ts: Iterable[str]) -> list[Record]:
    """The messages of these `ts` (each one a message of the world's), in their order."""
    return [m for m in map(world[MESSAGES].get, ts) if m is not None]


def addresses(collections: State) -> list[Address]:
    """The workspace's people by their profiles' email (`Service.addresses`): its users but bots and the
    deactivated, with their real names and time zones."""
    return [
        Address(user["profile"]["email"], user.get("real_name") or user["name"], user.get("tz"), (user["id"],))
        for user in collections.get(USERS, ())
        if user["profile"].get("email") and not user.get("deleted") and not user.get("is_bot")
    ]
