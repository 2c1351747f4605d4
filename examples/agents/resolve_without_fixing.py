"""A careless on-call agent for seeds/bad-deploy.yaml: it acknowledges the page and resolves it at once,
without fixing anything, so the fault stays and the monitor keeps alerting."""

import sys

from _clients import pagerduty_client

sys.stdin.read()
pd = pagerduty_client()
for page in pd.iter_all("incidents", params={"statuses": ["triggered"]}):
    path = f"/incidents/{page['id']}"
    pd.rput(path, json={"incident": {"type": "incident_reference", "status": "acknowledged"}})
    pd.rput(path, json={"incident": {"type": "incident_reference", "status": "resolved"}})
    print(f"resolved {page['id']}: {page['title']}")
