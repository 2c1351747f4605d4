"""Hand-made attempts for check tests: an event log built call by call, with exact seqs and simulated times
(`Log`), a small office's attempt (`Office`), and the fixtures `log`, `result` and `office` (a plugin of
the root conftest, so the check tests of every package can use them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from soundstage.checks import Attempt, CheckResult, parse_checks, run_check
from soundstage.clock import US, iso, parse_time
from soundstage.events import CallEvent, Event, FinishEvent, StartEvent, WriteEvent
from soundstage.services.datadog.store import MONITORS
from soundstage.services.github.store import ISSUES, LABELS
from soundstage.services.slack.store import MESSAGES

T0 = parse_time("2026-03-02T14:00:00Z")


class Log:
    """Builds an event log: `start` at seq 1, then each entry at the next seq, 5 simulated seconds apart."""

    def __init__(self) -> None:
        self.events: list[Event] = [StartEvent(seq=1, t=iso(T0), scene="test", task="Answer #support.")]

    def _next(self) -> tuple[int, str]:
        seq = len(self.events) + 1
        return seq, iso(T0 + seq * 5 * US)

    def call(
        self,
        method: str,
        path: str,
        service: str = "slack",
        status: int = 200,
        body: Any = None,
        query: dict[str, Any] | None = None,
        response: Any = None,
        error: bool = False,
        operation: str | None = None,
    ) -> int:
        seq, t = self._next()
        self.events.append(
            CallEvent(
                seq=seq,
                t=t,
                service=service,
                method=method,
                path=path,
                operation=operation,
                status=status,
                body=body,
                query=query or {},
                response=response,
                error=error,
            )
        )
        return seq

    def write(
        self, collection: str, op: str, record_id: str, by: int | None = None, fields: list[str] | None = None
    ) -> int:
        seq, t = self._next()
        self.events.append(
            WriteEvent(seq=seq, t=t, collection=collection, op=op, id=record_id, by=by, fields=fields or [])
        )
        return seq

    def event(self, model: type[Event], **fields: Any) -> int:
        """Any other kind of event: `log.event(RevealedEvent, person=..., fact=..., to=..., ts=...)`."""
        seq, t = self._next()
        self.events.append(model(seq=seq, t=t, **fields))
        return seq

    def finish(self, output: str) -> int:
        seq, t = self._next()
        self.events.append(FinishEvent(seq=seq, t=t, output=output))
        return seq


@pytest.fixture
def log() -> Log:
    return Log()


@pytest.fixture
def result() -> Callable[..., CheckResult]:
    """Parses one check (without its id) and runs it: `result({"trace": {...}}, attempt, refs)`."""

    def run(spec: dict[str, Any], attempt: Attempt, refs: dict[str, str] | None = None) -> CheckResult:
        (check,) = parse_checks([{"id": "c", **spec}], refs or attempt.refs)
        return run_check(check, attempt)

    return run


REFS = {
    "support": "C0SUPPORT01",
    "general": "C0GENERAL01",
    "bot": "U0STAGEBOT1",
    "laura": "U0LAURA0001",
    "question": "1772459000.000100",
    "latency": "123",
}
QUESTION = {
    "channel": "C0SUPPORT01",
    "user": "U0LAURA0001",
    "text": "Where do I find the CSV export?",
    "ts": "1772459000.000100",
}
ANSWERED = {**QUESTION, "thread_ts": "1772459000.000100", "reactions": [{"name": "eyes", "users": ["U0STAGEBOT1"]}]}
HELLO = {"channel": "C0GENERAL01", "user": "U0STAGEBOT1", "text": "Hello everyone", "ts": "1772458000.000100"}
REPLY = {
    "channel": "C0SUPPORT01",
    "user": "U0STAGEBOT1",
    "text": "It is under Reports > Export; it takes a minute.",
    "ts": "1772460010.000100",
    "thread_ts": "1772459000.000100",
}
THANKS = {
    "channel": "C0SUPPORT01",
    "user": "U0LAURA0001",
    "text": "Thanks!",
    "ts": "1772460030.000200",
    "thread_ts": "1772459000.000100",
}
OPEN_ISSUE = {"number": 7, "title": "Export times out", "state": "open", "labels": [{"name": "bug"}]}
CLOSED_ISSUE = {**OPEN_ISSUE, "state": "closed", "labels": []}
NEW_ISSUE = {"number": 101, "title": "CSV export docs", "state": "open", "labels": [{"name": "docs"}]}
WONTFIX = {"name": "wontfix", "color": "ffffff"}
MONITOR = {"id": 123, "name": "orders p99 latency", "overall_state": "Alert"}


class Office:
    """An attempt in a small office: the agent answered a question in a thread, reacted to it, filed one
    issue, closed another and removed a label; a person replied and a fault set a monitor off."""

    def __init__(self, log: Log) -> None:
        post = log.call("POST", "/api/chat.postMessage", body={"channel": "C0SUPPORT01", "text": REPLY["text"]})  # 2
        log.write(MESSAGES, "added", "C0SUPPORT01/1772460010.000100", by=post)  # 3
        log.write(MESSAGES, "added", "C0SUPPORT01/1772460030.000200")  # 4: Laura's reply
        react = log.call("POST", "/api/reactions.add", body={"name": "eyes"})  # 5
        log.write(
            MESSAGES, "changed", "C0SUPPORT01/1772459000.000100", by=react, fields=["thread_ts", "reactions"]
        )  # 6
        filed = log.call("POST", "/repos/acme/orders/issues", service="github", status=201)  # 7
        log.write(ISSUES, "added", "101", by=filed)  # 8
        closed = log.call("PATCH", "/repos/acme/orders/issues/7", service="github")  # 9
        log.write(ISSUES, "changed", "107", by=closed, fields=["state", "labels"])  # 10
        dropped = log.call("DELETE", "/repos/acme/orders/labels/wontfix", service="github", status=204)  # 11
        log.write(LABELS, "removed", "wontfix", by=dropped)  # 12
        log.write(MONITORS, "changed", "123", fields=["overall_state"])  # 13: a fault
        self.finish = log.finish("Answered Laura in the thread.\n")  # 14
        self.events = log.events
        self.state = {
            MONITORS: [MONITOR],
            ISSUES: [CLOSED_ISSUE, NEW_ISSUE],
            LABELS: [],
            MESSAGES: [HELLO, ANSWERED, REPLY, THANKS],
        }
        self.diff = {
            MONITORS: {
                "added": [],
                "removed": [],
                "changed": [
                    {"id": "123", "record": MONITOR, "changes": {"overall_state": {"from": "OK", "to": "Alert"}}}
                ],
            },
            ISSUES: {
                "added": [NEW_ISSUE],
                "removed": [],
                "changed": [
                    {
                        "id": "107",
                        "record": CLOSED_ISSUE,
                        "changes": {
                            "state": {"from": "open", "to": "closed"},
                            "labels": {"from": [{"name": "bug"}], "to": []},
                        },
                    }
                ],
            },
            LABELS: {"added": [], "removed": [WONTFIX], "changed": []},
            MESSAGES: {
                "added": [REPLY, THANKS],
                "removed": [],
                "changed": [
                    {
                        "id": "C0SUPPORT01/1772459000.000100",
                        "record": ANSWERED,
                        "changes": {
                            "thread_ts": {"from": None, "to": "1772459000.000100"},
                            "reactions": {"from": None, "to": ANSWERED["reactions"]},
                        },
                    }
                ],
            },
        }
        self.output = "Answered Laura in the thread.\n"

    def attempt(self) -> Attempt:
        return Attempt(self.events, self.state, self.diff, self.output, REFS, "Answer the question in #support.")


@pytest.fixture
def office(log: Log) -> Office:
    return Office(log)
