"""A scripted incident commander for seeds/incident-updates.yaml: no model, only the official PagerDuty,
GitHub (PyGithub), Datadog and Slack clients, and the world's clock.

It acknowledges the page, posts "investigating" in #incidents, merges the revert of the last gateway
change, posts "deploying", moves simulated time on until the error monitor is OK, then posts "resolved"
and resolves the incident.
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

slack = connect()
incidents = channel_id(slack, "incidents")
slack.chat_postMessage(
    channel=incidents, text=f":rotating_light: {page['title']}. I'm on it and investigating the last deploys."
)

github = github_client()
repo = github.get_repo("acme/orders-gateway")
last = repo.get_commits()[0]
revert = next(p for p in repo.get_pulls(state="open") if p.title.lower().startswith("revert"))
revert.merge(merge_method="merge")
slack.chat_postMessage(
    channel=incidents,
    text=f"Cause: {last.commit.message.splitlines()[0]!r} set the body limit to 1 KB. Merged #{revert.number} "
    "to revert it; the fix is deploying, errors should drop in a few minutes.",
)

with ApiClient(Configuration(host=os.environ["DATADOG_API_URL"])) as api:  # keys from DD_API_KEY, DD_APP_KEY
    monitors = MonitorsApi(api)
    errors = next(m for m in monitors.list_monitors(name="Orders error count"))
    for _ in range(20):
        if str(monitors.get_monitor(errors.id).overall_state) == "OK":
            break
        advance("1m")
    else:
        sys.exit("the error monitor did not recover")

slack.chat_postMessage(
    channel=incidents, text=f":white_check_mark: Resolved: the error monitor is OK again after #{revert.number}."
)
pd.rput(f"/incidents/{page['id']}", json={"incident": {"type": "incident_reference", "status": "resolved"}})
print(f"Merged #{revert.number}; incident {page['id']} resolved")
