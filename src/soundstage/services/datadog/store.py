"""The Datadog collections of a world (the state layer knows nothing of HTTP).

Monitoring: `datadog.monitors` (by id), `datadog.series` (metric series: a base level, seeded noise and
overrides), `datadog.hosts` (by host name), `datadog.downtimes` (by UUID). Records: `datadog.events`,
`datadog.logs`, `datadog.slos`, `datadog.dashboards`, `datadog.users` (by UUID), `datadog.incidents` (by UUID).
"""

from __future__ import annotations

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
