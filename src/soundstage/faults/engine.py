"""Faults on a live world (docs/faults.md): the world misbehaves while a condition holds, until the agent
fixes the cause.

`attach(world, faults)` evaluates every fault when the world is built (an active one starts at the clock
start, before any agent call) and then watches the world: a fault's condition is evaluated again only when
a collection it read last time was written since (see `predicates.live`).

- The condition comes to hold: event `fault_started`, and each effect starts (what an effect does is its
  service's: see `services.effects`).
- It stops holding: event `fault_resolved` (field `fault`), and each effect stops; `recover_after` later
  each effect recovers.
- It holds again after being resolved: a new `fault_started`, effects started again (a recovery still
  pending is called off).

The world's own writes carry no agent call (`by`), so the `writes` check never counts them; the effects of
a fault active at the start are part of the world the agent finds (the `diff` check's starting point is
taken after them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from ..clock import iso
from ..events import FaultResolvedEvent, FaultStartedEvent
from ..predicates.live import Watched, writes_since
from ..world import World
from .build import ResolvedFault


@dataclass
class _State:
    """One fault on one world: whether it is active, its condition as watched, its episode number."""

    fault: ResolvedFault
    watched: Watched = field(init=False)
    active: bool = False
    episode: int = 0  # bumped at each start: a recovery scheduled in an earlier episode does nothing

    def __post_init__(self) -> None:
        self.watched = Watched(self.fault.condition, f"the condition of fault {self.fault.id}")


def attach(world: World, faults: list[ResolvedFault]) -> None:
    """Starts the faults active now and watches the world for changes of their conditions."""
    if faults:
        world.watch(_Watcher(world, [_State(f) for f in faults]))


class _Watcher:
    def __init__(self, world: World, faults: list[_State]) -> None:
        self.faults = faults
        for state in faults:
            self._evaluate(world, state)
        self.seen = world.log.last_seq

    def __call__(self, world: World) -> None:
        changed = {write.collection for write in writes_since(world, self.seen)}
        self.seen = world.log.last_seq
        if not changed:
            return
        for state in self.faults:
            if state.watched.due(changed):
                self._evaluate(world, state)
        # The effects' own writes are not changes of a cause.
        self.seen = world.log.last_seq

    def _evaluate(self, world: World, state: _State) -> None:
        holds, _ = state.watched.evaluate(world)
        if holds is None:
            return
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
        effect.start(world, fault.id)


def _resolve(world: World, state: _State) -> None:
    fault = state.fault
    state.active = False
    world.log.emit(FaultResolvedEvent, t=iso(world.now()), fault=fault.id)
    for effect in fault.effects:
        effect.stop(world, fault.id)
    if fault.recover_after:
        world.schedule(world.now() + fault.recover_after, partial(_recover, state=state, episode=state.episode))
    else:
        _recover(world, state, state.episode)


def _recover(world: World, state: _State, episode: int) -> None:
    if state.active or state.episode != episode:
        return
    for effect in state.fault.effects:
        effect.recover(world, state.fault.id)
