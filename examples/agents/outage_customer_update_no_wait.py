"""A failing agent for seeds/outage-customer-update.yaml: it does not wait for the responder.

It asks Maya, polls for three simulated minutes (she answers after ten), and then answers the customer
with a vague holding message of its own, without the time she would have given.
Fails: learned_the_update, answered_in_thread, asked_before_answering, answered_within_20m.
"""

import sys

from _clients import pagerduty_client
from _colleagues import ask, channel_id, connect, find_user, message_with

sys.stdin.read()
pd = pagerduty_client()
incident = next(
    i
    for i in pd.iter_all("incidents", params={"statuses": ["triggered", "acknowledged"]})
    if "creating orders" in i["title"].lower()
)
slack = connect()
shared = channel_id(slack, "ext-northwind")
question = message_with(slack, shared, "known")
answer = ask(
    slack, find_user(slack, name="maya"), "Hi Maya, what can we tell customers about the orders outage, and when?"
)
reply = answer or "Hi Nina, we are aware of the problem and working on it. We will update you as soon as we can."
slack.chat_postMessage(channel=shared, thread_ts=question["ts"], text=reply)
pd.rpost(f"/incidents/{incident['id']}/notes", json={"note": {"content": "Northwind (customer) is affected."}})
print(reply)
