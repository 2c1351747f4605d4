"""The package's layers import one way only: the import-linter contract in pyproject.toml, checked against
the source as it is (a new upward import, or a cycle, fails here with the chain of imports that makes it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from importlinter.application.use_cases import SUCCESS, lint_imports
from importlinter.configuration import configure

ROOT = Path(__file__).resolve().parent.parent


def test_the_layers_contract_is_kept(capsys: pytest.CaptureFixture[str]) -> None:
    configure()
    kept = lint_imports(config_filename=str(ROOT / "pyproject.toml"), cache_dir=None, no_logo=True)
    report = capsys.readouterr().out
    assert kept == SUCCESS, report
    assert "1 kept, 0 broken" in report
