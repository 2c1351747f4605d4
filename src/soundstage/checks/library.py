"""A library of named checks (docs/checks.md, "A check library"): each defined once, in a `checks/*.yaml`
file or the project file, and used by any scene as `- use: name` or `- use: {check: name, arg: value}`.

A definition is a check with an id, plus `description` and `params`. A use becomes that check, its
`$param` strings replaced by the arguments (or the parameters' defaults), before the scene's own refs are
resolved: an argument may itself be a ref (`channel: $support`). The scene keeps the expanded checks, so a
saved trial scores the same whatever the library becomes.

Where libraries are found, first definition of a name winning: the files and folders of
`SOUNDSTAGE_CHECKS` (the project file sets it), then `checks/` in each scene search root, then `checks/`
beside the scene's folder (as `worlds/` is).
"""

from __future__ import annotations

import copy
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import SpecError
from ..grading.kinds import KINDS, STATE_CHECKS
from ..spec.discovery import roots
from ..spec.loader import Document, SpecErrors, describe, dotted, read_document
from ..spec.project_file import FILE as PROJECT_FILE
from ..spec.refs import PathPart, ref_name
from .parse import Check, CheckSpecError, CheckSpecErrors, Source, Use, parse_check_list
from .python import scene_places

LIBRARY_ENV = "SOUNDSTAGE_CHECKS"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_DEFINITION_KEYS = ("id", "description", "params")


@dataclass(frozen=True)
class Param:
    name: str
    description: str = ""
    required: bool = True
    default: Any = None


@dataclass(frozen=True)
class Definition:
    """A named check of a library: its check (`{kind key: arguments}`, `$param`s unreplaced) and where it is."""

    name: str
    description: str
    params: dict[str, Param]
    body: dict[str, Any]
    file: str
    line: int | None

    @property
    def kind(self) -> str:
        """`trace`, `judge`, `never`..., or the state check's name (`slack.message`) under `state`."""
        key, value = next(iter(self.body.items()))
        if key == "state" and isinstance(value, dict) and len(value) == 1:
            return str(next(iter(value)))
        return key

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file

    def expand(self, arguments: dict[str, Any], i: int) -> tuple[dict[str, Any], dict[tuple[PathPart, ...], str]]:
        """The check's body with each `$param` replaced, and where each replacement went (its path inside the
        list: `(3, "state", "slack.message", "channel")`)."""
        values = {name: arguments.get(name, param.default) for name, param in self.params.items()}
        placed: dict[tuple[PathPart, ...], str] = {}
        return _fill(self.body, (i,), values, placed), placed


def _fill(
    value: Any, path: tuple[PathPart, ...], values: dict[str, Any], placed: dict[tuple[PathPart, ...], str]
) -> Any:
    """`value` with each `$param` of `values` replaced, noting where in `placed`. A function of the module, not a
    closure calling itself: that would be a cycle, kept for good by a server's collector (collector.py)."""
    name = ref_name(value)
    if name is not None and name in values:
        placed[path] = name
        return copy.deepcopy(values[name])
    if isinstance(value, list):
        return [_fill(item, path + (j,), values, placed) for j, item in enumerate(value)]
    if isinstance(value, dict):
        return {key: _fill(item, path + (key,), values, placed) for key, item in value.items()}
    return value


@dataclass
class Library:
    """Definitions by name, the files they were read from, and the later definitions each one hides."""

    definitions: dict[str, Definition] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    hidden: dict[str, list[Definition]] = field(default_factory=dict)

    def expand(self, item: dict[str, Any], i: int) -> tuple[dict[str, Any], Use]:
        """A scene's `use` entry (the `i`th check) as the check it names; raises CheckSpecError for each problem."""
        errors: list[CheckSpecError] = []
        extra = [key for key in item if key not in ("id", "use", "weight")]
        if extra:
            found = ", ".join(map(str, extra))
            message = f"a use entry has `use`, and optionally `id` and `weight`; found {found}"
            errors.append(CheckSpecError(message, (i,)))
        written = item["use"]
        arguments: dict[str, Any] = {}
        if isinstance(written, dict):
            arguments = {key: value for key, value in written.items() if key != "check"}
            written = written.get("check")
            if written is None:
                raise CheckSpecErrors(
                    errors + [CheckSpecError("name the library check: use: {check: <name>, ...}", (i, "use"))]
                )
        if not isinstance(written, str):
            raise CheckSpecErrors(
                errors + [CheckSpecError(f"use names a library check, got {describe(written)}", (i, "use"))]
            )
        definition = self.definitions.get(written)
        if definition is None:
            known = ", ".join(sorted(self.definitions)) or "none"
            where = ", ".join(self.files) or "no library files found"
            message = f"no library check {written!r} (library checks: {known}; read from: {where})"
            raise CheckSpecErrors(errors + [CheckSpecError(message, (i, "use"))])
        for name in arguments:
            if name not in definition.params:
                declared = ", ".join(definition.params) or "none"
                message = f"{written} has no parameter {name!r} (parameters: {declared}; defined at {definition.where})"
                errors.append(CheckSpecError(message, (i, "use", name)))
        for name, param in definition.params.items():
            if param.required and name not in arguments:
                about = f": {param.description}" if param.description else ""
                errors.append(CheckSpecError(f"{written} needs the argument {name!r}{about}", (i, "use")))
        check_id = item.get("id", written)
        if errors:
            raise CheckSpecErrors(errors)
        body, placed = definition.expand(arguments, i)
        weight = {"weight": item["weight"]} if "weight" in item else {}  # the scene's to give, validated as any
        return {"id": check_id, **weight, **body}, Use(written, definition.where, placed, "id" in item)


def expand_uses(data: Any, library: Library | None) -> tuple[Any, dict[int, Use | None], list[CheckSpecError]]:
    """A check list with its `use` entries replaced by the library checks they name; which entries they were
    (None: could not be expanded), and the problems of those. Without a library, a use entry is a problem."""
    if not uses_library(data):
        return data, {}, []
    expanded: list[Any] = []
    uses: dict[int, Use | None] = {}
    errors: list[CheckSpecError] = []
    for i, item in enumerate(data):
        if not (isinstance(item, dict) and "use" in item):
            expanded.append(item)
            continue
        try:
            if library is None:
                raise CheckSpecError("`use` names a library check, and no check library is read here", (i, "use"))
            check, uses[i] = library.expand(item, i)
        except CheckSpecErrors as exc:
            errors += exc.errors
        except CheckSpecError as exc:
            errors.append(exc)
        else:
            expanded.append(check)
            continue
        uses[i] = None
        written = item["use"].get("check") if isinstance(item["use"], dict) else item["use"]
        expanded.append({"id": item.get("id", written)})  # its id still counts: a second one is a duplicate
    return expanded, uses, errors


def uses_library(data: Any) -> bool:
    """Whether a check list has `use` entries (the library is read only then)."""
    return isinstance(data, list) and any(isinstance(item, dict) and "use" in item for item in data)


def library_places(scene_file: Path | None = None) -> list[Path]:
    """Where libraries are looked for, in order: SOUNDSTAGE_CHECKS's entries, each root's `checks/`, and the
    `checks/` beside the scene's folder."""
    listed = [Path(entry) for entry in os.environ.get(LIBRARY_ENV, "").split(os.pathsep) if entry]
    beside = [scene_file.parent.parent / "checks"] if scene_file is not None else []
    return listed + [root / "checks" for root in roots()] + beside


def library_files(scene_file: Path | None = None) -> list[Path]:
    """The library files, each once, in the order their definitions take precedence."""
    files: list[Path] = []
    seen: set[Path] = set()
    for place in library_places(scene_file):
        found = sorted(place.glob("*.yaml")) if place.is_dir() else [place] if place.is_file() else []
        for path in found:
            key = path.resolve()
            if key not in seen and path.is_file():
                seen.add(key)
                files.append(path)
    return files


def find_library(scene_file: Path | None = None) -> Library:
    """The library a scene in `scene_file` (or a check list used from here) sees; raises SpecErrors naming
    file, line and field of every problem of its files."""
    return read_library(library_files(scene_file))


def read_library(files: list[Path]) -> Library:
    library = Library()
    errors: list[SpecError] = []
    for path in files:
        try:
            definitions = read_library_file(path)
        except SpecErrors as exc:
            errors += exc.errors
            continue
        except SpecError as exc:
            errors.append(exc)
            continue
        library.files.append(str(path))
        for definition in definitions:
            if definition.name in library.definitions:
                library.hidden.setdefault(definition.name, []).append(definition)
            else:
                library.definitions[definition.name] = definition
    if errors:
        raise SpecErrors(errors)
    return library


def read_library_file(path: Path, project: bool = False) -> list[Definition]:
    """The definitions of one file: a mapping with `checks` (a list of definitions) and an optional
    `description`; a project file (soundstage.yaml, or one known to be a project file) is read for its `checks`
    only."""
    document = read_document(path)
    errors: list[SpecError] = []
    project = project or path.name == PROJECT_FILE or _is_configured_project(path)
    if not project:
        for key in document.data:
            if key not in ("description", "checks"):
                errors.append(
                    _error(document, f"unknown key {key!r}: a library file has `checks` and `description`", key)
                )
    listed = document.data.get("checks", [])
    if not isinstance(listed, list):
        errors.append(_error(document, f"checks is a list of check definitions, got {describe(listed)}", "checks"))
        raise SpecErrors(errors)
    definitions: list[Definition] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(listed):
        definition = _definition(document, item, i, errors)
        if definition is None:
            continue
        if definition.name in seen:
            errors.append(
                _error(
                    document,
                    f"{definition.name!r} is defined twice in this file (first at checks[{seen[definition.name]}])",
                    "checks",
                    i,
                    "id",
                )
            )
            continue
        seen[definition.name] = i
        definitions.append(definition)
    if errors:
        raise SpecErrors(errors)
    return definitions


def _definition(document: Document, item: Any, i: int, errors: list[SpecError]) -> Definition | None:
    at: tuple[PathPart, ...] = ("checks", i)
    if not isinstance(item, dict):
        errors.append(_error(document, f"a check definition is a mapping with an id, got {describe(item)}", *at))
        return None
    problems = len(errors)
    name = item.get("id")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        errors.append(
            _error(document, f"expected an id of letters, digits, _, . and -, found {describe(name)}", *at, "id")
        )
    description = item.get("description", "")
    if not isinstance(description, str):
        errors.append(_error(document, f"description is text, got {describe(description)}", *at, "description"))
    params = _params(document, item.get("params", {}), at + ("params",), errors)
    kinds = [key for key in item if key not in _DEFINITION_KEYS]
    known = sorted([*KINDS, "state"])
    if len(kinds) != 1 or kinds[0] not in known:
        found = ", ".join(map(str, kinds)) or "none"
        errors.append(
            _error(document, f"a check definition has exactly one kind key ({', '.join(known)}); found {found}", *at)
        )
        return None
    body = {kinds[0]: item[kinds[0]]}
    if kinds[0] == "state" and not (
        isinstance(item["state"], dict) and len(item["state"]) == 1 and next(iter(item["state"])) in STATE_CHECKS
    ):
        errors.append(
            _error(document, f"state names exactly one state check ({', '.join(sorted(STATE_CHECKS))})", *at, "state")
        )
    used = set(_refs_in(body))
    for param in params:
        if param not in used:
            errors.append(
                _error(document, f"parameter {param!r} is not used: no ${param} in the check", *at, "params", param)
            )
    if len(errors) > problems:
        return None
    return Definition(str(name), description, params, body, document.file, document.line(at))


def _params(document: Document, value: Any, at: tuple[PathPart, ...], errors: list[SpecError]) -> dict[str, Param]:
    """`params: {name: "what it is"}` or `{name: {description, default}}`; a parameter with a default may be left
    out."""
    if not isinstance(value, dict):
        errors.append(
            _error(document, f"params is a mapping of parameter name to its description, got {describe(value)}", *at)
        )
        return {}
    params: dict[str, Param] = {}
    for name, spec in value.items():
        if not isinstance(name, str) or not _NAME.fullmatch(name) or name == "check":
            errors.append(
                _error(
                    document,
                    f"expected a parameter name of letters, digits, _, . and - (not `check`), found {describe(name)}",
                    *at,
                    str(name),
                )
            )
            continue
        if isinstance(spec, str):
            params[name] = Param(name, spec)
        elif (
            isinstance(spec, dict)
            and set(spec) <= {"description", "default"}
            and isinstance(spec.get("description", ""), str)
        ):
            params[name] = Param(name, spec.get("description", ""), "default" not in spec, spec.get("default"))
        else:
            errors.append(
                _error(
                    document,
                    f"a parameter is its description, or {{description, default}}; found {describe(spec)}",
                    *at,
                    name,
                )
            )
    return params


def _refs_in(value: Any) -> list[str]:
    name = ref_name(value)
    if name is not None:
        return [name]
    if isinstance(value, list):
        return [found for item in value for found in _refs_in(item)]
    if isinstance(value, dict):
        return [found for item in value.values() for found in _refs_in(item)]
    return []


def _error(document: Document, message: str, *path: PathPart) -> SpecError:
    return SpecError(message, file=document.file, line=document.line(path), field=dotted(path))


def _is_configured_project(path: Path) -> bool:
    named = os.environ.get("SOUNDSTAGE_CONFIG")
    return named is not None and named != "" and Path(named).resolve() == path.resolve()


@dataclass
class Parsed:
    """A check list parsed with the library: its checks, the list as expanded (what a trial keeps), the
    problems, the library files read (none when no entry is a `use`) and the problems of those files."""

    checks: list[Check]
    expanded: Any
    errors: list[CheckSpecError]
    files: list[str]
    library_errors: list[SpecError]


def parse_with_library(
    data: Any, refs: dict[str, str], source: Source = "scene", scene_file: Path | None = None
) -> Parsed:
    """`parse_check_list` after expanding `use` entries from the library a scene in `scene_file` sees (read
    only when there is one). A library whose files have problems expands nothing: its problems are
    `library_errors`, named at their own files' lines."""
    library: Library | None = None
    library_errors: list[SpecError] = []
    if uses_library(data):
        try:
            library = find_library(scene_file)
        except SpecErrors as exc:
            library_errors = exc.errors
    expanded, uses, errors = expand_uses(data, library)
    if library_errors:  # the entries' problems would only repeat that the library could not be read
        uses, errors = dict.fromkeys(uses), []
    with scene_places(scene_file):  # a Python check's module may lie beside the scene's folder
        checks, problems = parse_check_list(expanded, refs, source, uses)
    errors = sorted(errors + problems, key=lambda e: e.path[:1] if e.path and isinstance(e.path[0], int) else (-1,))
    return Parsed(checks, expanded, errors, library.files if library is not None else [], library_errors)


def parse_checks_with_library(
    data: Any, refs: dict[str, str], source: Source = "custom", scene_file: Path | None = None
) -> list[Check]:
    """Every check of a list given from outside a scene (`--checks`, the control API), `use` entries
    expanded from the library found from here (and beside `scene_file`, the scene scored); raises
    SpecErrors for the library's files, CheckSpecErrors naming every problem of the list."""
    parsed = parse_with_library(data, refs, source, scene_file)
    if parsed.library_errors:
        raise SpecErrors(parsed.library_errors)
    if parsed.errors:
        raise CheckSpecErrors(parsed.errors)
    return parsed.checks
