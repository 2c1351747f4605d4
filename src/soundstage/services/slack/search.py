"""Slack's message search query language, the part agents use.

Words must all appear (at the start of a word, case-insensitive; `-word` excludes), `"quoted phrases"`
appear as written, and modifiers narrow the messages: `in:#channel` / `in:<#C…>` / `in:@user` (the DM),
`from:@user` / `from:<@U…>` / `from:me`, `before:`, `after:`, `on:` a `YYYY-MM-DD` date and `during:` a
`YYYY-MM` month or `YYYY` year in the searcher's time zone, `has:link`, `has:reaction`, `has:pin`,
`is:thread`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache

from ...clock import US
from ...world import Record, World
from . import channels, mrkdwn, store
from .timestamps import ts_us

_TOKEN = re.compile(r'(-?)(?:(\w+):("[^"]*"|\S+)|"([^"]*)"|(\S+))')
_MENTION = re.compile(r"^<[#@]([A-Z0-9]+)(?:\|[^>]*)?>$")
_WORD = re.compile(r"\w+")
_MODIFIERS = {"in", "from", "before", "after", "on", "during", "has", "is"}


@dataclass
class Query:
    include: list[str] = field(default_factory=list)  # words and phrases, lower case
    exclude: list[str] = field(default_factory=list)
    filters: list[Callable[[Record], bool]] = field(default_factory=list)
    channels: list[str | None] = field(default_factory=list)  # what each `in:` names (None: nothing there)
    other_modifiers: bool = False  # any modifier but `in:` (`-in:` too)

    def word(self) -> str | None:
        """The query's one word when it is all there is besides `in:` (a word or a quoted run of word
        characters): how often a message holds it is all a match and its score depend on."""
        if len(self.include) != 1 or self.exclude or self.other_modifiers:
            return None
        term = self.include[0]
        return term if _WORD.fullmatch(term) else None

    def matches(self, record: Record) -> int:
        """How often the wanted words occur (the score); 0 when the message does not match."""
        if not all(f(record) for f in self.filters):
            return 0
        text = mrkdwn.unescape(record["text"]).lower()
        if any(_find(text, word) for word in self.exclude):
            return 0
        score = 1
        for word in self.include:
            found = len(_find(text, word))
            if not found:
                return 0
            score += found
        return score


def occurrences(message: Record, term: str) -> int:
    """How often `term` (lower case) occurs in the message's text as search reads it."""
    return len(_find(mrkdwn.unescape(message["text"]).lower(), term))


def _find(text: str, word: str) -> list[str]:
    return _at_word_start(word).findall(text)


@lru_cache(maxsize=256)
def _at_word_start(word: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(word))


def parse(world: World, viewer: Record, text: str) -> Query:
    query = Query()
    offset = viewer.get("tz_offset", 0) * US
    for negate, name, value, phrase, word in _TOKEN.findall(text):
        if name and name.lower() in _MODIFIERS:
            if name.lower() == "in" and not negate:
                query.channels.append(_channel(world, viewer, value.strip('"')))
            else:
                query.other_modifiers = True
            check = _modifier(world, viewer, name.lower(), value.strip('"'), offset)
            if check is not None:
                query.filters.append(_negated(check) if negate else check)
            continue
        term = (phrase or word or f"{name}:{value}").lower()
        if term:
            (query.exclude if negate else query.include).append(term)
    return query


def _negated(check: Callable[[Record], bool]) -> Callable[[Record], bool]:
    return lambda record: not check(record)


def _modifier(world: World, viewer: Record, name: str, value: str, offset: int) -> Callable[[Record], bool] | None:
    if name == "in":
        channel_id = _channel(world, viewer, value)
        return lambda r: r["channel"] == channel_id
    if name == "from":
        user_id = viewer["id"] if value == "me" else _user(world, value)
        return lambda r: r["user"] == user_id
    if name == "has":
        checks = {
            "link": lambda r: "http://" in r["text"] or "https://" in r["text"],
            "reaction": lambda r: bool(r.get("reactions")),
            "pin": lambda r: bool(r.get("pinned_to")),
        }
        return checks.get(value.lower())
    if name == "is":
        return (lambda r: bool(r.get("thread_ts"))) if value.lower() == "thread" else None
    span = _days(value, name)
    if span is None:
        return None
    start, end = ((d - date(1970, 1, 1)).days * 86400 * US - offset for d in span)
    if name == "before":
        return lambda r: ts_us(r["ts"]) < start
    if name == "after":
        return lambda r: ts_us(r["ts"]) >= end
    return lambda r: start <= ts_us(r["ts"]) < end


def _days(value: str, name: str) -> tuple[date, date] | None:
    """The first day of the period and the day after it."""
    try:
        if name == "during" and re.fullmatch(r"\d{4}", value):
            year = int(value)
            return date(year, 1, 1), date(year + 1, 1, 1)
        if name == "during" and re.fullmatch(r"\d{4}-\d{2}", value):
            first = datetime.strptime(value, "%Y-%m").date()
            return first, (first + timedelta(days=32)).replace(day=1)
        day = datetime.strptime(value, "%Y-%m-%d").replace(tzinfo=UTC).date()
    except ValueError:
        return None
    return day, day + timedelta(days=1)


def _channel(world: World, viewer: Record, value: str) -> str | None:
    mention = _MENTION.match(value)
    if mention:
        return mention.group(1)
    if value.startswith("@"):
        other = _user(world, value)
        dm = channels.dm_between(world, viewer["id"], other) if other else None
        return dm["id"] if dm else None
    if value in world[store.CHANNELS]:
        return value
    record = channels.channel_named(world, value.lstrip("#"))
    return record["id"] if record else None


def _user(world: World, value: str) -> str | None:
    mention = _MENTION.match(value)
    if mention:
        return mention.group(1)
    if value in world[store.USERS]:
        return value
    for record in world[store.USERS].by("name", value.lstrip("@")):
        return record["id"]
    return None
