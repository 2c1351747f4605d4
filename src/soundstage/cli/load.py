"""`soundstage load RUN`: a run folder written into the results store, as the run would have written it: for a
run whose store failed while it ran (docs/cli.md, "When soundstage itself fails"), or a run made elsewhere."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import UsageError
from ..results import RunWriter, read_run
from ..results.digests import changed_files
from ..results.trust import files_unchanged, tampering_note
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
    for trial in found.results:
        files = changed_files(Path(trial.folder), trial.digests) if trial.digests else None
        if files:  # its lines cannot be trusted: not its grade but the reason
            changed[f"{trial.scene} #{trial.trial}"] = files
            update = {"outcome": "invalid", "score": None, "infrastructure": tampering_note(files)}
            trial = trial.model_copy(update={**update, "checks": [files_unchanged(files)]})
        loaded.append(trial)
    store = opened(db, run.parent)
    try:
        held = store.run(found.run_id)
        if held is not None and Path(held.folder).resolve() != run.resolve():
            raise UsageError(
                f"the results store {store.shown} holds a run {found.run_id} of another folder, {held.folder}"
            )
        # As the run would have written it: its start (now, for a run that did not say), each trial, its end.
        writer = RunWriter(store)
        writer.start(found.model_copy(update={"started_at": found.started_at or datetime.now(UTC)}))
        for trial in loaded:
            writer.trial(found.run_id, trial)
        writer.finish(found)
    finally:
        store.close()
    document: dict[str, Any] = {
        "run_id": found.run_id,
        "store": store.shown,
        "trials": len(loaded),
        "changed": changed,
    }
    if json_output:
        emit(document)
        return
    say(f"run {found.run_id}: {len(loaded)} trial(s) written to {store.shown}")
    for trial_name, files in changed.items():
        say(f"{trial_name}: {tampering_note(files)}; written as invalid")
    next_step(f"soundstage show {quote(found.run_id)}" + (" --db ..." if db else ""))
