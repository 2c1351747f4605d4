"""What a YAML file of soundstage's is, told by its keys: a scene, a world definition, a suite, a check library
or a project file. `soundstage validate` reads each as its kind, and `soundstage run` tells a suite from a scene
the same way.

Most keys are shared (`name` and `description` by most kinds, `checks` by scenes, libraries and project files,
`tags` by scenes and suites), so a file is the kind whose keys cover most of its own; between kinds that cover
as many, the first in `KEYS`' order. A file named `soundstage.yaml` is a project file whatever it holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from .loader import Document
from .project_file import FILE as PROJECT_FILE

Kind = Literal["world", "suite", "library", "scene", "project"]

# Each kind's top-level keys (tests/spec/test_kinds.py holds them to the models). A world's service sections
# (`slack`, `github`...) are no other kind's, so they need not be counted.
KEYS: dict[Kind, frozenset[str]] = {
    "world": frozenset({"name", "description", "clock", "generate"}),
    "suite": frozenset({"name", "description", "scenes", "tags"}),
    "library": frozenset({"description", "checks"}),
    "scene": frozenset(
        {
            "name",
            "world",
            "description",
            "tags",
            "difficulty",
            "task",
            "clock",
            "agent",
            "seed",
            "people",
            "faults",
            "api_faults",
            "checks",
            "pass",
            "rate_limits",
        }
    ),
    "project": frozenset({"run", "store", "scenes", "judge", "people", "checks"}),
}


def file_kind(document: Document) -> Kind:
    """The kind of file `document` is."""
    if Path(document.file).name == PROJECT_FILE:
        return "project"
    keys = set(document.data)
    return max(KEYS, key=lambda kind: len(keys & KEYS[kind]))  # the first of the most covering
