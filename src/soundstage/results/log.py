"""What a trial recorded besides its result (docs/http.md, "Runs"): its calls, every event of its log, what
changed in its world and its output, as the runs API and the viewer show a trial."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TrialLog:
    """A trial's calls (`trace`: its `call` events), every event, the diff of its world's state and its output;
    `notes` says what reading it left out (a last line cut short)."""

    trace: list[dict[str, Any]]
    events: list[dict[str, Any]]
    diff: dict[str, Any]
    output: str | None  # None while the trial runs
    notes: list[str] = field(default_factory=list)
