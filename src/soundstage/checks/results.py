"""What a check says: `Outcome` from a check function, `CheckResult` as saved (DESIGN 2.6), `Evaluation`.

Results are versioned pydantic models so that `checks.json` files written by one version can be read by
the next; `RESULT_VERSION` changes when a field changes meaning.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

RESULT_VERSION = 1
EVIDENCE_LIMIT = 100  # seqs kept per result, earliest first, so one result stays readable


@dataclass
class Outcome:
    """A check function's answer. `expected` and `actual` are words a user can act on."""

    passed: bool | None
    expected: str
    actual: str
    evidence: list[int] = field(default_factory=list)
    invalid: bool = False  # the check could not be carried out (a judge model call failed)
    explanation: str | None = None  # None: joined from expected and actual by `explain`


def explain(passed: bool | None, pairs: list[tuple[str, str]]) -> str:
    """One sentence joining what was expected with what was found."""
    if passed is True:
        return "Passed: " + "; ".join(f"expected {e}, and {a}" for e, a in pairs) + "."
    lead = "Failed: " if passed is False else "Not decided: "
    return lead + "; ".join(f"expected {e}, but {a}" for e, a in pairs) + "."


def combine(parts: list[Outcome]) -> Outcome:
    """One outcome from several conditions that must all hold; the explanation names those that did not."""
    if len(parts) == 1:
        return parts[0]
    verdicts = [p.passed for p in parts]
    passed = False if False in verdicts else (None if None in verdicts else True)
    named = parts if passed is True else [p for p in parts if p.passed is not True]
    return Outcome(
        passed=passed,
        expected="; ".join(p.expected for p in parts),
        actual="; ".join(p.actual for p in parts),
        evidence=[seq for p in parts for seq in p.evidence],
        invalid=any(p.invalid for p in parts),
        explanation=explain(passed, [(p.expected, p.actual) for p in named]),
    )


class CheckResult(BaseModel):
    """One check's result (DESIGN 2.6), plus the arguments it ran with."""

    id: str
    kind: str  # "trace", "output", "state:slack.message"...
    required: bool  # in the scene's `pass` list (every check when there is none)
    passed: bool | None  # None: could not be decided; never counts as a pass
    expected: str
    actual: str
    explanation: str
    evidence: list[int]  # seq of the log entries behind the result
    source: Literal["scene", "custom"]
    args: dict[str, Any] = {}
    invalid: bool = False
    version: int = RESULT_VERSION


class Evaluation(BaseModel):
    """Every check of an attempt. It passes when every required check passed; `invalid` when any could not run."""

    passed: bool
    invalid: bool
    checks: list[CheckResult]
    version: int = RESULT_VERSION

    @classmethod
    def score(cls, results: list[CheckResult], pass_ids: list[str] | None = None) -> Evaluation:
        """Scores results, fresh or read back from `checks.json`: the checks in `pass_ids` (default: all)
        are required."""
        if pass_ids is not None:
            required = set(pass_ids)
            results = [r.model_copy(update={"required": r.id in required}) for r in results]
        return cls(
            passed=all(r.passed is True for r in results if r.required),
            invalid=any(r.invalid for r in results),
            checks=results,
        )
