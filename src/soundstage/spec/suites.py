"""Suites: `suites/<name>.yaml` lists scenes run together (`soundstage run suites/oncall.yaml`), by name or
path, and/or every scene carrying some tags (docs/scenes.md, "Suites").

A run's argument is a suite when it is a file whose YAML has `scenes` or `tags` and no `task`, or a name
that no scene has and a `suites/<name>.yaml` of the roots has. Its scenes take its place, in its order, each
once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import model_validator

from ..errors import NotFound, SpecError
from .discovery import find_named_suite, find_scene, is_file, is_name, list_scenes
from .fields import Spec
from .loader import SpecErrors, read_document, validate_model


class Suite(Spec):
    """`suites/<name>.yaml`."""

    name: str
    description: str = ""
    scenes: list[str] = []  # scene names (seeds/<name>.yaml of the roots) or paths relative to the suite file
    tags: list[str] = []  # and every scene carrying any of these tags

    @model_validator(mode="after")
    def _has_scenes(self) -> Suite:
        if not self.scenes and not self.tags:
            raise ValueError("a suite lists `scenes`, or `tags` whose scenes it runs, or both")
        return self


def is_suite(argument: str) -> Path | None:
    """The suite file `argument` names, or None when it names a scene (or nothing: the scene lookup says so)."""
    path = Path(argument)
    if is_file(path) and path.suffix in (".yaml", ".yml"):
        try:
            data = read_document(path).data
        except SpecError:
            return None  # read as a scene, whose errors name it
        return path if ("scenes" in data or "tags" in data) and "task" not in data else None
    return find_named_suite(argument) if is_name(argument) else None


def read_suite(path: Path) -> tuple[Suite, list[str]]:
    """A suite and its scenes (paths), each once; raises SpecErrors naming file, line and field of every
    scene it lists that cannot be found, or SpecErrors of its fields."""
    document = read_document(path)
    suite = validate_model(Suite, document)
    scenes: list[str] = []
    errors: list[SpecError] = []
    for i, entry in enumerate(suite.scenes):
        relative = path.parent / entry
        try:
            found = relative if is_file(relative) else find_scene(entry)
        except NotFound as exc:
            errors.append(SpecError(str(exc), file=document.file, line=document.line(("scenes", i)), field=f"scenes[{i}]"))
            continue
        scenes.append(str(found))
    for tag in suite.tags:
        tagged = [str(p) for _, p, _ in list_scenes() if tag in scene_tags(p)]
        if not tagged:
            line = document.line(("tags", suite.tags.index(tag)))
            errors.append(SpecError(f"no scene has the tag {tag!r}", file=document.file, line=line, field="tags"))
        scenes += tagged
    if errors:
        raise SpecErrors(errors)
    unique: dict[Path, str] = {}
    for scene in scenes:
        unique.setdefault(Path(scene).resolve(), scene)
    return suite, list(unique.values())


def expand_suites(arguments: list[str]) -> list[str]:
    """The run's scenes: each argument, or a suite's scenes in its place."""
    scenes: list[str] = []
    for argument in arguments:
        suite = is_suite(argument)
        scenes += read_suite(suite)[1] if suite is not None else [argument]
    return scenes


def scene_tags(path: Path) -> list[str]:
    """A scene file's `tags`, read without building it (none for a file that does not read)."""
    return [str(tag) for tag in _field(path, "tags", [])]


def scene_difficulty(path: Path) -> str | None:
    value = _field(path, "difficulty", None)
    return value if isinstance(value, str) else None


def _field(path: Path, key: str, default: Any) -> Any:
    try:
        value = read_document(path).data.get(key, default)
    except SpecError:
        return default
    return value if isinstance(value, type(default)) or default is None else default
