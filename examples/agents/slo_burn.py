"""A scripted on-call engineer for seeds/slo-burn.yaml: no model, only the official PagerDuty, GitHub
(PyGithub), Datadog and Slack clients, and the world's clock.

It acknowledges its page, says "investigating" in a PagerDuty status update and in #incidents, merges
the pull request that turns the new_pricing flag off (not the one raising the alert threshold), waits
for the latency monitor to be OK, says "resolved" on both channels and resolves the incident.
"""

import sys

from _clients import github_client, pagerduty_client
from _colleagues import channel_id, connect
from _oncall import my_incident, set_status, wait_for_monitor


def tell(text: str) -> None:
    """The same update on both channels: a PagerDuty status update and a line in #incidents."""
    pd.rpost(f"/incidents/{page['id']}/status_updates", json={"message": text})
    slack.chat_postMessage(channel=incidents, text=text)


sys.stdin.read()
pd = pagerduty_client()
page = my_incident(pd, "triggered")
set_status(pd, page, "acknowledged")
slack = connect()
incidents = channel_id(slack, "incidents")
tell("Investigating: orders p99 latency is burning the latency SLO since new_pricing was turned on.")

repo = github_client().get_repo("acme/orders-flags")
pulls = repo.get_pulls(state="open")
fix = next(p for p in pulls if any("+new_pricing: false" in (f.patch or "") for f in p.get_files()))
fix.merge(merge_method="merge")
if not wait_for_monitor("Orders p99 latency"):
    sys.exit("the latency monitor did not recover")
tell(f"Resolved: #{fix.number} turned new_pricing off and p99 latency is back to normal.")
set_status(pd, page, "resolved")
print(fix.number)
