"""A careless on-call agent for seeds/latency-incident.yaml: it resolves its page at once, without
acknowledging it, looking at Datadog or writing down why."""

import os
import sys

import pagerduty

sys.stdin.read()
pd = pagerduty.RestApiV2Client(
    os.environ["PAGERDUTY_TOKEN"], default_from=os.environ["PAGERDUTY_FROM"], base_url=os.environ["PAGERDUTY_API_URL"]
)
for incident in pd.iter_all("incidents", params={"statuses": ["triggered"]}):
    pd.rput(f"/incidents/{incident['id']}", json={"incident": {"type": "incident_reference", "status": "resolved"}})
    print(f"resolved {incident['id']}: {incident['title']}")
