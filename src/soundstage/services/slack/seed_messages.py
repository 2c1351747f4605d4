"""Building the messages of a `slack:` section (in channels and DMs, threads, reactions, pins); the noise of
`generate:` is made in seed_generate.py. The messages collection is kept sorted by `ts`.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from ...clock import US
from ...spec.build import BuildContext
from ...world import Collection, Record
from . import channels, messages, pins, reactions
from .names import EMOJI
from .seed_directory import DAY, could_post, resolve_user
from .store import CHANNELS, MESSAGES, PINS, USERS
from .timestamps import seconds, spell_ts, ts_us

EARLIER_TS = "slack:earlier_ts"  # the build's scratch: the counters of the seconds before the clock start


def count_ts(ctx: BuildContext, second: int) -> int:
    """The next count of the messages of `second` (the counter `make_ts` keeps). The counters of the seconds
    before the clock start are the build's scratch: only the build uses them, as a live world's clock never goes
    back before its start. Kept in the image's ids, a world of 100,000 messages would hold (and copy into every
    live world) a counter for each; kept by the second, they cost a third of that."""
    if second >= ctx.start // US:
        return ctx.ids.next(f"slack:ts:{second}")
    counters = ctx.scratch.setdefault(EARLIER_TS, {})
    count = counters[second] = counters.get(second, 0) + 1
    return count


def seed_ts(ctx: BuildContext, us: int) -> str:
    """A new `ts` at `us` for a message of the world's seed, as `make_ts` makes one."""
    second = us // US
    return spell_ts(second, count_ts(ctx, second))


def _conversation_of(ctx: BuildContext, message: Any, user_id: str, i: int) -> str:
    """A message's conversation: a channel, or (when `channel` names a user) that user's DM with the author."""
    target = ctx.resolve(message.channel, "messages", i, "channel")
    conversations = ctx.collection(CHANNELS)
    if target in conversations:
        return target
    if target not in ctx.collection(USERS):
        raise ctx.error(f"{message.channel} is neither a Slack channel nor a user (for a DM)", "messages", i, "channel")
    pair = {user_id, target}
    for record in conversations.by("is_im", True):
        if set(record["members"]) == pair:
            return record["id"]
    dm_id = ctx.ids.slack("D")
    conversations.add(
        dm_id,
        channels.im(dm_id, ctx.settings["slack"]["team_id"], user_id, target, seconds(ctx.start) - 30 * DAY),
    )
    return dm_id


# Who posts where, by the `user` and `channel` a message gives, found valid for an earlier message of the same
# section: a big world names the same few pairs a hundred thousand times.
Posters = dict[tuple[str, str], tuple[Record, str]]


def _poster(ctx: BuildContext, message: Any, i: int) -> tuple[Record, str]:
    """A message's author and conversation, once the author may post there."""
    user_id = resolve_user(ctx, message.user, "messages", i, "user")
    channel_id = _conversation_of(ctx, message, user_id, i)
    channel = ctx.collection(CHANNELS).one(channel_id)
    if not could_post(ctx, channel, user_id):
        raise ctx.error(
            f"{message.user} is not a member (nor a former member) of the channel {message.channel}",
            "messages",
            i,
            "user",
        )
    return ctx.collection(USERS).one(user_id), channel_id


def build_message(ctx: BuildContext, ts: str, message: Any, i: int, team_id: str, posters: Posters) -> None:
    """Adds a message of the section; `posters` remembers the pairs of author and conversation found valid."""
    pair = (message.user, message.channel)
    found = posters.get(pair)
    if found is None:
        found = posters[pair] = _poster(ctx, message, i)
    author, channel_id = found
    if ts in ctx.collection(MESSAGES):
        raise ctx.error(f"another message has the ts {ts}", "messages", i, "ts")
    by_name: dict[str, list[str]] = {}
    for name, reactors in message.reactions.items():
        if not EMOJI.fullmatch(name):
            raise ctx.error(f"invalid emoji name {name!r} (lower case, without colons)", "messages", i, "reactions")
        by_name[name] = [resolve_user(ctx, u, "messages", i, "reactions", name, j) for j, u in enumerate(reactors)]
    record = messages.record(ts, channel_id, author, message.text, team_id, ctx.ids)
    if by_name:
        record["reactions"] = reactions.field(by_name)
    if message.pinned:
        record["pinned_to"] = [channel_id]
        ctx.collection(PINS).add(
            pins.pin_id(channel_id, ts), pins.record(channel_id, ts, seconds(ts_us(ts)), author["id"])
        )
    ctx.collection(MESSAGES).add(ts, record)


def link_message(ctx: BuildContext, ts: str, message: Any, i: int) -> None:
    """Makes a message a reply of the thread its `thread_ts` names."""
    if message.thread_ts is None:
        return
    collection = ctx.collection(MESSAGES)
    parent_ts = ctx.resolve_kind(message.thread_ts, MESSAGES, "messages", i, "thread_ts")
    parent = collection.get(parent_ts)
    record = collection.one(ts)
    if parent is None:
        raise ctx.error(f"{message.thread_ts} is not a Slack message", "messages", i, "thread_ts")
    if parent["channel"] != record["channel"]:
        raise ctx.error("a reply must be in the same channel as its thread's first message", "messages", i, "thread_ts")
    if parent.get("parent_user_id") or parent_ts == ts:
        raise ctx.error("thread_ts must name a thread's first message, not a reply", "messages", i, "thread_ts")
    if ts_us(parent_ts) >= ts_us(ts):
        raise ctx.error("a reply must be posted after its thread's first message", "messages", i, "thread_ts")
    collection.change(ts, thread_ts=parent_ts, parent_user_id=parent["user"])


def finish_messages(ctx: BuildContext) -> None:
    """Sorts the messages by `ts` (insertion order is time order) and sums up every thread."""
    collection = ctx.collection(MESSAGES)
    # Compared pair by pair: a list of every message's time would be held at the build's peak of memory.
    if any(later < earlier for earlier, later in pairwise(ts_us(m["ts"]) for m in collection)):
        records = sorted(collection, key=lambda m: ts_us(m["ts"]))
        collection = ctx.collections[MESSAGES] = Collection(MESSAGES, {record["ts"]: record for record in records})
    # Already in order (messages given in file order, as most are), the collection is kept: a new one would hold
    # a second map of every message meanwhile.
    replies: dict[str, list[Record]] = {}
    for record in collection:
        if record.get("parent_user_id"):
            replies.setdefault(record["thread_ts"], []).append(record)
    for parent_ts, thread in replies.items():
        summary = messages.thread_summary(parent_ts, thread)
        parent = collection.one(parent_ts)
        if any(parent.get(name, _ABSENT) != value for name, value in summary.items()):  # else summed up already
            collection.change(parent_ts, **summary)


_ABSENT = object()  # a field a record lacks, unlike any value
