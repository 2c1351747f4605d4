"""What a trial recorded besides its result (docs/http.md, "Runs"): its calls, every event of its log, what
changed in its world, its output and stderr, and its records' names, as the runs API and the viewer show a
trial."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TrialLog:
    """A trial's calls (`trace`: its `call` events), every event, the diff of its world's state, its output, its
    agent's stderr (None where soundstage did not run the agent) and the names of its world's records by id
    (`results.names`); `notes` says what reading it left out (a last line cut short, the start of a long
    stderr)."""

    trace: list[dict[str, Any]]
    events: list[dict[str, Any]]
    diff: dict[str, Any]
    output: str | None  # None while the trial runs
    stderr: str | None = None
    names: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
