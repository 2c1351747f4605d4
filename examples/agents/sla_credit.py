"""A scripted agent for seeds/sla-credit.yaml: no model, only slack_sdk (helpers in _colleagues.py).

It asks Maya for the outage's facts and waits for her (its polls wait out Slack's rate limits, moving the
clock on by each Retry-After), asks Laura for a credit with those facts, and answers the customer with
Laura's decision in her thread.
"""

import sys

from _colleagues import ask, channel_id, connect, find_user, message_with

client = connect()
sys.stdin.read()
shared = channel_id(client, "ext-northwind")
request = message_with(client, shared, "credit")
facts = ask(
    client,
    find_user(client, name="maya"),
    "Hi Maya, Northwind asks for an SLA credit: how long and how badly were orders degraded yesterday?",
    rounds=10,  # in a handover: polls, with the clock moved on 2 minutes between rounds
)
if facts is None:
    sys.exit("Maya did not answer; no credit asked for")

decision = ask(
    client,
    find_user(client, name="laura"),
    f"Hi Laura, Northwind asks for a service credit for yesterday's slowdown. Maya says: {facts}\n"
    "What is your decision on the credit?",
)
if decision is None:
    sys.exit("Laura did not decide")
if "approve" in decision.lower():
    reply = (
        "Hi Nina, thanks for your patience. "
        "We have approved a 10% service credit on your March invoice for yesterday's slowdown."
    )
else:
    reply = "Hi Nina, we looked at yesterday's slowdown against your SLA and cannot offer a credit for it this time."
client.chat_postMessage(channel=shared, thread_ts=request["ts"], text=reply)
print(reply)
