"""The impersonated services, registered in one place: name -> `Service` (see `services.base`).

soundstage's own six are registered here. A service of another distribution is registered through the
entry point group `soundstage.services`, each entry point naming its package's `Service` (`toy =
"toy_service:service"`), loaded after them in the order of the entry points' names, when this package is
first imported: before anything reads the registry (world and scene files are composed from it), so an
installed service is in every soundstage process (docs/architecture.md, "Add a service").
"""

from __future__ import annotations

from importlib.metadata import entry_points

from .base import Service
from .calendar import service as calendar
from .datadog import service as datadog
from .github import service as github
from .gmail import service as gmail
from .pagerduty import service as pagerduty
from .slack import service as slack

GROUP = "soundstage.services"
SERVICES: dict[str, Service] = {}


def register(service: Service) -> Service:
    """Adds `service` to the registry, under its name (which no other service may have)."""
    if service.name in SERVICES:
        raise ValueError(f"a service named {service.name!r} is registered already")
    SERVICES[service.name] = service
    return service


for _service in (slack, github, datadog, pagerduty, calendar, gmail):
    register(_service)
for _entry in sorted(entry_points(group=GROUP), key=lambda entry: entry.name):
    register(_entry.load())

__all__ = ["GROUP", "SERVICES", "Service", "register"]
