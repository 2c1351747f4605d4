"""An on-call engineer for seeds/rate-limited-page.yaml who trusts PagerDuty's Python client with the
429s: the client retries them after a short real pause, long before the `ratelimit-reset` seconds of
simulated time have passed. Everything gets done, but it fails `waited_out_the_rate_limit`."""

import sys

from _clients import pagerduty_client
from _colleagues import channel_id, connect
from _oncall import my_incident, set_status
from pagerduty import Error

sys.stdin.read()
pd = pagerduty_client()
pd.sleep_timer = 0.1  # the client's own pause before retrying a 429, in real seconds
page = my_incident(pd, "triggered")
set_status(pd, page, "acknowledged")
note = {"note": {"content": "Looking at the orders-web deploy from this morning."}}
try:
    pd.rpost(f"/incidents/{page['id']}/notes", json=note)
except Error:  # the 500: once more
    pd.rpost(f"/incidents/{page['id']}/notes", json=note)
slack = connect()
slack.chat_postMessage(channel=channel_id(slack, "incidents"), text=f"I'm on #{page['incident_number']}.")
print(page["incident_number"])
