"""`soundstage config`: the settings in effect, where each comes from (docs/project.md), secrets hidden; and
loading the project file before any command runs."""

from __future__ import annotations

import inspect
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import output
from .output import JsonOption, emit, handles_errors, next_step, say

if TYPE_CHECKING:  # the project file's model loads when a command runs, not with `soundstage --help`
    from .. import project

# The project file in effect, and the variables as they were before it set any (for `config` to tell apart).
_loaded: dict[str, Any] = {"project": None, "environ": {}, "found": None}
SECRET = re.compile(r"_KEY$|_TOKEN$|SECRET|PASSWORD")


def load_project(named: Path | None) -> dict[str, dict[str, Any]] | None:
    """Finds and applies the project file (`named` by `--config` or SOUNDSTAGE_CONFIG, else found upward):
    sets its variables where unset, and answers the commands' defaults from it (None without a file).
    Raises SpecErrors for a file that does not validate."""
    from .. import project

    _loaded["environ"] = dict(os.environ)
    _loaded["project"] = None
    path = _loaded["found"] = project.find(Path.cwd(), str(named) if named is not None else None)
    if path is None:
        return None
    found = project.load(path, os.environ)
    found.apply(os.environ)
    _loaded["project"] = found
    return found.defaults()


def project_file() -> Path | None:
    """The project file in effect, if any."""
    found: project.Project | None = _loaded["project"]
    return found.path if found is not None else None


def refused_project() -> Path | None:
    """The project file found that does not load, if any: every command but `validate` refuses to run."""
    found: Path | None = _loaded["found"]
    return found if output.refused is not None else None


def unload_project() -> None:
    """Puts back the variables the project file set: a command run in-process leaves no trace in the next."""
    before: dict[str, str] = _loaded["environ"]
    found: project.Project | None = _loaded["project"]
    for name in found.variables if found is not None else ():
        if name in before:
            os.environ[name] = before[name]
        else:
            os.environ.pop(name, None)


@handles_errors("config")
def config(json_output: JsonOption = False) -> None:
    """Show the settings in effect: the project file's, the environment's and the defaults, secrets hidden."""
    from rich.table import Table
    from rich.text import Text

    from .. import project

    found: project.Project | None = _loaded["project"]
    before: dict[str, str] = _loaded["environ"]
    settings = _command_settings(found) + _variable_settings(found, before)
    if json_output:
        emit({"file": str(found.path) if found else None, "settings": settings})
        return
    say(f"project file: {found.path}" if found else f"project file: none ({project.FILE} in this folder or above)")
    table = Table("setting", "value", "from", title="settings in effect", title_justify="left")
    for setting in settings:
        value = setting["value"]
        table.add_row(Text(setting["name"]), Text("" if value is None else str(value)), setting["source"])
    output.stdout.print(table)
    next_step("soundstage run SCENE" if found and found.settings.run.agent else "soundstage run SCENE --agent CMD")


def _command_settings(found: project.Project | None) -> list[dict[str, Any]]:
    """`run`'s options: from the file, else the built-in default (a flag given wins over both)."""
    from .. import project
    from .run import run

    defaults = found.defaults() if found else {}
    parameters = inspect.signature(run).parameters
    rows = []
    for name in project.COMMAND_OPTIONS["run"]:
        given = defaults.get("run", {}).get(name)
        default = parameters[name].default
        value = given if given is not None else (None if default is inspect.Parameter.empty else default)
        if name == "env" and value:
            value = [item.split("=", 1)[0] + "=<hidden>" for item in value]
        value = str(value) if isinstance(value, Path) else value
        rows.append(
            {
                "name": f"run --{name.replace('_', '-')}",
                "value": value,
                "source": "file" if given is not None else "default",
            }
        )
    return rows


def _variable_settings(found: project.Project | None, before: dict[str, str]) -> list[dict[str, Any]]:
    from .. import project

    names = [
        "SOUNDSTAGE_DB",
        *project.PLACE_LISTS,
        *(v for group in project.ENDPOINT_VARIABLES.values() for v in group),
    ]
    rows = []
    for name in names:
        value = os.environ.get(name)
        source = "environment" if name in before else "file" if found and name in found.variables else "unset"
        if name in project.PLACE_LISTS and name in before and found and name in found.variables:
            source = "environment, then file"
        rows.append({"name": name, "value": _hidden(name, value), "source": source})
    return rows


def _hidden(name: str, value: str | None) -> str | None:
    if value is None:
        return None
    if SECRET.search(name):
        return "<hidden>"
    return re.sub(r"(://[^:/@]+:)[^@]+@", r"\1<hidden>@", value)  # a password in a URL
