"""A live world read in place, as an `Attempt`, to decide whether a state predicate holds now."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..events import WriteEvent
from ..grading.attempt import Attempt, Record, write_evidence
from ..world import World, diff_snapshots


class WorldView(Attempt):
    """A live world read in place, to decide whether a state predicate holds now: for the people's `state`
    conditions and for watching state milestones after every change. Building one copies nothing, and it
    remembers which collections a check read (`reads`; `reads_all` when it read the whole state, the whole
    diff or the log), so a watcher evaluates a predicate again only when one of those changed.

    It decides, it does not explain: evidence lookups answer nothing (they would scan the whole log), and
    checks skip naming the closest miss (`explains`).
    """

    explains = False

    def __init__(self, world: World) -> None:
        super().__init__(
            (), refs=world.refs, task=world.task, scene=world.scene, secrets=world.secrets(), identities=world.agent
        )
        self.world = world
        self.events = world.log.events  # the log itself, not a copy
        self.output = world.output
        self.reads: set[str] = set()
        self.reads_all = False

    def records(self, collection: str) -> Sequence[Record]:
        self.reads.add(collection)
        found = self.world.collections.get(collection)
        return list(found) if found is not None else ()

    def index(self, collection: str, field: str) -> Mapping[Any, list[Record]]:
        self.reads.add(collection)
        return _FieldIndex(self.world, collection, field)

    @property
    def state(self) -> Mapping[str, Sequence[Record]]:
        self.reads_all = True
        state: Mapping[str, Sequence[Record]] = self.world.state()
        return state

    @state.setter
    def state(self, value: Any) -> None:  # Attempt.__init__ sets it; a view reads the world instead
        pass

    @property
    def diff(self) -> dict[str, Any]:
        return _LiveDiff(self)  # type: ignore[return-value]

    @property
    def agent_writes(self) -> dict[str, dict[str, list[WriteEvent]]]:
        self.reads_all = True
        index: dict[str, dict[str, list[WriteEvent]]] = {}
        for event in self.events:
            if isinstance(event, WriteEvent) and event.by is not None:
                index.setdefault(event.collection, {}).setdefault(event.id, []).append(event)
        return index

    @property
    def writes_by_record(self) -> dict[str, dict[str, list[WriteEvent]]]:
        return {}  # only evidence reads it

    def record_evidence(self, collection: str, record: Record) -> list[int]:
        return []

    def writes_evidence(self, records: Iterable[Sequence[WriteEvent]]) -> list[int]:
        return write_evidence(w for writes in records for w in writes)  # the log is not indexed: all are read


class _FieldIndex(Mapping[Any, list[Record]]):
    """`Attempt.index` on a live world: one value's records through the collection's own index."""

    def __init__(self, world: World, collection: str, field: str) -> None:
        self.found = world.collections.get(collection)
        self.field = field

    def __getitem__(self, value: Any) -> list[Record]:
        records = self.found.by(self.field, value) if self.found is not None else []
        if not records:
            raise KeyError(value)
        return records

    def _all(self) -> dict[Any, list[Record]]:
        index: dict[Any, list[Record]] = {}
        for record in self.found or ():
            value = record.get(self.field)
            if isinstance(value, (str, int, float, bool)):
                index.setdefault(value, []).append(record)
        return index

    def __iter__(self) -> Iterator[Any]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


class _LiveDiff(Mapping[str, Any]):
    """A live world's diff, one collection at a time: reading a collection's entry compares only its records."""

    def __init__(self, view: WorldView) -> None:
        self.view = view

    def __getitem__(self, name: str) -> Any:
        self.view.reads.add(name)
        world = self.view.world
        found = world.collections.get(name)
        now = {name: found._records} if found is not None else {}
        return diff_snapshots({name: world.initial.get(name, {})}, now)[name]  # KeyError: no change

    def __iter__(self) -> Iterator[str]:
        self.view.reads_all = True
        return iter(self.view.world.diff())

    def __len__(self) -> int:
        self.view.reads_all = True
        return len(self.view.world.diff())
