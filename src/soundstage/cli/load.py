"""`soundstage load RUN`: a run folder written into the results store, as the run would have written it: for a
run whose store failed while it ran (docs/cli.md, "When soundstage itself fails"), or a run made elsewhere."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from ..digests import changed_files, files_unchanged, tampering_note
from ..errors import UsageError
from ..folders import read_run
from .history import DbOption, opened
from .output import JsonOption, emit, handles_errors, next_step, quote, say


@handles_errors("load")
def load(
    run: Annotated[Path, typer.Argument(help="A run folder (runs/<run>).", show_default=False)],
    db: DbOption = None,
    json_output: JsonOption = False,
) -> None:
    """Write a run folder into the results store (default: the run folder's parent's soundstage.db): its run,
    trials and check results, as the run would have. A trial whose files changed since it was graded is
    written as invalid, saying which."""
    found = read_run(run)
    loaded, changed = [], {}
    for trial in found["results"]:
        files = changed_files(Path(trial["folder"]), trial["digests"]) if trial["digests"] else None
        if files:  # its lines cannot be trusted: not its grade but the reason
            changed[f"{trial['scene']} #{trial['trial']}"] = files
            check = files_unchanged(files).model_dump(mode="json")
            trial = {**trial, "outcome": "invalid", "infrastructure": tampering_note(files), "checks": [check]}
        loaded.append(trial)
    store = opened(db, run.parent)
    try:
        held = store.run(found["run_id"])
        if held is not None and Path(held["folder"]).resolve() != run.resolve():
            raise UsageError(
                f"the results store {store.shown} holds a run {found['run_id']} of another folder, {held['folder']}"
            )
        store.start_run({**found, "folder": str(run)}, _time(found["started_at"]) or datetime.now(UTC))
        for trial in loaded:
            store.write_trial(found["run_id"], trial, trial["checks"])
        store.finish_run(found["run_id"], found["exit_code"], _time(found["finished_at"]))
    finally:
        store.close()
    document: dict[str, Any] = {
        "run_id": found["run_id"],
        "store": store.shown,
        "trials": len(loaded),
        "changed": changed,
    }
    if json_output:
        emit(document)
        return
    say(f"run {found['run_id']}: {len(loaded)} trial(s) written to {store.shown}")
    for trial, files in changed.items():
        say(f"{trial}: {tampering_note(files)}; written as invalid")
    next_step(f"soundstage show {quote(found['run_id'])}" + (" --db ..." if db else ""))


def _time(stamp: str | None) -> datetime | None:
    return datetime.fromisoformat(stamp) if stamp else None
