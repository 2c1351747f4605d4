"""The project file (project.py, docs/project.md): found upward, validated with file, line and field, its
defaults and variables under the flags and the environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from soundstage import project
from soundstage.spec.loader import SpecErrors

FULL = """\
run:
  agent: python agent.py
  trials: 3
  out: results
  pass_env: [OPENAI_API_KEY]
  env: {MODEL: gpt-test}
store: postgresql://team@db/results
scenes: [scenes, /shared/scenes]
judge: {url: "http://127.0.0.1:9/v1", key_env: MY_KEY, model: judge-model}
people: {model: wording-model}
"""


def test_found_in_the_folder_or_above_or_where_named(tmp_path: Path) -> None:
    (tmp_path / "soundstage.yaml").write_text("run: {trials: 2}\n")
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert project.find(tmp_path / "a" / "b") == tmp_path / "soundstage.yaml"
    assert project.find(tmp_path / "a", "other.yaml") == Path("other.yaml")
    assert project.find(Path("/proc")) is None


def test_what_a_file_sets(tmp_path: Path) -> None:
    path = tmp_path / "soundstage.yaml"
    path.write_text(FULL)
    found = project.load(path, {"MY_KEY": "sk-from-my-key"})
    assert found.defaults() == {
        "run": {
            "agent": "python agent.py",
            "trials": 3,
            "out": str(tmp_path / "results"),
            "pass_env": ["OPENAI_API_KEY"],
            "env": ["MODEL=gpt-test"],
        },
        "runs": {"out": str(tmp_path / "results")},
        "show": {"out": str(tmp_path / "results")},
        "view": {"out": str(tmp_path / "results")},
    }
    assert found.variables == {
        "SOUNDSTAGE_DB": "postgresql://team@db/results",
        "SOUNDSTAGE_PATH": os.pathsep.join([str(tmp_path / "scenes"), "/shared/scenes"]),
        "SOUNDSTAGE_JUDGE_URL": "http://127.0.0.1:9/v1",
        "SOUNDSTAGE_JUDGE_KEY": "sk-from-my-key",
        "SOUNDSTAGE_JUDGE_MODEL": "judge-model",
        "SOUNDSTAGE_PEOPLE_MODEL": "wording-model",
    }


def test_the_environment_wins_over_the_file(tmp_path: Path) -> None:
    path = tmp_path / "soundstage.yaml"
    path.write_text(FULL)
    environ = {"SOUNDSTAGE_DB": "sqlite:///mine.db", "SOUNDSTAGE_PATH": "/mine"}
    project.load(path, environ).apply(environ)
    assert environ["SOUNDSTAGE_DB"] == "sqlite:///mine.db"
    # Scene folders add up: the environment's first, then the file's.
    assert environ["SOUNDSTAGE_PATH"] == os.pathsep.join(["/mine", str(tmp_path / "scenes"), "/shared/scenes"])
    assert environ["SOUNDSTAGE_JUDGE_MODEL"] == "judge-model"
    assert "SOUNDSTAGE_JUDGE_KEY" not in environ  # MY_KEY is not set


def test_every_problem_with_its_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "soundstage.yaml"
    path.write_text("run:\n  trials: 0\n  colour: red\n  pass_env: [SOUNDSTAGE_ADMIN_TOKEN]\njudge: {modle: x}\n")
    with pytest.raises(SpecErrors) as raised:
        project.load(path, {})
    found = [(e.line, e.field) for e in raised.value.errors]
    assert found == [(2, "run.trials"), (3, "run.colour"), (4, "run.pass_env[0]"), (5, "judge.modle")]
    assert all(e.file == str(path) for e in raised.value.errors)
