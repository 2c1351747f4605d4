"""Failed checks and log entries put into words, as `soundstage explain` and `Result.explain()` print them."""

from __future__ import annotations

from typing import Any

from soundstage.checks.explaining import check_lines, entry_line
from soundstage.grading.outcome import Outcome, combine, explain


def test_entry_lines_read_as_calls_and_writes() -> None:
    call = {
        "seq": 4,
        "t": "2026-03-02T14:00:10Z",
        "kind": "call",
        "service": "slack",
        "method": "POST",
        "path": "/api/chat.update",
        "status": 200,
        "response": {"ok": False, "error": "cant_update_message"},
    }
    write = {
        "seq": 5,
        "t": "2026-03-02T14:00:10Z",
        "kind": "write",
        "collection": "slack.messages",
        "id": "1772460010.000100",
        "op": "changed",
        "fields": ["text", "edited"],
        "by": 4,
    }
    assert entry_line(call) == "#4 2026-03-02T14:00:10Z slack POST /api/chat.update 200 error=cant_update_message"
    assert entry_line(write) == "#5 2026-03-02T14:00:10Z slack.messages 1772460010.000100 changed (text, edited), by #4"


def test_entry_lines_read_what_passed_between_agent_and_people() -> None:
    message = {
        "seq": 26,
        "t": "2026-03-02T14:00:55Z",
        "kind": "message",
        "ts": "1.000100",
        "channel": "C1",
        "user": "U1",
        "text": "Refund approved",
        "to": ["U2"],
        "facts": [],
        "thread_ts": None,
    }
    decided = {
        "seq": 46,
        "t": "2026-03-02T14:02:05Z",
        "kind": "decided",
        "person": "U3",
        "decision": "priya.refund",
        "option": "approve the refund",
        "by": "U1",
        "ts": "2.000100",
    }
    asked = {
        "seq": 7,
        "t": "2026-03-02T14:00:05Z",
        "kind": "asked",
        "person": "U2",
        "by": "U1",
        "fact": "laura.impact",
        "decision": None,
        "ts": "1.000100",
    }
    assert entry_line(message) == '#26 2026-03-02T14:00:55Z message U1 in C1 to [U2] carrying []: "Refund approved"'
    headers = {
        "sender": "maya@acme.test",
        "to": ["omar@acme.test"],
        "cc": ["priya@acme.test"],
        "bcc": [],
        "subject": "Hi",
    }
    mail = {**message, "service": "gmail", "ts": "m1", "channel": "t1", "text": "Hi\n\nW-4821?", "mail": headers}
    assert entry_line(mail) == (
        "#26 2026-03-02T14:00:55Z message: mail (gmail) from U1 <maya@acme.test> to [omar@acme.test] cc "
        '[priya@acme.test] subject "Hi" in thread t1, id m1, heard by [U2] carrying []: "W-4821?"'
    )
    assert entry_line(decided) == "#46 2026-03-02T14:02:05Z decided U3 decided priya.refund: approve the refund"
    assert entry_line(asked) == "#7 2026-03-02T14:00:05Z asked U1 asked U2 for laura.impact"
    answered = {
        "seq": 9,
        "t": "2026-03-02T14:10:00Z",
        "kind": "answered",
        "person": "U2",
        "service": "calendar",
        "event": "e1",
        "revision": 1,
        "response": "declined",
        "reason": "busy",
        "conflict": "e0",
        "decision": None,
        "by": "maya@acme.test",
    }
    assert entry_line(answered) == (
        "#9 2026-03-02T14:10:00Z answered U2 the calendar event e1 (revision 1): declined (busy e0)"
    )
    chosen = {**answered, "response": "tentative", "reason": "decision", "conflict": None, "decision": "omar.invites"}
    assert entry_line(chosen).endswith("tentative (decision omar.invites)")


def test_a_failed_check_reads_as_its_verdict_then_its_evidence() -> None:
    check = {
        "id": "posted",
        "kind": "trace",
        "passed": False,
        "required": True,
        "expected": "a post",
        "actual": "none",
        "explanation": "Failed: expected a post, but none.",
    }
    undecided = {**check, "id": "judged", "kind": "judge", "passed": None, "required": False}
    call = {
        "seq": 2,
        "t": "2026-03-02T14:00:00Z",
        "kind": "call",
        "service": "slack",
        "method": "POST",
        "path": "/api/chat.postMessage",
        "status": 200,
        "response": {"ok": True},
    }
    assert check_lines(check, [call]) == [
        "posted (trace): failed",
        "  expected:    a post",
        "  actual:      none",
        "  #2 2026-03-02T14:00:00Z slack POST /api/chat.postMessage 200",
    ]
    assert check_lines(undecided, [])[0] == "judged (judge): undecided, not required"


def _result(*parts: Outcome) -> dict[str, Any]:
    outcome = combine(list(parts))
    return {
        "id": "careful",
        "kind": "trace",
        "passed": outcome.passed,
        "required": True,
        "expected": outcome.expected,
        "actual": outcome.actual,
        "explanation": outcome.explanation or explain(outcome.passed, [(outcome.expected, outcome.actual)]),
    }


def test_the_explanation_is_a_line_only_where_it_says_more_than_expected_and_actual() -> None:
    posted = Outcome(True, "a post", "1 call matched (seq 4)")
    few = Outcome(False, "at most 5 calls", "the agent made 6 calls")
    clean = Outcome(False, "no call to get an error", "1 call did (seq 6)")

    one = check_lines(_result(few), [])
    some = check_lines(_result(posted, few, clean), [])
    every = check_lines(_result(few, clean), [])
    stored = check_lines({**_result(few), "explanation": "Not scored: its files changed since it was graded."}, [])

    assert one == ["careful (trace): failed", "  expected:    at most 5 calls", "  actual:      the agent made 6 calls"]
    assert some[1:] == [
        "  expected:    a post; at most 5 calls; no call to get an error",
        "  actual:      1 call matched (seq 4); the agent made 6 calls; 1 call did (seq 6)",
        "  explanation: not met: at most 5 calls; no call to get an error",
    ]
    assert [line.split(":")[0] for line in every] == ["careful (trace)", "  expected", "  actual"]
    assert stored[-1] == "  explanation: Not scored: its files changed since it was graded."


def test_entry_lines_read_milestones_faults_and_the_end_in_words() -> None:
    head = {"seq": 9, "t": "2026-03-02T14:00:40Z"}
    milestone = {**head, "kind": "milestone", "key": '{"slack.message":{"channel":"C1","text_contains":"done"}}'}

    assert entry_line(milestone) == (
        '#9 2026-03-02T14:00:40Z milestone state {"slack.message": {"channel": "C1", "text_contains": "done"}} held'
    )
    assert entry_line({**head, "kind": "fault_resolved", "fault": "bad_deploy"}) == (
        "#9 2026-03-02T14:00:40Z fault_resolved bad_deploy resolved"
    )
    assert entry_line({**head, "kind": "fault_started", "fault": "bad_deploy"}).endswith(" bad_deploy started")
    assert entry_line({**head, "kind": "clock", "advanced": "5m"}).endswith(" clock moved on 5m")
    assert entry_line({**head, "kind": "finish", "output": "done", "reason": "exited"}).endswith(
        ' finish the attempt ended (exited), output "done"'
    )
