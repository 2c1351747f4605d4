"""The PagerDuty collections of a world (the state layer knows nothing of HTTP), all by `P…` id.

Directory: `pagerduty.users`, `pagerduty.teams`, `pagerduty.services`, `pagerduty.escalation_policies`,
`pagerduty.schedules`, `pagerduty.priorities`, `pagerduty.maintenance_windows`. Incidents:
`pagerduty.incidents`, `pagerduty.alerts`, `pagerduty.notes`, `pagerduty.log_entries` (`Q…` ids, like
alerts), `pagerduty.change_events`.
"""

from __future__ import annotations

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
