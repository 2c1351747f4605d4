"""The incidents part of the `pagerduty:` section: `incidents[]` (each with its `alerts[]` and `notes[]`)
and `change_events[]`.

Values that name other records are refs (`$orders_svc`, `$maya_pd`) or plain `P…` ids; they are resolved
when the image is built, so these models only check shapes. Times are durations before the clock start
(`ago`), so a file never goes stale:

```yaml
pagerduty:
  incidents:
    - ref: latency_incident
      title: Orders p99 latency above 800ms
      service: $orders_svc
      status: acknowledged          # triggered (default), acknowledged or resolved
      urgency: high
      priority: P1                  # a priority's name or ref
      assignees: [$maya_pd]         # default: the service's escalation policy, level 1, at the time
      details: p99 latency has been above 800ms for 10 minutes.
      ago: 25m
      acknowledged_ago: 20m
      alerts: [{summary: "p99 latency 2.4s", severity: critical, source: datadog, ago: 25m}]
      notes: [{content: Looking at the last deploy., user: $maya_pd, ago: 18m}]
  change_events:
    - {summary: "Deploy orders 8f3c2e1", service: $orders_svc, source: github, ago: 40m}
```
"""

from __future__ import annotations

from typing import Any, Literal

from ...spec.fields import Duration, Spec


class Alert(Spec):
    ref: str | None = None
    summary: str
    severity: Literal["critical", "error", "warning", "info"] = "critical"
    source: str | None = None  # the monitoring tool or host; default: the service's name
    details: dict[str, Any] = {}  # the alert's `body.details`
    alert_key: str | None = None  # default: the incident's key
    ago: Duration | None = None  # default: when the incident was triggered


class Note(Spec):
    ref: str | None = None
    content: str
    user: str  # a user ref or id
    ago: Duration | None = None  # default: one minute after the last thing that happened to the incident


class Incident(Spec):
    ref: str | None = None
    title: str
    service: str  # a service ref or id
    status: Literal["triggered", "acknowledged", "resolved"] = "triggered"
    urgency: Literal["high", "low"] = "high"
    priority: str | None = None  # a priority's ref, id or name
    assignees: list[str] | None = None  # user refs or ids; default: the escalation policy's on-call at `ago`
    escalation_level: int = 1
    details: str | None = None  # the incident's `body.details`
    incident_key: str | None = None  # default: a key made from the incident's id
    resolution: str | None = None  # a resolved incident's resolution note
    ago: Duration = "10m"  # how long before the clock start it was triggered
    acknowledged_ago: Duration | None = None  # default: halfway between `ago` and the start
    resolved_ago: Duration | None = None  # default: halfway between the acknowledgement (or `ago`) and the start
    alerts: list[Alert] | None = None  # default: one alert with the incident's title
    notes: list[Note] = []


class ChangeEvent(Spec):
    ref: str | None = None
    summary: str
    service: str  # a service ref or id
    source: str | None = None
    links: list[dict[str, str]] = []  # `{href, text}`
    custom_details: dict[str, Any] = {}
    ago: Duration = "1h"


class IncidentsSection(Spec):
    incidents: list[Incident] = []
    change_events: list[ChangeEvent] = []
