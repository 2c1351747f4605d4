"""Reading runs back, each row into the model it stores (results/), here alone: the list of runs, newest first,
and one run under one of its evaluations with its trials, check results, evaluations and figures. An
evaluation's row and a scene's figures' row are their models' fields (the key columns besides are ignored)."""

from __future__ import annotations

from typing import Any

from ..checks.results import CheckResult
from ..results import Counts, Evaluation, ListedRun, Outcome, Run, SceneFigures, Trial, outcome
from ..results.trial import score
from .transaction import Transaction

# The statements select `runs` rows newest first.
NEWEST = "ORDER BY runs.started_at DESC, runs.id DESC"
# The fields of a check result stored as they are, each in a column of its name.
CHECK_FIELDS = (
    "kind",
    "required",
    "passed",
    "invalid",
    "score",
    "weight",
    "expected",
    "actual",
    "explanation",
    "evidence",
    "source",
)


def list_runs(tx: Transaction) -> list[ListedRun]:
    """Every run, newest first, without its trials: its evaluations, each scene's figures under its own grading
    (evaluation 0; none until it finishes), how many trials were written and how many passed."""
    rows = tx.rows(
        "runs",
        "SELECT runs.*, counted.written, counted.passed FROM runs LEFT OUTER JOIN"
        " (SELECT run_id, count(*) AS written, sum(CASE WHEN outcome = 'passed' THEN 1 ELSE 0 END) AS passed"
        f" FROM trials GROUP BY run_id) counted ON counted.run_id = runs.id {NEWEST}",
        {},
    )
    figures: dict[str, list[SceneFigures]] = {}
    for row in tx.rows("figures", "SELECT * FROM figures WHERE evaluation = 0 ORDER BY run_id, scene", {}):
        figures.setdefault(row["run_id"], []).append(SceneFigures.model_validate(row))
    evaluations: dict[str, list[Evaluation]] = {}
    for row in tx.rows("evaluations", "SELECT * FROM evaluations ORDER BY run_id, number", {}):
        evaluations.setdefault(row["run_id"], []).append(Evaluation.model_validate(row))
    return [
        ListedRun(
            run=_run(row, figures.get(row["id"], []), evaluations.get(row["id"], [])),
            trials_written=int(row["written"] or 0),
            trials_passed=int(row["passed"] or 0),
        )
        for row in rows
    ]


def get_run(tx: Transaction, run_id: str, evaluation: int | None = 0) -> Run | None:
    """A run under one of its evaluations (`evaluation`; None: the newest): each scene's figures and its trials
    (by scene and number) with their check results there; None when the run is unknown. Under an evaluation
    other than 0, a trial's outcome is the one its check results there give."""
    found = tx.rows("runs", "SELECT * FROM runs WHERE id = :run_id", {"run_id": run_id})
    if not found:
        return None
    made = [
        Evaluation.model_validate(row)
        for row in tx.rows(
            "evaluations", "SELECT * FROM evaluations WHERE run_id = :run_id ORDER BY number", {"run_id": run_id}
        )
    ]
    number = evaluation if evaluation is not None else max((e.number for e in made), default=0)
    figures = [
        SceneFigures.model_validate(row)
        for row in tx.rows(
            "figures",
            "SELECT * FROM figures WHERE run_id = :run_id AND evaluation = :evaluation ORDER BY scene",
            {"run_id": run_id, "evaluation": number},
        )
    ]
    run = _run(found[0], figures, made)
    return run.model_copy(update={"evaluation": number, "results": read_trials(tx, run_id, number)})


def read_trials(tx: Transaction, run_id: str, evaluation: int) -> list[Trial]:
    """A run's trials, by scene and number, each with its check results under an evaluation: under 0 with the
    outcome and score it was stored with, else those its check results there give."""
    trial_rows = tx.rows(
        "trials", "SELECT * FROM trials WHERE run_id = :run_id ORDER BY scene, number", {"run_id": run_id}
    )
    check_rows = tx.rows(
        "checks",
        "SELECT * FROM checks WHERE run_id = :run_id AND evaluation = :evaluation ORDER BY scene, trial, position",
        {"run_id": run_id, "evaluation": evaluation},
    )
    by_trial: dict[tuple[str, int], list[CheckResult]] = {}
    for row in check_rows:
        by_trial.setdefault((row["scene"], row["trial"]), []).append(_check(row))
    trials = []
    for row in trial_rows:
        checks = by_trial.get((row["scene"], row["number"]), [])
        if evaluation == 0:
            trials.append(_trial(row, checks, row["outcome"], row["score"]))
        else:
            graded = outcome(checks)
            trials.append(_trial(row, checks, graded, score(checks, graded)))
    return trials


def run_ids(tx: Transaction) -> list[str]:
    """The stored run ids, newest first."""
    return [row["id"] for row in tx.rows("runs", f"SELECT runs.id FROM runs {NEWEST}", {})]


def _run(row: dict[str, Any], figures: list[SceneFigures], evaluations: list[Evaluation]) -> Run:
    return Run(
        run_id=row["id"],
        folder=row["folder"],
        agent=row["agent"],
        scenes=row["scenes"],
        trials=row["trials"],
        strict=row["strict"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        exit_code=row["exit_code"],
        figures=figures,
        evaluations=evaluations,
    )


def _trial(row: dict[str, Any], checks: list[CheckResult], graded: Outcome, scored: float | None) -> Trial:
    return Trial(
        scene=row["scene"],
        trial=row["number"],
        world=row["world"],
        outcome=graded,
        score=scored,
        exit_code=row["exit_code"],
        killed=row["killed"],
        timed_out=row["timed_out"],
        finish_reason=row["finish_reason"],
        wall_seconds=row["wall_seconds"],
        simulated_seconds=row["simulated_seconds"],
        counts=Counts(**{name: row[name] for name in Counts.model_fields}),
        folder=row["folder"],
        attempts=row["attempts"],
        sandbox=row["sandbox"],
        infrastructure=row["infrastructure"],
        digests=row["digests"],
        checks=checks,
    )


def _check(row: dict[str, Any]) -> CheckResult:
    """A check row as the result it stores (its arguments are not stored)."""
    return CheckResult(id=row["check_id"], **{name: row[name] for name in CHECK_FIELDS})
