"""The lists of `words.Postings` as bits of Python ints, for searches of several words and
for phrases: each message has a rank, its place in `ts` order, and a group's bits are its messages' ranks, so
the messages holding two words are one `&` however many hold each, and how many they are is `bit_count`.

A group's bits are made from its list the first time a search reads it. The bits of a group many messages hold
(one rank in `DENSE` or more, so that they cost at most sixteen times the list's pointers) are kept: those of a
world image's lists in a table every world copied from it shares, those of groups a world wrote in its own,
kept in step with its writes. A rare group's bits cost what reading its list costs: a search reads its list,
and makes the bits of all the rare groups it reads at once.

Ranks are handed out in `ts` order when the index is built, and later to each new message in turn; a message
whose `ts` comes before the last ranked one leaves the ranks out of `ts` order (`ordered` False), and searches
then read the messages instead.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping
from typing import Self

from ...world import Record
from .words import Postings

DENSE = 1024
_SET = re.compile(b"[^\x00]")
_BYTE_RANKS = [[bit for bit in range(8) if byte >> bit & 1] for byte in range(256)]


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

    def kept(self, group: Hashable, entries: list[str]) -> int | None:
        """The bits of `group` of `Postings`, whose ts list is `entries`, when many messages hold it (a rank in
        DENSE or more, up to its top): made the first time and kept. None for a rare group, whose bits cost what
        reading its list costs."""
        bits = self._own.get(group)
        if bits is None and group not in self._written:
            bits = self._shared.get(group)
        if bits is not None:
            return bits
        ranks = self.ranks
        top = ranks[entries[-1]]  # the list is in ts order
        if len(entries) * DENSE <= top:
            return None
        bits = of_ranks([ranks[ts] for ts in entries], top)
        (self._own if group in self._written else self._shared)[group] = bits
        return bits

    def _rank(self, ts: str) -> None:
        if not self._ranked:
            self.ranks, self.stamps, self._ranked = dict(self.ranks), list(self.stamps), True
        if self.stamps and ts < self.stamps[-1]:
            self.ordered = False
        self.ranks[ts] = len(self.stamps)
        self.stamps.append(ts)


def of_ranks(ranks: Iterable[int], top: int) -> int:
    """The bits of `ranks`, none above `top`: set in a byte field, one int made at the end (setting them one by
    one in an int would copy it each time)."""
    field = bytearray((top >> 3) + 1)
    for rank in ranks:
        field[rank >> 3] |= 1 << (rank & 7)
    return int.from_bytes(field, "little")


def ranks_of(bits: int) -> list[int]:
    """The ranks set in `bits`, lowest first: only the bytes holding some are visited in Python."""
    data = bits.to_bytes((bits.bit_length() + 7) >> 3, "little")
    return [at.start() << 3 | bit for at in _SET.finditer(data) for bit in _BYTE_RANKS[data[at.start()]]]
