"""Services: `GET /services`, `GET /services/{id}` and its Events API integration,
`GET /services/{id}/integrations/{integration_id}` (where the routing key is)."""

from __future__ import annotations

from typing import Any

from .calls import Call, by_name, by_name_descending, listed, ops, paginate, text, zone
from .errors import not_found
from .store import SERVICES
from .views_directory import integration_view, service_view


@ops("GET /services")
def services_list(call: Call) -> dict[str, Any]:
    include, time_zone = listed(call, "include"), zone(call)
    descending = by_name_descending(call)
    services = by_name(call.world[SERVICES], text(call, "query"), "name")
    name = text(call, "name")
    if name:
        services = [s for s in services if s["name"] == name]
    teams = set(listed(call, "team_ids"))
    if teams:
        services = [s for s in services if teams.intersection(s["teams"])]
    if descending:
        services.reverse()
    return paginate(call, "services", services, lambda s: service_view(call, s, include, time_zone))


@ops("GET /services/{id}")
def services_get(call: Call) -> dict[str, Any]:
    service = call.world[SERVICES].get(call.params["id"])
    if service is None:
        raise not_found()
    return {"service": service_view(call, service, listed(call, "include"), zone(call))}


@ops("GET /services/{id}/integrations/{integration_id}")
def services_integration(call: Call) -> dict[str, Any]:
    service = call.world[SERVICES].get(call.params["id"])
    if service is None:
        raise not_found()
    found = [i for i in service["integrations"] if i["id"] == call.params["integration_id"]]
    if not found:
        raise not_found()
    return {"integration": integration_view(call, service, found[0], zone(call))}
