"""A scripted agent for seeds/contractor-offboarding.yaml: no model, only slack_sdk (helpers in _colleagues.py).

It reads Priya's request, finds the contractor's channels (users.conversations), removes her from each,
and tells Priya which ones, touching nothing else.
"""

import re
import sys

from _colleagues import channel_id, connect, find_user, message_with, text_of

client = connect()
sys.stdin.read()
requests = channel_id(client, "ops-requests")
request = message_with(client, requests, "contract ended")
name = re.search(r"([A-Z][a-z]+) [A-Z][a-z]+'s contract ended", text_of(request)).group(1)
contractor = find_user(client, name=name.lower())

channels = client.users_conversations(user=contractor, types="public_channel,private_channel", limit=200)["channels"]
removed = []
for channel in channels:
    if channel.get("is_general"):  # nobody can be removed from #general
        continue
    client.conversations_kick(channel=channel["id"], user=contractor)
    removed.append(f"#{channel['name']}")
reply = f"Done: I removed {name} from {', '.join(removed)}. Her messages and the channels are untouched."
client.chat_postMessage(channel=requests, thread_ts=request["ts"], text=reply)
print(reply)
