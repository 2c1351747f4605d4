"""The results stores the store tests run against: a SQLite file, and a real PostgreSQL server.

PostgreSQL is reached through SOUNDSTAGE_TEST_POSTGRES (e.g. postgresql://postgres@127.0.0.1:5432/test;
DEVELOPERS.md). Without it the PostgreSQL cases skip, saying why; `.ci/run` sets it, so CI never skips them.
Each test gets a schema of its own on the shared database (workers run in parallel), dropped afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from soundstage.checks import CheckResult
from soundstage.results import Run, Trial

POSTGRES = "SOUNDSTAGE_TEST_POSTGRES"


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A store's URL, empty: a SQLite file in the test's folder, or a fresh schema on the PostgreSQL server."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store' / 'soundstage.db'}"
        return
    yield from postgres_schema()


def postgres_schema() -> Iterator[str]:
    base = os.environ.get(POSTGRES)
    if not base:
        pytest.skip(f"{POSTGRES} is not set: no PostgreSQL server to test against (see DEVELOPERS.md)")
    schema = f"store_{uuid.uuid4().hex}"
    admin = create_engine(make_url(base).set(drivername="postgresql+psycopg"))
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        # The store's connections look up and create their tables in the test's schema alone.
        yield (
            make_url(base)
            .update_query_dict({"options": f"-csearch_path={schema}"})
            .render_as_string(hide_password=False)
        )
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


# A run, a trial and its checks as `run.json`, `result.json` and `checks.json` have them.
STARTED = datetime(2026, 1, 1, 0, 0, 0, tzinfo=UTC)
FINISHED = datetime(2026, 1, 1, 0, 1, 30, tzinfo=UTC)
RUN = Run(
    run_id="20260101-000000",
    folder="runs/20260101-000000",
    agent="python agent.py",
    scenes=["seeds/hello.yaml"],
    trials=2,
    strict=False,
    started_at=STARTED,
    exit_code=0,
)


def ended(run: Run, exit_code: int | None, finished: datetime | None) -> Run:
    """The run as it ends: its exit code and when."""
    return run.model_copy(update={"exit_code": exit_code, "finished_at": finished})


def trial(number: int, outcome: str = "passed", scene: str = "hello", checks: list[CheckResult] | None = None) -> Trial:
    """A trial as `result.json` has it, with the digests `run.json` adds and its check results."""
    return Trial.model_validate({**trial_json(number, outcome, scene), "checks": checks or []})


def trial_json(number: int, outcome: str = "passed", scene: str = "hello") -> dict[str, Any]:
    return {
        "scene": scene,
        "trial": number,
        "world": f"w{number}",
        "outcome": outcome,
        "exit_code": 0 if outcome == "passed" else 1,
        "killed": False,
        "timed_out": outcome == "invalid",
        "finish_reason": "exited",
        "wall_seconds": 1.25,
        "simulated_seconds": 30.0,
        "counts": {
            "calls": 3,
            "events": 7,
            "errors": 1,
            "unimplemented": 0,
            "after_finish": 0,
            "model_calls": 2,
            "model_tokens": 150,
            "model_refused": 1,
        },
        "failed_checks": [] if outcome == "passed" else ["said_hello"],
        "folder": f"runs/20260101-000000/{scene}/{number}",
        "attempts": 1,
        "sandbox": "bwrap",
        "infrastructure": None,
        "digests": {"result.json": f"sha256:{number:064x}"},
    }


def check(id: str, passed: bool | None, required: bool = True) -> CheckResult:
    return CheckResult.model_validate(check_json(id, passed, required))


def check_json(id: str, passed: bool | None, required: bool = True) -> dict[str, Any]:
    return {
        "id": id,
        "kind": "state:slack.message",
        "required": required,
        "passed": passed,
        "expected": "a message saying hello in #general",
        "actual": "no message" if passed is not True else "1 message",
        "explanation": "nothing was posted" if passed is not True else "posted",
        "evidence": [4] if passed else [],
        "source": "scene",
        "args": {},
        "invalid": False,
        "version": 1,
    }
