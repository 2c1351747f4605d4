"""Maintenance windows: `POST /maintenance_windows`. While a window is on, its services are in
maintenance (`maintenance.in_maintenance`) and open no incidents."""

from __future__ import annotations

from ..base import Reply
from .calls import Call, body_time, ops, requester, services_of
from .errors import invalid
from .maintenance import add_window
from .store import MAINTENANCE_WINDOWS
from .views_directory import window_view


@ops("POST /maintenance_windows")
def maintenance_windows_create(call: Call) -> Reply:
    """Opens a window; a start in the past becomes now, and the end must lie ahead and after the start."""
    user = requester(call)
    fields = call.fields.get("maintenance_window")
    if not isinstance(fields, dict):
        raise invalid("maintenance_window is required.")
    kind = fields.get("type", "maintenance_window")
    if kind not in ("maintenance_window", "maintenance_window_reference"):
        raise invalid("type must be maintenance_window.")
    now = call.now()
    start, end = max(body_time(fields, "start_time"), now), body_time(fields, "end_time")
    if end <= now:
        raise invalid("End time must be in the future.")
    if end <= start:
        raise invalid("End time must be after start time.")
    description = fields.get("description")
    if description is not None and not isinstance(description, str):
        raise invalid("description must be a string.")
    services = services_of(call, fields)
    window = add_window(
        call.world[MAINTENANCE_WINDOWS],
        call.world.ids.pagerduty(),
        start,
        end,
        services,
        description,
        user["id"],
    )
    return Reply(201, {"maintenance_window": window_view(call, window)})
