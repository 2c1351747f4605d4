"""Dashboards: `GET /api/v1/dashboard/{dashboard_id}`."""

from __future__ import annotations

from typing import Any

from . import views_records
from .calls import Call, ops
from .errors import not_found
from .store import DASHBOARDS


@ops("GET /api/v1/dashboard/{dashboard_id}")
def get_dashboard(call: Call) -> dict[str, Any]:
    dashboard_id = call.params["dashboard_id"]
    record = call.world[DASHBOARDS].get(dashboard_id)
    if record is None:
        raise not_found(f"Dashboard with ID {dashboard_id} not found")
    return views_records.dashboard(call.world, record)
