"""Check kinds, registered by decorator, each with a pydantic argument model and a function.

A top-level kind is the key a check file uses (`trace:`, `output:`, `judge:`); a state check is a named
predicate under `state:` (`slack.message`, `record`). A module registers its kinds when it is imported:
`soundstage.checks` imports its own, each service package its state checks, `soundstage.predicates` the
generic ones, so both tables are complete once `soundstage.checks` is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import UnionType
from typing import Annotated, Any, ClassVar, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, NonNegativeInt, PositiveInt, ValidationError, model_validator
from pydantic.fields import FieldInfo

from ..spec.loader import expected_found
from .attempt import Attempt
from .conditions import enough
from .outcome import Outcome
from .words import how_many


@dataclass(frozen=True)
class Refers:
    """Marks an argument that names something a scene declares, which must exist for the check to mean
    anything: `Annotated[str, Refers("fault")]`. What: `fact`, `decision`, `person`, `fault` or `call` (a
    call pattern, whose service must be one soundstage serves)."""

    what: str


Path = tuple[str | int, ...]
Reference = tuple[str, Path, Any]  # what it names, where in the arguments, and the value that names it


class Args(BaseModel):
    """Base of every check's argument model: unknown keys are errors, types are strict (`merged: "yes"` is
    not a boolean), values never change after parsing."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True, strict=True, defer_build=True)
    refers: ClassVar[str | None] = None  # the whole model names something (a decision)

    def references(self, path: Path = ()) -> Iterator[Reference]:
        """Everything these arguments name (see `Refers`), with the path to it: what a validator resolves
        against the scene before any attempt is run."""
        if self.refers is not None:
            yield self.refers, path, self
        for name, info in type(self).model_fields.items():
            value = getattr(self, name)
            if value is not None:
                yield from _references(value, path + (info.alias or name,), _refers(info))


class Counted(Args):
    """Arguments of a check that counts the records it matches: exactly `count`, or at least `count_gte`
    (default: at least one)."""

    count: NonNegativeInt | None = None
    count_gte: PositiveInt | None = None

    @model_validator(mode="after")
    def _one_count(self) -> Counted:
        if self.count is not None and self.count_gte is not None:
            raise ValueError("give count or count_gte, not both")
        return self

    def how_many(self, noun: str) -> str:
        """The count in words: `exactly 2 issues`, `at least one incident`."""
        return how_many(self.count, self.count_gte, None, noun)

    def enough(self, n: int) -> bool:
        return enough(n, self.count, self.count_gte, None)


def _refers(info: FieldInfo) -> str | None:
    """What a field names, from the `Refers` in its annotation (inside `Annotated`, unions and lists)."""
    found = [m.what for m in info.metadata if isinstance(m, Refers)]
    todo = [info.annotation]
    while todo and not found:
        kind = todo.pop()
        if get_origin(kind) is Annotated:
            found += [m.what for m in get_args(kind)[1:] if isinstance(m, Refers)]
            todo.append(get_args(kind)[0])
        elif get_origin(kind) in (Union, UnionType, list):
            todo += get_args(kind)
    return found[0] if found else None


def _references(value: Any, path: Path, refers: str | None) -> Iterator[Reference]:
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from _references(item, path + (i,), refers)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _references(item, path + (key,), refers)
    elif refers is not None:
        yield refers, path, value
    elif hasattr(value, "references"):  # nested arguments, or a state predicate's
        yield from value.references(path)


A = TypeVar("A", bound=Args)
Run = Callable[[A, Attempt], Outcome]


@dataclass(frozen=True)
class Kind:
    """One kind of check: what a result calls it, its argument model and the function that runs it."""

    name: str  # as results name it: "trace", "state:slack.message"
    args: type[Args]
    run: Callable[[Any, Attempt], Outcome]
    shorthand: str | None = None  # the field a bare value fills: `judge: "rubric"` is `{rubric: ...}`

    def parse(self, value: Any) -> Args:
        """The arguments as this kind's model; raises `ArgumentErrors` naming every problem."""
        try:
            return self.args.model_validate(value)
        except ValidationError as exc:
            raise ArgumentErrors([(tuple(p["loc"]), problem_text(p, self.args)) for p in exc.errors()]) from None


class ArgumentErrors(ValueError):
    """Arguments that do not fit a kind's model: each problem with its path inside the arguments."""

    def __init__(self, problems: list[tuple[tuple[str | int, ...], str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(message for _, message in problems))


def problem_text(problem: Any, model: type[Args]) -> str:
    """One pydantic problem in a user's words: what was expected, and what was found."""
    loc, kind = problem["loc"], problem["type"]
    if kind == "extra_forbidden":
        fields = ", ".join(f.alias or n for n, f in model.model_fields.items()) if len(loc) == 1 else ""
        return f"unknown field {loc[-1]!r}" + (f" (expected one of: {fields})" if fields else "")
    if kind == "missing":
        return f"missing required field {loc[-1]!r}" if loc else "missing a required field"
    if kind == "value_error":
        return str(problem["msg"]).removeprefix("Value error, ")
    return expected_found(problem)


KINDS: dict[str, Kind] = {}  # top-level key -> kind
STATE_CHECKS: dict[str, Kind] = {}  # name under `state:` -> kind


def _register(table: dict[str, Kind], key: str, kind: Kind) -> None:
    if key in table:
        raise ValueError(f"check kind {kind.name!r} registered twice")
    table[key] = kind


def check_kind(
    key: str, args: type[A], shorthand: str | None = None, kind: type[Kind] = Kind
) -> Callable[[Run[A]], Run[A]]:
    """Registers a top-level check kind: `@check_kind("trace", TraceArgs)` on `def trace(args, attempt)`; `kind`:
    a `Kind` whose parsing does more than its argument model (the `python` kind imports its function)."""

    def register(run: Run[A]) -> Run[A]:
        _register(KINDS, key, kind(key, args, run, shorthand))
        return run

    return register


def state_check(name: str, args: type[A]) -> Callable[[Run[A]], Run[A]]:
    """Registers a predicate of the final world, used as `state: {<name>: {...}}`."""

    def register(run: Run[A]) -> Run[A]:
        _register(STATE_CHECKS, name, Kind(f"state:{name}", args, run))
        return run

    return register
