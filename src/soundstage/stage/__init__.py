"""The stage: a scene's world image, built once from its files (every service's records, the people,
the faults, the checks, all resolved and validated), and the live worlds copied from it.

    image = ImageCache().load(scene="csv-export")   # or build_image(*read_scene(path))
    world = image.instantiate("w1")
    errors = validate_file(Path("seeds/csv-export.yaml"))
"""

from __future__ import annotations

from .image import ImageCache, WorldImage, build_image
from .models import Scene, WorldDefinition, read_scene, read_scene_text, read_world
from .validate import validate_file

__all__ = [
    "ImageCache",
    "Scene",
    "WorldDefinition",
    "WorldImage",
    "build_image",
    "read_scene",
    "read_scene_text",
    "read_world",
    "validate_file",
]
