"""Generating realistic noise messages, `generate: {slack.messages: {channel, count, users, span, threads,
reactions}}`: seeded, by the channel's members, spread over `span` before the clock start, with threads and
reactions.

A big world is mostly these (100,000 messages from one line), so each message is made once, as the build keeps
it: its text from Faker's values without the cost of Faker's calls (spec/fake.py), a thread's first message
stored once its thread is complete, with the thread summed up in it, and the parts it shares with an earlier
message (its text and the rich_text section made of it, its reactions) that message's own objects.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ...clock import US, parse_duration
from ...spec.build import BuildContext
from ...world import Collection, Record
from . import messages, reactions, seed_messages
from .models import GenerateMessages
from .seed_directory import resolve_channel, resolve_user
from .store import CHANNELS, MESSAGES, USERS
from .timestamps import spell_ts

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
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
# A reply goes to one of the last few threads' first messages: a thread is complete once that many newer ones
# have started.
_OPEN_THREADS = 10


def generate(collection: str, options: Any, ctx: BuildContext) -> None:
    """`generate: {slack.messages: {...}}`: the messages, then every thread summed up and the messages in order."""
    if collection != "messages":
        raise ctx.error(f"slack.{collection} cannot be generated; only slack.messages can")
    opts = ctx.parsed(GenerateMessages, options)
    channel_id = resolve_channel(ctx, opts.channel, "channel")
    channel = ctx.collection(CHANNELS).one(channel_id)
    users = ctx.collection(USERS)
    if opts.users is None:
        authors = [u for u in channel["members"] if not users.one(u)["is_bot"]]
    else:
        authors = [resolve_user(ctx, u, "users", j) for j, u in enumerate(opts.users)]
    if not authors:
        raise ctx.error(f"{opts.channel} has no members (other than bots) to post the messages", "channel")
    _Noise(ctx, opts, channel_id, authors).post()
    seed_messages.finish_messages(ctx)


def _noise(ctx: BuildContext) -> str:
    fake = ctx.fake
    template = ctx.random.choice(_TEMPLATES)
    # Days and times from the seed alone: Faker's own are drawn up to the machine's clock.
    return template.format(
        bs=fake.bs(),
        catch_phrase=fake.catch_phrase().lower(),
        company=fake.company(),
        word=fake.word(),
        sentence=fake.sentence(),
        first=fake.first_name(),
        day=ctx.random.choice(_DAYS),
        time=f"{ctx.random.randrange(9, 18):02d}:{ctx.random.choice((0, 15, 30, 45)):02d}",
    )


class _Noise:
    """The messages of one `generate:`, made in time order and stored as each thread completes. Records are never
    changed in place (a live world shares every part of them with its image), so equal parts may be one object:
    more than half of a big world's generated texts are an earlier one's again, and most reactions."""

    def __init__(self, ctx: BuildContext, opts: GenerateMessages, channel_id: str, authors: list[str]) -> None:
        self.ctx, self.opts, self.channel_id, self.authors = ctx, opts, channel_id, authors
        self.users = ctx.collection(USERS)
        self.written = ctx.collection(MESSAGES)
        self.team_id: str = ctx.settings["slack"]["team_id"]
        self.stamps = _Stamps(ctx, self.written)
        self.made: deque[dict[str, Any]] = deque()  # made, not yet stored: from the oldest open thread's first on
        self.threads: deque[dict[str, Any]] = deque()  # the first messages of the open threads, oldest first
        self.replies: dict[str, list[Record]] = {}  # the replies of the open threads, by their first message's ts
        self.texts: dict[str, tuple[str, list[Any]]] = {}  # each text made: it, and its rich_text block's elements
        self.reactions: dict[tuple[str, tuple[str, ...]], list[dict[str, Any]]] = {}

    def post(self) -> None:
        ctx = self.ctx
        span = parse_duration(self.opts.span) // US
        # Drawn at once, in the seed's order, and taken from the end: each offset is let go once used.
        offsets = sorted(ctx.random.randint(60, max(span, 60)) for _ in range(self.opts.count))
        while offsets:
            self._message(ctx.start // US - offsets.pop())
        while self.threads:
            self._close()

    def _message(self, second: int) -> None:
        ctx, random = self.ctx, self.ctx.random
        author = self.users.one(random.choice(self.authors))
        ts = self.stamps.next(second)
        parent = random.choice(self.threads) if self.threads and random.random() < self.opts.threads else None
        text = _noise(ctx)
        known = self.texts.get(text)
        record = messages.record(
            ts,
            self.channel_id,
            author,
            text if known is None else known[0],
            self.team_id,
            ctx.ids,
            thread_ts=parent["ts"] if parent else None,
            parent_user=parent["user"] if parent else None,
        )
        block = record["blocks"][0]  # the rich_text block of a person's text
        if known is None:
            self.texts[text] = (text, block["elements"])
        else:
            block["elements"] = known[1]
        if random.random() < self.opts.reactions:
            reactors = random.sample(self.authors, k=min(len(self.authors), random.randint(1, 3)))
            emoji = random.choice(_EMOJI)
            shared = self.reactions.get((emoji, tuple(reactors)))
            if shared is None:
                shared = self.reactions[emoji, tuple(reactors)] = reactions.field({emoji: reactors})
            record["reactions"] = shared
        self.made.append(record)
        if parent is not None:
            self.replies.setdefault(parent["ts"], []).append(record)
            return
        self.threads.append(record)
        if len(self.threads) > _OPEN_THREADS:
            self._close()

    def _close(self) -> None:
        """Closes the oldest open thread: sums it up in its first message, and stores the messages made before
        the next open thread's first."""
        first = self.threads.popleft()
        thread = self.replies.pop(first["ts"], None)
        if thread:
            first.update(messages.thread_summary(first["ts"], thread))
        following = self.threads[0] if self.threads else None
        while self.made and self.made[0] is not following:
            record = self.made.popleft()
            self.written.add(record["ts"], record)


class _Stamps:
    """The `ts` of generated messages, made in time order, as `seed_messages.seed_ts` would make them: a second's
    count goes on from the counter of the file's messages and past the messages generated in that second before
    (by this `generate:` or an earlier one). They keep no counter of their own: kept, the counters of 100,000
    seconds were a tenth of a big world's build at its peak."""

    __slots__ = ("_count", "_counters", "_second", "_written")

    def __init__(self, ctx: BuildContext, written: Collection) -> None:
        self._counters: dict[int, int] = ctx.scratch.get(seed_messages.EARLIER_TS, {})
        self._written = written
        self._second: int | None = None  # the second of the last `ts` made
        self._count = 0  # and its count

    def next(self, second: int) -> str:
        count = (self._count if second == self._second else self._counters.get(second, 0)) + 1
        while (ts := spell_ts(second, count)) in self._written:
            count += 1
        self._second, self._count = second, count
        return ts
