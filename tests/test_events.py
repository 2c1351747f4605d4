import errno
import json
import os
import subprocess
import sys

import pytest
from tests.disks import FullDisk

from soundstage.events import (
    CallEvent,
    ClockEvent,
    Event,
    EventLog,
    FinishEvent,
    StartEvent,
    WriteEvent,
    _built,
    parse_event,
)


def test_log_seq_is_gapless_and_mirrored(tmp_path):
    log = EventLog()
    log.emit(StartEvent, t="2026-03-02T14:00:00Z", scene="s")
    log.mirror_to(tmp_path / "events.jsonl")
    log.emit(CallEvent, t="2026-03-02T14:00:00Z", service="slack", method="POST", path="/api/auth.test", status=200)
    log.emit(WriteEvent, t="2026-03-02T14:00:00Z", collection="slack.messages", op="added", id="1.0", by=2)
    log.close()
    lines = (tmp_path / "events.jsonl").read_text().splitlines()
    assert [json.loads(line)["seq"] for line in lines] == [1, 2, 3]
    again = EventLog.read(tmp_path / "events.jsonl")
    assert [e.model_dump() for e in again] == [e.model_dump() for e in log]
    assert [e.seq for e in again.calls()] == [2]
    assert [e.seq for e in again.after(1, kind="write")] == [3]


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="unknown event kind 'nope'"):
        parse_event({"seq": 1, "kind": "nope", "t": "x"})


CALL = {
    "t": "2026-03-02T14:00:05Z",
    "service": "slack",
    "method": "POST",
    "path": "/api/chat.postMessage",
    "operation": "chat.postMessage",
    "query": {"pretty": "1"},
    "body": {"channel": "C1", "text": "hi"},
    "body_cut": None,
    "status": 200,
    "response": {"ok": True, "ts": "1.000100"},
    "error": False,
    "unimplemented": False,
    "actor": "U1",
    "injected": {"fault": "slow", "kind": "delay"},
}
WRITE = {"t": "2026-03-02T14:00:05Z", "collection": "slack.messages", "op": "changed", "id": "1.0", "fields": ["text"]}


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        (CallEvent, CALL),
        (CallEvent, {k: CALL[k] for k in ("t", "service", "method", "path", "status")}),  # defaults
        (WriteEvent, {**WRITE, "by": 2}),
        (WriteEvent, {k: v for k, v in WRITE.items() if k != "fields"}),
        (StartEvent, {"t": "2026-03-02T14:00:00Z", "scene": "s"}),
    ],
)
def test_an_event_built_without_validation_is_the_validated_one(model, fields):
    validated, built = EventLog(), EventLog()
    for log, emit in ((validated, validated.emit), (built, built.emit_built)):
        emit(StartEvent, t="2026-03-02T14:00:00Z", scene="s")
        emit(model, **fields)
    expected, got = validated.events[-1], built.events[-1]
    assert type(got) is model and got == expected
    assert got.model_dump_json() == expected.model_dump_json()
    assert list(got.__dict__) == list(expected.__dict__)
    assert [type(v) for v in got.__dict__.values()] == [type(v) for v in expected.__dict__.values()]
    assert got.model_fields_set == expected.model_fields_set
    assert model.model_validate(got.model_dump()) == got
    for name, info in model.model_fields.items():  # a default list or dict is the event's own
        if name not in fields and isinstance(info.default, (list, dict)):
            assert getattr(got, name) == info.default and getattr(got, name) is not info.default
    with pytest.raises(ValueError):  # frozen, as a validated event
        got.seq = 9  # type: ignore[misc]


def test_an_event_built_with_an_unknown_or_a_missing_field_is_refused_as_emit_refuses_it():
    log = EventLog()
    with pytest.raises(ValueError, match="nope"):
        log.emit_built(CallEvent, **CALL, nope=1)
    with pytest.raises(ValueError, match="status"):
        log.emit_built(CallEvent, **{k: v for k, v in CALL.items() if k != "status"})
    assert not log.events


def test_events_built_from_the_same_field_names_share_their_set_and_are_copied_apart():
    log = EventLog()
    first = log.emit_built(WriteEvent, **WRITE)
    second = log.emit_built(WriteEvent, **{**WRITE, "id": "2.0"})
    reordered = log.emit_built(WriteEvent, **dict(reversed(list(WRITE.items()))))
    assert first.model_fields_set is second.model_fields_set  # one object for the collector, not one per event
    assert reordered.model_fields_set == first.model_fields_set
    assert list(reordered.__dict__) == list(first.__dict__)
    copied = first.model_copy(update={"by": 7})
    assert copied.model_fields_set == {*first.model_fields_set, "by"}
    assert "by" not in second.model_fields_set and "by" not in first.model_fields_set


def test_a_log_whose_file_fills_up_keeps_every_event_and_the_file_ends_on_its_last_whole_line(tmp_path, monkeypatch):
    path = tmp_path / "events.jsonl"
    disk = FullDisk(monkeypatch, path)
    log = EventLog()
    heard: list[Event] = []
    log.listen(heard.append)
    log.emit(StartEvent, t="2026-03-02T14:00:00Z", scene="s")
    log.mirror_to(path)
    call = log.emit_built(CallEvent, **CALL)
    written = path.read_bytes()
    disk.room = 30  # less than the next line: a write cut short, then no space left

    write = log.emit_built(WriteEvent, **WRITE, by=2)
    later = log.emit(FinishEvent, t="2026-03-02T14:01:00Z")

    assert log.broken == "events.jsonl could not be written: No space left on device"
    assert path.read_bytes() == written  # the 30 bytes of the line cut short are cut off again
    assert written.decode().splitlines() == [e.model_dump_json() for e in log.events[:2]]
    assert log.events[1:] == heard[1:] == [call, write, later]  # kept, and heard, all the same
    log.close()


def test_a_line_that_fills_the_disk_exactly_is_kept_whole(tmp_path, monkeypatch):
    path = tmp_path / "events.jsonl"
    disk = FullDisk(monkeypatch, path)
    log = EventLog()
    log.mirror_to(path)
    log.emit(StartEvent, t="2026-03-02T14:00:00Z", scene="s")
    line = (_built(CallEvent, 2, CALL).model_dump_json() + "\n").encode()
    disk.room = len(line)

    log.emit_built(CallEvent, **CALL)
    assert log.broken is None
    log.emit_built(WriteEvent, **WRITE)

    assert log.broken == "events.jsonl could not be written: No space left on device"
    assert path.read_bytes().splitlines(keepends=True)[1:] == [line]


def test_a_mirror_file_that_cannot_be_made_breaks_the_log_at_once(tmp_path):
    (tmp_path / "runs").write_text("a file, not a folder")
    log = EventLog()
    log.emit(StartEvent, t="2026-03-02T14:00:00Z", scene="s")
    log.mirror_to(tmp_path / "runs" / "events.jsonl")
    log.emit_built(CallEvent, **CALL)
    assert log.broken == "events.jsonl could not be written: File exists"  # the folder is a file
    assert [e.kind for e in log] == ["start", "call"]


def test_a_listener_that_cannot_write_its_file_breaks_the_log_and_raises_nothing(tmp_path):
    def full(event: Event) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    log = EventLog()
    heard: list[Event] = []
    log.mirror_to(tmp_path / "events.jsonl")
    log.listen(full)
    log.listen(heard.append)
    log.emit(StartEvent, t="2026-03-02T14:00:00Z", scene="s")
    log.emit_built(CallEvent, **CALL)
    assert log.broken == "a file copied from the event log could not be written: No space left on device"
    assert heard == log.events
    assert (tmp_path / "events.jsonl").read_text() == log.events[0].model_dump_json() + "\n"  # stopped too


# A real limit of the kernel's: past RLIMIT_FSIZE a write is cut short at the limit, the next fails with EFBIG.
FILE_SIZE_LIMIT = """
import resource, signal, sys
from pathlib import Path
from soundstage.events import ClockEvent, EventLog

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # else the process is killed rather than told
resource.setrlimit(resource.RLIMIT_FSIZE, (1000, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
log = EventLog()
log.mirror_to(Path(sys.argv[1]))
for minutes in range(40):
    log.emit(ClockEvent, t="2026-03-02T14:00:00Z", advanced=f"{minutes}m")
print(log.broken, len(log.events))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_FSIZE as Linux applies it")
def test_a_file_size_limit_of_the_kernel_breaks_the_log_on_a_whole_line(tmp_path):
    path = tmp_path / "events.jsonl"
    done = subprocess.run(
        [sys.executable, "-c", FILE_SIZE_LIMIT, str(path)], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "events.jsonl could not be written: File too large 40\n",
        "",
    )
    lines = [
        ClockEvent(seq=n + 1, t="2026-03-02T14:00:00Z", advanced=f"{n}m").model_dump_json() + "\n" for n in range(40)
    ]
    whole = [line for n, line in enumerate(lines) if len("".join(lines[: n + 1])) <= 1000]
    assert len(whole) < 40 and path.read_text() == "".join(whole)


def test_a_saved_log_cut_short_is_read_without_its_last_line_and_says_so(tmp_path):
    path = tmp_path / "events.jsonl"
    start = StartEvent(seq=1, t="2026-03-02T14:00:00Z", scene="s")
    path.write_text(start.model_dump_json() + "\n" + '{"seq": 2, "kind": "ca')
    log = EventLog.read(path)
    assert (log.events, log.cut_short) == (
        [start],
        "events.jsonl: its last line is cut short (the run was stopped while writing it) and is left out",
    )
    path.write_text(start.model_dump_json() + "\n" + '{"seq": 2, "kind": "dream", "t": "x"}')  # whole, if unended
    with pytest.raises(ValueError) as caught:
        EventLog.read(path)
    assert str(caught.value) == f"{path}:2: not an event of the log: unknown event kind 'dream'"
