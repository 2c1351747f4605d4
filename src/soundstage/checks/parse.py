"""From check mappings (a scene's `checks:`, a `--checks` file, a control-API body) to `Check` objects.

Each check is a mapping with an `id`, an optional `weight` and exactly one kind key. `$name` strings anywhere
in the arguments become the id the ref names. Every problem is a `CheckSpecError` whose `path` (list index,
then keys) lets the scene loader point at the file, line and field; a list with several problems raises
`CheckSpecErrors`, naming every one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ..errors import SpecError
from ..grading.attempt import Attempt
from ..grading.kinds import KINDS, STATE_CHECKS, Args, ArgumentErrors, Kind
from ..grading.outcome import Outcome
from ..spec.refs import PathPart, Problem, resolve_refs

Source = Literal["scene", "custom"]


class CheckSpecError(SpecError):
    """An invalid check or pass list. `path` is relative to the list (`root`): `(2, "trace", "times")`."""

    def __init__(self, message: str, path: tuple[PathPart, ...] = (), root: str = "checks") -> None:
        self.path = path
        self.root = root
        super().__init__(message, field=root + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path))


class CheckSpecErrors(CheckSpecError):
    """Several problems of one check list (or pass list); reads as the first, and keeps them all in `errors`."""

    def __init__(self, errors: list[CheckSpecError]) -> None:
        self.errors = errors
        first, more = errors[0], len(errors) - 1
        message = first.message + (f" (and {more} more error{'s' if more > 1 else ''})" if more else "")
        super().__init__(message, first.path, first.root)


@dataclass(frozen=True)
class Use:
    """Where a check came from a library (`- use: name`): its name, its definition's file and line, and where
    in the expanded check each argument went, so that a problem is reported where the scene wrote it."""

    name: str
    where: str
    placed: dict[tuple[PathPart, ...], str] = field(default_factory=dict)
    named: bool = False  # the entry gave an `id`; else the check is named after the library check

    def located(self, path: tuple[PathPart, ...]) -> tuple[PathPart, ...]:
        """A path in the expanded check (`(3, "state", "slack.message", "channel")`) as written in the scene:
        the argument that filled it (`(3, "use", "channel")`), else the use entry itself. The entry's own
        `weight` is where the scene wrote it."""
        if path[1:] == ("weight",):
            return path
        for length in range(len(path), 0, -1):
            param = self.placed.get(path[:length])
            if param is not None:
                return (path[0], "use", param)
        return (path[0], "use")

    def relocated(self, error: CheckSpecError) -> CheckSpecError:
        path = self.located(error.path)
        scenes = len(path) > 2 or path[1:] == ("weight",)  # an argument's problem, or the entry's own weight's
        message = error.message if scenes else f"library check {self.name} ({self.where}): {error.message}"
        return CheckSpecError(message, path, error.root)


@dataclass(frozen=True)
class Check:
    id: str
    kind: Kind
    args: Args
    spec: dict[str, Any]  # the arguments as written, refs resolved: what a result shows
    source: Source = "scene"
    at: tuple[PathPart, ...] = ()  # where its arguments are in its list: `(2, "trace")`, `(0, "state", "record")`
    shorthand: bool = False  # its arguments were written as a bare value (`revealed: [laura.impact]`)
    use: Use | None = None  # it was written `- use: <library check>`
    weight: float = 1.0  # its share of the attempt's score (checks.results.weighted_score)

    def run(self, attempt: Attempt) -> Outcome:
        return self.kind.run(self.args, attempt)

    def located(self, path: tuple[PathPart, ...]) -> tuple[PathPart, ...]:
        """Where a path inside its arguments (`("facts", 0)`) is written in its list: `(3, "revealed", 0)`."""
        if self.shorthand and path[:1] == (self.kind.shorthand,):
            path = path[1:]
        return self.at + path if self.use is None else self.use.located(self.at + path)


def parse_checks(data: Any, refs: dict[str, str], source: Source = "scene") -> list[Check]:
    """Every check of a list; raises CheckSpecErrors naming every problem of every check."""
    checks, errors = parse_check_list(data, refs, source)
    if errors:
        raise CheckSpecErrors(errors)
    return checks


def parse_check_list(
    data: Any, refs: dict[str, str], source: Source = "scene", uses: dict[int, Use | None] | None = None
) -> tuple[list[Check], list[CheckSpecError]]:
    """The checks of a list that parse, and every problem of the others (a validator reports them all and
    still looks into the checks that parsed). `uses`: the entries that were `use` entries, expanded from a
    library (`checks.library.expand_uses`); None for one that could not be (its problems are reported)."""
    uses = uses or {}
    if not isinstance(data, list):
        return [], [CheckSpecError(f"checks are a list of mappings, got {_type(data)}")]
    checks: list[Check] = []
    errors: list[CheckSpecError] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(data):
        use = uses.get(i)
        check_id = item.get("id") if isinstance(item, dict) else None
        if use is not None or i not in uses:  # a use entry that could not be expanded said why already
            try:
                check = parse_check(item, refs, source, i)
            except CheckSpecErrors as exc:
                errors += [use.relocated(e) for e in exc.errors] if use else exc.errors
            else:
                checks.append(replace(check, use=use) if use else check)
        if isinstance(check_id, str) and check_id:
            if check_id in seen:
                unnamed = i in uses and not (use is not None and use.named)
                hint = ": a use entry is named after its library check, so give it an `id`" if unnamed else ""
                message = f"check id {check_id!r} is used twice (first at checks[{seen[check_id]}]){hint}"
                errors.append(CheckSpecError(message, (i, "use") if unnamed else (i, "id")))
            seen.setdefault(check_id, i)
    return checks, errors


def parse_check(item: Any, refs: dict[str, str], source: Source, i: int) -> Check:
    """One check, the `i`th of its list; raises CheckSpecErrors naming every problem it has."""
    if not isinstance(item, dict):
        raise CheckSpecErrors(
            [CheckSpecError(f"a check is a mapping with an id and one kind key, got {_type(item)}", (i,))]
        )
    errors: list[CheckSpecError] = []
    check_id = item.get("id")
    if not isinstance(check_id, str) or not check_id:
        errors.append(CheckSpecError("every check needs an id (a non-empty string)", (i, "id")))
    weight = item.get("weight", 1)
    # A bool is an int to Python, and YAML reads `.inf` and `.nan` as floats: none of them is a weight.
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not math.isfinite(weight) or weight < 0:
        errors.append(CheckSpecError(f"weight is a number, 0 or more (default 1); found {weight!r}", (i, "weight")))
    keys = [k for k in item if k not in ("id", "weight")]
    if len(keys) != 1:
        found = f"found {', '.join(map(str, keys))}" if keys else "found none"
        errors.append(CheckSpecError(f"a check has exactly one kind key ({_known()}); {found}", (i,)))
        raise CheckSpecErrors(errors)
    key = keys[0]
    problems: list[Problem] = []
    value = resolve_refs(item[key], refs, (i, key), problems)
    errors += [CheckSpecError(message, path) for path, message in problems]
    filled = False  # the value was a shorthand (`before: [...]`): errors do not name the field it filled
    path: tuple[PathPart, ...] = (i, key)
    kind: Kind | None
    if key == "state":
        if not isinstance(value, dict) or len(value) != 1:
            errors.append(
                CheckSpecError(f"state names exactly one predicate ({', '.join(sorted(STATE_CHECKS))})", path)
            )
            raise CheckSpecErrors(errors)
        name, value = next(iter(value.items()))
        kind = STATE_CHECKS.get(name)
        if kind is None:
            errors.append(
                CheckSpecError(f"unknown state check {name!r} (known: {', '.join(sorted(STATE_CHECKS))})", path)
            )
            raise CheckSpecErrors(errors)
        path += (name,)
    else:
        kind = KINDS.get(key)
        if kind is None:
            errors.append(CheckSpecError(f"unknown check kind {key!r} (a check has one of: {_known()})", (i, key)))
            raise CheckSpecErrors(errors)
        if kind.shorthand and not isinstance(value, dict):
            value = {kind.shorthand: value}
            filled = True
    if value is None:
        value = {}
    if not isinstance(value, dict):
        errors.append(CheckSpecError(f"the arguments of a {kind.name} check are a mapping, got {_type(value)}", path))
        raise CheckSpecErrors(errors)
    unknown = [at for at, _ in problems]
    try:
        args = kind.parse(value)
    except ArgumentErrors as exc:
        for loc, message in exc.problems:
            if filled and loc[:1] == (kind.shorthand,):
                loc = loc[1:]
            # An unknown ref's value, left as written, is no problem of its own: only the others are.
            if not any((path + loc)[: len(at)] == at for at in unknown):
                errors.append(CheckSpecError(message, path + loc))
        raise CheckSpecErrors(errors) from None
    if errors:
        raise CheckSpecErrors(errors)
    return Check(
        id=str(check_id),
        kind=kind,
        args=args,
        spec=value,
        source=source,
        at=path,
        shorthand=filled,
        weight=float(weight),
    )


def check_pass_list(pass_ids: Any, checks: list[Check], written: list[str] | None = None) -> None:
    """The `pass` list names checks that exist, each once; None means every check. `written`: the ids the
    check list gives, when some of its checks could not be parsed (so that they still count as existing)."""
    if pass_ids is None:
        return
    if not isinstance(pass_ids, list):
        raise CheckSpecError(f"pass is a list of check ids, got {_type(pass_ids)}", root="pass")
    ids = set(written) if written is not None else {c.id for c in checks}
    errors: list[CheckSpecError] = []
    seen: set[str] = set()
    for i, check_id in enumerate(pass_ids):
        if check_id not in ids:
            known = ", ".join(sorted(ids)) or "none"
            errors.append(CheckSpecError(f"no check has the id {check_id!r} (check ids: {known})", (i,), root="pass"))
        elif check_id in seen:
            errors.append(CheckSpecError(f"{check_id!r} is listed twice", (i,), root="pass"))
        seen.add(check_id)
    if errors:
        raise CheckSpecErrors(errors)


def _known() -> str:
    return ", ".join(sorted([*KINDS, "state"]))


def _type(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__
