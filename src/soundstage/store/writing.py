"""Writing runs, trials, check results, evaluations and figures. Each write replaces the rows it writes:
re-writing a run id or a trial gives the same rows as writing it once. A trial is written in one transaction
with its checks; an evaluation with its checks and figures. Figures are computed here, from the rows the
store holds (figures.py), so every writer of runs gets them."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, and_, delete, exists, func, insert, select, update

from ..figures import run_figures
from .reading import evaluated_trials
from .schema import checks, evaluations, figures, runs, trials

# How a run's own grading (evaluation 0) is recorded among its evaluations.
OWN = "run"


def start_run(engine: Engine, run: dict[str, Any], started: datetime) -> None:
    """Writes a run (as `run.json` has it) with no trials yet; a run already stored under its id loses its rows."""
    with engine.begin() as connection:
        _delete_run(connection, run["run_id"])
        connection.execute(
            insert(runs).values(
                id=run["run_id"],
                folder=str(run["folder"]),
                agent=run["agent"],
                scenes=list(run["scenes"]),
                trials=run["trials"],
                strict=run["strict"],
                exit_code=None,
                started_at=started,
                finished_at=None,
            )
        )
        connection.execute(
            insert(evaluations).values(
                run_id=run["run_id"], number=0, checks_from=OWN, checks_file=None, created_at=started
            )
        )


def write_trial(
    engine: Engine, run_id: str, trial: dict[str, Any], results: list[dict[str, Any]] | None = None
) -> None:
    """Writes a trial (as `result.json` has it) and its check results: `results`, else the trial folder's
    `checks.json` (none when the folder has none)."""
    if results is None:
        results = _read_checks(Path(trial["folder"]))
    counts = trial["counts"]
    with engine.begin() as connection:
        connection.execute(
            delete(checks).where(
                checks.c.run_id == run_id, checks.c.scene == trial["scene"], checks.c.trial == trial["trial"]
            )
        )
        connection.execute(
            delete(trials).where(
                trials.c.run_id == run_id, trials.c.scene == trial["scene"], trials.c.number == trial["trial"]
            )
        )
        connection.execute(
            insert(trials).values(
                run_id=run_id,
                scene=trial["scene"],
                number=trial["trial"],
                world=trial["world"],
                outcome=trial["outcome"],
                exit_code=trial["exit_code"],
                killed=trial["killed"],
                timed_out=trial["timed_out"],
                finish_reason=trial["finish_reason"],
                wall_seconds=trial["wall_seconds"],
                simulated_seconds=trial["simulated_seconds"],
                calls=counts["calls"],
                events=counts["events"],
                errors=counts["errors"],
                unimplemented=counts["unimplemented"],
                after_finish=counts["after_finish"],
                folder=str(trial["folder"]),
                attempts=trial.get("attempts", 1),  # a trial folder written before there were attempts ran once
            )
        )
        _write_checks(connection, run_id, 0, trial["scene"], trial["trial"], results)


def finish_run(engine: Engine, run_id: str, exit_code: int, finished: datetime) -> None:
    """Marks the run finished and writes its figures (evaluation 0) from the trials written."""
    with engine.begin() as connection:
        connection.execute(update(runs).where(runs.c.id == run_id).values(exit_code=exit_code, finished_at=finished))
        _write_figures(connection, run_id, 0)


def add_evaluation(
    engine: Engine,
    run_id: str,
    scored: list[dict[str, Any]],
    checks_from: str,
    checks_file: str | None,
    created: datetime,
) -> int:
    """Writes an evaluation of a stored run, numbered after its last: the check results of each trial in
    `scored` (`{scene, trial, checks}`, trials the store holds) and the figures they give. Returns its number."""
    with engine.begin() as connection:
        last = connection.execute(select(func.max(evaluations.c.number)).where(evaluations.c.run_id == run_id))
        number = (last.scalar() or 0) + 1
        connection.execute(
            insert(evaluations).values(
                run_id=run_id, number=number, checks_from=checks_from, checks_file=checks_file, created_at=created
            )
        )
        for trial in scored:
            _write_checks(connection, run_id, number, trial["scene"], trial["trial"], trial["checks"])
        _write_figures(connection, run_id, number)
    return number


def fill_figures(connection: Connection) -> None:
    """Writes the figures of finished runs whose own grading has none: runs stored before there were figures."""
    missing = select(runs.c.id).where(
        runs.c.finished_at.is_not(None),
        exists().where(trials.c.run_id == runs.c.id),
        ~exists().where(and_(figures.c.run_id == runs.c.id, figures.c.evaluation == 0)),
    )
    for run_id in connection.execute(missing).scalars().all():
        _write_figures(connection, run_id, 0)


def _write_checks(
    connection: Connection, run_id: str, evaluation: int, scene: str, trial: int, results: list[dict[str, Any]]
) -> None:
    if not results:
        return
    connection.execute(
        insert(checks),
        [
            {
                "run_id": run_id,
                "evaluation": evaluation,
                "scene": scene,
                "trial": trial,
                "position": position,
                "check_id": result["id"],
                "kind": result["kind"],
                "required": result["required"],
                "passed": result["passed"],
                "invalid": result.get("invalid", False),
                "score": result.get("score"),
                "expected": result["expected"],
                "actual": result["actual"],
                "explanation": result["explanation"],
                "evidence": list(result.get("evidence", [])),
                "source": result.get("source", "scene"),
            }
            for position, result in enumerate(results)
        ],
    )


def _write_figures(connection: Connection, run_id: str, evaluation: int) -> None:
    """Each scene's figures under an evaluation, from the trials and check results the store holds."""
    connection.execute(delete(figures).where(figures.c.run_id == run_id, figures.c.evaluation == evaluation))
    found = run_figures(evaluated_trials(connection, run_id, evaluation))
    if found:
        connection.execute(
            insert(figures),
            [
                {
                    "run_id": run_id,
                    "evaluation": evaluation,
                    **{key: value for key, value in scene.items() if key != "k"},  # k: the number of trials
                }
                for scene in found
            ],
        )


def _delete_run(connection: Connection, run_id: str) -> None:
    # Children first: SQLite enforces foreign keys (and so cascades) only when asked to per connection.
    connection.execute(delete(figures).where(figures.c.run_id == run_id))
    connection.execute(delete(checks).where(checks.c.run_id == run_id))
    connection.execute(delete(evaluations).where(evaluations.c.run_id == run_id))
    connection.execute(delete(trials).where(trials.c.run_id == run_id))
    connection.execute(delete(runs).where(runs.c.id == run_id))


def _read_checks(folder: Path) -> list[dict[str, Any]]:
    try:
        results = json.loads((folder / "checks.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    return results if isinstance(results, list) else []
