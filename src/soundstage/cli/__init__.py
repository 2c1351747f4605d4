"""The `soundstage` command: thin commands over the Python API, one module each (docs/cli.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .check import check
from .compare import compare
from .config import config, load_project, unload_project
from .explain import explain
from .history import runs, show
from .library import checks_command
from .listing import list_command
from ..errors import SoundstageError
from . import output
from .output import json_requested, report
from .run import run
from .serve import serve
from .validate import validate
from .view import view

app = typer.Typer(
    name="soundstage",
    help="A rehearsal stage for AI agents: Slack, GitHub, Datadog and PagerDuty over a simulated, graded world.",
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command()(serve)
app.command()(run)
app.command()(check)
app.command("checks")(checks_command)
app.command()(explain)
app.command()(compare)
app.command()(validate)
app.command("list")(list_command)
app.command()(runs)
app.command()(show)
app.command()(view)
app.command()(config)


@app.callback()
def _options(
    context: typer.Context,
    config_file: Annotated[
        Path | None,
        typer.Option(
            "--config",
            envvar="SOUNDSTAGE_CONFIG",
            help="The project file [default: soundstage.yaml in this folder or the nearest above].",
            show_default=False,
        ),
    ] = None,
) -> None:
    """The options before the command. The project file is read here, before the command's own options:
    its variables are set where unset, and its defaults become the command's."""
    output.refused = None
    context.call_on_close(unload_project)
    try:
        context.default_map = load_project(config_file)
    except SoundstageError as exc:  # reported by the command, which knows whether it speaks JSON
        output.refused = exc


def main(args: list[str] | None = None) -> None:
    """The console script. Click's own usage errors are reported like every other error (exit 2)."""
    argv = sys.argv[1:] if args is None else list(args)
    try:
        code = app(args=argv, prog_name="soundstage", standalone_mode=False)
    except Exception as exc:
        # Click's errors (from the copy of click that typer bundles) carry their own message and exit code.
        if not hasattr(exc, "format_message"):
            raise
        context = getattr(exc, "ctx", None)
        command = context.command_path if context is not None else "soundstage"
        code = getattr(exc, "exit_code", 2)
        report("UsageError", exc.format_message(), code, json_requested(argv), f"{command} --help")
    sys.exit(code if isinstance(code, int) else 0)
