"""Incident timers: an incident's `pending_actions` (escalate, unacknowledge; see `Incidents.plan`) run
through `world.schedule`, and check on waking that nothing has overtaken them (each is listed in the
incident's `pending_actions` until it fires or is cancelled).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...world import Record, World, shared_by_forks
from .incidents import Incidents
from .log_entries import service_agent
from .store import INCIDENTS


def arm(world: World, incident: Record) -> None:
    """Schedules the incident's pending actions (a timer that something overtakes does nothing)."""
    for action in incident["pending_actions"]:
        world.schedule(action["at"], _Timer(incident["id"], action))


def attach(world: World) -> None:
    """Arms the timers of the incidents a live world starts with."""
    for incident in world[INCIDENTS]:
        arm(world, incident)


@shared_by_forks
@dataclass(frozen=True)
class _Timer:
    """One pending action of an incident, due at its `at`. It holds a record's part, never changed in place: a
    forked world shares it."""

    incident_id: str
    action: dict[str, Any]

    def __call__(self, world: World) -> None:
        _fire(world, self.incident_id, self.action)


def _fire(world: World, incident_id: str, action: dict[str, Any]) -> None:
    incident = world[INCIDENTS].get(incident_id)
    if incident is None or action not in incident["pending_actions"]:
        return
    incidents = Incidents.of(world)
    at = world.now()
    if action["type"] == "escalate":
        agent = service_agent(incident["service"])
        incident = incidents.escalate(incident, incident["escalation_level"] + 1, agent, at, "timeout")
    else:
        reason = "snooze timeout" if incident["snoozed_until"] == action["at"] else "acknowledgement timeout"
        incident = incidents.unacknowledge(incident, at, reason)
    arm(world, incident)
