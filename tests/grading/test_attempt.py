"""Attempts from a live world and from a saved trial folder, and the indexes built on them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from soundstage.checks import Attempt, CallPattern, evaluate, parse_checks
from soundstage.clock import Clock, parse_time
from soundstage.errors import NotFound, UsageError
from soundstage.events import EVENT_KINDS, CallEvent, ClockEvent, Event, EventLog, StartEvent, WriteEvent
from soundstage.grading.attempt import write_evidence
from soundstage.grading.outcome import EVIDENCE_LIMIT
from soundstage.ids import IdSource
from soundstage.services.slack.store import MESSAGES
from soundstage.world import Collection, Principal, World

SCENE_CHECKS = [
    {
        "id": "answered",
        "state": {"slack.message": {"channel": "$support", "from": "$bot", "in_thread_of": "$question"}},
    },
    {"id": "closed", "state": {"diff": {"collection": "github.issues", "changes": {"state": {"to": "closed"}}}}},
    {"id": "quiet", "trace": {"max_calls": 3}},
    {"id": "said", "output": {"contains": "thread"}},
]


def write_trial(folder: Path, office) -> Path:
    folder.mkdir()
    (folder / "events.jsonl").write_text("".join(e.model_dump_json() + "\n" for e in office.events))
    (folder / "state.json").write_text(json.dumps(office.state))
    (folder / "diff.json").write_text(json.dumps(office.diff))
    (folder / "output.txt").write_text(office.output)
    scene = {
        "name": "office",
        "task": "Answer the question in #support.",
        "refs": {"support": "C0SUPPORT01", "bot": "U0STAGEBOT1", "question": "1772459000.000100"},
        "checks": SCENE_CHECKS,
        "pass": ["answered", "closed"],
        "world": "acme",
    }
    (folder / "scene.json").write_text(json.dumps(scene))
    return folder


def test_load_reads_a_trial_folder_and_scores_it_again(tmp_path, office):
    attempt = Attempt.load(write_trial(tmp_path / "1", office))
    assert (attempt.scene, attempt.task, attempt.output, attempt.pass_ids) == (
        "office",
        "Answer the question in #support.",
        "Answered Laura in the thread.\n",
        ["answered", "closed"],
    )
    assert attempt.events == office.events
    assert attempt.state == office.state and attempt.diff == office.diff
    assert attempt.finish.seq == 14
    evaluation = evaluate(parse_checks(attempt.checks, attempt.refs), attempt, attempt.pass_ids)
    assert [(r.id, r.required, r.passed, r.evidence) for r in evaluation.checks] == [
        ("answered", True, True, [2, 3]),
        ("closed", True, True, [9, 10]),
        ("quiet", False, False, [9]),
        ("said", False, True, [14]),
    ]
    assert evaluation.passed is True


def test_load_without_output_gives_none(tmp_path, office):
    folder = write_trial(tmp_path / "1", office)
    (folder / "output.txt").unlink()
    assert Attempt.load(folder).output is None


def test_load_errors_say_which_file(tmp_path, office):
    with pytest.raises(NotFound, match="no trial folder at"):
        Attempt.load(tmp_path / "missing")
    folder = write_trial(tmp_path / "1", office)
    (folder / "diff.json").unlink()
    with pytest.raises(NotFound) as caught:
        Attempt.load(folder)
    assert str(caught.value) == f"the trial folder {folder} has no diff.json"
    (folder / "diff.json").write_text("[1]")
    with pytest.raises(UsageError) as caught:
        Attempt.load(folder)
    assert str(caught.value) == f"{folder / 'diff.json'}: Input should be an object"
    (folder / "diff.json").write_text("{")
    with pytest.raises(UsageError, match=r"diff.json: Invalid JSON"):
        Attempt.load(folder)
    (folder / "diff.json").write_text("{}")
    (folder / "scene.json").write_text('{"task": "x"}')
    with pytest.raises(UsageError, match=r"scene.json: name: Field required"):
        Attempt.load(folder)
    (folder / "events.jsonl").write_text('{"seq": 1, "kind": "dream", "t": "x"}\n')
    with pytest.raises(UsageError) as caught:
        Attempt.load(folder)
    assert str(caught.value) == f"{folder / 'events.jsonl'}:1: not an event of the log: unknown event kind 'dream'"


def test_a_log_cut_short_is_read_without_its_last_line_and_says_so(tmp_path, office):
    folder = write_trial(tmp_path / "1", office)
    whole = (folder / "events.jsonl").read_text()
    (folder / "events.jsonl").write_text(whole + whole.splitlines()[1][:40])  # the run stopped mid-line
    attempt = Attempt.load(folder)
    assert attempt.events == office.events
    assert attempt.notes == [
        "events.jsonl: its last line is cut short (the run was stopped while writing it) and is left out"
    ]
    assert Attempt.load(write_trial(tmp_path / "2", office)).notes == []


def test_a_line_that_is_no_json_before_the_last_one_is_an_error_naming_it(tmp_path, office):
    folder = write_trial(tmp_path / "1", office)
    lines = (folder / "events.jsonl").read_text().splitlines(keepends=True)
    broken = '{"seq": 3, "kind": \n'
    (folder / "events.jsonl").write_text("".join([*lines[:2], broken, *lines[3:]]))
    with pytest.raises(UsageError) as caught:
        Attempt.load(folder)
    assert str(caught.value) == f"{folder / 'events.jsonl'}:3: not JSON: Expecting value: line 2 column 1 (char 20)"
    (folder / "events.jsonl").write_text("".join([*lines, broken]))  # last, but whole: not cut short
    with pytest.raises(UsageError) as caught:
        Attempt.load(folder)
    assert str(caught.value) == (
        f"{folder / 'events.jsonl'}:{len(lines) + 1}: not JSON: Expecting value: line 2 column 1 (char 20)"
    )


def world_with_a_reply() -> World:
    start = parse_time("2026-03-02T14:00:00Z")
    question = {"channel": "C1", "user": "U2", "text": "Where is the export?", "ts": "1772460000.000100"}
    note = {"channel": "C1", "user": "U2", "text": "Also, hello", "ts": "1772460001.000100"}
    messages = Collection(MESSAGES, {"C1/1": question, "C1/2": note})
    world = World(
        "w1",
        "office",
        {MESSAGES: messages},
        Clock(start),
        IdSource("seed"),
        {MESSAGES: dict(messages._records)},
        refs={"support": "C1", "bot": "U1"},
        task="Answer.",
    )
    world.tokens["xoxb-1-secret"] = Principal("slack", "U1")
    at = world.begin_call()
    world[MESSAGES].add(
        "C1/3",
        {
            "channel": "C1",
            "user": "U1",
            "text": "Under Reports.",
            "ts": "1772460010.000100",
            "thread_ts": "1772460000.000100",
        },
    )
    world.end_call(at, service="slack", method="POST", path="/api/chat.postMessage", status=200, body={"channel": "C1"})
    # A call that failed half-way: its removal is undone, which puts the question last in the collection.
    at = world.begin_call()
    world[MESSAGES].remove("C1/1")
    world.rollback()
    world.end_call(
        at,
        service="slack",
        method="POST",
        path="/api/chat.delete",
        status=200,
        response={"ok": False, "error": "cant_delete_message"},
        error=True,
    )
    world.output = "Answered."
    return world


def test_from_world_reads_the_live_world():
    world = world_with_a_reply()
    attempt = Attempt.from_world(world)
    assert [e.kind for e in attempt.events] == ["start", "call", "write", "call"]
    assert [m["text"] for m in attempt.state[MESSAGES]] == [
        "Also, hello",
        "Under Reports.",
        "Where is the export?",
    ]
    assert attempt.diff == world.diff()
    assert (attempt.output, attempt.refs, attempt.task, attempt.scene) == (
        "Answered.",
        {"support": "C1", "bot": "U1"},
        "Answer.",
        "office",
    )
    assert attempt.secrets == {"xoxb-1-secret"}
    (check,) = parse_checks(
        [{"id": "a", "state": {"slack.message": {"from": "$bot", "text_contains": "reports"}}}], attempt.refs
    )
    assert evaluate([check], attempt).checks[0].evidence == [2, 3]  # exact ids from the world, whatever the order


def test_record_ids_are_worked_out_from_the_log(log):
    first = log.call("POST", "/api/chat.postMessage")  # 2
    log.write(MESSAGES, "added", "k1", by=first)  # 3
    second = log.call("POST", "/api/chat.postMessage")  # 4
    log.write(MESSAGES, "added", "k2", by=second)  # 5
    gone = log.call("POST", "/api/chat.delete")  # 6
    log.write(MESSAGES, "removed", "k1", by=gone)  # 7
    again = log.call("POST", "/api/chat.postMessage")  # 8
    log.write(MESSAGES, "added", "k1", by=again)  # 9
    starter, two, one = {"text": "starter"}, {"text": "two"}, {"text": "one again"}
    attempt = Attempt(log.events, {MESSAGES: [starter, two, one]})
    assert attempt.record_evidence(MESSAGES, starter) == []
    assert attempt.record_evidence(MESSAGES, two) == [4, 5]
    assert attempt.record_evidence(MESSAGES, one) == [2, 3, 6, 7, 8, 9]
    assert attempt.record_evidence(MESSAGES, {"text": "never there"}) == []


def test_indexes_are_built_once(log):
    for path in ("/api/chat.postMessage", "/api/chat.update", "/api/chat.postMessage"):
        log.call("POST", path)
    log.call("post", "/repos/a/b/issues", service="github")
    attempt = Attempt(log.events)
    assert attempt.signatures == {
        ("slack", "POST"): {
            "/api/chat.postMessage": [attempt.calls[0], attempt.calls[2]],
            "/api/chat.update": [attempt.calls[1]],
        },
        ("github", "POST"): {"/repos/a/b/issues": [attempt.calls[3]]},
    }
    pattern = CallPattern.parse("POST /api/chat.*")
    found = attempt.calls_matching(pattern)
    assert [c.seq for c in found] == [2, 3, 4]
    assert attempt.calls_matching(CallPattern.parse("POST /api/chat.*")) is found
    assert attempt.calls_matching(CallPattern.parse("*")) is attempt.calls
    assert attempt.index(MESSAGES, "channel") == {}


def test_label_names_ids_by_their_refs(log):
    attempt = Attempt(log.events, refs={"support": "C1", "help": "C1", "bot": "U1"})
    assert (attempt.label("C1"), attempt.label("U1"), attempt.label("U9"), attempt.label(5)) == (
        "C1 ($help)",
        "U1 ($bot)",
        "U9",
        "5",
    )


def test_an_event_log_written_by_the_world_reads_back(tmp_path):
    world = world_with_a_reply()
    world.log.mirror_to(tmp_path / "events.jsonl")
    world.log.close()
    assert EventLog.read(tmp_path / "events.jsonl").events == Attempt.from_world(world).events


T = "2026-03-02T14:00:00Z"


def _order(index):
    """A nested index with its order made visible: == on dicts alone ignores it."""
    if isinstance(index, dict):
        return [(key, _order(value)) for key, value in index.items()]
    return [event.seq for event in index]


@pytest.mark.parametrize("agents_only", [False, True])
def test_the_log_indexes_made_in_one_pass_agree_with_one_pass_each(agents_only):
    rng = random.Random(14)
    events: list[Event] = [StartEvent(seq=1, t=T, scene="s")]
    for seq in range(2, 600):
        roll = rng.random()
        if roll < 0.5:
            events.append(
                CallEvent(
                    seq=seq,
                    t=T,
                    service=rng.choice(["slack", "github"]),
                    method=rng.choice(["GET", "get", "POST"]),
                    path=rng.choice(["/a", "/b", "/c/1"]),
                    status=rng.choice([200, 200, 404, 500]),
                    error=rng.random() < 0.1,
                )
            )
        elif roll < 0.9:
            events.append(
                WriteEvent(
                    seq=seq,
                    t=T,
                    collection=rng.choice(["x", "y"]),
                    op=rng.choice(["added", "changed"]),
                    id=rng.choice("pqrs"),
                    by=seq - 1 if agents_only else rng.choice([None, seq - 1]),
                )
            )
        else:
            events.append(ClockEvent(seq=seq, t=T, advanced="1m"))
    attempt = Attempt(events)
    calls = [e for e in events if isinstance(e, CallEvent)]
    writes = [e for e in events if isinstance(e, WriteEvent)]
    signatures: dict = {}
    every: dict = {}
    agents: dict = {}
    for call in calls:
        signatures.setdefault((call.service, call.method.upper()), {}).setdefault(call.path, []).append(call)
    for write in writes:
        every.setdefault(write.collection, {}).setdefault(write.id, []).append(write)
        if write.by is not None:
            agents.setdefault(write.collection, {}).setdefault(write.id, []).append(write)
    assert attempt.calls == calls and attempt.writes == writes
    assert _order(attempt.signatures) == _order(signatures)
    assert attempt.failed_calls == [c for c in calls if c.error or c.status >= 400]
    assert _order(attempt.writes_by_record) == _order(every)
    assert _order(attempt.agent_writes) == _order(agents)


def test_write_evidence_keeps_the_earliest_seqs_a_result_keeps():
    writes = [WriteEvent(seq=seq, t=T, collection="x", op="changed", id="p", by=seq - 1) for seq in range(900, 2, -3)]
    every = sorted({w.seq for w in writes} | {w.by for w in writes if w.by is not None})
    assert len(every) > EVIDENCE_LIMIT
    assert write_evidence(writes) == every[:EVIDENCE_LIMIT]


def world_like_log(rng: random.Random, late_by: int | None = None) -> list[Event]:
    """Calls each followed by the writes it caused, then now and then writes of the world's own, as a world logs
    them: the first call writes q only, the others p (mostly) or q. `late_by`: a last write of p says that call
    caused it, as no world logs."""
    events: list[Event] = [StartEvent(seq=1, t=T, scene="s")]

    def add(model: type[Event], **fields) -> int:
        events.append(model(seq=len(events) + 1, t=T, **fields))
        return len(events)

    first = add(CallEvent, service="slack", method="POST", path="/a", status=200)
    add(WriteEvent, collection="x", op="changed", id="q", by=first)
    while len(events) < 900:
        call = add(CallEvent, service="slack", method="POST", path="/a", status=200)
        for _ in range(rng.randrange(3)):
            add(WriteEvent, collection="x", op="changed", id=rng.choice("ppq"), by=call)
        for _ in range(rng.choice([0, 0, 1])):
            add(WriteEvent, collection=rng.choice("xy"), op="changed", id=rng.choice("pq"))
    if late_by is not None:
        add(WriteEvent, collection="x", op="changed", id="p", by=late_by)
    return events


@pytest.mark.parametrize("late_by", [None, 2])
def test_evidence_of_writes_is_the_earliest_seqs_whatever_order_the_log_is_in(late_by):
    attempt = Attempt(world_like_log(random.Random(5), late_by))
    # Only the log as a world writes it lets evidence stop at a record's earliest writes.
    assert attempt._log.ordered is (late_by is None)
    for index in (attempt.writes_by_record, attempt.agent_writes):
        records = index["x"]
        assert len(records["p"]) > EVIDENCE_LIMIT
        for writes in records.values():
            assert attempt.writes_evidence([writes]) == write_evidence(writes)
        assert attempt.writes_evidence(records.values()) == write_evidence(w for ws in records.values() for w in ws)
    # The call at seq 2 wrote only q, until the late write of p said it caused that too.
    assert (2 in attempt.writes_evidence([attempt.writes_by_record["x"]["p"]])) is (late_by == 2)


def every_kind_log(log) -> None:
    """An entry of every kind, between an agent's calls and their writes."""
    post = log.call("POST", "/api/chat.postMessage", body={"channel": "C1"})
    log.write(MESSAGES, "added", "C1/1", by=post)
    log.event(ClockEvent, advanced="5m")
    log.event(EVENT_KINDS["message"], ts="1.1", channel="C1", user="U1", text="hi", to=["U2"], from_agent=True)
    log.event(EVENT_KINDS["asked"], person="U2", by="U1", fact="laura.plan", ts="1.1")
    log.event(EVENT_KINDS["revealed"], person="U2", fact="laura.plan", to="U1", ts="1.2")
    log.event(EVENT_KINDS["withheld"], person="U2", fact="laura.secret", to="U1", reason="confidential", ts="1.2")
    log.event(EVENT_KINDS["referred"], person="U2", fact="laura.x", owner="U3", to="U1", ts="1.2")
    log.event(EVENT_KINDS["told"], person="U2", fact="laura.plan", ts="1.1")
    log.event(EVENT_KINDS["knows"], person="U2", fact="laura.plan", source="agent", ts="1.1")
    log.event(EVENT_KINDS["decided"], person="U2", decision="laura.refund", option="yes", by="U1", ts="1.2")
    log.event(EVENT_KINDS["script"], person="U2", ts="1.3", channel="C1", text="later", trigger="at 10m")
    log.event(EVENT_KINDS["milestone"], key='{"writes": {"min": 1}}')
    log.event(EVENT_KINDS["fault_started"], fault="bad_deploy")
    log.event(EVENT_KINDS["fault_resolved"], fault="bad_deploy")
    log.write(MESSAGES, "changed", "C1/1", fields=["text"])  # the world's own
    edit = log.call("POST", "/api/chat.update", status=400, error=True)
    log.write(MESSAGES, "changed", "C1/1", by=edit, fields=["text"])
    log.event(EVENT_KINDS["after_finish"], service="slack", method="POST", path="/api/chat.postMessage", status=401)
    # The agent's model, reached through the proxy: a line of the trace, neither a call to the world nor a write.
    usage = {"prompt_tokens": 30, "completion_tokens": 12, "total_tokens": 42}
    log.event(
        EVENT_KINDS["model_call"],
        host="api.openai.com:443",
        method="POST",
        path="/v1/chat/completions",
        status=200,
        usage=usage,
    )
    answered = {"service": "calendar", "event": "e1", "revision": 0, "response": "accepted", "reason": "free"}
    log.event(EVENT_KINDS["answered"], person="U2", by="maya@acme.test", **answered)
    log.finish("Done.")


EVERY_KIND_CHECKS = [
    {"id": "posted", "trace": {"called": "POST /api/chat.postMessage", "times": {"exactly": 1}}},
    {"id": "clean", "trace": {"no_errors": True, "max_calls": 5}},
    {"id": "wrote", "state": {"writes": {"collection": MESSAGES, "max": 0}}},
    {"id": "there", "state": {"record": {"collection": MESSAGES, "where": {"text": "reports"}}}},
]


def test_checks_after_entries_of_every_kind_read_only_calls_and_writes_and_score_the_same_saved(log, tmp_path):
    every_kind_log(log)
    assert {e.kind for e in log.events} == set(EVENT_KINDS)
    state = {MESSAGES: [{"channel": "C1", "ts": "1.1", "text": "Under Reports"}]}
    attempt = Attempt(log.events, state, keys={MESSAGES: ["C1/1"]})
    assert [c.seq for c in attempt.calls] == [2, 18]
    assert [w.seq for w in attempt.writes] == [3, 17, 19]
    assert _order(attempt.signatures) == [
        (("slack", "POST"), [("/api/chat.postMessage", [2]), ("/api/chat.update", [18])])
    ]
    assert [c.seq for c in attempt.failed_calls] == [18]
    assert _order(attempt.writes_by_record) == [(MESSAGES, [("C1/1", [3, 17, 19])])]
    assert _order(attempt.agent_writes) == [(MESSAGES, [("C1/1", [3, 19])])]
    checks = parse_checks(EVERY_KIND_CHECKS, {})
    results = evaluate(checks, attempt).checks
    assert [(r.id, r.passed, r.actual, r.evidence) for r in results] == [
        ("posted", True, "1 call matched (seq 2)", [2]),
        ("clean", False, "the agent made 2 calls; 1 call did: POST /api/chat.update got HTTP 400 (seq 18)", [18]),
        (
            "wrote",
            False,
            "the agent wrote 1 record in slack.messages: slack.messages C1/1 added and changed (seq 3 and 19)",
            [2, 3, 18, 19],
        ),
        ("there", True, '1 record did: ts "1.1", text "Under Reports"', [2, 3, 17, 18, 19]),
    ]
    saved = tmp_path / "events.jsonl"
    saved.write_text("".join(e.model_dump_json() + "\n" for e in log.events))
    again = Attempt(EventLog.read(saved).events, state, keys={MESSAGES: ["C1/1"]})
    assert evaluate(checks, again).checks == results
