"""What every check is made of: the `Attempt` it reads, its argument model and the registries of check
kinds, the `Outcome` it answers with, the conditions it searches with, and the words it says it in.

It sits below the services so that each service can register the state checks of its own records; the
check language itself (parsing, evaluating, the trace, output, people, milestone and judge checks) is
`soundstage.checks`.
"""

from __future__ import annotations

from .attempt import Attempt, Record, SceneFile
from .conditions import Condition, closest, matching, misses, wants
from .kinds import KINDS, STATE_CHECKS, Args, ArgumentErrors, Kind, check_kind, state_check
from .outcome import EVIDENCE_LIMIT, Outcome, combine, explain
from .patterns import CallPattern

__all__ = [
    "EVIDENCE_LIMIT",
    "KINDS",
    "STATE_CHECKS",
    "Args",
    "ArgumentErrors",
    "Attempt",
    "CallPattern",
    "Condition",
    "Kind",
    "Outcome",
    "Record",
    "SceneFile",
    "check_kind",
    "closest",
    "combine",
    "explain",
    "matching",
    "misses",
    "state_check",
    "wants",
]
