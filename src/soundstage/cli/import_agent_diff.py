"""Turn another benchmark's world and tasks into a world file and scenes: `import agent-diff`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..importers.agent_diff import import_agent_diff
from .output import JsonOption, emit, handles_errors, next_step, quote, say

import_app = typer.Typer(
    help="Turn another benchmark's world and tasks into a world file and scenes.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@import_app.command("agent-diff")
@handles_errors("import agent-diff")
def agent_diff(
    seed: Annotated[Path, typer.Argument(help="The Agent-Diff Slack seed (JSON).", show_default=False)],
    suite: Annotated[Path, typer.Argument(help="The Agent-Diff test suite (JSON).", show_default=False)],
    outdir: Annotated[
        Path, typer.Argument(help="Where worlds/, seeds/ and report.json are written.", show_default=False)
    ],
    json_output: JsonOption = False,
) -> None:
    """Write the seed as a world file and each test as a scene whose checks say what its assertions say;
    every assertion that cannot be said exactly is printed with the reason, and noted in its scene."""
    imported = import_agent_diff(seed, suite, outdir)
    report = imported.to_dict()
    if json_output:
        emit(report)
        return
    say(f"{imported.world}: world")
    say(f"{len(imported.scenes)} scenes in {outdir / 'seeds'}")
    say(
        f"{report['assertions']} assertions: {report['expressed']} expressed exactly, "
        f"{report['expressed_with_caveat']} with a caveat, {report['unexpressed']} not expressed"
    )
    for detail in report["details"]:
        kind = "not expressed" if "unexpressed" in detail else "caveat"
        say(f"  {detail['test']} {detail['check']}: {kind}: {detail.get('unexpressed') or detail.get('caveat')}")
    if report["warnings"]:
        n = len(report["warnings"])
        say(f"{n} warning{'s' if n > 1 else ''}:")
    for warning in report["warnings"]:
        say(f"  {warning['test']}: {warning['warning']}")
    next_step(f"soundstage validate {quote(str(imported.world), *map(str, imported.scenes[:1]))}")
