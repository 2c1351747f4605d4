"""What metric queries computed from a world's series, kept until the series next change.

Agents and dashboards ask the same queries again and again, and a monitor is evaluated every simulated
minute: the series a query's scope matches, and a `GET /api/v1/query` answer's points, are remembered by
what they were asked with. The memo is a derived index of `datadog.series` (`Collection.derived`), so every
write to a series (a fault's override, a submitted point, a new series, a call's writes undone) forgets all
of it at once: what is remembered was computed from the series as they are now.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Points of remembered answers a world keeps at most (a day of 5-minute points is 288 per series): all
# forgotten at once past it, as an answer bigger than it is never kept.
ANSWER_POINTS = 20_000
# Scopes whose matching series a world keeps at most, all forgotten at once past it.
SCOPES = 256


class Computed:
    """The memo of one world's series; the series themselves are never kept here beyond the next write."""

    __slots__ = ("answers", "points", "scopes")

    def __init__(self) -> None:
        self.scopes: dict[Any, Any] = {}
        self.answers: dict[Any, Any] = {}
        self.points = 0

    @classmethod
    def build(cls, records: Mapping[str, Any]) -> Computed:
        return cls()

    def copy(self) -> Computed:
        return Computed()

    def update(self, record_id: str, old: Any, new: Any) -> None:
        self.scopes.clear()
        self.answers.clear()
        self.points = 0

    def scope(self, key: Any, found: Any) -> None:
        if len(self.scopes) >= SCOPES:
            self.scopes.clear()
        self.scopes[key] = found

    def answer(self, key: Any, found: Any, points: int) -> None:
        if points > ANSWER_POINTS:
            return
        if self.points + points > ANSWER_POINTS:
            self.answers.clear()
            self.points = 0
        self.answers[key] = found
        self.points += points
