"""A careless on-call agent for seeds/latency-incident.yaml: it resolves its page at once, without
acknowledging it, looking at Datadog or writing down why."""

import sys

from _clients import pagerduty_client

sys.stdin.read()
pd = pagerduty_client()
for incident in pd.iter_all("incidents", params={"statuses": ["triggered"]}):
    pd.rput(f"/incidents/{incident['id']}", json={"incident": {"type": "incident_reference", "status": "resolved"}})
    print(f"resolved {incident['id']}: {incident['title']}")
