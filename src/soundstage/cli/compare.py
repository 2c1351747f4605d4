"""`soundstage compare RUN_A RUN_B`: per scene and per check, what got better and worse from run A to run B."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..results import compare_runs
from .output import JsonOption, emit, finish, handles_errors, next_step, quote, say, scored


@handles_errors("compare")
def compare(
    run_a: Annotated[Path, typer.Argument(help="The run folder compared against (before).", show_default=False)],
    run_b: Annotated[Path, typer.Argument(help="The run folder compared (after).", show_default=False)],
    json_output: JsonOption = False,
) -> None:
    """Compare two runs: pass rates per scene and per check, what got better and worse, and the mean scores
    that changed, with the trials behind each change. Exit 1 when B regressed."""
    comparison = compare_runs(run_a, run_b)
    if json_output:
        emit(comparison)
    else:
        _print(comparison)
        next_step(f"soundstage explain {quote(str(run_b))}")
    finish(1 if comparison["regressed"] else 0)


def _print(comparison: dict[str, Any]) -> None:
    say(f"A: {comparison['a']}")
    say(f"B: {comparison['b']}")
    for scene in comparison["scenes"]:
        say(f"{scene['scene']}: A {_scene(scene['a'])}; B {_scene(scene['b'])}")
        for check in scene["checks"]:
            required = "" if check["required"] else " (not required)"
            say(f"  {check['id']}{required}: {_share(check['a'])} -> {_share(check['b'])}")
    for title in ("worse", "better"):
        changes = comparison[title]
        say(f"{title}: {len(changes) or 'nothing'}")
        for change in changes:
            what = change["scene"] if change["check"] is None else f"{change['scene']} / {change['check']}"
            say(f"  {what}: {_share(change['a'])} -> {_share(change['b'])}; {change['why']}:")
            for trial in change["trials"]:
                say(f"    {trial}")
    changes = comparison["scores"]
    say(f"scores: {len(changes) or 'no change'}")
    for change in changes:
        moved = f"{scored(change['a'])} -> {scored(change['b'])} ({change['change']:+.2f})"
        say(f"  {change['scene']}: mean score {moved}; {change['why']}:")
        for trial in change["trials"]:
            say(f"    {trial}")
    say(f"regressed: {'yes' if comparison['regressed'] else 'no'}")


def _scene(figures: dict[str, Any] | None) -> str:
    if figures is None:
        return "no trials"
    if figures["status"] == "ungraded":
        return f"ungraded ({figures['trials']} trials)"
    mean = f", mean score {scored(figures['mean_score'])}" if figures.get("mean_score") is not None else ""
    return f"{figures['passed']}/{figures['trials']} passed (pass@1 {_share(figures['pass_at_1'])}{mean})"


def _share(rate: float | None) -> str:
    return "-" if rate is None else f"{rate * 100:.0f}%"
