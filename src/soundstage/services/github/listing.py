"""Issues and pull requests of each repository in the order listings and searches sort them: the indexes
that let a listing or a search read one page without sorting the repository's items.

`ByCreation` and `ByUpdate` are indexes of `github.issues` and of `github.pulls` (`Collection.derived`):
per repository and state (`open`, `closed`, and `all`), the items' `(created_at, number, key)` or
`(updated_at, number, key)`, ascending. Issues and pulls share one number sequence per repo, so these
orders have no ties, and one listing of both reads the two lists merged. A search breaks ties by id
rather than number (an issue's id and a pull's id come from different sequences), so `FoundByCreation`
and `FoundByUpdate` hold `(created_at, id, key)` and `(updated_at, id, key)` the same way.
"""

from __future__ import annotations

import heapq
from collections.abc import Container, Hashable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, overload

from ...indexes import GroupIndex
from ...world import Record
from .records import Records
from .store import ISSUES, PULLS


def _entries(record_id: str, record: Record, field: str, tie: str = "number") -> Iterable[tuple[Hashable, Any]]:
    entry = (record[field], record[tie], record_id)
    return (((record["repository"], record["state"]), entry), ((record["repository"], "all"), entry))


class ByCreation(GroupIndex):
    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        return _entries(record_id, record, "created_at")


class ByUpdate(GroupIndex):
    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        return _entries(record_id, record, "updated_at")


class FoundByCreation(GroupIndex):
    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        return _entries(record_id, record, "created_at", "id")


class FoundByUpdate(GroupIndex):
    __slots__ = ()

    @staticmethod
    def entries(record_id: str, record: Record) -> Iterable[tuple[Hashable, Any]]:
        return _entries(record_id, record, "updated_at", "id")


_ORDERS: dict[str, type[GroupIndex]] = {"created": ByCreation, "updated": ByUpdate}
_FOUND_ORDERS: dict[str, type[GroupIndex]] = {"created": FoundByCreation, "updated": FoundByUpdate}


def sorted_items(
    records: Records, kinds: tuple[str, ...], repo: str, state: str, sort: str, descending: bool
) -> Sequence[Record] | None:
    """The issues and/or pulls (`kinds`) of `repo` in `state`, sorted by `sort` then number, as a sequence
    that reads only the slices asked of it; None for a sort no index keeps (`comments`)."""
    order = _ORDERS.get(sort)
    if order is None:
        return None
    return _Merged(records, [(kind, records[kind].derived(order).get((repo, state))) for kind in kinds], descending)


def found_items(
    records: Records,
    kinds: tuple[str, ...],
    repos: list[str],
    state: str,
    sort: str,
    descending: bool,
    among: Container[str] | None = None,
) -> Sequence[Record]:
    """The issues and/or pulls (`kinds`) of `repos` (a repo named twice: its items twice) in `state`, those
    keyed `among` only when given, in a search's order: by `sort` (`created` or `updated`; creation order for
    any other) then id."""
    order = _FOUND_ORDERS.get(sort, FoundByCreation)
    lists = [(kind, records[kind].derived(order).get((repo, state))) for repo in repos for kind in kinds]
    if among is not None:
        lists = [(kind, [entry for entry in entries if entry[2] in among]) for kind, entries in lists]
    return _Merged(records, lists, descending)


class _Merged(Sequence[Record]):
    """Sorted lists of entries (each of one collection) read as one sorted sequence of records; a slice costs
    its end, not the whole."""

    def __init__(self, records: Records, lists: list[tuple[str, list[Any]]], descending: bool) -> None:
        self.records = records
        self.lists = [entries for _, entries in lists if entries]
        self.descending = descending
        # With one list, its collection holds every record: a slice is read by position, no merge.
        kinds = [kind for kind, entries in lists if entries]
        self._one = records[kinds[0]] if len(kinds) == 1 else None

    def __len__(self) -> int:
        return sum(len(entries) for entries in self.lists)

    def __iter__(self) -> Iterator[Record]:
        return (self._record(entry) for entry in self._entries())

    def _entries(self) -> Iterator[Any]:
        if self.descending:
            return heapq.merge(*(reversed(entries) for entries in self.lists), reverse=True)
        return heapq.merge(*self.lists)

    def _record(self, entry: Any) -> Record:
        key = entry[2]
        if self._one is not None:
            found = self._one.get(key)
        else:
            found = self.records[ISSUES].get(key) or self.records[PULLS].get(key)
        assert found is not None
        return found

    @overload
    def __getitem__(self, at: int) -> Record: ...

    @overload
    def __getitem__(self, at: slice) -> list[Record]: ...

    def __getitem__(self, at: int | slice) -> Record | list[Record]:
        if isinstance(at, slice):
            start, stop, step = at.indices(len(self))
            if self._one is not None:
                entries, last = self.lists[0], len(self.lists[0]) - 1
                chosen = [entries[last - i] for i in range(start, stop, step)] if self.descending else entries[at]
                return [self._record(entry) for entry in chosen]
            return [self._record(e) for e in islice(self._entries(), start, stop, step)]
        if not 0 <= at < len(self):
            raise IndexError(at)
        return self._record(next(islice(self._entries(), at, None)))
