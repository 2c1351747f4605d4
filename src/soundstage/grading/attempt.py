"""Everything a check reads about one attempt, with the indexes checks need built once per attempt.

An attempt comes from a live world (`from_world`) or from a saved trial folder (`load`), so a finished
trial can be scored again. Indexes (calls by service, method and path, writes by collection and record,
records by field, record ids) are built on first use and kept, so no check rescans the log.
"""

from __future__ import annotations

import heapq
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..errors import NotFound, UsageError
from ..events import CallEvent, Event, EventLog, FinishEvent, WriteEvent
from ..world import World, diff_snapshots
from .outcome import EVIDENCE_LIMIT
from .patterns import CallPattern

Record = Mapping[str, Any]
T = TypeVar("T")
E = TypeVar("E", bound=Event)
_DIGITS = re.compile(r"\d+")
# Readers of a saved trial, built when first used: a run scores its live worlds and reads no trial folder.
_READING = ConfigDict(defer_build=True)
_STATE: TypeAdapter[dict[str, list[dict[str, Any]]]] = TypeAdapter(dict[str, list[dict[str, Any]]], config=_READING)
_DIFF: TypeAdapter[dict[str, dict[str, list[dict[str, Any]]]]] = TypeAdapter(
    dict[str, dict[str, list[dict[str, Any]]]], config=_READING
)


class Watching:
    """The keys of the state milestones a live world watches (a world part, see `World.part`; written by
    `checks.milestones`): what tells a state that never held from one nobody watched."""

    def __init__(self) -> None:
        self.keys: frozenset[str] = frozenset()

    def __deepcopy__(self, memo: dict[int, Any]) -> Watching:
        copied = Watching()
        copied.keys = self.keys  # a frozenset: a fork's additions make a new one
        return copied


class SceneFile(BaseModel):
    """`scene.json` of a trial folder: what is needed to score the trial again."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    name: str
    task: str = ""
    refs: dict[str, str] = {}
    agent: dict[str, Any] = {}  # the agent's identities: `slack_user`...
    checks: list[dict[str, Any]] = []
    pass_ids: list[str] | None = Field(None, alias="pass")


class Attempt:
    """The whole event log, the final state, the diff since the start, the output, refs and task.

    `identities` is who the agent is in each service, by the service's key in a scene's `agent:`
    (`{"slack_user": "U0001"}`: process checks read what was revealed *to the agent*). `watched` are
    the keys of the state milestones the engine watched as the world ran (None: unknown, taken as all; a
    saved trial's are those of its scene's checks, set by whoever parses them).
    """

    explains = True  # checks name the closest miss and its evidence; a live world's view only decides

    def __init__(
        self,
        events: Iterable[Event],
        state: Mapping[str, Sequence[Record]] | None = None,
        diff: dict[str, Any] | None = None,
        output: str | None = None,
        refs: dict[str, str] | None = None,
        task: str = "",
        *,
        scene: str = "",
        checks: list[dict[str, Any]] | None = None,
        pass_ids: list[str] | None = None,
        keys: dict[str, list[str]] | None = None,
        secrets: Iterable[str] = (),
        identities: Mapping[str, Any] | None = None,
        watched: Iterable[str] | None = None,
        notes: Iterable[str] = (),
    ) -> None:
        self.events = list(events)
        self.state = state or {}
        self._diff = diff
        self._load_diff: Callable[[], dict[str, Any]] | None = None  # a live world's diff, made when read
        self.output = output
        self.refs = dict(refs or {})
        self.task = task
        self.scene = scene
        self.checks = list(checks or [])  # the scene's checks as written, for re-scoring a saved trial
        self.pass_ids = pass_ids
        self.secrets = frozenset(secrets)  # tokens of the world, never shown to a judge model
        self.identities = dict(identities or {})
        self.watched = frozenset(watched) if watched is not None else None
        self.notes = list(notes)  # what reading a saved trial's files left out (a last line cut short)
        # Record ids parallel to `state`; without them (a saved trial) they are worked out from the log.
        self._keys = keys
        self._matching: dict[str, list[CallEvent]] = {}
        self._indexes: dict[tuple[str, str], dict[Any, list[Record]]] = {}
        self._keys_by_identity: dict[str, tuple[dict[int, str], Sequence[str], Sequence[Record]]] = {}
        self._keys_by_content: dict[str, dict[str, str]] = {}

    @classmethod
    def from_world(cls, world: World) -> Attempt:
        """The world as it is now. The state is copied (id maps only); the diff is worked out when a check
        first reads it."""
        snapshot = world.snapshot()
        names = sorted(snapshot)
        attempt = cls(
            list(world.log.events),
            state={name: list(snapshot[name].values()) for name in names},
            output=world.output,
            refs=world.refs,
            task=world.task,
            scene=world.scene,
            keys={name: list(snapshot[name]) for name in names},
            secrets=world.secrets(),
            identities=world.agent,
            watched=world.part(Watching).keys,
        )
        initial = world.initial
        attempt._load_diff = lambda: diff_snapshots(initial, snapshot)
        return attempt

    @classmethod
    def load(cls, trial_dir: Path) -> Attempt:
        """Reads a trial folder: `events.jsonl`, `state.json`, `diff.json`, `scene.json` and `output.txt`."""
        folder = Path(trial_dir)
        if not folder.is_dir():
            raise NotFound(f"no trial folder at {folder}")
        events_file = _required(folder / "events.jsonl")
        log = read_log(events_file)
        scene = _read_json(folder / "scene.json", TypeAdapter(SceneFile))
        output_file = folder / "output.txt"
        attempt = cls(
            log.events,
            state=_read_json(folder / "state.json", _STATE),
            diff=_read_json(folder / "diff.json", _DIFF),
            output=output_file.read_text(encoding="utf-8") if output_file.exists() else None,
            refs=scene.refs,
            task=scene.task,
            scene=scene.name,
            checks=scene.checks,
            pass_ids=scene.pass_ids,
            identities=scene.agent,
            notes=[log.cut_short] if log.cut_short else [],
        )
        return attempt

    @property
    def diff(self) -> dict[str, Any]:
        if self._diff is None:
            self._diff = self._load_diff() if self._load_diff is not None else {}
        return self._diff

    # -- the log ---------------------------------------------------------------------------------------

    @property
    def calls(self) -> list[CallEvent]:
        """The trace: the agent's own calls, oldest first."""
        return self._log.calls

    @property
    def writes(self) -> list[WriteEvent]:
        return self._log.writes

    @cached_property
    def _log(self) -> _LogIndex:
        return _LogIndex(self.events)

    @cached_property
    def by_kind(self) -> dict[str, list[Event]]:
        """Events by kind, oldest first: the people's events (`message`, `revealed`...) without a rescan."""
        index: dict[str, list[Event]] = {}
        for event in self.events:
            index.setdefault(event.kind, []).append(event)
        return index

    def of_kind(self, kind: str) -> list[Event]:
        return self.by_kind.get(kind, [])

    def of(self, model: type[E]) -> list[E]:
        """The events of one kind, as that kind's model (`attempt.of(RevealedEvent)`)."""
        return cast("list[E]", self.of_kind(model.model_fields["kind"].default))

    @cached_property
    def finish(self) -> FinishEvent | None:
        return next((e for e in reversed(self.events) if isinstance(e, FinishEvent)), None)

    @property
    def signatures(self) -> dict[tuple[str, str], dict[str, list[CallEvent]]]:
        """Calls by (service, METHOD), then by path: a pattern picks its service and method first, then finds
        a literal path by lookup, so it is tested once per distinct call, not once per call."""
        return self._log.signatures

    def calls_matching(self, pattern: CallPattern) -> list[CallEvent]:
        """The calls a pattern matches, oldest first (cached per pattern)."""
        found = self._matching.get(pattern.text)
        if found is None and pattern.tool is not None:
            found = self._matching[pattern.text] = [c for c in self.calls if pattern.names_tool(c.service, c.mcp)]
        elif found is None and pattern.service is None and pattern.method is None and pattern.path is None:
            found = self.calls
        elif found is None:
            groups = [
                calls
                for (service, method), by_path in self.signatures.items()
                if pattern.accepts(service, method)
                for calls in pattern.select(by_path)
            ]
            found = groups[0] if len(groups) == 1 else sorted((c for g in groups for c in g), key=_seq)
            self._matching[pattern.text] = found
        return found

    @property
    def failed_calls(self) -> list[CallEvent]:
        """Calls that got an error: HTTP status 400 or more, or Slack's `ok: false` (recorded as `error`)."""
        return self._log.failed

    @cached_property
    def call_shapes(self) -> dict[tuple[str, str], CallEvent]:
        """The first call of each distinct `METHOD path` per service, digit runs folded (`/issues/0`): what a
        pattern that matched nothing is compared with to name the closest call."""
        shapes: dict[tuple[str, str], CallEvent] = {}
        for (service, method), by_path in self.signatures.items():
            for path, calls in by_path.items():
                key = (service, f"{method} {_DIGITS.sub('0', path)}")
                first = shapes.get(key)
                if first is None or calls[0].seq < first.seq:
                    shapes[key] = calls[0]
        return shapes

    @cached_property
    def writes_by_collection(self) -> dict[str, list[WriteEvent]]:
        index: dict[str, list[WriteEvent]] = {}
        for write in self.writes:
            index.setdefault(write.collection, []).append(write)
        return index

    @property
    def writes_by_record(self) -> dict[str, dict[str, list[WriteEvent]]]:
        return self._log.every

    @property
    def agent_writes(self) -> dict[str, dict[str, list[WriteEvent]]]:
        """The writes the agent's calls caused (`by` set), by collection and record."""
        return self._log.agents

    # -- the final state -------------------------------------------------------------------------------

    def records(self, collection: str) -> Sequence[Record]:
        return self.state.get(collection, ())

    def index(self, collection: str, field: str) -> Mapping[Any, list[Record]]:
        """Records of a collection by the value of one field (hashable values only), built once."""
        key = (collection, field)
        index = self._indexes.get(key)
        if index is None:
            index = {}
            for record in self.records(collection):
                value = record.get(field)
                if isinstance(value, (str, int, float, bool)):
                    found = index.get(value)
                    if found is None:
                        index[value] = [record]
                    else:
                        found.append(record)
            self._indexes[key] = index
        return index

    def record_evidence(self, collection: str, record: Record) -> list[int]:
        """The seqs of the writes that produced a record (and of the calls behind them). A record of the final
        state is known by identity; an equal one (from the diff) by its content."""
        by_identity, keys, records = self._record_keys(collection)
        key = by_identity.get(id(record))
        if key is None:
            by_content = self._keys_by_content.get(collection)
            if by_content is None:
                by_content = self._keys_by_content[collection] = {content(r): k for k, r in zip(keys, records)}
            key = by_content.get(content(record))
        return self.writes_evidence([self.writes_by_record.get(collection, {}).get(key, [])]) if key else []

    def writes_evidence(self, records: Iterable[Sequence[WriteEvent]]) -> list[int]:
        """`write_evidence` of the writes of some records, each a list of `writes_by_record` or `agent_writes`:
        of a record a long log changed over and over only the earliest writes are read."""
        seqs: set[int] = set()
        for writes in records:
            seqs.update(self._log.earliest(writes))
        return heapq.nsmallest(EVIDENCE_LIMIT, seqs)

    def evidence(self, collection: str, records: Sequence[Record]) -> list[int]:
        """The seqs behind several records of a collection (the first `EVIDENCE_LIMIT` of them)."""
        return [seq for record in records[:EVIDENCE_LIMIT] for seq in self.record_evidence(collection, record)]

    def _record_keys(self, collection: str) -> tuple[dict[int, str], Sequence[str], Sequence[Record]]:
        """The ids of a collection's records where known: by `id()` of the state's records, and the ids with
        their records, in two sequences side by side."""
        known = self._keys_by_identity.get(collection)
        if known is None:
            records = self.records(collection)
            keys: Sequence[str]
            if self._keys is not None:
                keys = self._keys.get(collection, [])
            else:
                # A collection keeps insertion order and a change keeps a record's place, so the records
                # added during the attempt (and still there) are the last ones, in the order of their writes.
                live: dict[str, None] = {}
                for write in self.writes_by_collection.get(collection, []):
                    if write.op == "added":
                        live.pop(write.id, None)
                        live[write.id] = None
                    elif write.op == "removed":
                        live.pop(write.id, None)
                added = list(live)[-len(records) :] if records else []
                # Starter records the attempt changed are named, with their final content, by the diff.
                changed = self.diff.get(collection, {}).get("changed", [])
                keys = added + [c["id"] for c in changed]
                records = [*records[len(records) - len(added) :], *(c["record"] for c in changed)]
            ids = dict(zip(map(id, records), keys))  # as {id(r): k for ...}, without a Python loop
            known = self._keys_by_identity[collection] = (ids, keys, records)
        return known

    # -- words -----------------------------------------------------------------------------------------

    @cached_property
    def ref_names(self) -> dict[str, str]:
        names: dict[str, str] = {}
        for name, value in sorted(self.refs.items()):
            names.setdefault(value, name)
        return names

    def label(self, value: Any) -> str:
        """An id with the ref that names it, as the scene wrote it: `C0123 ($support)`."""
        name = self.ref_names.get(value) if isinstance(value, str) else None
        return f"{value} (${name})" if name else str(value)


class _LogIndex:
    """What checks look up in the log, made in one pass: an event is read from memory once for all of them.
    Over a long log reading the events is most of the cost (each lies apart from the others in memory), not
    the work done on each; every index keeps the log's order.

    `calls`, `writes`; `signatures`: calls by (service, METHOD), then by path; `failed`: the calls that got
    an error; `every` and `agents`: every write, and those the agent's calls caused, by collection and record.
    `ordered`: each write's seq is above the previous write's, and its `by` is the previous write's or lies
    between that write's seq and its own, as a world logs a call and then its writes (`earliest` relies on it).
    """

    def __init__(self, events: Iterable[Event]) -> None:
        self.calls: list[CallEvent] = []
        self.writes: list[WriteEvent] = []
        self.signatures: dict[tuple[str, str], dict[str, list[CallEvent]]] = {}
        self.failed: list[CallEvent] = []
        self.every: dict[str, dict[str, list[WriteEvent]]] = {}
        self.ordered = True
        self._mixed = False  # some write was not caused by an agent call
        sorts: dict[type, int] = {}  # an event's class: 1 a call, 2 a write, 0 neither (`isinstance`, once a class)
        methods: dict[tuple[str, str], dict[str, list[CallEvent]]] = {}  # (service, method as sent): its paths
        # A run of calls or writes mostly goes to the same service and method, or collection: those of the one
        # before are kept, and looked up only when they change.
        service_last: str | None = None
        method_last: str | None = None
        collection_last: str | None = None
        paths: dict[str, list[CallEvent]] = {}
        records: dict[str, list[WriteEvent]] = {}
        by_last: int | None = None
        seq_last = 0
        # All inline: over a long log a function call per event costs about as much as the indexing. Fields are
        # read from the event's `__dict__`: one look-up through pydantic's attribute hook rather than one a field.
        for event in events:
            sort = sorts.get(type(event))
            if sort is None:
                sort = sorts[type(event)] = (
                    1 if isinstance(event, CallEvent) else 2 if isinstance(event, WriteEvent) else 0
                )
            if sort == 1:
                call: CallEvent = event  # type: ignore[assignment]  # sorted above: cheaper than a cast
                fields = call.__dict__
                self.calls.append(call)
                service, method = fields["service"], fields["method"]
                if method != method_last or service != service_last:
                    sent = (service, method)
                    found_paths = methods.get(sent)
                    if found_paths is None:
                        found_paths = methods[sent] = self.signatures.setdefault((service, method.upper()), {})
                    paths, service_last, method_last = found_paths, service, method
                path = fields["path"]
                calls = paths.get(path)
                if calls is None:
                    paths[path] = [call]
                else:
                    calls.append(call)
                if fields["error"] or fields["status"] >= 400:
                    self.failed.append(call)
            elif sort == 2:
                write: WriteEvent = event  # type: ignore[assignment]
                fields = write.__dict__
                self.writes.append(write)
                collection = fields["collection"]
                if collection != collection_last:
                    found_records = self.every.get(collection)
                    if found_records is None:
                        found_records = self.every[collection] = {}
                    records, collection_last = found_records, collection
                key = fields["id"]
                kept = records.get(key)
                if kept is None:
                    records[key] = [write]
                else:
                    kept.append(write)
                seq, by = fields["seq"], fields["by"]
                if by is None:
                    self._mixed = True
                elif by != by_last and not seq_last < by < seq:
                    self.ordered = False
                if seq <= seq_last:
                    self.ordered = False
                by_last, seq_last = by, seq

    @cached_property
    def agents(self) -> dict[str, dict[str, list[WriteEvent]]]:
        """Made when a check first reads it: the same as `every` when the agent's calls caused every write."""
        if not self._mixed:
            return self.every
        agents: dict[str, dict[str, list[WriteEvent]]] = {}
        for write in self.writes:
            if write.by is not None:
                agents.setdefault(write.collection, {}).setdefault(write.id, []).append(write)
        return agents

    def earliest(self, writes: Sequence[WriteEvent]) -> Iterable[int]:
        """Seqs of a record's writes (a list of `every` or `agents`) and of the calls behind them, among which
        are the earliest `EVIDENCE_LIMIT` of them all. In an `ordered` log each seq not seen yet is above those
        seen before, so the first `EVIDENCE_LIMIT` are those: a record changed over and over is not read whole."""
        if not self.ordered:
            return _seqs(writes)
        seqs: set[int] = set()
        add = seqs.add
        for write in writes:
            fields = write.__dict__
            by = fields["by"]
            if by is not None:
                add(by)
            add(fields["seq"])
            if len(seqs) >= EVIDENCE_LIMIT:
                break
        return seqs


def write_evidence(writes: Iterable[WriteEvent]) -> list[int]:
    """The seqs of writes and of the agent calls that caused them: the earliest `EVIDENCE_LIMIT`, as a result
    keeps no more (a record a long log changed over and over has tens of thousands)."""
    return heapq.nsmallest(EVIDENCE_LIMIT, _seqs(writes))


def _seqs(writes: Iterable[WriteEvent]) -> set[int]:
    seqs: set[int] = set()
    add = seqs.add
    for write in writes:
        add(write.seq)
        by = write.by
        if by is not None:
            add(by)
    return seqs


def _seq(event: Event) -> int:
    return event.seq


def content(record: Record) -> str:
    """A record as JSON: how an equal record (from the diff) is recognised. Keys keep their order: the
    diff copies state records and JSON files keep order, so no sorting is needed."""
    return json.dumps(record, default=str)


def read_log(path: Path) -> EventLog:
    """A saved trial's event log; a line that is no event is a usage error naming the file and the line."""
    try:
        return EventLog.read(path)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _required(path: Path) -> Path:
    if not path.exists():
        raise NotFound(f"the trial folder {path.parent} has no {path.name}")
    return path


def _read_json(path: Path, shape: TypeAdapter[T]) -> T:
    """A JSON file, validated."""
    text = _required(path).read_text(encoding="utf-8")
    try:
        return shape.validate_json(text)
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(part) for part in problem["loc"])
        raise UsageError(f"{path}: {where + ': ' if where else ''}{problem['msg']}") from exc
