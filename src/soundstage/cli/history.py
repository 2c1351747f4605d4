"""`soundstage runs` and `soundstage show RUN`: the runs of the results store (docs/cli.md, "The results
store"), and the store option `run` shares with them."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from ..errors import NotFound
from ..results.trust import changed_since_graded, trust_notes
from .output import (
    JsonOption,
    checks_line,
    emit,
    handles_errors,
    next_step,
    quote,
    say,
    scene_figures_line,
    scored,
    share,
    stdout,
)

if TYPE_CHECKING:  # the store's modules load when a command opens it, not with every command
    from ..results import Evaluation, ListedRun, Run, SceneFigures
    from ..store import Store

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="SOUNDSTAGE_DB",
        help="The results store: postgresql://USER@HOST/DB or sqlite:///FILE [default: OUT/soundstage.db].",
        show_default=False,
    ),
]
OutOption = Annotated[
    Path, typer.Option("--out", help="The folder of the runs (its soundstage.db is the default store).")
]
# How many run ids an error about an unknown one suggests.
SUGGESTED = 5
# What `runs --json` and `show --json` give of a run (`show` its evaluations and figures too), of each scene's
# figures in the list of runs, of a trial (result.json's fields but its failed checks, which its check results
# say) and of a failing check.
RUN_FIELDS = {"run_id", "folder", "agent", "scenes", "trials", "strict", "exit_code", "started_at", "finished_at"}
SHOWN = {"evaluation", "evaluations", "figures"}
BRIEF = {"scene", "status", "trials", "invalid", "passed", "pass_at_1", "pass_at_k", "pass_hat_k", "mean_score"}
TRIAL_LEFT_OUT = {"version", "failed_checks", "checks", "digests"}
CHECK_LEFT_OUT = {"args", "version"}  # the store keeps neither


def opened(db: str | None, out: Path) -> Store:
    """The store for `run`: reached and migrated, made when it does not exist."""
    from ..store import open_store, store_url

    store = open_store(store_url(db, out))
    assert store is not None  # made when missing
    return store


@handles_errors("runs")
def runs(db: DbOption = None, out: OutOption = Path("runs"), json_output: JsonOption = False) -> None:
    """List the runs of the results store, newest first."""
    found = _runs(db, out)
    if json_output:
        emit({"runs": [_listed(listed) for listed in found]})
        return
    if not found:
        from ..store import store_url

        say(f"no runs in the store {store_url(db, out) if not db else '(--db)'}")
        next_step(f"soundstage run seeds/<name>.yaml --agent 'python agent.py' --out {quote(str(out))}")
        return
    table = Table(title="runs", title_justify="left")
    for name in ("id", "when", "agent", "scenes", "trials", "passed", "folder"):
        table.add_column(name, no_wrap=name in ("id", "when"))
    for listed in found:
        run = listed.run
        table.add_row(
            Text(run.run_id),
            Text(_when(run.started_at)),
            Text(run.agent),
            Text(", ".join(run.scenes)),
            str(listed.trials_written),
            f"{listed.trials_passed}/{listed.trials_written}",
            Text(run.folder),
        )
    stdout.print(table)
    for listed in found:
        run = listed.run
        if run.figures:
            later = len(run.evaluations) - 1
            again = f" ({later} later evaluation{'s' if later > 1 else ''}: soundstage show)" if later else ""
            say(f"{run.run_id}: " + "; ".join(_brief(figures) for figures in run.figures) + again)
    next_step(f"soundstage show {quote(found[0].run.run_id)}" + _db_words(db, out))


@handles_errors("show")
def show(
    run_id: Annotated[str, typer.Argument(metavar="RUN", help="A run id (see `soundstage runs`).", show_default=False)],
    db: DbOption = None,
    out: OutOption = Path("runs"),
    evaluation: Annotated[
        int | None,
        typer.Option(
            "--evaluation",
            help="Which evaluation of the run: 0 is its own grading, 1... each `soundstage check RUN` "
            "[default: the newest].",
            show_default=False,
        ),
    ] = None,
    json_output: JsonOption = False,
) -> None:
    """Summarise one run of the results store under one of its evaluations: per scene its trials, their outcomes
    and scores, its figures, and the failing checks."""
    run = _run(db, out, run_id, evaluation)
    changed = {(trial.scene, trial.trial): changed_since_graded(trial) for trial in run.results}
    scenes = _scenes(run, changed)
    if json_output:
        emit({"run": run.model_dump(mode="json", include=RUN_FIELDS | SHOWN), "scenes": scenes})
        return
    state = "still running or stopped" if run.exit_code is None else f"exit code {run.exit_code}"
    say(f"run {run.run_id}: {run.agent}, started {_when(run.started_at)} UTC, {state}")
    for made in run.evaluations:
        say(f"evaluation {made.number}: {_scored_by(made)}, {_when(made.created_at)} UTC")
    newest = " (the newest)" if run.evaluation == run.evaluations[-1].number else ""
    say(f"shown: evaluation {run.evaluation}{newest}")
    table = Table("scene", "passed", "trials", title=f"run {run.run_id}", title_justify="left")
    for scene in scenes:
        outcomes = " ".join(_outcome(trial) for trial in scene["trials"])
        table.add_row(Text(scene["scene"]), f"{scene['passed']}/{len(scene['trials'])}", Text(outcomes))
    stdout.print(table)
    for figures in run.figures or []:
        say(scene_figures_line(figures))
        rates = checks_line(figures)
        if rates:
            say(rates)
    failing = [(scene["scene"], check) for scene in scenes for check in scene["failing_checks"]]
    for scene_name, check in failing:
        verdict = "undecided" if check["passed"] is None else "failed"
        say(f"{scene_name} #{check['trial']}: {check['id']} ({check['kind']}) {verdict}: {check['explanation']}")
    for trial in run.results:
        for note in trust_notes(trial, changed[trial.scene, trial.trial], run.evaluation):
            say(f"{trial.scene} #{trial.trial}: {note}")
    say(f"run folder: {run.folder}")
    next_step(f"soundstage explain {quote(run.folder)}" if failing else "soundstage runs" + _db_words(db, out))


def _outcome(trial: dict[str, Any]) -> str:
    """`#2 failed (score 0.60)`: a trial's outcome, and its score when it has one."""
    score = f" (score {scored(trial['score'])})" if trial["score"] is not None else ""
    return f"#{trial['trial']} {trial['outcome']}{score}"


def _listed(listed: ListedRun) -> dict[str, Any]:
    """A run as `runs --json` lists it: its own figures without its checks', and how many evaluations it has."""
    run = listed.run
    return {
        **run.model_dump(mode="json", include=RUN_FIELDS),
        "trials_written": listed.trials_written,
        "trials_passed": listed.trials_passed,
        "figures": [figures.model_dump(mode="json", include=BRIEF) for figures in run.figures or []],
        "evaluation_count": len(run.evaluations),
    }


def _brief(figures: SceneFigures) -> str:
    """`hello pass@1 50%, pass^2 0%, mean score 0.62`: a scene's pass@1, pass^k (k its trials) and mean score (none
    for a run stored before scores), or `hello ungraded`."""
    if figures.status == "ungraded":
        return f"{figures.scene} ungraded"
    line = f"{figures.scene} pass@1 {share(figures.pass_at_1)}, pass^{figures.trials} {share(figures.pass_hat_k)}"
    return line + (f", mean score {scored(figures.mean_score)}" if figures.mean_score is not None else "")


def _scored_by(evaluation: Evaluation) -> str:
    if evaluation.checks_from == "run":
        return "the run's own grading"
    if evaluation.checks_from == "file":
        return f"the checks of {evaluation.checks_file}"
    return "the scenes' checks, again"


def _when(stamp: datetime | None) -> str:
    """`2026-12-01 00:13:58` (UTC)."""
    return stamp.strftime("%Y-%m-%d %H:%M:%S") if stamp is not None else ""


def _scenes(run: Run, changed: dict[tuple[str, int], list[str] | None]) -> list[dict[str, Any]]:
    """Per scene, in the order the run has them: the trials (with the files `changed` since each was graded),
    how many passed, and the required checks that did not pass, each with its trial number."""
    scenes: dict[str, dict[str, Any]] = {}
    for trial in run.results:
        scene = scenes.setdefault(trial.scene, {"scene": trial.scene, "passed": 0, "trials": [], "failing_checks": []})
        shown = trial.model_dump(mode="json", exclude=TRIAL_LEFT_OUT)
        scene["trials"].append({**shown, "changed_since_graded": changed[trial.scene, trial.trial]})
        scene["passed"] += trial.outcome == "passed"
        scene["failing_checks"] += [
            {"trial": trial.trial, **check.model_dump(mode="json", exclude=CHECK_LEFT_OUT)}
            for check in trial.checks
            if check.required and check.passed is not True
        ]
    return list(scenes.values())


def _runs(db: str | None, out: Path) -> list[ListedRun]:
    from ..store import open_store, store_url

    store = open_store(store_url(db, out), create=False)
    if store is None:
        return []
    try:
        return store.runs()
    finally:
        store.close()


def _run(db: str | None, out: Path, run_id: str, evaluation: int | None) -> Run:
    from ..store import open_store, store_url

    store = open_store(store_url(db, out), create=False)
    if store is None:
        raise NotFound(f"no run {run_id!r}: the store {store_url(db, out)} holds no runs")
    try:
        run = store.run(run_id, evaluation)
        if run is None:
            known = store.run_ids()
            hint = (
                f"; known runs, newest first: {', '.join(known[:SUGGESTED])}" if known else "; the store holds no runs"
            )
            raise NotFound(f"no run {run_id!r} in the results store{hint}")
        numbers = [made.number for made in run.evaluations]
        if run.evaluation not in numbers:
            listed = ", ".join(map(str, numbers))
            raise NotFound(f"run {run_id} has no evaluation {evaluation}; its evaluations: {listed}")
        return run
    finally:
        store.close()


def _db_words(db: str | None, out: Path) -> str:
    """The options that name the same store again, for the `next:` line (never the URL itself: it may hold a
    password)."""
    if db:
        return " --db ..."
    return "" if out == Path("runs") else f" --out {quote(str(out))}"
