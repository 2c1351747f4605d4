"""The project file, `soundstage.yaml` (docs/project.md): a project's defaults in one place.

Found from the current folder upward, or named by `--config` / `SOUNDSTAGE_CONFIG`. Every setting also has
its flag or variable, and the order is flag > variable > file > built-in default: the file's command options
become the commands' defaults (a flag or its variable still wins), and the file's variables are set only
where the environment has none.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .spec.loader import read_document, validate_model
from .spec.project_file import FILE, Endpoint, ProjectFile, find  # noqa: F401 (re-exported: FILE, find)

# Which variable each endpoint setting feeds.
ENDPOINT_VARIABLES = {
    "judge": ("SOUNDSTAGE_JUDGE_URL", "SOUNDSTAGE_JUDGE_KEY", "SOUNDSTAGE_JUDGE_MODEL"),
    "people": ("SOUNDSTAGE_PEOPLE_URL", "SOUNDSTAGE_PEOPLE_KEY", "SOUNDSTAGE_PEOPLE_MODEL"),
}
# Variables that are lists of places: the file's places come after those the environment names.
PLACE_LISTS = ("SOUNDSTAGE_PATH", "SOUNDSTAGE_CHECKS")
# The commands whose options the file's `run` and `store` give defaults to, and which options.
COMMAND_OPTIONS = {
    "run": ("agent", "trials", "parallel", "timeout", "out", "strict", "tls", "intercept", "pass_env", "env"),
    "runs": ("out",),
    "show": ("out",),
    "view": ("out",),
}


@dataclass
class Project:
    """A project file as read, and what it sets."""

    path: Path
    settings: ProjectFile
    variables: dict[str, str] = field(default_factory=dict)  # what it would set, where unset

    @property
    def folder(self) -> Path:
        return self.path.parent

    def defaults(self) -> dict[str, dict[str, Any]]:
        """Per command, the defaults its options take from the file (click's `default_map`)."""
        run = self.settings.run
        values: dict[str, Any] = {
            name: getattr(run, name)
            for name in ("agent", "trials", "parallel", "timeout", "strict", "tls", "intercept")
        }
        values["out"] = str(self.folder / run.out) if run.out is not None else None
        values["pass_env"] = list(run.pass_env) or None
        values["env"] = [f"{name}={value}" for name, value in run.env.items()] or None
        return {
            command: {name: values[name] for name in names if values[name] is not None}
            for command, names in COMMAND_OPTIONS.items()
        }

    def apply(self, environ: dict[str, str] | os._Environ[str]) -> None:
        """Sets the file's variables where `environ` has none; adds its scene folders and check libraries after
        those SOUNDSTAGE_PATH and SOUNDSTAGE_CHECKS name."""
        for name, value in self.variables.items():
            if name in PLACE_LISTS:
                environ[name] = os.pathsep.join(part for part in (environ.get(name, ""), value) if part)
            else:
                environ.setdefault(name, value)


def load(path: Path, environ: dict[str, str] | os._Environ[str]) -> Project:
    """Reads and validates a project file; raises SpecErrors naming file, line and field of every problem."""
    settings = validate_model(ProjectFile, read_document(path))
    project = Project(path.resolve(), settings)
    variables = project.variables
    if settings.store is not None:
        variables["SOUNDSTAGE_DB"] = settings.store
    if settings.scenes:
        variables["SOUNDSTAGE_PATH"] = os.pathsep.join(str(project.folder / folder) for folder in settings.scenes)
    libraries = [project.path] if settings.checks else []  # its own definitions, then its checks/ folder
    libraries += [project.folder / "checks"] if (project.folder / "checks").is_dir() else []
    if libraries:
        variables["SOUNDSTAGE_CHECKS"] = os.pathsep.join(map(str, libraries))
    for part, (url, key, model) in ENDPOINT_VARIABLES.items():
        endpoint: Endpoint = getattr(settings, part)
        if endpoint.url is not None:
            variables[url] = endpoint.url
        if endpoint.key_env is not None and endpoint.key_env in environ:
            variables[key] = environ[endpoint.key_env]
        if endpoint.model is not None:
            variables[model] = endpoint.model
    return project
