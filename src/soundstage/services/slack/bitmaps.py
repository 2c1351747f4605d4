"""The lists of `words.Postings` as bits of Python ints, for searches of several words and
for phrases: each message has a rank, its place in `ts` order, and a group's bits are its messages' ranks, so
the messages holding two words are one `&` however many hold each, and how many they are is `bit_count`.

A group's bits are made from its list the first time a search reads it. The bits of a group many messages hold
(one rank in `DENSE` or more, so that they cost at most sixteen times the list's pointers) are kept: those of a
world image's lists in a table every world copied from it shares, those of groups a world wrote in its own,
kept in step with its writes. A rare group's bits cost what reading its list costs, and are made again each
time.

Ranks are handed out in `ts` order when the index is built, and later to each new message in turn; a message
whose `ts` comes before the last ranked one leaves the ranks out of `ts` order (`ordered` False), and searches
then read the messages instead.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Self

from ...world import Record
from .words import Postings

DENSE = 1024


class Bitmaps:
    """Ranks of the messages and the bits of the groups of `Postings` searches have read."""

    __slots__ = ("_own", "_ranked", "_shared", "_written", "ordered", "ranks", "stamps")

    def __init__(self, ranks: dict[str, int], stamps: list[str], shared: dict[Hashable, int]) -> None:
        self.ranks = ranks  # ts -> rank
        self.stamps = stamps  # rank -> ts
        self.ordered = True
        self._ranked = False  # whether `ranks` and `stamps` are this index's alone, to add to
        self._shared = shared  # the bits of groups as built, for every copy that has not written them
        self._own: dict[Hashable, int] = {}  # the bits of groups this index wrote
        self._written: set[Hashable] = set()

    @classmethod
    def build(cls, records: Mapping[str, Record]) -> Self:
        stamps = sorted(records)
        index = cls({ts: rank for rank, ts in enumerate(stamps)}, stamps, {})
        index._ranked = True
        return index

    def copy(self) -> Self:
        self._ranked = False  # the copy shares the ranks: neither may add to them in place from now on
        return type(self)(self.ranks, self.stamps, self._shared)

    def update(self, record_id: str, old: Record | None, new: Record | None) -> None:
        if new is not None and record_id not in self.ranks:
            self._rank(record_id)
        before = set(Postings.entries(record_id, old)) if old is not None else set()
        after = set(Postings.entries(record_id, new)) if new is not None else set()
        for group, ts in before ^ after:
            bits = self._own.get(group)
            if bits is None and group not in self._written:
                bits = self._shared.get(group)
            self._written.add(group)
            if bits is not None:
                self._own[group] = bits ^ (1 << self.ranks[ts])

    def bits(self, group: Hashable, entries: list[str]) -> int:
        """The bits of `group` of `Postings`, whose ts list is `entries`."""
        bits = self._own.get(group)
        if bits is None and group not in self._written:
            bits = self._shared.get(group)
        if bits is not None:
            return bits
        ranks = self.ranks
        field = bytearray((ranks[entries[-1]] >> 3) + 1)  # the list is in ts order, so its last rank is the top
        for ts in entries:
            rank = ranks[ts]
            field[rank >> 3] |= 1 << (rank & 7)
        bits = int.from_bytes(field, "little")
        if len(entries) * DENSE >= len(field) * 8:
            (self._own if group in self._written else self._shared)[group] = bits
        return bits

    def _rank(self, ts: str) -> None:
        if not self._ranked:
            self.ranks, self.stamps, self._ranked = dict(self.ranks), list(self.stamps), True
        if self.stamps and ts < self.stamps[-1]:
            self.ordered = False
        self.ranks[ts] = len(self.stamps)
        self.stamps.append(ts)
