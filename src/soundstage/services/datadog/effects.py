"""What faults do to Datadog: `datadog.monitor` holds a monitor in a state, `metric` steps a metric's series.

    - datadog.monitor: {monitor: $latency, state: Alert}
    - metric: {name: orders.latency.p99, value: 2400, normal: 180, tags: [service:orders]}

A held monitor is written at once and left alone by the evaluations until `recover_after` has passed since
the cause went; a stepped metric reads `value` while the fault is active and goes back to normal as soon
as the cause is gone (the monitor then follows it, once released).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...spec.build import BuildContext
from ...spec.fields import Spec
from ...world import World
from ..effects import Effect, fault_effect
from .evaluation import force, release
from .series import end_override, set_override
from .store import MONITORS


class MonitorEffect(Spec):
    """The monitor is held in `state` while the fault is active, whatever its metrics say."""

    monitor: str | int  # a ref or a monitor id
    state: Literal["Alert", "Warn", "No Data"]


class MetricEffect(Spec):
    """Every series of metric `name` carrying all of `tags` reads `value` while the fault is active."""

    name: str
    value: float | int
    normal: float | int | None = None  # the usual level: the base of the series when none exists yet
    tags: list[str] = []


@dataclass(frozen=True)
class MonitorHold(Effect):
    monitor: str  # datadog.monitors id
    state: str

    def start(self, world: World, fault: str) -> None:
        force(world, self.monitor, f"fault:{fault}", self.state)

    def recover(self, world: World, fault: str) -> None:
        release(world, self.monitor, f"fault:{fault}")


@dataclass(frozen=True)
class MetricStep(Effect):
    name: str
    tags: tuple[str, ...]
    value: float
    normal: float | None

    def start(self, world: World, fault: str) -> None:
        set_override(world, self.name, list(self.tags), self.value, base=self.normal if self.normal is not None else 0)

    def stop(self, world: World, fault: str) -> None:
        end_override(world, self.name, list(self.tags))


@fault_effect("datadog.monitor", MonitorEffect)
def monitor_hold(effect: MonitorEffect, ctx: BuildContext) -> Effect:
    monitor = ctx.resolve_kind(effect.monitor, MONITORS, "monitor")
    if str(monitor) not in ctx.collection(MONITORS):
        raise ctx.error(f"no Datadog monitor {effect.monitor}", "monitor")
    return MonitorHold(str(monitor), effect.state)


@fault_effect("metric", MetricEffect)
def metric_step(effect: MetricEffect, ctx: BuildContext) -> Effect:
    normal = None if effect.normal is None else float(effect.normal)
    return MetricStep(effect.name, tuple(effect.tags), float(effect.value), normal)
