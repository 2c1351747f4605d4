"""The generic state checks: `record`, `diff` and `writes`, over any collection.

State checks read the final world; every record counts, starter data too. Evidence is the `seq` of the
writes that produced the matched records and of the agent calls behind those writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, NonNegativeInt, model_validator

from ..grading.attempt import Attempt, content, write_evidence
from ..grading.conditions import Condition, closest, enough, matching, misses
from ..grading.kinds import Args, state_check
from ..grading.match import get_path, value_matches
from ..grading.outcome import EVIDENCE_LIMIT, Outcome
from ..grading.values import Case, Tested, ValueTest, value_test, where_misses, where_text
from ..grading.words import count, either, how_many, listing, record_name, show, some

# -- record -------------------------------------------------------------------------------------------


class RecordArgs(Args):
    collection: str
    where: dict[str, Tested] = {}
    absent: bool = False
    field: str | None = None
    equals: Any = None
    contains: Any = None
    ignore_case: bool | None = None

    @model_validator(mode="after")
    def _field_test(self) -> RecordArgs:
        tests = {"equals", "contains"} & self.model_fields_set
        if tests and self.field is None:
            raise ValueError(f"{' and '.join(sorted(tests))} tests the field named by field: give field")
        if self.field is not None and len(tests) != 1:
            raise ValueError("field is tested with either equals or contains")
        return self

    def conditions(self) -> tuple[list[Condition[Any]], list[Condition[Any]]]:
        """The conditions of `where`, and of the field test (none, or one)."""
        where = [_where(path, test, Case(self.ignore_case)) for path, test in self.where.items()]
        field = self.field
        if field is None:
            return where, []
        return where, [Condition(self.field_text(), self.field_holds, lambda r: _found(r, field))]

    def field_holds(self, record: Any) -> bool:
        if self.field is None:
            return True
        values = get_path(record, self.field)
        if "equals" in self.model_fields_set:
            return any(v == self.equals for v in values)
        return any(value_matches(v, self.contains, Case(self.ignore_case).fold) for v in values)

    def field_text(self) -> str:
        if self.field is None:
            return ""
        test = "equals" if "equals" in self.model_fields_set else "contains"
        return f" whose {self.field} {test} {show(getattr(self, test))}"


@state_check("record", RecordArgs)
def record(args: RecordArgs, attempt: Attempt) -> Outcome:
    records = attempt.records(args.collection)
    where, field = args.conditions()
    meeting = matching(records, where)  # kept: when none has the field too, the closest is among them
    matched = matching(meeting, field)
    what = f"record in {args.collection}{where_text(args.where)}{args.field_text()}{Case(args.ignore_case).note()}"
    if matched:
        found = f"{count(len(matched), 'record')} did: {some(matched, len(matched), record_name)}"
        return Outcome(
            not args.absent,
            f"{'no' if args.absent else 'a'} {what}",
            found,
            attempt.evidence(args.collection, matched),
        )
    if args.absent:
        return Outcome(True, f"no {what}", f"none of {count(len(records), 'record')} did")
    if not records:
        return Outcome(False, f"a {what}", f"{args.collection} has no records")
    if not attempt.explains:
        return Outcome(False, f"a {what}", f"none of {count(len(records), 'record')} did")
    # Most of `where` first, then the field test: the records meeting all of `where` rank first, if any.
    near = (
        closest(meeting, field) if meeting else closest(records, field, rank=lambda r: sum(c.holds(r) for c in where))
    )
    nearest = f"closest: {record_name(near)}, where {listing(misses(near, where + field))}"
    actual = f"none of {count(len(records), 'record')} did; {nearest}"
    return Outcome(False, f"a {what}", actual, attempt.record_evidence(args.collection, near))


def _where(path: str, test: ValueTest, case: Case) -> Condition[Any]:
    return Condition(f"{path} {test.text()}", test.tester(path, case), lambda r: _found(r, path))


def _found(record: Any, path: str) -> str:
    values = get_path(record, path)
    if not values:
        return f"{path} is missing"
    return f"{path} is {show(values[0] if len(values) == 1 else values)}"


# -- diff ---------------------------------------------------------------------------------------------


def _elements(spec: Any) -> ValueTest:
    """`added` and `removed`: a value or a list says each of them; a mapping tests the elements as a list."""
    return value_test(spec if isinstance(spec, dict) else {"has": spec if isinstance(spec, list) else [spec]})


Elements = Annotated[Any, AfterValidator(_elements)]


class FromTo(Args):
    """How one field changed: `from` and `to` (value tests), and for a list field the elements it gained
    (`added`) or lost (`removed`)."""

    from_: Tested = Field(None, alias="from")
    to: Tested = None
    added: Elements = None
    removed: Elements = None

    def holds(self, change: dict[str, Any], case: Case) -> bool:
        before, after = change.get("from"), change.get("to")
        sides = {
            "from_": [before],
            "to": [after],
            "added": [_gained(before, after)],
            "removed": [_gained(after, before)],
        }
        return all(getattr(self, name).holds(sides[name], case) for name in self.model_fields_set)

    def text(self, name: str) -> str:
        given = self.model_fields_set
        return (
            f"{name} changed"
            + (f" from {_side(self.from_)}" if "from_" in given else "")
            + (f" to {_side(self.to)}" if "to" in given else "")
            + (f", gaining {_side(self.added, 'has')}" if "added" in given else "")
            + (f", losing {_side(self.removed, 'has')}" if "removed" in given else "")
        )


def _side(test: ValueTest, plain: str | None = None) -> str:
    """A from/to value as written (`"open"`), a test in brackets (`(matches /x/)`), or the elements a plain
    `added` or `removed` names (`"U1" and "U2"`)."""
    ops = test.operators
    if ops is None:
        return show(test.spec)
    if plain is not None and list(ops) == [plain]:
        return listing([show(a) for a in ops[plain]])
    return f"elements that {test.text()}" if plain is not None else f"({test.text()})"


def _gained(before: Any, after: Any) -> list[Any]:
    """The elements of the list `after` that the list `before` did not hold (none when `after` is not a list)."""
    old = before if isinstance(before, list) else []
    return [item for item in after if item not in old] if isinstance(after, list) else []


Change = Literal["added", "removed", "changed", "unchanged"]


class DiffArgs(Args):
    collection: str
    change: Change | None = None
    where: dict[str, Tested] = {}
    count: NonNegativeInt | None = None
    count_gte: NonNegativeInt | None = None
    count_lte: NonNegativeInt | None = None
    changes: dict[str, FromTo] | None = None
    strict: bool = False
    fields: list[str] | None = None
    each: str | None = None
    ignore_case: bool | None = None

    @model_validator(mode="after")
    def _coherent(self) -> DiffArgs:
        if self.count is not None and (self.count_gte is not None or self.count_lte is not None):
            raise ValueError("give count, or count_gte and/or count_lte, not both")
        if self.count_gte is not None and self.count_lte is not None and self.count_gte > self.count_lte:
            raise ValueError(f"count_gte ({self.count_gte}) is more than count_lte ({self.count_lte})")
        if self.changes is not None and self.change not in (None, "changed"):
            raise ValueError(f"changes describes changed records, not {self.change} ones")
        if self.strict and self.changes is None:
            raise ValueError("strict (no other field changed) needs changes")
        if self.each is not None and (self.changes is not None or self.fields is not None):
            raise ValueError("each compares the elements of a list field, which have no changes or fields of their own")
        return self

    def kinds(self) -> list[Change]:
        if self.change is not None:
            return [self.change]
        return ["changed"] if self.changes is not None else ["added", "removed", "changed"]

    def unmet(self, entry: _Entry) -> int:
        """How many of the conditions an entry does not meet (0: it matches)."""
        case = Case(self.ignore_case)
        missed = len(where_misses(self.where, entry.record, case))
        for name, test in (self.changes or {}).items():
            missed += entry.changes is None or name not in entry.changes or not test.holds(entry.changes[name], case)
        if self.strict and entry.changes is not None:
            missed += bool(set(entry.changes) - set(self.changes or {}))
        return missed


@dataclass(frozen=True, slots=True)
class _Entry:
    """One record of the diff: how it changed, its new (or removed) version, its field changes and id."""

    kind: str
    record: Any
    changes: dict[str, Any] | None = None
    key: str | None = None
    source: Any = None  # with `each`: the record the element belongs to, for evidence

    def text(self) -> str:
        name = record_name(self.record)
        if self.changes is None:
            return f"{name} ({self.kind})"
        return f"{name} ({listing([_move(f, c.get('from'), c.get('to')) for f, c in self.changes.items()])})"


def _move(name: str, before: Any, after: Any) -> str:
    """One field's change in words: a list by the elements it gained and lost, a mapping (or one made) by the
    keys it gained and lost when it did, else from → to."""
    if isinstance(before, dict | None) and isinstance(after, dict | None):
        old, new = before or {}, after or {}
        said = [
            f"{verb} {some(keys, len(keys), lambda v: show(v, 40))}"
            for verb, keys in (("gained", [k for k in new if k not in old]), ("lost", [k for k in old if k not in new]))
            if keys
        ]
        if said:
            return f"{name} {', '.join(said)}"
    if isinstance(before, list) and isinstance(after, list):
        gained, lost = _gained(before, after), _gained(after, before)
        said = [
            f"{verb} {some(items, len(items), lambda v: show(v, 40))}"
            for verb, items in (("gained", gained), ("lost", lost))
            if items
        ]
        if said:
            return f"{name} {', '.join(said)}"
    return f"{name} {show(before, 40)} → {show(after, 40)}"


@state_check("diff", DiffArgs)
def diff(args: DiffArgs, attempt: Attempt) -> Outcome:
    kinds = args.kinds()
    noun = f"{either(kinds)} {args.each} element" if args.each else f"{either(kinds)} record"
    changes = listing([t.text(n) for n, t in args.changes.items()]) if args.changes else ""
    expected = (
        how_many(args.count, args.count_gte, args.count_lte, noun)
        + f" in {args.collection}{where_text(args.where)}"
        + (f", with {changes}" if changes else "")
        + (" and no other field changed" if args.strict else "")
        + (f", seeing only {listing(args.fields)}" if args.fields is not None else "")
        + Case(args.ignore_case).note()
    )
    entries = (
        _elements_of(attempt, args.collection, args.each, kinds)
        if args.each
        else _entries(attempt, args.collection, kinds, args.fields)
    )
    matched = [e for e in entries if args.unmet(e) == 0]
    passed = enough(len(matched), args.count, args.count_gte, args.count_lte)
    if matched or not entries:
        actual = (
            f"{count(len(matched), 'record')} matched: {some(matched, len(matched), _Entry.text)}"
            if matched
            else f"{args.collection} has no {noun}s"
        )
        return Outcome(passed, expected, actual, _evidence(attempt, args.collection, matched))
    if not attempt.explains:
        return Outcome(passed, expected, f"none of {count(len(entries), noun)} matched")
    closest = min(entries, key=args.unmet)
    actual = f"none of {count(len(entries), noun)} matched; closest: {closest.text()}"
    return Outcome(passed, expected, actual, _evidence(attempt, args.collection, [closest]))


def _entries(attempt: Attempt, collection: str, kinds: list[Change], fields: list[str] | None) -> list[_Entry]:
    section = attempt.diff.get(collection, {})
    changed = [(c, _seen(c["changes"], fields)) for c in section.get("changed", [])]
    entries: list[_Entry] = []
    for kind in kinds:
        if kind == "changed":
            entries += [_Entry(kind, c["record"], seen, c["id"]) for c, seen in changed if seen]
        elif kind == "unchanged":
            moved = {content(r) for r in section.get("added", [])}
            moved |= {content(c["record"]) for c, seen in changed if seen}
            entries += [_Entry(kind, r) for r in attempt.records(collection) if content(r) not in moved]
        else:
            entries += [_Entry(kind, r) for r in section.get(kind, [])]
    return entries


def _seen(changes: dict[str, Any], fields: list[str] | None) -> dict[str, Any]:
    """A record's field changes as `fields` see them: each dotted path whose values differ (`topic.value`
    changes when the topic's text does, not when only its `last_set` does); all of them without `fields`."""
    if fields is None:
        return changes
    seen: dict[str, Any] = {}
    for path in fields:
        top = path.split(".", 1)[0]
        if top not in changes:
            continue
        before, after = (get_path({top: changes[top][side]}, path) for side in ("from", "to"))
        if before != after:
            seen[path] = {"from": _one(before), "to": _one(after)}
    return seen


def _one(values: list[Any]) -> Any:
    return values[0] if len(values) == 1 else values or None


def _elements_of(attempt: Attempt, collection: str, each: str, kinds: list[Change]) -> list[_Entry]:
    """`each`: the diff of the elements of a list field, one entry per element, as a record whose field
    holds that element (`members: U1` of a channel): an element is added when a new record holds it or a
    changed one gained it, removed when a removed record held it or a changed one lost it. An element has
    no fields of its own, so none is ever changed."""
    section = attempt.diff.get(collection, {})
    entries: list[_Entry] = []

    def one_each(kind: str, record: Any, items: Any) -> list[_Entry]:
        return [_Entry(kind, {**record, each: item}, source=record) for item in items or []]

    gained: dict[str, list[Any]] = {}
    for c in section.get("changed", []):
        move = c["changes"].get(each)
        if move is not None:
            gained[content(c["record"])] = _gained(move.get("from"), move.get("to"))
    for kind in kinds:
        if kind in ("added", "removed"):
            entries += [e for r in section.get(kind, []) for e in one_each(kind, r, r.get(each))]
            for c in section.get("changed", []):
                move = c["changes"].get(each)
                if move is not None:
                    sides = (move.get("from"), move.get("to"))
                    entries += one_each(kind, c["record"], _gained(*(sides if kind == "added" else sides[::-1])))
        elif kind == "unchanged":
            added = {content(r) for r in section.get("added", [])}
            for r in attempt.records(collection):
                if content(r) not in added:
                    new = gained.get(content(r), [])
                    entries += one_each(kind, r, [item for item in r.get(each) or [] if item not in new])
    return entries


def _evidence(attempt: Attempt, collection: str, entries: list[_Entry]) -> list[int]:
    seqs: list[int] = []
    writes = attempt.writes_by_record.get(collection, {})
    for entry in entries[:EVIDENCE_LIMIT]:
        if entry.source is not None:
            seqs += attempt.record_evidence(collection, entry.source)
        elif entry.key is not None:
            seqs += attempt.writes_evidence([writes.get(entry.key, [])])
        elif entry.kind == "removed":
            # A removed record's id is not in the diff: name every removal that still stands.
            seqs += write_evidence(w[-1] for w in writes.values() if w[-1].op == "removed")
        else:
            seqs += attempt.record_evidence(collection, entry.record)
    return seqs


# -- writes -------------------------------------------------------------------------------------------


class WritesArgs(Args):
    collection: str | None = None
    min: NonNegativeInt | None = None
    max: NonNegativeInt | None = None

    @model_validator(mode="after")
    def _bounds(self) -> WritesArgs:
        if self.min is None and self.max is None:
            raise ValueError("writes has min, max or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is more than max ({self.max})")
        return self


@state_check("writes", WritesArgs)
def writes(args: WritesArgs, attempt: Attempt) -> Outcome:
    """Counts the records the agent's calls created, updated or removed (writes with `by`), so the world's own
    changes (people's replies, faults) never count against the agent."""
    tables = attempt.agent_writes
    names = [args.collection] if args.collection is not None else sorted(tables)
    touched = [(name, key, ws) for name in names for key, ws in tables.get(name, {}).items()]
    where = f" in {args.collection}" if args.collection is not None else ""
    expected = how_many(None, args.min, args.max, "record") + " created, updated or removed by the agent" + where
    n = len(touched)
    actual = f"the agent wrote {count(n, 'record')}{where}"
    if n:
        actual += ": " + some(touched, n, _written)
    passed = (args.min is None or n >= args.min) and (args.max is None or n <= args.max)
    return Outcome(passed, expected, actual, attempt.writes_evidence(ws for _, _, ws in touched[:EVIDENCE_LIMIT]))


def _written(item: tuple[str, str, list[Any]]) -> str:
    name, key, ws = item
    ops: dict[str, None] = {}
    seqs: list[str] = []
    for w in ws:  # one pass: a record a long log changed over and over has tens of thousands of writes
        fields = w.__dict__  # one look-up through pydantic's attribute hook, not one a field
        ops[fields["op"]] = None
        seqs.append(str(fields["seq"]))
    return f"{name} {key} {listing(list(ops))} (seq {listing(seqs)})"
