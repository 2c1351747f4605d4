"""A scripted on-call engineer for seeds/bad-deploy.yaml: no model, only the official PagerDuty, GitHub
(PyGithub) and Datadog clients, and the world's clock.

It acknowledges its page, merges the pull request that fixes the totals cache key (not the one that
turns the cache off), moves simulated time on a minute at a time until the latency monitor is OK, notes
the fix on the incident, resolves it and prints the pull request's number.
"""

import os
import sys

import httpx
from _clients import github_client, pagerduty_client
from datadog_api_client import ApiClient, Configuration
from datadog_api_client.v1.api.monitors_api import MonitorsApi

sys.stdin.read()
pd = pagerduty_client()
me = pd.rget("/users/me")
page = next(i for i in pd.iter_all("incidents", params={"statuses": ["triggered"], "user_ids": [me["id"]]}))
pd.rput(f"/incidents/{page['id']}", json={"incident": {"type": "incident_reference", "status": "acknowledged"}})

github = github_client()
repo = github.get_repo("acme/orders")
patches = {p.number: (p, "\n".join(f.patch or "" for f in p.get_files())) for p in repo.get_pulls(state="open")}
fix = next(p for p, patch in patches.values() if 'cache.get(order["id"])' in patch and "ENABLED = False" not in patch)
fix.merge(merge_method="merge", commit_title=f"Merge pull request #{fix.number}: {fix.title}")

with ApiClient(Configuration(host=os.environ["DATADOG_API_URL"])) as api:  # keys from DD_API_KEY, DD_APP_KEY
    monitors = MonitorsApi(api)
    latency = next(m for m in monitors.list_monitors(name="Orders p99 latency"))
    for _ in range(15):  # the monitor recovers some minutes after the fix is in production
        if str(monitors.get_monitor(latency.id).overall_state) == "OK":
            break
        clock = f"{os.environ['SOUNDSTAGE_URL']}/clock"
        httpx.post(
            clock, json={"advance": "1m"}, headers={"Authorization": f"Bearer {os.environ['SOUNDSTAGE_TOKEN']}"}
        ).raise_for_status()
    else:
        sys.exit("the latency monitor did not recover")

pd.rpost(
    f"/incidents/{page['id']}/notes",
    json={"note": {"content": f"Merged #{fix.number} ({fix.title}); the latency monitor is OK again."}},
)
pd.rput(f"/incidents/{page['id']}", json={"incident": {"type": "incident_reference", "status": "resolved"}})
print(fix.number)
