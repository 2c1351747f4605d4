"""`validated`: every problem of a file of soundstage's, read as the kind of file it is (spec/kinds.py: a scene,
a world definition, a suite, a check library or a project file) the way a run would load it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..checks.library import read_library_file
from ..errors import SpecError
from ..people.narrow import narrow_asks
from ..spec.kinds import Kind, file_kind
from ..spec.loader import Document, SpecErrors, read_document, validate_model
from ..spec.project_file import ProjectFile
from ..spec.suites import read_suite
from .image import WorldImage, build_image, scene_image
from .models import Scene, read_world


@dataclass
class Validated:
    """A file as validated: its kind (None when it could not be read at all), its errors, warnings (which do not
    make it invalid) and, for a scene that builds, its image."""

    file: str
    kind: Kind | None
    errors: list[SpecError]
    warnings: list[SpecError] = field(default_factory=list)
    image: WorldImage | None = None

    @property
    def ok(self) -> bool:
        return not self.errors


def validated(path: Path, kind: Kind | None = None) -> Validated:
    """Every error of a file, by line: a scene's refs, people, faults and checks included. Read as `kind`, else
    as the kind its content tells."""
    try:
        document = read_document(path)
    except SpecError as exc:
        return Validated(str(path), kind, listed(exc))
    kind = kind or file_kind(document)
    image: WorldImage | None = None
    errors: list[SpecError] = []
    try:
        if kind == "scene":
            image = scene_image(document)
        else:
            _VALIDATORS[kind](path, document)
    except SpecError as exc:
        errors = listed(exc)
    warnings = narrow_asks(path) if kind == "scene" else []
    return Validated(str(path), kind, errors, warnings, image)


def validate_file(path: Path) -> list[SpecError]:
    """Every error of a file (`validated`'s errors alone)."""
    return validated(path).errors


def listed(exc: SpecError) -> list[SpecError]:
    """The errors a SpecError stands for: those of a SpecErrors, or itself."""
    return list(getattr(exc, "errors", None) or [exc])


def _world(path: Path, document: Document) -> None:
    world, _ = read_world(path)
    scene = Scene.model_validate({"name": world.name, "task": "", "world": str(path.resolve())})
    build_image(scene, Document(data={}, lines={}, file=str(path)))


def _suite(path: Path, document: Document) -> None:
    read_suite(path)


def _library(path: Path, document: Document) -> None:
    read_library_file(path)


def _project(path: Path, document: Document) -> None:
    """Its settings and its check definitions, the problems of both at once."""
    errors: list[SpecError] = []
    try:
        validate_model(ProjectFile, document)
    except SpecError as exc:
        errors += listed(exc)
    try:
        read_library_file(path, project=True)
    except SpecError as exc:
        errors += listed(exc)
    if errors:
        raise SpecErrors(sorted(errors, key=lambda error: error.line or 0))


_VALIDATORS: dict[str, Callable[[Path, Document], None]] = {
    "world": _world,
    "suite": _suite,
    "library": _library,
    "project": _project,
}
