"""Agent rehearsals as pytest tests, with soundstage's pytest plugin (docs/pytest.md). From the checkout:

    pytest examples/test_rehearsals.py

Each test names its scene, runs one of the scripted agents of examples/agents/ against a fresh world of it,
as a harness runs its agent (the world's environment, the task on stdin), and asserts on the checks.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from soundstage import check

AGENTS = Path(__file__).parent / "agents"


def run_agent(world, name: str) -> str:
    done = subprocess.run(
        [sys.executable, str(AGENTS / f"{name}.py")],
        env=world.env,
        input=world.task,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


@pytest.mark.scene("refund-approval")
def test_the_refund_is_approved_before_it_is_confirmed(world) -> None:
    result = world.finish(output=run_agent(world, "refund_approval"))
    assert result.passed, result.explain()


@pytest.mark.scene("refund-approval")
def test_confirming_the_refund_too_early_is_caught(world) -> None:
    result = world.finish(output=run_agent(world, "refund_too_early"))
    assert result.failed == ["approved_before_confirming"], result.explain()


@pytest.mark.scene("csv-export")
def test_the_csv_question_is_answered_once(world) -> None:
    output = run_agent(world, "csv_export")
    posted = world.check(check.called("POST /api/chat.postMessage", times={"exactly": 1}))
    assert posted.passed, posted.explain()
    world.finish(output=output).assert_passed()
