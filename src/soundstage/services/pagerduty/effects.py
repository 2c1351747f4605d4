"""What faults do to PagerDuty: `pagerduty.incident` pages a service.

    - pagerduty.incident: {service: $orders_svc, title: "Orders p99 latency above 800ms", urgency: high}

When the fault starts, an incident is triggered on the service (assigned through its escalation policy by
the service itself) with one alert; while that incident is open, the fault starting again adds an alert to
it (the same dedup key) instead of paging anew. Recovery leaves the incident as it is: resolving it is the
agent's job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...spec.build import BuildContext
from ...spec.fields import Spec
from ...world import World
from ..effects import Effect, fault_effect
from .incidents import Incidents, default_urgency
from .log_entries import service_agent
from .store import SERVICES
from .timers import arm


class IncidentEffect(Spec):
    """An incident is triggered on `service` when the fault starts (the agent resolves it; recovery does not)."""

    service: str  # a ref or a PagerDuty service id
    title: str
    urgency: Literal["high", "low"] | None = None  # default: the service's urgency rule
    details: str | None = None


class _Pages(dict[tuple[str, str], str]):
    """(fault id, service id) -> the dedup key of the incident the fault opened there (a world part)."""


@dataclass(frozen=True)
class Page(Effect):
    service: str  # pagerduty.services id
    title: str
    urgency: str | None  # None: the service's urgency rule
    details: str | None

    def start(self, world: World, fault: str) -> None:
        service = world[SERVICES].get(self.service)
        if service is None:  # the agent deleted the service
            return
        incidents = Incidents.of(world)
        pages = world.part(_Pages)
        at = world.now()
        key = pages.get((fault, self.service))
        incident = incidents.open_with_key(self.service, key) if key else None
        if incident is None:
            incident = incidents.trigger(
                service=service,
                title=self.title,
                at=at,
                agent=service_agent(self.service),
                urgency=self.urgency or default_urgency(service, at),
                details=self.details,
            )
            pages[(fault, self.service)] = incident["incident_key"]
            arm(world, incident)
        incidents.add_alert(incident, summary=self.title, at=at, source=service["name"])


@fault_effect("pagerduty.incident", IncidentEffect)
def page(effect: IncidentEffect, ctx: BuildContext) -> Effect:
    service = ctx.resolve_kind(effect.service, SERVICES, "service")
    if service not in ctx.collection(SERVICES):
        raise ctx.error(f"no PagerDuty service {effect.service}", "service")
    return Page(service, effect.title, effect.urgency, effect.details)
