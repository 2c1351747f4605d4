"""The indexes of search.messages: searchable messages by each word of their text and each pair of adjacent
words (`Postings`), and by conversation (`Searchable`), so a search reads only the messages that hold its words
(in the conversations it names) rather than every message of the world.

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
from collections.abc import Collection, Hashable, Iterable, Iterator, Mapping
from itertools import islice
from typing import Any, Self, cast

from ...indexes import GroupIndex
from ...world import Record, World
from . import mrkdwn
from .store import MESSAGES

SEARCHABLE = (None, "thread_broadcast")  # the subtypes search finds: messages people wrote, not joins
_WORD = re.compile(r"\w+")
_SPLIT = re.compile(r"(\w+)")


def searchable(message: Record) -> bool:
    return message.get("subtype") in SEARCHABLE


class Searchable(GroupIndex):
    """Searchable message ts by conversation: what a search `in:` one reads."""

    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        return ((record["channel"], record_id),) if searchable(record) else ()


def candidates(world: World, terms: list[str], channels: list[str | None], visible: Collection[str]) -> set[str] | None:
    """The ts of the messages that may hold every one of `terms` (lower case) and be in every one of
    `channels` (in those of `visible` when no channel is named); None when neither a term with a word
    character nor a channel narrows it."""
    # Each run of word characters in a term starts a word where the term matches (a phrase's words too).
    starts = list(dict.fromkeys(run for term in terms for run in _WORD.findall(term)))
    if len(set(channels)) > 1 or None in channels:  # a message is in one conversation, which must exist
        return set()
    named = [channel for channel in channels[:1] if channel is not None]
    if not starts:
        return set(world[MESSAGES].derived(Searchable).get(named[0])) if named else None
    conversations = named or visible
    index = world[MESSAGES].derived(Postings)
    found: set[str] = set()
    for at, start in enumerate(starts):
        holding: set[str] = set()
        for word in index.words_starting(start):
            for _, entries in index.groups(word, conversations):
                holding.update(entries)
        found = holding if at == 0 else found & holding
        if not found:
            break
    return found


class Postings(GroupIndex):
    """Searchable message ts by word, and by pair of adjacent words (the first word, the characters between
    them, the second word), then by conversation and by how many times the message holds that word or pair
    (its score for a search of it, less one): group (word or pair, conversation, count). A one-word search
    reads its page straight from the lists, in the order of its answer, and its total from their lengths; a
    phrase of two words is found where they are such a pair. `vocabulary` holds the words in order, for
    finding those with a given start.

    Words and pairs are one index so that a message's text is split into words once, for both."""

    __slots__ = ("_own_vocabulary", "_spread", "most", "vocabulary")

    def __init__(
        self,
        lists: dict[Hashable, list[Any]] | None = None,
        most: dict[Hashable, int] | None = None,
        vocabulary: list[str] | None = None,
        spread: dict[str, int] | None = None,
    ) -> None:
        super().__init__(lists)
        self.most: dict[Hashable, int] = most if most is not None else {}  # per key, no message holds it more often
        self.vocabulary: list[str] = vocabulary if vocabulary is not None else []
        self._own_vocabulary = vocabulary is None
        self._spread: dict[str, int] = spread if spread is not None else {}  # each word's groups: it goes with its last

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        if not searchable(record):
            return ()
        channel = record["channel"]
        found = Counter(_keys(record["text"]))
        return (((key, channel, n), record_id) for key, n in found.items())

    @classmethod
    def build(cls, records: Mapping[str, Record]) -> Self:
        # Each key's lists per conversation, by count less one: a group's tuple is made once, not per message.
        by_conversation: dict[str, dict[Hashable, list[list[str]]]] = {}
        for record_id in sorted(records):  # in ts order, so that every list comes out sorted
            record = records[record_id]
            if record.get("subtype") not in SEARCHABLE:
                continue
            conversation = by_conversation.get(record["channel"])
            if conversation is None:
                conversation = by_conversation[record["channel"]] = {}
            for key, n in Counter(_keys(record["text"])).items():
                levels = conversation.get(key)
                if levels is None:
                    levels = conversation[key] = []
                while len(levels) < n:
                    levels.append([])
                levels[n - 1].append(record_id)
        index = cls()
        lists, most, spread = index.lists, index.most, index._spread
        for channel, conversation in by_conversation.items():
            for key, levels in conversation.items():
                for n, entries in enumerate(levels, 1):
                    if entries:
                        lists[(key, channel, n)] = entries
                        if isinstance(key, str):
                            spread[key] = spread.get(key, 0) + 1
                most[key] = max(len(levels), most.get(key, 0))
        index.vocabulary = sorted(spread)
        index._own = set(lists)
        return index

    def copy(self) -> Self:
        self._own = set()
        self._own_vocabulary = False
        return type(self)(dict(self.lists), dict(self.most), self.vocabulary, dict(self._spread))

    def words_starting(self, start: str) -> Iterator[str]:
        vocabulary = self.vocabulary
        at = bisect_left(vocabulary, start)
        while at < len(vocabulary) and vocabulary[at].startswith(start):
            yield vocabulary[at]
            at += 1

    def levels(self, word: Hashable, conversations: Iterable[str]) -> dict[int, list[list[str]]]:
        """The ts lists of `word` in `conversations`, by how often their messages hold it (oldest first)."""
        found: dict[int, list[list[str]]] = {}
        for group, entries in self.groups(word, conversations):
            found.setdefault(group[2], []).append(entries)
        return found

    def groups(self, key: Hashable, conversations: Iterable[str]) -> Iterator[tuple[tuple[Any, str, int], list[str]]]:
        """Each group of `key` (a word or a pair) in `conversations` with messages, and its ts list."""
        most = self.most.get(key, 0)
        for conversation in conversations:
            for n in range(1, most + 1):
                group = (key, conversation, n)
                entries = self.lists.get(group)
                if entries:
                    yield group, entries

    def _words(self) -> list[str]:
        if not self._own_vocabulary:
            self.vocabulary = list(self.vocabulary)
            self._own_vocabulary = True
        return self.vocabulary

    def _insert(self, group: Hashable, entry: Any) -> None:
        key, _, n = cast("tuple[Hashable, str, int]", group)
        if n > self.most.get(key, 0):
            self.most[key] = n
        if isinstance(key, str) and group not in self.lists:
            self._spread[key] = self._spread.get(key, 0) + 1
            if self._spread[key] == 1:
                insort(self._words(), key)
        super()._insert(group, entry)

    def _remove(self, group: Hashable, entry: Any) -> None:
        super()._remove(group, entry)
        key = cast("tuple[Hashable, str, int]", group)[0]
        if isinstance(key, str) and group not in self.lists:
            self._spread[key] -= 1
            if not self._spread[key]:
                del self._spread[key]
                words = self._words()
                del words[bisect_left(words, key)]


def _keys(text: str) -> list[Hashable]:
    """The words of a message's text as search reads it, and its pairs of adjacent words, each as often as
    it holds it."""
    parts = _SPLIT.split(mrkdwn.unescape(text).lower())  # before, a word, between, a word, ..., after
    words: list[Hashable] = parts[1::2]
    return words + list(zip(words, parts[2:-1:2], words[1:]))


def one_word(
    world: World, term: str, conversations: Iterable[str], by_time: bool, ascending: bool, skip: int, count: int
) -> tuple[int, list[tuple[int, str]]] | None:
    """A search of one term made of word characters, in `conversations` only, read from `Postings`: the
    total, and the (score, ts) of `count` matches after the first `skip`, in the answer's order (score,
    then ts; or ts). None when the term starts more than one word (their scores add up in a message)."""
    postings = world[MESSAGES].derived(Postings)
    known = list(islice(postings.words_starting(term), 2))
    if len(known) > 1:
        return None
    if not known:
        return 0, []
    levels = postings.levels(known[0], conversations)
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
