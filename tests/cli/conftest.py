"""The CLI tests work in a temporary folder holding the hello scene, with the scripted agent of stage/."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from soundstage.cli import app
from soundstage.results import Run
from soundstage.runner import run_scenes

STAGE = Path(__file__).parent / "stage"  # hello.yaml and agent.py, shared with tests/test_runner.py


class Bench:
    """The current folder: `hello.yaml` in it, runs written to `runs/`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.scene = root / "hello.yaml"
        shutil.copy(STAGE / "hello.yaml", self.scene)
        self.out = root / "runs"

    def agent(self, *args: str) -> str:
        """The scripted agent's command line; its first argument says how it behaves."""
        return shlex.join([sys.executable, str(STAGE / "agent.py"), *args])

    def hello(self) -> str:
        return self.agent("hello")

    def run(self, command: str, **options: Any) -> Run:
        return run_scenes([str(self.scene)], command, out=self.out, **options)

    def write(self, name: str, text: str) -> Path:
        path = self.root / name
        path.write_text(text)
        return path

    @staticmethod
    def json(path: Path) -> Any:
        return json.loads(path.read_text())

    @staticmethod
    def forget_digests(trial: Path) -> None:
        """The trial's run.json as a run that recorded no digests left it (an earlier version's): its files are
        scored however they are now, as a test that changes them means them to be."""
        run_json = trial.parent.parent / "run.json"
        run = json.loads(run_json.read_text())
        results = [{key: value for key, value in result.items() if key != "digests"} for result in run["results"]]
        run_json.write_text(json.dumps({**run, "results": results}))


@pytest.fixture
def bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Bench:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SOUNDSTAGE_JSON", raising=False)
    monkeypatch.delenv("SOUNDSTAGE_PATH", raising=False)
    return Bench(tmp_path)


@pytest.fixture
def cli() -> Callable[..., Any]:
    """Runs `soundstage ARGS...` in-process; `result.stdout` and `result.stderr` are kept apart."""
    runner = CliRunner()

    def invoke(*args: str, env: dict[str, str] | None = None) -> Any:
        return runner.invoke(app, list(args), env=env)

    return invoke
