"""Where world definitions and scenes are found.

A search root holds `worlds/<name>.yaml` and `seeds/<name>.yaml`. The roots are each directory of
`SOUNDSTAGE_PATH` (separated like `PATH`), then the current directory; the first root with a name wins.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import NotFound, SpecError
from .loader import describe, read_document

Listing = list[tuple[str, Path, str]]  # (name, path, description), by name


def roots() -> list[Path]:
    listed = [Path(entry) for entry in os.environ.get("SOUNDSTAGE_PATH", "").split(os.pathsep) if entry]
    return listed + [Path.cwd()]


def find_scene(name_or_path: str | Path) -> Path:
    """An existing file, else the scene of that name in the roots."""
    path = Path(name_or_path)
    if _is_file(path):
        return path
    found = _by_name("seeds", str(name_or_path), roots())
    if found is None:
        raise NotFound(
            f"no scene {describe(str(name_or_path))}: no such file, and no seeds/{_shown(name_or_path)}.yaml in "
            f"{_places(roots())}; {_available('scenes', list_scenes())}"
        )
    return found


def find_world(name_or_path: str | Path, scene_file: Path) -> Path:
    """A path relative to the scene, else a name in the roots, else in a `worlds/` folder beside the
    scene's folder (so `seeds/x.yaml` finds `worlds/acme.yaml` from anywhere)."""
    relative = scene_file.parent / name_or_path
    if _is_file(relative):
        return relative
    places = roots() + [scene_file.parent.parent]
    found = _by_name("worlds", str(name_or_path), places)
    if found is None:
        raise NotFound(
            f"no world definition {describe(str(name_or_path))}: no file {_shown(relative)}, and no "
            f"worlds/{_shown(name_or_path)}.yaml in {_places(places)}; "
            f"{_available('world definitions', _listing('worlds', places))}"
        )
    return found


def list_scenes() -> Listing:
    return _listing("seeds", roots())


def list_worlds() -> Listing:
    return _listing("worlds", roots())


def _by_name(folder: str, name: str, places: list[Path]) -> Path | None:
    for root in places:
        path = root / folder / f"{name}.yaml"
        if _is_file(path):
            return path
    return None


def _is_file(path: Path) -> bool:
    """Whether `path` is a file; False for a name no file can have (too long, a NUL byte, half a character)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _shown(name: str | Path) -> str:
    """A name or path as a message shows it: as given, unless longer than any path can be or not printable
    text (then shortened and escaped, as `describe` does)."""
    text = str(name)
    return text if len(text) <= 4096 and text.isprintable() else describe(text)


def _listing(folder: str, places: list[Path]) -> Listing:
    found: dict[str, Path] = {}
    for root in places:
        for path in sorted((root / folder).glob("*.yaml")):
            if path.is_file():
                found.setdefault(path.stem, path)
    return [(name, path, _description(path)) for name, path in sorted(found.items())]


def _description(path: Path) -> str:
    """The file's `description`; an unreadable file says why instead, so a listing shows what is wrong."""
    try:
        description = read_document(path).data.get("description", "")
    except SpecError as exc:
        return f"invalid: {exc}"
    return description if isinstance(description, str) else ""


def _places(places: list[Path]) -> str:
    return ", ".join(str(place) for place in places)


def _available(what: str, listing: Listing) -> str:
    return f"available {what}: {', '.join(name for name, _, _ in listing)}" if listing else f"no {what} found"
