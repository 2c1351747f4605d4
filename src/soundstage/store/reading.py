"""Reading runs back: the list of runs, newest first, and one run with its trials, check results, evaluations
and figures."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, case, func, select

from ..checks.results import CheckResult
from ..figures import outcome
from .engine import EngineTransaction
from .schema import evaluations, figures, runs, trials
from .writing import check_result, trials_with_checks

# What a run lists of each scene's figures (its own grading's).
BRIEF = ("scene", "status", "trials", "invalid", "passed", "pass_at_1", "pass_at_k", "pass_hat_k")


def list_runs(engine: Engine) -> list[dict[str, Any]]:
    """Every run, newest first: its fields, how many trials were written, how many passed, each scene's
    figures under the run's own grading (evaluation 0; none until the run finishes), and how many
    evaluations it has."""
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
        brief: dict[str, list[dict[str, Any]]] = {}
        for scene in connection.execute(
            select(figures).where(figures.c.evaluation == 0).order_by(figures.c.run_id, figures.c.scene)
        ).mappings():
            brief.setdefault(scene["run_id"], []).append({key: scene[key] for key in BRIEF})
        counted_evaluations: dict[str, int] = {
            run_id: count
            for run_id, count in connection.execute(
                select(evaluations.c.run_id, func.count()).group_by(evaluations.c.run_id)
            )
        }
    return [
        {
            **_run(row),
            "trials_written": int(row["written"] or 0),
            "trials_passed": int(row["passed"] or 0),
            "figures": brief.get(row["id"], []),
            "evaluation_count": int(counted_evaluations.get(row["id"], 0)),
        }
        for row in rows
    ]


def get_run(engine: Engine, run_id: str, evaluation: int | None = 0) -> dict[str, Any] | None:
    """A run with its evaluations, and under one of them (`evaluation`; None: the newest) each scene's figures
    and its trials (by scene and number) with their check results; None when the run is unknown. Under an
    evaluation other than 0, a trial's outcome is the one its check results there give."""
    with engine.connect() as connection:
        row = connection.execute(select(runs).where(runs.c.id == run_id)).mappings().first()
        if row is None:
            return None
        made = [
            _evaluation(stored)
            for stored in connection.execute(
                select(evaluations).where(evaluations.c.run_id == run_id).order_by(evaluations.c.number)
            ).mappings()
        ]
        number = evaluation if evaluation is not None else max((e["number"] for e in made), default=0)
        found = []
        for trial, results in trials_with_checks(EngineTransaction(connection), run_id, number):
            found.append({**_trial(trial), "checks": [check_result(check) for check in results]})
            if number != 0:
                found[-1]["outcome"] = outcome([CheckResult(**check_result(check)) for check in results])
        scenes = [
            _figures(scene)
            for scene in connection.execute(
                select(figures)
                .where(figures.c.run_id == run_id, figures.c.evaluation == number)
                .order_by(figures.c.scene)
            ).mappings()
        ]
    return {**_run(row), "evaluation": number, "evaluations": made, "figures": scenes, "results": found}


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
        "attempts": row["attempts"],
        "sandbox": row["sandbox"],
        "infrastructure": row["infrastructure"],
        "digests": row["digests"],
    }


def _evaluation(row: Any) -> dict[str, Any]:
    return {
        "number": row["number"],
        "checks_from": row["checks_from"],
        "checks_file": row["checks_file"],
        "created_at": _when(row["created_at"]),
    }


def _figures(row: Any) -> dict[str, Any]:
    """As figures.scene_figures has them."""
    return {
        "scene": row["scene"],
        "status": row["status"],
        "trials": row["trials"],
        "invalid": row["invalid"],
        "passed": row["passed"],
        "k": row["trials"] - row["invalid"],
        "pass_at_1": row["pass_at_1"],
        "pass_at_k": row["pass_at_k"],
        "pass_hat_k": row["pass_hat_k"],
        "pass_at": row["pass_at"],
        "pass_hat": row["pass_hat"],
        "checks": row["checks"],
    }


def _when(value: datetime | None) -> str | None:
    """ISO 8601 in UTC. SQLite hands times back without their zone: they were written in UTC."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
