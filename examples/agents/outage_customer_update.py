"""A scripted agent for seeds/outage-customer-update.yaml: no model, only slack_sdk and the PagerDuty client.

It finds the open incident about failing order creation, asks its assignee in a DM what customers may be
told, waits for the answer (polling and moving the clock on), answers the customer with that alone, and
notes on the incident that Northwind is affected.
"""

import re
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
responder = incident["assignments"][0]["assignee"]["summary"]  # "Maya Chen"

slack = connect()
shared = channel_id(slack, "ext-northwind")
question = message_with(slack, shared, "known")
user = find_user(slack, name=responder.split()[0].lower())
answer = ask(
    slack,
    user,
    f"Hi {responder.split()[0]}, Northwind asks about '{incident['title']}'. "
    "What can we tell customers, and when should it work again?",
    rounds=6,  # busy with the incident: polls, with the clock moved on 2 minutes between rounds
)
if answer is None:
    sys.exit(f"{responder} did not answer; nothing told to the customer")

update = re.sub(r"^.*?tell customers:\s*", "", answer, flags=re.IGNORECASE)
reply = f"Hi Nina, yes, this is a known problem and our engineers are on it: {update}"
slack.chat_postMessage(channel=shared, thread_ts=question["ts"], text=reply)
pd.rpost(
    f"/incidents/{incident['id']}/notes",
    json={"note": {"content": "Northwind (customer) is affected: order creation fails for them since 13:40 UTC."}},
)
print(reply)
