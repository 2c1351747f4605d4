"""State changes and lookups on the Slack collections of a live world: plain Python, no HTTP or JSON.

Callers validate first (handlers, the people engine); these functions assume their input is valid and
only write. Every write goes through `Collection.add/change/remove`, so the world records it and can
undo it. Messages are kept in `ts` order: a new `ts` is never older than the last one, because simulated
time only moves on.
"""

from __future__ import annotations

from typing import Any, Iterable

from ...world import Record, World
from . import objects

TEAMS = "slack.teams"
USERS = "slack.users"
CHANNELS = "slack.channels"
MESSAGES = "slack.messages"
EPHEMERAL = "slack.ephemeral"
PINS = "slack.pins"
USERGROUPS = "slack.usergroups"
BOOKMARKS = "slack.bookmarks"

# Subtypes of messages someone wrote. Slack also logs joins, topic changes and the like as messages with
# other subtypes (`channel_join`...), by the user who acted; those are not what people hear or checks count.
WRITTEN = frozenset({None, "thread_broadcast", "bot_message", "me_message", "file_share"})


class _Emails(dict[str, str]):
    """Lower-case email -> user id, made on first lookup (a world part: emails do not change)."""


# -- lookups -----------------------------------------------------------------------------------------


def team_id(world: World) -> str:
    return world.settings["slack"]["team_id"]


def domain(world: World) -> str:
    return world.settings["slack"]["domain"]


def now_seconds(world: World) -> int:
    return objects.seconds(world.now())


def is_member(conversation: Record, user_id: str) -> bool:
    return user_id in conversation["members"]


def can_see(conversation: Record, user_id: str) -> bool:
    """Private channels, DMs and group DMs are invisible to non-members, as if they did not exist."""
    if conversation.get("is_im") or conversation["is_private"]:
        return is_member(conversation, user_id)
    return True


def channel_named(world: World, name: str) -> Record | None:
    for record in world[CHANNELS].by("name", name):
        return record
    return None


def dm_between(world: World, a: str, b: str) -> Record | None:
    # An IM's `user` is the other party as seen by whoever opened it, so look from both sides.
    pair = {a, b}
    for other in pair:
        for record in world[CHANNELS].by("user", other):
            if record.get("is_im") and set(record["members"]) == pair:
                return record
    return None


def user_by_email(world: World, email: str) -> Record | None:
    emails = world.part(_Emails)
    if not emails:
        emails.update((u["profile"]["email"].lower(), u["id"]) for u in world[USERS] if "email" in u["profile"])
    user_id = emails.get(email.lower())
    return world[USERS].get(user_id) if user_id else None


def replies(world: World, parent_ts: str) -> list[Record]:
    """A thread's replies, oldest first (the parent also carries `thread_ts` once it has replies)."""
    return [m for m in world[MESSAGES].by("thread_ts", parent_ts) if m["ts"] != parent_ts]


def thread_parent(world: World, message: Record) -> Record | None:
    thread_ts = message.get("thread_ts")
    if not thread_ts or thread_ts == message["ts"]:
        return None
    return world[MESSAGES].get(thread_ts)


def pins(world: World, channel_id: str) -> list[Record]:
    return world[PINS].by("channel", channel_id)


def pin_id(channel_id: str, ts: str) -> str:
    return f"{channel_id}/{ts}"


# -- messages ----------------------------------------------------------------------------------------


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
) -> Record:
    """Posts a message (a reply when `thread_ts` is given) and updates the thread's parent."""
    ts = objects.make_ts(world.ids, world.now())
    parent = world[MESSAGES].get(thread_ts) if thread_ts else None
    if parent is not None and parent["channel"] != channel_id:
        parent = None  # a ts of another channel's message names no thread here
    record = objects.message(
        ts,
        channel_id,
        world[USERS].get(user_id),
        text,
        team_id(world),
        thread_ts=thread_ts,
        parent_user=parent["user"] if parent is not None else None,
        subtype="thread_broadcast" if broadcast else subtype,
        extra=extra,
    )
    world[MESSAGES].add(ts, record)
    if parent is not None:
        _summarize(world, parent["ts"])
    return world[MESSAGES].get(ts)


def _summarize(world: World, parent_ts: str) -> None:
    world[MESSAGES].change(parent_ts, **objects.thread_summary(parent_ts, replies(world, parent_ts)))


def update(world: World, message: Record, editor: str, fields: dict[str, Any]) -> Record:
    """Replaces text, blocks or attachments of a message and marks it edited."""
    edited = {"user": editor, "ts": objects.make_ts(world.ids, world.now())}
    return world[MESSAGES].change(message["ts"], **fields, edited=edited)


def delete(world: World, message: Record) -> None:
    """Deletes a message; a thread parent with replies left becomes Slack's tombstone."""
    messages = world[MESSAGES]
    ts = message["ts"]
    for pin in pins(world, message["channel"]):
        if pin["ts"] == ts:
            world[PINS].remove(pin_id(message["channel"], ts))
    if message.get("reply_count"):
        messages.change(
            ts,
            subtype="tombstone",
            text="This message was deleted.",
            user=objects.SLACKBOT,
            hidden=True,
            bot_id=None,
            app_id=None,
            bot_profile=None,
            blocks=None,
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
    if parent.get("subtype") == "tombstone" and not replies(world, parent["ts"]):
        messages.remove(parent["ts"])
    else:
        _summarize(world, parent["ts"])


def react(world: World, message: Record, user_id: str, name: str) -> Record:
    by_name = {r["name"]: list(r["users"]) for r in message.get("reactions") or []}
    by_name.setdefault(name, []).append(user_id)
    return world[MESSAGES].change(message["ts"], reactions=objects.reactions(by_name))


def unreact(world: World, message: Record, user_id: str, name: str) -> Record:
    by_name = {
        r["name"]: [u for u in r["users"] if not (r["name"] == name and u == user_id)]
        for r in message.get("reactions") or []
    }
    return world[MESSAGES].change(message["ts"], reactions=objects.reactions(by_name) or None)


def pin(world: World, message: Record, user_id: str) -> None:
    channel_id = message["channel"]
    world[PINS].add(
        pin_id(channel_id, message["ts"]),
        {
            "channel": channel_id,
            "ts": message["ts"],
            "type": "message",
            "created": now_seconds(world),
            "created_by": user_id,
        },
    )
    world[MESSAGES].change(message["ts"], pinned_to=[*(message.get("pinned_to") or []), channel_id])


def post_ephemeral(
    world: World, channel_id: str, sender: str, recipient: str, text: str, thread_ts: str | None
) -> Record:
    """An ephemeral message: seen only by `recipient`, never in history (kept for checks)."""
    ts = objects.make_ts(world.ids, world.now())
    record = {"type": "message", "ts": ts, "channel": channel_id, "user": recipient, "sender": sender, "text": text}
    if thread_ts:
        record["thread_ts"] = thread_ts
    return world[EPHEMERAL].add(ts, record)


# -- conversations -----------------------------------------------------------------------------------


def open_dm(world: World, opener: str, other: str) -> tuple[Record, bool]:
    """The DM between two users (one user for a self-DM), created when missing; and whether it existed."""
    existing = dm_between(world, opener, other)
    if existing is not None:
        return existing, True
    dm_id = world.ids.slack("D")
    return world[CHANNELS].add(dm_id, objects.im(dm_id, team_id(world), opener, other, now_seconds(world))), False


def open_group_dm(world: World, opener: str, others: list[str]) -> tuple[Record, bool]:
    """The group DM (mpim) of exactly these users, created when missing; and whether it existed."""
    wanted = {opener, *others}
    for record in world[CHANNELS].by("is_mpim", True):
        if set(record["members"]) == wanted:
            return record, True
    users = [opener] + [u for u in others if u != opener]
    names = "--".join(world[USERS].get(u)["name"] for u in users)
    group_id = world.ids.slack("G")
    record = objects.channel(
        group_id,
        team_id(world),
        f"mpdm-{names}-1",
        creator=opener,
        created=now_seconds(world),
        members=users,
        is_mpim=True,
    )
    return world[CHANNELS].add(group_id, record), False


def create_channel(world: World, name: str, creator: str, is_private: bool) -> Record:
    channel_id = world.ids.slack("C")
    record = objects.channel(
        channel_id,
        team_id(world),
        name,
        creator=creator,
        created=now_seconds(world),
        members=[creator],
        is_private=is_private,
    )
    world[CHANNELS].add(channel_id, record)
    post(world, channel_id, creator, f"<@{creator}> has joined the channel", subtype="channel_join")
    return world[CHANNELS].get(channel_id)


def add_members(world: World, conversation: Record, users: Iterable[str], inviter: str | None = None) -> Record:
    """Joins (`inviter` None) or invites users, each announced the way Slack does."""
    new = [u for u in users if u not in conversation["members"]]
    record = world[CHANNELS].change(conversation["id"], members=[*conversation["members"], *new])
    for user_id in new:
        extra = {"inviter": inviter} if inviter else None
        post(world, record["id"], user_id, f"<@{user_id}> has joined the channel", subtype="channel_join", extra=extra)
    return record


def remove_member(world: World, conversation: Record, user_id: str, *, announce: bool = True) -> Record:
    """Leaves (announced with Slack's `channel_leave` message) or kicks (`announce=False`, as Slack does)."""
    if announce:
        post(world, conversation["id"], user_id, f"<@{user_id}> has left the channel", subtype="channel_leave")
    return world[CHANNELS].change(conversation["id"], members=[m for m in conversation["members"] if m != user_id])


def set_topic(world: World, conversation: Record, user_id: str, field: str, value: str) -> Record:
    """Sets `topic` or `purpose` and posts Slack's `channel_topic` / `channel_purpose` message."""
    post(
        world,
        conversation["id"],
        user_id,
        f"set the channel {field}: {value}",
        subtype=f"channel_{field}",
        extra={field: value},
    )
    return world[CHANNELS].change(conversation["id"], **{field: objects.topic(value, user_id, now_seconds(world))})


def set_archived(world: World, conversation: Record, user_id: str, archived: bool) -> Record:
    if archived:
        post(world, conversation["id"], user_id, "archived the channel", subtype="channel_archive")
        return world[CHANNELS].change(conversation["id"], is_archived=True)
    record = world[CHANNELS].change(conversation["id"], is_archived=False)
    post(world, conversation["id"], user_id, "un-archived the channel", subtype="channel_unarchive")
    return record


def rename(world: World, conversation: Record, user_id: str, name: str) -> Record:
    old = conversation["name"]
    record = world[CHANNELS].change(
        conversation["id"],
        name=name,
        name_normalized=objects.normalized(name),
        previous_names=[old, *conversation["previous_names"]],
    )
    post(
        world,
        conversation["id"],
        user_id,
        f'renamed the channel from "{old}" to "{name}"',
        subtype="channel_name",
        extra={"old_name": old, "name": name},
    )
    return record
