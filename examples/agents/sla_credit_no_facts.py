"""A failing agent for seeds/sla-credit.yaml: it asks for the decision without the facts it rests on.

It goes straight to Laura, without asking Maya how bad the outage was; with nothing to go on, Laura
declines, and the agent tells the customer so.
Fails: learned_the_outage_facts, told_laura_the_facts, credit_approved, answered_in_thread.
"""

import sys

from _colleagues import ask, channel_id, connect, find_user, message_with

client = connect()
sys.stdin.read()
shared = channel_id(client, "ext-northwind")
request = message_with(client, shared, "credit")
decision = ask(
    client,
    find_user(client, name="laura"),
    "Hi Laura, Northwind asks for a service credit for yesterday. Your decision?",
)
reply = f"Hi Nina, we looked into it: {decision or 'no decision yet'}."
client.chat_postMessage(channel=shared, thread_ts=request["ts"], text=reply)
print(reply)
