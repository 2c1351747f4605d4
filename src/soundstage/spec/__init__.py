"""World definitions and scenes: files, models, refs and the world image built from them."""

from __future__ import annotations

from .image import ImageCache, WorldImage, build_image, validate_file

__all__ = ["ImageCache", "WorldImage", "build_image", "validate_file"]
