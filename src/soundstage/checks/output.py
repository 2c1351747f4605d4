"""Output checks (`output: {...}`): the agent's final output (its stdout, or what it sent to `finish`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, PrivateAttr, model_validator

from ..grading.attempt import Attempt
from ..grading.kinds import Args, check_kind
from ..grading.match import dice
from ..grading.outcome import Outcome, combine
from ..grading.values import Case
from ..grading.words import either, listing, show

SIMILAR_BY_DEFAULT = 0.5  # `similar_to` without a threshold passes at this Dice score


def _texts(value: Any) -> Any:
    if value == []:
        raise ValueError("give at least one text")
    return value if isinstance(value, list) else [value]


Texts = Annotated[list[str], BeforeValidator(_texts)]


class OutputArgs(Args):
    contains: Texts | None = None
    excludes: Texts | None = None
    equals: str | None = None
    matches: str | None = None
    exact: bool = False  # `matches` must match the whole output
    similar_to: str | None = None
    threshold: float | None = Field(None, ge=0.0, le=1.0)
    ignore_case: bool | None = None  # None: text ignores case, the regex does not (`grading.values.Case`)
    _regex: re.Pattern[str] | None = PrivateAttr(None)

    @model_validator(mode="after")
    def _coherent(self) -> OutputArgs:
        if all(getattr(self, name) is None for name in ("contains", "excludes", "equals", "matches", "similar_to")):
            raise ValueError("an output check has one or more of contains, excludes, equals, matches, similar_to")
        if self.exact and self.matches is None:
            raise ValueError("exact anchors matches: give matches")
        if self.threshold is not None and self.similar_to is None:
            raise ValueError("threshold is for similar_to: give similar_to")
        if self.matches is not None:
            try:
                self._regex = re.compile(self.matches, re.IGNORECASE if Case(self.ignore_case).fold_regex else 0)
            except re.error as exc:
                raise ValueError(f"matches is not a valid regular expression: {exc}") from exc
        return self

    def fold(self, text: str) -> str:
        return text.casefold() if Case(self.ignore_case).fold else text


Test = Callable[[OutputArgs, str], tuple[bool, str, float | None]]  # (passed, what was found, score: None for 1/0)


@check_kind("output", OutputArgs)
def output(args: OutputArgs, attempt: Attempt) -> Outcome:
    finish = [attempt.finish.seq] if attempt.finish is not None else []
    text = attempt.output
    parts: list[tuple[str, Test]] = []
    if args.contains is not None:
        parts.append((f"the output to contain {listing([show(t) for t in args.contains])}", _contains))
    if args.excludes is not None:
        parts.append((f"the output not to contain {either([show(t) for t in args.excludes])}", _excludes))
    if args.equals is not None:
        parts.append((f"the output to be {show(args.equals)}", _equals))
    if args.matches is not None:
        parts.append((f"{'the whole output' if args.exact else 'the output'} to match /{args.matches}/", _matches))
    if args.similar_to is not None:
        parts.append(
            (f"the output to be similar to {show(args.similar_to)} (Dice similarity {_bar(args):g} or more)", _similar)
        )
    parts = [(want + Case(args.ignore_case).note(), test) for want, test in parts]
    if text is None:
        return combine([Outcome(None, want, "the agent has given no output yet", finish) for want, _ in parts])
    outcomes = []
    for want, test in parts:
        passed, actual, score = test(args, text)
        outcomes.append(Outcome(passed, want, actual, finish, score=score))
    return combine(outcomes)


def _contains(args: OutputArgs, text: str) -> tuple[bool, str, float | None]:
    folded = args.fold(text)
    missing = [t for t in args.contains or [] if args.fold(t) not in folded]
    if missing:
        return False, f"it lacks {listing([show(t) for t in missing])}; it is {_excerpt(text)}", None
    return True, "it does", None


def _excludes(args: OutputArgs, text: str) -> tuple[bool, str, float | None]:
    folded = args.fold(text)
    for item in args.excludes or []:
        at = folded.find(args.fold(item))
        if at >= 0:
            return False, f"it contains {show(item)}: {_excerpt(text, at, len(item))}", None
    return True, "it does not", None


def _equals(args: OutputArgs, text: str) -> tuple[bool, str, float | None]:
    if args.fold(text.strip()) == args.fold((args.equals or "").strip()):
        return True, "it is", None
    return False, f"it is {_excerpt(text)}", None


def _matches(args: OutputArgs, text: str) -> tuple[bool, str, float | None]:
    regex = args._regex
    match = None if regex is None else regex.fullmatch(text.strip()) if args.exact else regex.search(text)
    if match is None:
        return False, f"it does not; it is {_excerpt(text)}", None
    return True, f"it does: {show(match.group(0))}", None


def _bar(args: OutputArgs) -> float:
    return args.threshold if args.threshold is not None else SIMILAR_BY_DEFAULT


def _similar(args: OutputArgs, text: str) -> tuple[bool, str, float | None]:
    score = similarity(args.fold(text), args.fold(args.similar_to or ""))
    return score >= _bar(args), f"its similarity is {score:.2f}", score  # the raw Dice similarity


def similarity(a: str, b: str) -> float:
    """Dice coefficient of character bigrams, whitespace runs counted as one space."""
    return dice(" ".join(a.split()), " ".join(b.split()))


def _excerpt(text: str, at: int = 0, length: int = 0, width: int = 80) -> str:
    """About `width` characters of the output around a position, quoted, `…` where it was cut."""
    start = max(0, at - (width - length) // 2)
    end = start + width
    piece = ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")
    return show(piece, limit=len(piece) * 2 + 2)
