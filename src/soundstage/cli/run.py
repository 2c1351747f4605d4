"""`soundstage run SCENE... --agent CMD`: trials of an agent against scenes, a summary, exit code of docs/cli.md."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from ..errors import UsageError
from ..results import Run, Trial, exit_code, unimplemented
from ..results.files import run_document
from ..runner import TrialPool, how_the_agent_ended, run_scenes
from ..server.model_calls import ModelCapture
from ..spec.suites import expand_suites
from .config import project_file
from .history import DbOption, opened
from .output import (
    JsonOption,
    checks_line,
    emit,
    finish,
    handles_errors,
    next_step,
    quote,
    say,
    scored,
    share,
    stderr,
    stdout,
)


@handles_errors("run")
def run(
    scenes: Annotated[
        list[str],
        typer.Argument(
            help="Scene files or names (seeds/<name>.yaml), or suites (suites/<name>.yaml).", show_default=False
        ),
    ],
    agent: Annotated[
        str, typer.Option("--agent", help="The agent's command line (run without a shell).", show_default=False)
    ],
    trials: Annotated[int, typer.Option("--trials", min=1, help="Trials per scene.")] = 1,
    parallel: Annotated[
        int | None,
        typer.Option(
            "--parallel",
            min=1,
            help="Trials run at once [default: 1; with --ray, one for each CPU of the cluster].",
            show_default=False,
        ),
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="Where run folders are written.")] = Path("runs"),
    strict: Annotated[
        bool, typer.Option("--strict", help="Exit 4 when the agent called an unimplemented endpoint.")
    ] = False,
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.001, help="Seconds before a trial's agent is killed.")
    ] = 300.0,
    tls: Annotated[bool, typer.Option("--tls", help="Give the agent https URLs for every service.")] = False,
    intercept: Annotated[
        bool,
        typer.Option(
            "--intercept",
            help="Send the agent's HTTP through soundstage's proxy: the vendors' own hosts reach the world.",
        ),
    ] = False,
    capture_model: Annotated[
        list[str] | None,
        typer.Option(
            "--capture-model",
            metavar="HOST[:PORT]",
            help=(
                "With --intercept: capture the agent's calls to this OpenAI-compatible model host too (besides "
                "api.openai.com and openrouter.ai), and let the agent reach it; repeatable."
            ),
            show_default=False,
        ),
    ] = None,
    capture_bodies: Annotated[
        bool,
        typer.Option("--capture-bodies", help="Keep the bodies of the captured model calls in the trace."),
    ] = False,
    max_tokens: Annotated[
        int | None,
        typer.Option(
            "--max-tokens",
            min=1,
            help="With --intercept: the tokens a trial's captured model calls may use; past it, they are refused.",
            show_default=False,
        ),
    ] = None,
    pass_env: Annotated[
        list[str] | None,
        typer.Option(
            "--pass-env",
            metavar="NAME",
            help="Pass this variable of your environment on to the agent (a model's API key); repeatable.",
            show_default=False,
        ),
    ] = None,
    env: Annotated[
        list[str] | None,
        typer.Option(
            "--env", metavar="NAME=VALUE", help="Give the agent this variable; repeatable.", show_default=False
        ),
    ] = None,
    ray: Annotated[
        bool,
        typer.Option(
            "--ray",
            help="Run the trials on a Ray cluster: the one at --ray-address, else RAY_ADDRESS's, else the local "
            "cluster, started on this machine by the first run that needs it and left up for the next ones "
            "(soundstage ray stop; docs/ray.md). Needs soundstage[ray].",
        ),
    ] = False,
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray-address",
            metavar="ADDRESS",
            help="With --ray: the cluster's address: auto (started by ray start --head), host:port, "
            "ray://host:port, or local (a new cluster on this machine, ended with the run).",
            show_default=False,
        ),
    ] = None,
    ray_shared_out: Annotated[
        bool,
        typer.Option(
            "--ray-shared-out",
            help="With --ray: --out is on storage every node reaches at the same path; "
            "nodes write trial folders there.",
        ),
    ] = False,
    sandbox: Annotated[
        str,
        typer.Option(
            "--sandbox",
            metavar="auto|required|none",
            help="Run the agent in a sandbox that hides the run folders, the store, the scene files and soundstage's "
            "home (bubblewrap, Linux): auto uses it where it works and warns where it does not; required refuses "
            "to run without it; none runs the agent as you.",
        ),
    ] = "auto",
    db: DbOption = None,
    json_output: JsonOption = False,
) -> None:
    """Run the agent against each scene, TRIALS times; write the trial folders and the results store; print a
    summary."""
    values = dict(_assignment(item) for item in env or [])
    if (ray_shared_out or ray_address is not None) and not ray:
        raise UsageError("--ray-address and --ray-shared-out go with --ray")
    if (capture_model or capture_bodies or max_tokens is not None) and not intercept:
        raise UsageError("--capture-model, --capture-bodies and --max-tokens go with --intercept")
    try:
        capture = ModelCapture.of(capture_model, capture_bodies, max_tokens)
    except ValueError as exc:
        raise UsageError(f"--capture-model: {exc}") from None
    scenes = expand_suites(scenes)  # the progress bar counts a suite's scenes
    with _progress(len(scenes) * trials, live=sys.stderr.isatty()) as progress:
        result = run_scenes(
            scenes,
            agent,
            trials=trials,
            parallel=parallel,
            out=out,
            strict=strict,
            timeout=timeout,
            tls=tls,
            on_progress=progress.trial if progress is not None else None,
            on_start=None if json_output else _started,
            store=lambda: opened(db, out),  # reached and migrated before any agent starts
            pass_env=pass_env,
            env=values,
            intercept=intercept,
            capture=capture,
            where=_ray_trials(ray_address, ray_shared_out, json_output) if ray else None,
            sandbox=sandbox,
            hide=[project_file()] if project_file() is not None else [],  # type: ignore[list-item]
            on_note=None if json_output else _warn,  # with --json, run.json's `sandbox` and `infrastructure` say it
        )
    if json_output:
        emit(run_document(result))
    else:
        _summary(result)
        next_step(_next(result, scenes))
    finish(exit_code(result.results, result.strict, result.infrastructure))


def _assignment(item: str) -> tuple[str, str]:
    name, equals, value = item.partition("=")
    if not equals:
        raise UsageError(f"--env takes NAME=VALUE, not {item.partition(' ')[0][:40]!r}")
    return name, value


def _ray_trials(address: str | None, shared_out: bool, json_output: bool) -> TrialPool:
    """The Ray cluster's pool. Ray is imported here, by a run that asks for it, and only then."""
    try:
        from ..runner_ray import RayTrials
    except ImportError as exc:
        raise UsageError(f"--ray needs Ray: pip install 'soundstage[ray]' ({exc})") from None
    return RayTrials(address, shared_out, None if json_output else _cluster_started)


def _cluster_started(address: str) -> None:
    """The local cluster this run started stays up after it: said, with how to end it."""
    stderr.print(
        f"started the local Ray cluster at {address}; it stays up for the next runs (soundstage ray stop ends it)",
        markup=False,
    )


def _warn(note: str) -> None:
    stderr.print(f"warning: {note}", markup=False)


def _started(folder: Path) -> None:
    """The run folder, on stderr before the first trial, so a user can follow a trial while it runs."""
    stderr.print(f"run folder: {folder}", markup=False)


class _Progress:
    """On a terminal: one line per finished trial, counted (trials finish in any order when run in
    parallel), under a live line of trials done, passing so far and running time."""

    def __init__(self, total: int) -> None:
        from rich.progress import Progress, TextColumn, TimeElapsedColumn  # only a terminal is shown progress

        self.total = total
        self.done = 0
        self.passing = 0
        self.bar = Progress(TextColumn("{task.description}"), TimeElapsedColumn(), console=stderr, transient=True)
        self.task = self.bar.add_task(self.status(), total=total)

    def status(self) -> str:
        return f"{self.done}/{self.total} trials done, {self.passing} passing"

    def line(self, trial: Trial) -> str:
        note = " (timed out)" if trial.timed_out else ""
        ended = how_the_agent_ended(trial.exit_code, trial.killed)
        note += f" ({ended})" if ended else ""
        return f"[{self.done}/{self.total}] {trial.scene} #{trial.trial}: {trial.outcome}{note}"

    def trial(self, trial: Trial) -> None:
        self.done += 1
        self.passing += trial.outcome == "passed"
        self.bar.console.print(self.line(trial), markup=False)
        self.bar.update(self.task, completed=self.done, description=self.status())


@contextmanager
def _progress(total: int, live: bool) -> Iterator[_Progress | None]:
    """The progress of `total` trials on a terminal (`live`); None elsewhere."""
    if not live:
        yield None
        return
    progress = _Progress(total)
    with progress.bar:
        yield progress


def _summary(result: Run) -> None:
    figures_shown = result.figures or []
    # Every scene has as many trials; invalid ones are left out of its k. With one trial, pass@k and pass^k are
    # pass@1 again: the table has that column alone.
    k = result.trials if not any(figures.invalid for figures in figures_shown) else "k"
    over_k = [f"pass@{k}", f"pass^{k}"] if result.trials > 1 else []
    table = Table("scene", "passed", "pass@1", *over_k, "score", title=f"run {result.run_id}")
    for figures in figures_shown:
        if figures.status == "ungraded":
            table.add_row(Text(figures.scene), f"ungraded ({figures.trials} trials)", "-", *["-" for _ in over_k], "-")
            continue
        invalid = f" ({figures.invalid} invalid)" if figures.invalid else ""
        shares = [share(figures.pass_at_1), share(figures.pass_at_k), share(figures.pass_hat_k)]
        passed = f"{figures.passed}/{figures.k}{invalid}"
        table.add_row(Text(figures.scene), passed, *shares[: 1 + len(over_k)], scored(figures.mean_score))
    stdout.print(table)
    for figures in figures_shown:
        rates = checks_line(figures)
        if rates:
            say(rates)
    for trial in result.results:
        if trial.outcome not in ("passed", "ungraded") and not trial.infrastructure:  # that one's line is below
            say(f"{trial.scene} {_failure(trial)}")
    for trial in result.results:
        if trial.infrastructure:
            say(f"{trial.scene} #{trial.trial}: invalid, not the agent's doing: {trial.infrastructure}")
    for problem in result.infrastructure:
        say(problem)
    for trial in result.results:  # an agent that crashed, or could not find what it runs, says so in its stderr
        ended = how_the_agent_ended(trial.exit_code, trial.killed)
        if ended:
            say(f"{trial.scene} #{trial.trial}: {ended}; its stderr: {Path(trial.folder) / 'agent.log'}")
    called = unimplemented(result.results)
    if called:
        say(f"unimplemented endpoints called: {called}" + (" (--strict)" if result.strict else ""))
    say(f"run folder: {result.folder}")


def _failure(trial: Trial) -> str:
    why = ", ".join(trial.failed_checks) or trial.outcome
    return f"#{trial.trial}: {why}" + (" (timed out)" if trial.timed_out else "")


def _next(result: Run, scenes: list[str]) -> str:
    if result.exit_code == 4:
        return "soundstage list --operations"
    if result.exit_code == 0 and result.trials == 1:
        return f"soundstage run {quote(*scenes)} --agent {quote(result.agent)} --trials 5"
    return f"soundstage explain {quote(result.folder)}"
