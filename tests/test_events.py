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
