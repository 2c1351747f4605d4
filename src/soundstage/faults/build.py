"""From the `faults:` of a scene to resolved faults, when the image is built.

Refs become ids, the condition is parsed as a state check, and every record an effect names must exist;
each problem is a SpecError naming the file, line and field. Fault ids are unique within a scene.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..checks import CheckSpecError, StatePredicate, parse_state_predicate
from ..checks.parse import resolve_refs
from ..clock import parse_duration
from ..services.datadog.store import MONITORS
from ..services.pagerduty.store import SERVICES
from ..spec.build import BuildContext
from .models import Effect as WrittenEffect
from .models import Fault


@dataclass(frozen=True)
class MonitorForce:
    monitor: str  # datadog.monitors id
    state: str


@dataclass(frozen=True)
class Page:
    service: str  # pagerduty.services id
    title: str
    urgency: str | None  # None: the service's urgency rule
    details: str | None


@dataclass(frozen=True)
class MetricStep:
    name: str
    tags: tuple[str, ...]
    value: float
    normal: float | None


Effect = MonitorForce | Page | MetricStep


@dataclass(frozen=True)
class ResolvedFault:
    id: str
    condition: StatePredicate
    effects: tuple[Effect, ...]
    recover_after: int  # microseconds


def build_faults(faults: list[Fault], ctx: BuildContext) -> list[ResolvedFault]:
    """The scene's faults, resolved; `ctx` points at the scene's `faults` list."""
    built: list[ResolvedFault] = []
    seen: dict[str, int] = {}
    for i, fault in enumerate(faults):
        if fault.id in seen:
            raise ctx.error(f"fault id {fault.id!r} is used twice (first at faults[{seen[fault.id]}])", i, "id")
        seen[fault.id] = i
        try:
            condition = parse_state_predicate(resolve_refs(fault.active_while, ctx.refs, ()))
        except CheckSpecError as exc:  # an unknown ref
            raise ctx.error(exc.message, i, "active_while", *exc.path) from None
        except ValueError as exc:
            raise ctx.error(str(exc), i, "active_while") from None
        effects = tuple(_effect(ctx, effect, i, k) for k, effect in enumerate(fault.effects))
        built.append(ResolvedFault(fault.id, condition, effects, parse_duration(fault.recover_after)))
    return built


def _effect(ctx: BuildContext, effect: WrittenEffect, i: int, k: int) -> Effect:
    if effect.datadog_monitor is not None:
        spec = effect.datadog_monitor
        here = (i, "effects", k, "datadog.monitor", "monitor")
        monitor = ctx.resolve_kind(spec.monitor, MONITORS, *here)
        if str(monitor) not in ctx.collection(MONITORS):
            raise ctx.error(f"no Datadog monitor {spec.monitor}", *here)
        return MonitorForce(str(monitor), spec.state)
    if effect.pagerduty_incident is not None:
        page = effect.pagerduty_incident
        here = (i, "effects", k, "pagerduty.incident", "service")
        service = ctx.resolve_kind(page.service, SERVICES, *here)
        if service not in ctx.collection(SERVICES):
            raise ctx.error(f"no PagerDuty service {page.service}", *here)
        return Page(service, page.title, page.urgency, page.details)
    metric = effect.metric
    assert metric is not None  # the model has exactly one key
    return MetricStep(metric.name, tuple(metric.tags), float(metric.value), _float(metric.normal))


def _float(value: float | None) -> float | None:
    return None if value is None else float(value)
