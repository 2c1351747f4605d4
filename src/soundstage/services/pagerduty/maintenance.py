"""Maintenance windows (state): a service is in maintenance while one of its windows is on, and then
opens no incidents. Records: `id`, `sequence_number`, `start_time`/`end_time` (epoch µs),
`description`, `services` (ids), `created_by` (a user id, None for the world's own windows).

Accounts hold few windows, so a lookup walks them rather than keeping a per-service index.
"""

from __future__ import annotations

from ...world import Collection, Record, World
from .store import MAINTENANCE_WINDOWS


def in_maintenance(world: World, service_id: str, at: int) -> bool:
    """Whether a maintenance window covering `service_id` is on at `at` µs (start inclusive, end exclusive)."""
    return any(
        w["start_time"] <= at < w["end_time"] and service_id in w["services"] for w in world[MAINTENANCE_WINDOWS]
    )


def add_window(
    windows: Collection,
    record_id: str,
    start: int,
    end: int,
    services: list[str],
    description: str | None,
    created_by: str | None,
) -> Record:
    """Adds a window to `windows` (the world's, or the image's while it is built); the caller has checked
    its fields."""
    return windows.add(
        record_id,
        {
            "id": record_id,
            "sequence_number": len(windows) + 1,
            "start_time": start,
            "end_time": end,
            "description": description,
            "services": services,
            "created_by": created_by,
        },
    )
