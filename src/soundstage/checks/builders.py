"""Checks written in code (docs/python.md, "Checks in code"): each function answers the mapping a check list
in YAML holds, so the one parser validates it, with the same errors and paths.

    from soundstage import check
    check.called("POST /api/chat.postMessage", times={"at_least": 1})
    == {"id": "called POST /api/chat.postMessage",
        "trace": {"called": "POST /api/chat.postMessage", "times": {"at_least": 1}}}

Arguments left out (None) are left out of the mapping. Keys that are Python words are written with a
trailing underscore: `with_`, `in_`, `from_`. Every function takes `id`; without it the id is the
function's name, with the pattern, person, fact or predicate it names, so two checks of one kind that name
the same thing need ids of their own (the parser refuses an id used twice).
"""

from __future__ import annotations

from typing import Any

Spec = dict[str, Any]


def called(
    *patterns: str, times: dict[str, int] | None = None, with_: Spec | None = None, id: str | None = None
) -> Spec:
    """A trace check: each pattern matches a call (`times`: how many calls of the one pattern; `with_`:
    conditions on a call's inputs)."""
    return _check(
        id or "called " + " ".join(patterns), "trace", called=_one_or_list(patterns), times=times, with_=with_
    )


def not_called(*patterns: str, id: str | None = None) -> Spec:
    """A trace check: no call matches any of the patterns."""
    return _check(id or "not_called " + " ".join(patterns), "trace", not_called=_one_or_list(patterns))


def trace(id: str = "trace", **fields: Any) -> Spec:
    """A trace check with any of its fields (`order`, `first`, `last`, `max_calls`, `no_errors`, ...)."""
    return _check(id, "trace", **fields)


def output(id: str = "output", **fields: Any) -> Spec:
    """An output check: `contains`, `excludes`, `equals`, `matches`, `exact`, `similar_to`, `threshold`,
    `ignore_case`."""
    return _check(id, "output", **fields)


def state(predicate: str, id: str | None = None, **fields: Any) -> Spec:
    """A state check of the final world: `state("slack.message", channel="$support", from_="$bot")`."""
    return {"id": id or f"state {predicate}", "state": {predicate: _fields(fields)}}


def message(id: str = "message", **selector: Any) -> Spec:
    """A message check: some message matches every condition (`from_`, `to`, `in_`, `text_contains`,
    `text_matches`, `carries`)."""
    return _check(id, "message", **selector)


def never(id: str = "never", **selector: Any) -> Spec:
    """No message matches the selector (as `message` takes it)."""
    return _check(id, "never", **selector)


def told(person: str, facts: list[str], id: str | None = None) -> Spec:
    """A message of the agent's carrying each fact reached the person."""
    return _check(id or f"told {person}", "told", person=person, facts=facts)


def knows(person: str, facts: list[str], id: str | None = None) -> Spec:
    """The person knows each fact, however they learned it."""
    return _check(id or f"knows {person}", "knows", person=person, facts=facts)


def revealed(*facts: str, id: str | None = None) -> Spec:
    """Each fact was revealed to the agent, who asked its owner for it."""
    return {"id": id or "revealed " + " ".join(facts), "revealed": list(facts)}


def decided(person: str, decision: str, option: str | None = None, id: str | None = None) -> Spec:
    """The person made the decision (with that option)."""
    return _check(id or f"decided {decision}", "decided", person=person, decision=decision, option=option)


def before(*milestones: Spec, id: str = "before") -> Spec:
    """Every milestone happened, in this order. A milestone is a mapping as in YAML (`{"called": pattern}`,
    `{"fault_resolved": id}`...) or a check made by `called` (one pattern, nothing else), `revealed`,
    `message`, `decided` or `state`: the moment it first held."""
    return {"id": id, "before": [milestone(m) for m in milestones]}


def within(of: Spec, limit: str, after: Spec | None = None, id: str = "within") -> Spec:
    """The milestone `of` happened at most `limit` of simulated time after the start, or after `after`."""
    return _check(id, "within", milestone=milestone(of), limit=limit, after=milestone(after) if after else None)


def judge(rubric: str, model: str | None = None, truncate: bool | None = None, id: str = "judge") -> Spec:
    """A language model decides whether the rubric holds (docs/checks.md, "Judge checks")."""
    return _check(id, "judge", rubric=rubric, model=model, truncate=truncate)


def python(
    function: str,
    id: str | None = None,
    timeout: float | None = None,
    threshold: float | None = None,
    **args: Any,
) -> Spec:
    """A Python check (docs/checks.md, "Python checks"): `function` (`module:function`, or a name registered with
    `@python_check` or an entry point) called with the attempt and `args` as keyword arguments."""
    return _check(
        id or f"python {function}", "python", function=function, args=args or None, timeout=timeout, threshold=threshold
    )


def use(check: str, id: str | None = None, **arguments: Any) -> Spec:
    """A check of the library (docs/checks.md, "A check library") with its arguments: `use("answered_in_thread",
    channel="$support", question="$question")`; named after the library check unless `id` is given."""
    entry: Spec = {"id": id} if id is not None else {}
    return {**entry, "use": {"check": check, **_fields(arguments)} if arguments else check}


def milestone(spec: Spec) -> Spec:
    """A milestone as YAML writes it, from itself or from a check that says the same: the check's id is
    dropped, and a trace check of one `called` pattern becomes `{"called": pattern}`."""
    body = {key: value for key, value in spec.items() if key != "id"}
    if list(body) == ["trace"] and isinstance(body["trace"], dict) and list(body["trace"]) == ["called"]:
        return {"called": body["trace"]["called"]}
    return body


def _check(check_id: str, kind: str, **fields: Any) -> Spec:
    return {"id": check_id, kind: _fields(fields)}


def _fields(fields: dict[str, Any]) -> Spec:
    """The fields given, each under its YAML key (`with_` -> `with`)."""
    return {key.removesuffix("_"): value for key, value in fields.items() if value is not None}


def _one_or_list(patterns: tuple[str, ...]) -> str | list[str]:
    return patterns[0] if len(patterns) == 1 else list(patterns)
