"""Writing runs, trials and check results. Each write replaces the rows it writes: re-writing a run id or a
trial gives the same rows as writing it once. A trial is written in one transaction with its checks."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, delete, insert, update

from .schema import checks, runs, trials


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


def write_trial(
    engine: Engine, run_id: str, trial: dict[str, Any], results: list[dict[str, Any]] | None = None
) -> None:
    """Writes a trial (as `result.json` has it) and its check results: `results`, else the trial folder's
    `checks.json` (none when the folder has none)."""
    if results is None:
        results = _read_checks(Path(trial["folder"]))
    key = {"run_id": run_id, "scene": trial["scene"]}
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
                **key,
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
            )
        )
        if results:
            connection.execute(
                insert(checks),
                [
                    {
                        **key,
                        "trial": trial["trial"],
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


def finish_run(engine: Engine, run_id: str, exit_code: int, finished: datetime) -> None:
    with engine.begin() as connection:
        connection.execute(update(runs).where(runs.c.id == run_id).values(exit_code=exit_code, finished_at=finished))


def _delete_run(connection: Connection, run_id: str) -> None:
    # Children first: SQLite enforces foreign keys (and so cascades) only when asked to per connection.
    connection.execute(delete(checks).where(checks.c.run_id == run_id))
    connection.execute(delete(trials).where(trials.c.run_id == run_id))
    connection.execute(delete(runs).where(runs.c.id == run_id))


def _read_checks(folder: Path) -> list[dict[str, Any]]:
    try:
        results = json.loads((folder / "checks.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    return results if isinstance(results, list) else []
