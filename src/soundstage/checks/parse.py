"""From check mappings (a scene's `checks:`, a `--checks` file, a control-API body) to `Check` objects.

Each check is a mapping with an `id` and exactly one kind key. `$name` strings anywhere in the arguments
become the id the ref names. Every problem is a `CheckSpecError` whose `path` (list index, then keys)
lets the scene loader point at the file, line and field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError

from ..errors import SpecError
from .attempt import Attempt
from .registry import KINDS, STATE_CHECKS, Args, Kind
from .results import Outcome

PathPart = str | int
_REF = re.compile(r"^\$([A-Za-z_][A-Za-z0-9_.-]*)$")  # "$100" stays text


class CheckSpecError(SpecError):
    """An invalid check or pass list. `path` is relative to the list (`root`): `(2, "trace", "times")`."""

    def __init__(self, message: str, path: tuple[PathPart, ...] = (), root: str = "checks") -> None:
        self.path = path
        super().__init__(message, field=root + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path))


@dataclass(frozen=True)
class Check:
    id: str
    kind: Kind
    args: Args
    spec: dict[str, Any]  # the arguments as written, refs resolved: what a result shows
    source: Literal["scene", "custom"] = "scene"

    def run(self, attempt: Attempt) -> Outcome:
        return self.kind.run(self.args, attempt)


def parse_checks(data: Any, refs: dict[str, str], source: Literal["scene", "custom"] = "scene") -> list[Check]:
    if not isinstance(data, list):
        raise CheckSpecError(f"checks are a list of mappings, got {_type(data)}")
    checks: list[Check] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(data):
        check = parse_check(item, refs, source, i)
        if check.id in seen:
            raise CheckSpecError(f"check id {check.id!r} is used twice (first at checks[{seen[check.id]}])", (i, "id"))
        seen[check.id] = i
        checks.append(check)
    return checks


def parse_check(item: Any, refs: dict[str, str], source: Literal["scene", "custom"], i: int) -> Check:
    if not isinstance(item, dict):
        raise CheckSpecError(f"a check is a mapping with an id and one kind key, got {_type(item)}", (i,))
    check_id = item.get("id")
    if not isinstance(check_id, str) or not check_id:
        raise CheckSpecError("every check needs an id (a non-empty string)", (i, "id"))
    keys = [k for k in item if k != "id"]
    if len(keys) != 1:
        found = f"found {', '.join(map(str, keys))}" if keys else "found none"
        raise CheckSpecError(f"a check has exactly one kind key ({_known()}); {found}", (i,))
    key = keys[0]
    value = resolve_refs(item[key], refs, (i, key))
    filled = False  # the value was a shorthand (`before: [...]`): errors do not name the field it filled
    path: tuple[PathPart, ...] = (i, key)
    if key == "state":
        if not isinstance(value, dict) or len(value) != 1:
            raise CheckSpecError(f"state names exactly one predicate ({', '.join(sorted(STATE_CHECKS))})", path)
        name, value = next(iter(value.items()))
        kind = STATE_CHECKS.get(name)
        if kind is None:
            raise CheckSpecError(f"unknown state check {name!r} (known: {', '.join(sorted(STATE_CHECKS))})", path)
        path += (name,)
    else:
        kind = KINDS.get(key)
        if kind is None:
            raise CheckSpecError(f"unknown check kind {key!r} (a check has one of: {_known()})", (i, key))
        if kind.shorthand and not isinstance(value, dict):
            value = {kind.shorthand: value}
            filled = True
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise CheckSpecError(f"the arguments of a {kind.name} check are a mapping, got {_type(value)}", path)
    try:
        args = kind.args.model_validate(value)
    except ValidationError as exc:
        problem = exc.errors()[0]
        loc = tuple(problem["loc"])
        if filled and loc[:1] == (kind.shorthand,):
            loc = loc[1:]
        raise CheckSpecError(_message(problem, kind.args), path + loc) from exc
    return Check(id=check_id, kind=kind, args=args, spec=value, source=source)


def check_pass_list(pass_ids: Any, checks: list[Check]) -> None:
    """The `pass` list names checks that exist, each once; None means every check."""
    if pass_ids is None:
        return
    if not isinstance(pass_ids, list):
        raise CheckSpecError(f"pass is a list of check ids, got {_type(pass_ids)}", root="pass")
    ids = {c.id for c in checks}
    seen: set[str] = set()
    for i, check_id in enumerate(pass_ids):
        if check_id not in ids:
            known = ", ".join(sorted(ids)) or "none"
            raise CheckSpecError(f"no check has the id {check_id!r} (check ids: {known})", (i,), root="pass")
        if check_id in seen:
            raise CheckSpecError(f"{check_id!r} is listed twice", (i,), root="pass")
        seen.add(check_id)


def resolve_refs(value: Any, refs: dict[str, str], path: tuple[PathPart, ...]) -> Any:
    """Replaces every `$name` string inside `value` with `refs[name]`."""
    if isinstance(value, str):
        match = _REF.match(value)
        if match is None:
            return value
        if match[1] not in refs:
            known = ", ".join("$" + n for n in sorted(refs)[:12]) or "none"
            raise CheckSpecError(f"unknown ref {value} (known refs: {known})", path)
        return refs[match[1]]
    if isinstance(value, list):
        return [resolve_refs(item, refs, path + (i,)) for i, item in enumerate(value)]
    if isinstance(value, dict):
        return {k: resolve_refs(v, refs, path + (k,)) for k, v in value.items()}
    return value


def _message(problem: Any, model: type[Args]) -> str:
    loc, kind = problem["loc"], problem["type"]
    if kind == "extra_forbidden":
        fields = ", ".join(f.alias or n for n, f in model.model_fields.items()) if len(loc) == 1 else ""
        return f"unknown field {loc[-1]!r}" + (f" (expected one of: {fields})" if fields else "")
    if kind == "missing":
        return f"missing required field {loc[-1]!r}" if loc else "missing a required field"
    message = str(problem["msg"]).removeprefix("Value error, ")
    return message if kind == "value_error" else f"{message} (got {problem['input']!r})"


def _known() -> str:
    return ", ".join(sorted([*KINDS, "state"]))


def _type(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__
