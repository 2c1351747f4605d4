"""Reading runs back: the list of runs, newest first, and one run with its trials and failing checks."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, case, func, select

from .schema import checks, runs, trials


def list_runs(engine: Engine) -> list[dict[str, Any]]:
    """Every run, newest first: its fields, how many trials were written, and how many passed."""
    counted = (
        select(
            trials.c.run_id,
            func.count().label("written"),
            func.sum(case((trials.c.outcome == "passed", 1), else_=0)).label("passed"),
        )
        .group_by(trials.c.run_id)
        .subquery()
    )
    query = (
        select(runs, counted.c.written, counted.c.passed)
        .outerjoin(counted, counted.c.run_id == runs.c.id)
        .order_by(runs.c.started_at.desc(), runs.c.id.desc())
    )
    with engine.connect() as connection:
        rows = connection.execute(query).mappings().all()
    return [
        {**_run(row), "trials_written": int(row["written"] or 0), "trials_passed": int(row["passed"] or 0)}
        for row in rows
    ]


def get_run(engine: Engine, run_id: str) -> dict[str, Any] | None:
    """A run with its trials (by scene and number) and the check results of each trial; None when unknown."""
    with engine.connect() as connection:
        row = connection.execute(select(runs).where(runs.c.id == run_id)).mappings().first()
        if row is None:
            return None
        trial_rows = connection.execute(
            select(trials).where(trials.c.run_id == run_id).order_by(trials.c.scene, trials.c.number)
        ).mappings()
        found = [_trial(trial) for trial in trial_rows]
        check_rows = connection.execute(
            select(checks).where(checks.c.run_id == run_id).order_by(checks.c.scene, checks.c.trial, checks.c.position)
        ).mappings()
        by_trial: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for check in check_rows:
            by_trial.setdefault((check["scene"], check["trial"]), []).append(_check(check))
    for trial in found:
        trial["checks"] = by_trial.get((trial["scene"], trial["trial"]), [])
    return {**_run(row), "results": found}


def run_ids(engine: Engine) -> list[str]:
    """The stored run ids, newest first."""
    with engine.connect() as connection:
        return list(
            connection.execute(select(runs.c.id).order_by(runs.c.started_at.desc(), runs.c.id.desc())).scalars()
        )


def _run(row: Any) -> dict[str, Any]:
    return {
        "run_id": row["id"],
        "folder": row["folder"],
        "agent": row["agent"],
        "scenes": list(row["scenes"]),
        "trials": row["trials"],
        "strict": row["strict"],
        "exit_code": row["exit_code"],
        "started_at": _when(row["started_at"]),
        "finished_at": _when(row["finished_at"]),
    }


def _trial(row: Any) -> dict[str, Any]:
    """As `result.json` has it, without `failed_checks` (the check results say it)."""
    return {
        "scene": row["scene"],
        "trial": row["number"],
        "world": row["world"],
        "outcome": row["outcome"],
        "exit_code": row["exit_code"],
        "killed": row["killed"],
        "timed_out": row["timed_out"],
        "finish_reason": row["finish_reason"],
        "wall_seconds": row["wall_seconds"],
        "simulated_seconds": row["simulated_seconds"],
        "counts": {name: row[name] for name in ("calls", "events", "errors", "unimplemented", "after_finish")},
        "folder": row["folder"],
    }


def _check(row: Any) -> dict[str, Any]:
    return {
        "id": row["check_id"],
        "kind": row["kind"],
        "required": row["required"],
        "passed": row["passed"],
        "invalid": row["invalid"],
        "score": row["score"],
        "expected": row["expected"],
        "actual": row["actual"],
        "explanation": row["explanation"],
        "evidence": list(row["evidence"]),
        "source": row["source"],
    }


def _when(value: datetime | None) -> str | None:
    """ISO 8601 in UTC. SQLite hands times back without their zone: they were written in UTC."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
