"""The project file's format, `soundstage.yaml` (docs/project.md): what `project.py` reads and applies, and what
`soundstage validate` checks."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from .fields import Spec, env_name

FILE = "soundstage.yaml"

EnvName = Annotated[str, AfterValidator(env_name)]


class RunDefaults(Spec):
    """Defaults of `soundstage run` (and of the commands that read what it writes)."""

    agent: str | None = None  # the agent's command line, run in the current folder
    trials: Annotated[int, Field(ge=1)] | None = None
    parallel: Annotated[int, Field(ge=1)] | None = None
    timeout: Annotated[float, Field(gt=0)] | None = None
    out: str | None = None  # relative to the project file's folder
    strict: bool | None = None
    tls: bool | None = None
    intercept: bool | None = None
    pass_env: list[EnvName] = []
    env: dict[EnvName, str] = {}


class Endpoint(Spec):
    """An OpenAI-compatible endpoint: its base URL, the variable holding its key, and the model."""

    url: str | None = None
    key_env: EnvName | None = None
    model: str | None = None


class ProjectFile(Spec):
    run: RunDefaults = RunDefaults()
    store: str | None = None  # the results store's URL (SOUNDSTAGE_DB)
    scenes: list[str] = []  # folders holding seeds/ and worlds/ (SOUNDSTAGE_PATH), relative to the file
    judge: Endpoint = Endpoint()  # judge checks
    people: Endpoint = Endpoint()  # the people's wording
    # Library check definitions, as in a checks/*.yaml file (read with the library, which reports their
    # problems at their lines): docs/checks.md, "A check library".
    checks: list[Any] = []


def find(start: Path, named: str | None = None) -> Path | None:
    """The project file: `named` (from `--config` or SOUNDSTAGE_CONFIG), else `soundstage.yaml` in `start`
    or the nearest folder above it; None when there is none."""
    if named:
        return Path(named)
    for folder in [start, *start.parents]:
        if (folder / FILE).is_file():
            return folder / FILE
    return None
