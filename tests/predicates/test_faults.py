"""The `fault_resolved` state check on hand-made logs: resolved, still active, started again, never started."""

from __future__ import annotations

from collections.abc import Callable

from tests.attempts import T0, Log

from soundstage.checks import Attempt, CheckResult
from soundstage.clock import US, iso
from soundstage.events import FaultResolvedEvent, FaultStartedEvent
from soundstage.services.github.store import REPOS


def _fault(log: Log, kind: type[FaultStartedEvent | FaultResolvedEvent], fault: str = "bad_deploy") -> int:
    seq = len(log.events) + 1
    log.events.append(kind(seq=seq, t=iso(T0 + seq * 5 * US), fault=fault))
    return seq


def _check(result: Callable[..., CheckResult], log: Log) -> CheckResult:
    return result({"state": {"fault_resolved": {"fault": "bad_deploy"}}}, Attempt(log.events))


def test_a_resolved_fault_passes_with_its_event(log: Log, result: Callable[..., CheckResult]) -> None:
    _fault(log, FaultStartedEvent)
    call = log.call("PUT", "/repos/acme/orders/pulls/3/merge", service="github")
    log.write(REPOS, "changed", "acme/orders", by=call, fields=["production"])
    resolved = _fault(log, FaultResolvedEvent)
    _fault(log, FaultStartedEvent, fault="other")
    checked = _check(result, log)
    assert (checked.passed, checked.expected, checked.actual, checked.evidence) == (
        True,
        "fault bad_deploy resolved at the end",
        "it was resolved at 2026-03-02T14:00:25Z",
        [resolved],
    )


def test_an_active_fault_fails(log: Log, result: Callable[..., CheckResult]) -> None:
    started = _fault(log, FaultStartedEvent)
    checked = _check(result, log)
    assert (checked.passed, checked.actual, checked.evidence) == (
        False,
        "it is still active, since 2026-03-02T14:00:10Z",
        [started],
    )


def test_the_latest_episode_counts(log: Log, result: Callable[..., CheckResult]) -> None:
    _fault(log, FaultStartedEvent)
    _fault(log, FaultResolvedEvent)
    again = _fault(log, FaultStartedEvent)
    assert (_check(result, log).passed, _check(result, log).evidence) == (False, [again])
    resolved = _fault(log, FaultResolvedEvent)
    checked = _check(result, log)
    assert (checked.passed, checked.actual, checked.evidence) == (
        True,
        "it was resolved at 2026-03-02T14:00:25Z (it started 2 times)",
        [resolved],
    )


def test_a_fault_that_never_started_fails(log: Log, result: Callable[..., CheckResult]) -> None:
    _fault(log, FaultStartedEvent, fault="other")
    checked = _check(result, log)
    assert (checked.passed, checked.actual, checked.evidence) == (False, "fault bad_deploy never started", [])
