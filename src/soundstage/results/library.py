"""A library of runs: where runs are read back from, each in the models of this package. The results store
(`store.Store`) is one, a folder of runs (`folders.FolderRuns`) another; the server shows its own runs and
those of the libraries it is handed (server/library.py)."""

from __future__ import annotations

from typing import Protocol

from .run import ListedRun, Run


class RunLibrary(Protocol):
    def runs(self) -> list[ListedRun]:
        """Every run, without its trials."""
        ...

    def run(self, run_id: str) -> Run | None:
        """A run with its trials, under its own grading; None when the library has no run of that id."""
        ...
