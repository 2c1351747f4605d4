"""An on-call engineer for seeds/slo-burn.yaml who fixes the incident correctly and keeps #incidents
informed, but never posts a PagerDuty status update, so stakeholders who follow the incident in
PagerDuty hear nothing. It fails `status_update_before_fixing` and `two_status_updates`."""

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
slack = connect()
incidents = channel_id(slack, "incidents")
slack.chat_postMessage(channel=incidents, text="Investigating the orders latency page.")
repo = github_client().get_repo("acme/orders-flags")
fix = next(p for p in repo.get_pulls(state="open") if "off" in p.title)
fix.merge(merge_method="merge")
with ApiClient(Configuration(host=os.environ["DATADOG_API_URL"])) as api:
    monitors = MonitorsApi(api)
    latency = next(m for m in monitors.list_monitors(name="Orders p99 latency"))
    for _ in range(15):
        if str(monitors.get_monitor(latency.id).overall_state) == "OK":
            break
        advance("1m")
slack.chat_postMessage(channel=incidents, text=f"Resolved by #{fix.number}.")
pd.rput(f"/incidents/{page['id']}", json={"incident": {"type": "incident_reference", "status": "resolved"}})
print(fix.number)
