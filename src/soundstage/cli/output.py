"""What every command shares: `--json`, the human and JSON forms of output, errors and exit codes.

In JSON mode a command writes exactly one JSON document on stdout, an error included; in human mode its
output ends with a `next:` line. Errors soundstage raises on purpose become their message and exit code
(errors.py), never a traceback.
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import signal
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer

from ..errors import SoundstageError, SpecError

F = TypeVar("F", bound=Callable[..., Any])

JsonOption = Annotated[
    bool,
    typer.Option("--json", envvar="SOUNDSTAGE_JSON", help="Print one JSON document on stdout and nothing else there."),
]

if TYPE_CHECKING:
    from rich.console import Console

    from ..results import SceneFigures

    stdout: Console
    stderr: Console


# What `emit` writes at once: a pipe's capacity on Linux.
PIECE = 1 << 16
# The width a table may take where the output is not a terminal: a pipe or a file has no width of its own, so a
# table is as wide as its content, never squashed to 80 columns (or to the terminal the pipe's reader sits at).
UNBOUNDED = 1 << 16


@functools.cache
def _console(name: str) -> Console:
    """`stdout` or `stderr`, made when first used: rich is imported by the commands that print with it, not by
    `soundstage --help`. Bound to sys.stdout / sys.stderr when printing, so a test runner's captured streams are
    used."""
    from rich.console import Console, ConsoleDimensions

    class Output(Console):
        @property
        def size(self) -> ConsoleDimensions:
            found = Console.size.fget(self)  # type: ignore[attr-defined]
            return found if self.is_terminal else ConsoleDimensions(UNBOUNDED, found.height)

        @size.setter
        def size(self, new_size: tuple[int, int]) -> None:
            Console.size.fset(self, new_size)  # type: ignore[attr-defined]

        def on_broken_pipe(self) -> None:
            pipe_closed()

    return Output(stderr=name == "stderr", highlight=False, soft_wrap=True)


def __getattr__(name: str) -> Any:
    if name in ("stdout", "stderr"):
        return _console(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def pipe_closed() -> NoReturn:
    """Ends the command as `cat` or `git log` end when their reader stops reading (`soundstage runs | head -1`):
    at once, quietly, killed by SIGPIPE (status 141 in a shell). SIGPIPE is ignored while a command runs (Python
    does, so that a server's closed socket is an error to handle, not the end of the process); a closed stdout is
    the end of the command's work."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # what is left in Python's buffer goes nowhere, without a complaint
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGPIPE)
    raise SystemExit(128 + 13)  # where SIGPIPE cannot end the process (no such signal, or blocked): its status


def json_requested(args: list[str]) -> bool:
    """Whether `--json` or SOUNDSTAGE_JSON asks for JSON, for errors raised before a command parses its options."""
    return "--json" in args or os.environ.get("SOUNDSTAGE_JSON", "").lower() in ("1", "true", "t", "yes", "y", "on")


def emit(data: Any) -> None:
    """The one JSON document of a command."""
    text = json.dumps(data, ensure_ascii=False) + "\n"  # one line: a reader can take it with readline
    try:
        # In pieces no larger than a pipe holds: a write the reader's going cuts short is not an error, the next
        # write is (pipe_closed).
        for start in range(0, len(text), PIECE):
            sys.stdout.write(text[start : start + PIECE])
            sys.stdout.flush()
    except BrokenPipeError:
        pipe_closed()


def say(text: str = "") -> None:
    """A plain line on stdout (no rich markup, so paths and check ids print as they are)."""
    _console("stdout").print(text, markup=False)


def next_step(command: str) -> None:
    say(f"next: {command}")


def quote(*words: str) -> str:
    return shlex.join(words)


def finish(code: int) -> None:
    """Ends the command with `code` (0 returns normally)."""
    if code:
        raise typer.Exit(code)


def report(
    kind: str, message: str, exit_code: int, json_mode: bool, hint: str, errors: Sequence[SpecError] = ()
) -> None:
    """An error: `{"error": ...}` on stdout in JSON mode, else `error:` lines and a `next:` line on stderr."""
    if json_mode:
        error: dict[str, Any] = {"type": kind, "message": message, "exit_code": exit_code}
        if errors:
            error["errors"] = [e.to_dict() for e in errors]
        emit({"error": error})
        return
    for line in [str(e) for e in errors] or [message]:
        _console("stderr").print(f"error: {line}", markup=False)
    _console("stderr").print(f"next: {hint}", markup=False)


# The commands whose files `validate` reads (scenes, world definitions, suites, check libraries).
VALIDATED = ("run", "checks")


def report_soundstage_error(exc: SoundstageError, json_mode: bool, command: str) -> None:
    errors: list[SpecError] = list(getattr(exc, "errors", None) or [exc]) if isinstance(exc, SpecError) else []
    files = sorted({e.file for e in errors if e.file and not e.file.startswith("<")})
    # A scene, a library or the project file that does not load: `validate` lists every problem of it.
    validating = files and (command in VALIDATED or exc is refused)
    hint = f"soundstage validate {quote(*files)}" if validating else f"soundstage {command} --help"
    report(type(exc).__name__, str(exc), exc.exit_code, json_mode, hint, errors)


# An error found before the command ran (the project file does not validate): the command reports it.
refused: SoundstageError | None = None


def handles_errors(name: str, refusing: bool = True) -> Callable[[F], F]:
    """Turns a SoundstageError raised by command `name` (or found before it ran, the project file's, unless it
    is not `refusing` to run without the project file) into its report and exit code."""

    def wrap(command: F) -> F:
        @functools.wraps(command)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                if refused is not None and refusing:
                    raise refused
                return command(*args, **kwargs)
            except SoundstageError as exc:
                report_soundstage_error(exc, kwargs.get("json_output", False), name)
                raise typer.Exit(exc.exit_code) from None

        return run  # type: ignore[return-value]

    return wrap


def share(rate: float | None) -> str:
    """A rate as a percentage, as summaries show it."""
    return "-" if rate is None else f"{rate * 100:.0f}%"


def scored(score: float | None) -> str:
    """A score (0 to 1) as summaries show it: two places, `0.75`."""
    return "-" if score is None else f"{score:.2f}"


def scene_figures_line(figures: SceneFigures) -> str:
    """A scene's figures on one line: `hello: 2/5 passed, pass@1 40%, pass@5 100%, pass^5 0%, mean score 0.62`
    (pass@1 alone for one trial; no mean score when no trial has a score), and with more than two trials pass@k
    and pass^k for every k from 1 (`; k=1..5: pass@k 40% 70% ...`). Invalid trials are left out of k: `2/4
    passed (1 invalid, left out)`."""
    if figures.status == "ungraded":
        return f"{figures.scene}: ungraded ({figures.trials} trials)"
    k = figures.k
    left_out = f" ({figures.invalid} invalid, left out)" if figures.invalid else ""
    line = f"{figures.scene}: {figures.passed}/{k} passed{left_out}, pass@1 {share(figures.pass_at_1)}"
    if k > 1:
        line += f", pass@{k} {share(figures.pass_at_k)}, pass^{k} {share(figures.pass_hat_k)}"
    if figures.mean_score is not None:
        line += f", mean score {scored(figures.mean_score)}"
    if k > 2:
        every = {"pass@k": figures.pass_at or {}, "pass^k": figures.pass_hat or {}}
        line += f"; k=1..{k}: " + ", ".join(
            f"{name} {' '.join(map(share, rates.values()))}" for name, rates in every.items()
        )
    return line


def checks_line(figures: SceneFigures) -> str | None:
    """Each check's pass rate in a scene, `hello checks passed: said_hello 50%, posted 100%`; None without checks."""
    rates = ", ".join(f"{check} {share(entry.pass_rate)}" for check, entry in figures.checks.items())
    return f"{figures.scene} checks passed: {rates}" if rates else None
