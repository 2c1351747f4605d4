"""Building the workspace's directory from a `slack:` section: users, channels, user groups and bookmarks,
each checked against what Slack could hold; and resolving the refs that name users and channels.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from ...clock import US, parse_duration
from ...spec.build import BuildContext
from ...world import Record
from . import bookmarks, channels, directory, posting, profiles
from .directory import SLACKBOT
from .names import channel_name_error
from .store import BOOKMARKS, CHANNELS, TEAMS, USERGROUPS, USERS

DAY = 86_400

# Former members of each channel, per build: only the file's messages need them (Slack keeps no list).
_former: WeakKeyDictionary[BuildContext, dict[str, set[str]]] = WeakKeyDictionary()


def time_zone(ctx: BuildContext, tz: str, *path: str | int) -> dict[str, Any]:
    """A user's time zone fields at the clock start; an unknown zone is an error at `path`."""
    try:
        return directory.timezone_fields(tz, ctx.start)
    except ValueError as exc:
        raise ctx.error(str(exc), *path) from exc


def unused(ctx: BuildContext, collection: str, record_id: str, *path: str | int) -> None:
    """Rejects an id given in the file that another record of the collection already has."""
    if record_id in ctx.collection(collection):
        raise ctx.error(f"id {record_id} is already used by another record of {collection}", *path)


def resolve_user(ctx: BuildContext, value: str, *path: str | int) -> str:
    user_id = ctx.resolve_kind(value, USERS, *path)
    if user_id not in ctx.collection(USERS):
        raise ctx.error(f"{value} is not a Slack user", *path)
    return user_id


def resolve_channel(ctx: BuildContext, value: str, *path: str | int) -> str:
    channel_id = ctx.resolve_kind(value, CHANNELS, *path)
    if channel_id not in ctx.collection(CHANNELS):
        raise ctx.error(f"{value} is not a Slack channel", *path)
    return channel_id


def build_team(ctx: BuildContext, team_id: str, start: int) -> None:
    """The team and Slackbot, once per image (a scene's section adds to its world's)."""
    settings = ctx.settings["slack"]
    teams = ctx.collection(TEAMS)
    if team_id not in teams:
        teams.add(
            team_id,
            directory.team(
                team_id,
                settings["name"],
                settings["domain"],
                plan=settings["plan"],
                locale=settings["locale"],
                custom_icon=settings["custom_icon"],
                sso=settings["sso"],
            ),
        )
    users = ctx.collection(USERS)
    if SLACKBOT not in users:
        users.add(SLACKBOT, directory.slackbot(team_id, time_zone(ctx, "America/Los_Angeles"), start - DAY))


def status(ctx: BuildContext, given: Any, start: int, i: int) -> dict[str, Any] | None:
    """A user's custom status from the file, its emoji one of Slack's standard emoji."""
    if given is None:
        return None
    if not (given.text or given.emoji):
        raise ctx.error("a status has a text, an emoji or both", "users", i, "status")
    problem = profiles.emoji_error(given.emoji) if given.emoji else None
    if problem:
        raise ctx.error(problem, "users", i, "status", "emoji")
    expiration = start + parse_duration(given.expires_in) // US if given.expires_in is not None else 0
    if given.expires_in is not None and expiration <= start:
        raise ctx.error("a status expires after the clock start", "users", i, "status", "expires_in")
    return profiles.status(given.text, given.emoji, expiration)


def build_user(ctx: BuildContext, user_id: str, user: Any, i: int, team_id: str, start: int) -> None:
    users = ctx.collection(USERS)
    unused(ctx, USERS, user_id, "users", i, "id")
    if users.by("name", user.name):
        raise ctx.error(f"a Slack user is already named {user.name!r}", "users", i, "name")
    if user.email is not None and any(u["profile"].get("email") == user.email for u in users):
        raise ctx.error(f"another Slack user has the email {user.email!r}", "users", i, "email")
    bot_id = ctx.ids.slack("B") if user.is_bot else None
    users.add(
        user_id,
        directory.user(
            user_id,
            team_id,
            user.name,
            real_name=user.real_name or user.name,
            display_name=user.display_name,
            title=user.title,
            pronouns=user.pronouns,
            email=user.email,
            is_bot=user.is_bot,
            is_admin=user.is_admin,
            deleted=user.deleted,
            zone=time_zone(ctx, user.tz, "users", i, "tz") if user.tz is not None else {},
            updated=start - DAY,
            bot_id=bot_id,
            app_id=ctx.ids.slack("A") if bot_id else None,
            custom_image=user.custom_image,
            status=status(ctx, user.status, start, i),
            start_date=user.start_date,
            guest_invited_by=None if user.guest is None else guest_inviter(ctx, user, i),
            single_channel=user.guest is not None and user.guest.single_channel,
        ),
    )


def guest_inviter(ctx: BuildContext, user: Any, i: int) -> str:
    """The user who invited a guest; guests are a paid plan's, and a bot is never one."""
    plan = ctx.settings["slack"]["plan"]
    if plan == "free":
        raise ctx.error("guest accounts need a paid plan (the team's `plan`), not free", "users", i, "guest")
    if user.is_bot:
        raise ctx.error("a bot cannot be a guest", "users", i, "guest")
    return ctx.resolve_kind(user.guest.invited_by, USERS, "users", i, "guest", "invited_by")


def check_guest(ctx: BuildContext, user: Any, user_id: str, i: int) -> None:
    """Once every user is built: a guest was invited by a full member of the workspace."""
    if user.guest is None:
        return
    users = ctx.collection(USERS)
    invited_by = users.one(user_id)["profile"]["guest_invited_by"]
    ctx.built(invited_by)
    inviter = users.get(invited_by)
    if inviter is None or inviter["deleted"] or inviter["is_bot"] or inviter["is_restricted"]:
        raise ctx.error(
            f"{user.guest.invited_by} is not a full member of the workspace, who could invite a guest",
            *("users", i, "guest", "invited_by"),
        )


def _single_channel_guests(ctx: BuildContext, members: list[str], i: int) -> None:
    """A single-channel guest is a member of one channel at most."""
    users = ctx.collection(USERS)
    for j, member in enumerate(members):
        if not users.one(member)["is_ultra_restricted"]:
            continue
        for other in ctx.collection(CHANNELS):
            if not (other.get("is_im") or other["is_mpim"]) and member in other["members"]:
                raise ctx.error(f"a single-channel guest, already in #{other['name']}", "channels", i, "members", j)


def build_channel(ctx: BuildContext, channel_id: str, channel: Any, i: int, team_id: str, start: int) -> None:
    unused(ctx, CHANNELS, channel_id, "channels", i, "id")
    problem = channel_name_error(channel.name)
    if problem:
        raise ctx.error(
            f"invalid channel name {channel.name!r} ({problem}): use lower case letters, digits, - and _, "
            "at most 80 characters",
            "channels",
            i,
            "name",
        )
    if ctx.collection(CHANNELS).by("name", channel.name):
        raise ctx.error(f"a channel is already named {channel.name!r}", "channels", i, "name")
    for j, previous in enumerate(channel.previous_names):
        if channel_name_error(previous) or previous == channel.name:
            raise ctx.error(
                f"invalid previous name {previous!r}: a valid channel name other than its name now",
                "channels",
                i,
                "previous_names",
                j,
            )
    members = [resolve_user(ctx, m, "channels", i, "members", j) for j, m in enumerate(channel.members)]
    if len(set(members)) != len(members):
        raise ctx.error("a member is listed twice", "channels", i, "members")
    _single_channel_guests(ctx, members, i)
    former = [resolve_user(ctx, m, "channels", i, "former_members", j) for j, m in enumerate(channel.former_members)]
    if set(former) & set(members):
        raise ctx.error("a former member is also a member", "channels", i, "former_members")
    _former.setdefault(ctx, {})[channel_id] = set(former)
    if channel.created_by is not None:
        creator = resolve_user(ctx, channel.created_by, "channels", i, "created_by")
    else:
        creator = members[0] if members else SLACKBOT
    restrictions = {
        field: _restriction(ctx, rule, "channels", i, field)
        for field in ("posting_restricted_to", "threads_restricted_to")
        if (rule := getattr(channel, field)) is not None
    }
    record = channels.record(
        channel_id,
        team_id,
        channel.name,
        creator=creator,
        created=start - 30 * DAY + i * 60,
        members=members,
        is_private=channel.is_private,
        is_archived=channel.is_archived,
        topic_value=channel.topic,
        purpose_value=channel.purpose,
        previous_names=channel.previous_names,
        restrictions=restrictions,
    )
    ctx.collection(CHANNELS).add(channel_id, record)


def _restriction(ctx: BuildContext, rule: Any, *path: str | int) -> dict[str, Any]:
    """A channel's posting permission: admins (`type: [admin]`), users, or both (never nobody)."""
    if not (rule.type or rule.user):
        raise ctx.error("name who may: type [admin], users or both", *path)
    users = [resolve_user(ctx, u, *path, "user", j) for j, u in enumerate(rule.user)]
    if len(set(users)) != len(users):
        raise ctx.error("a user is listed twice", *path, "user")
    return posting.restriction(dict.fromkeys(rule.type), users)


def build_usergroup(ctx: BuildContext, group_id: str, group: Any, i: int, team_id: str, start: int) -> None:
    groups = ctx.collection(USERGROUPS)
    unused(ctx, USERGROUPS, group_id, "usergroups", i, "id")
    if groups.by("handle", group.handle):
        raise ctx.error(f"a user group already has the handle {group.handle!r}", "usergroups", i, "handle")
    users = [resolve_user(ctx, u, "usergroups", i, "users", j) for j, u in enumerate(group.users)]
    channel_ids = [resolve_channel(ctx, c, "usergroups", i, "channels", j) for j, c in enumerate(group.channels)]
    if group.created_by is not None:
        creator = resolve_user(ctx, group.created_by, "usergroups", i, "created_by")
    else:
        creator = users[0] if users else SLACKBOT
    groups.add(
        group_id,
        directory.usergroup(
            group_id,
            team_id,
            group.name,
            group.handle,
            description=group.description,
            users=users,
            channels=channel_ids,
            created_by=creator,
            created=start - 7 * DAY,
            disabled=group.disabled,
        ),
    )


def build_bookmark(ctx: BuildContext, bookmark_id: str, bookmark: Any, i: int, team_id: str, start: int) -> None:
    unused(ctx, BOOKMARKS, bookmark_id, "bookmarks", i, "id")
    channel_id = resolve_channel(ctx, bookmark.channel, "bookmarks", i, "channel")
    if bookmark.created_by is not None:
        creator = resolve_user(ctx, bookmark.created_by, "bookmarks", i, "created_by")
    else:
        creator = ctx.collection(CHANNELS).one(channel_id)["creator"]
    rank = len(ctx.collection(BOOKMARKS).by("channel_id", channel_id))
    ctx.collection(BOOKMARKS).add(
        bookmark_id,
        bookmarks.record(
            bookmark_id,
            channel_id,
            bookmark.title,
            bookmark.link,
            bookmark.emoji,
            creator,
            team_id,
            start - 7 * DAY,
            rank=bookmarks.rank_at(rank),
        ),
    )


def could_post(ctx: BuildContext, conversation: Record, user_id: str) -> bool:
    """Whether a message of the file may be by `user_id`: a member, or a channel's former member."""
    return user_id in conversation["members"] or user_id in _former.get(ctx, {}).get(conversation["id"], ())


def _dm_users(ctx: BuildContext, conversation: Any, kind: str, i: int, fewest: int, most: int) -> list[str]:
    users = [resolve_user(ctx, u, kind, i, "users", j) for j, u in enumerate(conversation.users)]
    if len(set(users)) != len(users):
        raise ctx.error("a user is listed twice", kind, i, "users")
    if not fewest <= len(users) <= most:
        raise ctx.error(f"a {kind[:-1].replace('_', ' ')} has {fewest} to {most} users", kind, i, "users")
    same_kind = ctx.collection(CHANNELS).by("is_im" if kind == "dms" else "is_mpim", True)
    if any(set(c["members"]) == set(users) for c in same_kind):
        raise ctx.error("these users already have one", kind, i, "users")
    return users


def build_dm(ctx: BuildContext, dm_id: str, dm: Any, i: int, team_id: str, start: int) -> None:
    """A DM between two users (or a user's self-DM), opened by the first."""
    unused(ctx, CHANNELS, dm_id, "dms", i, "id")
    users = _dm_users(ctx, dm, "dms", i, 1, 2)
    created = start - parse_duration(dm.ago) // US
    ctx.collection(CHANNELS).add(dm_id, channels.im(dm_id, team_id, users[0], users[-1], created))


def build_group_dm(ctx: BuildContext, group_id: str, group: Any, i: int, team_id: str, start: int) -> None:
    """A group DM of three to nine users, named as Slack names them."""
    unused(ctx, CHANNELS, group_id, "group_dms", i, "id")
    users = _dm_users(ctx, group, "group_dms", i, 3, 9)
    names = "--".join(ctx.collection(USERS).get(u)["name"] for u in users)  # type: ignore[index]  # resolved
    record = channels.record(
        group_id,
        team_id,
        f"mpdm-{names}-1",
        creator=users[0],
        created=start - parse_duration(group.ago) // US,
        members=users,
        is_mpim=True,
    )
    ctx.collection(CHANNELS).add(group_id, record)
