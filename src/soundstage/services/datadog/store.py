"""The state contract of Datadog: the names of its collections in a world, and the reading of records
that other parts of the engine share (the checks read saved records with it; the state modules, views and
handlers read live ones).

Monitoring: `datadog.monitors` (by id), `datadog.series` (metric series: a base level, seeded noise and
overrides), `datadog.metrics` (metric metadata edited through the API, by metric name), `datadog.hosts` (by
host name), `datadog.downtimes` (by UUID). Records: `datadog.events`, `datadog.logs`, `datadog.slos`,
`datadog.dashboards`, `datadog.users` (by UUID), `datadog.incidents` (by UUID).
The fields of each are described where the records are made (`monitors`, `series`, `hosts`, `downtimes`,
`events`, `logs`, `users`, `incidents`) and in docs/services/datadog.md.
"""

from __future__ import annotations

from ...world import Record
from ..base import Address, State, names_by_field

MONITORS = "datadog.monitors"
SERIES = "datadog.series"
HOSTS = "datadog.hosts"
DOWNTIMES = "datadog.downtimes"
EVENTS = "datadog.events"
LOGS = "datadog.logs"
SLOS = "datadog.slos"
DASHBOARDS = "datadog.dashboards"
USERS = "datadog.users"
INCIDENTS = "datadog.incidents"
METRICS = "datadog.metrics"

# The field naming the records that requests name by id (a host is named by its name already).
NAMED = {MONITORS: "name", DASHBOARDS: "title", SLOS: "name", USERS: "name", INCIDENTS: "title"}


def record_names(state: State) -> dict[str, str]:
    """Monitors, dashboards, SLOs, users and incidents by id, named."""
    return names_by_field(state, NAMED)


def downtime_status(downtime: Record, now: int) -> str:
    """`canceled`, or else `scheduled`, `active` or `ended` at `now` (epoch µs): a downtime's status is not
    stored, it follows from its `schedule` {start, end} and `canceled`."""
    if downtime["canceled"] is not None:
        return "canceled"
    if now < downtime["schedule"]["start"]:
        return "scheduled"
    end = downtime["schedule"]["end"]
    if end is not None and now >= end:
        return "ended"
    return "active"


def downtime_matches(downtime: Record, monitor: Record) -> bool:
    """Whether the downtime is for the monitor: by its id, or by tags (every `monitor_tags` tag on the monitor;
    `*` is every monitor, what a v1 downtime without a monitor targets)."""
    identifier = downtime["monitor_identifier"]
    if "monitor_id" in identifier:
        return identifier["monitor_id"] == monitor["id"]
    return set(identifier["monitor_tags"]) - {"*"} <= set(monitor["tags"])


def addresses(collections: State) -> list[Address]:
    """The organization's users by email (`Service.addresses`), with their names."""
    return [
        Address(user["email"], user.get("name") or user["email"], None, (user["id"],))
        for user in collections.get(USERS, ())
        if user.get("email")
    ]
