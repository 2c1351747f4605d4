"""Log entries (`pagerduty.log_entries`, `Q…` ids, like alerts): what every change to an incident writes,
as PagerDuty logs it. An entry has `type` (`trigger_log_entry`, `assign_log_entry`...), `summary` ("Assigned
to Maya Chen."), `created_at` (epoch µs), `incident`, `service`, `agent` (who acted: `{"type":
"user_reference" | "service_reference", "id"}`), `channel` (`{"type": "api" | "website" | "note" |
"timeout"}`), and by type `assignees`, `note`, `event_details`, `acknowledgement_timeout`,
`changed_actions`, `escalation_level`.

`IncidentLog` is what the incident state classes (`incidents.Incidents`, `incident_parts.IncidentParts`)
share: the collections they work through (a live world, or an image being built), the world's ids, who is
on call, and the writing of the log entries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

from ...world import Collection, Record, World
from .oncall import escalation_targets
from .store import LOG_ENTRIES, SERVICES, USERS

Agent = dict[str, str]

# The log entry types `is_overview=true` keeps: the changes of state, not the notifications and notes.
OVERVIEW = frozenset(
    {
        "trigger_log_entry",
        "acknowledge_log_entry",
        "unacknowledge_log_entry",
        "resolve_log_entry",
        "escalate_log_entry",
        "assign_log_entry",
        "snooze_log_entry",
        "urgency_change_log_entry",
    }
)


def user_agent(user_id: str) -> Agent:
    return {"type": "user_reference", "id": user_id}


def service_agent(service_id: str) -> Agent:
    return {"type": "service_reference", "id": service_id}


class IncidentLog:
    """Reads and writes the incident collections through a collection getter (a live world or an image),
    with `on_call(policy, level, at)` answering who is on call at a level of an escalation policy."""

    def __init__(
        self, collection: Callable[[str], Collection], ids: Any, on_call: Callable[[str, int, int], list[str]]
    ) -> None:
        self.col = collection
        self.ids = ids
        self.on_call = on_call

    @classmethod
    def of(cls, world: World) -> Self:
        return cls(world.__getitem__, world.ids, lambda policy, level, at: escalation_targets(world, policy, level, at))

    def log(self, incident_id: str) -> list[Record]:
        return self.col(LOG_ENTRIES).by("incident", incident_id)

    def _name(self, user_id: str) -> str:
        user = self.col(USERS).get(user_id)
        return user["name"] if user else user_id

    def _names(self, user_ids: list[str]) -> str:
        return ", ".join(self._name(u) for u in user_ids)

    def _agent_name(self, agent: Agent) -> str:
        if agent["type"] == "service_reference":
            service = self.col(SERVICES).get(agent["id"])
            return service["name"] if service else agent["id"]
        return self._name(agent["id"])

    def add_log(
        self, incident: Record, kind: str, at: int, agent: Agent, channel: dict[str, Any], summary: str, **extra: Any
    ) -> Record:
        entry_id = self.ids.pagerduty("Q", 14)
        return self.col(LOG_ENTRIES).add(
            entry_id,
            {
                "id": entry_id,
                "type": kind,
                "summary": summary,
                "created_at": at,
                "incident": incident["id"],
                "service": incident["service"],
                "agent": agent,
                "channel": channel,
                **extra,
            },
        )
