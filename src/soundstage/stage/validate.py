"""`validate_file`: every problem of a world or scene file, found the way a run would load it."""

from __future__ import annotations

from pathlib import Path

from ..errors import SpecError
from ..spec.loader import Document, read_document
from .image import build_image
from .models import Scene, read_scene, read_world

# Keys only a scene has: a file with any of them is a scene, even one that lacks its `task`.
SCENE_KEYS = frozenset(
    {"task", "world", "seed", "agent", "people", "faults", "api_faults", "checks", "pass", "rate_limits"}
)


def is_scene(document: Document) -> bool:
    return bool(SCENE_KEYS & set(document.data))


def validate_file(path: Path) -> list[SpecError]:
    """Every error of a world or scene file (refs, people, faults and checks included), by line."""
    try:
        document = read_document(path)
        if is_scene(document):
            build_image(*read_scene(path))
        else:
            world, _ = read_world(path)
            scene = Scene.model_validate({"name": world.name, "task": "", "world": str(path.resolve())})
            build_image(scene, Document(data={}, lines={}, file=str(path)))
    except SpecError as exc:
        return list(getattr(exc, "errors", None) or [exc])
    return []
