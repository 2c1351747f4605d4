"""The live world: collections of records, simulated time, due events and one event log.

Records are plain dicts with the vendor's own field names and are never changed in place: a change
stores a new dict. So copying a world (or taking a snapshot) copies only the id-to-record maps, and a
diff compares records by identity before it compares fields.

Nothing a world holds leads back to it (its collections report writes to its `_Journal`, its periodic actions
are objects rather than closures that hold themselves): a dropped world is freed by reference counting alone,
and no garbage collection has to walk the other worlds' objects to find it (collector.py).

`World.fork` makes a new world in the same state, as cheaply as a copy of an image: collections are copied
the same way, and the engine's own state (world parts, watchers, due actions) is deep-copied, but for what
never changes once built (a scene's resolved people, faults and predicates, the people's rules), which forks
share (`shared_by_forks`); the parts copied most copy themselves (`__deepcopy__`), only what a fork may change.
"""

from __future__ import annotations

import copy
import heapq
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, Self, TypeVar

from . import collector
from .clock import Clock, format_duration, iso
from .events import CallEvent, ClockEvent, EventLog, FinishEvent, Shaped, StartEvent, WriteEvent
from .ids import IdSource

Record = Mapping[str, Any]
# The bytes of call bodies a world keeps to be saved (`World.note`): past them, it cannot be saved.
INPUTS_LIMIT = 64 * 2**20
Snapshot = dict[str, dict[str, Record]]
P = TypeVar("P")
T = TypeVar("T")


class Derived(Protocol):
    """An index of a collection's records kept in step with its writes (`indexes.GroupIndex`)."""

    @classmethod
    def build(cls, records: Mapping[str, Record]) -> Self: ...

    def copy(self) -> Self: ...

    def update(self, record_id: str, old: Record | None, new: Record | None) -> None: ...


D = TypeVar("D", bound=Derived)


def _build(kind: type[D], records: Mapping[str, Record]) -> D:
    # An index holds a reference to each record, in lists made by the hundred thousand and in no cycle: a
    # collection meanwhile would walk them and every record again to find nothing (a third of the first Slack
    # search at 100,000 messages).
    with collector.held():
        return kind.build(records)


class _Origin:
    """The records a collection was copied from and the derived indexes built on them, shared by every copy.
    `records` becomes None if the collection copied is written after all: then copies build their own."""

    __slots__ = ("indexes", "records")

    def __init__(self, records: dict[str, Record]) -> None:
        self.records: dict[str, Record] | None = records
        self.indexes: dict[type, Derived] = {}


class Collection:
    """Records of one kind (`slack.messages`), by id, in insertion order, with lazy field indexes and derived
    indexes (`derived`)."""

    __slots__ = ("_derived", "_indexes", "_journal", "_origin", "_records", "_shared", "_written", "name")

    def __init__(self, name: str, records: dict[str, Record] | None = None, origin: _Origin | None = None) -> None:
        self.name = name
        self._records: dict[str, Record] = records if records is not None else {}
        self._indexes: dict[str, dict[Any, dict[str, None]]] = {}
        self._journal: _Journal | None = None
        # Made on first use, so that the many collections a world never reads this way cost nothing.
        self._derived: dict[type, Derived] | None = None
        self._origin = origin
        self._written: set[str] | None = None  # ids written since the copy (kept only for a copy)
        self._shared: _Origin | None = None  # what copies of this collection share while it is not written

    def __len__(self) -> int:
        return len(self._records)

    def __contains__(self, record_id: object) -> bool:
        return record_id in self._records

    def __iter__(self) -> Iterator[Record]:
        return iter(self._records.values())

    def ids(self) -> list[str]:
        return list(self._records)

    def get(self, record_id: str) -> Record | None:
        return self._records.get(record_id)

    def one(self, record_id: str) -> Record:
        """The record that must be there (one just written, or one a resolved ref names); KeyError if not."""
        return self._records[record_id]

    def by(self, field_name: str, value: Any) -> list[Record]:
        """Records whose `field_name` equals `value`, in insertion order, through an index built on first use."""
        index = self._indexes.get(field_name)
        if index is None:
            index = {}
            for record_id, record in self._records.items():
                key = record.get(field_name)
                if _hashable(key):
                    index.setdefault(key, {})[record_id] = None
            self._indexes[field_name] = index
        return [self._records[i] for i in index.get(value, ())]

    def derived(self, kind: type[D]) -> D:
        """The index `kind` of these records, kept in step with every write from now on. A copy of a world
        image builds it on the image's records, once for all copies, then follows its own writes."""
        if self._derived is None:
            self._derived = {}
        index = self._derived.get(kind)
        if index is None:
            origin = self._origin
            base_records = origin.records if origin is not None else None
            if origin is not None and base_records is not None:
                base = origin.indexes.get(kind)
                if base is None:
                    base = origin.indexes[kind] = _build(kind, base_records)
                index = base.copy()
                # In id order, as an index may hand out something in order (`slack.bitmaps`: ranks by ts).
                for record_id in sorted(self._written or ()):
                    index.update(record_id, base_records.get(record_id), self._records.get(record_id))
            else:
                index = _build(kind, self._records)
            self._derived[kind] = index
        return index  # type: ignore[return-value]

    def add(self, record_id: str, record: Record) -> Record:
        if record_id in self._records:
            raise KeyError(f"{self.name}: {record_id} exists")
        record = dict(record)
        self._records[record_id] = record
        self._index_add(record_id, record)
        self._wrote(record_id, None, record)
        if self._journal:
            self._journal(self.name, "added", record_id, None, record)
        return record

    def change(self, record_id: str, **fields: Any) -> Record:
        """Stores a new version of the record with `fields` replaced; answers the new version."""
        old = self._records[record_id]
        new = {**old, **fields}
        self._records[record_id] = new
        for name in fields:
            index = self._indexes.get(name)
            if index is not None:
                before, after = old.get(name), new.get(name)
                if before != after:
                    if _hashable(before):
                        index.get(before, {}).pop(record_id, None)
                    if _hashable(after):
                        index.setdefault(after, {})[record_id] = None
        self._wrote(record_id, old, new)
        if self._journal:
            self._journal(self.name, "changed", record_id, old, new)
        return new

    def remove(self, record_id: str) -> Record:
        old = self._records.pop(record_id)
        for name, index in self._indexes.items():
            key = old.get(name)
            if _hashable(key):
                index.get(key, {}).pop(record_id, None)
        self._wrote(record_id, old, None)
        if self._journal:
            self._journal(self.name, "removed", record_id, old, None)
        return old

    def _index_add(self, record_id: str, record: Record) -> None:
        for name, index in self._indexes.items():
            key = record.get(name)
            if _hashable(key):
                index.setdefault(key, {})[record_id] = None

    def _wrote(self, record_id: str, old: Record | None, new: Record | None) -> None:
        if self._origin is not None:
            if self._written is None:
                self._written = set()
            self._written.add(record_id)
        if self._shared is not None:  # copies made until now can no longer build on these records
            self._shared.records = None
            self._shared = None
        if self._derived:
            for index in self._derived.values():
                index.update(record_id, old, new)

    def _restore(self, record_id: str, record: Record | None) -> None:
        """Undo support: puts back an earlier version without journaling (field indexes are rebuilt lazily)."""
        current = self._records.get(record_id)
        if record is None:
            self._records.pop(record_id, None)
        else:
            self._records[record_id] = record
        self._indexes.clear()
        self._wrote(record_id, current, record)

    def copy(self) -> Collection:
        if self._shared is None:
            self._shared = _Origin(self._records)
        return Collection(self.name, dict(self._records), self._shared)

    def fork(self) -> Collection:
        """A copy of this live collection for a forked world: it keeps the image's records as its origin (so a
        derived index it builds later starts from the image's) and copies the derived indexes built so far,
        each sharing its lists until written, as a copy of an image does."""
        forked = Collection(self.name, dict(self._records), self._origin)
        forked._written = set(self._written) if self._written is not None else None
        if self._derived:
            forked._derived = {kind: index.copy() for kind, index in self._derived.items()}
        return forked


def shared_by_forks(cls: type[T]) -> type[T]:
    """Marks a class whose objects never change once made (a scene's resolved parts, a frozen value holding
    records): a forked world shares them where its deep copy of the engine's state meets them."""
    cls.__deepcopy__ = _itself  # type: ignore[attr-defined]
    return cls


def _itself(self: T, memo: dict[int, Any]) -> T:
    return self


def found_again_by_forks(cls: type[T]) -> type[T]:
    """Marks a world part that only remembers what it found of its own world (its collections' objects, what an
    evaluation last saw): a forked world starts with a new one, made by `cls()`, and finds its own."""
    cls.__deepcopy__ = _new_of_kind  # type: ignore[attr-defined]
    return cls


def _new_of_kind(self: T, memo: dict[int, Any]) -> T:
    return type(self)()


def _hashable(value: Any) -> bool:
    return value is not None and isinstance(value, (str, int, float, bool, tuple))


@dataclass
class Principal:
    """Who a token speaks for: a service's account (its name, or the `account` services share), its user id
    there, and the token type (`bot`, `user`...)."""

    service: str
    user: str
    token_type: str = "bot"


class _Journal:
    """Where a world's collections report their writes: logged as they happen, or, while a call runs, kept to be
    undone if it fails and logged after the call's own event. It holds the world's log and clock, not the world."""

    __slots__ = ("clock", "log", "pending", "undo")

    def __init__(self, log: EventLog, clock: Clock) -> None:
        self.log = log
        self.clock = clock
        self.undo: list[tuple[str, str, Record | None]] | None = None  # None: no call is running
        self.pending: list[tuple[str, str, str, list[str]]] = []

    def __call__(self, name: str, op: str, record_id: str, old: Record | None, new: Record | None) -> None:
        fields = _changed_fields(old, new) if op == "changed" else []
        if self.undo is not None:
            self.undo.append((name, record_id, old))
            self.pending.append((name, op, record_id, fields))
            return
        self.log.emit_built(WriteEvent, t=iso(self.clock.now()), collection=name, op=op, id=record_id, fields=fields)


@dataclass(frozen=True)
class _Every:
    """A periodic action (`World.every`): an object that schedules itself again, where a closure doing so would
    hold itself, a cycle only a garbage collection frees."""

    period: int
    action: Callable[[World, int], int]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Every:
        return _Every(self.period, copy.deepcopy(self.action, memo))  # a fork's copy: the period is a number

    def __call__(self, world: World) -> None:
        quiet = self.action(world, world._running_to)
        now = world.clock.now()
        bound = min(quiet, world._due[0].at if world._due else quiet, world._running_to + 1)
        world.schedule(now + max(1, -(-(bound - now) // self.period)) * self.period, self)


@dataclass(order=True)
class _Due:
    at: int
    order: int
    action: Callable[[World], None] = field(compare=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Due:
        # A fork's copy: the time and order are numbers, only the action may hold what the fork changes.
        return _Due(self.at, self.order, copy.deepcopy(self.action, memo))


class World:
    """One live world. Built by `WorldImage.instantiate`; every agent call goes through `call`."""

    def __init__(
        self,
        world_id: str,
        scene: str,
        collections: dict[str, Collection],
        clock: Clock,
        ids: IdSource,
        initial: Snapshot,
        refs: dict[str, str] | None = None,
        settings: dict[str, Any] | None = None,
        task: str = "",
        world_name: str | None = None,
        agent: dict[str, Any] | None = None,
        log: EventLog | None = None,
    ) -> None:
        self.id = world_id
        self.scene = scene
        self.task = task
        self.collections = collections
        self.clock = clock
        self.ids = ids
        self.initial = initial
        self.refs = refs or {}
        self.settings = settings or {}  # what the image's services say other parts need (the Slack team...)
        self.agent = agent or {}  # who the agent is in each service (`slack_user`: its user id), `pass_env`
        self.tokens: dict[str, Principal] = {}
        self.log = log if log is not None else EventLog()
        self.output: str | None = None
        self.finished = False
        # What the image says to score this world by (set by `WorldImage.instantiate`).
        self.checks: list[Any] = []
        self.pass_ids: list[str] | None = None
        self.scene_record: dict[str, Any] = {}
        self._parts: dict[type, Any] = {}
        self.image: Any = None  # the WorldImage it was made from (set by `WorldImage.instantiate`)
        # What made this world since its image, in order, for a snapshot to replay (`note`); None once it cannot be
        # (`unsaveable` says why). Entries are never changed once noted, so a fork's copy shares them.
        self.inputs: list[tuple[Any, ...]] | None = []
        self.inputs_size = 0
        self.unsaveable: str | None = None
        self.handed: dict[str, Principal] = {}  # every token a hub handed out for this world or its forks' parents
        # Held for a whole call, and by anything else that appends to the log from another thread
        # (the runner finishing an attempt), so `seq` stays gapless and unique.
        self.lock = threading.RLock()
        self._due: list[_Due] = []
        self._due_order = 0
        self._running_to = clock.now()  # the time `run_due` runs to (see `every`)
        self._journal = _Journal(self.log, clock)
        self._watchers: list[Callable[[World], None]] = []
        for collection in collections.values():
            collection._journal = self._journal
        if log is None:  # a fork continues its parent's log
            self.log.emit(StartEvent, t=iso(clock.now()), scene=scene, world=world_name, task=task)

    def fork(self, world_id: str) -> World:
        """A new live world in this one's state: its records, clock, ids, log (the fork's continues from this
        one's last seq, this one's events its history), its people's memory and pending replies, its faults'
        progress, its due actions and rate-limit windows. Nothing is shared that either may change, and the
        fork holds nothing of this world, so each is freed alone. Its tokens are this world's but for those a
        hub handed out, which the hub replaces (`Hub.fork`). Raises ValueError on a finished world: the
        attempt is over, its log ends with it."""
        with self.lock:  # between calls, never half-way through one
            if self.finished:
                raise ValueError(f"world {self.id} has finished: fork a world before it finishes")
            collections = {name: c.fork() for name, c in self.collections.items()}
            clock = self.clock.copy()
            world = World(
                world_id,
                self.scene,
                collections,
                clock,
                self.ids.copy(),
                self.initial,  # never changed in place: the state the branch started from
                refs=self.refs,
                settings=self.settings,
                task=self.task,
                agent=dict(self.agent),
                log=EventLog(self.log.events),  # events are frozen: the list is copied, not them
            )
            world.tokens = dict(self.tokens)
            world.image, world.handed = self.image, dict(self.handed)
            world.inputs = list(self.inputs) if self.inputs is not None else None
            world.inputs_size, world.unsaveable = self.inputs_size, self.unsaveable
            world.checks, world.pass_ids, world.scene_record = self.checks, self.pass_ids, self.scene_record
            world._due_order, world._running_to = self._due_order, self._running_to
            # Whatever the engine's state holds of this world's parts stands for the fork's in the copy.
            memo: dict[int, Any] = {id(self): world, id(self.log): world.log, id(self.clock): clock}
            memo[id(self.ids)] = world.ids
            memo[id(self._journal)] = world._journal
            for name, collection in self.collections.items():
                memo[id(collection)] = collections[name]
            world._parts, world._due, world._watchers = copy.deepcopy((self._parts, self._due, self._watchers), memo)
            return world

    # -- collections ---------------------------------------------------------------------------------

    def __getitem__(self, name: str) -> Collection:
        collection = self.collections.get(name)
        if collection is None:
            collection = self.collections[name] = Collection(name)
            collection._journal = self._journal
        return collection

    def secrets(self) -> set[str]:
        """This world's tokens and every one a hub handed out for it or its forks' parents: what no judge model
        reads. A parent's token the agent wrote into a record before a fork is in the fork's records too."""
        return self.tokens.keys() | self.handed.keys()

    def part(self, kind: type[P]) -> P:
        """The state of one kind that a part of the engine keeps in this world and that is not world data (the
        people's memory, rate-limit windows): made by `kind()` on first use, owned by the module that
        defines `kind`."""
        found = self._parts.get(kind)
        if found is None:
            found = self._parts[kind] = kind()
        return found  # type: ignore[no-any-return]

    def state(self) -> dict[str, list[Record]]:
        return {name: list(c) for name, c in sorted(self.collections.items())}

    def snapshot(self) -> Snapshot:
        return {name: dict(c._records) for name, c in self.collections.items()}

    def diff(self) -> dict[str, Any]:
        return diff_snapshots(self.initial, self.snapshot())

    # -- inputs, for snapshots (server/snapshot.py) ---------------------------------------------------------

    def note(self, entry: tuple[Any, ...], size: int = 0) -> None:
        """Keeps one input that changes the world (a call, a clock move, the finish), `size` bytes of body."""
        if self.inputs is None:
            return
        self.inputs_size += size
        if self.inputs_size > INPUTS_LIMIT:
            self.cannot_save(f"its calls' bodies passed {INPUTS_LIMIT // 2**20} MiB, more than a world keeps to save")
            return
        self.inputs.append(entry)

    def cannot_save(self, reason: str) -> None:
        """This world can no longer be saved exactly: its inputs are let go, `reason` is what a save answers."""
        if self.unsaveable is None:
            self.unsaveable = reason
        self.inputs = None

    # -- time and due events -------------------------------------------------------------------------

    def now(self) -> int:
        return self.clock.now()

    def schedule(self, at: int, action: Callable[[World], None]) -> None:
        """Runs `action(world)` once simulated time reaches `at` (before the next request is answered)."""
        self._due_order += 1
        heapq.heappush(self._due, _Due(at, self._due_order, action))

    def every(self, first: int, period: int, action: Callable[[World, int], int]) -> None:
        """Runs `action(world, until)` at `first` and then `period` after each run, as an action that schedules
        itself again would, but leaves out the runs that `action` says change nothing. `until` is the time due
        events are being run to; `action` answers the time before which running it again changes nothing
        unless something else happens first. The next run is then the first of its times at or after the
        earliest of that time, the next other due event and the end of this run of due events (after which
        calls may write): so a 7-day clock move costs the runs that can change something, and every run keeps
        the place among other due events of the same time that the action scheduling itself gives it."""
        self.schedule(first, _Every(period, action))

    def run_due(self) -> None:
        """Runs every due action in time order, each at its own time."""
        now = self.clock.now()
        if not self._due or self._due[0].at > now:  # most calls: nothing falls due
            for watcher in self._watchers:
                watcher(self)
            return
        outer, self._running_to = self._running_to, now
        try:
            while self._due and self._due[0].at <= now:
                due = heapq.heappop(self._due)
                saved = self.clock._now
                self.clock._now = max(due.at, self.clock.start)
                try:
                    due.action(self)
                finally:
                    self.clock._now = max(saved, self.clock._now)
        finally:
            self._running_to = outer
        self.notify()

    def advance(self, us: int) -> None:
        """Moves simulated time on by hand; what falls due meanwhile happens, each at its own time."""
        with self.lock:
            self.note(("advance", us))
            self.log.emit(ClockEvent, t=iso(self.clock.now()), advanced=format_duration(us))
            self.clock.advance(us)
            self.run_due()

    def finish(self, output: str | None, reason: str = "finished") -> bool:
        """Ends the attempt once; answers False if it had already ended."""
        with self.lock:
            return self._finish(output, reason)

    def _finish(self, output: str | None, reason: str) -> bool:
        if self.finished:
            return False
        self.note(("finish", output, reason))
        self.run_due()
        self.output = output
        self.finished = True
        self.log.emit(FinishEvent, t=iso(self.clock.now()), output=output or "", reason=reason)
        return True

    def watch(self, watcher: Callable[[World], None]) -> None:
        """Calls `watcher(world)` after every change (state milestones and faults use this)."""
        self._watchers.append(watcher)

    def notify(self) -> None:
        for watcher in self._watchers:
            watcher(self)

    # -- writes --------------------------------------------------------------------------------------

    def begin_call(self) -> int:
        """Starts an agent call: runs due events, opens the undo journal, answers the call's time."""
        self.run_due()
        journal = self._journal
        journal.undo, journal.pending = [], []
        return self.clock.now()

    def rollback(self) -> None:
        """Undoes every write of the call in progress (a handler failed half-way)."""
        for name, record_id, old in reversed(self._journal.undo or []):
            self.collections[name]._restore(record_id, old)
        self._journal.undo = []
        self._journal.pending = []

    def end_call(self, at: int, shaped: Shaped[CallEvent] | None = None, **call: Any) -> CallEvent:
        """Records the call, then the writes it made, then moves the clock on by one tick. `shaped`: the call's
        event made from fields of the names it was made for (with `t`), as the recording layer's every call is."""
        journal = self._journal
        pending, journal.undo, journal.pending = journal.pending, None, []  # the journal closes, whatever follows
        self.clock.tick()
        t = call["t"] = iso(at)
        log = self.log
        event = log.emit_shaped(shaped, call) if shaped is not None else log.emit_fields(CallEvent, call)
        if pending:
            by = event.seq
            for name, op, record_id, fields in pending:
                log.emit_shaped(
                    _WRITE_BY, {"t": t, "collection": name, "op": op, "id": record_id, "fields": fields, "by": by}
                )
            self.notify()
        return event


# A write event as a call's writes are logged, after its own event.
_WRITE_BY = Shaped(WriteEvent, ("t", "collection", "op", "id", "fields", "by"))


def _changed_fields(old: Record | None, new: Record | None) -> list[str]:
    if old is None or new is None:
        return []
    keys = list(old) + [k for k in new if k not in old]
    return [k for k in keys if old.get(k) != new.get(k)]


def diff_snapshots(before: Snapshot, after: Snapshot) -> dict[str, Any]:
    """What changed, per collection: `added` and `removed` records, `changed` with field-level from/to."""
    result: dict[str, Any] = {}
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name, {}), after.get(name, {})
        added = [dict(r) for i, r in new.items() if i not in old]
        removed = [dict(r) for i, r in old.items() if i not in new]
        changed = []
        for record_id, record in new.items():
            previous = old.get(record_id)
            if previous is None or previous is record:
                continue
            fields = _changed_fields(previous, record)
            if fields:
                changed.append(
                    {
                        "id": record_id,
                        "record": dict(record),
                        "changes": {f: {"from": previous.get(f), "to": record.get(f)} for f in fields},
                    }
                )
        if added or removed or changed:
            result[name] = {"added": added, "removed": removed, "changed": changed}
    return result
