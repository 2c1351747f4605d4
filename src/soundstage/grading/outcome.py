"""What a check says: an `Outcome`, with `expected` and `actual` in words, the evidence behind it, and one
sentence joining the two (`explain`). `checks.results` turns outcomes into saved results."""

from __future__ import annotations

from dataclasses import dataclass, field

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
    score: float | None = None  # in [0, 1]; None: 1 or 0 as `passed` says (null when not decided)


def explain(passed: bool | None, pairs: list[tuple[str, str]]) -> str:
    """One sentence joining what was expected with what was found."""
    if passed is True:
        return "Passed: " + "; ".join(f"expected {e}, and {a}" for e, a in pairs) + "."
    lead = "Failed: " if passed is False else "Not decided: "
    return lead + "; ".join(f"expected {e}, but {a}" for e, a in pairs) + "."


def scored(outcome: Outcome) -> float | None:
    """The outcome's score: its own, else 1 or 0 as it passed; None when it was not decided."""
    if outcome.passed is None:
        return None
    return outcome.score if outcome.score is not None else float(outcome.passed)


def combine(parts: list[Outcome]) -> Outcome:
    """One outcome from several conditions that must all hold; the explanation names those that did not.
    Its score is the lowest of those decided (a failed one decides it even when another was not)."""
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
        score=None if passed is None else min(s for s in map(scored, parts) if s is not None),
    )
