"""The indexes of search.messages: searchable messages by each word of their text, and by conversation, so a
search reads only the messages that hold its words (in the conversations it names) rather than every
message of the world.

A word is a run of word characters of the text as search reads it (entities unescaped, lower case). A
search term matches where it starts a word, so each run of word characters in the term (each word of a
phrase) starts a word of a message it matches: the messages with such words for every run are the
candidates, and the query itself then decides on each, so results are exactly those of reading every
message.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Mapping
from itertools import islice, pairwise
from typing import Any, Self, cast

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

    __slots__ = ("_own_vocabulary", "vocabulary")

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
        return (self.lists[word] for word in self.words_starting(start))

    def words_starting(self, start: str) -> Iterator[str]:
        vocabulary = self.vocabulary
        at = bisect_left(vocabulary, start)
        while at < len(vocabulary) and vocabulary[at].startswith(start):
            yield vocabulary[at]
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
    `channels`; None when neither a term with a word character nor a channel narrows it."""
    # Each run of word characters in a term starts a word where the term matches (a phrase's words too).
    starts = list(dict.fromkeys(run for term in terms for run in _WORD.findall(term)))
    named = set(channels)
    if starts and len(named) == 1 and None not in named:  # one conversation: read only its part of each list
        return _in_conversation(world, starts, str(next(iter(named))))
    found: set[str] | None = None
    for channel in channels:
        inside = set(world[MESSAGES].derived(Searchable).get(channel)) if channel is not None else set()
        found = inside if found is None else found & inside
    index = world[MESSAGES].derived(Words)
    for start in starts:
        if found == set():
            break
        holding: set[str] = set()
        for ordered in index.starting(start):
            holding.update(ordered)
        found = holding if found is None else found & holding
    return found


def _in_conversation(world: World, starts: list[str], conversation: str) -> set[str]:
    """The ts of the messages of one conversation holding a word starting with each of `starts`."""
    vocabulary = world[MESSAGES].derived(Words)
    postings = world[MESSAGES].derived(Postings)
    found: set[str] | None = None
    for start in starts:
        holding: set[str] = set()
        for word in vocabulary.words_starting(start):
            for lists in postings.levels(word, (conversation,)).values():
                for entries in lists:
                    holding.update(entries)
        found = holding if found is None else found & holding
        if not found:
            break
    return found or set()


class Postings(GroupIndex):
    """Searchable message ts by word, conversation and how many of the message's words are that word (its
    score for a search of that word, less one): a one-word search reads its page straight from the lists,
    in the order of its answer, and its total from their lengths."""

    __slots__ = ("most",)

    def __init__(self, lists: dict[Hashable, list[Any]] | None = None, most: dict[Hashable, int] | None = None) -> None:
        super().__init__(lists)
        self.most: dict[Hashable, int] = most if most is not None else {}  # per word, no message has it more often

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        if not searchable(record):
            return ()
        channel = record["channel"]
        times = Counter(_WORD.findall(mrkdwn.unescape(record["text"]).lower()))
        return (((word, channel, n), record_id) for word, n in times.items())

    @classmethod
    def build(cls, records: Mapping[str, Record]) -> Self:
        index = super().build(records)
        for group in index.lists:
            word, _, n = cast("tuple[Hashable, str, int]", group)
            index.most[word] = max(n, index.most.get(word, 0))
        return index

    def copy(self) -> Self:
        self._own = set()
        return type(self)(dict(self.lists), dict(self.most))

    def _insert(self, group: Hashable, entry: Any) -> None:
        word, _, n = cast("tuple[Hashable, str, int]", group)
        if n > self.most.get(word, 0):
            self.most[word] = n
        super()._insert(group, entry)

    def levels(self, word: Hashable, conversations: Iterable[str]) -> dict[int, list[list[str]]]:
        """The ts lists of `word` in `conversations`, by how often their messages hold it (oldest first)."""
        found: dict[int, list[list[str]]] = {}
        for group, entries in self.groups(word, conversations):
            found.setdefault(group[2], []).append(entries)
        return found

    def groups(self, word: Hashable, conversations: Iterable[str]) -> Iterator[tuple[tuple[Any, str, int], list[str]]]:
        """Each group of `word` in `conversations` with messages, and its ts list."""
        most = self.most.get(word, 0)
        for conversation in conversations:
            for n in range(1, most + 1):
                group = (word, conversation, n)
                entries = self.lists.get(group)
                if entries:
                    yield group, entries


class Pairs(Postings):
    """Searchable message ts by pair of adjacent words (the first word, the characters between them, the
    second word), conversation and how many times the message holds that pair: a phrase of two words is
    found where they are such a pair, as `Postings` find a word."""

    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        if not searchable(record):
            return ()
        channel = record["channel"]
        text = mrkdwn.unescape(record["text"]).lower()
        pairs = Counter((a.group(), text[a.end() : b.start()], b.group()) for a, b in pairwise(_WORD.finditer(text)))
        return (((pair, channel, n), record_id) for pair, n in pairs.items())


def one_word(
    world: World, term: str, conversations: Iterable[str], by_time: bool, ascending: bool, skip: int, count: int
) -> tuple[int, list[tuple[int, str]]] | None:
    """A search of one term made of word characters, in `conversations` only, read from `Postings`: the
    total, and the (score, ts) of `count` matches after the first `skip`, in the answer's order (score,
    then ts; or ts). None when the term starts more than one word (their scores add up in a message)."""
    known = list(islice(world[MESSAGES].derived(Words).words_starting(term), 2))
    if len(known) > 1:
        return None
    if not known:
        return 0, []
    levels = world[MESSAGES].derived(Postings).levels(known[0], conversations)
    total = sum(len(entries) for lists in levels.values() for entries in lists)
    if by_time:
        order = [[(n, entries) for n, lists in levels.items() for entries in lists]]
    else:  # the score, then ts, both ascending or both descending
        order = [[(n, entries) for entries in levels[n]] for n in sorted(levels, reverse=not ascending)]
    page: list[tuple[int, str]] = []
    for runs in order:
        size = sum(len(entries) for _, entries in runs)
        if skip >= size:
            skip -= size
            continue
        merged = heapq.merge(*(_scored(n, entries, ascending) for n, entries in runs), reverse=not ascending)
        page += ((score, ts) for ts, score in islice(merged, skip, skip + count - len(page)))
        skip = 0
        if len(page) == count:
            break
    return total, page


def _scored(n: int, entries: list[str], ascending: bool) -> Iterator[tuple[str, int]]:
    """(ts, score) of a list of `Postings`, oldest first or newest first."""
    return ((ts, n + 1) for ts in (entries if ascending else reversed(entries)))
