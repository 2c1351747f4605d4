"""Maintenance windows: `POST /maintenance_windows`. While a window is on, its services are in
maintenance (`maintenance.in_maintenance`) and open no incidents."""

from __future__ import annotations

from typing import Any

from ...clock import parse_time
from ..base import Reply
from .errors import invalid
from .maintenance import add_window
from .router import Call, ops, requester
from .store import MAINTENANCE_WINDOWS, SERVICES
from .views_directory import window_view


def _time(fields: dict[str, Any], name: str) -> int:
    value = fields.get(name)
    if not isinstance(value, str) or not value:
        raise invalid(f"{name} is required and must be an ISO-8601 date-time.")
    try:
        return parse_time(value)
    except ValueError:
        raise invalid(f"{name} is not a valid ISO-8601 date-time.") from None


def _services(fields: dict[str, Any], call: Call) -> list[str]:
    refs = fields.get("services")
    if not isinstance(refs, list) or not refs:
        raise invalid("Maintenance window must have at least one service.")
    ids: list[str] = []
    for ref in refs:
        if not isinstance(ref, dict) or not isinstance(ref.get("id"), str):
            raise invalid("Each service must be a service reference with an id.")
        if ref["id"] not in call.world[SERVICES]:
            raise invalid(f"Service {ref['id']} was not found.")
        if ref["id"] not in ids:
            ids.append(ref["id"])
    return ids


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
    start, end = max(_time(fields, "start_time"), now), _time(fields, "end_time")
    if end <= now:
        raise invalid("End time must be in the future.")
    if end <= start:
        raise invalid("End time must be after start time.")
    description = fields.get("description")
    if description is not None and not isinstance(description, str):
        raise invalid("description must be a string.")
    services = _services(fields, call)
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
