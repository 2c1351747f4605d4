"""Which runs a list shows (docs/http.md, "Runs"; docs/viewer.md): those of a scene, of an agent, started
within a span of days."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date

from .run import Run


@dataclass(frozen=True)
class RunFilter:
    """Runs that tried the scene named `scene`, whose agent command is `agent`, and that started on a day
    (UTC) from `since` to `until`, both included; a criterion left None selects every run. A run that does
    not say when it started is not within any span of days."""

    scene: str | None = None
    agent: str | None = None
    since: date | None = None
    until: date | None = None

    def matches(self, run: Run, scenes: Sequence[str]) -> bool:
        """Whether `run`, whose scenes are named `scenes`, is selected."""
        if self.scene is not None and self.scene not in scenes:
            return False
        if self.agent is not None and run.agent != self.agent:
            return False
        if self.since is None and self.until is None:
            return True
        if run.started_at is None:
            return False
        day = run.started_at.astimezone(UTC).date()
        return (self.since is None or self.since <= day) and (self.until is None or day <= self.until)
