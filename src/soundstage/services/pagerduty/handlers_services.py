"""Services: `GET /services` and `GET /services/{id}`."""

from __future__ import annotations

from typing import Any

from .errors import invalid, not_found
from .router import Call, by_name, listed, ops, paginate, text, zone
from .store import SERVICES
from .views_directory import service_view

SORTS = ("name", "name:asc", "name:desc")


@ops("GET /services")
def services_list(call: Call) -> dict[str, Any]:
    include, time_zone = listed(call, "include"), zone(call)
    sort = text(call, "sort_by") or "name"
    if sort not in SORTS:
        raise invalid(f"sort_by must be one of {', '.join(SORTS)}.")
    services = by_name(call.world[SERVICES], text(call, "query"), "name")
    name = text(call, "name")
    if name:
        services = [s for s in services if s["name"] == name]
    teams = set(listed(call, "team_ids"))
    if teams:
        services = [s for s in services if teams.intersection(s["teams"])]
    if sort == "name:desc":
        services.reverse()
    return paginate(call, "services", services, lambda s: service_view(call, s, include, time_zone))


@ops("GET /services/{id}")
def services_get(call: Call) -> dict[str, Any]:
    service = call.world[SERVICES].get(call.params["id"])
    if service is None:
        raise not_found()
    return {"service": service_view(call, service, listed(call, "include"), zone(call))}
