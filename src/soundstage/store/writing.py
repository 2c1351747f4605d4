"""Writing runs, trials, check results, evaluations and figures. Each write replaces the rows it writes:
re-writing a run id or a trial gives the same rows as writing it once. A trial is written in one transaction
with its checks; an evaluation with its checks and figures. Figures are computed here, from the rows the
store holds (figures.py), so every writer of runs gets them.

The statements are plain SQL, the same for SQLite and PostgreSQL, run in a `Transaction`: the stdlib's sqlite3
for a SQLite store at the newest schema (sqlite.py), SQLAlchemy otherwise (engine.py), so that a run writing
the default store does not load SQLAlchemy. Both store the same values in the same rows."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from ..checks.results import CheckResult
from ..figures import Trial, outcome, run_figures

# How a run's own grading (evaluation 0) is recorded among its evaluations.
OWN = "run"
# The columns of schema.py that are not plain numbers or text, by type and table (tests/store/test_writing.py
# holds these to the schema): what each way of writing encodes, and reading decodes.
JSON_COLUMNS = {
    "runs": {"scenes"},
    "trials": {"digests"},
    "checks": {"evidence"},
    "figures": {"pass_at", "pass_hat", "checks"},
}
TIME_COLUMNS = {"runs": {"started_at", "finished_at"}, "evaluations": {"created_at"}}
BOOLEAN_COLUMNS = {"runs": {"strict"}, "trials": {"killed", "timed_out"}, "checks": {"required", "passed", "invalid"}}

TRIAL_COLUMNS = (
    "run_id scene number world outcome exit_code killed timed_out finish_reason wall_seconds simulated_seconds "
    "calls events errors unimplemented after_finish folder attempts sandbox infrastructure digests"
).split()
CHECK_COLUMNS = (
    "run_id evaluation scene trial position check_id kind required passed invalid score expected actual "
    "explanation evidence source"
).split()
FIGURE_COLUMNS = (
    "run_id evaluation scene status trials invalid passed pass_at_1 pass_at_k pass_hat_k pass_at pass_hat checks"
).split()


class Transaction(Protocol):
    """One transaction on the store. Parameters are named (`:name`), each a column of `table` or a value
    compared with one; values are Python's, JSON columns' the value to encode (None is JSON's null), times
    aware datetimes."""

    def execute(self, table: str, sql: str, params: dict[str, Any]) -> None: ...

    def executemany(self, table: str, sql: str, rows: list[dict[str, Any]]) -> None: ...

    def rows(self, table: str, sql: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        """The rows a query of `table` answers, each by column name, booleans as bool and JSON decoded."""


def decoded(table: str, row: dict[str, Any], json_as_text: bool) -> dict[str, Any]:
    """A row of `table` read back: booleans as bool (SQLite keeps 0 and 1), JSON decoded where the driver hands
    it as text."""
    booleans, json_columns = BOOLEAN_COLUMNS.get(table, ()), JSON_COLUMNS.get(table, ())
    for name, value in row.items():
        if name in booleans and value is not None:
            row[name] = bool(value)
        elif name in json_columns and json_as_text and value is not None:
            row[name] = json.loads(value)
    return row


def insert(table: str, columns: list[str]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})"


def start_run(tx: Transaction, run: dict[str, Any], started: datetime) -> None:
    """Writes a run (as `run.json` has it) with no trials yet; a run already stored under its id loses its rows."""
    _delete_run(tx, run["run_id"])
    row = {
        "id": run["run_id"],
        "folder": str(run["folder"]),
        "agent": run["agent"],
        "scenes": list(run["scenes"]),
        "trials": run["trials"],
        "strict": run["strict"],
        "exit_code": None,
        "started_at": started,
        "finished_at": None,
    }
    tx.execute("runs", insert("runs", list(row)), row)
    evaluation = {"run_id": run["run_id"], "number": 0, "checks_from": OWN, "checks_file": None, "created_at": started}
    tx.execute("evaluations", insert("evaluations", list(evaluation)), evaluation)


def write_trial(tx: Transaction, run_id: str, trial: dict[str, Any], results: list[dict[str, Any]] | None = None) -> None:
    """Writes a trial (as `result.json` has it, with the `digests` of its files as `run.json` has them) and its
    check results: `results`, else the trial folder's `checks.json` (none when the folder has none)."""
    if results is None:
        results = _read_checks(Path(trial["folder"]))
    counts = trial["counts"]
    key = {"run_id": run_id, "scene": trial["scene"], "number": trial["trial"]}
    tx.execute("checks", "DELETE FROM checks WHERE run_id = :run_id AND scene = :scene AND trial = :number", key)
    tx.execute("trials", "DELETE FROM trials WHERE run_id = :run_id AND scene = :scene AND number = :number", key)
    row = {
        **key,
        "world": trial["world"],
        "outcome": trial["outcome"],
        "exit_code": trial["exit_code"],
        "killed": trial["killed"],
        "timed_out": trial["timed_out"],
        "finish_reason": trial["finish_reason"],
        "wall_seconds": trial["wall_seconds"],
        "simulated_seconds": trial["simulated_seconds"],
        **{name: counts[name] for name in ("calls", "events", "errors", "unimplemented", "after_finish")},
        "folder": str(trial["folder"]),
        "attempts": trial.get("attempts", 1),  # a trial folder written before there were attempts ran once
        # Unknown for a trial folder written before trials recorded them.
        "sandbox": trial.get("sandbox"),
        "infrastructure": trial.get("infrastructure"),
        "digests": trial.get("digests"),
    }
    tx.execute("trials", insert("trials", TRIAL_COLUMNS), row)
    _write_checks(tx, run_id, 0, trial["scene"], trial["trial"], results)


def finish_run(tx: Transaction, run_id: str, exit_code: int | None, finished: datetime | None) -> None:
    """Marks the run finished and writes its figures (evaluation 0) from the trials written."""
    tx.execute(
        "runs",
        "UPDATE runs SET exit_code = :exit_code, finished_at = :finished_at WHERE id = :id",
        {"exit_code": exit_code, "finished_at": finished, "id": run_id},
    )
    _write_figures(tx, run_id, 0)


def add_evaluation(
    tx: Transaction,
    run_id: str,
    scored: list[dict[str, Any]],
    checks_from: str,
    checks_file: str | None,
    created: datetime,
) -> int:
    """Writes an evaluation of a stored run, numbered after its last: the check results of each trial in
    `scored` (`{scene, trial, checks}`, trials the store holds) and the figures they give. Returns its number."""
    last = tx.rows("evaluations", "SELECT max(number) AS last FROM evaluations WHERE run_id = :run_id", {"run_id": run_id})
    number = (last[0]["last"] or 0) + 1
    row = {"run_id": run_id, "number": number, "checks_from": checks_from, "checks_file": checks_file, "created_at": created}
    tx.execute("evaluations", insert("evaluations", list(row)), row)
    for trial in scored:
        _write_checks(tx, run_id, number, trial["scene"], trial["trial"], trial["checks"])
    _write_figures(tx, run_id, number)
    return number


def fill_figures(tx: Transaction) -> None:
    """Writes the figures of finished runs whose own grading has none: runs stored before there were figures."""
    missing = tx.rows(
        "runs",
        "SELECT runs.id FROM runs WHERE runs.finished_at IS NOT NULL"
        " AND EXISTS (SELECT 1 FROM trials WHERE trials.run_id = runs.id)"
        " AND NOT EXISTS (SELECT 1 FROM figures WHERE figures.run_id = runs.id AND figures.evaluation = 0)",
        {},
    )
    for row in missing:
        _write_figures(tx, row["id"], 0)


def evaluated_trials(tx: Transaction, run_id: str, evaluation: int) -> list[Trial]:
    """A run's trials as the figures need them, under an evaluation: the trial's own outcome under 0, else
    the one its check results there give."""
    found = []
    for trial, rows in trials_with_checks(tx, run_id, evaluation):
        results = [CheckResult(**check_result(row)) for row in rows]
        graded = trial["outcome"] if evaluation == 0 else outcome(results)
        found.append(Trial(trial["scene"], trial["number"], graded, trial["folder"], results))
    return found


def trials_with_checks(tx: Transaction, run_id: str, evaluation: int) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """A run's trial rows, by scene and number, each with its check rows under an evaluation."""
    trial_rows = tx.rows("trials", "SELECT * FROM trials WHERE run_id = :run_id ORDER BY scene, number", {"run_id": run_id})
    check_rows = tx.rows(
        "checks",
        "SELECT * FROM checks WHERE run_id = :run_id AND evaluation = :evaluation ORDER BY scene, trial, position",
        {"run_id": run_id, "evaluation": evaluation},
    )
    by_trial: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for check in check_rows:
        by_trial.setdefault((check["scene"], check["trial"]), []).append(check)
    return [(trial, by_trial.get((trial["scene"], trial["number"]), [])) for trial in trial_rows]


def check_result(row: dict[str, Any]) -> dict[str, Any]:
    """A check row as `checks.json` has the result."""
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


def _write_checks(
    tx: Transaction, run_id: str, evaluation: int, scene: str, trial: int, results: list[dict[str, Any]]
) -> None:
    if not results:
        return
    tx.executemany(
        "checks",
        insert("checks", CHECK_COLUMNS),
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


def _write_figures(tx: Transaction, run_id: str, evaluation: int) -> None:
    """Each scene's figures under an evaluation, from the trials and check results the store holds."""
    key = {"run_id": run_id, "evaluation": evaluation}
    tx.execute("figures", "DELETE FROM figures WHERE run_id = :run_id AND evaluation = :evaluation", key)
    found = run_figures(evaluated_trials(tx, run_id, evaluation))
    if found:
        tx.executemany(
            "figures",
            insert("figures", FIGURE_COLUMNS),
            [{**key, **{name: scene[name] for name in FIGURE_COLUMNS[2:]}} for scene in found],
        )


def _delete_run(tx: Transaction, run_id: str) -> None:
    # Children first: SQLite enforces foreign keys (and so cascades) only when asked to per connection.
    for table in ("figures", "checks", "evaluations", "trials"):
        tx.execute(table, f"DELETE FROM {table} WHERE run_id = :run_id", {"run_id": run_id})
    tx.execute("runs", "DELETE FROM runs WHERE id = :run_id", {"run_id": run_id})


def _read_checks(folder: Path) -> list[dict[str, Any]]:
    try:
        results = json.loads((folder / "checks.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    return results if isinstance(results, list) else []
