"""`soundstage export RUN`: a run's trials as training data, one JSON line a trial (results/export.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..errors import UsageError
from ..results import Run
from ..results.export import ExportFilter, export_lines
from ..results.folders import FolderRuns, read_run
from .history import DbOption, OutOption, _run
from .output import handles_errors, pipe_closed


@handles_errors("export")
def export(
    run_id: Annotated[
        str, typer.Argument(metavar="RUN", help="A run folder, or a run id (under --out, or in the results store).")
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="The JSONL file to write [default: stdout].", show_default=False),
    ] = None,
    passed: Annotated[bool, typer.Option("--passed", help="Only the trials that passed.")] = False,
    scene: Annotated[
        list[str] | None,
        typer.Option("--scene", metavar="NAME", help="Only this scene's trials; repeatable.", show_default=False),
    ] = None,
    min_score: Annotated[
        float | None,
        typer.Option(
            "--min-score",
            metavar="SCORE",
            help="Only the trials scored SCORE (0 to 1) or more; a trial with no score is left out.",
            show_default=False,
        ),
    ] = None,
    source: Annotated[
        str,
        typer.Option(
            "--messages",
            help="auto: the agent's own conversation where its model calls' bodies were captured, else the trace; "
            "trace; model.",
        ),
    ] = "auto",
    db: DbOption = None,
    out: OutOption = Path("runs"),
) -> None:
    """Write the run's trials as JSONL training data: each trial's conversation in OpenAI's chat format (tool
    calls and their results), with its scene, outcome, score and whether it hit its token cap."""
    if source not in ("auto", "trace", "model"):
        raise UsageError(f"--messages is auto, trace or model, not {source!r}")
    if min_score is not None and not 0 <= min_score <= 1:
        raise UsageError(f"--min-score is a score from 0 to 1, not {min_score}")
    keep = ExportFilter(passed, tuple(scene or ()), min_score)
    lines = export_lines(_found(run_id, db, out), keep, source)  # type: ignore[arg-type]
    if output is None:
        try:
            for line in lines:
                sys.stdout.write(line + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            pipe_closed()
        return
    written = Path(f"{output}.part")  # the file appears whole, or not at all
    try:
        with written.open("w", encoding="utf-8") as file:
            count = sum(file.write(line + "\n") > 0 for line in lines)
        written.replace(output)
    except OSError as exc:
        written.unlink(missing_ok=True)
        raise UsageError(f"cannot write {output}: {exc.strerror or exc}") from None
    except BaseException:
        written.unlink(missing_ok=True)
        raise
    print(f"exported {count} trials to {output}", file=sys.stderr)


def _found(run_id: str, db: str | None, out: Path) -> Run:
    """A run folder given as a path; else the run of that id under `out`, else in the results store."""
    if Path(run_id).is_dir():
        return read_run(Path(run_id))
    return FolderRuns(out).run(run_id) or _run(db, out, run_id, None)
