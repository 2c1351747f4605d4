"""`soundstage run SCENE... --agent CMD`: trials of an agent against scenes, a summary, exit code of docs/cli.md."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from ..runner import RunResult, TrialResult, how_the_agent_ended, run_scenes
from .history import DbOption, opened
from .output import (
    JsonOption,
    emit,
    finish,
    handles_errors,
    next_step,
    quote,
    say,
    stderr,
    stdout,
)


@handles_errors("run")
def run(
    scenes: Annotated[list[str], typer.Argument(help="Scene files or names (seeds/<name>.yaml).", show_default=False)],
    agent: Annotated[
        str, typer.Option("--agent", help="The agent's command line (run without a shell).", show_default=False)
    ],
    trials: Annotated[int, typer.Option("--trials", min=1, help="Trials per scene.")] = 1,
    parallel: Annotated[int, typer.Option("--parallel", min=1, help="Trials run at once.")] = 1,
    out: Annotated[Path, typer.Option("--out", help="Where run folders are written.")] = Path("runs"),
    strict: Annotated[
        bool, typer.Option("--strict", help="Exit 4 when the agent called an unimplemented endpoint.")
    ] = False,
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.001, help="Seconds before a trial's agent is killed.")
    ] = 300.0,
    tls: Annotated[bool, typer.Option("--tls", help="Give the agent https URLs for every service.")] = False,
    db: DbOption = None,
    json_output: JsonOption = False,
) -> None:
    """Run the agent against each scene, TRIALS times; write the trial folders and the results store; print a summary."""
    result = run_scenes(
        scenes,
        agent,
        trials=trials,
        parallel=parallel,
        out=out,
        strict=strict,
        timeout=timeout,
        tls=tls,
        on_progress=_progress(len(scenes) * trials) if sys.stderr.isatty() else None,
        store=lambda: opened(db, out),  # reached and migrated before any agent starts
    )
    if json_output:
        emit(result.to_dict())
    else:
        _summary(result)
        next_step(_next(result, scenes))
    finish(result.exit_code)


def _progress(total: int) -> Callable[[TrialResult], None]:
    """One line per finished trial, counted (trials finish in any order when run in parallel)."""
    done = itertools.count(1)

    def report(trial: TrialResult) -> None:
        note = " (timed out)" if trial.timed_out else ""
        ended = how_the_agent_ended(trial.exit_code, trial.killed)
        note += f" ({ended})" if ended else ""
        stderr.print(f"[{next(done)}/{total}] {trial.scene} #{trial.trial}: {trial.outcome}{note}", markup=False)

    return report


def _summary(result: RunResult) -> None:
    table = Table("scene", "passed", "failed trials", title=f"run {result.run_id}")
    for scene in dict.fromkeys(trial.scene for trial in result.results):
        trials = [trial for trial in result.results if trial.scene == scene]
        passed = sum(trial.outcome == "passed" for trial in trials)
        failures = "\n".join(_failure(trial) for trial in trials if trial.outcome != "passed")
        table.add_row(Text(scene), f"{passed}/{len(trials)}", Text(failures or "-"))
    stdout.print(table)
    for trial in result.results:  # an agent that crashed, or could not find what it runs, says so in its stderr
        ended = how_the_agent_ended(trial.exit_code, trial.killed)
        if ended:
            say(f"{trial.scene} #{trial.trial}: {ended}; its stderr: {Path(trial.folder) / 'agent.log'}")
    if result.unimplemented:
        say(f"unimplemented endpoints called: {result.unimplemented}" + (" (--strict)" if result.strict else ""))
    say(f"run folder: {result.folder}")


def _failure(trial: TrialResult) -> str:
    why = ", ".join(trial.failed_checks) or trial.outcome
    return f"#{trial.trial}: {why}" + (" (timed out)" if trial.timed_out else "")


def _next(result: RunResult, scenes: list[str]) -> str:
    if result.exit_code == 4:
        return "soundstage list --operations"
    if result.exit_code == 0 and result.trials == 1:
        return f"soundstage run {quote(*scenes)} --agent {quote(result.agent)} --trials 5"
    return f"soundstage explain {quote(str(result.folder))}"
