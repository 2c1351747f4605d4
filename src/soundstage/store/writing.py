"""Writing runs, trials, check results, evaluations and figures, each from the model it stores (results/). Each
write replaces the rows it writes: re-writing a run id or a trial gives the same rows as writing it once. A
trial is written in one transaction with its check results; an evaluation with its check results and figures.
Figures are computed from the rows the store holds (results/figures.py), so every writer of runs gets them."""

from __future__ import annotations

from datetime import datetime

from ..checks.results import CheckResult
from ..results import Counts, Run, Trial, run_figures
from .reading import CHECK_FIELDS, read_trials
from .transaction import Transaction

# How a run's own grading (evaluation 0) is recorded among its evaluations.
OWN = "run"

TRIAL_COLUMNS = [
    "run_id",
    "scene",
    "number",
    "world",
    "outcome",
    "score",
    "exit_code",
    "killed",
    "timed_out",
    "finish_reason",
    "wall_seconds",
    "simulated_seconds",
    "calls",
    "events",
    "errors",
    "unimplemented",
    "after_finish",
    "folder",
    "attempts",
    "sandbox",
    "infrastructure",
    "digests",
    "model_calls",
    "model_tokens",
    "model_refused",
]
CHECK_COLUMNS = ["run_id", "evaluation", "scene", "trial", "position", "check_id", *CHECK_FIELDS]
# The fields of a trial stored as they are (its counts are columns too).
TRIAL_FIELDS = set(TRIAL_COLUMNS[3:]) - set(Counts.model_fields)
FIGURE_COLUMNS = [
    "run_id",
    "evaluation",
    "scene",
    "status",
    "trials",
    "invalid",
    "passed",
    "pass_at_1",
    "pass_at_k",
    "pass_hat_k",
    "pass_at",
    "pass_hat",
    "mean_score",
    "checks",
]


def insert(table: str, columns: list[str]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})"


def start_run(tx: Transaction, run: Run) -> None:
    """Writes a run with no trials yet (it needs `started_at`); a run already stored under its id loses its rows."""
    _delete_run(tx, run.run_id)
    row = {
        "id": run.run_id,
        "folder": run.folder,
        "agent": run.agent,
        "scenes": run.scenes,
        "trials": run.trials,
        "strict": run.strict,
        "exit_code": None,
        "started_at": run.started_at,
        "finished_at": None,
    }
    tx.execute("runs", insert("runs", list(row)), row)
    own = {"run_id": run.run_id, "number": 0, "checks_from": OWN, "checks_file": None, "created_at": run.started_at}
    tx.execute("evaluations", insert("evaluations", list(own)), own)


def write_trial(tx: Transaction, run_id: str, trial: Trial) -> None:
    """Writes a trial with its check results (under the run's own grading)."""
    key = {"run_id": run_id, "scene": trial.scene, "number": trial.trial}
    tx.execute("checks", "DELETE FROM checks WHERE run_id = :run_id AND scene = :scene AND trial = :number", key)
    tx.execute("trials", "DELETE FROM trials WHERE run_id = :run_id AND scene = :scene AND number = :number", key)
    row = {**key, **trial.model_dump(include=TRIAL_FIELDS), **trial.counts.model_dump()}
    tx.execute("trials", insert("trials", TRIAL_COLUMNS), row)
    _write_checks(tx, run_id, 0, trial.scene, trial.trial, trial.checks)


def finish_run(tx: Transaction, run: Run) -> None:
    """Marks the run ended (its exit code and when; both None for a run that was stopped) and writes its
    figures (evaluation 0) from the trials written."""
    tx.execute(
        "runs",
        "UPDATE runs SET exit_code = :exit_code, finished_at = :finished_at WHERE id = :id",
        {"exit_code": run.exit_code, "finished_at": run.finished_at, "id": run.run_id},
    )
    _write_figures(tx, run.run_id, 0)


def add_evaluation(
    tx: Transaction,
    run_id: str,
    scored: dict[tuple[str, int], list[CheckResult]],
    checks_from: str,
    checks_file: str | None,
    created: datetime,
) -> int:
    """Writes an evaluation of a stored run, numbered after its last: the check results of each trial in
    `scored` (by scene and number; trials the store holds) and the figures they give. Returns its number."""
    last = tx.rows(
        "evaluations", "SELECT max(number) AS last FROM evaluations WHERE run_id = :run_id", {"run_id": run_id}
    )
    number = (last[0]["last"] or 0) + 1
    row = {
        "run_id": run_id,
        "number": number,
        "checks_from": checks_from,
        "checks_file": checks_file,
        "created_at": created,
    }
    tx.execute("evaluations", insert("evaluations", list(row)), row)
    for (scene, trial), checks in scored.items():
        _write_checks(tx, run_id, number, scene, trial, checks)
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


def _write_checks(
    tx: Transaction, run_id: str, evaluation: int, scene: str, trial: int, checks: list[CheckResult]
) -> None:
    if not checks:
        return
    key = {"run_id": run_id, "evaluation": evaluation, "scene": scene, "trial": trial}
    tx.executemany(
        "checks",
        insert("checks", CHECK_COLUMNS),
        [
            {**key, "position": position, "check_id": check.id, **check.model_dump(include=set(CHECK_FIELDS))}
            for position, check in enumerate(checks)
        ],
    )


def _write_figures(tx: Transaction, run_id: str, evaluation: int) -> None:
    """Each scene's figures under an evaluation, from the trials and check results the store holds."""
    key = {"run_id": run_id, "evaluation": evaluation}
    tx.execute("figures", "DELETE FROM figures WHERE run_id = :run_id AND evaluation = :evaluation", key)
    found = run_figures(read_trials(tx, run_id, evaluation))
    if found:
        tx.executemany(
            "figures",
            insert("figures", FIGURE_COLUMNS),
            [{**key, **scene.model_dump(mode="json", exclude={"k"})} for scene in found],
        )


def _delete_run(tx: Transaction, run_id: str) -> None:
    # Children first: SQLite enforces foreign keys (and so cascades) only when asked to per connection.
    for table in ("figures", "checks", "evaluations", "trials"):
        tx.execute(table, f"DELETE FROM {table} WHERE run_id = :run_id", {"run_id": run_id})
    tx.execute("runs", "DELETE FROM runs WHERE id = :run_id", {"run_id": run_id})
