"""The `fault_resolved` state check: a fault (docs/faults.md) is resolved at the end.

It reads the events only: the engine logs `fault_started` each time a fault's condition comes to hold and
`fault_resolved` each time it stops. The fault is resolved when its latest event is `fault_resolved`;
evidence is that event's seq. A fault that never started was never there to resolve: the check fails.
"""

from __future__ import annotations

from typing import Annotated

from ..grading.attempt import Attempt
from ..grading.kinds import Args, Refers, state_check
from ..grading.outcome import Outcome


class FaultResolvedArgs(Args):
    fault: Annotated[str, Refers("fault")]  # the fault's id


@state_check("fault_resolved", FaultResolvedArgs)
def fault_resolved(args: FaultResolvedArgs, attempt: Attempt) -> Outcome:
    expected = f"fault {args.fault} resolved at the end"
    both = attempt.of_kind("fault_started") + attempt.of_kind("fault_resolved")
    events = sorted((e for e in both if getattr(e, "fault", None) == args.fault), key=lambda e: e.seq)
    if not events:
        return Outcome(False, expected, f"fault {args.fault} never started")
    last = events[-1]
    starts = sum(e.kind == "fault_started" for e in events)
    if last.kind == "fault_resolved":
        again = f" (it started {starts} times)" if starts > 1 else ""
        return Outcome(True, expected, f"it was resolved at {last.t}{again}", [last.seq])
    return Outcome(False, expected, f"it is still active, since {last.t}", [last.seq])
