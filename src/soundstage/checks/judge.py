"""Judge checks (`judge: "rubric"` or `judge: {rubric, model, truncate, max_prompt_tokens}`): a language
model reads the attempt as a transcript (`checks.transcript`) and says whether the rubric holds.

The model is reached through an OpenAI-compatible chat-completions endpoint: OpenRouter with
`OPENROUTER_API_KEY`, or `SOUNDSTAGE_JUDGE_URL` (with `SOUNDSTAGE_JUDGE_KEY` if it needs one; the
OpenRouter key is never sent elsewhere). The model is the check's `model` or `SOUNDSTAGE_JUDGE_MODEL`.
Without an endpoint the check is skipped (`passed: null`); a failed model call makes it `invalid`, and so
does an attempt too long for the model when it may not be cut, before the model is called.
Tokens and keys never reach the prompt.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PositiveInt, StrictBool, ValidationError

from ..grading.attempt import Attempt
from ..grading.kinds import Args, check_kind
from ..grading.outcome import Outcome
from ..grading.words import listing, show
from ..llm import (  # noqa: F401 (OPENROUTER_URL: re-exported)
    CHARS_PER_TOKEN,
    OPENROUTER_URL,
    TIMEOUT,
    Endpoint,
    ModelError,
    context_tokens,
    tokens,
)
from ..services import SERVICES
from .transcript import start_time, transcript

ANSWER_TOKENS = 1_024  # of a model's context, kept for its answer
REDACTED = "[redacted]"

SYSTEM = (
    "You grade one attempt of an AI agent at a task in a simulated company (its "
    f"{listing([service.title for service in SERVICES.values()])}). Decide from the evidence alone whether the "
    'rubric holds. Answer with one JSON object and nothing else: {"passed": true or false, "score": how well '
    'the rubric holds, from 0 to 1, "reason": "one sentence", "evidence": [the seq numbers of the calls your '
    "verdict rests on]}."
)

# Credentials in the formats of the services (`Service.secrets`), wherever they appear in calls, messages or output.
_TOKEN = re.compile(r"\b(?:" + "|".join(p for s in SERVICES.values() for p in getattr(s, "secrets", ())) + ")")
_SECRET_NAME = re.compile(r"token|secret|password|authorization|api[_-]?key|app[_-]?key", re.IGNORECASE)
_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


class JudgeArgs(Args):
    rubric: str = Field(min_length=1)
    model: str | None = None
    truncate: bool = True
    max_prompt_tokens: PositiveInt | None = None  # in place of the model's context length


class JudgeError(Exception):
    """The model could not be asked, or gave no verdict."""


class TooLong(Exception):
    """The attempt does not fit the prompt's budget."""

    def __init__(self, size: int, budget: int, cut: bool) -> None:
        super().__init__(f"the prompt is about {size:,} tokens, over its budget of {budget:,}")
        self.size, self.budget, self.cut = size, budget, cut  # cut: even with the whole transcript left out


class Verdict(BaseModel):
    model_config = ConfigDict(defer_build=True)  # built by the first judge check, not by every run

    passed: StrictBool
    score: float | None = Field(None, ge=0.0, le=1.0)  # optional: without it the check scores 1 or 0
    reason: str = ""
    evidence: list[int] = []


def ask(endpoint: Endpoint, model: str, prompt: str) -> Verdict:
    """The model's verdict on `prompt`; raises JudgeError when there is none."""
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]
    try:
        answer = endpoint.chat(model, messages, temperature=0, timeout=TIMEOUT)
    except ModelError as exc:
        raise JudgeError(str(exc)) from exc
    found = _OBJECT.search(answer)
    try:
        return Verdict.model_validate_json(found.group(0) if found else "")
    except ValidationError as exc:
        raise JudgeError(f"the model did not give the verdict asked for: {show(answer, 200)}") from exc


@check_kind("judge", JudgeArgs, shorthand="rubric")
def judge(args: JudgeArgs, attempt: Attempt) -> Outcome:
    expected = f"the judge model to find that {show(args.rubric, 300)} holds"
    endpoint = Endpoint.from_env(os.environ)
    if endpoint is None:
        why = "no judge model is configured (set OPENROUTER_API_KEY, or SOUNDSTAGE_JUDGE_URL for another endpoint)"
        return Outcome(None, expected, f"{why}, so the check was skipped")
    model = args.model or os.environ.get("SOUNDSTAGE_JUDGE_MODEL")
    if not model:
        why = "no judge model is named (set SOUNDSTAGE_JUDGE_MODEL or give the check a model)"
        return Outcome(None, expected, f"{why}, so the check was skipped")
    keys = [endpoint.key or "", os.environ.get("OPENROUTER_API_KEY", "")]
    budget, source = prompt_budget(model, args.max_prompt_tokens)
    try:
        prompt = build_prompt(attempt, args.rubric, keys, budget=budget, truncate=args.truncate)
    except TooLong as exc:
        fix = "raise max_prompt_tokens if the model takes more" if exc.cut else "set truncate: true"
        whole = "even without its transcript " if exc.cut else ""
        why = f"the attempt does not fit the judge model: {whole}{exc} ({source}); {fix}"
        return Outcome(None, expected, f"{why}, so the model was not called", invalid=True)
    try:
        verdict = ask(endpoint, model, prompt)
    except JudgeError as exc:
        return Outcome(None, expected, f"the judge model call failed: {exc}", invalid=True)
    calls = {c.seq for c in attempt.calls}
    evidence = sorted({s for s in verdict.evidence if s in calls})
    answer = f"{model} answered {'yes' if verdict.passed else 'no'}" + (f": {verdict.reason}" if verdict.reason else "")
    return Outcome(verdict.passed, expected, answer, evidence, score=verdict.score)


def prompt_budget(model: str, max_prompt_tokens: int | None) -> tuple[int, str]:
    """The tokens the user prompt may take (what the system prompt leaves of the model's), and whence."""
    if max_prompt_tokens is not None:
        total, source = max_prompt_tokens, f"max_prompt_tokens {max_prompt_tokens:,}"
    else:
        context = context_tokens(model)
        total = context - ANSWER_TOKENS
        source = f"{model} takes {context:,} tokens, {ANSWER_TOKENS:,} of them kept for its answer"
    return total - tokens(SYSTEM), f"{source}, less {tokens(SYSTEM):,} for the instructions"


def build_prompt(
    attempt: Attempt, rubric: str, secrets: Iterable[str] = (), *, budget: int | None = None, truncate: bool = True
) -> str:
    """What the model reads: the task, the rubric, the transcript of the attempt, the change to the world
    and the output. With a `budget` (tokens), the oldest transcript lines are left out until the prompt
    fits, and it says how many; without `truncate`, or when leaving them all out is not enough, raises
    TooLong. The world's tokens, `secrets` (the judge's keys) and anything shaped like a token are redacted."""
    secrets = [*attempt.secrets, *secrets]
    head = redact(
        f"Task given to the agent:\n{attempt.task or '(none)'}\n\nRubric:\n{rubric}\n\n"
        f"What happened, oldest first, in simulated time (UTC; the attempt started at {start_time(attempt)}). "
        "Each API call of the agent's has its seq, and what it answered after `->`:\n",
        secrets,
    )
    tail = redact(
        "\nChanges to the world since the start (JSON):\n"
        + json.dumps(_scrub(attempt.diff), ensure_ascii=False, default=str)
        + "\n\nThe agent's final output:\n"
        + (attempt.output if attempt.output is not None else "(none)")
        + "\n",
        secrets,
    )
    lines = [redact(line, secrets) for line in transcript(attempt, _scrub)]
    whole = _render(head, tail, lines, 0)
    if budget is None or tokens(whole) <= budget:
        return whole
    if not truncate:
        raise TooLong(tokens(whole), budget, cut=False)
    room = budget * CHARS_PER_TOKEN - len(_render(head, tail, [], len(lines)))
    if room < 0:
        raise TooLong(tokens(_render(head, tail, [], 0)), budget, cut=True)
    dropped, size = 0, sum(len(line) + 1 for line in lines)
    while size > room:
        size -= len(lines[dropped]) + 1
        dropped += 1
    return _render(head, tail, lines[dropped:], dropped)


def _render(head: str, tail: str, lines: list[str], dropped: int) -> str:
    notice = f"({dropped} oldest entries were left out to fit the judge model's context.)\n" if dropped else ""
    shown = "".join(line + "\n" for line in lines) if lines or dropped else "(nothing)\n"
    return head + notice + shown + tail


def redact(text: str, secrets: Iterable[str]) -> str:
    """Removes every known secret and anything shaped like a service token."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    return _TOKEN.sub(REDACTED, text)


def _scrub(value: Any) -> Any:
    """Call inputs and records with the values of credential-named fields removed."""
    if isinstance(value, dict):
        return {k: REDACTED if _SECRET_NAME.search(str(k)) else _scrub(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    return value
