"""Where world definitions and scenes are found.

A search root holds `worlds/<name>.yaml` and `seeds/<name>.yaml`. The roots are each directory of
`SOUNDSTAGE_PATH` (separated like `PATH`), then the current directory; the first root with a name wins.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import NotFound, SpecError
from .loader import describe, read_document

Listing = list[tuple[str, Path, str]]  # (name, path, description), by name

# What a name may be: a file stem, never a path (no separator, no leading dot), and short.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


def is_name(text: str) -> bool:
    return _NAME.fullmatch(text) is not None


def roots() -> list[Path]:
    listed = [Path(entry) for entry in os.environ.get("SOUNDSTAGE_PATH", "").split(os.pathsep) if entry]
    return listed + [Path.cwd()]


def find_scene(name_or_path: str | Path) -> Path:
    """An existing file, else the scene of that name in the roots."""
    path = Path(name_or_path)
    if is_file(path):
        return path
    found = _by_name("seeds", str(name_or_path), roots())
    if found is None:
        raise NotFound(
            f"no scene {describe(str(name_or_path))}: no such file, and no seeds/{_shown(name_or_path)}.yaml in "
            f"{_places(roots())}; {_available('scenes', list_scenes())}"
        )
    return found


def find_named_scene(name: str) -> Path:
    """The scene of that name in the roots, and never a path: what a scene named over HTTP may be."""
    found = _by_name("seeds", name, roots())
    if found is None:
        raise NotFound(
            f"no scene named {describe(name)} (over HTTP a scene is a name among the known scenes, or inline "
            f"scene_yaml); {_available('scenes', list_scenes())}"
        )
    return found


def find_world(name_or_path: str | Path, scene_file: Path | None) -> Path:
    """A path relative to the scene, else a name in the roots, else in a `worlds/` folder beside the
    scene's folder (so `seeds/x.yaml` finds `worlds/acme.yaml` from anywhere). A scene with no file (inline
    text) names its world by name only, so it can read no file but the roots' world definitions."""
    relative = scene_file.parent / name_or_path if scene_file is not None else None
    if relative is not None and is_file(relative):
        return relative
    places = roots() + ([scene_file.parent.parent] if scene_file is not None else [])
    found = _by_name("worlds", str(name_or_path), places)
    if found is None:
        where = f"no file {_shown(relative)}, and " if relative is not None else ""
        raise NotFound(
            f"no world definition {describe(str(name_or_path))}: {where}no worlds/{_shown(name_or_path)}.yaml in "
            f"{_places(places)}; {_available('world definitions', _listing('worlds', places))}"
        )
    return found


def list_scenes() -> Listing:
    return _listing("seeds", roots())


def list_worlds() -> Listing:
    return _listing("worlds", roots())


def list_suites() -> Listing:
    return _listing("suites", roots())


def find_named_suite(name: str) -> Path | None:
    """The suite of that name in the roots, when no scene has that name (a scene's name wins)."""
    if _by_name("seeds", name, roots()) is not None:
        return None
    return _by_name("suites", name, roots())


def _by_name(folder: str, name: str, places: list[Path]) -> Path | None:
    if not is_name(name):  # `../x` would leave the folder
        return None
    for root in places:
        path = root / folder / f"{name}.yaml"
        if is_file(path):
            return path
    return None


def is_file(path: Path) -> bool:
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
