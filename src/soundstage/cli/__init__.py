"""The `soundstage` command: thin commands over the Python API, one module each (docs/cli.md)."""

from __future__ import annotations

import gc
import importlib
import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from ..errors import SoundstageError
from . import output
from .config import load_project, unload_project
from .output import json_requested, report, report_soundstage_error

# Each command: its module and function. A command's module is imported only when that command runs, so
# `soundstage --help` and every command start without loading what the others need.
COMMANDS = {
    "serve": ("serve", "serve"),
    "run": ("run", "run"),
    "check": ("check", "check"),
    "checks": ("library", "checks_command"),
    "explain": ("explain", "explain"),
    "compare": ("compare", "compare"),
    "validate": ("validate", "validate"),
    "list": ("listing", "list_command"),
    "runs": ("history", "runs"),
    "show": ("history", "show"),
    "load": ("load", "load"),
    "view": ("view", "view"),
    "config": ("config", "config"),
    "import": ("import_agent_diff", "import_app"),
    "ray": ("cluster", "ray_app"),
    "mcp": ("mcp", "mcp"),
}


class Commands(TyperGroup):
    """The commands, each built from its module when it is called; the list in `--help` reads each one's
    summary from its module's source instead."""

    listing = False  # while the group's own help is written

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, name: str) -> Any:
        if name not in COMMANDS:
            return None
        module, function = COMMANDS[name]
        if self.listing:
            return TyperCommand(name, help=_summary(module, function))
        target = getattr(importlib.import_module(f".{module}", __name__), function)
        if not gc.isenabled():  # held off by `main` while the command's modules loaded
            gc.freeze()
            gc.enable()
        if isinstance(target, typer.Typer):  # a group of subcommands: `import agent-diff`
            group = typer.main.get_group(target)
            group.name = name
            return group
        single = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
        single.command(name)(target)
        return typer.main.get_command(single)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False


def _summary(module: str, function: str) -> str:
    """The first paragraph of a command function's docstring, read from its module's source without running
    or parsing it (the docstring follows the signature, which ends `) -> None:`)."""
    source = (Path(__file__).parent / f"{module}.py").read_text(encoding="utf-8")
    found = re.search(rf'^def {function}\(.*?\) -> None:\n    """(.*?)(?:\n\n|""")', source, re.DOTALL | re.MULTILINE)
    if found is None:  # a group of subcommands: its module's docstring
        found = re.match(r'"""(.*?)(?:\n\n|""")', source, re.DOTALL)
    return " ".join(found[1].split()) if found else ""


app = typer.Typer(
    name="soundstage",
    help="A rehearsal stage for AI agents: Slack, GitHub, Datadog and PagerDuty over a simulated, graded world.",
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=Commands,
    # Click's plain help: it starts faster than rich's, and shows `[default: ...]` in help texts as written
    # (rich's markup took them for tags and dropped them).
    rich_markup_mode=None,
)


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
    """The console script. Click's own usage errors are reported like every other error (exit 2).

    The modules a command loads make objects by the hundred thousand and live until the process exits, so the
    cyclic garbage collector is held off while they load, and then told to leave them be (`gc.freeze`), as it
    is at exit: walking them cost a quarter of `soundstage run`'s own CPU (benchmarks/trials.py)."""
    gc.disable()
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
        if output.refused is not None and command != "soundstage validate":
            # Options missing without the project file's defaults: the project file is what to fix.
            report_soundstage_error(output.refused, json_requested(argv), command.removeprefix("soundstage "))
            code = output.refused.exit_code
        else:
            report("UsageError", exc.format_message(), code, json_requested(argv), f"{command} --help")
    finally:
        gc.freeze()
        gc.enable()
    sys.exit(code if isinstance(code, int) else 0)
