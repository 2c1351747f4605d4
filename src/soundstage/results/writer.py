"""Writing a run as it goes (docs/cli.md, "Run folders", "When soundstage itself fails"): the results store is
written as each part of the run happens (its start, each trial as it ends, its end with the figures), and the
run folder's `run.json` once it has ended. `soundstage run` writes runs this way and `soundstage load` writes
a run folder again; each trial folder's own files are written by the trial (files.py), wherever it runs."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from ..errors import InfrastructureError
from .files import RUN_FILE, run_json
from .run import Run
from .trial import Trial


class ResultsSink(Protocol):
    """Where runs are written: the results store (`store.Store`). Each raises InfrastructureError when the
    store cannot be written."""

    def start_run(self, run: Run) -> None:
        """A run with no trials yet; a run already stored under its id loses its rows."""
        ...

    def write_trial(self, run_id: str, trial: Trial) -> None:
        """A trial with its check results, replacing what was stored of it."""
        ...

    def finish_run(self, run: Run) -> None:
        """The run's end (its exit code and when; both None for a run that was stopped) and its figures."""
        ...


class RunWriter:
    """A run written to the results store (`store`; None: there is none) part by part, and to its `run.json`.

    A write to the store that fails is tried again after each of `pauses` (seconds). Once one has failed for
    good, `failure` says why and nothing more is written to the store: `on_failure` is told and the run goes on,
    its folders holding what `soundstage load` needs to write it later; without `on_failure`, the
    InfrastructureError is raised."""

    def __init__(
        self,
        store: ResultsSink | None,
        pauses: Sequence[float] = (),
        on_failure: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.pauses = pauses
        self.on_failure = on_failure
        self.failure: str | None = None

    def start(self, run: Run) -> None:
        if self.store is not None:
            self._write(self.store.start_run, run)

    def trial(self, run_id: str, trial: Trial) -> None:
        if self.store is not None:
            self._write(self.store.write_trial, run_id, trial)

    def finish(self, run: Run) -> None:
        if self.store is not None:
            self._write(self.store.finish_run, run)

    @staticmethod
    def save(run: Run) -> str | None:
        """Writes the run's `run.json`; answers why it could not be, in one line (None when it was)."""
        path = Path(run.folder) / RUN_FILE
        try:
            path.write_bytes(run_json(run))
        except OSError as exc:
            return f"{path} could not be written: {exc.strerror or exc}"
        return None

    def _write(self, write: Callable[..., None], *args: object) -> None:
        if self.failure is not None:
            return
        for pause in (*self.pauses, None):
            try:
                write(*args)
                return
            except InfrastructureError as exc:
                if pause is None:
                    if self.on_failure is None:
                        raise
                    self.failure = str(exc)
                    self.on_failure(self.failure)
                    return
                time.sleep(pause)
