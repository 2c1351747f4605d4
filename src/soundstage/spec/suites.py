"""Suites: `suites/<name>.yaml` lists scenes run together (`soundstage run suites/oncall.yaml`), by name or
path, and/or every scene carrying some tags (docs/scenes.md, "Suites").

A run's argument is a suite when it is a file whose keys make it one (`scenes` or `tags`, and none only a
scene has: spec/kinds.py), or a name that no scene has and a `suites/<name>.yaml` of the roots has. Its
scenes take its place, in its order, each once.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import model_validator

from ..errors import NotFound, SpecError
from .discovery import find_named_suite, find_scene, is_file, is_name, list_scenes
from .fields import Spec
from .kinds import file_kind
from .loader import SpecErrors, read_document, validate_partly


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
            document = read_document(path)
        except SpecError:
            return None  # read as a scene, whose errors name it
        return path if file_kind(document) == "suite" else None
    return find_named_suite(argument) if is_name(argument) else None


def read_suite(path: Path) -> tuple[Suite, list[str]]:
    """A suite and its scenes (paths), each once; raises SpecErrors naming file, line and field of every
    scene it lists that cannot be found, or SpecErrors of its fields."""
    document = read_document(path)
    suite, errors, _ = validate_partly(Suite, document, {"name": path.stem})
    if suite is None:
        raise SpecErrors(errors)
    scenes: list[str] = []
    for i, entry in enumerate(suite.scenes):
        relative = path.parent / entry
        try:
            found = relative if is_file(relative) else find_scene(entry)
        except NotFound as exc:
            errors.append(
                SpecError(str(exc), file=document.file, line=document.line(("scenes", i)), field=f"scenes[{i}]")
            )
            continue
        scenes.append(str(found))
    labelled = [(str(p), scene_labels(p)[0]) for _, p, _ in list_scenes()] if suite.tags else []
    for i, tag in enumerate(suite.tags):
        tagged = [scene for scene, tags in labelled if tag in tags]
        if not tagged:
            line = document.line(("tags", i))
            errors.append(SpecError(f"no scene has the tag {tag!r}", file=document.file, line=line, field="tags"))
        scenes += tagged
    if errors:
        raise SpecErrors(sorted(errors, key=lambda error: error.line or 0))
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


def scene_labels(path: Path) -> tuple[list[str], str | None]:
    """A scene file's `tags` and `difficulty`, read without building it (none for a file that does not read:
    validating it says why)."""
    try:
        data = read_document(path).data
    except SpecError:
        return [], None
    tags, difficulty = data.get("tags"), data.get("difficulty")
    return (
        [str(tag) for tag in tags] if isinstance(tags, list) else [],
        difficulty if isinstance(difficulty, str) else None,
    )
