"""The indexes of search.messages: searchable messages by each word of their text, and by conversation, so a
search reads only the messages that hold its words (in the conversations it names) rather than every
message of the world.

A word is a run of word characters of the text as search reads it (entities unescaped, lower case). A
search term matches where it starts a word, so a message can match a term only if one of its words starts
with the term's leading word characters: those messages are the candidates, and the query itself then
decides on each, so results are exactly those of reading every message.
"""

from __future__ import annotations

import re
from bisect import bisect_left, insort
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from ...indexes import GroupIndex
from ...world import Record, World
from . import mrkdwn
from .store import MESSAGES

SEARCHABLE = (None, "thread_broadcast")  # the subtypes search finds: messages people wrote, not joins
_WORD = re.compile(r"\w+")


def searchable(message: Record) -> bool:
    return message.get("subtype") in SEARCHABLE


class Words(GroupIndex):
    """Message ts by word; `vocabulary` holds the words in order, for finding those with a given start."""

    __slots__ = ("vocabulary", "_own_vocabulary")

    def __init__(self, lists: dict[Hashable, list[Any]] | None = None, vocabulary: list[str] | None = None) -> None:
        super().__init__(lists)
        self.vocabulary: list[str] = vocabulary if vocabulary is not None else []
        self._own_vocabulary = False

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        if not searchable(record):
            return ()
        return ((word, record_id) for word in set(_WORD.findall(mrkdwn.unescape(record["text"]).lower())))

    @classmethod
    def build(cls, records: Mapping[str, Record]) -> Words:
        index = super().build(records)
        index.vocabulary = sorted(str(word) for word in index.lists)
        index._own_vocabulary = True
        return index

    def copy(self) -> Words:
        self._own = set()
        self._own_vocabulary = False
        return Words(dict(self.lists), self.vocabulary)

    def starting(self, start: str) -> Iterable[list[str]]:
        """The ts lists of every word that starts with `start`."""
        vocabulary = self.vocabulary
        at = bisect_left(vocabulary, start)
        while at < len(vocabulary) and vocabulary[at].startswith(start):
            yield self.lists[vocabulary[at]]
            at += 1

    def _words(self) -> list[str]:
        if not self._own_vocabulary:
            self.vocabulary = list(self.vocabulary)
            self._own_vocabulary = True
        return self.vocabulary

    def _insert(self, group: Hashable, entry: Any) -> None:
        if group not in self.lists:
            insort(self._words(), str(group))
        super()._insert(group, entry)

    def _remove(self, group: Hashable, entry: Any) -> None:
        super()._remove(group, entry)
        if group not in self.lists:
            words = self._words()
            del words[bisect_left(words, str(group))]


class Searchable(GroupIndex):
    """Searchable message ts by conversation: what a search `in:` one reads."""

    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        return ((record["channel"], record_id),) if searchable(record) else ()


def candidates(world: World, terms: list[str], channels: list[str | None]) -> set[str] | None:
    """The ts of the messages that may hold every one of `terms` (lower case) and be in every one of
    `channels`; None when neither a term that starts with a word character nor a channel narrows it."""
    found: set[str] | None = None
    for channel in channels:
        inside = set(world[MESSAGES].derived(Searchable).get(channel)) if channel is not None else set()
        found = inside if found is None else found & inside
    index = world[MESSAGES].derived(Words)
    for term in terms:
        start = _WORD.match(term)
        if start is None or found == set():
            continue
        holding: set[str] = set()
        for ordered in index.starting(start.group()):
            holding.update(ordered)
        found = holding if found is None else found & holding
    return found
