"""`soundstage checks`: the check library in reach (docs/checks.md, "A check library"), each check with the
scenes that use it; filtered like the check tabs of hosted evaluation tools."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..checks.library import Definition, find_library
from ..errors import NotFound, SpecError
from ..spec.discovery import list_scenes
from ..spec.loader import read_document
from .output import JsonOption, emit, handles_errors, next_step, quote, say


@handles_errors("checks")
def checks_command(
    unused: Annotated[bool, typer.Option("--unused", help="Only the checks no scene uses.")] = False,
    in_scene: Annotated[
        str | None, typer.Option("--in-scene", help="Only the checks this scene uses (its name).", show_default=False)
    ] = None,
    kind: Annotated[
        str | None,
        typer.Option(
            "--kind",
            help="Only checks of this kind: judge, trace, never, state, or a state check (slack.message).",
            show_default=False,
        ),
    ] = None,
    json_output: JsonOption = False,
) -> None:
    """List the library checks (checks/*.yaml, the project file's `checks`) and the scenes using each."""
    library = find_library()
    scenes = [(name, path) for name, path, _ in list_scenes()]
    if in_scene is not None and in_scene not in dict(scenes):
        known = ", ".join(name for name, _ in scenes) or "none"
        raise NotFound(f"no scene named {in_scene!r} (scenes: {known})")
    used = _uses(scenes)
    rows = [
        _row(definition, used.get(name, []), library.hidden.get(name, []))
        for name, definition in library.definitions.items()
    ]
    rows = [
        row
        for row in rows
        if (not unused or not row["used_by"])
        and (in_scene is None or in_scene in row["used_by"])
        and (kind is None or kind in (row["kind"], row["check"]))
    ]
    unknown = sorted(
        {(scene, name) for name, users in used.items() if name not in library.definitions for scene in users}
    )
    if json_output:
        emit({"files": library.files, "checks": rows, "unknown": [{"scene": s, "check": n} for s, n in unknown]})
        return
    if not library.files:
        say("no check library found: library checks are read from checks/*.yaml in each SOUNDSTAGE_PATH folder and")
        say("here, and from the project file's `checks`")
        next_step("soundstage checks --help")
        return
    for row in rows:
        params = ", ".join(p["name"] + ("" if p["required"] else "?") for p in row["params"])
        users = row["used_by"]
        using = f"used by {len(users)} scene{'s' if len(users) != 1 else ''}: {', '.join(users)}" if users else "unused"
        say(f"{row['id']}({params}) [{row['kind']}]  {using}")
        say(
            f"    {row['description']} ({_shown(row['defined_at'])})"
            if row["description"]
            else f"    ({_shown(row['defined_at'])})"
        )
    if not rows:
        say("no library check matches")
    for scene, name in unknown:
        say(f"scene {scene} uses {name!r}, which no library defines: soundstage validate says where")
    next_step(f"soundstage validate {quote(str(dict(scenes)[in_scene]))}" if in_scene else "soundstage checks --unused")


def _uses(scenes: list[tuple[str, Path]]) -> dict[str, list[str]]:
    """Per library check name, the scenes with a `use` of it. A scene file that does not read is left out:
    `soundstage validate` says why."""
    used: dict[str, list[str]] = {}
    for scene, path in scenes:
        try:
            checks = read_document(path).data.get("checks")
        except SpecError:
            continue
        for entry in checks if isinstance(checks, list) else []:
            written = entry.get("use") if isinstance(entry, dict) else None
            name = written.get("check") if isinstance(written, dict) else written
            if isinstance(name, str) and scene not in used.get(name, []):
                used.setdefault(name, []).append(scene)
    return used


def _row(definition: Definition, used_by: list[str], hidden: list[Definition]) -> dict[str, Any]:
    return {
        "id": definition.name,
        "kind": definition.kind,
        "check": next(iter(definition.body)),
        "description": " ".join(definition.description.split()),
        "params": [
            {"name": p.name, "description": p.description, "required": p.required, "default": p.default}
            for p in definition.params.values()
        ],
        "defined_at": definition.where,
        "hides": [other.where for other in hidden],
        "used_by": sorted(used_by),
    }


def _shown(where: str) -> str:
    """A definition's place, relative to the current folder when it is inside it."""
    try:
        return str(Path(where).relative_to(Path.cwd()))
    except ValueError:
        return where
