"""Datadog's state checks: `datadog.monitor` (a monitor's state and muting) and `datadog.downtime` (an active
downtime covering a monitor, with enough time left and not too long in all).

They read records only (a saved trial has nothing else): `datadog.monitors` (`id`, `name`, `tags`,
`overall_state`) and `datadog.downtimes` (`monitor_identifier`, `schedule` {start, end} and `canceled` in
epoch microseconds). "The end" is the time of the attempt's last event.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import model_validator

from ...clock import format_duration, parse_duration, parse_time
from ...grading.attempt import Attempt, Record
from ...grading.kinds import Args, state_check
from ...grading.outcome import Outcome
from ...grading.words import listing, show
from ...spec.fields import Duration
from .store import DOWNTIMES, MONITORS, downtime_matches, downtime_status

MonitorState = Literal["OK", "Alert", "Warn", "No Data"]


def _end(attempt: Attempt) -> int:
    return parse_time(attempt.events[-1].t) if attempt.events else 0


def _monitor(attempt: Attempt, wanted: str | int) -> Record | None:
    """A monitor by id (a ref resolves to it) or by exact name."""
    text = str(wanted)
    for record in attempt.records(MONITORS):
        if str(record.get("id")) == text or record.get("name") == text:
            return record
    return None


def _name(attempt: Attempt, record: Record) -> str:
    return f"{attempt.label(str(record.get('id')))} {show(record.get('name', ''), 60)}"


def _no_monitor(attempt: Attempt, wanted: str | int) -> str:
    known = [show(r.get("name", ""), 40) for r in attempt.records(MONITORS)][:5]
    return f"there is no monitor {attempt.label(str(wanted))}" + (f" (there are {listing(known)})" if known else "")


def _active(attempt: Attempt, monitor: Record, at: int) -> list[Record]:
    return [
        d for d in attempt.records(DOWNTIMES) if downtime_matches(d, monitor) and downtime_status(d, at) == "active"
    ]


# -- datadog.monitor ----------------------------------------------------------------------------------


class MonitorArgs(Args):
    monitor: str | int  # a ref, an id or a name
    state: MonitorState | None = None
    muted: bool | None = None

    @model_validator(mode="after")
    def _something(self) -> MonitorArgs:
        if self.state is None and self.muted is None:
            raise ValueError("datadog.monitor needs state (OK, Alert, Warn, No Data) or muted (true or false)")
        return self


@state_check("datadog.monitor", MonitorArgs)
def monitor(args: MonitorArgs, attempt: Attempt) -> Outcome:
    wanted = [f"in state {args.state}"] if args.state is not None else []
    wanted += [] if args.muted is None else ["muted" if args.muted else "not muted"]
    expected = f"monitor {attempt.label(str(args.monitor))} {' and '.join(wanted)} at the end"
    record = _monitor(attempt, args.monitor)
    if record is None:
        return Outcome(False, expected, _no_monitor(attempt, args.monitor))
    active = _active(attempt, record, _end(attempt))
    found = [f"{_name(attempt, record)} is {record.get('overall_state')}"]
    found.append(f"muted by {len(active)} active downtime{'s' if len(active) > 1 else ''}" if active else "not muted")
    passed = (args.state is None or record.get("overall_state") == args.state) and (
        args.muted is None or bool(active) == args.muted
    )
    seqs = attempt.record_evidence(MONITORS, record) + attempt.evidence(DOWNTIMES, active)
    return Outcome(passed, expected, " and ".join(found), seqs)


# -- datadog.downtime ---------------------------------------------------------------------------------


class DowntimeArgs(Args):
    monitor: str | int  # a ref, an id or a name
    remaining_gte: Duration | None = None  # at least this long left at the end
    duration_lte: Duration | None = None  # at most this long from start to end


def _describe(downtime: Record, at: int) -> str:
    schedule = downtime.get("schedule") or {}
    end = schedule.get("end")
    if end is None:
        return f"downtime {downtime.get('id')} (scope {show(downtime.get('scope'))}) with no end"
    total = format_duration(max(end - schedule.get("start", end), 0))
    left = format_duration(max(end - at, 0))
    return f"downtime {downtime.get('id')} (scope {show(downtime.get('scope'))}) of {total} with {left} left"


@state_check("datadog.downtime", DowntimeArgs)
def downtime(args: DowntimeArgs, attempt: Attempt) -> Outcome:
    limits = [f"at least {args.remaining_gte} left"] if args.remaining_gte else []
    limits += [f"at most {args.duration_lte} in all"] if args.duration_lte else []
    expected = f"an active downtime covering monitor {attempt.label(str(args.monitor))} at the end" + (
        f" with {' and '.join(limits)}" if limits else ""
    )
    record = _monitor(attempt, args.monitor)
    if record is None:
        return Outcome(False, expected, _no_monitor(attempt, args.monitor))
    at = _end(attempt)
    active = _active(attempt, record, at)
    if not active:
        return Outcome(False, expected, f"no active downtime covers {_name(attempt, record)}")
    good = [d for d in active if _fits(d, at, args)]
    shown = good or active
    actual = listing([_describe(d, at) for d in shown[:3]], max(0, len(shown) - 3))
    return Outcome(bool(good), expected, actual, attempt.evidence(DOWNTIMES, shown))


def _fits(downtime: Record, at: int, args: DowntimeArgs) -> bool:
    schedule: dict[str, Any] = downtime.get("schedule") or {}
    end = schedule.get("end")
    if args.remaining_gte and end is not None and end - at < parse_duration(args.remaining_gte):
        return False
    return not args.duration_lte or (end is not None and end - schedule["start"] <= parse_duration(args.duration_lte))
