import json

import pytest

from soundstage.events import CallEvent, EventLog, StartEvent, WriteEvent, parse_event


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
