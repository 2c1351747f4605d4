"""API faults on a live world (docs/faults.md, "API faults"): calls that misbehave the way the vendors'
own do, so a scene can test an agent's retries and patience.

`build_api_faults` turns the scene's `api_faults:` into `ApiFaultRule`s when the image is built; `attach`
puts them on a live world; `decide` is the one step every agent call passes before its service's handler
(the recording layer calls it): the first rule that matches the call and whose `when` holds answers it.

- Matching: the service, the operation as the trace names it (`operation`, `*` a wildcard), and the call
  as a trace check's pattern matches it (`call`: `"GET /repos/*/pulls"`).
- When: the window (`after_seq`: calls after that seq of the log; `until`: simulated time from the clock
  start), then `first: N`, `every: N` (the N-th, 2N-th... matching call in the window) or `probability: p`.
  A draw is the SHA-256 of the world's seed, the rule, the call's method and path and how many calls of
  that method and path the rule has seen: the same calls fail the same way on every run.
- A rate limit or a server error never reaches the handler (no state changes); a `slow` call is answered
  normally, late. Either way the call is logged once, with `injected: {fault, kind, ...}`.
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from ..clock import US, format_duration, parse_duration
from ..errors import SpecError
from ..grading.patterns import CallPattern
from ..services import SERVICES
from ..services.base import Injection, Reply, Service, ServiceRequest
from ..spec.build import BuildContext
from ..world import Principal, World, shared_by_forks
from .api_models import ApiFaultBase


@shared_by_forks
@dataclass(frozen=True)
class ApiFaultRule:
    """One api fault, parsed: durations in µs, the call pattern compiled, what its service's answer reads."""

    fault: ApiFaultBase
    call: CallPattern | None
    injection: Injection
    delay: int  # µs
    until: int | None  # µs after the clock start

    @property
    def id(self) -> str:
        return self.fault.id

    def matches(self, service: str, operation: str | None, call: ServiceRequest) -> bool:
        if service != self.fault.service:
            return False
        wanted = self.fault.operation
        if wanted is not None and (operation is None or not fnmatchcase(operation, wanted)):
            return False
        return self.call is None or self.call.matches(service, call.method, call.path)


def build_api_faults(faults: list[ApiFaultBase], ctx: BuildContext) -> tuple[list[ApiFaultRule], list[SpecError]]:
    """The scene's api faults as rules, and a SpecError for each problem (`ctx` points at `api_faults`):
    an id used twice, an `operation` that names none of the service's (it would fail nothing, silently)."""
    file, here = ctx.file, ctx.here
    rules: list[ApiFaultRule] = []
    errors: list[SpecError] = []
    seen: dict[str, int] = {}
    for i, fault in enumerate(faults):
        if fault.id in seen:
            message = f"api fault id {fault.id!r} is used twice (first at api_faults[{seen[fault.id]}])"
            errors.append(ctx.at(file, here).error(message, i, "id"))
            continue
        seen[fault.id] = i
        service = SERVICES[fault.service]
        known = service.operations()
        if fault.operation is not None and not any(fnmatchcase(name, fault.operation) for name in known):
            close = difflib.get_close_matches(fault.operation, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            message = f"operation {fault.operation!r} matches no {fault.service} operation soundstage implements{hint}"
            errors.append(ctx.at(file, here).error(message, i, "operation"))
            continue
        options = {name: getattr(fault, name) for name in getattr(service, "fault_options", {})}
        retry_after = max(1, -(-parse_duration(fault.retry_after) // US))  # vendors and SDKs read whole seconds
        rules.append(
            ApiFaultRule(
                fault,
                CallPattern.parse(fault.call) if fault.call is not None else None,
                Injection(fault.status, options, retry_after),
                parse_duration(fault.delay),
                parse_duration(fault.until) if fault.until is not None else None,
            )
        )
    ctx.at(file, here)
    return rules, errors


@dataclass
class ApiFaults:
    """A world's api faults (a world part): the rules, and the matching calls each has seen in its window,
    in all and by method and path."""

    rules: list[ApiFaultRule] = field(default_factory=list)
    seen: dict[str, int] = field(default_factory=dict)
    seen_by_target: dict[tuple[str, str], int] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, object]) -> ApiFaults:
        # A fork's copy: the rules never change once parsed; the counts are numbers.
        return ApiFaults(list(self.rules), dict(self.seen), dict(self.seen_by_target))


@dataclass(frozen=True)
class Injected:
    """What an api fault does to one call: the reply in the handler's place (None: the handler answers,
    late), the simulated and real delays, and what the trace records under `injected`."""

    reply: Reply | None
    delay: int  # µs of simulated time the answer takes
    real_delay_ms: int
    record: dict[str, object]


def attach(world: World, rules: list[ApiFaultRule]) -> None:
    world.part(ApiFaults).rules = list(rules)


def decide(world: World, service: Service, principal: Principal | None, call: ServiceRequest) -> Injected | None:
    """The fault this call meets, if any; counts it against every rule it matches in its window."""
    state = world.part(ApiFaults)
    if not state.rules:
        return None
    operation = _operation(service, call)
    chosen: Injected | None = None
    for rule in state.rules:
        if not rule.matches(service.name, operation, call) or not _in_window(world, rule):
            continue
        n = state.seen[rule.id] = state.seen.get(rule.id, 0) + 1
        target = (rule.id, f"{call.method} {call.path}")
        k = state.seen_by_target[target] = state.seen_by_target.get(target, 0) + 1
        if chosen is None and _fires(world, rule, n, k, target[1]):
            chosen = _inject(world, rule, service, principal, call)
    return chosen


def _operation(service: Service, call: ServiceRequest) -> str | None:
    """The operation's name as the trace records it, when the service can tell before handling."""
    name = getattr(service, "operation", None)
    return name(call) if name is not None else None


def _in_window(world: World, rule: ApiFaultRule) -> bool:
    after = rule.fault.after_seq
    if after is not None and world.log.last_seq < after:  # this call's seq is the next one
        return False
    return rule.until is None or world.now() < world.clock.start + rule.until


def _fires(world: World, rule: ApiFaultRule, n: int, k: int, target: str) -> bool:
    fault = rule.fault
    if fault.first is not None:
        return n <= fault.first
    if fault.every is not None:
        return n % fault.every == 0
    if fault.probability is not None:
        key = f"{world.ids.seed}\x00api-fault\x00{rule.id}\x00{target}\x00{k}".encode()
        return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") < fault.probability * 2**64
    return True


def _inject(
    world: World, rule: ApiFaultRule, service: Service, principal: Principal | None, call: ServiceRequest
) -> Injected:
    fault = rule.fault
    record: dict[str, object] = {"fault": fault.id, "kind": fault.kind}
    reply = None
    if fault.kind == "rate_limit":
        record["retry_after"] = rule.injection.retry_after
        reply = service.rate_limit_answer(world, principal, call, rule.injection)
    elif fault.kind == "server_error":
        reply = service.server_error_answer(world, principal, call, rule.injection)
    if rule.delay:
        record["delay"] = format_duration(rule.delay)
    if fault.real_delay_ms:
        record["real_delay_ms"] = fault.real_delay_ms
    return Injected(reply, rule.delay, fault.real_delay_ms, record)
