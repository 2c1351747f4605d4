"""Trace checks (`trace: {...}`): conditions on the agent's own calls. Every field given must hold."""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, NonNegativeInt, PrivateAttr, field_validator, model_validator

from ..clock import US, format_duration, parse_duration, parse_time
from ..events import CallEvent
from ..grading.attempt import Attempt
from ..grading.conditions import Condition, closest, matching, misses
from ..grading.kinds import Args, Refers, check_kind
from ..grading.match import dice, get_path, loosely_equal, value_matches
from ..grading.outcome import Outcome, combine
from ..grading.patterns import CallPattern
from ..grading.values import Case
from ..grading.words import at_least, at_most, count, either, listing, seqs, show, some


def _patterns(value: Any) -> list[CallPattern]:
    if value == []:
        raise ValueError("give at least one pattern")
    return [CallPattern.parse(v) for v in (value if isinstance(value, list) else [value])]


Pattern = Annotated[CallPattern, BeforeValidator(CallPattern.parse), Refers("call")]
Patterns = Annotated[list[CallPattern], BeforeValidator(_patterns), Refers("call")]


class InputTest(Args):
    """A test of one call input (`body.text`, `query.limit`): `with: {body.text: {contains: ...}}`."""

    equals: Any = None
    in_: list[Any] | None = Field(None, alias="in")  # equals one of these
    contains: Any = None
    matches: re.Pattern[str] | None = None
    exists: bool | None = None
    ignore_case: bool | None = None  # None: `contains` ignores case, `equals`, `in` and `matches` do not
    _regex: re.Pattern[str] | None = PrivateAttr(None)  # `matches`, ignoring case only when asked

    @model_validator(mode="after")
    def _some(self) -> InputTest:
        if not self.model_fields_set - {"ignore_case"}:
            raise ValueError("a condition has one or more of equals, in, contains, matches, exists")
        if self.matches is not None:
            flags = re.IGNORECASE if self.ignore_case is True else 0
            self._regex = re.compile(self.matches.pattern, self.matches.flags | flags)
        return self


class Times(Args):
    at_least: NonNegativeInt | None = None
    at_most: NonNegativeInt | None = None
    exactly: NonNegativeInt | None = None

    @model_validator(mode="after")
    def _bounds(self) -> Times:
        given = self.model_fields_set
        if not given:
            raise ValueError("times has at_least, at_most or exactly")
        if "exactly" in given and len(given) > 1:
            raise ValueError("times has exactly, or at_least and/or at_most, not both")
        if self.at_least is not None and self.at_most is not None and self.at_least > self.at_most:
            raise ValueError(f"times: at_least ({self.at_least}) is more than at_most ({self.at_most})")
        return self

    def holds(self, n: int) -> bool:
        if self.exactly is not None:
            return n == self.exactly
        return (self.at_least is None or n >= self.at_least) and (self.at_most is None or n <= self.at_most)

    def __str__(self) -> str:
        if self.exactly is not None:
            return f"exactly {count(self.exactly, 'call')}" if self.exactly else count(0, "call")
        if self.at_least is not None and self.at_most is not None:
            return f"between {self.at_least} and {self.at_most} calls"
        if self.at_least is not None:
            return at_least(self.at_least, "call")
        return at_most(self.at_most or 0, "call")


class RetryAfterArgs(Args):
    """`respected_retry_after: {service: slack}` (or `true`: every service)."""

    service: str | None = None


def _retry_after_args(value: Any) -> Any:
    return {} if value is True else value


class TraceArgs(Args):
    called: Patterns | None = None
    not_called: Patterns | None = None
    times: Times | None = None
    first: Pattern | None = None
    last: Pattern | None = None
    order: Patterns | None = None
    with_: dict[str, InputTest] | None = Field(None, alias="with")
    max_calls: NonNegativeInt | None = None
    no_errors: bool = False
    no_calls: bool = False
    respected_retry_after: Annotated[RetryAfterArgs, BeforeValidator(_retry_after_args)] | None = None

    @field_validator("with_")
    @classmethod
    def _inputs(cls, conditions: dict[str, InputTest] | None) -> dict[str, InputTest] | None:
        if conditions == {}:
            raise ValueError("with has one or more conditions: {body.<path>: {equals: ...}}")
        for path in conditions or {}:
            if path != "operation" and not path.startswith(("query.", "body.")):
                raise ValueError(
                    f"a with path is `operation` or starts with query. or body. (the call's inputs), got {path!r}"
                )
        return conditions

    @model_validator(mode="after")
    def _coherent(self) -> TraceArgs:
        if all(getattr(self, name) is None or getattr(self, name) is False for name in self.model_fields_set):
            fields = ", ".join(f.alias or n for n, f in TraceArgs.model_fields.items())
            raise ValueError(f"a trace check has one or more of: {fields}")
        if self.times is not None and (self.called is None or len(self.called) != 1):
            raise ValueError("times counts the calls of a single called pattern: give called one pattern")
        return self


@check_kind("trace", TraceArgs)
def trace(args: TraceArgs, attempt: Attempt) -> Outcome:
    parts: list[Outcome] = []
    if args.called and args.times is None:
        parts += [_called(attempt, p) for p in args.called]
    if args.not_called:
        parts.append(_not_called(attempt, args.not_called))
    if args.times is not None and args.called:
        parts.append(_times(attempt, args.called[0], args.times, args.with_ or {}))
    if args.first is not None:
        parts.append(_end(attempt, args.first, "first"))
    if args.last is not None:
        parts.append(_end(attempt, args.last, "last"))
    if args.order:
        parts.append(_order(attempt, args.order))
    if args.with_ is not None and args.times is None:
        parts.append(_with(attempt, args))
    if args.max_calls is not None:
        parts.append(_max_calls(attempt, args.max_calls))
    if args.no_errors:
        parts.append(_no_errors(attempt))
    if args.no_calls:
        parts.append(_no_calls(attempt))
    if args.respected_retry_after is not None:
        parts.append(_respected_retry_after(attempt, args.respected_retry_after.service))
    return combine(parts)


# -- one outcome per field ----------------------------------------------------------------------------


def _called(attempt: Attempt, pattern: CallPattern) -> Outcome:
    expected = f"at least one call matching {pattern}"
    calls = attempt.calls_matching(pattern)
    if calls:
        numbers = [c.seq for c in calls]
        return Outcome(True, expected, f"{_matched(calls)} ({seqs(numbers)})", numbers)
    actual, evidence = miss(attempt, pattern)
    return Outcome(False, expected, actual, evidence)


def _not_called(attempt: Attempt, patterns: list[CallPattern]) -> Outcome:
    expected = f"no call matching {either([p.text for p in patterns])}"
    found = _union(attempt, patterns)
    if not found:
        return Outcome(True, expected, _none_of(attempt, "matched"))
    return Outcome(False, expected, f"{_matched(found)}: {some(found, len(found), _call)}", [c.seq for c in found])


def _times(attempt: Attempt, pattern: CallPattern, times: Times, conditions: dict[str, InputTest]) -> Outcome:
    calls = _meeting(attempt.calls_matching(pattern), conditions)
    expected = f"{times} matching {pattern}" + (f" whose {_conditions(conditions)}" if conditions else "")
    numbers = [c.seq for c in calls]
    actual = _matched(calls) + (f" ({seqs(numbers)})" if calls else "")
    return Outcome(times.holds(len(calls)), expected, actual, numbers)


def _end(attempt: Attempt, pattern: CallPattern, which: str) -> Outcome:
    expected = f"the agent's {which} call to match {pattern}"
    if not attempt.calls:
        return Outcome(False, expected, "the agent made no calls")
    call = attempt.calls[0 if which == "first" else -1]
    return Outcome(
        pattern.matches_call(call.service, call.method, call.path, call.mcp),
        expected,
        f"the {which} call was {_call(call)}",
        [call.seq],
    )


def _order(attempt: Attempt, patterns: list[CallPattern]) -> Outcome:
    expected = "calls matching " + ", then ".join(p.text for p in patterns) + ", in that order"
    after = 0
    chosen: list[tuple[CallPattern, CallEvent]] = []
    for pattern in patterns:
        calls = attempt.calls_matching(pattern)
        i = bisect_right(calls, after, key=_seq)
        if i == len(calls):
            if not calls:
                miss = f"no call matched {pattern}"
            else:
                miss = (
                    f"no call matching {pattern} came after seq {after} (it was called at {seqs(c.seq for c in calls)})"
                )
            done = [f"{p} at seq {c.seq}" for p, c in chosen]
            evidence = [c.seq for _, c in chosen] + [c.seq for c in calls[:1]]
            return Outcome(False, expected, ", then ".join(done + [miss]), evidence)
        chosen.append((pattern, calls[i]))
        after = calls[i].seq
    return Outcome(True, expected, ", then ".join(f"{p} at seq {c.seq}" for p, c in chosen), [c.seq for _, c in chosen])


def _with(attempt: Attempt, args: TraceArgs) -> Outcome:
    conditions = args.with_ or {}
    scope = f" matching {either([p.text for p in args.called])}" if args.called else ""
    expected = f"a call{scope} whose {_conditions(conditions)}"
    candidates = _union(attempt, args.called) if args.called else attempt.calls
    tests = [_input_condition(path, condition) for path, condition in conditions.items()]
    meeting = matching(candidates, tests)
    if meeting:
        numbers = [c.seq for c in meeting]
        return Outcome(True, expected, f"{count(len(meeting), 'call')} did ({seqs(numbers)})", numbers)
    if not candidates:
        return Outcome(False, expected, "the agent made no calls" if not attempt.calls else f"no call{scope} was made")
    near = closest(candidates, tests, earliest=True)
    nearest = f"closest: {_call(near)}, where {listing(misses(near, tests))}"
    actual = f"none of {count(len(candidates), 'call')}{scope} did; {nearest}"
    return Outcome(False, expected, actual, [near.seq])


def _max_calls(attempt: Attempt, limit: int) -> Outcome:
    calls = attempt.calls
    expected = at_most(limit, "call")
    if len(calls) <= limit:
        return Outcome(True, expected, f"the agent made {count(len(calls), 'call')}")
    over = calls[limit]
    return Outcome(
        False, expected, f"the agent made {len(calls)} calls; call {limit + 1} was {_call(over)}", [over.seq]
    )


def _no_errors(attempt: Attempt) -> Outcome:
    expected = "no call to get an error"
    failed = attempt.failed_calls
    if not failed:
        return Outcome(True, expected, _none_of(attempt, "did"))
    return Outcome(
        False,
        expected,
        f"{count(len(failed), 'call')} did: {some(failed, len(failed), _failure)}",
        [c.seq for c in failed],
    )


def _no_calls(attempt: Attempt) -> Outcome:
    calls = attempt.calls
    if not calls:
        return Outcome(True, "no calls at all", "the agent made none")
    actual = f"the agent made {count(len(calls), 'call')}: {some(calls, len(calls), _call)}"
    return Outcome(False, "no calls at all", actual, [c.seq for c in calls])


def _respected_retry_after(attempt: Attempt, service: str | None) -> Outcome:
    """A call an api fault rate-limited is retried by the next call with the same service, HTTP method and
    path; the retry must come `retry_after` seconds or more after the refusal was answered (the refused
    call's time plus any injected delay), in simulated time."""
    scope = f" to {service}" if service else ""
    expected = f"every retry of a rate-limited call{scope} to wait its Retry-After"
    by_target: dict[tuple[str, str, str], list[CallEvent]] = {}
    for call in attempt.calls:
        by_target.setdefault((call.service, call.method, call.path), []).append(call)
    limited = [
        c
        for c in attempt.calls
        if c.injected and c.injected.get("kind") == "rate_limit" and (service is None or c.service == service)
    ]
    if not limited:
        return Outcome(True, expected, f"no call{scope} was rate limited")
    early: list[tuple[CallEvent, CallEvent, int, int]] = []
    waited: list[tuple[CallEvent, CallEvent, int, int]] = []
    for call in limited:
        same = by_target[(call.service, call.method, call.path)]
        i = bisect_right(same, call.seq, key=_seq)
        if i == len(same):
            continue
        retry = same[i]
        answered = parse_time(call.t) + parse_duration(call.injected.get("delay", "0s"))  # type: ignore[union-attr]
        gap = parse_time(retry.t) - answered
        wait = int(call.injected["retry_after"]) * US  # type: ignore[index]
        (waited if gap >= wait else early).append((call, retry, gap, wait))
    if early:
        said = [
            f"{_call(r)} came {format_duration(gap)} after seq {c.seq} was told to wait {format_duration(wait)}"
            for c, r, gap, wait in early
        ]
        return Outcome(False, expected, some(said, len(said), str), [s for c, r, _, _ in early for s in (c.seq, r.seq)])
    retried = f"each retry waited ({seqs(r.seq for _, r, _, _ in waited)})" if waited else "none was retried"
    actual = f"{count(len(limited), 'call')} rate limited ({seqs(c.seq for c in limited)}); {retried}"
    return Outcome(True, expected, actual, [c.seq for c in limited] + [r.seq for _, r, _, _ in waited])


# -- helpers ------------------------------------------------------------------------------------------


def _seq(call: CallEvent) -> int:
    return call.seq


def _union(attempt: Attempt, patterns: list[CallPattern]) -> list[CallEvent]:
    if len(patterns) == 1:
        return attempt.calls_matching(patterns[0])
    found = {c.seq: c for p in patterns for c in attempt.calls_matching(p)}
    return [found[s] for s in sorted(found)]


def _meeting(calls: list[CallEvent], conditions: dict[str, InputTest]) -> list[CallEvent]:
    """The calls that meet every `with` condition."""
    return matching(calls, [_input_condition(p, k) for p, k in conditions.items()]) if conditions else calls


def _input_condition(path: str, condition: InputTest) -> Condition[CallEvent]:
    return Condition(path, lambda call: _meets(call, path, condition), lambda call: _input(call, path))


def _values(call: CallEvent, path: str) -> list[Any]:
    if path == "operation":  # the vendor's name of the call: Slack's method, a GraphQL operation's name
        return [call.operation]
    root, _, rest = path.partition(".")
    return get_path(call.query if root == "query" else call.body, rest)


def _meets(call: CallEvent, path: str, condition: InputTest) -> bool:
    values = _values(call, path)
    given = condition.model_fields_set
    if "exists" in given and any(v is not None for v in values) != condition.exists:
        return False
    case = Case(condition.ignore_case)
    if "equals" in given and not any(_equal(v, condition.equals, case) for v in values):
        return False
    if condition.in_ is not None and not any(_equal(v, option, case) for v in values for option in condition.in_):
        return False
    if "contains" in given and not any(value_matches(v, condition.contains, case.fold) for v in values):
        return False
    regex = condition._regex
    return regex is None or any(isinstance(v, (str, int, float)) and regex.search(str(v)) for v in values)


def _equal(value: Any, expected: Any, case: Case) -> bool:
    """`equals`: loosely (text sent for numbers and booleans), and ignoring case only with `ignore_case: true`."""
    if case.fold_regex and isinstance(value, str) and isinstance(expected, str):
        return value.casefold() == expected.casefold()
    return loosely_equal(value, expected)


def _conditions(conditions: dict[str, InputTest]) -> str:
    said = []
    for path, condition in conditions.items():
        given = condition.model_fields_set
        if "exists" in given:
            said.append(f"{path} is {'present' if condition.exists else 'absent'}")
        if "equals" in given:
            said.append(f"{path} equals {show(condition.equals)}")
        if condition.in_ is not None:
            said.append(f"{path} is one of {', '.join(show(option) for option in condition.in_)}")
        if "contains" in given:
            said.append(f"{path} contains {show(condition.contains)}")
        if condition.matches is not None:
            said.append(f"{path} matches /{condition.matches.pattern}/")
        if condition.ignore_case is not None:
            said[-1] += Case(condition.ignore_case).note()
    return listing(said)


def _input(call: CallEvent, path: str) -> str:
    values = _values(call, path)
    if not values:
        return f"{path} was missing"
    return f"{path} was {show(values[0] if len(values) == 1 else values)}"


def _call(call: CallEvent) -> str:
    tool = f" through mcp:{call.service}/{call.mcp.get('tool')}" if call.mcp else ""
    return f"{call.method} {call.path}{tool} (seq {call.seq})"


def _failure(call: CallEvent) -> str:
    response = call.response
    code = response.get("error") if isinstance(response, dict) and isinstance(response.get("error"), str) else None
    return f"{call.method} {call.path} got {code or f'HTTP {call.status}'} (seq {call.seq})"


def _matched(calls: list[CallEvent]) -> str:
    return "none matched" if not calls else f"{count(len(calls), 'call')} matched"


def _none_of(attempt: Attempt, verb: str) -> str:
    n = len(attempt.calls)
    return "the agent made no calls" if n == 0 else f"none of {count(n, 'call')} {verb}"


def miss(attempt: Attempt, pattern: CallPattern) -> tuple[str, list[int]]:
    """Why a pattern matched nothing, naming the most similar call made."""
    calls = attempt.calls
    if not calls:
        return "the agent made no calls", []
    if pattern.tool is not None:
        return _tool_miss(calls, pattern)
    shapes = attempt.call_shapes
    if pattern.service is not None:
        own = {k: c for k, c in shapes.items() if k[0] == pattern.service}
        if not own:
            services = listing(sorted({service for service, _ in attempt.signatures}))
            return f"the agent made no calls to {pattern.service} (only to {services})", []
        shapes = own
    wanted = pattern.text.partition(":")[2] if pattern.service else pattern.text
    wanted = wanted.replace("*", "").lower()
    closest = max(shapes.items(), key=lambda item: (dice(wanted, item[0][1].lower()), -item[1].seq))[1]
    name = f"{closest.service}:{_call(closest)}" if pattern.service else _call(closest)
    lead = f"none of {count(len(calls), 'call')} matched" if len(calls) > 1 else "the only call did not match"
    return f"{lead}; closest: {name}", [closest.seq]


def _tool_miss(calls: list[CallEvent], pattern: CallPattern) -> tuple[str, list[int]]:
    """Why a tool's pattern matched nothing, naming the most similar tool of its service called."""
    tools = [c for c in calls if c.mcp is not None and c.service == pattern.service]
    if not tools:
        return f"none of {count(len(calls), 'call')} came through a {pattern.service} MCP tool", []
    wanted = pattern.text.partition("/")[2].replace("*", "").lower()
    closest = max(tools, key=lambda c: (dice(wanted, str(c.mcp.get("tool", "")).lower()), -c.seq))  # type: ignore[union-attr]
    return f"none of {count(len(calls), 'call')} matched; closest: {_call(closest)}", [closest.seq]
