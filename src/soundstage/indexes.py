"""Sorted group indexes: what makes a read in a big world cost O(log n + page) rather than a scan.

A `GroupIndex` of a collection holds, for each group (a channel, a word, a repository and state), the
entries of the records in it, kept sorted. A subclass says which groups a record is in and what its entry
there is (`entries`), and how entries sort (`order`). `Collection.derived` builds one on first use and
keeps it in step with every write, undo included.

Copies share their lists: a world image's index is built once, and each live world copied from it copies a
group's list only when a write first changes that group, so copying a world stays cheap.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from bisect import bisect_left, insort
from collections.abc import Hashable, Iterable, Mapping
from typing import Any, Self, TypeVar

Record = Mapping[str, Any]
G = TypeVar("G", bound="GroupIndex")


class GroupIndex(ABC):
    __slots__ = ("_own", "lists")

    def __init__(self, lists: dict[Hashable, list[Any]] | None = None) -> None:
        self.lists: dict[Hashable, list[Any]] = lists if lists is not None else {}
        self._own: set[Hashable] = set()  # groups whose list is this index's alone, to change in place

    @staticmethod
    @abstractmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        """(group, entry) for each group the record is in."""

    @staticmethod
    def order(entry: Any) -> Any:
        """What entries sort by (the entry itself unless said otherwise)."""
        return entry

    @classmethod
    def build(cls, records: Mapping[str, Record]) -> Self:
        index = cls()
        lists = index.lists
        for record_id, record in records.items():
            for group, entry in cls.entries(record_id, record):
                lists.setdefault(group, []).append(entry)
        for entries in lists.values():
            entries.sort(key=cls.order)
        index._own = set(lists)
        return index

    def copy(self) -> Self:
        """An index of the same records sharing every list until one of them is written."""
        self._own = set()  # from now on this index must not change a shared list in place either
        return type(self)(dict(self.lists))

    def get(self, group: Hashable) -> list[Any]:
        """The group's entries, sorted (read only)."""
        return self.lists.get(group, [])

    def update(self, record_id: str, old: Record | None, new: Record | None) -> None:
        """Follows one write: `old` is the record before it (None when added), `new` after (None when removed)."""
        before = set(self.entries(record_id, old)) if old is not None else set()
        after = set(self.entries(record_id, new)) if new is not None else set()
        for group, entry in before - after:
            self._remove(group, entry)
        for group, entry in after - before:
            self._insert(group, entry)

    def _writable(self, group: Hashable) -> list[Any]:
        entries = self.lists.get(group)
        if group not in self._own:
            entries = self.lists[group] = list(entries or ())
            self._own.add(group)
        assert entries is not None
        return entries

    def _insert(self, group: Hashable, entry: Any) -> None:
        insort(self._writable(group), entry, key=self.order)

    def _remove(self, group: Hashable, entry: Any) -> None:
        entries = self._writable(group)
        at = bisect_left(entries, self.order(entry), key=self.order)
        while entries[at] != entry:  # entries that sort equal: find this one
            at += 1
        del entries[at]
        if not entries:
            del self.lists[group]
            self._own.discard(group)
