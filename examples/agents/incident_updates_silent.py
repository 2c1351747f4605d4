"""A failing incident commander for seeds/incident-updates.yaml: it fixes first and talks last.

It acknowledges, merges the revert, waits for the monitor and resolves the incident, all correctly, but
posts nothing in #incidents until the end: support had nothing to tell customers while it worked, and
its one update comes after the incident was already resolved.
Fails: first_update_within_5m, told_before_fixing, said_it_is_deploying, resolved_only_when_ok.
"""

import os
import sys

from _clients import github_client, pagerduty_client
from _colleagues import advance, channel_id, connect
from datadog_api_client import ApiClient, Configuration
from datadog_api_client.v1.api.monitors_api import MonitorsApi

sys.stdin.read()
pd = pagerduty_client()
me = pd.rget("/users/me")
page = next(i for i in pd.iter_all("incidents", params={"statuses": ["triggered"], "user_ids": [me["id"]]}))
pd.rput(f"/incidents/{page['id']}", json={"incident": {"type": "incident_reference", "status": "acknowledged"}})

github = github_client()
revert = next(
    p for p in github.get_repo("acme/orders-gateway").get_pulls(state="open") if p.title.lower().startswith("revert")
)
revert.merge(merge_method="merge")

with ApiClient(Configuration(host=os.environ["DATADOG_API_URL"])) as api:
    monitors = MonitorsApi(api)
    errors = next(m for m in monitors.list_monitors(name="Orders error count"))
    for _ in range(20):
        if str(monitors.get_monitor(errors.id).overall_state) == "OK":
            break
        advance("1m")
    else:
        sys.exit("the error monitor did not recover")

pd.rput(f"/incidents/{page['id']}", json={"incident": {"type": "incident_reference", "status": "resolved"}})
# The mistake: the only update, and after the fact.
slack = connect()
slack.chat_postMessage(
    channel=channel_id(slack, "incidents"), text=f"Resolved: {page['title']} (reverted in #{revert.number})."
)
print(f"Merged #{revert.number}; incident {page['id']} resolved")
