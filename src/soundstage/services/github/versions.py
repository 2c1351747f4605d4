"""The version (`services.versions`) of a GitHub collection, read through a world's or an image's `Records`."""

from __future__ import annotations

from ..versions import Version
from .records import Records


def version(records: Records, name: str) -> object:
    """The token of collection `name`'s contents as they are now."""
    return records[name].derived(Version).token
