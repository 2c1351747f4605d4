"""A scene's checks over a 100,000-entry event log give the right verdicts (how fast is measured by
benchmarks/bench.py, part (c), never by a timed assertion here)."""

from __future__ import annotations

from soundstage.checks import Attempt, evaluate, parse_checks
from soundstage.clock import US, iso, parse_time
from soundstage.events import CallEvent, Event, StartEvent, WriteEvent
from soundstage.services.github.store import ISSUES
from soundstage.services.slack.store import MESSAGES

ENTRIES = 100_000
REFS = {"support": "C0SUPPORT01", "bot": "U0STAGEBOT1", "question": "1772459000.000100"}
CHECKS = [
    {
        "id": "answered",
        "state": {
            "slack.message": {
                "channel": "$support",
                "from": "$bot",
                "in_thread_of": "$question",
                "text_contains": "reports",
            }
        },
    },
    {"id": "filed", "trace": {"called": "github:POST /repos/acme/orders/issues"}},
    {"id": "never", "trace": {"called": "POST /api/chat.postEphemeral"}},
    {"id": "read_only", "trace": {"not_called": ["DELETE /api/*", "PUT /api/*"]}},
    {
        "id": "posts",
        "trace": {
            "called": "POST /api/chat.postMessage",
            "times": {"at_least": 1},
            "with": {"body.channel": {"equals": "$support"}},
        },
    },
    {
        "id": "order",
        "trace": {
            "order": ["GET /api/conversations.history", "POST /api/chat.postMessage", "github:POST /repos/*/issues"]
        },
    },
    {"id": "shape", "trace": {"first": "*", "last": "*", "max_calls": 100_000, "no_errors": True}},
    {"id": "issue", "state": {"record": {"collection": "github.issues", "where": {"number": 49}}}},
    {"id": "grown", "state": {"diff": {"collection": "slack.messages", "change": "added", "count_gte": 1000}}},
    {"id": "few_writes", "state": {"writes": {"collection": "github.issues", "max": 10}}},
    {"id": "all_writes", "state": {"writes": {"max": 10}}},
    {"id": "said", "output": {"contains": "Reports", "similar_to": "It is under Reports."}},
]


def big_attempt() -> Attempt:
    start = parse_time("2026-03-02T14:00:00Z")
    events: list[Event] = [StartEvent(seq=1, t=iso(start), scene="big")]
    messages, issues = [], []
    while len(events) < ENTRIES:
        seq = len(events) + 1
        n, t = len(messages), iso(start + seq * US)
        step = seq % 4
        if step == 0:
            events.append(
                CallEvent(
                    seq=seq,
                    t=t,
                    service="slack",
                    method="GET",
                    path="/api/conversations.history",
                    query={"channel": "C0SUPPORT01"},
                    status=200,
                )
            )
        elif step == 1:
            body = {"channel": "C0SUPPORT01", "text": f"Reports {n}", "thread_ts": "1772459000.000100"}
            events.append(
                CallEvent(
                    seq=seq, t=t, service="slack", method="POST", path="/api/chat.postMessage", body=body, status=200
                )
            )
        elif step == 2:
            ts = f"{1772460000 + n}.000100"
            messages.append(
                {
                    "channel": "C0SUPPORT01",
                    "user": "U0STAGEBOT1",
                    "text": f"Reports {n}",
                    "ts": ts,
                    "thread_ts": "1772459000.000100",
                }
            )
            events.append(WriteEvent(seq=seq, t=t, collection=MESSAGES, op="added", id=f"C0SUPPORT01/{ts}", by=seq - 1))
        elif n % 50 == 0:
            events.append(
                CallEvent(seq=seq, t=t, service="github", method="POST", path="/repos/acme/orders/issues", status=201)
            )
            issues.append({"number": n, "title": f"Export {n}", "state": "open"})
        else:
            events.append(
                CallEvent(
                    seq=seq, t=t, service="github", method="GET", path=f"/repos/acme/orders/issues/{n}", status=200
                )
            )
    state = {ISSUES: issues, MESSAGES: messages}
    diff = {MESSAGES: {"added": messages, "removed": [], "changed": []}}
    return Attempt(events, state, diff, "It is under Reports.", REFS)


def test_a_scene_over_a_100k_log():
    attempt = big_attempt()
    checks = parse_checks(CHECKS, REFS)
    evaluation = evaluate(checks, attempt)
    assert {r.id: r.passed for r in evaluation.checks} == {
        "answered": True,
        "filed": True,
        "never": False,
        "read_only": True,
        "posts": True,
        "order": True,
        "shape": True,
        "issue": False,
        "grown": True,
        "few_writes": True,
        "all_writes": False,
        "said": True,
    }
    assert len(attempt.events) == ENTRIES
