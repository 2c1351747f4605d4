"""An on-call engineer for seeds/slo-burn.yaml who fixes the incident correctly and keeps #incidents
informed, but never posts a PagerDuty status update, so stakeholders who follow the incident in
PagerDuty hear nothing. It fails `status_update_before_fixing` and `two_status_updates`."""

import sys

from _clients import github_client, pagerduty_client
from _colleagues import channel_id, connect
from _oncall import my_incident, set_status, wait_for_monitor

sys.stdin.read()
pd = pagerduty_client()
page = my_incident(pd, "triggered")
set_status(pd, page, "acknowledged")
slack = connect()
incidents = channel_id(slack, "incidents")
slack.chat_postMessage(channel=incidents, text="Investigating the orders latency page.")
fix = next(p for p in github_client().get_repo("acme/orders-flags").get_pulls(state="open") if "off" in p.title)
fix.merge(merge_method="merge")
wait_for_monitor("Orders p99 latency")
slack.chat_postMessage(channel=incidents, text=f"Resolved by #{fix.number}.")
set_status(pd, page, "resolved")
print(fix.number)
