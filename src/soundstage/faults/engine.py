"""Faults on a live world (DESIGN 3.5): the world misbehaves while a condition holds, until the agent fixes
the cause.

`attach(world, faults)` evaluates every fault when the world is built (an active one starts at the clock
start, before any agent call) and then watches the world: a fault's condition is evaluated again only when
a collection it read last time was written since (the mechanism of `checks.milestones`).

- The condition comes to hold: event `fault_started`, and its effects apply now. `metric` steps the series
  to `value` (open-ended); `datadog.monitor` holds the monitor in its state, written at once;
  `pagerduty.incident` triggers an incident on the service, assigned through its escalation policy by
  the service itself, with one alert; while that incident is open, a fault starting again adds an alert
  to it (the same dedup key) instead of paging anew.
- It stops holding: event `fault_resolved` (field `fault`). The metric goes back to normal at once (the
  cause is gone); `recover_after` later the monitor is released and follows its metrics again. The
  incident stays as it is: resolving it is the agent's job.
- It holds again after being resolved: a new `fault_started`, effects applied again (a recovery still
  pending is called off).

The world's own writes carry no agent call (`by`), so the `writes` check never counts them; the effects of
a fault active at the start are part of the world the agent finds (the `diff` check's starting point is
taken after them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from ..checks.milestones import evaluate_now
from ..clock import iso
from ..events import FaultResolvedEvent, FaultStartedEvent, WriteEvent
from ..services.datadog.evaluation import force, release
from ..services.datadog.series import end_override, set_override
from ..services.pagerduty.incidents import Incidents, arm, default_urgency, service_agent
from ..services.pagerduty.store import SERVICES
from ..world import World
from .build import MetricStep, MonitorForce, Page, ResolvedFault


@dataclass
class _State:
    """One fault on one world: whether it is active, what its condition read, its episode number."""

    fault: ResolvedFault
    active: bool = False
    episode: int = 0  # bumped at each start: a recovery scheduled in an earlier episode does nothing
    reads: set[str] = field(default_factory=set)
    reads_all: bool = True
    incident_keys: dict[str, str] = field(default_factory=dict)  # service id -> dedup key of its page


def attach(world: World, faults: list[ResolvedFault]) -> None:
    """Starts the faults active now and watches the world for changes of their conditions."""
    if faults:
        world.watch(_Watcher(world, [_State(f) for f in faults]))


class _Watcher:
    def __init__(self, world: World, faults: list[_State]) -> None:
        self.faults = faults
        self.seen = world.log.last_seq
        for state in faults:
            self._evaluate(world, state)
        self.seen = world.log.last_seq

    def __call__(self, world: World) -> None:
        changed = {e.collection for e in world.log.events[self.seen :] if isinstance(e, WriteEvent)}
        self.seen = world.log.last_seq
        if not changed:
            return
        for state in self.faults:
            if state.reads_all or state.reads & changed:
                self._evaluate(world, state)
        # The effects' own writes are not changes of a cause.
        self.seen = world.log.last_seq

    def _evaluate(self, world: World, state: _State) -> None:
        holds, view = evaluate_now(world, state.fault.condition, f"the condition of fault {state.fault.id}")
        if holds is None:
            return
        state.reads, state.reads_all = view.reads, view.reads_all
        if holds and not state.active:
            _start(world, state)
        elif state.active and not holds:
            _resolve(world, state)


def _start(world: World, state: _State) -> None:
    fault = state.fault
    state.active = True
    state.episode += 1
    world.log.emit(FaultStartedEvent, t=iso(world.now()), fault=fault.id)
    for effect in fault.effects:
        if isinstance(effect, MetricStep):
            base = effect.normal if effect.normal is not None else 0
            set_override(world, effect.name, list(effect.tags), effect.value, base=base)
        elif isinstance(effect, MonitorForce):
            force(world, effect.monitor, _source(fault), effect.state)
        else:
            _page(world, state, effect)


def _page(world: World, state: _State, page: Page) -> None:
    incidents = Incidents.of(world)
    service = world[SERVICES].get(page.service)
    if service is None:  # the agent deleted the service
        return
    at = world.now()
    key = state.incident_keys.get(page.service)
    incident = incidents.open_with_key(page.service, key) if key else None
    if incident is None:
        incident = incidents.trigger(
            service=service,
            title=page.title,
            at=at,
            agent=service_agent(page.service),
            urgency=page.urgency or default_urgency(service),
            details=page.details,
        )
        state.incident_keys[page.service] = incident["incident_key"]
        arm(world, incident)
    incidents.add_alert(incident, summary=page.title, at=at, source=service["name"])


def _resolve(world: World, state: _State) -> None:
    fault = state.fault
    state.active = False
    world.log.emit(FaultResolvedEvent, t=iso(world.now()), fault=fault.id)
    for effect in fault.effects:
        if isinstance(effect, MetricStep):
            end_override(world, effect.name, list(effect.tags))
    if fault.recover_after:
        world.schedule(world.now() + fault.recover_after, partial(_recover, state=state, episode=state.episode))
    else:
        _recover(world, state, state.episode)


def _recover(world: World, state: _State, episode: int) -> None:
    if state.active or state.episode != episode:
        return
    for effect in state.fault.effects:
        if isinstance(effect, MonitorForce):
            release(world, effect.monitor, _source(state.fault))


def _source(fault: ResolvedFault) -> str:
    return f"fault:{fault.id}"
