"""The incidents test scene: the directory of `conftest.SCENE` with priorities, three incidents and a
change event. The clock starts 2026-03-02 14:00 UTC, when Maya is on call in the primary schedule.

- #1 `ancient` on Orders API: 40 days old (before the rotation began: nobody was assigned), resolved.
- #2 `old` on Billing: triggered 3h before the start, resolved halfway (12:30) by Maya.
- #3 `latency` on Orders API (acknowledgement timeout 30m): triggered 13:35, acknowledged 13:40 by Maya
  (so it returns to triggered at 14:10), with one Datadog alert and a note at 13:42.
- #4 `fresh` on Billing, low urgency: triggered 13:55 and not acknowledged (it escalates at 14:25).
"""

from __future__ import annotations

from .conftest import SCENE

INCIDENTS = """
    priorities:
      - {ref: p1, name: P1, description: Critical}
      - {ref: p2, name: P2, description: High}
    incidents:
      - ref: latency
        title: Orders p99 latency above 800ms
        service: $orders_svc
        status: acknowledged
        priority: P1
        details: p99 latency has been above 800ms for 10 minutes.
        incident_key: orders-latency
        ago: 25m
        acknowledged_ago: 20m
        alerts:
          - {ref: latency_alert, summary: "p99 latency 2.4s", severity: critical, source: datadog, ago: 25m,
             details: {monitor: orders p99 latency}}
        notes:
          - {ref: first_note, content: Looking at the last deploy., user: $maya, ago: 18m}
      - {ref: old, title: Billing queue backed up, service: $billing_svc, status: resolved, ago: 3h,
         resolution: Drained the queue.}
      - {ref: ancient, title: Orders database failover, service: $orders_svc, status: resolved, ago: 40d}
      - {ref: fresh, title: Disk full on billing-db-1, service: $billing_svc, ago: 5m, urgency: low}
    change_events:
      - {ref: deploy, summary: Deploy orders 8f3c2e1, service: $orders_svc, source: github, ago: 40m,
         links: [{href: "https://github.com/acme/orders/commit/8f3c2e1", text: View commit}],
         custom_details: {sha: 8f3c2e1}}
      - {summary: Deploy billing 77aa01, service: $billing_svc, source: github, ago: 2h}
"""

INCIDENT_SCENE = SCENE + INCIDENTS

# The same world with the account in New York: PagerDuty shows the times of services, on-calls, notes,
# status updates and maintenance windows with New York's offset (-05:00 until 2026-03-08, -04:00 after).
ZONED_INCIDENT_SCENE = INCIDENT_SCENE + "    time_zone: America/New_York\n"
