"""`soundstage list`: the world definitions and scenes in reach; with `--operations`, what each service
implements, read from its registry, optionally against an official OpenAPI description."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml
from rich.table import Table
from rich.text import Text

from ..errors import NotFound, UsageError
from ..services import SERVICES
from ..spec.discovery import Listing, list_scenes, list_suites, list_worlds
from ..spec.suites import scene_labels
from .output import JsonOption, emit, handles_errors, next_step, quote, say, stdout

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


@handles_errors("list")
def list_command(
    operations: Annotated[
        bool, typer.Option("--operations", help="List each service's implemented operations.")
    ] = False,
    spec: Annotated[
        Path | None,
        typer.Option("--spec", help="An OpenAPI description (JSON or YAML) to compare with; implies --operations."),
    ] = None,
    tag: Annotated[
        list[str] | None,
        typer.Option("--tag", help="Only scenes with this tag (repeatable: any of them).", show_default=False),
    ] = None,
    json_output: JsonOption = False,
) -> None:
    """List the world definitions, scenes and suites it can see, or (--operations) the implemented operations."""
    if operations or spec is not None:
        _operations(spec, json_output)
        return
    worlds, suites = list_worlds(), list_suites()
    scenes: list[dict[str, Any]] = [
        {"name": name, "path": str(path), "description": description, "tags": tags, "difficulty": difficulty}
        for name, path, description in list_scenes()
        for tags, difficulty in [scene_labels(path)]
    ]
    if tag:
        scenes = [scene for scene in scenes if set(tag) & set(scene["tags"])]
    if json_output:
        emit({"worlds": _rows(worlds), "scenes": scenes, "suites": _rows(suites)})
        return
    for title, listing in (("world definitions", worlds), ("suites", suites)):
        if not listing:
            say(f"no {title} found")
            continue
        table = Table("name", "file", "description", title=title, title_justify="left")
        for name, path, description in listing:
            table.add_row(Text(name), Text(str(path)), Text(description.strip()))
        stdout.print(table)
    if scenes:
        table = Table("name", "tags", "difficulty", "description", title="scenes", title_justify="left")
        for scene in scenes:
            table.add_row(
                Text(scene["name"]),
                Text(", ".join(scene["tags"])),
                Text(scene["difficulty"] or ""),
                Text(" ".join(scene["description"].split())),
            )
        stdout.print(table)
    else:
        say(f"no scenes with the tag{'s' if len(tag or []) > 1 else ''} {', '.join(tag)}" if tag else "no scenes found")
    if scenes:
        next_step(f"soundstage run {quote(scenes[0]['path'])} --agent 'python agent.py'")
    else:
        say("Scenes are read from seeds/ and world definitions from worlds/, in each SOUNDSTAGE_PATH folder and here.")
        next_step("soundstage validate seeds/<name>.yaml")


def _rows(listing: Listing) -> list[dict[str, str]]:
    return [{"name": name, "path": str(path), "description": description} for name, path, description in listing]


def _operations(spec: Path | None, json_output: bool) -> None:
    implemented = {name: service.operations() for name, service in SERVICES.items()}
    compared = _compare(spec, implemented) if spec is not None else None
    if json_output:
        emit({"services": implemented, **({"spec": compared} if compared is not None else {})})
        return
    for name, names in implemented.items():
        say(f"{name}: {len(names)} operations implemented")
        for operation in names:
            say(f"  {operation}")
    if compared is None:
        next_step("soundstage list --operations --spec <an OpenAPI file of one of these services>")
        return
    say(f"{compared['file']}: {compared['implemented']} of {compared['total']} operations implemented")
    for operation in compared["operations"]:
        mark = "x" if operation["implemented"] else " "
        say(f"  [{mark}] {operation['method']} {operation['path']}")
    next_step("soundstage serve")


def _compare(spec: Path, implemented: dict[str, list[str]]) -> dict[str, Any]:
    """The spec's operations, each marked implemented when a service registers it by method name
    (Slack: `chat.postMessage` for `/chat.postMessage`) or by `METHOD /path` (path parameters' names aside)."""
    document = _read_spec(spec)
    base = str(document.get("basePath", "")).rstrip("/")
    known = {_key(name) for names in implemented.values() for name in names}
    found = []
    for path, item in document["paths"].items():
        for method in HTTP_METHODS:
            if isinstance(item, dict) and method in item:
                names = {path.lstrip("/"), f"{method} {path}", f"{method} {base}{path}"}
                found.append(
                    {"method": method.upper(), "path": path, "implemented": any(_key(n) in known for n in names)}
                )
    return {
        "file": str(spec),
        "total": len(found),
        "implemented": sum(operation["implemented"] for operation in found),
        "operations": found,
    }


def _key(name: str) -> str:
    """`GET /repos/{owner}/{repo}` and `get /repos/{o}/{r}` compare equal; method names stay as they are."""
    method, _, path = name.partition(" ")
    if not path:
        return name
    return f"{method.upper()} {re.sub(r'{[^}]*}', '{}', path)}"


def _read_spec(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise NotFound(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the file: {exc}") from None
    try:
        document = (
            json.loads(text)
            if path.suffix == ".json"
            else yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        )
    except (ValueError, yaml.YAMLError) as exc:
        raise UsageError(f"{path}: not valid JSON or YAML: {exc}") from None
    if not isinstance(document, dict) or not isinstance(document.get("paths"), dict):
        raise UsageError(f"{path}: not an OpenAPI description (no `paths` mapping)")
    return document
