"""The event log: everything that happened in a live world, one gapless `seq` per entry.

Each kind of event is a pydantic model registered with `@event_kind`; a saved log (`events.jsonl`) is
read back into the same models, so a finished trial can be scored again. `EVENT_SCHEMA_VERSION` is
written in the first event (`start`) of every log.

A log mirrored to a file that can no longer be written (a full disk) is `broken`: it keeps every event in
memory but writes no more of them, and the file ends on its last whole line. A saved file whose last line
was cut short (the run was stopped while writing it) is read without that line, and says so (`JsonLines`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from copy import deepcopy
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

EVENT_SCHEMA_VERSION = 1

EVENT_KINDS: dict[str, type[Event]] = {}
E = TypeVar("E", bound="Event")


def event_kind(cls: type[E]) -> type[E]:
    """Registers an event model under its `kind`."""
    kind = cls.model_fields["kind"].default
    if kind in EVENT_KINDS:
        raise ValueError(f"event kind {kind!r} registered twice")
    EVENT_KINDS[kind] = cls
    return cls


class Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    seq: int
    kind: str
    t: str  # simulated time, ISO-8601 UTC


@event_kind
class StartEvent(Event):
    """The live world was built."""

    kind: str = "start"
    version: int = EVENT_SCHEMA_VERSION
    scene: str
    world: str | None = None
    task: str = ""


@event_kind
class CallEvent(Event):
    """One API call of the agent's, as the recording layer saw it (a line of a trial's `trace.jsonl`)."""

    kind: str = "call"
    service: str
    method: str  # HTTP method
    path: str  # relative to the service base, no query string
    operation: str | None = None  # the vendor's name of the operation, e.g. chat.postMessage
    query: dict[str, Any] = {}
    body: Any = None
    status: int
    response: Any = None
    error: bool = False
    unimplemented: bool = False
    actor: str | None = None  # who the token belongs to in that service
    body_cut: int | None = None  # the body's size in bytes when `body` keeps only an excerpt of it
    injected: dict[str, Any] | None = None  # the scene's api fault that answered or delayed it: fault, kind...
    # The MCP tool call this call stood for: `{tool, arguments}` (`arguments_cut`: their size past the trace's limit).
    mcp: dict[str, Any] | None = None


@event_kind
class ModelCallEvent(Event):
    """One call of the agent's to a model endpoint that the interception proxy captured (docs/interception.md,
    "Model calls"): a line of a trial's `trace.jsonl` beside its calls. `latency_ms` is the wall time the model
    took, a measure of the outside world: no check reads it."""

    kind: str = "model_call"
    host: str  # host:port, as the agent's CONNECT named it
    method: str
    path: str  # with its query string
    model: str | None = None  # the model the answer names (else the request's)
    status: int  # what the agent got: the model's status, or soundstage's refusal
    # The answer's `usage`: prompt_tokens, completion_tokens, total_tokens; None when it had none.
    usage: dict[str, int] | None = None
    latency_ms: int = 0
    stream: bool = False  # the answer was a stream of server-sent events
    refused: str | None = None  # why soundstage answered instead of the model: `token_cap`
    request: Any = None  # the request's body (JSON), kept only when bodies are captured
    response: Any = None  # the answer's body (a stream's chunks put together), kept only when bodies are captured


@event_kind
class AfterFinishEvent(Event):
    """A call with the agent's token after the attempt ended: refused as a revoked token, counting for nothing."""

    kind: str = "after_finish"
    service: str
    method: str
    path: str
    status: int


@event_kind
class WriteEvent(Event):
    """A record of a collection was added, changed or removed."""

    kind: str = "write"
    collection: str
    op: str  # added | changed | removed
    id: str
    fields: list[str] = []  # for `changed`: which fields
    by: int | None = None  # seq of the agent call that caused it, if any


@event_kind
class ClockEvent(Event):
    """Simulated time was moved on by hand (`POST .../clock`)."""

    kind: str = "clock"
    advanced: str  # a duration, e.g. 5m


@event_kind
class FinishEvent(Event):
    """The attempt ended."""

    kind: str = "finish"
    output: str = ""
    reason: str = "finished"  # finished | exited | timeout | crashed


def parse_event(data: dict[str, Any]) -> Event:
    kind = data.get("kind")
    model = EVENT_KINDS.get(kind)  # type: ignore[arg-type]
    if model is None:
        raise ValueError(f"unknown event kind {kind!r}")
    return model.model_validate(data)


_REQUIRED = object()


@dataclass(frozen=True)
class _Shape:
    """What every event of one model made from the same field names shares: the model's fields in their order,
    each with its default (`_REQUIRED` when it has none); the fields whose default is a list or a dict and are
    not given, which each event gets a copy of; and the names of the fields counted as set. That set is one
    object for all these events: it is read, never changed (pydantic changes only a copy's, in `model_copy`),
    and each set fewer is an object fewer for the garbage collector to walk as the log grows."""

    defaults: dict[str, Any]
    copied: tuple[str, ...]
    fields_set: set[str]


# By the model and the names of the fields given, in their order; None for names that make no event (an
# unknown or a missing field). Only the engine's own code makes these names, so there are few of them.
_SHAPES: dict[tuple[Any, ...], _Shape | None] = {}


def _shape(model: type[Event], given: tuple[str, ...]) -> _Shape | None:
    defaults = {n: _REQUIRED if f.is_required() else f.default for n, f in model.model_fields.items()}
    required = {n for n, default in defaults.items() if default is _REQUIRED and n != "seq"}
    if not set(given) <= defaults.keys() - {"seq"} or not required <= set(given):
        return None
    copied = tuple(n for n, default in defaults.items() if isinstance(default, (list, dict)) and n not in given)
    return _Shape(defaults, copied, {"seq", *given})


def _built(model: type[E], seq: int, fields: dict[str, Any]) -> E:
    """The event `model(seq=seq, **fields)` is, from fields of the right types: the same values in the same
    order, a copy of a default list or dict, the same fields counted as set."""
    key = (model, *fields)
    try:
        shape = _SHAPES[key]
    except KeyError:
        shape = _SHAPES[key] = _shape(model, tuple(fields))
    if shape is None:
        return model(seq=seq, **fields)  # an unknown or a missing field: pydantic's own error
    return _made(model, shape, seq, fields)


def _made(model: type[E], shape: _Shape, seq: int, fields: dict[str, Any]) -> E:
    values = {**shape.defaults, "seq": seq, **fields}
    for name in shape.copied:
        values[name] = deepcopy(values[name])
    event = model.__new__(model)
    setattr_ = object.__setattr__  # as pydantic's `model_construct` does, past the frozen model's own
    setattr_(event, "__dict__", values)
    setattr_(event, "__pydantic_fields_set__", shape.fields_set)
    setattr_(event, "__pydantic_extra__", None)
    setattr_(event, "__pydantic_private__", None)
    return event


class Shaped(Generic[E]):
    """Events of one model made from fields of the same names, every one of the model's required fields among
    them, each of its field's type: what is shared is worked out once, where a caller makes many of them (an
    agent call and its writes, on every call), not looked up by the names on each."""

    __slots__ = ("model", "shape")

    def __init__(self, model: type[E], names: tuple[str, ...]) -> None:
        shape = _shape(model, names)
        if shape is None:
            raise ValueError(f"{model.__name__} is not made from the fields {', '.join(names)}")
        self.model, self.shape = model, shape


class EventLog:
    """The append-only log of one live world, optionally mirrored line by line to a JSONL file.

    Appending never fails on a file: when the mirror file or a listener's file cannot be written (a full
    disk), the log is `broken` (why, in a line) and writes nothing more, and no call fails half-way; the
    world then serves no more calls (docs/security.md)."""

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self.events: list[Event] = list(events)
        self.broken: str | None = None  # why the log's files can no longer be written, once they cannot
        self.cut_short: str | None = None  # read from a file whose last line was cut short: the note saying so
        self._sink: int | None = None  # the mirror file's descriptor: each line goes in one unbuffered write
        self._sink_name = ""
        self._whole = 0  # the mirror file's size after its last whole line
        self._hash = hashlib.sha256()  # of the lines mirrored whole
        self._listeners: list[Callable[[Event], None]] = []

    def __len__(self) -> int:
        return len(self.events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    @property
    def last_seq(self) -> int:
        return len(self.events)

    def emit(self, model: type[E], /, **fields: Any) -> E:  # positional: an event may have a field `model`
        """Appends a new event of kind `model` with the next `seq`."""
        return self._append(model(seq=len(self.events) + 1, **fields))

    def emit_built(self, model: type[E], **fields: Any) -> E:
        """`emit` for an event whose fields the engine itself made, each of its field's type (an agent call and
        its writes, on every call): the same event, made without validating every field again."""
        return self._append(_built(model, len(self.events) + 1, fields))

    def emit_fields(self, model: type[E], fields: dict[str, Any]) -> E:
        """`emit_built` with the fields in a dict of the caller's, which it gives up."""
        return self._append(_built(model, len(self.events) + 1, fields))

    def emit_shaped(self, shaped: Shaped[E], fields: dict[str, Any]) -> E:
        """`emit_fields` for fields of the names `shaped` was made for."""
        return self._append(_made(shaped.model, shaped.shape, len(self.events) + 1, fields))

    def _append(self, event: E) -> E:
        self.events.append(event)
        if self._sink is not None:
            self._write(self._sink, event)
        for listener in self._listeners:
            try:
                listener(event)
            except OSError as exc:  # the runner's listeners write trace.jsonl and the journal, named in `filename`
                self._break(str(exc.filename or "a file copied from the event log"), exc)
        return event

    def _write(self, sink: int, event: Event) -> None:
        line = (event.model_dump_json() + "\n").encode()
        try:
            written = os.write(sink, line)
            while written < len(line):  # a short write: the disk is filling up, the next one says why
                written += os.write(sink, line[written:])
        except OSError as exc:
            self._break(self._sink_name, exc)
        else:
            self._whole += len(line)
            self._hash.update(line)

    def _break(self, what: str, exc: OSError) -> None:
        """Stops mirroring for good, the file cut back to its last whole line; the first reason stays."""
        if self.broken is None:
            self.broken = f"{what} could not be written: {exc.strerror or exc}"
        sink, self._sink = self._sink, None
        if sink is not None:
            with contextlib.suppress(OSError):  # a file that cannot be cut back ends torn: readers leave that line out
                os.ftruncate(sink, self._whole)
            with contextlib.suppress(OSError):
                os.close(sink)

    @property
    def digest(self) -> str:
        """The SHA-256 of the mirror file as written: its whole lines."""
        return "sha256:" + self._hash.hexdigest()

    def listen(self, listener: Callable[[Event], None]) -> None:
        self._listeners.append(listener)

    def after(self, seq: int = 0, kind: str | None = None) -> list[Event]:
        tail = self.events[max(seq, 0) :]
        return tail if kind is None else [e for e in tail if e.kind == kind]

    def calls(self) -> list[CallEvent]:
        return [e for e in self.events if isinstance(e, CallEvent)]

    def mirror_to(self, path: Path) -> None:
        """Writes what is logged so far to `path` and every later event as it comes."""
        self.close()
        self._sink_name, self._whole, self._hash = path.name, 0, hashlib.sha256()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._sink = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        except OSError as exc:
            self._break(path.name, exc)
            return
        for event in self.events:
            if self._sink is None:  # it broke on the way
                break
            self._write(self._sink, event)

    def close(self) -> None:
        if self._sink is not None:
            sink, self._sink = self._sink, None
            os.close(sink)

    @classmethod
    def read(cls, path: Path) -> EventLog:
        """A saved log. A last line cut short is left out, `cut_short` saying so; any other line that is not an
        event raises ValueError naming the file and the line."""
        lines = JsonLines(path)
        events = []
        for number, data in lines:
            try:
                events.append(parse_event(data))
            except ValidationError as exc:
                problem = exc.errors()[0]
                where = ".".join(str(part) for part in problem["loc"])
                raise ValueError(f"{path}:{number}: not an event of the log: {where}: {problem['msg']}") from None
            except ValueError as exc:  # an unknown kind
                raise ValueError(f"{path}:{number}: not an event of the log: {exc}") from None
        log = cls(events)
        log.cut_short = lines.cut_short
        return log


CUT_SHORT = "its last line is cut short (the run was stopped while writing it) and is left out"


class JsonLines:
    """A JSON-lines file soundstage wrote (`events.jsonl`, `trace.jsonl`), read line by line as (line number,
    value). Each line is written whole, so only a run stopped while writing one (killed, its disk full) leaves
    a last line cut short, with no line end: that line is left out and `cut_short` says so once the reading
    is done. Any other line that is not JSON raises ValueError naming the file and the line."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.cut_short: str | None = None

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        with self.path.open("rb") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    value = json.loads(line)
                except ValueError as exc:
                    if line.endswith(b"\n"):
                        raise ValueError(f"{self.path}:{number}: not JSON: {exc}") from None
                    self.cut_short = f"{self.path.name}: {CUT_SHORT}"
                    return
                yield number, value


def cut_short(path: Path) -> str | None:
    """What `JsonLines` says of a file whose last line is cut short, found from the file's end alone (a log may
    be long); None for a file that ends on a whole line."""
    with path.open("rb") as file:
        start = end = file.seek(0, os.SEEK_END)
        last = b""
        while start and b"\n" not in last:  # back to the last line's start, a block at a time
            start = max(start - 65536, 0)
            file.seek(start)
            last = file.read(end - start)
    last = last.rpartition(b"\n")[2]
    try:
        json.loads(last) if last.strip() else None
    except ValueError:
        return f"{path.name}: {CUT_SHORT}"
    return None


# -- what passed between the agent and the people (docs/people.md) -------------------------------------
# People and users are named by their Slack user id; a fact by `<person ref>.<fact id>` (`laura.workspace`);
# a decision by `<person ref>.<decision id>`.


class MailHeaders(BaseModel):
    """Mail's own headers, as its sender's copy has them: a `message` event of mail shows them (`mail`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    sender: str  # the From address
    to: list[str] = []  # the addresses as written, every one, whether or not a person of the world
    cc: list[str] = []
    bcc: list[str] = []
    subject: str = ""


@event_kind
class MessageEvent(Event):
    """A message was written in Slack, or mail sent (`service`: Gmail): who wrote it, where, which people heard
    it, which facts it carried. Mail's `ts` is its message id (in the agent's mailbox, when it has a copy), its
    `channel` that copy's thread."""

    kind: str = "message"
    ts: str
    channel: str
    user: str  # the author
    text: str
    thread_ts: str | None = None
    to: list[str] = []  # the people who heard it
    facts: list[str] = []  # the facts its text carries (by their `match` phrases)
    from_agent: bool = False
    service: str = "slack"  # where it was said: `slack`, or the mail's service (`gmail`)
    mail: MailHeaders | None = None  # mail's From, To, Cc, Bcc and subject (`text` is the subject and the body)


@event_kind
class AskedEvent(Event):
    """Someone asked a person for a fact or a decision (an `ask` phrase in a message that reached them)."""

    kind: str = "asked"
    person: str
    by: str  # who asked
    fact: str | None = None
    decision: str | None = None
    ts: str  # the message that asked


@event_kind
class RevealedEvent(Event):
    """A person shared a fact they own, in a reply (logged when the reply is posted)."""

    kind: str = "revealed"
    person: str
    fact: str
    to: str  # who had asked
    ts: str  # the reply


@event_kind
class WithheldEvent(Event):
    """A person refused to share a fact (confidential, or its `share_if` did not hold)."""

    kind: str = "withheld"
    person: str
    fact: str
    to: str
    reason: str  # confidential | share_if
    ts: str


@event_kind
class ReferredEvent(Event):
    """A person asked for a fact they do not own sent the asker to its owner."""

    kind: str = "referred"
    person: str
    fact: str
    owner: str
    to: str
    ts: str


@event_kind
class ToldEvent(Event):
    """The agent itself told a person a fact (a message of the agent's carrying it reached them)."""

    kind: str = "told"
    person: str
    fact: str
    ts: str  # the message


@event_kind
class KnowsEvent(Event):
    """A person learned a fact, by any path: `start`, `agent`, or the user id of whoever told them."""

    kind: str = "knows"
    person: str
    fact: str
    source: str
    ts: str | None = None  # the message, when it came by one


@event_kind
class DecidedEvent(Event):
    """A person made a decision they were asked for (the reply names the option), or one on an invitation."""

    kind: str = "decided"
    person: str
    decision: str
    option: str
    by: str  # who asked
    ts: str | None = None  # the reply (None: a decision on an invitation, answered in its service)


@event_kind
class AnsweredEvent(Event):
    """A person answered an invitation of the agent's (a Calendar event inviting them), where its service shows it."""

    kind: str = "answered"
    person: str
    service: str  # calendar
    event: str  # the event id
    revision: int  # the event's revision answered (Calendar: its `sequence`)
    response: str  # accepted | tentative | declined
    reason: str  # free | busy | decision
    conflict: str | None = None  # busy: the event of theirs it overlaps
    decision: str | None = None  # decision: the decision that chose the response
    by: str  # who invited them (the organizer)


@event_kind
class ScriptEvent(Event):
    """A person acted on their own: a scripted message, or one triggered by an `on` event."""

    kind: str = "script"
    person: str
    ts: str
    channel: str
    text: str
    trigger: str  # `at 10m`, `decided laura.refund`, `fault_resolved bad_deploy`


@event_kind
class MilestoneEvent(Event):
    """A state predicate that a check watches held for the first time (`{state: ...}` milestones, docs/checks.md)."""

    kind: str = "milestone"
    key: str  # the predicate as canonical JSON, e.g. {"slack.message": {"channel": "C…"}}


# -- faults (docs/faults.md) ---------------------------------------------------------------------------


@event_kind
class FaultStartedEvent(Event):
    """A fault's `active_while` condition came to hold (at the start, or again after it was resolved): its
    effects were applied."""

    kind: str = "fault_started"
    fault: str  # the fault's id


@event_kind
class FaultResolvedEvent(Event):
    """A fault's condition stopped holding: the cause is gone, its effects recover `recover_after` later."""

    kind: str = "fault_resolved"
    fault: str  # the fault's id
