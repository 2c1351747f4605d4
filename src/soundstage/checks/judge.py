"""Judge checks (`judge: "rubric"` or `judge: {rubric, model, truncate}`): a language model reads the
attempt and says whether the rubric holds.

The model is reached through an OpenAI-compatible chat-completions endpoint: OpenRouter with
`OPENROUTER_API_KEY`, or `SOUNDSTAGE_JUDGE_URL` (with `SOUNDSTAGE_JUDGE_KEY` if it needs one; the
OpenRouter key is never sent elsewhere). The model is the check's `model` or `SOUNDSTAGE_JUDGE_MODEL`.
Without an endpoint the check is skipped (`passed: null`); a failed model call makes it `invalid`.
Tokens and keys never reach the prompt.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Iterable

from pydantic import BaseModel, Field, StrictBool, ValidationError

from ..clock import parse_time
from ..grading.attempt import Attempt
from ..grading.kinds import Args, check_kind
from ..grading.outcome import Outcome
from ..grading.words import show
from ..llm import OPENROUTER_URL, TIMEOUT, Endpoint, ModelError  # noqa: F401 (OPENROUTER_URL: re-exported)
from ..services.slack.store import MESSAGES

PROMPT_BUDGET = 120_000  # characters (about 30k tokens) that `truncate: true` keeps the prompt within
REDACTED = "[redacted]"

SYSTEM = (
    "You grade one attempt of an AI agent at a task in a simulated company (its Slack, GitHub, Datadog and "
    "PagerDuty). Decide from the evidence alone whether the rubric holds. Answer with one JSON object and "
    'nothing else: {"passed": true or false, "score": how well the rubric holds, from 0 to 1, "reason": "one '
    'sentence", "evidence": [the seq numbers of the calls your verdict rests on]}.'
)

# Credentials in the formats of the four services, wherever they appear in calls, messages or output.
_TOKEN = re.compile(r"\b(?:xox[abposre]-[A-Za-z0-9-]+|xapp-[A-Za-z0-9-]+|gh[pousr]_[A-Za-z0-9]+|github_pat_\w+)")
_SECRET_NAME = re.compile(r"token|secret|password|authorization|api[_-]?key|app[_-]?key", re.IGNORECASE)
_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


class JudgeArgs(Args):
    rubric: str = Field(min_length=1)
    model: str | None = None
    truncate: bool = False


class JudgeError(Exception):
    """The model could not be asked, or gave no verdict."""


class Verdict(BaseModel):
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
    prompt = build_prompt(attempt, args.rubric, args.truncate, keys)
    try:
        verdict = ask(endpoint, model, prompt)
    except JudgeError as exc:
        return Outcome(None, expected, f"the judge model call failed: {exc}", invalid=True)
    calls = {c.seq for c in attempt.calls}
    evidence = sorted({s for s in verdict.evidence if s in calls})
    answer = f"{model} answered {'yes' if verdict.passed else 'no'}" + (f": {verdict.reason}" if verdict.reason else "")
    return Outcome(verdict.passed, expected, answer, evidence, score=verdict.score)


def build_prompt(attempt: Attempt, rubric: str, truncate: bool, secrets: Iterable[str] = ()) -> str:
    """What the model reads: the task, the rubric, the agent's calls and the Slack messages (oldest first),
    the change to the world and the output. With `truncate`, the oldest calls and messages are left out
    until the prompt fits `PROMPT_BUDGET`, and the prompt says so. The world's tokens and `secrets` (the
    judge's keys) are redacted."""
    secrets = [*attempt.secrets, *secrets]
    head = redact(f"Task given to the agent:\n{attempt.task or '(none)'}\n\nRubric:\n{rubric}\n\n", secrets)
    tail = redact(
        "Changes to the world since the start (JSON):\n"
        + json.dumps(_scrub(attempt.diff), ensure_ascii=False, default=str)
        + "\n\nThe agent's final output:\n"
        + (attempt.output if attempt.output is not None else "(none)")
        + "\n",
        secrets,
    )
    entries = [(at, kind, redact(line, secrets)) for at, kind, line in sorted(_calls(attempt) + _messages(attempt))]
    dropped = 0
    if truncate:
        room = PROMPT_BUDGET - len(_render(head, tail, [], len(entries)))
        size = sum(len(line) + 1 for _, _, line in entries)
        while dropped < len(entries) and size > room:
            size -= len(entries[dropped][2]) + 1
            dropped += 1
    return _render(head, tail, entries[dropped:], dropped)


def _render(head: str, tail: str, entries: list[tuple[int, str, str]], dropped: int) -> str:
    calls = "\n".join(line for _, kind, line in entries if kind == "call")
    messages = "\n".join(line for _, kind, line in entries if kind == "message")
    return (
        head
        + (f"({dropped} oldest calls and messages were left out to fit.)\n" if dropped else "")
        + f"The agent's API calls (oldest first):\n{calls or '(none)'}\n\n"
        + f"Slack messages at the end (oldest first):\n{messages or '(none)'}\n\n"
        + tail
    )


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


def _calls(attempt: Attempt) -> list[tuple[int, str, str]]:
    lines = []
    for call in attempt.calls:
        line = f"seq {call.seq} {call.t} {call.service} {call.method} {call.path}"
        if call.query:
            line += f" query={_compact(call.query)}"
        if call.body is not None:
            line += f" body={_compact(call.body)}"
        line += f" -> {call.status}"
        if call.error and isinstance(call.response, dict) and isinstance(call.response.get("error"), str):
            line += f" {call.response['error']}"
        lines.append((parse_time(call.t), "call", line))
    return lines


def _messages(attempt: Attempt) -> list[tuple[int, str, str]]:
    lines = []
    for message in attempt.records(MESSAGES):
        ts = str(message.get("ts", ""))
        thread = message.get("thread_ts")
        where = f"{message.get('channel')}" + (f" thread {thread}" if thread and thread != ts else "")
        lines.append((_ts_us(ts), "message", f"[{ts}] {where} {message.get('user')}: {message.get('text', '')}"))
    return lines


def _compact(value: Any) -> str:
    text = json.dumps(_scrub(value), ensure_ascii=False, default=str)
    return text if len(text) <= 1000 else text[:1000] + "…"


def _ts_us(ts: str) -> int:
    """A Slack `ts` ("1772460000.000100") as epoch microseconds, to order messages with calls."""
    seconds, _, fraction = ts.partition(".")
    fraction = fraction.ljust(6, "0")[:6]
    return int(seconds) * 1_000_000 + int(fraction) if seconds.isdigit() and fraction.isdigit() else 0
