"""What a fault can do to a service while it is active: effect kinds, each registered by the service it
acts on, the way operations are.

A scene's fault lists its effects as one-key mappings (`- datadog.monitor: {monitor: $latency, state:
Alert}`). An effect kind has a file model (validated with the scene) and a `build` function that resolves
a written effect against the world image (refs, and the records it names, which must exist: errors name
the file, line and field) into an `Effect`. On a live world, the fault engine calls the effect's `start`
when the fault's condition comes to hold, `stop` when it stops holding (the cause is gone), and `recover`
the fault's `recover_after` later.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..spec.build import BuildContext
from ..spec.fields import Spec
from ..world import World

M = TypeVar("M", bound=Spec)


class Effect:
    """One resolved effect. Each fault has its own, so `fault` (its id) keys anything it keeps on a world."""

    def start(self, world: World, fault: str) -> None:
        """The fault's condition came to hold."""

    def stop(self, world: World, fault: str) -> None:
        """It stopped holding: the cause is gone."""

    def recover(self, world: World, fault: str) -> None:
        """`recover_after` has passed since it stopped (and it has not started again)."""


Build = Callable[[Any, BuildContext], Effect]


@dataclass(frozen=True)
class EffectKind:
    name: str  # the key a fault's effect is written with: `datadog.monitor`
    model: type[Spec]
    build: Build  # (the written effect, the image's context pointed at it) -> Effect


EFFECTS: dict[str, EffectKind] = {}


def fault_effect(
    name: str, model: type[M]
) -> Callable[[Callable[[M, BuildContext], Effect]], Callable[[M, BuildContext], Effect]]:
    """Registers an effect kind: `@fault_effect("metric", MetricEffect)` on `def build(effect, ctx)`."""

    def register(build: Callable[[M, BuildContext], Effect]) -> Callable[[M, BuildContext], Effect]:
        if name in EFFECTS:
            raise ValueError(f"fault effect {name!r} registered twice")
        EFFECTS[name] = EffectKind(name, model, build)
        return build

    return register
