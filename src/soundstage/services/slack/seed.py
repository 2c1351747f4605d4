"""Building the `slack:` sections of a world definition and a scene into a world image.

`assign` (pass 1, every file) gives each record its id: the team `T…`, users `U…`, channels `C…` and
messages their `ts`. Messages without `ago` are posted in file order, one minute apart, ending one
minute before the clock start. `build` (pass 2) adds the records, resolving refs and rejecting anything
Slack could not hold (a member that is not a user, a reply in another channel...). `generate` adds
realistic noise to a channel. The messages collection is kept sorted by `ts`.
"""

from __future__ import annotations

import re
from typing import Any
from weakref import WeakKeyDictionary

from pydantic import ValidationError

from ...clock import US, parse_duration
from ...spec.build import BuildContext
from ...world import Collection, Record
from . import objects
from .models import GenerateMessages, SlackSection
from .store import BOOKMARKS, CHANNELS, MESSAGES, PINS, TEAMS, USERGROUPS, USERS

MINUTE = 60 * US
DAY = 86_400

# Ids given out by `assign` for `build` to use, per build and per record: (file, section path, list, index).
_assigned: WeakKeyDictionary[BuildContext, dict[tuple[Any, ...], str]] = WeakKeyDictionary()


def _key(ctx: BuildContext, kind: str, index: int) -> tuple[Any, ...]:
    return (ctx.file, ctx.here, kind, index)


def _team_settings(ctx: BuildContext, team_id: str, name: str, domain: str | None) -> None:
    domain = domain or re.sub(r"[^a-z0-9-]", "", name.lower()) or "workspace"
    ctx.settings["slack"] = {"team_id": team_id, "domain": domain, "name": name}


# -- pass 1 ------------------------------------------------------------------------------------------


def assign(section: Any, ctx: BuildContext) -> None:
    slack = ctx.section(SlackSection, section)
    ids = _assigned.setdefault(ctx, {})
    if slack.team is not None:
        if "slack" in ctx.settings:
            raise ctx.error("the Slack team is already defined (a world has one team)", "team")
        team_id = slack.team.id or ctx.ids.slack("T")
        _team_settings(ctx, team_id, slack.team.name, slack.team.domain)
        ctx.define(slack.team.ref, team_id, TEAMS, "team")
    lists: list[tuple[str, str, str, list[Any]]] = [
        ("users", "U", USERS, slack.users),
        ("channels", "C", CHANNELS, slack.channels),
        ("usergroups", "S", USERGROUPS, slack.usergroups),
        ("bookmarks", "Bk", BOOKMARKS, slack.bookmarks),
    ]
    for kind, prefix, collection, records in lists:
        for i, record in enumerate(records):
            ids[_key(ctx, kind, i)] = record.id or ctx.ids.slack(prefix)
            ctx.define(record.ref, ids[_key(ctx, kind, i)], collection, kind, i)
    undated = [i for i, m in enumerate(slack.messages) if m.ago is None]
    at = {i: ctx.start - (len(undated) - k) * MINUTE for k, i in enumerate(undated)}
    for i, message in enumerate(slack.messages):
        when = at[i] if message.ago is None else ctx.start - parse_duration(message.ago)
        ids[_key(ctx, "messages", i)] = objects.make_ts(ctx.ids, when)
        ctx.define(message.ref, ids[_key(ctx, "messages", i)], MESSAGES, "messages", i)


# -- pass 2 ------------------------------------------------------------------------------------------


def build(section: Any, ctx: BuildContext) -> None:
    slack = ctx.section(SlackSection, section)
    ids = _assigned.setdefault(ctx, {})
    if "slack" not in ctx.settings:
        _team_settings(ctx, ctx.ids.slack("T"), "Soundstage", None)
    settings = ctx.settings["slack"]
    team_id = settings["team_id"]
    start = objects.seconds(ctx.start)
    teams = ctx.collection(TEAMS)
    if team_id not in teams:
        teams.add(team_id, objects.team(team_id, settings["name"], settings["domain"]))
    users = ctx.collection(USERS)
    if objects.SLACKBOT not in users:
        users.add(objects.SLACKBOT, objects.slackbot(team_id, _zone(ctx, "America/Los_Angeles"), start - DAY))
    for i, user in enumerate(slack.users):
        _build_user(ctx, ids[_key(ctx, "users", i)], user, i, team_id, start)
    for i, channel in enumerate(slack.channels):
        _build_channel(ctx, ids[_key(ctx, "channels", i)], channel, i, team_id, start)
    for i, message in enumerate(slack.messages):
        _build_message(ctx, ids[_key(ctx, "messages", i)], message, i, team_id)
    for i, message in enumerate(slack.messages):
        _link_message(ctx, ids[_key(ctx, "messages", i)], message, i)
    _finish_messages(ctx)
    for i, group in enumerate(slack.usergroups):
        _build_usergroup(ctx, ids[_key(ctx, "usergroups", i)], group, i, team_id, start)
    for i, bookmark in enumerate(slack.bookmarks):
        _build_bookmark(ctx, ids[_key(ctx, "bookmarks", i)], bookmark, i, team_id, start)


def _zone(ctx: BuildContext, tz: str, *path: str | int) -> dict[str, Any]:
    try:
        return objects.timezone_fields(tz, ctx.start)
    except ValueError as exc:
        raise ctx.error(str(exc), *path) from exc


def _new(ctx: BuildContext, collection: str, record_id: str, *path: str | int) -> None:
    if record_id in ctx.collection(collection):
        raise ctx.error(f"id {record_id} is already used by another record of {collection}", *path)


def _user_id(ctx: BuildContext, value: str, *path: str | int) -> str:
    user_id = ctx.resolve_kind(value, USERS, *path)
    if user_id not in ctx.collection(USERS):
        raise ctx.error(f"{value} is not a Slack user", *path)
    return user_id


def _channel_id(ctx: BuildContext, value: str, *path: str | int) -> str:
    channel_id = ctx.resolve_kind(value, CHANNELS, *path)
    if channel_id not in ctx.collection(CHANNELS):
        raise ctx.error(f"{value} is not a Slack channel", *path)
    return channel_id


def _build_user(ctx: BuildContext, user_id: str, user: Any, i: int, team_id: str, start: int) -> None:
    users = ctx.collection(USERS)
    _new(ctx, USERS, user_id, "users", i, "id")
    if users.by("name", user.name):
        raise ctx.error(f"a Slack user is already named {user.name!r}", "users", i, "name")
    if user.email is not None and any(u["profile"].get("email") == user.email for u in users):
        raise ctx.error(f"another Slack user has the email {user.email!r}", "users", i, "email")
    bot_id = ctx.ids.slack("B") if user.is_bot else None
    users.add(
        user_id,
        objects.user(
            user_id,
            team_id,
            user.name,
            real_name=user.real_name or user.name,
            display_name=user.display_name,
            title=user.title,
            email=user.email,
            is_bot=user.is_bot,
            is_admin=user.is_admin,
            deleted=user.deleted,
            zone=_zone(ctx, user.tz, "users", i, "tz"),
            updated=start - DAY,
            bot_id=bot_id,
            app_id=ctx.ids.slack("A") if bot_id else None,
        ),
    )


def _build_channel(ctx: BuildContext, channel_id: str, channel: Any, i: int, team_id: str, start: int) -> None:
    _new(ctx, CHANNELS, channel_id, "channels", i, "id")
    problem = objects.channel_name_error(channel.name)
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
    members = [_user_id(ctx, m, "channels", i, "members", j) for j, m in enumerate(channel.members)]
    if len(set(members)) != len(members):
        raise ctx.error("a member is listed twice", "channels", i, "members")
    if channel.created_by is not None:
        creator = _user_id(ctx, channel.created_by, "channels", i, "created_by")
    else:
        creator = members[0] if members else objects.SLACKBOT
    record = objects.channel(
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
    )
    ctx.collection(CHANNELS).add(channel_id, record)


def _conversation_of(ctx: BuildContext, message: Any, user_id: str, i: int) -> str:
    """A message's conversation: a channel, or (when `channel` names a user) that user's DM with the author."""
    target = ctx.resolve(message.channel, "messages", i, "channel")
    channels = ctx.collection(CHANNELS)
    if target in channels:
        return target
    if target not in ctx.collection(USERS):
        raise ctx.error(f"{message.channel} is neither a Slack channel nor a user (for a DM)", "messages", i, "channel")
    pair = {user_id, target}
    for record in channels.by("is_im", True):
        if set(record["members"]) == pair:
            return record["id"]
    dm_id = ctx.ids.slack("D")
    channels.add(
        dm_id,
        objects.im(dm_id, ctx.settings["slack"]["team_id"], user_id, target, objects.seconds(ctx.start) - 30 * DAY),
    )
    return dm_id


def _build_message(ctx: BuildContext, ts: str, message: Any, i: int, team_id: str) -> None:
    user_id = _user_id(ctx, message.user, "messages", i, "user")
    channel_id = _conversation_of(ctx, message, user_id, i)
    channel = ctx.collection(CHANNELS).get(channel_id)
    if user_id not in channel["members"]:
        raise ctx.error(f"{message.user} is not a member of the channel {message.channel}", "messages", i, "user")
    by_name: dict[str, list[str]] = {}
    for name, reactors in message.reactions.items():
        if not objects.EMOJI.fullmatch(name):
            raise ctx.error(f"invalid emoji name {name!r} (lower case, without colons)", "messages", i, "reactions")
        by_name[name] = [_user_id(ctx, u, "messages", i, "reactions", name, j) for j, u in enumerate(reactors)]
    author = ctx.collection(USERS).get(user_id)
    record = objects.message(ts, channel_id, author, message.text, team_id)
    if by_name:
        record["reactions"] = objects.reactions(by_name)
    if message.pinned:
        record["pinned_to"] = [channel_id]
        ctx.collection(PINS).add(
            f"{channel_id}/{ts}",
            {
                "channel": channel_id,
                "ts": ts,
                "type": "message",
                "created": objects.seconds(objects.ts_us(ts)),
                "created_by": user_id,
            },
        )
    ctx.collection(MESSAGES).add(ts, record)


def _link_message(ctx: BuildContext, ts: str, message: Any, i: int) -> None:
    """Makes a message a reply of the thread its `thread_ts` names."""
    if message.thread_ts is None:
        return
    messages = ctx.collection(MESSAGES)
    parent_ts = ctx.resolve_kind(message.thread_ts, MESSAGES, "messages", i, "thread_ts")
    parent = messages.get(parent_ts)
    record = messages.get(ts)
    if parent is None:
        raise ctx.error(f"{message.thread_ts} is not a Slack message", "messages", i, "thread_ts")
    if parent["channel"] != record["channel"]:
        raise ctx.error("a reply must be in the same channel as its thread's first message", "messages", i, "thread_ts")
    if parent.get("parent_user_id") or parent_ts == ts:
        raise ctx.error("thread_ts must name a thread's first message, not a reply", "messages", i, "thread_ts")
    if objects.ts_us(parent_ts) >= objects.ts_us(ts):
        raise ctx.error("a reply must be posted after its thread's first message", "messages", i, "thread_ts")
    messages.change(ts, thread_ts=parent_ts, parent_user_id=parent["user"])


def _finish_messages(ctx: BuildContext) -> None:
    """Sorts the messages by `ts` (insertion order is time order) and sums up every thread."""
    messages = ctx.collection(MESSAGES)
    ordered = sorted(messages, key=lambda m: objects.ts_us(m["ts"]))
    replies: dict[str, list[Record]] = {}
    for record in ordered:
        if record.get("parent_user_id"):
            replies.setdefault(record["thread_ts"], []).append(record)
    by_ts = {m["ts"]: m for m in ordered}
    for parent_ts, thread in replies.items():
        by_ts[parent_ts] = {**by_ts[parent_ts], **objects.thread_summary(parent_ts, thread)}
    ctx.collections[MESSAGES] = Collection(MESSAGES, by_ts)


def _build_usergroup(ctx: BuildContext, group_id: str, group: Any, i: int, team_id: str, start: int) -> None:
    groups = ctx.collection(USERGROUPS)
    _new(ctx, USERGROUPS, group_id, "usergroups", i, "id")
    if groups.by("handle", group.handle):
        raise ctx.error(f"a user group already has the handle {group.handle!r}", "usergroups", i, "handle")
    users = [_user_id(ctx, u, "usergroups", i, "users", j) for j, u in enumerate(group.users)]
    channels = [_channel_id(ctx, c, "usergroups", i, "channels", j) for j, c in enumerate(group.channels)]
    if group.created_by is not None:
        creator = _user_id(ctx, group.created_by, "usergroups", i, "created_by")
    else:
        creator = users[0] if users else objects.SLACKBOT
    groups.add(
        group_id,
        objects.usergroup(
            group_id,
            team_id,
            group.name,
            group.handle,
            description=group.description,
            users=users,
            channels=channels,
            created_by=creator,
            created=start - 7 * DAY,
            disabled=group.disabled,
        ),
    )


def _build_bookmark(ctx: BuildContext, bookmark_id: str, bookmark: Any, i: int, team_id: str, start: int) -> None:
    _new(ctx, BOOKMARKS, bookmark_id, "bookmarks", i, "id")
    channel_id = _channel_id(ctx, bookmark.channel, "bookmarks", i, "channel")
    if bookmark.created_by is not None:
        creator = _user_id(ctx, bookmark.created_by, "bookmarks", i, "created_by")
    else:
        creator = ctx.collection(CHANNELS).get(channel_id)["creator"]
    rank = len(ctx.collection(BOOKMARKS).by("channel_id", channel_id))
    ctx.collection(BOOKMARKS).add(
        bookmark_id,
        objects.bookmark(
            bookmark_id,
            channel_id,
            bookmark.title,
            bookmark.link,
            bookmark.emoji,
            creator,
            team_id,
            start - 7 * DAY,
            rank=chr(ord("a") + rank % 26) * (1 + rank // 26),
        ),
    )


# -- generate ----------------------------------------------------------------------------------------

_TEMPLATES = (
    "Has anyone looked at {bs} yet?",
    "Quick update: {catch_phrase} is on track for {day}.",
    "Heads up, {company} asked about {bs} again.",
    "Can someone review the {word} changes before standup?",
    "{sentence}",
    "Thanks {first}! That fixed it.",
    "I'll be out {day}, {first} is covering for me.",
    "Reminder: retro at {time} today.",
    "Does anyone know who owns the {word} dashboard?",
    "+1, same here",
    "Looking into it now.",
    "{sentence} {sentence}",
)
_EMOJI = ("+1", "eyes", "white_check_mark", "tada", "pray", "raised_hands", "100", "joy")


def _noise(ctx: BuildContext) -> str:
    faker = ctx.faker
    template = ctx.random.choice(_TEMPLATES)
    return template.format(
        bs=faker.bs(),
        catch_phrase=faker.catch_phrase().lower(),
        company=faker.company(),
        word=faker.word(),
        sentence=faker.sentence(),
        first=faker.first_name(),
        day=faker.day_of_week(),
        time=faker.time(pattern="%H:%M"),
    )


def generate(collection: str, options: Any, ctx: BuildContext) -> None:
    """`generate: {slack.messages: {channel, count, users, span, threads, reactions}}`."""
    if collection != "messages":
        raise ctx.error(f"slack.{collection} cannot be generated; only slack.messages can")
    try:
        opts = GenerateMessages.model_validate(options)
    except ValidationError as exc:
        problem = exc.errors()[0]
        raise ctx.error(problem["msg"], *problem["loc"]) from exc
    channel_id = _channel_id(ctx, opts.channel, "channel")
    channel = ctx.collection(CHANNELS).get(channel_id)
    users_collection = ctx.collection(USERS)
    if opts.users is None:
        authors = [u for u in channel["members"] if not users_collection.get(u)["is_bot"]]
    else:
        authors = [_user_id(ctx, u, "users", j) for j, u in enumerate(opts.users)]
    if not authors:
        raise ctx.error(f"{opts.channel} has no members (other than bots) to post the messages", "channel")
    team_id = ctx.settings["slack"]["team_id"]
    span = parse_duration(opts.span) // US
    offsets = sorted((ctx.random.randint(60, max(span, 60)) for _ in range(opts.count)), reverse=True)
    messages = ctx.collection(MESSAGES)
    roots: list[Record] = []
    for offset in offsets:
        author = users_collection.get(ctx.random.choice(authors))
        ts = objects.make_ts(ctx.ids, ctx.start - offset * US)
        parent = ctx.random.choice(roots[-10:]) if roots and ctx.random.random() < opts.threads else None
        record = objects.message(
            ts,
            channel_id,
            author,
            _noise(ctx),
            team_id,
            thread_ts=parent["ts"] if parent else None,
            parent_user=parent["user"] if parent else None,
        )
        if ctx.random.random() < opts.reactions:
            reactors = ctx.random.sample(authors, k=min(len(authors), ctx.random.randint(1, 3)))
            record["reactions"] = objects.reactions({ctx.random.choice(_EMOJI): reactors})
        messages.add(ts, record)
        if parent is None:
            roots.append(record)
    _finish_messages(ctx)
