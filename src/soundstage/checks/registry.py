"""Check kinds, registered by decorator, each with a pydantic argument model and a function.

A top-level kind is the key a check file uses (`trace:`, `output:`, `judge:`); a state check is a named
predicate under `state:` (`slack.message`, `record`). Every module of this package is imported when the
package is, so a new family of checks is one new module that registers its kinds.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from .attempt import Attempt
    from .results import Outcome


class Args(BaseModel):
    """Base of every check's argument model: unknown keys are errors, values never change after parsing."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)


A = TypeVar("A", bound=Args)
Run = Callable[[A, "Attempt"], "Outcome"]


@dataclass(frozen=True)
class Kind:
    """One kind of check: what a result calls it, its argument model and the function that runs it."""

    name: str  # as results name it: "trace", "state:slack.message"
    args: type[Args]
    run: Callable[[Any, Attempt], Outcome]
    shorthand: str | None = None  # the field a bare value fills: `judge: "rubric"` is `{rubric: ...}`


KINDS: dict[str, Kind] = {}  # top-level key -> kind
STATE_CHECKS: dict[str, Kind] = {}  # name under `state:` -> kind


def _register(table: dict[str, Kind], key: str, kind: Kind) -> None:
    if key in table:
        raise ValueError(f"check kind {kind.name!r} registered twice")
    table[key] = kind


def check_kind(key: str, args: type[A], shorthand: str | None = None) -> Callable[[Run[A]], Run[A]]:
    """Registers a top-level check kind: `@check_kind("trace", TraceArgs)` on `def trace(args, attempt)`."""

    def register(run: Run[A]) -> Run[A]:
        _register(KINDS, key, Kind(key, args, run, shorthand))
        return run

    return register


def state_check(name: str, args: type[A]) -> Callable[[Run[A]], Run[A]]:
    """Registers a predicate of the final world, used as `state: {<name>: {...}}`."""

    def register(run: Run[A]) -> Run[A]:
        _register(STATE_CHECKS, name, Kind(f"state:{name}", args, run))
        return run

    return register


def load_kinds() -> None:
    """Imports every module of this package, so that each registers its kinds."""
    package = __name__.rpartition(".")[0]
    for module in pkgutil.iter_modules(importlib.import_module(package).__path__):
        importlib.import_module(f"{package}.{module.name}")
