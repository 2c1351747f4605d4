"""A file's kind is the kind whose keys cover most of its own: spec/kinds.py's tables against the models."""

from __future__ import annotations

import pytest

from soundstage.services import SERVICES
from soundstage.spec.kinds import KEYS, file_kind
from soundstage.spec.loader import Document
from soundstage.spec.project_file import ProjectFile
from soundstage.spec.suites import Suite
from soundstage.stage.models import Scene, WorldDefinition


def _keys(model: type) -> set[str]:
    return {field.alias or name for name, field in model.model_fields.items()}


def test_each_kind_has_the_keys_of_its_model() -> None:
    assert KEYS["world"] | set(SERVICES) == _keys(WorldDefinition)
    assert KEYS["suite"] == _keys(Suite)
    assert KEYS["scene"] == _keys(Scene)
    assert KEYS["project"] == _keys(ProjectFile)
    assert KEYS["library"] == {"description", "checks"}  # what checks/library.py reads


@pytest.mark.parametrize(
    ("file", "data", "kind"),
    [
        ("a.yaml", {"name": "x", "task": "y", "world": "acme"}, "scene"),
        ("a.yaml", {"name": "x", "tags": ["t"], "checks": []}, "scene"),  # lacking its task and world
        ("a.yaml", {"name": "x", "description": "y", "tags": ["t"]}, "suite"),
        ("a.yaml", {"name": "x", "scenes": ["a"], "scene": "a typo"}, "suite"),
        ("a.yaml", {"description": "x", "checks": []}, "library"),
        ("a.yaml", {"checks": []}, "library"),
        ("a.yaml", {"run": {"trials": 2}}, "project"),
        ("folder/soundstage.yaml", {"checks": []}, "project"),
        ("a.yaml", {"name": "x", "slack": {}}, "world"),
        ("a.yaml", {"name": "x", "description": "y"}, "world"),
    ],
)
def test_a_kind_is_told_by_its_keys(file: str, data: dict[str, object], kind: str) -> None:
    assert file_kind(Document(data, {}, file)) == kind
