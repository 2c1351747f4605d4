"""The state contract of PagerDuty: the names of its collections in a world (all by `P…` id), the shape of
their records, and the reading of records that other parts of the engine share (the checks read saved
records with it; the handlers read live ones). Records keep PagerDuty's field names; times are integer
epoch µs; references are plain ids.

Directory: `pagerduty.users`, `pagerduty.teams`, `pagerduty.services`, `pagerduty.escalation_policies`,
`pagerduty.schedules`, `pagerduty.priorities`, `pagerduty.maintenance_windows`:
- user: `id`, `name`, `email`, `role`, `time_zone`, `job_title`, `description`, `color`, `teams` (ids),
  `contact_methods` (`{id, type, label, address}`), `notification_rules` (`{id, start_delay_in_minutes,
  contact_method (id), urgency}`), `created_at`;
- team: `id`, `name`, `description`;
- service: `id`, `name`, `description`, `escalation_policy` (id), `status`, `acknowledgement_timeout`,
  `auto_resolve_timeout` (seconds or None), `teams`, `incident_urgency_rule`, `support_hours` (`{type,
  time_zone, days_of_week, start_time, end_time}` or None), `alert_creation`,
  `integrations` (its Events API v2 integration, `{id, name, integration_key}`), `created_at`,
  `last_incident_timestamp` (None until an incident);
- escalation policy: `id`, `name`, `description`, `num_loops`, `on_call_handoff_notifications`, `teams`,
  `escalation_rules` (`{id, escalation_delay_in_minutes, targets: [{id, type: user|schedule}]}`);
- schedule: `id`, `name`, `time_zone`, `description`, `teams`, `schedule_layers` (`{id, name, start, end,
  rotation_virtual_start, rotation_turn_length_seconds, users, restrictions}`, later layers win),
  `overrides` (`{id, start, end, user}`, later ones win); see `oncall`;
- priority: `id`, `name`, `description`, `color`, `order` (1 = most urgent);
- maintenance window: see `maintenance`. Incidents:
`pagerduty.incidents` and `pagerduty.alerts` (see `incidents`), `pagerduty.notes` and
`pagerduty.change_events` (see `incident_parts`), `pagerduty.log_entries` (`Q…` ids, like alerts; see
`log_entries`). docs/services/pagerduty.md lists every field.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...world import Record
from ..base import Address, State, names_by_field

USERS = "pagerduty.users"
TEAMS = "pagerduty.teams"
SERVICES = "pagerduty.services"
ESCALATION_POLICIES = "pagerduty.escalation_policies"
SCHEDULES = "pagerduty.schedules"
PRIORITIES = "pagerduty.priorities"
MAINTENANCE_WINDOWS = "pagerduty.maintenance_windows"
INCIDENTS = "pagerduty.incidents"
ALERTS = "pagerduty.alerts"
NOTES = "pagerduty.notes"
LOG_ENTRIES = "pagerduty.log_entries"
CHANGE_EVENTS = "pagerduty.change_events"

# The field naming each kind of record a person knows by name.
NAMED = {
    USERS: "name",
    TEAMS: "name",
    SERVICES: "name",
    ESCALATION_POLICIES: "name",
    SCHEDULES: "name",
    PRIORITIES: "name",
    INCIDENTS: "title",
}


def record_names(state: State) -> dict[str, str]:
    """The directory's records and the incidents by their `P…` id, named."""
    return names_by_field(state, NAMED)


def service_with_key(services: Iterable[Record], key: str) -> Record | None:
    """The service whose Events API integration has routing key `key`."""
    return next((s for s in services if any(i["integration_key"] == key for i in s["integrations"])), None)


def assignee_ids(incident: Record) -> list[str]:
    """The ids of the users an incident is assigned to now (none once it is resolved)."""
    return [str(a.get("assignee")) for a in incident.get("assignments") or []]


def addresses(collections: State) -> list[Address]:
    """The account's users by email (`Service.addresses`), with their names and time zones."""
    return [
        Address(user["email"], user["name"], user.get("time_zone"), (user["id"],))
        for user in collections.get(USERS, ())
    ]
