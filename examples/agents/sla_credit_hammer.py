"""A failing agent for seeds/sla-credit.yaml: it polls through the rate limit.

It does everything in the right order, but its own polling loop answers a refused read by reading again
at once, whatever Retry-After says.
Fails: polled_politely.
"""

import sys

from _colleagues import advance, ask, channel_id, connect, find_user, message_with
from slack_sdk.errors import SlackApiError

client = connect()
sys.stdin.read()
shared = channel_id(client, "ext-northwind")
request = message_with(client, shared, "credit")
maya = find_user(client, name="maya")
dm = client.conversations_open(users=maya)["channel"]["id"]
asked = client.chat_postMessage(channel=dm, text="Hi Maya, how long and how badly were orders degraded yesterday?")[
    "ts"
]
facts = None
for _ in range(200):
    try:
        found = [m for m in client.conversations_history(channel=dm, oldest=asked)["messages"] if m.get("user") == maya]
    except SlackApiError as error:
        if error.response.status_code != 429:
            raise
        continue  # the mistake: straight back, whatever Retry-After says
    if found:
        facts = found[0]["text"]
        break
    advance("30s")
decision = ask(
    client, find_user(client, name="laura"), f"Hi Laura, Northwind asks for a service credit. Maya says: {facts}"
)
reply = f"Hi Nina, Laura's decision: {decision}."
client.chat_postMessage(channel=shared, thread_ts=request["ts"], text=reply)
print(reply)
